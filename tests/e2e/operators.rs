//! Operators over the real HTTP API and real sockets: keys, a private table with an invite
//! code, pause / change stakes / resume, kick, close, a restart; the ledger checked after each
//! step. And the admission limits, each shown with its error.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use stud_client::{Client, create_session, http_as, tables};
use stud_engine::Event;
use stud_proto::{AdminTable, ClientMsg, ErrorCode, MoneyDisplay, ServerMsg, TableSettings};
use stud_server::Server;
use uuid::Uuid;

use crate::{Player, passive, spawn_app};

const KEY: &str = "operator-key-for-e2e-0123456789";

async fn call(addr: &str, method: &str, path: &str, body: Option<&str>, key: Option<&str>) -> (u16, String) {
    http_as(addr, method, path, body, key).await.unwrap()
}

async fn admin<T: serde::de::DeserializeOwned>(addr: &str, method: &str, path: &str, body: Option<&str>) -> T {
    let (status, text) = call(addr, method, path, body, Some(KEY)).await;
    assert!((200..300).contains(&status), "{method} {path}: {status} {text}");
    serde_json::from_str(&text).unwrap()
}

/// The ledger, in the database and in memory, after the writer caught up.
async fn ledger_ok(server: &Server) {
    assert!(server.app.writer.flush().await);
    let t = server.app.store.totals().await.unwrap();
    assert!(t.conserved(), "{t:?}");
}

/// A player acting passively on every prompt until `stop`.
fn autoplay(mut p: Player, stop: Arc<AtomicBool>) -> tokio::task::JoinHandle<Player> {
    tokio::spawn(async move {
        let mut key = 0u64;
        while !stop.load(Ordering::Relaxed) {
            let Ok(msg) = p.client.recv(Duration::from_millis(200)).await else { continue };
            p.audit(&msg);
            if let ServerMsg::YourTurn { table_id, hand_id, seq, legal, .. } = msg {
                key += 1;
                let action = passive(&legal);
                let act = ClientMsg::Act {
                    request_id: None,
                    table_id,
                    hand_id,
                    seq,
                    idempotency_key: key.to_string(),
                    action,
                };
                if p.client.send(&act).await.is_err() {
                    break;
                }
            }
        }
        p
    })
}

fn settings() -> TableSettings {
    TableSettings { private: true, display: MoneyDisplay::Chips, ..crate::stud_table_settings("Club night") }
}

/// Waits for the watcher to see the next hand's antes; returns their amount.
async fn next_ante(w: &mut Player) -> u64 {
    loop {
        if let ServerMsg::Event { event: Event::Ante { amount, .. }, .. } = w.recv().await {
            return amount;
        }
    }
}

#[tokio::test]
async fn an_operator_runs_a_private_table_from_creation_to_close_and_a_restart_keeps_it() {
    let (path, url) = crate::temp_db("operators");
    let db = url.clone();
    let (server, addr) = spawn_app(move |c| {
        c.database_url = db;
        c.operator_key = Some(KEY.into());
        c.invite_attempts_per_minute = 3;
    })
    .await;

    // Every admin route refuses a request without a key, or with a wrong one, and says nothing.
    let some = Uuid::new_v4();
    let routes = [
        ("GET", "/api/admin/tables".to_owned()),
        ("POST", "/api/admin/tables".to_owned()),
        ("GET", format!("/api/admin/tables/{some}")),
        ("PATCH", format!("/api/admin/tables/{some}")),
        ("POST", format!("/api/admin/tables/{some}/pause")),
        ("POST", format!("/api/admin/tables/{some}/resume")),
        ("POST", format!("/api/admin/tables/{some}/close")),
        ("GET", format!("/api/admin/tables/{some}/invite")),
        ("POST", format!("/api/admin/tables/{some}/invite")),
        ("DELETE", format!("/api/admin/tables/{some}/invite")),
        ("GET", format!("/api/admin/tournaments/{some}/invite")),
        ("POST", format!("/api/admin/tables/{some}/kick")),
        ("GET", "/api/admin/bans".to_owned()),
        ("POST", "/api/admin/bans".to_owned()),
        ("DELETE", format!("/api/admin/bans?player_id={some}")),
        ("GET", "/api/admin/log".to_owned()),
    ];
    for (method, path) in &routes {
        for key in [None, Some("wrong-key-0123456789abcdef")] {
            let (status, body) = call(&addr, method, path, Some("{}"), key).await;
            assert_eq!(status, 401, "{method} {path} with {key:?}: {body}");
            assert!(body.contains("\"unauthorized\"") && !body.contains(&some.to_string()), "{body}");
        }
    }

    // A private table: not in the lobby; no way in without the code.
    let body = serde_json::to_string(&settings()).unwrap();
    let table: AdminTable = admin(&addr, "POST", "/api/admin/tables", Some(&body)).await;
    let code = table.invite_code.clone().expect("a private table has a code");
    // Shown in chips, as the operator said: in its settings and its lobby line.
    assert_eq!(table.settings.display, MoneyDisplay::Chips);
    assert!(table.status.as_ref().is_none_or(|s| s.display == MoneyDisplay::Chips), "{:?}", table.status);
    assert!(tables(&addr).await.unwrap().iter().all(|t| t.id != table.id), "private tables are not listed");
    let mut outsider = Player::new(&addr, "outsider").await;
    // No code is not a guess and is not counted; the three wrong codes are (3 per minute here).
    let wrong = |n: u8| Some(format!("WRONGCODE12{n}"));
    for attempt in [None, wrong(1), None, wrong(2), wrong(3)] {
        outsider.send(ClientMsg::JoinTable { request_id: None, table_id: table.id, invite_code: attempt }).await;
        let err = outsider.until(|m| matches!(m, ServerMsg::Error { .. })).await;
        assert!(matches!(err, ServerMsg::Error { code: ErrorCode::InviteRequired, .. }), "{err:?}");
    }
    // Other table messages do not get in either (regression: they used to subscribe the socket).
    for msg in [
        ClientMsg::Snapshot { request_id: None, table_id: table.id },
        ClientMsg::SitOut { request_id: None, table_id: table.id },
    ] {
        outsider.send(msg).await;
        let err = outsider.until(|m| matches!(m, ServerMsg::Error { .. } | ServerMsg::Snapshot { .. })).await;
        assert!(matches!(err, ServerMsg::Error { code: ErrorCode::NotSeated, .. }), "{err:?}");
    }
    // The fourth wrong try within the minute is rate limited (3 per minute here).
    outsider
        .send(ClientMsg::Sit { request_id: None, table_id: table.id, invite_code: wrong(4), seat: None, buy_in: 800 })
        .await;
    let err = outsider.until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(matches!(err, ServerMsg::Error { code: ErrorCode::RateLimited, .. }), "{err:?}");

    // With the code, two players sit and play; a watcher follows.
    let stop = Arc::new(AtomicBool::new(false));
    let mut seated = Vec::new();
    for (seat, name) in [(1, "Ann"), (2, "Bo")] {
        let mut p = Player::new(&addr, name).await;
        let sit = ClientMsg::Sit {
            request_id: Some("s".into()),
            table_id: table.id,
            invite_code: Some(code.clone()),
            seat: Some(seat),
            buy_in: 4_000,
        };
        p.send(sit).await;
        let ack = p.until(|m| matches!(m, ServerMsg::Ack { .. } | ServerMsg::Error { .. })).await;
        assert!(matches!(ack, ServerMsg::Ack { .. }), "{ack:?}");
        p.seat = Some(seat);
        seated.push(p);
    }
    let (ann, bo) = (seated[0].player_id, seated[1].player_id);
    let mut players: Vec<_> = seated.into_iter().map(|p| autoplay(p, stop.clone())).collect();
    let mut watcher = Player::new(&addr, "rail").await;
    watcher.send(ClientMsg::JoinTable { request_id: None, table_id: table.id, invite_code: Some(code.clone()) }).await;
    let snap = watcher.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
    assert!(
        matches!(snap, ServerMsg::Snapshot { ref table, .. } if table.seat_count == 4 && table.display == MoneyDisplay::Chips),
        "{snap:?}"
    );
    for _ in 0..2 {
        watcher.until(|m| matches!(m, ServerMsg::HandResult { .. })).await;
    }
    ledger_ok(&server).await;

    // Pause: the hand in play finishes, then no new one starts.
    let paused: AdminTable = admin(&addr, "POST", &format!("/api/admin/tables/{}/pause", table.id), None).await;
    assert!(paused.paused);
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    let t: AdminTable = admin(&addr, "GET", &format!("/api/admin/tables/{}", table.id), None).await;
    assert_eq!(t.current_hand, None, "paused after the hand in play");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let later: AdminTable = admin(&addr, "GET", &format!("/api/admin/tables/{}", table.id), None).await;
    assert_eq!(later.hands_played, t.hands_played, "no hand while paused");
    ledger_ok(&server).await;

    // New stakes while paused; they apply from the next hand, which starts on resume.
    let patch = r#"{"ante": 20, "bring_in": 30, "small_bet": 80, "big_bet": 160}"#;
    let changed: AdminTable = admin(&addr, "PATCH", &format!("/api/admin/tables/{}", table.id), Some(patch)).await;
    assert_eq!((changed.settings.ante, changed.settings.big_bet), (20, 160));
    assert_eq!(changed.invite_code.as_deref(), Some(code.as_str()), "the code stays");
    let (status, _) =
        call(&addr, "PATCH", &format!("/api/admin/tables/{}", table.id), Some(r#"{"seats": 9}"#), Some(KEY)).await;
    assert_eq!(status, 400, "bad settings are refused");
    // The rail may still hold frames of the hand that was in play when the pause came (it can
    // start just after the two results above): read them all before resuming.
    while tokio::time::timeout(Duration::from_millis(300), watcher.recv()).await.is_ok() {}
    let _: AdminTable = admin(&addr, "POST", &format!("/api/admin/tables/{}/resume", table.id), None).await;
    assert_eq!(next_ante(&mut watcher).await, 20, "the new ante from the next hand");
    ledger_ok(&server).await;

    // Kick Bo at once: his hand is given up, he is cashed out; the table waits for players.
    let (status, body) = call(
        &addr,
        "POST",
        &format!("/api/admin/tables/{}/kick", table.id),
        Some(&format!(r#"{{"player_id":"{bo}","now":true}}"#)),
        Some(KEY),
    )
    .await;
    assert_eq!((status, body.as_str()), (200, r#"{"kicked":true}"#));
    ledger_ok(&server).await;
    // Out once the hand he was in is over (the clock plays his part at once).
    let deadline = tokio::time::Instant::now() + crate::WAIT;
    loop {
        let t: AdminTable = admin(&addr, "GET", &format!("/api/admin/tables/{}", table.id), None).await;
        if t.status.map(|s| s.players) == Some(vec!["Ann".to_owned()]) {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "Bo is still seated");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    ledger_ok(&server).await;

    // A second private table that stays open over the restart.
    let mut other = settings();
    other.name = "Late game".into();
    other.variant = stud_engine::Variant::Razz;
    let kept: AdminTable =
        admin(&addr, "POST", "/api/admin/tables", Some(&serde_json::to_string(&other).unwrap())).await;
    let rotated: AdminTable = admin(&addr, "POST", &format!("/api/admin/tables/{}/invite", kept.id), None).await;
    assert_ne!(rotated.invite_code, kept.invite_code, "a rotated code is new");
    // An operator reads the code back (issue 30): the one the table takes now.
    let read: stud_proto::InviteCode =
        admin(&addr, "GET", &format!("/api/admin/tables/{}/invite", kept.id), None).await;
    assert_eq!(read.invite_code, rotated.invite_code);
    assert!(read.invite_code.is_some());
    let (status, _) = call(&addr, "GET", &format!("/api/admin/tables/{some}/invite"), None, Some(KEY)).await;
    assert_eq!(status, 404, "an unknown table");

    // Revoking the code sends the watcher away (from the next hand); Ann, seated, plays on.
    let revoked: AdminTable = admin(&addr, "DELETE", &format!("/api/admin/tables/{}/invite", table.id), None).await;
    assert_eq!(revoked.invite_code, None);
    // Waiting for it is the check (until fails after its timeout).
    watcher.until(|m| matches!(m, ServerMsg::Error { code: ErrorCode::Forbidden, .. })).await;
    watcher.send(ClientMsg::JoinTable { request_id: None, table_id: table.id, invite_code: Some(code.clone()) }).await;
    let err = watcher.until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(matches!(err, ServerMsg::Error { code: ErrorCode::InviteRequired, .. }), "the old code is dead: {err:?}");

    // Close: everyone is cashed out, the table is gone.
    let (status, body) = call(&addr, "POST", &format!("/api/admin/tables/{}/close", table.id), None, Some(KEY)).await;
    assert_eq!(status, 204, "{body}");
    ledger_ok(&server).await;
    let t = server.app.store.totals().await.unwrap();
    stop.store(true, Ordering::Relaxed);
    let mut back = Vec::new();
    for p in players.drain(..) {
        back.push(p.await.unwrap());
    }
    let open: Vec<AdminTable> = admin(&addr, "GET", "/api/admin/tables", None).await;
    assert!(open.iter().all(|o| o.id != table.id), "a closed table is not listed");
    assert_eq!(t.on_tables, 0, "everyone at the closed table was cashed out: {t:?}");
    let bank = &server.app.bank;
    assert_eq!(bank.total_balances(), bank.issued(), "in memory too: every chip is back in an account");
    // They played only each other: between them, every chip they brought is back.
    assert_eq!(bank.balance(ann) + bank.balance(bo), 200_000);
    for p in &back {
        assert!(p.leaks.is_empty(), "{:?}", p.leaks);
    }

    // The audit log has it all, newest first.
    let log: Vec<serde_json::Value> = admin(&addr, "GET", "/api/admin/log?limit=50", None).await;
    let actions: Vec<&str> = log.iter().filter_map(|l| l["action"].as_str()).collect();
    for a in ["close", "rotate_invite", "kick", "resume", "update_table", "pause", "create_table"] {
        assert!(actions.contains(&a), "{a} not in {actions:?}");
    }
    assert_eq!(log[0]["operator"], "config");
    server.shutdown().await;

    // A restart keeps the open private table, its settings and its code.
    let db = url.clone();
    let (server, addr) = spawn_app(move |c| {
        c.database_url = db;
        c.operator_key = Some(KEY.into());
    })
    .await;
    let open: Vec<AdminTable> = admin(&addr, "GET", "/api/admin/tables", None).await;
    let again = open.iter().find(|o| o.id == kept.id).expect("the private table is back");
    assert_eq!((again.invite_code.as_ref(), again.settings.name.as_str()), (rotated.invite_code.as_ref(), "Late game"));
    assert!(open.iter().all(|o| o.id != table.id), "the closed table stays closed");
    let mut p = Player::new(&addr, "returning").await;
    p.send(ClientMsg::JoinTable {
        request_id: Some("j".into()),
        table_id: kept.id,
        invite_code: rotated.invite_code.clone(),
    })
    .await;
    let ack = p.until(|m| matches!(m, ServerMsg::Ack { .. } | ServerMsg::Error { .. })).await;
    assert!(matches!(ack, ServerMsg::Ack { .. }), "{ack:?}");
    server.shutdown().await;
    let _ = std::fs::remove_file(&path);
}

#[tokio::test]
async fn bans_keep_a_player_out_of_a_table_or_the_server() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let table = crate::table_of(&addr, stud_engine::Variant::Stud).await;
    let mut p = Player::new(&addr, "trouble").await;
    p.sit(&table, 3).await;
    // A key made by `stud operator create-key` (stored hashed) works like the configured one.
    let stored = "stud_stored-operator-key-0123456789";
    let key = stud_store::OperatorKey {
        id: Uuid::new_v4(),
        name: "moderator".into(),
        key_hash: stud_store::token_hash(stored),
        created_at_ms: 0,
        revoked: false,
    };
    server.app.store.add_operator_key(&key).await.unwrap();
    let body = format!(r#"{{"player_id":"{}","table_id":"{}","reason":"abuse"}}"#, p.player_id, table.id);
    assert_eq!(call(&addr, "POST", "/api/admin/bans", Some(&body), Some(stored)).await.0, 204);
    let log: Vec<serde_json::Value> = admin(&addr, "GET", "/api/admin/log", None).await;
    assert_eq!((log[0]["operator"].as_str(), log[0]["action"].as_str()), (Some("moderator"), Some("ban")));
    // It reads the hand history too (regression: only the configured key used to).
    assert_eq!(call(&addr, "GET", "/api/hands?limit=1", None, Some(stored)).await.0, 200);
    // Waiting for it is the check (until fails after its timeout).
    p.until(|m| matches!(m, ServerMsg::Error { code: ErrorCode::Forbidden, .. })).await;
    p.send(ClientMsg::JoinTable { request_id: None, table_id: table.id, invite_code: None }).await;
    let err = p.until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(matches!(err, ServerMsg::Error { code: ErrorCode::Forbidden, .. }), "{err:?}");
    // Another table is fine; a server ban ends that too, and the next hello.
    let razz = crate::table_of(&addr, stud_engine::Variant::Razz).await;
    p.send(ClientMsg::JoinTable { request_id: Some("r".into()), table_id: razz.id, invite_code: None }).await;
    let ack = p.until(|m| matches!(m, ServerMsg::Ack { .. } | ServerMsg::Error { .. })).await;
    assert!(matches!(ack, ServerMsg::Ack { .. }), "{ack:?}");
    let body = format!(r#"{{"player_id":"{}"}}"#, p.player_id);
    assert_eq!(call(&addr, "POST", "/api/admin/bans", Some(&body), Some(KEY)).await.0, 204);
    let bans: Vec<serde_json::Value> = admin(&addr, "GET", "/api/admin/bans", None).await;
    assert_eq!(bans.len(), 2);
    let refused = Client::connect(&addr, &p.token).await.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(refused.contains("Forbidden") && refused.contains("banned"), "{refused}");
    // Lifting the server ban lets them back in.
    let path = format!("/api/admin/bans?player_id={}", p.player_id);
    assert_eq!(call(&addr, "DELETE", &path, None, Some(KEY)).await.0, 204);
    assert_eq!(call(&addr, "DELETE", &path, None, Some(KEY)).await.0, 404);
    let (_, welcome) = Client::connect(&addr, &p.token).await.unwrap();
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    ledger_ok(&server).await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_kick_after_the_hand_lets_the_hand_finish_first() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let table = crate::table_of(&addr, stud_engine::Variant::Stud).await;
    let mut a = Player::new(&addr, "a").await;
    let mut b = Player::new(&addr, "b").await;
    a.sit(&table, 1).await;
    b.sit(&table, 2).await;
    // Mid-hand (the bring-in is posted), kick b for after the hand.
    let hand = loop {
        if let ServerMsg::Event { hand_id, event: Event::BringIn { .. }, .. } = a.recv().await {
            break hand_id;
        }
    };
    let body = format!(r#"{{"player_id":"{}","now":false}}"#, b.player_id);
    let (status, text) =
        call(&addr, "POST", &format!("/api/admin/tables/{}/kick", table.id), Some(&body), Some(KEY)).await;
    assert_eq!((status, text.as_str()), (200, r#"{"kicked":true}"#));
    // b keeps watching and plays the hand out (here b does not act, so the clock does); a plays
    // on; at the end b is cashed out and told, and no new hand starts with one player.
    let stop = Arc::new(AtomicBool::new(false));
    let a = autoplay(a, stop.clone());
    let mut watcher = Player::new(&addr, "w").await;
    watcher.send(ClientMsg::JoinTable { request_id: None, table_id: table.id, invite_code: None }).await;
    let result = watcher.until(|m| matches!(m, ServerMsg::HandResult { .. })).await;
    assert!(matches!(result, ServerMsg::HandResult { hand_id, .. } if hand_id == hand), "{result:?}");
    let snap = watcher.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
    let ServerMsg::Snapshot { table: state, .. } = snap else { unreachable!() };
    assert!(state.seats.iter().all(|s| s.player_id != b.player_id), "b is gone after the hand");
    // Waiting for it is the check (until fails after its timeout).
    b.until(|m| matches!(m, ServerMsg::Error { code: ErrorCode::Forbidden, .. })).await;
    stop.store(true, Ordering::Relaxed);
    a.await.unwrap();
    ledger_ok(&server).await;
    server.shutdown().await;
}

#[tokio::test]
async fn each_limit_shows_itself_with_a_clear_error() {
    let (server, addr) = spawn_app(|c| {
        c.sessions_per_minute_per_ip = 3;
        c.messages_per_second = 2;
        c.max_connections_per_ip = 2;
        c.max_body_bytes = 300;
    })
    .await;
    // Bodies over the limit (300 bytes here).
    let big = format!(r#"{{"name":"{}"}}"#, "x".repeat(1_000));
    let (status, body) = call(&addr, "POST", "/api/sessions", Some(&big), None).await;
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("\"too_large\""), "{body}");

    // Sessions per IP: 3 a minute (the body above was refused from its length, before it
    // reached the route: it took none).
    let first = create_session(&addr, "one").await.unwrap();
    create_session(&addr, "two").await.unwrap();
    create_session(&addr, "three").await.unwrap();
    let (status, body) = call(&addr, "POST", "/api/sessions", Some(r#"{"name":"four"}"#), None).await;
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("\"rate_limited\""), "{body}");

    // Messages per connection: 2 a second, bursts of 4.
    let (mut a, _) = Client::connect(&addr, &first.token).await.unwrap();
    for n in 0..10 {
        a.send(&ClientMsg::Ping { request_id: Some(n.to_string()), nonce: n }).await.unwrap();
    }
    let mut pongs = 0;
    let mut limited = 0;
    while let Ok(msg) = a.recv(Duration::from_millis(500)).await {
        match msg {
            ServerMsg::Pong { .. } => pongs += 1,
            ServerMsg::Error { code: ErrorCode::RateLimited, .. } => limited += 1,
            other => panic!("{other:?}"),
        }
    }
    // The hello took one of the burst of 4; a token may refill while the pings arrive.
    assert!(pongs + limited == 10 && (3..=4).contains(&pongs), "{pongs} answered, {limited} limited");

    // Connections per IP: 2 open at once (a is one).
    let (b, _) = Client::connect(&addr, &first.token).await.unwrap();
    assert!(Client::connect(&addr, &first.token).await.is_err(), "a third connection is refused");
    drop(b);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(Client::connect(&addr, &first.token).await.is_ok(), "a slot freed by a close is usable");
    server.shutdown().await;
}

#[tokio::test]
async fn the_openapi_document_is_served_and_every_operation_in_it_is_routed() {
    let (server, addr) = spawn_app(|_| {}).await;
    let (status, body) = call(&addr, "GET", "/api/openapi.json", None, None).await;
    assert_eq!(status, 200);
    assert_eq!(body, stud_proto::openapi::document_json());
    let doc: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = Uuid::new_v4().to_string();
    for (path, ops) in doc["paths"].as_object().unwrap() {
        if path == "/ws" {
            continue;
        }
        for method in ops.as_object().unwrap().keys() {
            let concrete = path.replace("{id}", &id);
            let (status, body) = call(&addr, &method.to_uppercase(), &concrete, Some("{}"), None).await;
            // axum's own "no such route" is a 404 or 405 with an empty body; ours always say why.
            let unrouted = (status == 404 || status == 405) && body.is_empty();
            assert!(!unrouted, "{method} {path} is documented but not routed ({status})");
        }
    }
    server.shutdown().await;
}
