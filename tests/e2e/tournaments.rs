//! Tournaments over the real HTTP API and real sockets: the operator's create call (bad
//! structures refused naming the field), the lobby, registering and unregistering over HTTP
//! and the WebSocket with the ledger checked, typed refusals that charge nothing, a sit-and-go
//! starting when full, a cancellation refunding everyone, and a restart on the same database.

use stud_client::{create_session, http_as};
use stud_proto::{
    ClientMsg, ErrorCode, ServerMsg, TournamentDetail, TournamentRegistration, TournamentStatus, TournamentSummary,
};
use stud_server::Server;
use uuid::Uuid;

use crate::{Player, spawn_app};

const KEY: &str = "tournament-operator-key-0123456789";
const START: u64 = 100_000;
const BUY_IN: u64 = 1_000 + 100;

async fn call(addr: &str, method: &str, path: &str, body: Option<&str>, key: Option<&str>) -> (u16, String) {
    http_as(addr, method, path, body, key).await.unwrap()
}

async fn ok<T: serde::de::DeserializeOwned>(addr: &str, method: &str, path: &str, key: Option<&str>) -> T {
    let (status, text) = call(addr, method, path, None, key).await;
    assert!((200..300).contains(&status), "{method} {path}: {status} {text}");
    serde_json::from_str(&text).unwrap()
}

fn create_body(kind: &str, max: u32, entry_fee: u64, extra: &str) -> String {
    let start = match kind {
        "scheduled" => format!(r#""start_at": {},"#, stud_store::now_ms() + 3_600_000),
        _ => String::new(),
    };
    format!(
        r#"{{"name": "Test {kind}", "variant": "stud", "kind": "{kind}", {start} "min_entrants": 2,
            "max_entrants": {max}, "seats_per_table": 8, "entry_fee": {entry_fee}, "house_fee": 100,
            "starting_chips": 1500{extra}}}"#
    )
}

const LEVELS: &str = r#", "levels": [{"ante": 5, "bring_in": 10, "small_bet": 20, "big_bet": 40, "minutes": 10},
                                    {"ante": 10, "bring_in": 20, "small_bet": 40, "big_bet": 80, "minutes": 10}]"#;

async fn create(addr: &str, body: &str) -> TournamentDetail {
    let (status, text) = call(addr, "POST", "/api/admin/tournaments", Some(body), Some(KEY)).await;
    assert_eq!(status, 201, "{text}");
    serde_json::from_str(&text).unwrap()
}

async fn detail(addr: &str, id: Uuid) -> TournamentDetail {
    ok(addr, "GET", &format!("/api/tournaments/{id}"), None).await
}

fn entries(id: Uuid) -> String {
    format!("/api/tournaments/{id}/entries")
}

/// Registers over HTTP; the status and the body.
async fn register(addr: &str, id: Uuid, token: &str) -> (u16, String) {
    call(addr, "POST", &entries(id), None, Some(token)).await
}

fn code(text: &str) -> String {
    serde_json::from_str::<serde_json::Value>(text).unwrap()["code"].as_str().unwrap_or_default().to_owned()
}

async fn balance(server: &Server, player: Uuid) -> u64 {
    server.app.store.balance(player).await.unwrap()
}

async fn ledger_ok(server: &Server) {
    assert!(server.app.writer.flush().await);
    let t = server.app.store.totals().await.unwrap();
    assert!(t.conserved(), "{t:?}");
}

#[tokio::test]
async fn bad_structures_are_refused_naming_the_field() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let cases = [
        (create_body("sit_and_go", 6, 1_000, r#", "levels": []"#), "levels"),
        (
            create_body(
                "sit_and_go",
                6,
                1_000,
                r#", "levels": [{"ante": 5, "bring_in": 30, "small_bet": 20, "big_bet": 40, "minutes": 10}]"#,
            ),
            "levels[0].bring_in",
        ),
        (create_body("sit_and_go", 6, 1_000, &format!(r#"{LEVELS}, "payouts": [60, 30]"#)), "payouts"),
        (create_body("sit_and_go", 2, 1_000, &format!(r#"{LEVELS}, "payouts": [50, 30, 20]"#)), "payouts"),
        (create_body("scheduled", 6, 1_000, LEVELS).replace(r#""start_at""#, r#""start_time""#), "start_time"),
    ];
    for (body, field) in cases {
        let (status, text) = call(&addr, "POST", "/api/admin/tournaments", Some(&body), Some(KEY)).await;
        assert_eq!(status, 400, "{body}: {text}");
        assert!(text.contains(field), "{field} not named: {text}");
    }
    // Without the operator key: 401, nothing created.
    let (status, _) =
        call(&addr, "POST", "/api/admin/tournaments", Some(&create_body("sit_and_go", 6, 1_000, LEVELS)), None).await;
    assert_eq!(status, 401);
    let lobby: Vec<TournamentSummary> = ok(&addr, "GET", "/api/tournaments", None).await;
    assert!(lobby.is_empty(), "{lobby:?}");
    let (status, _) = call(&addr, "GET", &format!("/api/tournaments/{}", Uuid::new_v4()), None, None).await;
    assert_eq!(status, 404);
    server.shutdown().await;
}

#[tokio::test]
async fn registration_over_http_and_websocket_charges_refunds_and_survives_a_restart() {
    let (path, url) = crate::temp_db("tournaments");
    let config = |url: String| {
        move |c: &mut stud_server::Config| {
            c.database_url = url;
            c.operator_key = Some(KEY.into());
        }
    };
    let (server, addr) = spawn_app(config(url.clone())).await;
    let t = create(&addr, &create_body("scheduled", 3, 1_000, LEVELS)).await;
    assert_eq!((t.status, t.level, t.levels.len(), t.entrants.len()), (TournamentStatus::Registering, 1, 2, 0));
    let lobby: Vec<TournamentSummary> = ok(&addr, "GET", "/api/tournaments", None).await;
    assert_eq!(lobby.iter().map(|s| s.id).collect::<Vec<_>>(), [t.id]);

    let ann = create_session(&addr, "Ann").await.unwrap();
    let cat = create_session(&addr, "Cat").await.unwrap();
    let dan = create_session(&addr, "Dan").await.unwrap();
    // Ann over HTTP: charged entry fee + house fee; twice is refused and charges nothing.
    let (status, text) = register(&addr, t.id, &ann.token).await;
    assert_eq!(status, 201, "{text}");
    let reply: TournamentRegistration = serde_json::from_str(&text).unwrap();
    assert_eq!((reply.registered, reply.balance), (true, START - BUY_IN));
    let (status, text) = register(&addr, t.id, &ann.token).await;
    assert_eq!((status, code(&text).as_str()), (409, "already_registered"), "{text}");
    assert_eq!(balance(&server, ann.player_id).await, START - BUY_IN);
    // The operator key is not a player.
    let (status, _) = register(&addr, t.id, KEY).await;
    assert_eq!(status, 403);

    // Bob over the WebSocket: register, unregister (refunded), register again.
    let mut bob = Player::new(&addr, "Bob").await;
    for (kind, registered) in
        [("tournament_register", true), ("tournament_unregister", false), ("tournament_register", true)]
    {
        let request_id = Some(kind.to_owned());
        let msg = match registered {
            true => ClientMsg::TournamentRegister { request_id, tournament_id: t.id, invite_code: None },
            false => ClientMsg::TournamentUnregister { request_id, tournament_id: t.id },
        };
        bob.send(msg).await;
        let reply =
            bob.until(|m| matches!(m, ServerMsg::TournamentRegistration { .. } | ServerMsg::Error { .. })).await;
        let ServerMsg::TournamentRegistration { request_id, registration } = reply else { panic!("{kind}: {reply:?}") };
        assert_eq!(request_id.as_deref(), Some(kind));
        let want = if registered { START - BUY_IN } else { START };
        assert_eq!((registration.registered, registration.balance), (registered, want), "{kind}");
    }
    // An unknown tournament over the socket is a typed error.
    bob.send(ClientMsg::TournamentUnregister { request_id: None, tournament_id: Uuid::new_v4() }).await;
    let reply = bob.until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(matches!(reply, ServerMsg::Error { code: ErrorCode::UnknownTournament, .. }), "{reply:?}");

    // Cat fills the third place; Dan finds it full (over HTTP and the socket), charged nothing.
    assert_eq!(register(&addr, t.id, &cat.token).await.0, 201);
    let (status, text) = register(&addr, t.id, &dan.token).await;
    assert_eq!((status, code(&text).as_str()), (409, "tournament_full"), "{text}");
    let mut dan_ws = Player::new(&addr, "Dan2").await;
    dan_ws.send(ClientMsg::TournamentRegister { request_id: None, tournament_id: t.id, invite_code: None }).await;
    let reply = dan_ws.until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(matches!(reply, ServerMsg::Error { code: ErrorCode::TournamentFull, .. }), "{reply:?}");
    assert_eq!(balance(&server, dan.player_id).await, START);

    // Ann unregisters over HTTP (refunded); again is refused.
    let reply: TournamentRegistration = ok(&addr, "DELETE", &entries(t.id), Some(&ann.token)).await;
    assert_eq!((reply.registered, reply.balance), (false, START));
    let (status, text) = call(&addr, "DELETE", &entries(t.id), None, Some(&ann.token)).await;
    assert_eq!((status, code(&text).as_str()), (409, "not_registered"), "{text}");

    // Not enough balance: refused, nothing charged.
    let dear = create(&addr, &create_body("sit_and_go", 2, START, LEVELS)).await;
    let (status, text) = register(&addr, dear.id, &dan.token).await;
    assert_eq!((status, code(&text).as_str()), (409, "insufficient_balance"), "{text}");
    assert_eq!(balance(&server, dan.player_id).await, START);

    // A sit-and-go for 2 starts as the second player registers; then it is closed.
    let sng = create(&addr, &create_body("sit_and_go", 2, 1_000, LEVELS)).await;
    assert_eq!(register(&addr, sng.id, &ann.token).await.0, 201);
    assert_eq!(register(&addr, sng.id, &dan.token).await.0, 201);
    let running = detail(&addr, sng.id).await;
    assert_eq!(running.status, TournamentStatus::Running, "{running:?}");
    assert_eq!(running.tables.len(), 1);
    let mut seated = running.tables[0].players.clone();
    seated.sort();
    let mut both = vec![ann.player_id, dan.player_id];
    both.sort();
    assert_eq!(seated, both);
    assert!(running.entrants.iter().all(|e| e.chips == 1_500 && e.table.is_some()), "{running:?}");
    assert_eq!((running.pool, running.prizes.clone()), (2_000, vec![2_000]));
    assert!(running.ms_to_next_level.is_some_and(|ms| ms <= 600_000), "{running:?}");
    let (status, text) = call(&addr, "DELETE", &entries(sng.id), None, Some(&ann.token)).await;
    assert_eq!((status, code(&text).as_str()), (409, "tournament_started"), "{text}");
    let (status, text) = register(&addr, sng.id, &cat.token).await;
    assert_eq!(status, 409, "{text}");
    ledger_ok(&server).await;

    // A restart on the same database: both tournaments and their entrants are still there.
    let before = detail(&addr, t.id).await;
    server.shutdown().await;
    let (server, addr) = spawn_app(config(url.clone())).await;
    let after = detail(&addr, t.id).await;
    assert_eq!(after.status, TournamentStatus::Registering);
    let names = |d: &TournamentDetail| d.entrants.iter().map(|e| (e.player_id, e.name.clone())).collect::<Vec<_>>();
    assert_eq!(names(&after), names(&before));
    assert_eq!(names(&after).iter().map(|(_, n)| n.as_str()).collect::<Vec<_>>(), ["Bob", "Cat"]);
    let sng_after = detail(&addr, sng.id).await;
    assert_eq!((sng_after.status, sng_after.entrants.len()), (TournamentStatus::Running, 2));
    assert_eq!(sng_after.tables, running.tables);
    // What the tournaments hold was not cashed out at the start.
    assert_eq!(balance(&server, ann.player_id).await, START - BUY_IN);
    assert_eq!(balance(&server, cat.player_id).await, START - BUY_IN);
    ledger_ok(&server).await;
    // Registration goes on after the restart (the session resolves from the store).
    let (status, text) = register(&addr, t.id, &ann.token).await;
    assert_eq!(status, 201, "{text}");
    let reply: TournamentRegistration = serde_json::from_str(&text).unwrap();
    assert_eq!(reply.balance, START - 2 * BUY_IN, "Ann is in the sit-and-go and now this one");

    // The operator cancels: every entrant is refunded.
    let (status, _) = call(&addr, "POST", &format!("/api/admin/tournaments/{}/cancel", t.id), None, None).await;
    assert_eq!(status, 401);
    let cancelled: TournamentDetail =
        ok(&addr, "POST", &format!("/api/admin/tournaments/{}/cancel", t.id), Some(KEY)).await;
    assert_eq!(cancelled.status, TournamentStatus::Cancelled);
    assert_eq!(balance(&server, cat.player_id).await, START);
    assert_eq!(balance(&server, bob.player_id).await, START);
    assert_eq!(balance(&server, ann.player_id).await, START - BUY_IN);
    ledger_ok(&server).await;
    server.shutdown().await;
    let _ = std::fs::remove_file(&path);
}

#[tokio::test]
async fn a_scheduled_tournament_whose_start_passed_while_the_server_was_down_is_cancelled_and_refunded() {
    let (path, url) = crate::temp_db("tournaments");
    let config = |url: String| {
        move |c: &mut stud_server::Config| {
            c.database_url = url;
            c.operator_key = Some(KEY.into());
        }
    };
    let (server, addr) = spawn_app(config(url.clone())).await;
    let soon = stud_store::now_ms() + 1_500;
    let body = create_body("sit_and_go", 6, 1_000, LEVELS)
        .replace(r#""kind": "sit_and_go","#, &format!(r#""kind": "scheduled", "start_at": {soon},"#));
    let t = create(&addr, &body).await;
    assert_eq!(t.start_at, Some(soon), "{body}");
    let ann = create_session(&addr, "Ann").await.unwrap();
    assert_eq!(register(&addr, t.id, &ann.token).await.0, 201);
    server.shutdown().await;
    tokio::time::sleep(std::time::Duration::from_millis(2_000)).await;
    // Past its start with one entrant of the two it needs: cancelled at once, Ann refunded
    // (her account is not loaded in the new process yet: the store's balance has the refund).
    let (server, addr) = spawn_app(config(url.clone())).await;
    let mut cancelled = detail(&addr, t.id).await;
    for _ in 0..100 {
        if cancelled.status == TournamentStatus::Cancelled {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        cancelled = detail(&addr, t.id).await;
    }
    assert_eq!(cancelled.status, TournamentStatus::Cancelled, "{cancelled:?}");
    assert_eq!(balance(&server, ann.player_id).await, START);
    // Her session, resolved after the restart, sees the refunded balance too.
    let (client, welcome) = stud_client::Client::connect(&addr, &ann.token).await.unwrap();
    drop(client);
    assert!(matches!(welcome, ServerMsg::Welcome { balance: START, .. }), "{welcome:?}");
    ledger_ok(&server).await;
    server.shutdown().await;
    let _ = std::fs::remove_file(&path);
}

/// A private tournament's code: 10 characters at least; wrong guesses (over HTTP or the
/// WebSocket) count in the same per-player counter as a private table's, and past it even the
/// right code is refused (429 / `rate_limited`) until it refills; the right code, in time, works.
#[tokio::test]
async fn private_tournament_codes_are_long_and_guesses_are_counted_with_table_codes() {
    let (server, addr) = spawn_app(|c| {
        c.operator_key = Some(KEY.into());
        c.invite_attempts_per_minute = 3;
        c.sessions_per_minute_per_ip = 0;
    })
    .await;
    let short = create_body("sit_and_go", 6, 1_000, &format!(r#"{LEVELS}, "invite_code": "1234""#));
    let (status, text) = call(&addr, "POST", "/api/admin/tournaments", Some(&short), Some(KEY)).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("invite_code"), "{text}");
    let secret = "club-night-2026";
    let t =
        create(&addr, &create_body("sit_and_go", 6, 1_000, &format!(r#"{LEVELS}, "invite_code": "{secret}""#))).await;
    let with = |code: &str| format!("{}?invite_code={code}", entries(t.id));
    // An operator reads the code back (issue 30; without the key it is 401, see operators.rs).
    let (status, text) = call(&addr, "GET", &format!("/api/admin/tournaments/{}/invite", t.id), None, Some(KEY)).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(serde_json::from_str::<stud_proto::InviteCode>(&text).unwrap().invite_code.as_deref(), Some(secret));

    // Ann: the right code at once.
    let ann = create_session(&addr, "Ann").await.unwrap();
    let (status, text) = call(&addr, "POST", &with(secret), None, Some(&ann.token)).await;
    assert_eq!(status, 201, "{text}");

    // Bo: two wrong tournament codes over HTTP, one over the WebSocket: his 3 are spent.
    let mut bo = Player::new(&addr, "Bo").await;
    for guess in ["club-night-2025", "club-night-2024"] {
        let (status, text) = call(&addr, "POST", &with(guess), None, Some(&bo.token)).await;
        assert_eq!((status, code(&text)), (409, "wrong_invite_code".to_owned()), "{text}");
    }
    bo.send(ClientMsg::TournamentRegister {
        request_id: Some("guess".into()),
        tournament_id: t.id,
        invite_code: Some("club-night-2023".into()),
    })
    .await;
    match bo.until(|m| matches!(m, ServerMsg::Error { .. } | ServerMsg::TournamentRegistration { .. })).await {
        ServerMsg::Error { code, .. } => assert_eq!(code, ErrorCode::InviteRequired),
        other => panic!("{other:?}"),
    }
    // Now even the right code is not looked at.
    let (status, text) = call(&addr, "POST", &with(secret), None, Some(&bo.token)).await;
    assert_eq!((status, code(&text)), (429, "rate_limited".to_owned()), "{text}");
    bo.send(ClientMsg::TournamentRegister {
        request_id: Some("right".into()),
        tournament_id: t.id,
        invite_code: Some(secret.into()),
    })
    .await;
    match bo.until(|m| matches!(m, ServerMsg::Error { .. } | ServerMsg::TournamentRegistration { .. })).await {
        ServerMsg::Error { code, .. } => assert_eq!(code, ErrorCode::RateLimited),
        other => panic!("{other:?}"),
    }
    let d = detail(&addr, t.id).await;
    assert_eq!(d.entrants.len(), 1, "only Ann");
    server.shutdown().await;
}
