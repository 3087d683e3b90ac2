//! Table chat over real sockets: a seated player's message reaches everyone watching (the
//! table's observers too), observers may not write, the limits answer with typed errors, a
//! banned player is muted, and the operator's switch (off by default at a private table)
//! and the money display change over `PATCH /api/admin/tables/{id}`.

use stud_client::http_as;
use stud_engine::Variant;
use stud_proto::{AdminTable, ClientMsg, ErrorCode, MoneyDisplay, ServerMsg, TableSettings};
use uuid::Uuid;

use crate::{Player, spawn_app, table_of};

const KEY: &str = "operator-key-for-chat-0123456789";

fn say(table_id: Uuid, text: &str) -> ClientMsg {
    ClientMsg::Chat { request_id: Some(format!("chat:{text}").chars().take(40).collect()), table_id, text: text.into() }
}

/// The next chat frame or error this player gets (other frames are audited and skipped).
async fn chat_or_error(p: &mut Player) -> ServerMsg {
    p.until(|m| matches!(m, ServerMsg::Chat { .. } | ServerMsg::Error { .. })).await
}

async fn refused(p: &mut Player) -> ErrorCode {
    match chat_or_error(p).await {
        ServerMsg::Error { code, .. } => code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn chat_reaches_every_watcher_within_its_limits_and_bans_mute() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let table = table_of(&addr, Variant::Razz).await;
    assert!(table.chat, "a public table has chat on by default");
    let mut ann = Player::new(&addr, "Ann").await;
    let mut bob = Player::new(&addr, "Bob").await;
    let mut watcher = Player::new(&addr, "Wes").await;
    ann.sit(&table, 1).await;
    bob.sit(&table, 2).await;
    watcher.send(ClientMsg::JoinTable { request_id: None, table_id: table.id, invite_code: None }).await;
    let snap = watcher.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
    let ServerMsg::Snapshot { table: state, .. } = snap else { unreachable!() };
    assert!(state.chat && state.your_seat.is_none());

    // Markup stays text; control characters become spaces; everyone gets the same frame.
    let text = "<b>gl</b> & hf\nall";
    ann.send(say(table.id, text)).await;
    for p in [&mut ann, &mut bob, &mut watcher] {
        let ServerMsg::Chat { table_id, seat, player_id, name, text: got, at_ms } = chat_or_error(p).await else {
            panic!("not a chat frame")
        };
        assert_eq!((table_id, seat, name.as_str(), got.as_str()), (table.id, 1, "Ann", "<b>gl</b> & hf all"));
        assert!(at_ms > 0);
        let _ = player_id;
    }

    // The watcher reads only; too long and empty are refused with their codes.
    watcher.send(say(table.id, "may I?")).await;
    assert_eq!(refused(&mut watcher).await, ErrorCode::NotSeated);
    bob.send(say(table.id, &"x".repeat(stud_proto::CHAT_MAX_CHARS + 1))).await;
    assert_eq!(refused(&mut bob).await, ErrorCode::TooLong);
    bob.send(say(table.id, "   ")).await;
    assert_eq!(refused(&mut bob).await, ErrorCode::Malformed);

    // Five at once, then the rate limit.
    for i in 0..5 {
        bob.send(say(table.id, &format!("n{i}"))).await;
        assert!(matches!(chat_or_error(&mut bob).await, ServerMsg::Chat { .. }), "message {i}");
    }
    bob.send(say(table.id, "n5")).await;
    assert_eq!(refused(&mut bob).await, ErrorCode::RateLimited);
    for i in 0..5 {
        let ServerMsg::Chat { text, .. } = chat_or_error(&mut watcher).await else { panic!("watcher: not a chat") };
        assert_eq!(text, format!("n{i}"));
    }

    // A ban mutes: the banned player's message reaches nobody.
    let ban = format!(r#"{{"player_id":"{}","table_id":"{}","reason":"spam"}}"#, bob.player_id, table.id);
    let (status, body) = http_as(&addr, "POST", "/api/admin/bans", Some(&ban), Some(KEY)).await.unwrap();
    assert_eq!(status, 204, "{body}");
    bob.send(say(table.id, "still here?")).await;
    let code = refused(&mut bob).await;
    assert!(matches!(code, ErrorCode::Forbidden | ErrorCode::NotSeated), "{code:?}");
    ann.send(say(table.id, "after the ban")).await;
    let ServerMsg::Chat { text, .. } = chat_or_error(&mut watcher).await else { panic!("watcher: not a chat") };
    assert_eq!(text, "after the ban", "the banned player's message went to nobody");
    server.shutdown().await;
}

#[tokio::test]
async fn a_private_table_has_chat_off_until_the_operator_turns_it_on_and_patch_sets_the_display() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let settings =
        TableSettings { private: true, display: MoneyDisplay::Cash, ..crate::stud_table_settings("Quiet room") };
    let (status, body) =
        http_as(&addr, "POST", "/api/admin/tables", Some(&serde_json::to_string(&settings).unwrap()), Some(KEY))
            .await
            .unwrap();
    assert_eq!(status, 201, "{body}");
    let created: AdminTable = serde_json::from_str(&body).unwrap();
    assert_eq!(created.settings.chat, None);
    assert!(!created.status.as_ref().unwrap().chat, "a private table has chat off by default");
    let id = created.id;
    let code = created.invite_code.clone().unwrap();

    // One player alone (no hand: changes apply at once).
    let mut ann = Player::new(&addr, "Ann").await;
    ann.send(ClientMsg::Sit {
        request_id: Some("s".into()),
        table_id: id,
        invite_code: Some(code),
        seat: Some(1),
        buy_in: 800,
    })
    .await;
    let snap = ann.until(|m| matches!(m, ServerMsg::Snapshot { table, .. } if table.your_seat == Some(1))).await;
    let ServerMsg::Snapshot { table, .. } = snap else { unreachable!() };
    assert!(!table.chat && table.display == MoneyDisplay::Cash);
    ann.send(say(id, "anyone?")).await;
    assert_eq!(refused(&mut ann).await, ErrorCode::ChatOff);

    // PATCH: chat on and chips display, like create takes them.
    let patch = r#"{"chat":true,"display":"chips"}"#;
    let (status, body) =
        http_as(&addr, "PATCH", &format!("/api/admin/tables/{id}"), Some(patch), Some(KEY)).await.unwrap();
    assert_eq!(status, 200, "{body}");
    let patched: AdminTable = serde_json::from_str(&body).unwrap();
    assert_eq!((patched.settings.chat, patched.settings.display), (Some(true), MoneyDisplay::Chips));
    let snap = ann.until(|m| matches!(m, ServerMsg::Snapshot { table, .. } if table.chat)).await;
    let ServerMsg::Snapshot { table, .. } = snap else { unreachable!() };
    assert_eq!(table.display, MoneyDisplay::Chips);
    ann.send(say(id, "hello")).await;
    assert!(matches!(chat_or_error(&mut ann).await, ServerMsg::Chat { .. }));

    // The setting outlives the process: GET shows it as stored.
    let (status, body) = http_as(&addr, "GET", &format!("/api/admin/tables/{id}"), None, Some(KEY)).await.unwrap();
    assert_eq!(status, 200, "{body}");
    let got: AdminTable = serde_json::from_str(&body).unwrap();
    assert_eq!((got.settings.chat, got.settings.display), (Some(true), MoneyDisplay::Chips));
    server.shutdown().await;
}
