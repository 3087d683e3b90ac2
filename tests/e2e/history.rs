//! Stored hands over the API: LAST HAND from the database, the history routes in every format
//! and for every kind of caller, and a restart that keeps it all.

use stud_client::http_as;
use stud_engine::{Event, Variant};
use stud_proto::{ClientMsg, HandDetail, HandPage, LastHandReport, ServerMsg};
use uuid::Uuid;

use crate::play::{leave_and_check_chips, play};
use crate::{Player, spawn_app, table_of};

const KEY: &str = "operator-key-for-tests-0123456789";

struct Me {
    token: String,
    session_id: Uuid,
    player_id: Uuid,
}

async fn get(addr: &str, path: &str, bearer: Option<&str>) -> (u16, String) {
    http_as(addr, "GET", path, None, bearer).await.unwrap()
}

#[tokio::test]
async fn history_api_every_format_every_caller_and_a_restart() {
    let (path, url) = crate::temp_db("history");
    let db = url.clone();
    let (server, addr) = spawn_app(move |c| {
        c.database_url = db;
        c.operator_key = Some(KEY.into());
    })
    .await;
    let table = table_of(&addr, Variant::Stud8).await;
    let mut players = Vec::new();
    for seat in [2, 4, 6] {
        let mut p = Player::new(&addr, &format!("Player {seat}")).await;
        p.sit(&table, seat).await;
        players.push(p);
    }
    let mut players = play(players, 6, 11).await;
    let stranger = Player::new(&addr, "stranger").await;
    let me = Me { token: players[0].token.clone(), session_id: players[0].session_id, player_id: players[0].player_id };
    let me = &me;

    // The session's hands, newest first, as LAST HAND shows them.
    let (status, body) = get(&addr, &format!("/api/sessions/{}/hands", me.session_id), Some(&me.token)).await;
    assert_eq!(status, 200, "{body}");
    let reports: Vec<LastHandReport> = serde_json::from_str(&body).unwrap();
    assert!(reports.len() >= 6, "{}", reports.len());
    assert!(reports.windows(2).all(|w| w[0].summary.number > w[1].summary.number), "newest first");
    assert!(reports.iter().all(|r| r.seed.is_none() && r.commitment.is_some()));
    // Names and pots as they were: every seat named as its player was, a pot after each event,
    // and the pot awarded is what the awards add up to.
    for r in &reports {
        let mut names: Vec<(u8, String)> = r.names.iter().map(|n| (n.seat, n.name.clone())).collect();
        names.sort();
        let want: Vec<(u8, String)> =
            r.view.seats.iter().map(|s| (s.seat.number(), format!("Player {}", s.seat.number()))).collect();
        assert_eq!(names, want, "hand {}", r.summary.number);
        assert_eq!(r.pots.len(), r.events.len(), "one pots entry per event");
        let awarded: u64 = r
            .events
            .iter()
            .filter_map(|e| if let Event::Award { amount, .. } = e { Some(*amount) } else { None })
            .sum();
        let last_pots = r.pots.iter().rev().find(|p| !p.is_empty()).expect("pots before the award");
        assert_eq!(last_pots.iter().map(|p| p.amount).sum::<u64>(), awarded, "hand {}", r.summary.number);
        assert!(r.pots.last().is_some_and(Vec::is_empty), "no pot once awarded");
    }
    let hand_id = reports[0].summary.hand_id;
    let (status, body) = get(&addr, &format!("/api/sessions/{}/hands?limit=2", me.session_id), Some(&me.token)).await;
    assert_eq!(status, 200);
    assert_eq!(serde_json::from_str::<Vec<LastHandReport>>(&body).unwrap().len(), 2);

    // PHH and text for the player: their cards, no seed; hidden cards are PHH's `??`.
    let (status, phh) = get(&addr, &format!("/api/sessions/{}/hands?format=phh", me.session_id), Some(&me.token)).await;
    assert_eq!(status, 200);
    assert!(phh.contains("variant = \"F7S/8\"") && phh.contains("_commitment") && !phh.contains("_seed"), "{phh}");
    let (status, text) = get(&addr, &format!("/api/hands/{hand_id}?format=text"), Some(&me.token)).await;
    assert_eq!(status, 200);
    assert!(text.starts_with(&format!("PokerStars Hand #{hand_id}:  7 Card Stud Hi/Lo Limit (200/400)")), "{text}");
    assert!(text.contains("*** 3rd STREET ***") && text.contains("*** SUMMARY ***"), "{text}");
    assert!(text.contains("Player 2") && text.contains("Player 6"), "{text}");

    // Wrong callers.
    assert_eq!(get(&addr, &format!("/api/hands/{hand_id}"), None).await.0, 401);
    assert_eq!(get(&addr, &format!("/api/hands/{hand_id}"), Some("not-a-token")).await.0, 401);
    assert_eq!(get(&addr, &format!("/api/hands/{hand_id}"), Some(&stranger.token)).await.0, 404);
    let other = format!("/api/sessions/{}/hands", players[1].session_id);
    assert_eq!(get(&addr, &other, Some(&me.token)).await.0, 403);
    assert_eq!(get(&addr, "/api/hands?limit=5", Some(&me.token)).await.0, 401);
    assert_eq!(get(&addr, "/api/hands/not-a-uuid", Some(KEY)).await.0, 400);
    assert_eq!(get(&addr, &format!("/api/hands/{}", Uuid::new_v4()), Some(KEY)).await.0, 404);
    assert_eq!(get(&addr, "/api/hands?limit=0", Some(KEY)).await.0, 400);
    assert_eq!(get(&addr, "/api/hands?format=xml", Some(KEY)).await.0, 400);

    // The operator: everything, seed included, and it verifies.
    let (status, body) = get(&addr, &format!("/api/hands/{hand_id}"), Some(KEY)).await;
    assert_eq!(status, 200, "{body}");
    let detail: HandDetail = serde_json::from_str(&body).unwrap();
    assert!(detail.record.seed.is_some());
    detail.record.verify().unwrap();
    let (_, full_phh) = get(&addr, &format!("/api/hands/{hand_id}?format=phh"), Some(KEY)).await;
    let read = stud_engine::phh::read(&full_phh).unwrap();
    assert!(matches!(read.as_slice(), [(_, Ok(h))] if h.record == detail.record), "{full_phh}");

    // Paging through every hand of the table, newest first, with the cursor.
    let mut seen = Vec::new();
    let mut cursor = String::new();
    loop {
        let (status, body) = get(&addr, &format!("/api/hands?table={}&limit=4{cursor}", table.id), Some(KEY)).await;
        assert_eq!(status, 200, "{body}");
        let page: HandPage = serde_json::from_str(&body).unwrap();
        seen.extend(page.hands.iter().map(|h| (h.ended_at_ms, h.hand_id)));
        match page.next_cursor {
            Some(c) => cursor = format!("&cursor={c}"),
            None => break,
        }
    }
    assert!(seen.len() >= 6 && seen.windows(2).all(|w| w[0] > w[1]), "{seen:?}");
    let (_, body) = get(&addr, &format!("/api/hands?player={}&limit=500", me.player_id), Some(KEY)).await;
    let mine: HandPage = serde_json::from_str(&body).unwrap();
    assert_eq!(mine.hands.len(), seen.len(), "every hand of the table had player 2 in it");

    leave_and_check_chips(&server, &mut players, table.id).await;
    let balance = server.app.bank.balance(me.player_id);
    let (_, body) = get(&addr, &format!("/api/sessions/{}/hands", me.session_id), Some(&me.token)).await;
    let before: Vec<LastHandReport> = serde_json::from_str(&body).unwrap();
    server.shutdown().await;

    // A restart on the same database: the tables, the session, its balance and history.
    let db = url.clone();
    let (server, addr) = spawn_app(move |c| {
        c.database_url = db;
        c.operator_key = Some(KEY.into());
    })
    .await;
    assert_eq!(table_of(&addr, Variant::Stud8).await.id, table.id, "the table survived");
    let (mut client, welcome) = stud_client::Client::connect(&addr, &me.token).await.unwrap();
    assert!(matches!(welcome, ServerMsg::Welcome { balance: b, .. } if b == balance), "{welcome:?}");
    client.send(&ClientMsg::LastHands { request_id: Some("lh".into()) }).await.unwrap();
    let list = loop {
        if let ServerMsg::LastHands { hands, .. } = client.recv(crate::WAIT).await.unwrap() {
            break hands;
        }
    };
    let after: Vec<Uuid> = list.iter().map(|h| h.hand_id).collect();
    let before: Vec<Uuid> = before.iter().map(|r| r.summary.hand_id).collect();
    assert_eq!(after, before, "the same LAST HAND list after the restart");
    let (status, body) = get(&addr, &format!("/api/hands/{hand_id}"), Some(&me.token)).await;
    assert_eq!(status, 200, "{body}");
    // Hand numbers go on from where the table was.
    let newest_before = reports.iter().map(|r| r.summary.number).max().unwrap();
    let mut fresh = Vec::new();
    for seat in [1, 3] {
        let mut p = Player::new(&addr, &format!("New {seat}")).await;
        p.sit(&table, seat).await;
        fresh.push(p);
    }
    let mut fresh = play(fresh, 1, 5).await;
    let (_, body) = get(&addr, &format!("/api/sessions/{}/hands", fresh[0].session_id), Some(&fresh[0].token)).await;
    let after: Vec<LastHandReport> = serde_json::from_str(&body).unwrap();
    assert!(after.iter().all(|r| r.summary.number > newest_before), "numbers restarted: {newest_before}");
    leave_and_check_chips(&server, &mut fresh, table.id).await;
    server.shutdown().await;
    let _ = std::fs::remove_file(&path);
}

/// History reads are limited per player (HTTP and the WebSocket together) and per address
/// (five times as many), so sockets of one player or one place cannot keep the store busy.
#[tokio::test]
async fn history_reads_are_limited_per_player_and_per_address() {
    let (server, addr) = spawn_app(|c| {
        c.history_reads_per_minute = 3;
        c.sessions_per_minute_per_ip = 0;
    })
    .await;
    let mut ann = Player::new(&addr, "Ann").await;
    let hands = |p: &Player| format!("/api/sessions/{}/hands", p.session_id);
    for _ in 0..3 {
        assert_eq!(get(&addr, &hands(&ann), Some(&ann.token)).await.0, 200);
    }
    let (status, body) = get(&addr, &hands(&ann), Some(&ann.token)).await;
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("rate_limited"), "{body}");
    let (status, _) = get(&addr, &format!("/api/sessions/{}/ledger", ann.session_id), Some(&ann.token)).await;
    assert_eq!(status, 429, "the ledger counts too");
    ann.send(ClientMsg::LastHands { request_id: Some("lh".into()) }).await;
    let reply = ann.until(|m| matches!(m, ServerMsg::Error { .. } | ServerMsg::LastHands { .. })).await;
    assert!(
        matches!(&reply, ServerMsg::Error { code: stud_proto::ErrorCode::RateLimited, request_id: Some(r), .. } if r == "lh"),
        "{reply:?}"
    );
    // The address: 15 reads a minute. Ann spent 3; four more players spend 12; a sixth is refused
    // at once, though it has read nothing yet.
    for n in 0..4 {
        let p = Player::new(&addr, &format!("P{n}")).await;
        for _ in 0..3 {
            assert_eq!(get(&addr, &hands(&p), Some(&p.token)).await.0, 200);
        }
    }
    let mut fresh = Player::new(&addr, "Fresh").await;
    assert_eq!(get(&addr, &hands(&fresh), Some(&fresh.token)).await.0, 429);
    fresh.send(ClientMsg::LastHands { request_id: None }).await;
    let reply = fresh.until(|m| matches!(m, ServerMsg::Error { .. } | ServerMsg::LastHands { .. })).await;
    assert!(matches!(reply, ServerMsg::Error { code: stud_proto::ErrorCode::RateLimited, .. }), "{reply:?}");
    server.shutdown().await;
}
