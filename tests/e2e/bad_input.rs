//! Bad input gets a typed error to that client only; the table and everyone else carry on.

use stud_client::{Client, http};
use stud_engine::{Action, Variant};
use stud_proto::{ClientMsg, ErrorCode, PROTOCOL_VERSION, ServerMsg};
use uuid::Uuid;

use crate::{Player, WAIT, spawn_app, table_of};

async fn expect_error(p: &mut Player, code: ErrorCode) -> String {
    match p.until(|m| matches!(m, ServerMsg::Error { .. })).await {
        ServerMsg::Error { code: got, message, .. } => {
            assert_eq!(got, code, "{message}");
            message
        }
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn every_bad_input_is_a_typed_error_and_the_table_carries_on() {
    let (server, addr) = spawn_app(|c| c.max_frame_bytes = 1024).await;
    let table = table_of(&addr, Variant::Stud).await;
    let mut a = Player::new(&addr, "a").await;
    let mut b = Player::new(&addr, "b").await;
    a.sit(&table, 1).await;
    b.sit(&table, 2).await;

    // A third client sends garbage of every kind.
    let mut bad = Player::new(&addr, "bad").await;
    bad.client.send_text("{not json").await.unwrap();
    expect_error(&mut bad, ErrorCode::Malformed).await;
    bad.client.send_text(r#"{"type":"fly_to_the_moon"}"#).await.unwrap();
    expect_error(&mut bad, ErrorCode::UnknownType).await;
    bad.client.send_text(r#"{"type":"sit","table_id":"nope"}"#).await.unwrap();
    expect_error(&mut bad, ErrorCode::Malformed).await;
    bad.client.send_text(&format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(2000))).await.unwrap();
    expect_error(&mut bad, ErrorCode::FrameTooLarge).await;
    bad.send(ClientMsg::JoinTable { request_id: Some("u".into()), table_id: Uuid::new_v4(), invite_code: None }).await;
    expect_error(&mut bad, ErrorCode::UnknownTable).await;
    bad.send(ClientMsg::Sit {
        request_id: None,
        table_id: table.id,
        invite_code: None,
        seat: Some(1),
        buy_in: table.max_buy_in,
    })
    .await;
    expect_error(&mut bad, ErrorCode::SeatTaken).await;
    bad.send(ClientMsg::Sit {
        request_id: None,
        table_id: table.id,
        invite_code: None,
        seat: Some(5),
        buy_in: table.max_buy_in + 1,
    })
    .await;
    expect_error(&mut bad, ErrorCode::BuyInOutOfRange).await;
    bad.send(ClientMsg::Sit {
        request_id: None,
        table_id: table.id,
        invite_code: None,
        seat: Some(9),
        buy_in: table.max_buy_in,
    })
    .await;
    expect_error(&mut bad, ErrorCode::Malformed).await;
    // Acting without a seat.
    bad.send(ClientMsg::Act {
        request_id: None,
        table_id: table.id,
        hand_id: Uuid::new_v4(),
        seq: 1,
        idempotency_key: "k".into(),
        action: Action::Check,
    })
    .await;
    expect_error(&mut bad, ErrorCode::NotSeated).await;
    bad.send(ClientMsg::Ping { request_id: Some("still here".into()), nonce: 42 }).await;
    let pong = bad.until(|m| matches!(m, ServerMsg::Pong { .. })).await;
    assert!(matches!(pong, ServerMsg::Pong { nonce: 42, .. }));

    // Out of turn, illegal, stale and duplicate actions from seated players.
    // Each player gets exactly one of `your_turn` / `turn` for the first prompt: no race.
    let first = a.until(|m| matches!(m, ServerMsg::YourTurn { .. } | ServerMsg::Turn { .. })).await;
    let (mut actor, mut waiter, prompt) = match first {
        ServerMsg::YourTurn { .. } => (a, b, first),
        _ => {
            let prompt = b.until(|m| matches!(m, ServerMsg::YourTurn { .. })).await;
            (b, a, prompt)
        }
    };
    let ServerMsg::YourTurn { hand_id, seq, .. } = prompt else { unreachable!() };
    waiter
        .send(ClientMsg::Act {
            request_id: Some("oot".into()),
            table_id: table.id,
            hand_id,
            seq,
            idempotency_key: "w1".into(),
            action: Action::Fold,
        })
        .await;
    expect_error(&mut waiter, ErrorCode::NotYourTurn).await;
    actor
        .send(ClientMsg::Act {
            request_id: None,
            table_id: table.id,
            hand_id,
            seq,
            idempotency_key: "i1".into(),
            action: Action::Raise { to: 7 },
        })
        .await;
    let message = expect_error(&mut actor, ErrorCode::IllegalAction).await;
    assert!(message.contains("legal"), "{message}");
    actor
        .send(ClientMsg::Act {
            request_id: None,
            table_id: table.id,
            hand_id: Uuid::new_v4(),
            seq,
            idempotency_key: "s1".into(),
            action: Action::BringIn,
        })
        .await;
    expect_error(&mut actor, ErrorCode::Stale).await;
    actor
        .send(ClientMsg::Act {
            request_id: None,
            table_id: table.id,
            hand_id,
            seq: seq - 1,
            idempotency_key: "s2".into(),
            action: Action::BringIn,
        })
        .await;
    expect_error(&mut actor, ErrorCode::Stale).await;
    // The bring-in, sent twice with one key: applied once, the repeat acknowledged.
    let act = ClientMsg::Act {
        request_id: Some("d".into()),
        table_id: table.id,
        hand_id,
        seq,
        idempotency_key: "dup".into(),
        action: Action::BringIn,
    };
    actor.send(act.clone()).await;
    actor.send(act).await;
    let ack = actor.until(|m| matches!(m, ServerMsg::Ack { .. } | ServerMsg::Error { .. })).await;
    assert!(matches!(&ack, ServerMsg::Ack { detail, .. } if detail == "applied"), "{ack:?}");
    let ack = actor.until(|m| matches!(m, ServerMsg::Ack { .. } | ServerMsg::Error { .. })).await;
    assert!(matches!(&ack, ServerMsg::Ack { detail, .. } if detail.contains("duplicate")), "{ack:?}");
    // And the table went on: the other player is prompted.
    waiter.until(|m| matches!(m, ServerMsg::YourTurn { .. })).await;
    let bring_ins = server.app.metrics.render(server.app.writer.stats());
    assert!(bring_ins.contains("stud_errors_total{code=\"stale\"} 2"), "{bring_ins}");
    assert!(actor.leaks.is_empty() && waiter.leaks.is_empty());
    server.shutdown().await;
}

#[tokio::test]
async fn handshake_errors_version_and_session() {
    let (server, addr) = spawn_app(|_| {}).await;
    let mut raw = Client::connect_raw(&addr).await.unwrap();
    raw.send(&ClientMsg::JoinTable { request_id: None, table_id: Uuid::new_v4(), invite_code: None }).await.unwrap();
    let msg = raw.recv(WAIT).await.unwrap();
    assert!(matches!(msg, ServerMsg::Error { code: ErrorCode::NotAuthenticated, .. }), "{msg:?}");
    raw.send(&ClientMsg::Hello { version: PROTOCOL_VERSION + 1, token: "x".into() }).await.unwrap();
    let msg = raw.recv(WAIT).await.unwrap();
    assert!(matches!(msg, ServerMsg::Error { code: ErrorCode::UnsupportedVersion, .. }), "{msg:?}");
    raw.send(&ClientMsg::Hello { version: PROTOCOL_VERSION, token: "no-such-token".into() }).await.unwrap();
    let msg = raw.recv(WAIT).await.unwrap();
    assert!(matches!(msg, ServerMsg::Error { code: ErrorCode::NotAuthenticated, .. }), "{msg:?}");
    // The connection is still usable.
    raw.send(&ClientMsg::Ping { request_id: None, nonce: 7 }).await.unwrap();
    assert!(matches!(raw.recv(WAIT).await.unwrap(), ServerMsg::Pong { nonce: 7, .. }));
    server.shutdown().await;
}

#[tokio::test]
async fn http_routes() {
    let (server, addr) = spawn_app(|c| c.tables_per_variant = 2).await;
    let (status, body) = http(&addr, "GET", "/healthz", None).await.unwrap();
    assert_eq!((status, body.trim()), (200, "ok"));
    let lobby: Vec<stud_proto::TableSummary> =
        serde_json::from_str(&http(&addr, "GET", "/api/tables", None).await.unwrap().1).unwrap();
    assert_eq!(lobby.len(), 6);
    assert_eq!(
        (lobby[0].config.ante, lobby[0].config.bring_in, lobby[0].config.small_bet, lobby[0].config.big_bet),
        (40, 50, 200, 400)
    );
    let (status, body) = http(&addr, "POST", "/api/sessions", Some(r#"{"name": ""}"#)).await.unwrap();
    assert_eq!(status, 400, "{body}");
    let (status, _) = http(&addr, "POST", "/api/sessions", Some("nonsense")).await.unwrap();
    assert_eq!(status, 400);
    let (status, body) = http(&addr, "POST", "/api/sessions", Some(r#"{"name": "Ann"}"#)).await.unwrap();
    assert_eq!(status, 201, "{body}");
    let (status, metrics) = http(&addr, "GET", "/metrics", None).await.unwrap();
    assert_eq!(status, 200);
    for name in [
        "stud_tables 6",
        "stud_connections",
        "stud_hands_total",
        "stud_action_seconds_bucket",
        "stud_errors_total{code=\"malformed\"}",
    ] {
        assert!(metrics.contains(name), "{name} missing");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn top_up_sit_out_sit_in_and_leave_between_hands() {
    let (server, addr) = spawn_app(|_| {}).await;
    let table = table_of(&addr, Variant::Razz).await;
    let mut a = Player::new(&addr, "a").await;
    a.send(ClientMsg::Sit {
        request_id: None,
        table_id: table.id,
        invite_code: None,
        seat: Some(4),
        buy_in: table.min_buy_in,
    })
    .await;
    a.until(|m| matches!(m, ServerMsg::Ack { .. })).await;
    a.seat = Some(4);
    let stack_of = |m: &ServerMsg| match m {
        ServerMsg::Snapshot { table, .. } => table.seats.iter().find(|s| s.seat == 4).map(|s| (s.stack, s.sitting_out)),
        _ => None,
    };
    // Alone at the table, so no hand: a top-up is allowed, within the maximum.
    a.send(ClientMsg::TopUp { request_id: Some("t1".into()), table_id: table.id, amount: 1_000 }).await;
    let snap = a.until(|m| stack_of(m).is_some_and(|s| s.0 == table.min_buy_in + 1_000)).await;
    assert!(stack_of(&snap).is_some());
    a.send(ClientMsg::TopUp { request_id: Some("t2".into()), table_id: table.id, amount: table.max_buy_in }).await;
    expect_error(&mut a, ErrorCode::BuyInOutOfRange).await;
    // An absurd amount is refused, not overflowed.
    a.send(ClientMsg::TopUp { request_id: Some("t3".into()), table_id: table.id, amount: u64::MAX }).await;
    expect_error(&mut a, ErrorCode::BuyInOutOfRange).await;
    a.send(ClientMsg::Sit { request_id: None, table_id: table.id, invite_code: None, seat: Some(5), buy_in: u64::MAX })
        .await;
    expect_error(&mut a, ErrorCode::AlreadySeated).await;
    assert_eq!(server.app.bank.total_balances() + table.min_buy_in + 1_000, server.app.bank.issued());
    a.send(ClientMsg::SitOut { request_id: None, table_id: table.id }).await;
    a.until(|m| stack_of(m).is_some_and(|s| s.1)).await;
    a.send(ClientMsg::SitIn { request_id: None, table_id: table.id }).await;
    a.until(|m| stack_of(m).is_some_and(|s| !s.1)).await;
    // Leaving cashes the whole stack back out.
    a.send(ClientMsg::Leave { request_id: Some("bye".into()), table_id: table.id }).await;
    a.until(|m| matches!(m, ServerMsg::Ack { detail, .. } if detail == "left")).await;
    assert_eq!(server.app.bank.total_balances(), server.app.bank.issued());
    // Not seated any more.
    a.send(ClientMsg::SitOut { request_id: None, table_id: table.id }).await;
    expect_error(&mut a, ErrorCode::NotSeated).await;
    server.shutdown().await;
}
