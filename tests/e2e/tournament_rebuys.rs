//! Rebuys and the add-on (issue 30) played by real WebSocket bots: a sit-and-go of three with
//! 100-chip stacks (so players bust in the rebuy period), two rebuys each at most, and an
//! add-on. Every bot buys a rebuy during its first hand (at the starting stack: the chips come
//! when that hand ends), takes every rebuy it is offered after a bust, and the add-on. Checked:
//! the pool is every entry, rebuy and add-on fee; the prizes add up to it; each account paid
//! exactly what its purchases say; the ledger names each purchase; the totals are conserved.

use std::collections::BTreeMap;
use std::time::Duration;

use stud_client::{Client, create_session};
use stud_engine::bot::Bot;
use stud_proto::{ClientMsg, ServerMsg, TournamentOfferKind, TournamentStatus};
use stud_store::LedgerQuery;
use uuid::Uuid;

use crate::spawn_app;
use crate::tournament_play::{KEY, START, create, detail, levels};

const ENTRY: u64 = 1_000;
const HOUSE: u64 = 100;
const REBUY: u64 = 400;
const ADDON: u64 = 300;

/// What one bot bought and saw.
#[derive(Debug, Default)]
struct Bought {
    rebuys: u64,
    addons: u64,
    /// offers received: (kind, chips, fee)
    offers: Vec<(TournamentOfferKind, u64, u64)>,
    /// `tournament_seat` reasons
    seats: Vec<String>,
    placed: Option<(u32, u64)>,
    errors: Vec<String>,
    /// answers to the first rebuy asked again with its key (a retry): answered, not bought
    retried: u64,
}

async fn buyer(addr: String, token: String, tournament: Uuid, seed: u64) -> Bought {
    let mut b = Bought::default();
    let mut rng = Bot::new(seed);
    let mut c = Client::connect(&addr, &token).await.unwrap().0;
    let reg = ClientMsg::TournamentRegister { request_id: None, tournament_id: tournament, invite_code: None };
    c.send(&reg).await.unwrap();
    let mut first_hand = true;
    loop {
        let msg = c.recv(Duration::from_secs(60)).await.expect("the server answers");
        match msg {
            ServerMsg::TournamentSeat { table_id, reason, .. } => {
                b.seats.push(format!("{reason:?}"));
                c.send(&ClientMsg::JoinTable { request_id: None, table_id, invite_code: None }).await.unwrap();
            }
            ServerMsg::HandStarted { .. } if first_hand => {
                // At the starting stack, during a hand: bought now, added when it ends. Asked
                // twice with one key (a retry after a lost answer): bought once.
                first_hand = false;
                for request_id in ["r0", "r0-again"] {
                    let key = Some("first".to_owned());
                    let buy = ClientMsg::TournamentRebuy {
                        request_id: Some(request_id.into()),
                        tournament_id: tournament,
                        idempotency_key: key,
                    };
                    c.send(&buy).await.unwrap();
                }
            }
            ServerMsg::TournamentOffer { tournament_id, offer, chips, fee, until_ms } => {
                assert_eq!(tournament_id, tournament);
                assert!(until_ms > stud_store::now_ms(), "an offer that has lapsed already");
                b.offers.push((offer, chips, fee));
                let buy = match offer {
                    TournamentOfferKind::Rebuy => {
                        ClientMsg::TournamentRebuy { request_id: None, tournament_id, idempotency_key: None }
                    }
                    TournamentOfferKind::Addon => ClientMsg::TournamentAddon { request_id: None, tournament_id },
                };
                c.send(&buy).await.unwrap();
            }
            ServerMsg::TournamentPurchase { purchase, request_id } => {
                assert_eq!(purchase.tournament_id, tournament);
                if request_id.as_deref() == Some("r0-again") {
                    b.retried += 1;
                    continue;
                }
                match purchase.kind {
                    TournamentOfferKind::Rebuy => b.rebuys += 1,
                    TournamentOfferKind::Addon => b.addons += 1,
                }
            }
            ServerMsg::YourTurn { table_id, hand_id, seq, legal, .. } => {
                let action = rng.choose(&legal);
                let act = ClientMsg::Act {
                    request_id: None,
                    table_id,
                    hand_id,
                    seq,
                    idempotency_key: format!("{hand_id}-{seq}"),
                    action,
                };
                let _ = c.send(&act).await;
            }
            ServerMsg::TournamentPlaced { tournament_id, place, prize, .. } if tournament_id == tournament => {
                b.placed = Some((place, prize));
                return b;
            }
            ServerMsg::Error { code, message, .. } if code != stud_proto::ErrorCode::Stale => {
                b.errors.push(format!("{code:?}: {message}"));
            }
            _ => {}
        }
    }
}

#[tokio::test]
async fn rebuys_and_the_add_on_are_sold_paid_into_the_pool_and_paid_out() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let body = format!(
        r#"{{"name": "Rebuy SNG", "variant": "stud", "kind": "sit_and_go", "min_entrants": 3, "max_entrants": 3,
            "seats_per_table": 8, "entry_fee": {ENTRY}, "house_fee": {HOUSE}, "starting_chips": 100,
            "levels": {}, "rebuy_until_level": 2, "rebuy_fee": {REBUY}, "max_rebuys": 2,
            "addon_chips": 150, "addon_fee": {ADDON}}}"#,
        levels(2)
    );
    let id = create(&addr, &body).await;
    let d = detail(&addr, id).await;
    let r = d.rebuys.expect("the tournament sells rebuys");
    assert_eq!((r.rebuy_until_level, r.rebuy_chips, r.rebuy_fee, r.max_rebuys), (2, 100, REBUY, Some(2)));
    assert_eq!((r.addon_chips, r.addon_fee), (Some(150), Some(ADDON)));

    let mut players = Vec::new();
    let mut bots = Vec::new();
    for i in 0..3u64 {
        let s = create_session(&addr, &format!("buyer{i}")).await.unwrap();
        players.push(s.player_id);
        bots.push(tokio::spawn(buyer(addr.clone(), s.token, id, 70 + i)));
    }
    let mut bought = Vec::new();
    for b in bots {
        bought.push(tokio::time::timeout(Duration::from_secs(300), b).await.expect("the tournament ended").unwrap());
    }
    let d = detail(&addr, id).await;
    assert_eq!(d.status, TournamentStatus::Finished, "{d:?}");
    let (rebuys, addons): (u64, u64) = (bought.iter().map(|b| b.rebuys).sum(), bought.iter().map(|b| b.addons).sum());
    let r = d.rebuys.clone().unwrap();
    assert_eq!((u64::from(r.rebuys), u64::from(r.addons)), (rebuys, addons), "{bought:?}");
    // Every bot bought its first-hand rebuy, and its retry was answered as bought (charged
    // once: the balances below); busts in the rebuy period were offered one.
    assert!(bought.iter().all(|b| b.rebuys >= 1 && b.retried == 1), "{bought:?}");
    let offered: usize = bought.iter().map(|b| b.offers.len()).sum();
    assert!(offered >= 1, "no offer was made: {bought:?}");
    assert!(bought.iter().flat_map(|b| &b.offers).all(|o| match o.0 {
        TournamentOfferKind::Rebuy => (o.1, o.2) == (100, REBUY),
        TournamentOfferKind::Addon => (o.1, o.2) == (150, ADDON),
    }));
    // The pool is every fee but the house's, and it is paid out in full.
    let pool = 3 * ENTRY + REBUY * rebuys + ADDON * addons;
    assert_eq!(d.pool, pool);
    assert_eq!(d.results.iter().map(|r| r.prize).sum::<u64>(), pool);
    let mut places: Vec<u32> = d.results.iter().map(|r| r.place).collect();
    places.sort_unstable();
    assert_eq!(places, [1, 2, 3]);
    // Each account paid its entry and purchases and got its prize; the ledger says so.
    assert!(server.app.writer.flush().await);
    let mut kinds: BTreeMap<String, u64> = BTreeMap::new();
    for (player, b) in players.iter().zip(&bought) {
        assert!(b.errors.is_empty(), "{:?}", b.errors);
        let prize = d.results.iter().find(|r| r.player_id == *player).unwrap().prize;
        assert_eq!(b.placed.map(|p| p.1), Some(prize));
        let balance = server.app.store.balance(*player).await.unwrap();
        let spent = ENTRY + HOUSE + REBUY * b.rebuys + ADDON * b.addons;
        assert_eq!(balance, START - spent + prize, "{player}'s account");
        let q = LedgerQuery { player: Some(*player), table: Some(id), since_ms: None, before: None, limit: 100 };
        for line in server.app.store.ledger(&q).await.unwrap() {
            *kinds.entry(line.kind.clone()).or_default() += 1;
        }
    }
    assert_eq!(kinds.get("tournament_rebuy").copied().unwrap_or(0), rebuys, "{kinds:?}");
    assert_eq!(kinds.get("tournament_addon").copied().unwrap_or(0), addons, "{kinds:?}");
    let t = server.app.store.totals().await.unwrap();
    assert!(t.conserved(), "{t:?}");
    assert_eq!(t.on_tables, (HOUSE * 3) as i64, "what the tournament keeps is the house fees: {t:?}");
    server.shutdown().await;
}

/// A break (issue 30): after level 1 (one hand), every player is told the break's end, the
/// lobby shows it, and no table deals a new hand meanwhile.
#[tokio::test]
async fn a_break_is_announced_shown_and_kept() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let body = format!(
        r#"{{"name": "Break SNG", "variant": "stud", "kind": "sit_and_go", "min_entrants": 2, "max_entrants": 2,
            "seats_per_table": 8, "entry_fee": {ENTRY}, "house_fee": {HOUSE}, "starting_chips": 5000,
            "levels": {}, "break_every_levels": 1, "break_minutes": 1}}"#,
        levels(1)
    );
    let id = create(&addr, &body).await;
    let mut clients = Vec::new();
    for name in ["Ann", "Bo"] {
        let s = create_session(&addr, name).await.unwrap();
        let mut c = Client::connect(&addr, &s.token).await.unwrap().0;
        let reg = ClientMsg::TournamentRegister { request_id: None, tournament_id: id, invite_code: None };
        c.send(&reg).await.unwrap();
        clients.push(c);
    }
    // Both play (checking or calling, folding when they must) until told of the break.
    let mut until = Vec::new();
    for c in &mut clients {
        loop {
            match c.recv(Duration::from_secs(20)).await.expect("a frame before the break") {
                ServerMsg::TournamentSeat { table_id, .. } => {
                    c.send(&ClientMsg::JoinTable { request_id: None, table_id, invite_code: None }).await.unwrap();
                }
                ServerMsg::YourTurn { table_id, hand_id, seq, legal, .. } => {
                    let action = Bot::new(seq).choose(&legal);
                    let idempotency_key = format!("{hand_id}-{seq}");
                    let act = ClientMsg::Act { request_id: None, table_id, hand_id, seq, idempotency_key, action };
                    let _ = c.send(&act).await;
                }
                ServerMsg::TournamentBreak { tournament_id, until_ms } => {
                    assert_eq!(tournament_id, id);
                    until.push(until_ms);
                    break;
                }
                _ => {}
            }
        }
    }
    assert_eq!(until.len(), 2);
    assert_eq!(until[0], until[1], "one break for everyone");
    let now = stud_store::now_ms();
    assert!(until[0] > now + 50_000 && until[0] <= now + 60_000, "a minute's break: {} from now", until[0] - now);
    let d = detail(&addr, id).await;
    assert_eq!((d.on_break_until, d.break_every_levels, d.break_minutes), (Some(until[0]), Some(1), Some(1)));
    assert_eq!(d.level, 2);
    // No hand starts during the break.
    for c in &mut clients {
        let end = tokio::time::Instant::now() + Duration::from_secs(2);
        while let Ok(Ok(msg)) = tokio::time::timeout_at(end, c.recv(Duration::from_secs(2))).await {
            assert!(
                !matches!(msg, ServerMsg::HandStarted { .. } | ServerMsg::YourTurn { .. }),
                "dealt on a break: {msg:?}"
            );
        }
    }
    server.shutdown().await;
}

/// `POST /api/tournaments/{id}/rebuys` with an `Idempotency-Key` header, by hand (the client
/// library sends no such header): the status and the body.
async fn post_keyed(addr: &str, path: &str, token: &str, key: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nIdempotency-Key: {key}\r\n\
         Content-Length: 0\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, text.split_once("\r\n\r\n").map_or(String::new(), |(_, body)| body.to_owned()))
}

/// A rebuy over HTTP asked twice with one `Idempotency-Key` (a retry after a lost answer) is
/// answered 201 twice and charged once; another key is a new purchase (refused here: the
/// first one's chips put the player above the starting stack); a key that is not 1 to 64
/// visible characters is refused 400 before anything is asked.
#[tokio::test]
async fn an_http_rebuy_asked_again_with_its_key_is_bought_once() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let body = format!(
        r#"{{"name": "Keyed SNG", "variant": "stud", "kind": "sit_and_go", "min_entrants": 2, "max_entrants": 2,
            "seats_per_table": 8, "entry_fee": {ENTRY}, "house_fee": {HOUSE}, "starting_chips": 100,
            "levels": {}, "rebuy_until_level": 2, "rebuy_fee": {REBUY}}}"#,
        levels(50)
    );
    let id = create(&addr, &body).await;
    let mut sessions = Vec::new();
    for i in 0..2 {
        let s = create_session(&addr, &format!("keyed{i}")).await.unwrap();
        let path = format!("/api/tournaments/{id}/entries");
        let (status, text) = stud_client::http_as(&addr, "POST", &path, None, Some(&s.token)).await.unwrap();
        assert_eq!(status, 201, "{text}");
        sessions.push(s);
    }
    let path = format!("/api/tournaments/{id}/rebuys");
    let token = &sessions[0].token;
    let mut balances = Vec::new();
    for _ in 0..2 {
        let (status, text) = post_keyed(&addr, &path, token, "first-rebuy").await;
        assert_eq!(status, 201, "{text}");
        let p: stud_proto::TournamentPurchase = serde_json::from_str(&text).unwrap();
        assert_eq!((p.kind, p.chips, p.fee), (TournamentOfferKind::Rebuy, 100, REBUY));
        balances.push(p.balance);
    }
    assert_eq!(balances, [START - ENTRY - HOUSE - REBUY; 2], "charged once");
    let (status, text) = post_keyed(&addr, &path, token, "second-rebuy").await;
    assert_eq!(status, 409, "another key is another rebuy, not sold above the starting stack: {text}");
    for bad in ["has space".to_owned(), "k".repeat(65)] {
        let (status, text) = post_keyed(&addr, &path, token, &bad).await;
        assert_eq!(status, 400, "{bad:?}: {text}");
    }
    assert_eq!(detail(&addr, id).await.rebuys.map(|r| r.rebuys), Some(1));
    assert_eq!(server.app.store.balance(sessions[0].player_id).await.unwrap(), START - ENTRY - HOUSE - REBUY);
    server.shutdown().await;
}
