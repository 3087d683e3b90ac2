//! `proto/PROTOCOL.md` against real frames: the document's example blocks are what this test
//! sees over real sockets, so the text cannot drift from the server.
//!
//! A fenced block after `<!-- frames: NAME -->` must be, line for line, the frames this test
//! records under NAME: the same direction, `type`, event kind, `request_id`, `detail` and
//! error `code`, in the same order. A block after `<!-- frames: NAME (shapes) -->` (a hand,
//! whose cards differ every run) is checked frame by frame for its kind and keys: every
//! documented frame kind was seen, and every key it shows is a key the server sends on it.
//! The timer values in the examples are the server's defaults (section 6 says what they are).
//!
//! `PRINT_FRAMES=1 cargo test -p stud-e2e document -- --nocapture` prints the frames recorded.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use stud_client::{Client, create_session};
use stud_proto::{ClientMsg, PROTOCOL_VERSION, ServerMsg};
use stud_server::Config;

use crate::{WAIT, passive, spawn_app, table_of};

/// The frames of each named example, as `(direction, frame)` with `->` client to server.
#[derive(Default)]
struct Recorded {
    blocks: BTreeMap<&'static str, Vec<(&'static str, Value)>>,
}

impl Recorded {
    fn push(&mut self, block: &'static str, dir: &'static str, frame: Value) {
        if std::env::var_os("PRINT_FRAMES").is_some() {
            println!("[{block}] {dir} {frame}");
        }
        self.blocks.entry(block).or_default().push((dir, frame));
    }

    async fn send(&mut self, block: &'static str, c: &mut Client, msg: &ClientMsg) {
        self.push(block, "->", serde_json::to_value(msg).unwrap());
        c.send(msg).await.unwrap();
    }

    /// Receives until `done` says the frame just read ends the example; records every frame.
    async fn until(
        &mut self,
        block: &'static str,
        c: &mut Client,
        mut done: impl FnMut(&ServerMsg) -> bool,
    ) -> ServerMsg {
        loop {
            let text = c.recv_text(WAIT).await.unwrap();
            let msg: ServerMsg = serde_json::from_str(&text).unwrap();
            self.push(block, "<-", serde_json::from_str(&text).unwrap());
            if done(&msg) {
                return msg;
            }
        }
    }
}

/// What an exact block compares: direction, type, event kind, request_id, detail, code.
fn shape(dir: &str, frame: &Value) -> String {
    let field = |k: &str| frame.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let event = frame.get("event").and_then(|e| e.get("event")).and_then(Value::as_str).unwrap_or("");
    format!(
        "{dir} {} {event} id={} detail={} code={}",
        field("type"),
        field("request_id"),
        field("detail"),
        field("code")
    )
}

/// The key of a frame's kind: its type, and its event's kind for `event` frames.
fn kind(frame: &Value) -> String {
    let t = frame.get("type").and_then(Value::as_str).unwrap_or("");
    match frame.get("event").and_then(|e| e.get("event")).and_then(Value::as_str) {
        Some(e) => format!("{t}/{e}"),
        None => t.to_owned(),
    }
}

/// A documented frame line as JSON: `{…anything…}` placeholders become `{}`.
fn doc_json(text: &str) -> Value {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("{…") {
        out.push_str(&rest[..i]);
        let close = rest[i..].find('}').map_or(rest.len(), |j| i + j + 1);
        out.push_str("{}");
        rest = &rest[close..];
    }
    out.push_str(rest);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("PROTOCOL.md frame is not JSON ({e}): {text}"))
}

/// How a block is compared.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// every frame, in order
    Exact,
    /// the frames that carry a `request_id`, in order (broadcasts between them vary)
    Replies,
    /// kinds and keys only (the cards vary)
    Shapes,
}

/// A documented block: its name, how it is compared, and its (direction, frame) lines.
type Block = (String, Mode, Vec<(String, Value)>);

/// Every `<!-- frames: NAME -->` block of the document.
fn doc_blocks(doc: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        let Some(name) = line.trim().strip_prefix("<!-- frames: ").and_then(|l| l.strip_suffix(" -->")) else {
            continue;
        };
        let (name, mode) = match (name.strip_suffix(" (shapes)"), name.strip_suffix(" (replies)")) {
            (Some(n), _) => (n.to_owned(), Mode::Shapes),
            (_, Some(n)) => (n.to_owned(), Mode::Replies),
            _ => (name.to_owned(), Mode::Exact),
        };
        assert_eq!(lines.next().map(str::trim), Some("```json"), "block {name}: a json fence must follow");
        let mut frames = Vec::new();
        for l in lines.by_ref() {
            let l = l.trim();
            if l == "```" {
                break;
            }
            for dir in ["->", "<-"] {
                if let Some(json) = l.strip_prefix(dir) {
                    // The frame, then perhaps a remark in parentheses.
                    let json = json.trim();
                    let end = json.rfind('}').map_or(json.len(), |i| i + 1);
                    frames.push((dir.to_owned(), doc_json(&json[..end])));
                }
            }
        }
        blocks.push((name, mode, frames));
    }
    blocks
}

fn your_turn(m: &ServerMsg) -> bool {
    matches!(m, ServerMsg::YourTurn { .. })
}

#[tokio::test]
async fn protocol_md_examples_are_the_frames_the_server_sends() {
    // The documented timers are the defaults; only the pause between hands is shortened.
    let defaults = Config::default();
    let (server, addr) = spawn_app(|c| {
        c.action_timeout_ms = defaults.action_timeout_ms;
        c.time_bank_ms = defaults.time_bank_ms;
        c.disconnect_grace_ms = defaults.disconnect_grace_ms;
    })
    .await;
    let table = table_of(&addr, stud_engine::Variant::Stud).await;
    let mut rec = Recorded::default();

    // 1. The handshake.
    let ann = create_session(&addr, "Ann").await.unwrap();
    let mut a = Client::connect_raw(&addr).await.unwrap();
    rec.send("handshake", &mut a, &ClientMsg::Hello { version: PROTOCOL_VERSION, token: ann.token.clone() }).await;
    rec.until("handshake", &mut a, |m| matches!(m, ServerMsg::Welcome { .. })).await;

    // 2. Watching, then sitting; and sitting without watching first.
    let join = ClientMsg::JoinTable { request_id: Some("j1".into()), table_id: table.id, invite_code: None };
    rec.send("join", &mut a, &join).await;
    rec.until("join", &mut a, |m| matches!(m, ServerMsg::Ack { .. })).await;
    let sit = |id: &str, seat| ClientMsg::Sit {
        request_id: Some(id.into()),
        table_id: table.id,
        invite_code: None,
        seat: Some(seat),
        buy_in: table.max_buy_in,
    };
    rec.send("sit", &mut a, &sit("sit1", 1)).await;
    let mut acked = false;
    rec.until("sit", &mut a, |m| {
        acked |= matches!(m, ServerMsg::Ack { .. });
        acked && matches!(m, ServerMsg::Snapshot { .. })
    })
    .await;
    let bob = create_session(&addr, "Bob").await.unwrap();
    let (mut b, _) = Client::connect(&addr, &bob.token).await.unwrap();
    rec.send("sit-unjoined", &mut b, &sit("sit2", 2)).await;
    let mut acked = false;
    rec.until("sit-unjoined", &mut b, |m| {
        acked |= matches!(m, ServerMsg::Ack { .. });
        acked && matches!(m, ServerMsg::Snapshot { .. })
    })
    .await;

    // 4. Hands as seat 1 sees them (Bob plays passively in the background), until every
    // kind of frame the document shows has been seen: seat 1 is asked for the bring-in in
    // about every other hand.
    let bob_task = tokio::spawn(async move {
        loop {
            if let ServerMsg::YourTurn { table_id, seq, hand_id, legal, .. } = b.recv(WAIT).await.unwrap() {
                let action = passive(&legal);
                let key = format!("b{seq}");
                let act = ClientMsg::Act { request_id: None, table_id, hand_id, seq, idempotency_key: key, action };
                b.send(&act).await.unwrap();
            }
        }
    });
    let mut acting_done = false;
    let mut asked_bring_in = false;
    let mut pending: Option<ServerMsg> = None;
    for _hand in 0..24 {
        loop {
            let msg = match pending.take() {
                Some(m) => m,
                None => rec.until("hand", &mut a, |m| your_turn(m) || matches!(m, ServerMsg::HandResult { .. })).await,
            };
            let ServerMsg::YourTurn {
                table_id, seq, hand_id, legal, deadline_ms, time_bank_ms, bring_in_amount, ..
            } = msg
            else {
                break;
            };
            asked_bring_in |= bring_in_amount.is_some();
            let action = passive(&legal);
            let act = |id: &str, key: &str| ClientMsg::Act {
                request_id: Some(id.into()),
                table_id,
                hand_id,
                seq,
                idempotency_key: key.into(),
                action,
            };
            if acting_done {
                rec.send("hand", &mut a, &act(&format!("r{seq}"), &format!("a-{seq}"))).await;
                continue;
            }
            // The clock as section 6 says: action time plus the time bank.
            let full = defaults.action_timeout_ms + defaults.time_bank_ms;
            assert_eq!((deadline_ms, time_bank_ms), (full, defaults.time_bank_ms));
            // 5. Acting: applied, the same key again, another key for the answered prompt.
            for (id, key) in [("a1", "k1"), ("a1", "k1"), ("a2", "k2")] {
                rec.send("acting", &mut a, &act(id, key)).await;
                rec.until("acting", &mut a, |m| {
                    if your_turn(m) {
                        pending = Some(m.clone());
                    }
                    matches!(m, ServerMsg::Ack { .. } | ServerMsg::Error { .. })
                })
                .await;
            }
            acting_done = true;
        }
        // After the result: the table as it stands, the finished hand's totals in it.
        let after = rec.until("hand", &mut a, |m| matches!(m, ServerMsg::Snapshot { .. })).await;
        let ServerMsg::Snapshot { table: state, .. } = after else { unreachable!() };
        let hand = state.hand.expect("the finished hand");
        let pots: u64 = hand.pots.iter().map(|p| p.amount).sum();
        let committed: u64 = hand.view.seats.iter().map(|s| s.committed).sum();
        assert!(pots > 0 && committed == pots, "after the hand: pots {:?}, seats {:?}", hand.pots, hand.view.seats);
        if acting_done && asked_bring_in {
            break;
        }
    }
    assert!(acting_done && asked_bring_in, "24 hands without seat 1 bringing in");
    bob_task.abort();

    // Asking about a table not joined.
    let cal = create_session(&addr, "Cal").await.unwrap();
    let (mut c, _) = Client::connect(&addr, &cal.token).await.unwrap();
    rec.send("not-joined", &mut c, &ClientMsg::Snapshot { request_id: Some("s1".into()), table_id: table.id }).await;
    rec.until("not-joined", &mut c, |m| matches!(m, ServerMsg::Error { .. })).await;

    // The document, block by block.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../proto/PROTOCOL.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let blocks = doc_blocks(&doc);
    let names: BTreeSet<&str> = blocks.iter().map(|(n, _, _)| n.as_str()).collect();
    let recorded: BTreeSet<&str> = rec.blocks.keys().copied().collect();
    assert_eq!(names, recorded, "PROTOCOL.md's frame blocks and this test's examples");
    // The keys the server sent on each kind of frame, over the whole run.
    let mut keys: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (dir, f) in rec.blocks.values().flatten() {
        keys.entry(format!("{dir} {}", kind(f))).or_default().extend(f.as_object().unwrap().keys().cloned());
    }
    let has_id = |f: &Value| f.get("request_id").is_some_and(Value::is_string);
    for (name, mode, lines) in &blocks {
        let real = &rec.blocks[name.as_str()];
        if *mode == Mode::Shapes {
            // Every documented kind was sent, and no key the server does not send on it.
            for (dir, f) in lines {
                let k = format!("{dir} {}", kind(f));
                let seen = keys.get(&k).unwrap_or_else(|| panic!("{name}: PROTOCOL.md shows `{k}`, never sent: {f}"));
                for key in f.as_object().unwrap().keys() {
                    assert!(
                        seen.contains(key),
                        "{name}: PROTOCOL.md shows `{key}` on `{k}`; the server sends {seen:?}"
                    );
                }
            }
            continue;
        }
        let keep = |f: &Value| *mode == Mode::Exact || has_id(f);
        let documented: Vec<String> = lines.iter().filter(|(_, f)| keep(f)).map(|(d, f)| shape(d, f)).collect();
        let sent: Vec<String> = real.iter().filter(|(_, f)| keep(f)).map(|(d, f)| shape(d, f)).collect();
        assert_eq!(documented, sent, "PROTOCOL.md block `{name}` is not what the server sends");
    }
    // The first prompt shown in the document has the default clock too (section 6).
    let prompt = blocks
        .iter()
        .flat_map(|(_, _, l)| l)
        .find(|(_, f)| f.get("type").and_then(Value::as_str) == Some("your_turn"))
        .map(|(_, f)| f.clone())
        .unwrap();
    assert_eq!(prompt["deadline_ms"], defaults.action_timeout_ms + defaults.time_bank_ms, "{prompt}");
    assert_eq!(prompt["time_bank_ms"], defaults.time_bank_ms, "{prompt}");
    let section6 = format!(
        "`deadline_ms` is the action time ({} s by default) plus the player's remaining time bank\n({} s)",
        defaults.action_timeout_ms / 1000,
        defaults.time_bank_ms / 1000
    );
    assert!(doc.contains(&section6), "section 6 must say: {section6}");
    server.shutdown().await;
}
