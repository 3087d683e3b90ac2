//! Who may come into a private table, across a restart (shared by the crash and cluster test
//! binaries): a table made private, its code rotated or revoked while a hand is in play, is
//! private, with that code, for a stranger before the restart, during the resumed hand and
//! after it; the lobby stops listing it once the change applies (between hands).
#![allow(dead_code)] // each test binary uses a part

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use stud_client::{Client, create_session, http_as, tables};
use stud_proto::{AdminTable, ClientMsg, ErrorCode, ServerMsg};
use uuid::Uuid;

use crate::bots;

/// What the two seated players saw, and which hand they may finish.
#[derive(Default)]
struct Seat {
    /// hands that started, in order
    started: Vec<Uuid>,
    /// hands that ended
    ended: Vec<Uuid>,
    /// the hand in play as the last snapshot showed it
    in_play: Option<Uuid>,
}

#[derive(Default)]
struct Shared {
    seats: [Seat; 2],
    /// the players act only in this hand (otherwise a hand stays in play: nobody acts)
    finish: Option<Uuid>,
    stop: bool,
}

/// A seated player: sits once, reconnects (with its token) whenever the server goes away, and
/// answers its prompts only in the hand it is told to finish.
async fn player(addr: String, token: String, table: Uuid, k: usize, shared: Arc<Mutex<Shared>>) {
    let mut sat = false;
    while !shared.lock().unwrap().stop {
        let Ok((mut c, _)) = Client::connect(&addr, &token).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        if !sat {
            let seat = Some(u8::try_from(k + 1).unwrap());
            let sit = ClientMsg::Sit { request_id: None, table_id: table, invite_code: None, seat, buy_in: 10_000 };
            c.send(&sit).await.unwrap();
            sat = true;
        }
        let mut prompt = None;
        loop {
            let msg = match c.recv(Duration::from_millis(100)).await {
                Ok(m) => Some(m),
                Err(stud_client::ClientError::Timeout) => None,
                Err(_) => break,
            };
            let finish = {
                let mut s = shared.lock().unwrap();
                if s.stop {
                    return;
                }
                match msg {
                    Some(ServerMsg::HandStarted { table_id, hand_id, .. }) if table_id == table => {
                        s.seats[k].started.push(hand_id);
                        s.seats[k].in_play = Some(hand_id);
                    }
                    Some(ServerMsg::HandResult { table_id, hand_id, .. }) if table_id == table => {
                        s.seats[k].ended.push(hand_id);
                        s.seats[k].in_play = None;
                    }
                    Some(ServerMsg::Snapshot { table_id, table: t, .. }) if table_id == table => {
                        let live = t.hand.as_ref().filter(|h| h.view.phase != stud_engine::Phase::Over);
                        s.seats[k].in_play = live.map(|h| h.hand_id);
                    }
                    Some(ServerMsg::YourTurn { table_id, hand_id, seq, legal, .. }) if table_id == table => {
                        prompt = Some((hand_id, seq, legal));
                    }
                    _ => {}
                }
                s.finish
            };
            if let Some((hand_id, seq, legal)) = prompt.take_if(|(h, _, _)| Some(*h) == finish) {
                let action = bots::choose(&legal, false, true);
                if c.send(&bots::act(table, hand_id, seq, action)).await.is_err() {
                    break;
                }
            }
        }
    }
}

/// A player who sits nowhere and tries to come in.
struct Stranger {
    addr: String,
    token: String,
}

impl Stranger {
    /// `join_table` (watch) and `sit` with `code`: the code of the error each got, `None` for
    /// one accepted. The sit asks for a buy-in below the table's minimum: past the door it is
    /// refused by the table (`buy_in_out_of_range`), so the stranger never takes a seat (and
    /// is never dealt into a hand the test holds in play).
    async fn tries(&self, table: Uuid, code: Option<&str>) -> [Option<ErrorCode>; 2] {
        let (mut c, _) = connect(&self.addr, &self.token).await;
        let invite_code = code.map(str::to_owned);
        let join = ClientMsg::JoinTable { request_id: Some("join".into()), table_id: table, invite_code };
        let joined = answer(&mut c, &join, "join").await;
        if joined.is_none() {
            leave(&mut c, table).await;
        }
        let invite_code = code.map(str::to_owned);
        let sit =
            ClientMsg::Sit { request_id: Some("sit".into()), table_id: table, invite_code, seat: Some(5), buy_in: 1 };
        let sat = answer(&mut c, &sit, "sit").await;
        c.close().await;
        [joined, sat]
    }

    /// Refused both ways with `invite_required`.
    async fn refused(&self, table: Uuid, code: Option<&str>, when: &str) {
        let got = self.tries(table, code).await;
        assert_eq!(
            got,
            [Some(ErrorCode::InviteRequired); 2],
            "{when}: a stranger with {code:?} must be refused join_table and sit (got {got:?})"
        );
    }

    /// Let in both ways: watching, and to the table's own check of the buy-in.
    async fn admitted(&self, table: Uuid, code: Option<&str>, when: &str) {
        let got = self.tries(table, code).await;
        let let_in = [None, Some(ErrorCode::BuyInOutOfRange)];
        assert_eq!(got, let_in, "{when}: a stranger with {code:?} must be let in (got {got:?})");
    }
}

/// Connects, retrying while the server starts.
async fn connect(addr: &str, token: &str) -> (Client, ServerMsg) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match Client::connect(addr, token).await {
            Ok(c) => return c,
            Err(e) if Instant::now() > deadline => panic!("cannot connect to {addr}: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// Sends `msg` and waits for its answer: `None` when it was accepted (a snapshot or an ack
/// carrying `id`), else the error's code.
async fn answer(c: &mut Client, msg: &ClientMsg, id: &str) -> Option<ErrorCode> {
    c.send(msg).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        match c.recv(Duration::from_secs(20)).await.unwrap() {
            ServerMsg::Error { request_id, code, .. } if request_id.as_deref() == Some(id) => return Some(code),
            ServerMsg::Ack { request_id, .. } if request_id.as_deref() == Some(id) => return None,
            ServerMsg::Snapshot { request_id, .. } if request_id.as_deref() == Some(id) => return None,
            _ => {}
        }
    }
    panic!("no answer to {id}");
}

async fn leave(c: &mut Client, table: Uuid) {
    let _ = answer(c, &ClientMsg::Leave { request_id: Some("leave".into()), table_id: table }, "leave").await;
}

async fn wait_for(what: &str, within: Duration, mut ok: impl FnMut() -> bool) {
    let deadline = Instant::now() + within;
    while !ok() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// An operator's request; the table as answered.
async fn operator(addr: &str, key: &str, method: &str, path: &str, body: Option<&str>) -> AdminTable {
    let (status, text) = http_as(addr, method, path, body, Some(key)).await.unwrap();
    assert_eq!(status, 200, "{method} {path}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// Restarts the server, then forgets the hand the players last saw in play: from then on it
/// is what a fresh snapshot shows (on a cluster the table comes back once a worker has
/// claimed it, which may be after the gateway listens).
async fn restart_fresh(restart: &mut impl AsyncFnMut(), shared: &Mutex<Shared>) {
    // Forgotten before the restart, not after it: the bots reconnect while `restart` waits
    // for the new server to serve, and the snapshot that shows them the resumed hand may come
    // before `restart` returns (clearing it then lost that news and the wait timed out).
    for seat in &mut shared.lock().unwrap().seats {
        seat.in_play = None;
    }
    restart().await;
}

/// The scenario. `addr` is where players and operators connect (the server keeps it across
/// restarts); `restart` stops the server (its own way: `kill -9`, SIGTERM, a cluster's nodes)
/// and starts it again on the same database, returning once it serves.
pub async fn private_mid_hand_across_restarts(addr: &str, key: &str, mut restart: impl AsyncFnMut()) {
    let lobby = tables(addr).await.unwrap();
    let table = lobby.iter().find(|t| t.variant == stud_engine::Variant::Stud).expect("a stud table").id;
    let shared = Arc::new(Mutex::new(Shared::default()));
    let mut seated = Vec::new();
    for (k, name) in ["Ann", "Bob"].into_iter().enumerate() {
        let s = create_session(addr, name).await.unwrap();
        seated.push(tokio::spawn(player(addr.to_owned(), s.token, table, k, shared.clone())));
    }
    let carl = Stranger { addr: addr.to_owned(), token: create_session(addr, "Carl").await.unwrap().token };
    let hand_in_play = || {
        let s = shared.lock().unwrap();
        s.seats[0].in_play.filter(|h| s.seats[1].in_play == Some(*h))
    };
    wait_for("a hand in play", Duration::from_secs(30), || hand_in_play().is_some()).await;
    let first = hand_in_play().unwrap();
    carl.admitted(table, None, "a public table").await;

    // Made private mid-hand: the change is stored (and refused to strangers) at once; the
    // table takes it between hands.
    let patched =
        operator(addr, key, "PATCH", &format!("/api/admin/tables/{table}"), Some(r#"{"private":true}"#)).await;
    let code = patched.invite_code.expect("a table made private gets an invite code");
    carl.refused(table, None, "made private mid-hand, before the restart").await;
    restart_fresh(&mut restart, &shared).await;
    wait_for("the hand resumed", Duration::from_secs(30), || hand_in_play() == Some(first)).await;
    carl.refused(table, None, "made private mid-hand, during the resumed hand").await;
    carl.refused(table, Some("WRONGCODE234"), "during the resumed hand").await;
    carl.admitted(table, Some(&code), "with the code, during the resumed hand").await;
    assert_eq!(hand_in_play(), Some(first), "the checks ran while the resumed hand was in play");

    // The hand ends: the change applies and the lobby stops listing the table.
    shared.lock().unwrap().finish = Some(first);
    wait_for("the hand to end", Duration::from_secs(30), || shared.lock().unwrap().seats[0].ended.contains(&first))
        .await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while tables(addr).await.unwrap().iter().any(|t| t.id == table) {
        assert!(Instant::now() < deadline, "the lobby still lists the table after its hand ended");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    carl.refused(table, None, "after the resumed hand").await;
    carl.admitted(table, Some(&code), "with the code, after the resumed hand").await;

    // A code rotated mid-hand: the old one is refused across the restart, the new one lets in.
    wait_for("the next hand", Duration::from_secs(30), || hand_in_play().is_some_and(|h| h != first)).await;
    let second = hand_in_play().unwrap();
    let rotated = operator(addr, key, "POST", &format!("/api/admin/tables/{table}/invite"), None).await;
    let new_code = rotated.invite_code.expect("a rotated code");
    assert_ne!(new_code, code);
    carl.refused(table, Some(&code), "the old code after a rotation, before the restart").await;
    restart_fresh(&mut restart, &shared).await;
    wait_for("the hand resumed", Duration::from_secs(30), || hand_in_play() == Some(second)).await;
    carl.refused(table, Some(&code), "the old code after a rotation, during the resumed hand").await;
    carl.admitted(table, Some(&new_code), "the rotated code, during the resumed hand").await;

    // Revoked mid-hand: nobody new comes in, with any code, across the restart.
    let revoked = operator(addr, key, "DELETE", &format!("/api/admin/tables/{table}/invite"), None).await;
    assert_eq!(revoked.invite_code, None);
    restart_fresh(&mut restart, &shared).await;
    wait_for("the hand resumed", Duration::from_secs(30), || hand_in_play() == Some(second)).await;
    carl.refused(table, Some(&new_code), "a revoked code, during the resumed hand").await;
    carl.refused(table, None, "a revoked code, during the resumed hand").await;
    shared.lock().unwrap().finish = Some(second);
    wait_for("the hand to end", Duration::from_secs(30), || shared.lock().unwrap().seats[0].ended.contains(&second))
        .await;
    carl.refused(table, Some(&new_code), "a revoked code, after the hand").await;

    shared.lock().unwrap().stop = true;
    for p in seated {
        let _ = tokio::time::timeout(Duration::from_secs(5), p).await;
    }
}
