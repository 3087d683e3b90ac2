//! Sessions expire when idle and memory stays bounded: a token unused for longer than
//! `session_idle_days` is refused (401 over HTTP, `not_authenticated` over the WebSocket) and
//! never resolves again; use (a request, an open socket) keeps a session alive; the session
//! cache and the bank hold only the active players, and a player dropped from memory comes
//! back from the store with the right balance.

use std::time::{Duration, Instant};

use stud_client::{Client, create_session, http_as};
use stud_engine::Variant;
use stud_proto::{ClientMsg, ErrorCode, PROTOCOL_VERSION, ServerMsg};
use stud_server::Config;

use crate::{WAIT, spawn_app, table_of};

/// `session_idle_days` for an expiry of `ms` milliseconds.
pub fn idle_days(ms: u64) -> f64 {
    ms as f64 / 86_400_000.0
}

async fn hands_status(addr: &str, session: uuid::Uuid, token: &str) -> u16 {
    http_as(addr, "GET", &format!("/api/sessions/{session}/hands"), None, Some(token)).await.unwrap().0
}

async fn hello(addr: &str, token: &str) -> ServerMsg {
    let mut c = Client::connect_raw(addr).await.unwrap();
    c.send(&ClientMsg::Hello { version: PROTOCOL_VERSION, token: token.into() }).await.unwrap();
    c.recv(WAIT).await.unwrap()
}

fn quick(c: &mut Config) {
    c.session_idle_days = idle_days(1_500);
    c.sessions_per_minute_per_ip = 0;
}

#[tokio::test]
async fn an_idle_session_expires_and_use_keeps_one_alive() {
    let (server, addr) = spawn_app(quick).await;
    let idle = create_session(&addr, "Idle").await.unwrap();
    let busy = create_session(&addr, "Busy").await.unwrap();
    let watcher = create_session(&addr, "Watcher").await.unwrap();
    // The watcher's open socket counts as use, though it sends nothing.
    let (socket, welcome) = Client::connect(&addr, &watcher.token).await.unwrap();
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    assert_eq!(hands_status(&addr, idle.session_id, &idle.token).await, 200);
    // Twice the expiry, with a request every 300 ms from Busy only.
    let until = Instant::now() + Duration::from_millis(3_000);
    while Instant::now() < until {
        assert_eq!(hands_status(&addr, busy.session_id, &busy.token).await, 200, "used: alive");
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    assert_eq!(hands_status(&addr, idle.session_id, &idle.token).await, 401, "idle: expired");
    match hello(&addr, &idle.token).await {
        ServerMsg::Error { code: ErrorCode::NotAuthenticated, .. } => {}
        other => panic!("an expired token said hello: {other:?}"),
    }
    assert_eq!(hands_status(&addr, watcher.session_id, &watcher.token).await, 200, "its socket kept it alive");
    // Expired is for good: the store deleted it, a later request (memory or store) refuses it.
    let hash = stud_store::token_hash(&idle.token);
    let deadline = Instant::now() + WAIT;
    while server.app.store.session_by_token(&hash).await.unwrap().is_some() {
        assert!(Instant::now() < deadline, "the sweep never deleted the expired session");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(hands_status(&addr, idle.session_id, &idle.token).await, 401);
    // Busy, unused from here, expires too; the watcher's socket closes and it follows.
    socket.close().await;
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert_eq!(hands_status(&addr, busy.session_id, &busy.token).await, 401);
    assert_eq!(hands_status(&addr, watcher.session_id, &watcher.token).await, 401);
    server.shutdown().await;
}

#[tokio::test]
async fn memory_is_bounded_and_a_dropped_player_comes_back_from_the_store() {
    let (server, addr) = spawn_app(|c| {
        c.session_cache = 8;
        c.sessions_per_minute_per_ip = 0;
    })
    .await;
    let table = table_of(&addr, Variant::Stud).await;
    // Ann buys in and leaves again (her chips go back through the writer), then goes away.
    let ann = create_session(&addr, "Ann").await.unwrap();
    let (mut c, _) = Client::connect(&addr, &ann.token).await.unwrap();
    c.send(&ClientMsg::Sit {
        request_id: Some("sit".into()),
        table_id: table.id,
        invite_code: None,
        seat: Some(1),
        buy_in: table.min_buy_in,
    })
    .await
    .unwrap();
    loop {
        if let ServerMsg::Ack { request_id: Some(r), .. } = c.recv(WAIT).await.unwrap()
            && r == "sit"
        {
            break;
        }
    }
    assert_eq!(server.app.bank.balance(ann.player_id), ann.balance - table.min_buy_in);
    c.send(&ClientMsg::Leave { request_id: Some("leave".into()), table_id: table.id }).await.unwrap();
    loop {
        if let ServerMsg::Ack { request_id: Some(r), .. } = c.recv(WAIT).await.unwrap()
            && r == "leave"
        {
            break;
        }
    }
    c.close().await;
    // 40 more sessions: the cache never holds more than 8.
    let mut others = Vec::new();
    for i in 0..40 {
        others.push(create_session(&addr, &format!("P{i}")).await.unwrap());
        assert!(server.app.sessions_cached() <= 8, "{} sessions cached", server.app.sessions_cached());
    }
    let deadline = Instant::now() + WAIT;
    while server.app.players.seated_tables(ann.player_id).contains(&table.id) {
        assert!(Instant::now() < deadline, "Ann never left");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.app.sweep().await;
    assert!(!server.app.bank.holds(ann.player_id), "Ann's account left memory");
    assert!(server.app.bank.len() <= 8, "{} accounts held", server.app.bank.len());
    assert_eq!(server.app.bank.total_balances(), server.app.bank.issued(), "what left memory left issued too");
    // Ann comes back: from the store, with every chip.
    match hello(&addr, &ann.token).await {
        ServerMsg::Welcome { balance, player_id, .. } => {
            assert_eq!((player_id, balance), (ann.player_id, ann.balance));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(hands_status(&addr, others[0].session_id, &others[0].token).await, 200, "evicted, not expired");
    assert_eq!(server.app.bank.total_balances(), server.app.bank.issued());
    let metrics = http_as(&addr, "GET", "/metrics", None, None).await.unwrap().1;
    let evicted: u64 = metrics
        .lines()
        .find_map(|l| l.strip_prefix("stud_sessions_evicted_total "))
        .and_then(|v| v.parse().ok())
        .unwrap();
    assert!(evicted >= 32, "{metrics}");
    server.shutdown().await;
}

/// The small soak that always runs: 2,000 sessions created and abandoned expire, and the cache
/// and the bank are empty again (the 100,000-session version with RSS figures is
/// `crates/cli/tests/soak.rs`).
#[tokio::test]
async fn abandoned_sessions_leave_nothing_behind() {
    let (server, addr) = spawn_app(|c| {
        c.session_idle_days = idle_days(1_000);
        c.sessions_per_minute_per_ip = 0;
    })
    .await;
    let mut tasks = Vec::new();
    for w in 0..8 {
        let addr = addr.clone();
        tasks.push(tokio::spawn(async move {
            for i in 0..250 {
                create_session(&addr, &format!("S{w}-{i}")).await.unwrap();
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    assert!(server.app.sessions_cached() > 0);
    let deadline = Instant::now() + WAIT;
    while server.app.sessions_cached() > 0 || !server.app.bank.is_empty() {
        assert!(
            Instant::now() < deadline,
            "{} sessions, {} accounts",
            server.app.sessions_cached(),
            server.app.bank.len()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(server.app.bank.issued(), 0);
    server.shutdown().await;
}

/// `DELETE /api/sessions/{id}` status with `token` (none: no `Authorization`).
async fn log_out(addr: &str, session: impl std::fmt::Display, token: Option<&str>) -> (u16, String) {
    http_as(addr, "DELETE", &format!("/api/sessions/{session}"), None, token).await.unwrap()
}

#[tokio::test]
async fn log_out_revokes_the_token_and_closes_the_sessions_sockets() {
    let (server, addr) = spawn_app(|c| c.sessions_per_minute_per_ip = 0).await;
    let table = table_of(&addr, Variant::Stud).await;
    let ann = create_session(&addr, "Ann").await.unwrap();
    let bob = create_session(&addr, "Bob").await.unwrap();
    // Ann on two devices: one watches a table, the other is only connected.
    let (mut watching, _) = Client::connect(&addr, &ann.token).await.unwrap();
    watching
        .send(&ClientMsg::JoinTable { request_id: Some("join".into()), table_id: table.id, invite_code: None })
        .await
        .unwrap();
    loop {
        if let ServerMsg::Snapshot { .. } = watching.recv(WAIT).await.unwrap() {
            break;
        }
    }
    let (mut idle, _) = Client::connect(&addr, &ann.token).await.unwrap();

    // Nobody else can end Ann's session; a request without a token is 401 before its path
    // is read.
    assert_eq!(log_out(&addr, ann.session_id, None).await.0, 401);
    assert_eq!(log_out(&addr, "not-a-uuid", None).await.0, 401);
    assert_eq!(log_out(&addr, "not-a-uuid", Some(&ann.token)).await.0, 400);
    let (status, body) = log_out(&addr, ann.session_id, Some(&bob.token)).await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("\"forbidden\""), "{body}");
    assert_eq!(log_out(&addr, bob.session_id, Some(&ann.token)).await.0, 403, "Ann cannot end Bob's either");
    assert_eq!(hands_status(&addr, ann.session_id, &ann.token).await, 200, "still Ann's");
    idle.send(&ClientMsg::Ping { request_id: None, nonce: 7 }).await.unwrap();
    assert!(matches!(idle.recv(WAIT).await.unwrap(), ServerMsg::Pong { nonce: 7, .. }));

    let (status, body) = log_out(&addr, ann.session_id, Some(&ann.token)).await;
    assert_eq!((status, body.as_str()), (204, ""));
    // Both of Ann's sockets are closed by the server, with 1008 and why.
    for socket in [&mut watching, &mut idle] {
        let frame = socket.close_frame(WAIT).await.unwrap();
        assert_eq!(frame, Some((1008, stud_server::ws::LOGGED_OUT.to_owned())));
    }
    // The token is refused everywhere from now on, and the store no longer has the session
    // (a restart does not bring it back).
    let (status, body) =
        http_as(&addr, "GET", &format!("/api/sessions/{}/hands", ann.session_id), None, Some(&ann.token))
            .await
            .unwrap();
    assert_eq!(status, 401, "{body}");
    assert!(body.contains("\"unauthorized\""), "{body}");
    assert_eq!(log_out(&addr, ann.session_id, Some(&ann.token)).await.0, 401, "already ended");
    match hello(&addr, &ann.token).await {
        ServerMsg::Error { code: ErrorCode::NotAuthenticated, .. } => {}
        other => panic!("a logged-out token said hello: {other:?}"),
    }
    assert!(server.app.store.session_by_token(&stud_store::token_hash(&ann.token)).await.unwrap().is_none());
    // The player stays (their ledger and balance), and Bob is untouched.
    assert_eq!(server.app.store.balance(ann.player_id).await.unwrap(), ann.balance);
    assert_eq!(hands_status(&addr, bob.session_id, &bob.token).await, 200);
    let (_, welcome) = Client::connect(&addr, &bob.token).await.unwrap();
    assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
    server.shutdown().await;
}

/// A restarted server reads the seated players' sessions and balances ahead, before it
/// listens, so the storm of `hello`s after a restart reads nothing from the store. Shown by
/// taking the sessions out of the store once the new server is up: the seated players still
/// say hello (with their balances as they are), a player who held no seat is unknown.
#[tokio::test]
async fn a_restart_reads_the_seated_players_sessions_ahead() {
    let (path, url) = crate::temp_db("warm");
    let db = url.clone();
    let (server, addr) = spawn_app(move |c| {
        c.database_url = db;
        c.sessions_per_minute_per_ip = 0;
    })
    .await;
    let table = table_of(&addr, Variant::Stud).await;
    let mut seated = Vec::new();
    for seat in 1..=2 {
        let mut p = crate::Player::new(&addr, &format!("warm{seat}")).await;
        p.sit(&table, seat).await;
        seated.push(p);
    }
    let away = create_session(&addr, "Away").await.unwrap();
    server.shutdown().await;

    let db = url.clone();
    let (server, addr) = spawn_app(move |c| {
        c.database_url = db;
        c.sessions_per_minute_per_ip = 0;
    })
    .await;
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    let gone = sqlx::query("DELETE FROM sessions").execute(&pool).await.unwrap().rows_affected();
    assert_eq!(gone, 3);
    for p in &seated {
        match hello(&addr, &p.token).await {
            ServerMsg::Welcome { player_id, balance, .. } => {
                assert_eq!(player_id, p.player_id);
                assert_eq!(balance, 100_000 - table.max_buy_in, "the balance read ahead");
            }
            other => panic!("a seated player's hello after the restart: {other:?}"),
        }
    }
    match hello(&addr, &away.token).await {
        ServerMsg::Error { code: ErrorCode::NotAuthenticated, .. } => {}
        other => panic!("a session not read ahead came from memory: {other:?}"),
    }
    server.shutdown().await;
    pool.close().await;
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir_all(path.with_extension("db.journal"));
}
