//! Tournaments played to the end by real WebSocket bots: sit-and-gos of 2, 6 and 8 (a full
//! table), a 24-player scheduled tournament over four tables (balancing, tables breaking,
//! hand-for-hand at the bubble), and a restart in the middle of one. Each checks the places
//! (1..N exactly once, one winner), the prizes (adding up to the prize pool, each paid to its
//! account through the ledger) and the ledger's totals.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use stud_client::{Client, create_session, http_as};
use stud_engine::Action;
use stud_engine::bot::Bot;
use stud_proto::{ClientMsg, EntrantState, ServerMsg, TournamentDetail, TournamentStatus, TournamentSummary};
use stud_server::Server;
use uuid::Uuid;

use crate::spawn_app;

pub(crate) const KEY: &str = "tournament-play-operator-key-0123456789";
pub(crate) const START: u64 = 100_000;
const ENTRY_FEE: u64 = 1_000;
const HOUSE_FEE: u64 = 100;

/// Levels of `hands` hands each, the stakes doubling every level (so the field shrinks fast).
pub(crate) fn levels(hands: u32) -> String {
    let mut out = Vec::new();
    for k in 0..12u64 {
        let m = 1u64 << k;
        out.push(format!(
            r#"{{"ante": {}, "bring_in": {}, "small_bet": {}, "big_bet": {}, "hands": {hands}}}"#,
            5 * m,
            10 * m,
            20 * m,
            40 * m
        ));
    }
    format!("[{}]", out.join(","))
}

pub(crate) async fn create(addr: &str, body: &str) -> Uuid {
    let (status, text) = http_as(addr, "POST", "/api/admin/tournaments", Some(body), Some(KEY)).await.unwrap();
    assert_eq!(status, 201, "{text}");
    serde_json::from_str::<TournamentDetail>(&text).unwrap().id
}

pub(crate) async fn detail(addr: &str, id: Uuid) -> TournamentDetail {
    let (status, text) = http_as(addr, "GET", &format!("/api/tournaments/{id}"), None, None).await.unwrap();
    assert_eq!(status, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// What one bot saw.
#[derive(Debug, Default)]
struct Seen {
    /// `tournament_seat` messages: (reason, table)
    seats: Vec<(String, Uuid)>,
    /// its own place and prize
    placed: Option<(u32, u64)>,
    /// actions sent
    actions: u64,
    /// errors received (other than stale prompts the clock beat)
    errors: Vec<String>,
    /// snapshots asked for, snapshots of its tables, and the levels they named
    snapshots_asked: u64,
    snapshots: u64,
    levels: std::collections::BTreeSet<u32>,
}

/// A bot: registers over the WebSocket, follows `tournament_seat` to its table, acts on its
/// prompts (a seeded random legal choice, aggressive half the time), and stops when placed.
/// It reconnects (to the address `addr` holds then) when the server goes away.
async fn bot(addr: Arc<Mutex<String>>, token: String, tournament: Uuid, seed: u64, register: bool) -> Seen {
    let mut seen = Seen::default();
    let mut rng = Bot::new(seed);
    let connect = |addr: Arc<Mutex<String>>, token: String| async move {
        for _ in 0..200 {
            let a = addr.lock().unwrap().clone();
            if let Ok((c, _)) = Client::connect(&a, &token).await {
                return c;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("could not reconnect");
    };
    let mut client = connect(addr.clone(), token.clone()).await;
    if register {
        let msg = ClientMsg::TournamentRegister {
            request_id: Some("reg".into()),
            tournament_id: tournament,
            invite_code: None,
        };
        client.send(&msg).await.unwrap();
    }
    loop {
        let msg = match client.recv(Duration::from_secs(60)).await {
            Ok(m) => m,
            Err(_) => {
                // The server went away (a restart): come back; `hello` rejoins our seat.
                client = connect(addr.clone(), token.clone()).await;
                continue;
            }
        };
        match msg {
            ServerMsg::TournamentSeat { table_id, reason, tournament_id, .. } => {
                assert_eq!(tournament_id, tournament);
                seen.seats.push((format!("{reason:?}"), table_id));
                let join = ClientMsg::JoinTable { request_id: None, table_id, invite_code: None };
                let _ = client.send(&join).await;
            }
            ServerMsg::YourTurn { table_id, hand_id, seq, legal, .. } => {
                let action = if rng.next_u64() % 2 == 0 {
                    [Action::Raise { to: 0 }, Action::Bet { to: 0 }, Action::Call, Action::Check]
                        .iter()
                        .find_map(|want| {
                            legal.iter().find(|a| std::mem::discriminant(*a) == std::mem::discriminant(want)).copied()
                        })
                        .unwrap_or_else(|| rng.choose(&legal))
                } else {
                    rng.choose(&legal)
                };
                seen.actions += 1;
                let act = ClientMsg::Act {
                    request_id: Some(format!("a{seq}")),
                    table_id,
                    hand_id,
                    seq,
                    idempotency_key: format!("{hand_id}-{seq}"),
                    action,
                };
                let _ = client.send(&act).await;
            }
            ServerMsg::HandStarted { table_id, .. } if seen.snapshots_asked == 0 => {
                // Once: the table as it stands in a hand (its level is the hand's).
                seen.snapshots_asked += 1;
                let ask = ClientMsg::Snapshot { request_id: Some("snap".into()), table_id };
                let _ = client.send(&ask).await;
            }
            ServerMsg::Snapshot { table, .. } => {
                // A tournament table says so, and which level its hands are at.
                assert_eq!(table.tournament_id, Some(tournament), "{table:?}");
                seen.snapshots += 1;
                seen.levels.extend(table.tournament_level);
            }
            ServerMsg::TournamentPlaced { tournament_id, place, prize, .. } if tournament_id == tournament => {
                seen.placed = Some((place, prize));
                return seen;
            }
            ServerMsg::Error { code, message, .. } if code != stud_proto::ErrorCode::Stale => {
                seen.errors.push(format!("{code:?}: {message}"));
            }
            _ => {}
        }
    }
}

struct Field {
    players: Vec<(Uuid, String)>,
    bots: Vec<tokio::task::JoinHandle<Seen>>,
}

async fn field(addr: &Arc<Mutex<String>>, tournament: Uuid, n: usize) -> Field {
    let a = addr.lock().unwrap().clone();
    let mut players = Vec::new();
    let mut bots = Vec::new();
    for i in 0..n {
        let s = create_session(&a, &format!("bot{i}")).await.unwrap();
        players.push((s.player_id, s.token.clone()));
        bots.push(tokio::spawn(bot(addr.clone(), s.token, tournament, 1_000 + i as u64, true)));
    }
    Field { players, bots }
}

/// Checks a finished tournament: places 1..N once each, one winner, prizes adding up to the
/// pool and paid through the ledger, every account where it should be, the totals conserved.
async fn check_finished(server: &Server, addr: &str, id: Uuid, f: &Field, seen: &[Seen]) -> TournamentDetail {
    let d = detail(addr, id).await;
    let n = f.players.len();
    assert_eq!(d.status, TournamentStatus::Finished, "{d:?}");
    let mut places: Vec<u32> = d.results.iter().map(|r| r.place).collect();
    places.sort_unstable();
    assert_eq!(places, (1..=n as u32).collect::<Vec<_>>(), "places 1..{n} exactly once");
    assert_eq!(d.results.iter().filter(|r| r.place == 1).count(), 1, "one winner");
    let paid: u64 = d.results.iter().map(|r| r.prize).sum();
    assert_eq!(d.pool, ENTRY_FEE * n as u64);
    assert_eq!(paid, d.pool, "the prizes add up to the prize pool");
    // Each bot was told its own place and prize; the winner's entry says it won.
    for ((player, _), s) in f.players.iter().zip(seen) {
        let r = d.results.iter().find(|r| r.player_id == *player).unwrap();
        assert_eq!(s.placed, Some((r.place, r.prize)), "{player}");
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        assert!(!s.seats.is_empty());
        assert!(s.snapshots > 0 && !s.levels.is_empty(), "{s:?}");
        assert!(s.levels.iter().all(|l| (1..=d.levels.len() as u32).contains(l)), "{s:?}");
        let entry = d.entrants.iter().find(|e| e.player_id == *player).unwrap();
        let state = if r.place == 1 { EntrantState::Won } else { EntrantState::Out };
        assert_eq!(entry.state, state, "{entry:?}");
    }
    // The lobby line: over, one player left, the level it ended at.
    let (status, text) = http_as(addr, "GET", "/api/tournaments", None, None).await.unwrap();
    assert_eq!(status, 200, "{text}");
    let lobby: Vec<TournamentSummary> = serde_json::from_str(&text).unwrap();
    let line = lobby.iter().find(|t| t.id == id).unwrap();
    assert_eq!(
        (line.status, line.players_left, line.level, line.registration_open, line.entrants),
        (TournamentStatus::Finished, 1, d.level, false, n as u32),
        "{line:?}"
    );
    assert_eq!(d.hands_to_next_level, None, "a finished tournament has no next level");
    assert!(server.app.writer.flush().await);
    for (player, _) in &f.players {
        let prize = d.results.iter().find(|r| r.player_id == *player).unwrap().prize;
        let balance = server.app.store.balance(*player).await.unwrap();
        assert_eq!(balance, START - ENTRY_FEE - HOUSE_FEE + prize, "{player}'s account");
    }
    let t = server.app.store.totals().await.unwrap();
    assert!(t.conserved(), "{t:?}");
    // What the tournament keeps is the house fees: entries = fees + prize pool.
    assert_eq!(t.on_tables, (HOUSE_FEE * n as u64) as i64, "{t:?}");
    d
}

async fn wait_bots(f: &mut Field, within: Duration) -> Vec<Seen> {
    let mut seen = Vec::new();
    for b in f.bots.drain(..) {
        seen.push(tokio::time::timeout(within, b).await.expect("the tournament ended in time").unwrap());
    }
    seen
}

fn body(name: &str, kind: &str, n: usize, seats: u8, hands: u32, extra: &str) -> String {
    format!(
        r#"{{"name": "{name}", "variant": "stud", "kind": "{kind}", "min_entrants": 2, "max_entrants": {n},
            "seats_per_table": {seats}, "entry_fee": {ENTRY_FEE}, "house_fee": {HOUSE_FEE},
            "starting_chips": 1000, "levels": {}{extra}}}"#,
        levels(hands)
    )
}

async fn sit_and_go(n: usize) {
    let (server, a) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let addr = Arc::new(Mutex::new(a.clone()));
    let id = create(&a, &body(&format!("SNG {n}"), "sit_and_go", n, n.min(8) as u8, 3, "")).await;
    let mut f = field(&addr, id, n).await;
    let seen = wait_bots(&mut f, Duration::from_secs(240)).await;
    let d = check_finished(&server, &a, id, &f, &seen).await;
    // The last table's task closed (the floor keeps the final table as it ended).
    let last = stud_server::tournament::tables::table_id(id, d.tables[0].table);
    for _ in 0..100 {
        if server.app.lobby.get(last).is_none() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(server.app.lobby.get(last).is_none(), "the last table closed");
    // Tournament tables were never in the cash lobby.
    let lobby = stud_client::tables(&a).await.unwrap();
    assert!(lobby.iter().all(|t| !t.name.starts_with("SNG")), "{lobby:?}");
    server.shutdown().await;
}

#[tokio::test]
async fn a_sit_and_go_of_two_is_played_to_the_end() {
    sit_and_go(2).await;
}

#[tokio::test]
async fn a_sit_and_go_of_six_is_played_to_the_end() {
    sit_and_go(6).await;
}

#[tokio::test]
async fn a_sit_and_go_of_eight_is_played_to_the_end() {
    sit_and_go(8).await;
}

/// The floor's balance after every published state: every table between hands has at most
/// one player more than the smallest table (a table in a hand is balanced when it ends).
fn unbalanced(t: &stud_tournament::Tournament) -> Option<String> {
    let tables = t.floor().tables();
    let min = tables.values().map(|t| t.count()).min()?;
    // TDA: within 1 player with two tables, within 2 with more.
    let spread = t.floor().spread();
    let bad: Vec<_> = tables.iter().filter(|(_, t)| !t.in_hand() && t.count() > min + spread).collect();
    (!bad.is_empty())
        .then(|| format!("{:?}", tables.iter().map(|(n, t)| (n, t.count(), t.in_hand())).collect::<Vec<_>>()))
}

#[tokio::test]
async fn a_scheduled_tournament_of_24_over_four_tables_is_played_to_the_end() {
    let (server, a) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let addr = Arc::new(Mutex::new(a.clone()));
    let start_at = stud_store::now_ms() + 3_000;
    // Six paid places: the bubble (7 left) comes while two tables still play.
    let extra = format!(r#", "start_at": {start_at}, "payouts": [40, 25, 15, 10, 6, 4]"#);
    let body = body("Big 24", "scheduled", 24, 6, 4, &extra).replace(r#""min_entrants": 2"#, r#""min_entrants": 12"#);
    let id = create(&a, &body).await;
    let handle = server.app.tournaments.get(id).unwrap();
    let mut watch = handle.watch();
    let checker = tokio::spawn(async move {
        let (mut states, mut bad, mut max_tables, mut hfh) = (0u64, Vec::new(), 0usize, false);
        let mut bubble = None;
        while watch.changed().await.is_ok() {
            let t = watch.borrow_and_update().clone();
            states += 1;
            max_tables = max_tables.max(t.floor().tables().len());
            hfh |= t.hand_for_hand().is_some();
            if t.live() == 7 && bubble.is_none() {
                bubble = Some(t.floor().tables().len());
            }
            if let Some(b) = unbalanced(&t) {
                bad.push(b);
            }
            if t.status() == stud_tournament::Status::Finished {
                let hfh = hfh || t.hand_for_hand_starts() > 0;
                return (states, bad, max_tables, hfh, t.hand_for_hand_rounds(), bubble);
            }
        }
        (states, bad, max_tables, hfh, 0, bubble)
    });
    let mut f = field(&addr, id, 24).await;
    let seen = wait_bots(&mut f, Duration::from_secs(400)).await;
    let d = check_finished(&server, &a, id, &f, &seen).await;
    let (states, bad, max_tables, hfh, rounds, bubble) = checker.await.unwrap();
    assert!(states > 24, "{states}");
    assert_eq!(max_tables, 4, "24 players at 6 a table");
    assert!(bad.is_empty(), "unbalanced tables between hands: {bad:?}");
    // Moves happened (balancing and breaking) and were announced to the moved players.
    let moves: usize = seen.iter().map(|s| s.seats.iter().filter(|(r, _)| r != "Start").count()).sum();
    assert!(moves > 0, "nobody moved");
    assert!(seen.iter().all(|s| s.seats[0].0 == "Start"));
    // Hand-for-hand was switched on when the bubble came with two or more tables, and its
    // first round (the hands in play when it started among them) completed.
    if bubble.is_some_and(|tables| tables >= 2) {
        assert!(hfh, "hand-for-hand at the bubble ({rounds} rounds)");
        assert!(rounds >= 1, "hand-for-hand on, no round completed");
    }
    assert_eq!(d.results.len(), 24);
    eprintln!("24-player tournament: {states} states, {moves} moves, {rounds} hand-for-hand rounds, bubble {bubble:?}");
    server.shutdown().await;
}

#[tokio::test]
async fn a_tournament_continues_after_a_restart() {
    let (_path, url) = crate::temp_db("tournament-restart");
    continues_after_a_restart(url).await;
}

#[tokio::test]
async fn a_tournament_continues_after_a_restart_on_postgres() {
    if let Some(url) = crate::pg_schema_url("tournament_restart").await {
        continues_after_a_restart(url).await;
    }
}

/// A sit-and-go of 4 on the database at `url`: some hands, a restart, played to the end; then
/// another restart after it finished.
async fn continues_after_a_restart(url: String) {
    let db = url.clone();
    let (server, a) = spawn_app(move |c| {
        c.operator_key = Some(KEY.into());
        c.database_url = db;
    })
    .await;
    let addr = Arc::new(Mutex::new(a.clone()));
    let id = create(&a, &body("Restart SNG", "sit_and_go", 4, 4, 6, "")).await;
    let mut f = field(&addr, id, 4).await;
    // Some hands, then a restart.
    let handle = server.app.tournaments.get(id).unwrap();
    let mut watch = handle.watch();
    loop {
        let hands = watch.borrow_and_update().floor().tables().values().map(|t| t.hands).sum::<u64>();
        if hands >= 3 {
            break;
        }
        tokio::time::timeout(Duration::from_secs(30), watch.changed()).await.unwrap().unwrap();
    }
    let before = server.app.tournaments.get(id).unwrap().now();
    assert_eq!(before.status(), stud_tournament::Status::Running);
    server.shutdown().await;
    let db = url.clone();
    let (server, a2) = spawn_app(move |c| {
        c.operator_key = Some(KEY.into());
        c.database_url = db;
    })
    .await;
    *addr.lock().unwrap() = a2.clone();
    let after = server.app.tournaments.get(id).unwrap().now();
    assert!(after.applied() >= before.applied(), "the tournament resumed from its journal");
    let seen = wait_bots(&mut f, Duration::from_secs(240)).await;
    let d = check_finished(&server, &a2, id, &f, &seen).await;
    assert_eq!(d.results.len(), 4);
    server.shutdown().await;
    // After its prizes were paid the server starts again, the tournament still finished with
    // the same results (a prize larger than a player's own entry once broke the start).
    let db = url.clone();
    let (server, _) = spawn_app(move |c| {
        c.operator_key = Some(KEY.into());
        c.database_url = db;
    })
    .await;
    let again = server.app.tournaments.get(id).unwrap().now();
    assert_eq!(again.status(), stud_tournament::Status::Finished);
    assert_eq!(again.results().len(), d.results.len());
    server.shutdown().await;
}

/// Nobody buys into a tournament table: it is not in the cash lobby, an outsider cannot join
/// or sit there, and a player seated there by the tournament cannot sit again or top up with
/// money; nothing is charged.
#[tokio::test]
async fn tournament_tables_take_no_buy_in() {
    let (server, a) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let id = create(&a, &body("No buy-in", "sit_and_go", 2, 2, 50, "")).await;
    let alice = create_session(&a, "alice").await.unwrap();
    let (mut client, _) = Client::connect(&a, &alice.token).await.unwrap();
    let reg = ClientMsg::TournamentRegister { request_id: Some("r".into()), tournament_id: id, invite_code: None };
    client.send(&reg).await.unwrap();
    let bob = create_session(&a, "bob").await.unwrap();
    let (status, text) =
        http_as(&a, "POST", &format!("/api/tournaments/{id}/entries"), None, Some(&bob.token)).await.unwrap();
    assert!((200..300).contains(&status), "{text}");
    // Alice's socket is told where she sits.
    let table = loop {
        if let ServerMsg::TournamentSeat { table_id, reason, chips, .. } = client.recv(crate::WAIT).await.unwrap() {
            assert_eq!(format!("{reason:?}"), "Start");
            assert_eq!(chips, 1_000);
            break table_id;
        }
    };
    assert!(stud_client::tables(&a).await.unwrap().iter().all(|t| t.id != table), "not in the cash lobby");
    let before = server.app.bank.balance(alice.player_id);
    // Seated there by the tournament: a buy-in or a top-up is refused.
    let sit = ClientMsg::Sit {
        request_id: Some("s".into()),
        table_id: table,
        invite_code: None,
        seat: Some(2),
        buy_in: 1_000,
    };
    client.send(&sit).await.unwrap();
    let top_up = ClientMsg::TopUp { request_id: Some("t".into()), table_id: table, amount: 500 };
    client.send(&top_up).await.unwrap();
    let mut refused = 0;
    while refused < 2 {
        if let ServerMsg::Error { request_id, code, .. } = client.recv(crate::WAIT).await.unwrap() {
            assert!(matches!(request_id.as_deref(), Some("s" | "t")), "{request_id:?}");
            assert_eq!(code, stud_proto::ErrorCode::Forbidden);
            refused += 1;
        }
    }
    // An outsider cannot join or sit.
    let carol = create_session(&a, "carol").await.unwrap();
    let (mut other, _) = Client::connect(&a, &carol.token).await.unwrap();
    let sit = ClientMsg::Sit {
        request_id: Some("c".into()),
        table_id: table,
        invite_code: None,
        seat: Some(2),
        buy_in: 1_000,
    };
    other.send(&sit).await.unwrap();
    loop {
        if let ServerMsg::Error { request_id, code, .. } = other.recv(crate::WAIT).await.unwrap() {
            assert_eq!(request_id.as_deref(), Some("c"));
            assert_eq!(code, stud_proto::ErrorCode::InviteRequired);
            break;
        }
    }
    // Nor does an operator change it from outside its tournament: a cash table's settings, a
    // kick or a close are refused (409), and the table plays on as the tournament's.
    let key = Some(KEY);
    let kick = format!(r#"{{"player_id": "{}"}}"#, alice.player_id);
    for (method, path, body) in [
        ("PATCH", format!("/api/admin/tables/{table}"), Some(r#"{"max_buy_in": 100000}"#)),
        ("POST", format!("/api/admin/tables/{table}/kick"), Some(kick.as_str())),
        ("POST", format!("/api/admin/tables/{table}/close"), None),
    ] {
        let (status, text) = http_as(&a, method, &path, body, key).await.unwrap();
        assert_eq!(status, 409, "{method} {path}: {text}");
    }
    assert!(server.app.lobby.get(table).is_some(), "the tournament's table is still open");
    assert_eq!(server.app.bank.balance(alice.player_id), before, "nothing charged");
    assert_eq!(server.app.bank.balance(carol.player_id), START, "nothing charged");
    assert!(server.app.writer.flush().await);
    assert!(server.app.store.totals().await.unwrap().conserved());
    server.shutdown().await;
}

/// Issue 14: "The hand history of every tournament hand is stored like a cash hand
/// (tournament id and level on the record; PHH and text histories say it is a tournament
/// hand)". Bob registers over HTTP and never opens a socket (the clock folds him; his seat has
/// no session), Ann is a bot. Bob's LAST HAND lists the tournament's hands all the same; every
/// format says they are tournament hands; nobody's money ledger shows them.
#[tokio::test]
async fn tournament_hands_are_marked_in_the_history_and_kept_out_of_the_money_ledger() {
    let (server, a) = spawn_app(|c| {
        c.operator_key = Some(KEY.into());
        c.action_timeout_ms = 300;
        c.disconnect_grace_ms = 300;
    })
    .await;
    let addr = Arc::new(Mutex::new(a.clone()));
    let id = create(&a, &body("History SNG", "sit_and_go", 2, 2, 3, "")).await;
    let bob = create_session(&a, "Bob").await.unwrap();
    let path = format!("/api/tournaments/{id}/entries");
    let (status, text) = http_as(&a, "POST", &path, None, Some(&bob.token)).await.unwrap();
    assert_eq!(status, 201, "{text}");
    let ann = create_session(&a, "Ann").await.unwrap();
    let ann_bot = tokio::spawn(bot(addr.clone(), ann.token.clone(), id, 7, true));
    let seen = tokio::time::timeout(Duration::from_secs(240), ann_bot).await.expect("the tournament ended").unwrap();
    assert!(seen.placed.is_some());
    let d = detail(&a, id).await;
    assert_eq!(d.status, TournamentStatus::Finished);

    // LAST HAND (JSON): Bob's session lists the tournament's hands, each marked with the
    // tournament and its level; the first was dealt at level 1.
    let get = |path: String, token: String| {
        let a = a.clone();
        async move {
            let (status, text) = http_as(&a, "GET", &path, None, Some(&token)).await.unwrap();
            assert_eq!(status, 200, "{path}: {text}");
            text
        }
    };
    let hands = format!("/api/sessions/{}/hands", bob.session_id);
    let reports: Vec<stud_proto::LastHandReport> =
        serde_json::from_str(&get(hands.clone(), bob.token.clone()).await).unwrap();
    assert!(reports.len() >= 2, "Bob's tournament hands are in his LAST HAND: {}", reports.len());
    for r in &reports {
        let t = r.summary.tournament.unwrap_or_else(|| panic!("{:?}", r.summary));
        assert_eq!(t.tournament_id, id);
        assert!(t.level >= 1);
    }
    assert_eq!(reports.last().unwrap().summary.tournament.unwrap().level, 1);
    // Bob's seats really had no session (he never connected).
    let stored = server.app.store.hand(reports[0].summary.hand_id).await.unwrap().unwrap();
    assert_eq!(stored.seat_of(bob.player_id).unwrap().session_id, Uuid::nil());
    assert_eq!(stored.tournament.map(|t| t.id), Some(id));
    // PHH: phh-std's `event` and `level`, and our `_tournament`; every hand of the document.
    let phh = get(format!("{hands}?format=phh"), bob.token.clone()).await;
    assert_eq!(phh.matches("event = \"History SNG\"").count(), reports.len(), "{phh}");
    assert_eq!(phh.matches(&format!("_tournament = \"{id}\"")).count(), reports.len(), "{phh}");
    assert!(phh.contains("\nlevel = 1\n"), "{phh}");
    // Text: PokerStars' tournament header.
    let text = get(format!("{hands}?format=text"), bob.token.clone()).await;
    let headers: Vec<&str> = text.lines().filter(|l| l.starts_with("PokerStars Hand #")).collect();
    assert_eq!(headers.len(), reports.len());
    assert!(headers.iter().all(|h| h.contains(&format!(": Tournament #{id}, 7 Card Stud Limit - Level "))), "{text}");
    // The operator's JSON says so too.
    let (status, one) =
        http_as(&a, "GET", &format!("/api/hands/{}", reports[0].summary.hand_id), None, Some(KEY)).await.unwrap();
    assert_eq!(status, 200, "{one}");
    let one: stud_proto::HandDetail = serde_json::from_str(&one).unwrap();
    assert_eq!(one.tournament.map(|t| t.tournament_id), Some(id));

    // The money ledger: the entry fee (and Ann's prize), no `hand` line in tournament chips.
    for (s, token) in [(&bob, &bob.token), (&ann, &ann.token)] {
        let page: stud_proto::LedgerPage =
            serde_json::from_str(&get(format!("/api/sessions/{}/ledger", s.session_id), token.clone()).await).unwrap();
        let kinds: Vec<String> = page.entries.iter().map(|l| format!("{:?}", l.kind)).collect();
        assert!(!kinds.iter().any(|k| k == "Hand"), "{kinds:?}");
        assert!(kinds.iter().any(|k| k == "TournamentEntry"), "{kinds:?}");
    }
    let t = server.app.store.totals().await.unwrap();
    assert!(t.conserved(), "{t:?}");
    server.shutdown().await;
}
