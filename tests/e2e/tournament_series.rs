//! Satellites and schedules (issue 30 item 6), through the real server: a satellite's ticket
//! winners are entered in its target with their prize, the money left goes to the next
//! place, the ledger and every account say so; a repeating scheduled tournament schedules the
//! next one when its start comes (cancelled for too few entrants here), and an operator's
//! cancellation before the start ends the series.

use std::time::Duration;

use stud_client::{create_session, http_as};
use stud_proto::{TournamentDetail, TournamentStatus};
use stud_store::LedgerQuery;
use uuid::Uuid;

use crate::spawn_app;
use crate::tournament_bounties::hunter;
use crate::tournament_play::{KEY, START, create, detail, levels};

#[tokio::test]
async fn a_satellite_s_winners_are_entered_in_its_target_and_the_rest_is_money() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let start_at = stud_store::now_ms() + 3_600_000;
    let target = create(
        &addr,
        &format!(
            r#"{{"name": "Sunday Main", "variant": "stud", "kind": "scheduled", "start_at": {start_at},
                "min_entrants": 2, "max_entrants": 100, "seats_per_table": 8, "entry_fee": 1000,
                "house_fee": 100, "starting_chips": 1000, "levels": {}}}"#,
            levels(10)
        ),
    )
    .await;
    // Three seats at 800 + 50: a pool of 2,400 buys two 1,100 tickets, 200 left for third.
    let body = format!(
        r#"{{"name": "Sunday Main satellite", "variant": "stud", "kind": "sit_and_go", "min_entrants": 3,
            "max_entrants": 3, "seats_per_table": 8, "entry_fee": 800, "house_fee": 50, "starting_chips": 100,
            "levels": {}, "satellite_for": "{target}"}}"#,
        levels(2)
    );
    let sat = create(&addr, &body).await;
    let d = detail(&addr, sat).await;
    assert_eq!((d.satellite_for, d.ticket, d.tickets), (Some(target), Some(1_100), Some(0)));
    // The lobby says what it qualifies for.
    let row = list(&addr).await.into_iter().find(|t| t["id"] == sat.to_string()).unwrap();
    assert_eq!(row["satellite_for"], target.to_string(), "{row}");
    // A satellite for a tournament that does not exist is refused, naming the field.
    let bad = body.replace(&target.to_string(), &Uuid::new_v4().to_string());
    let (status, text) = http_as(&addr, "POST", "/api/admin/tournaments", Some(&bad), Some(KEY)).await.unwrap();
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("satellite_for"), "{text}");

    let mut bots = Vec::new();
    for i in 0..3u64 {
        let s = create_session(&addr, &format!("qualifier{i}")).await.unwrap();
        bots.push(tokio::spawn(hunter(addr.clone(), s.token, s.player_id, sat, 40 + i)));
    }
    let mut seen = Vec::new();
    for b in bots {
        seen.push(tokio::time::timeout(Duration::from_secs(300), b).await.expect("the satellite ended").unwrap());
    }
    let d = detail(&addr, sat).await;
    assert_eq!(d.status, TournamentStatus::Finished, "{d:?}");
    assert_eq!((d.pool, d.tickets, d.prizes.clone()), (2_400, Some(2), vec![1_100, 1_100, 200]));
    // The two left busted in one hand with equal stacks (random hands: now and then): they
    // tie for 2nd and split the 2nd ticket's value and the 3rd prize as money, so the winner
    // alone gets a ticket. Otherwise the top two get one each.
    let tie = d.results.iter().filter(|r| r.place >= 2).all(|r| r.prize == (1_100 + 200) / 2);
    let ticketed = if tie { 1 } else { 2 };
    let winners: Vec<Uuid> = d.results.iter().filter(|r| r.place <= ticketed).map(|r| r.player_id).collect();
    assert!(d.results.iter().all(|r| (r.place <= ticketed) == (r.ticket_for == Some(target))), "{:?}", d.results);
    // The ticket winners are entered in the target (the registration follows the place).
    let mut entered = Vec::new();
    for _ in 0..50 {
        entered = detail(&addr, target).await.entrants.iter().map(|e| e.player_id).collect::<Vec<_>>();
        if entered.len() == winners.len() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    entered.sort();
    let mut expected = winners.clone();
    expected.sort();
    assert_eq!(entered, expected);
    assert!(server.app.writer.flush().await);
    for s in &seen {
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        let r = d.results.iter().find(|r| r.player_id == s.me).unwrap();
        assert_eq!(s.ticket_for, r.ticket_for, "the place frame names the ticket");
        let balance = server.app.store.balance(s.me).await.unwrap();
        // A ticket's prize paid the target's buy-in: the account is down the satellite's.
        let expected = if r.place <= ticketed { START - 850 } else { START - 850 + r.prize };
        assert_eq!(balance, expected, "{r:?}");
        if r.place <= ticketed {
            let q = LedgerQuery { player: Some(s.me), table: Some(target), since_ms: None, before: None, limit: 10 };
            let lines = server.app.store.ledger(&q).await.unwrap();
            assert!(lines.iter().any(|l| l.kind == "tournament_entry" && l.balance_delta == -1_100), "{lines:?}");
        }
    }
    let t = server.app.store.totals().await.unwrap();
    assert!(t.conserved(), "{t:?}");
    let entries = 1_100 * i64::from(ticketed);
    assert_eq!(t.on_tables, 3 * 50 + entries, "the house fees and the entries in the target: {t:?}");
    server.shutdown().await;
}

async fn scheduled(addr: &str, name: &str, start_at: u64) -> Uuid {
    create(
        addr,
        &format!(
            r#"{{"name": "{name}", "variant": "razz", "kind": "scheduled", "start_at": {start_at},
                "min_entrants": 2, "max_entrants": 50, "seats_per_table": 8, "entry_fee": 500, "house_fee": 50,
                "starting_chips": 1000, "levels": {}, "repeat_minutes": 60}}"#,
            levels(10)
        ),
    )
    .await
}

async fn list(addr: &str) -> Vec<serde_json::Value> {
    let (_, text) = http_as(addr, "GET", "/api/tournaments", None, None).await.unwrap();
    serde_json::from_str(&text).unwrap()
}

#[tokio::test]
async fn a_repeating_tournament_schedules_the_next_at_its_start_until_an_operator_cancels_it() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let start_at = stud_store::now_ms() + 1_500;
    let id = scheduled(&addr, "Hourly Razz", start_at).await;
    let d = detail(&addr, id).await;
    assert_eq!((d.repeat_minutes, d.next_id), (Some(60), None));
    // Nobody registers: at its start it is cancelled, and the next one is scheduled an hour on.
    let mut d: TournamentDetail = d;
    for _ in 0..100 {
        d = detail(&addr, id).await;
        if d.next_id.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(d.status, TournamentStatus::Cancelled, "{d:?}");
    let next = d.next_id.expect("the next one is scheduled");
    let n = detail(&addr, next).await;
    assert_eq!(
        (n.status, n.start_at, n.name.as_str()),
        (TournamentStatus::Registering, Some(start_at + 3_600_000), "Hourly Razz")
    );
    assert_eq!(n.repeat_minutes, Some(60));
    assert_eq!(list(&addr).await.iter().filter(|t| t["name"] == "Hourly Razz").count(), 2, "scheduled once");

    // An operator cancels the next one before its start: the series ends there.
    let path = format!("/api/admin/tournaments/{next}/cancel");
    let (status, text) = http_as(&addr, "POST", &path, Some("{}"), Some(KEY)).await.unwrap();
    assert_eq!(status, 200, "{text}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(detail(&addr, next).await.next_id, None);
    assert_eq!(list(&addr).await.iter().filter(|t| t["name"] == "Hourly Razz").count(), 2, "no third");
    server.shutdown().await;
}

/// A start that passes while the server is down: after the restart the tournament is
/// cancelled (too few entrants) and its next one scheduled, once; another restart schedules
/// no other (the next one's id is derived from its predecessor's).
#[tokio::test]
async fn a_start_missed_while_down_schedules_the_next_once_across_restarts() {
    let (path, url) = crate::temp_db("series");
    let config = |url: String| {
        move |c: &mut stud_server::Config| {
            c.database_url = url;
            c.operator_key = Some(KEY.into());
        }
    };
    let (server, addr) = spawn_app(config(url.clone())).await;
    let start_at = stud_store::now_ms() + 1_000;
    let id = scheduled(&addr, "Nightly Razz", start_at).await;
    server.shutdown().await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let (server, addr) = spawn_app(config(url.clone())).await;
    let mut next = None;
    for _ in 0..50 {
        next = detail(&addr, id).await.next_id;
        if next.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let next = next.expect("scheduled after the restart");
    assert_eq!(detail(&addr, id).await.status, TournamentStatus::Cancelled);
    assert_eq!(detail(&addr, next).await.start_at, Some(start_at + 3_600_000));
    server.shutdown().await;
    let (server, addr) = spawn_app(config(url.clone())).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(list(&addr).await.iter().filter(|t| t["name"] == "Nightly Razz").count(), 2);
    assert_eq!(detail(&addr, id).await.next_id, Some(next));
    server.shutdown().await;
    let _ = std::fs::remove_file(&path);
}
