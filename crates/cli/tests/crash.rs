//! The server as a child process: `kill -9` in the middle of a hand, restart on the same
//! database, and no chip is lost. Then `stud verify` and `stud replay` on what was stored.
//!
//! What a crash does (README, "Crash recovery"): the hand in progress was never stored, so it
//! is void; at the restart every stack the ledger holds (the stacks before that hand) is
//! cashed out to its player's account.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a failed unwrap is a failed test

use std::io::{BufRead as _, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use stud_client::{Client, create_session, http_as, tables};
use stud_engine::{Action, Variant};
use stud_proto::{ClientMsg, HandDetail, HandPage, ServerMsg};
use uuid::Uuid;

const KEY: &str = "crash-test-operator-key-0123456789";

struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(db: &str) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_stud"))
            .args(["serve", "--bind", "127.0.0.1:0", "--database-url", db, "--tables-per-variant", "1"])
            .env("STUD_HAND_PAUSE_MS", "50")
            .env("STUD_OPERATOR_KEY", KEY)
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.split("listening on http://").nth(1) {
                    let addr: String =
                        rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ':').collect();
                    let _ = tx.send(addr);
                }
            }
        });
        let addr = rx.recv_timeout(Duration::from_secs(60)).expect("the server did not start");
        Server { child, addr }
    }

    /// SIGKILL: no shutdown code runs.
    fn kill_9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// SIGTERM: the graceful shutdown.
    fn stop(mut self) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
        assert!(self.child.wait().unwrap().success());
    }
}

fn stud(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_stud")).args(args).stderr(Stdio::inherit()).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap())
}

fn passive(legal: &[Action]) -> Action {
    [Action::Check, Action::Call, Action::BringIn, Action::Show]
        .into_iter()
        .find(|a| legal.contains(a))
        .unwrap_or(legal[0])
}

/// Three players who answer every prompt after `think`; returns their (token, player id).
/// Stops once the watcher has seen `hands` results and the next hand has started.
async fn play_until_mid_hand(addr: &str, hands: usize) -> Vec<(String, Uuid)> {
    let table = tables(addr).await.unwrap().into_iter().find(|t| t.variant == Variant::Stud).unwrap();
    let mut who = Vec::new();
    for seat in 1..=3u8 {
        let s = create_session(addr, &format!("crash {seat}")).await.unwrap();
        let (mut c, _) = Client::connect(addr, &s.token).await.unwrap();
        c.send(&ClientMsg::Sit {
            request_id: None,
            table_id: table.id,
            invite_code: None,
            seat: Some(seat),
            buy_in: 10_000,
        })
        .await
        .unwrap();
        who.push((s.token.clone(), s.player_id));
        tokio::spawn(async move {
            let mut key = 0u64;
            // Ends when the server dies.
            while let Ok(msg) = c.recv(Duration::from_secs(60)).await {
                if let ServerMsg::YourTurn { table_id, hand_id, seq, legal, .. } = msg {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    key += 1;
                    let act = ClientMsg::Act {
                        request_id: None,
                        table_id,
                        hand_id,
                        seq,
                        idempotency_key: key.to_string(),
                        action: passive(&legal),
                    };
                    if c.send(&act).await.is_err() {
                        break;
                    }
                }
            }
        });
    }
    let watcher = create_session(addr, "watcher").await.unwrap();
    let (mut w, _) = Client::connect(addr, &watcher.token).await.unwrap();
    w.send(&ClientMsg::JoinTable { request_id: None, table_id: table.id, invite_code: None }).await.unwrap();
    let mut results = 0;
    loop {
        match w.recv(Duration::from_secs(60)).await.unwrap() {
            ServerMsg::HandResult { .. } => results += 1,
            // A hand has started and bets are being made: this is the middle of a hand.
            ServerMsg::Event { event: stud_engine::Event::BringIn { .. }, .. } if results == hands => return who,
            _ => {}
        }
    }
}

#[test]
fn kill_9_mid_hand_then_restart_loses_no_chip_and_stored_hands_verify() {
    let dir = std::env::temp_dir().join("stud-crash-test");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.db", Uuid::new_v4().simple()));
    let db = format!("sqlite://{}", path.display());
    let rt = tokio::runtime::Runtime::new().unwrap();

    let server = Server::start(&db);
    let players = rt.block_on(play_until_mid_hand(&server.addr, 3));
    server.kill_9();

    // The restart recovers before it serves.
    let server = Server::start(&db);
    let store = rt.block_on(stud_store::open(&db)).unwrap();
    let totals = rt.block_on(store.totals()).unwrap();
    assert!(totals.conserved(), "{totals:?}");
    assert_eq!(totals.on_tables, 0, "every stack was cashed out at the restart: {totals:?}");
    let stored =
        rt.block_on(store.hands(&stud_store::HandQuery { limit: 500, ..stud_store::HandQuery::default() })).unwrap();
    // The hand cut short is not stored; the three before it are (the last one may still have
    // been in the writer's queue when the process died: then it is void too).
    let n = stored.len();
    assert!((2..=3).contains(&n), "{n} hands stored");
    for (token, player) in &players {
        let won: i64 = stored.iter().filter_map(|h| h.seat_of(*player)).map(|s| s.net).sum();
        let balance = rt.block_on(store.balance(*player)).unwrap();
        assert_eq!(balance as i64, 100_000 + won, "the voided hand's chips are back");
        // The player's session still works, with that balance.
        let (_, welcome) = rt.block_on(Client::connect(&server.addr, token)).unwrap();
        assert!(matches!(welcome, ServerMsg::Welcome { balance: b, .. } if b == balance), "{welcome:?}");
    }

    // `stud verify` by hand id, and on the operator's export; a tampered export fails.
    let id = stored[0].hand_id.to_string();
    assert_eq!(stud(&["verify", &id, "--database-url", &db]).0, 0);
    let (status, body) = rt.block_on(http_as(&server.addr, "GET", "/api/hands?limit=50", None, Some(KEY))).unwrap();
    assert_eq!(status, 200, "{body}");
    let page: HandPage = serde_json::from_str(&body).unwrap();
    assert_eq!(page.hands.len(), n);
    let export = dir.join(format!("{}.json", Uuid::new_v4().simple()));
    std::fs::write(&export, &body).unwrap();
    let (code, out) = stud(&["verify", export.to_str().unwrap()]);
    assert_eq!((code, out.matches("\"ok\":true").count()), (0, n), "{out}");

    let mut hand: HandDetail = page.hands[0].clone();
    let seed = hand.record.seed.clone().unwrap();
    let flipped = if seed.ends_with('0') { "1" } else { "0" };
    hand.record.seed = Some(format!("{}{flipped}", &seed[..seed.len() - 1]));
    std::fs::write(&export, serde_json::to_string(&hand).unwrap()).unwrap();
    let (code, out) = stud(&["verify", export.to_str().unwrap()]);
    assert_eq!(code, 1, "a changed seed fails: {out}");
    assert!(out.contains("commitment"), "{out}");

    let mut hand: HandDetail = page.hands[0].clone();
    let last = hand.record.actions.len() - 1;
    hand.record.actions.swap(0, last);
    std::fs::write(&export, serde_json::to_string(&hand).unwrap()).unwrap();
    assert_eq!(stud(&["verify", export.to_str().unwrap()]).0, 1, "reordered actions fail");

    // The operator's PHH replays with `stud replay` and verifies with `stud verify`.
    let (_, phh) = rt.block_on(http_as(&server.addr, "GET", "/api/hands?format=phh", None, Some(KEY))).unwrap();
    let phh_file = dir.join(format!("{}.phhs", Uuid::new_v4().simple()));
    std::fs::write(&phh_file, &phh).unwrap();
    let (code, out) = stud(&["replay", phh_file.to_str().unwrap()]);
    assert_eq!((code, out.lines().count()), (0, n), "{out}");
    let (code, out) = stud(&["verify", phh_file.to_str().unwrap()]);
    assert_eq!((code, out.matches("\"ok\":true").count()), (0, n), "{out}");
    // A dealt card changed in the PHH no longer matches the seed's deck.
    let tampered = tamper_first_deal(&phh);
    std::fs::write(&phh_file, tampered).unwrap();
    assert_eq!(stud(&["verify", phh_file.to_str().unwrap()]).0, 1);

    server.stop();
    for f in [&path, &export, &phh_file] {
        let _ = std::fs::remove_file(f);
    }
}

/// Swaps the first two cards of the first `d dh` line.
fn tamper_first_deal(phh: &str) -> String {
    let at = phh.find("\"d dh p1 ").unwrap() + "\"d dh p1 ".len();
    let (a, b) = (&phh[at..at + 2], &phh[at + 2..at + 4]);
    format!("{}{b}{a}{}", &phh[..at], &phh[at + 4..])
}
