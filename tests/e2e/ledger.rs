//! The chip ledger over HTTP: a player reads their own lines, an operator searches everyone's;
//! the lines add up to the balances, and paging loses nothing.

use stud_client::http_as;
use stud_engine::Variant;
use stud_proto::{LedgerLine, LedgerLineKind, LedgerPage};
use uuid::Uuid;

use crate::play::{leave_and_check_chips, play};
use crate::{Player, spawn_app, table_of};

const KEY: &str = "operator-key-for-ledger-0123456789";

async fn get(addr: &str, path: &str, bearer: Option<&str>) -> (u16, String) {
    http_as(addr, "GET", path, None, bearer).await.unwrap()
}

async fn page(addr: &str, path: &str, bearer: &str) -> LedgerPage {
    let (status, body) = get(addr, path, Some(bearer)).await;
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap()
}

/// Every line of `path` (which has a query string), `limit` at a time.
async fn all_pages(addr: &str, path: &str, bearer: &str, limit: u32) -> Vec<LedgerLine> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let after = cursor.as_deref().map(|c| format!("&cursor={c}")).unwrap_or_default();
        let p = page(addr, &format!("{path}&limit={limit}{after}"), bearer).await;
        out.extend(p.entries);
        match p.next_cursor {
            Some(c) => cursor = Some(c),
            None => return out,
        }
    }
}

#[tokio::test]
async fn players_read_their_own_ledger_and_operators_search_it() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let table = table_of(&addr, Variant::Razz).await;
    let mut players = Vec::new();
    for seat in [1, 2] {
        let mut p = Player::new(&addr, &format!("P{seat}")).await;
        p.sit(&table, seat).await;
        players.push(p);
    }
    let mut players = play(players, 3, 5).await;
    leave_and_check_chips(&server, &mut players, table.id).await;
    let (ann, bob) = (&players[0], &players[1]);

    // Ann's own lines, newest first: issue, buy-in, three hands, cash-out.
    let mine = page(&addr, &format!("/api/sessions/{}/ledger", ann.session_id), &ann.token).await;
    assert!(mine.next_cursor.is_none());
    let kinds: Vec<LedgerLineKind> = mine.entries.iter().rev().map(|l| l.kind).collect();
    assert_eq!(kinds.first(), Some(&LedgerLineKind::Issue), "{kinds:?}");
    assert_eq!(kinds.get(1), Some(&LedgerLineKind::BuyIn), "{kinds:?}");
    assert_eq!(kinds.last(), Some(&LedgerLineKind::CashOut), "{kinds:?}");
    assert!(kinds.iter().filter(|k| **k == LedgerLineKind::Hand).count() >= 3, "{kinds:?}");
    assert!(mine.entries.iter().all(|l| l.player_id == ann.player_id));
    assert!(mine.entries.windows(2).all(|w| w[0].at_ms >= w[1].at_ms), "newest first");
    let balance: i64 = mine.entries.iter().map(|l| l.balance_delta).sum();
    assert_eq!(balance, i64::try_from(server.app.bank.balance(ann.player_id)).unwrap());
    let stack: i64 = mine.entries.iter().map(|l| l.stack_delta).sum();
    assert_eq!(stack, 0, "all cashed out");
    assert!(mine.entries.iter().all(|l| (l.kind == LedgerLineKind::Hand) == l.hand_id.is_some()));
    // Paged two at a time: the same lines.
    let path = format!("/api/sessions/{}/ledger?", ann.session_id);
    assert_eq!(all_pages(&addr, &path, &ann.token, 2).await, mine.entries);

    // Only with that session's token.
    let own = format!("/api/sessions/{}/ledger", ann.session_id);
    assert_eq!(get(&addr, &own, Some(&bob.token)).await.0, 403);
    assert_eq!(get(&addr, &own, Some(KEY)).await.0, 403);
    assert_eq!(get(&addr, &own, None).await.0, 401);
    assert_eq!(get(&addr, &format!("{own}?limit=0"), Some(&ann.token)).await.0, 400);
    assert_eq!(get(&addr, &format!("{own}?cursor=nonsense"), Some(&ann.token)).await.0, 400);

    // Operators: the same lines by player; by table, everyone's, adding up to nothing left on it.
    let by_player = page(&addr, &format!("/api/admin/ledger?player={}&limit=500", ann.player_id), KEY).await;
    assert_eq!(by_player.entries, mine.entries);
    let at_table = all_pages(&addr, &format!("/api/admin/ledger?table={}", table.id), KEY, 3).await;
    assert!(at_table.iter().all(|l| l.table_id == Some(table.id)));
    assert_eq!(at_table.iter().map(|l| l.stack_delta).sum::<i64>(), 0);
    let players_there: std::collections::HashSet<Uuid> = at_table.iter().map(|l| l.player_id).collect();
    assert_eq!(players_there, [ann.player_id, bob.player_id].into_iter().collect());
    // A hand's lines sum to zero: chips only change hands.
    let first_hand = at_table.iter().find_map(|l| l.hand_id).unwrap();
    let hand_sum: i64 = at_table.iter().filter(|l| l.hand_id == Some(first_hand)).map(|l| l.stack_delta).sum();
    assert_eq!(hand_sum, 0);
    let later = page(&addr, &format!("/api/admin/ledger?since={}", u64::MAX / 2), KEY).await;
    assert!(later.entries.is_empty());
    assert_eq!(get(&addr, "/api/admin/ledger", Some(&ann.token)).await.0, 401);
    assert_eq!(get(&addr, "/api/admin/ledger", None).await.0, 401);
    assert_eq!(get(&addr, "/api/admin/ledger?player=", Some(KEY)).await.0, 400);
    assert_eq!(get(&addr, "/api/admin/ledger?limit=501", Some(KEY)).await.0, 400);
    server.shutdown().await;
}
