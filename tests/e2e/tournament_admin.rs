//! Operators' tournament routes (issue 30 items 8 and 9: list every tournament, pause, resume,
//! rename, a new invite code), a private tournament hidden from strangers (issue 31), and the
//! house sit-and-go a first start opens (issue 31 item 14), through the real server.

use std::time::Duration;

use stud_client::{Client, create_session, http_as};
use stud_proto::{ServerMsg, TournamentDetail, TournamentStatus};
use stud_server::tournament::actor::HOUSE_SIT_AND_GO;
use uuid::Uuid;

use crate::spawn_app;
use crate::tournament_play::{KEY, create, detail};

async fn ids(addr: &str, path: &str, bearer: Option<&str>) -> Vec<Uuid> {
    let (status, text) = http_as(addr, "GET", path, None, bearer).await.unwrap();
    assert_eq!(status, 200, "{text}");
    let rows: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    rows.iter().filter_map(|r| r["id"].as_str().and_then(|s| s.parse().ok())).collect()
}

async fn call(addr: &str, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    http_as(addr, method, path, body, Some(KEY)).await.unwrap()
}

/// Minutes levels: a pause must stop a clock that runs.
const LEVELS: &str = r#"[{"ante": 5, "bring_in": 10, "small_bet": 20, "big_bet": 40, "minutes": 10},
                         {"ante": 10, "bring_in": 20, "small_bet": 40, "big_bet": 80, "minutes": 10}]"#;

#[tokio::test]
async fn operators_pause_rename_and_recode_a_tournament_that_strangers_do_not_see() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let body = format!(
        r#"{{"name": "Club night", "variant": "stud", "kind": "sit_and_go", "min_entrants": 2, "max_entrants": 2,
            "seats_per_table": 8, "entry_fee": 1000, "house_fee": 100, "starting_chips": 1500,
            "invite_code": "CLUBCODE2026", "levels": {LEVELS}}}"#
    );
    let id = create(&addr, &body).await;
    let public = create(&addr, &body.replace(r#""invite_code": "CLUBCODE2026","#, "")).await;
    let (a, b) = (create_session(&addr, "Ann").await.unwrap(), create_session(&addr, "Bob").await.unwrap());

    // A stranger's lobby has the public one only; operators see both.
    assert_eq!(ids(&addr, "/api/tournaments", None).await, [public]);
    assert_eq!(ids(&addr, "/api/tournaments", Some(&b.token)).await, [public]);
    assert_eq!(ids(&addr, "/api/admin/tournaments", Some(KEY)).await, [id, public]);
    let (status, _) = http_as(&addr, "GET", "/api/admin/tournaments", None, Some(&a.token)).await.unwrap();
    assert_eq!(status, 401, "a player's token is no operator key");
    // Registered with the code, Ann sees it in her lobby; Bob still does not.
    let register = |token: String, code: &'static str| {
        let addr = addr.clone();
        async move {
            let path = format!("/api/tournaments/{id}/entries?invite_code={code}");
            http_as(&addr, "POST", &path, None, Some(&token)).await.unwrap()
        }
    };
    assert_eq!(register(a.token.clone(), "CLUBCODE2026").await.0, 201);
    assert_eq!(ids(&addr, "/api/tournaments", Some(&a.token)).await, [id, public]);
    assert_eq!(ids(&addr, "/api/tournaments", Some(&b.token)).await, [public]);

    // A new code: the old one stops working, the new one is what the operator reads back.
    let (status, text) = call(&addr, "POST", &format!("/api/admin/tournaments/{id}/invite"), None).await;
    assert_eq!(status, 200, "{text}");
    let code: stud_proto::InviteCode = serde_json::from_str(&text).unwrap();
    let code = code.invite_code.expect("a new code");
    assert_ne!(code, "CLUBCODE2026");
    let (status, text) = call(&addr, "GET", &format!("/api/admin/tournaments/{id}/invite"), None).await;
    assert_eq!(
        (status, serde_json::from_str::<stud_proto::InviteCode>(&text).unwrap().invite_code),
        (200, Some(code.clone()))
    );
    let (status, text) = register(b.token.clone(), "CLUBCODE2026").await;
    assert_eq!(status, 409, "{text}");
    let (status, text) = call(&addr, "POST", &format!("/api/admin/tournaments/{public}/invite"), None).await;
    assert_eq!(status, 409, "a public tournament has no code: {text}");
    assert!(text.contains("not_private"), "{text}");

    // Renamed; a bad name is refused naming the field and changes nothing.
    let path = format!("/api/admin/tournaments/{id}");
    let (status, text) = call(&addr, "PATCH", &path, Some(r#"{"name": "Club night (final)"}"#)).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(serde_json::from_str::<TournamentDetail>(&text).unwrap().name, "Club night (final)");
    let (status, text) = call(&addr, "PATCH", &path, Some(r#"{"name": "   "}"#)).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("name"), "{text}");
    let (status, text) = call(&addr, "PATCH", &path, Some(r#"{"seats": 3}"#)).await;
    assert_eq!(status, 400, "an unknown field: {text}");
    // Not an object (serde alone would read a struct from an array of its fields).
    let (status, text) = call(&addr, "PATCH", &path, Some("[null, null]")).await;
    assert_eq!(status, 400, "an array: {text}");
    assert!(text.contains("must be an object"), "{text}");
    assert_eq!(detail(&addr, id).await.name, "Club night (final)");
    // A single game has no rotation to change: 400 naming the field.
    let (status, text) = call(&addr, "PATCH", &path, Some(r#"{"rotation_hands": 4}"#)).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("rotation_hands: only a rotation changes games"), "{text}");

    // Not running yet: nothing to pause.
    let (status, text) = call(&addr, "POST", &format!("/api/admin/tournaments/{id}/pause"), None).await;
    assert_eq!(status, 409, "{text}");
    assert!(text.contains("not_running"), "{text}");

    // Ann watches on a socket; Bob's registration with the new code fills and starts it.
    let (mut ann, _) = Client::connect(&addr, &a.token).await.unwrap();
    let path = format!("/api/tournaments/{id}/entries?invite_code={code}");
    let (status, text) = http_as(&addr, "POST", &path, None, Some(&b.token)).await.unwrap();
    assert_eq!(status, 201, "{text}");
    let mut d = detail(&addr, id).await;
    for _ in 0..50 {
        if d.status == TournamentStatus::Running {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        d = detail(&addr, id).await;
    }
    assert_eq!(d.status, TournamentStatus::Running);
    let level_ends = d.next_level_at.expect("a minutes level has an end");

    let (status, text) = call(&addr, "POST", &format!("/api/admin/tournaments/{id}/pause"), None).await;
    assert_eq!(status, 200, "{text}");
    let paused: TournamentDetail = serde_json::from_str(&text).unwrap();
    let since = paused.paused_since.expect("the detail says since when");
    let (status, text) = call(&addr, "POST", &format!("/api/admin/tournaments/{id}/pause"), None).await;
    assert_eq!(status, 409, "paused twice: {text}");
    assert!(text.contains("paused"), "{text}");
    // Ann is told, on her socket.
    let mut told = false;
    for _ in 0..200 {
        match ann.recv(Duration::from_secs(5)).await.unwrap() {
            ServerMsg::TournamentPaused { tournament_id, paused } if tournament_id == id => {
                assert!(paused);
                told = true;
                break;
            }
            _ => {}
        }
    }
    assert!(told, "tournament_paused reached the entrant");
    tokio::time::sleep(Duration::from_millis(600)).await;
    // The level clock stands while paused: what was left when it stopped, however late asked.
    let still = detail(&addr, id).await;
    assert_eq!(still.ms_to_next_level, Some(level_ends - since), "the clock ran while paused");
    let (status, text) = call(&addr, "POST", &format!("/api/admin/tournaments/{id}/resume"), None).await;
    assert_eq!(status, 200, "{text}");
    let resumed: TournamentDetail = serde_json::from_str(&text).unwrap();
    assert_eq!(resumed.paused_since, None);
    // The level's end moved on by the pause, no less.
    let moved = resumed.next_level_at.expect("still a minutes level");
    assert!(
        moved >= level_ends + 600 && moved >= level_ends + (stud_store::now_ms() - since) - 200,
        "{level_ends} -> {moved}"
    );
    let (status, text) = call(&addr, "POST", &format!("/api/admin/tournaments/{id}/resume"), None).await;
    assert_eq!(status, 409, "{text}");
    assert!(text.contains("not_paused"), "{text}");

    // Every one of these is in the audit log.
    let (status, text) = call(&addr, "GET", "/api/admin/log?limit=50", None).await;
    assert_eq!(status, 200, "{text}");
    for action in [
        "rotate_tournament_invite",
        "read_tournament_invite",
        "update_tournament",
        "pause_tournament",
        "resume_tournament",
    ] {
        assert!(text.contains(action), "{action} not in the log: {text}");
    }
    ann.close().await;
    server.shutdown().await;
}

/// A first start opens the house sit-and-go (issue 31 item 14); it opens again as it starts;
/// an operator who cancels the open one ends the series, and a restart does not bring it back.
#[tokio::test]
async fn the_house_sit_and_go_opens_at_the_first_start_recurs_and_an_operator_ends_it() {
    let (path, url) = crate::temp_db("house");
    let config = |url: String| {
        move |c: &mut stud_server::Config| {
            c.database_url = url;
            c.operator_key = Some(KEY.into());
            c.house_sit_and_go = true;
        }
    };
    let (server, addr) = spawn_app(config(url.clone())).await;
    assert_eq!(ids(&addr, "/api/tournaments", None).await, [HOUSE_SIT_AND_GO]);
    let d = detail(&addr, HOUSE_SIT_AND_GO).await;
    assert_eq!((d.status, d.recurring, d.name.as_str()), (TournamentStatus::Registering, true, "Stud Sit & Go"));
    // Six players fill it: it starts, and the same sit-and-go opens.
    for i in 0..6 {
        let s = create_session(&addr, &format!("house{i}")).await.unwrap();
        let path = format!("/api/tournaments/{HOUSE_SIT_AND_GO}/entries");
        let (status, text) = http_as(&addr, "POST", &path, None, Some(&s.token)).await.unwrap();
        assert_eq!(status, 201, "{text}");
    }
    let mut next = None;
    for _ in 0..50 {
        next = detail(&addr, HOUSE_SIT_AND_GO).await.next_id;
        if next.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let next = next.expect("the next house sit-and-go opened");
    let n = detail(&addr, next).await;
    assert_eq!((n.status, n.recurring, n.name.as_str()), (TournamentStatus::Registering, true, "Stud Sit & Go"));
    assert_eq!(n.entrants.len(), 0);
    // The operator cancels the open one: no other opens, now or after a restart.
    let (status, text) = call(&addr, "POST", &format!("/api/admin/tournaments/{next}/cancel"), Some("{}")).await;
    assert_eq!(status, 200, "{text}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(detail(&addr, next).await.next_id, None);
    server.shutdown().await;
    let (server, addr) = spawn_app(config(url.clone())).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let all = ids(&addr, "/api/admin/tournaments", Some(KEY)).await;
    assert_eq!(all, [HOUSE_SIT_AND_GO, next], "neither the series nor the house sit-and-go starts again");
    server.shutdown().await;
    let _ = std::fs::remove_file(&path);

    // Turned off, a first start opens none.
    let (server, addr) = spawn_app(|c| c.house_sit_and_go = false).await;
    assert!(ids(&addr, "/api/tournaments", None).await.is_empty());
    server.shutdown().await;
}

/// What a deal bot saw: the deal frames and its place.
#[derive(Debug, Default)]
struct DealSeen {
    deals: Vec<stud_proto::TournamentDeal>,
    placed: Option<(u32, u64)>,
    errors: Vec<String>,
}

/// A bot at a deal: it plays passively, the first one proposes `method` at once, and each
/// accepts the open deal whenever it is told of it (again after a refusal: the hand in play
/// must end first) until the deal is made.
async fn dealer(addr: String, token: String, tournament: Uuid, propose: Option<stud_proto::DealMethod>) -> DealSeen {
    use stud_proto::{ClientMsg, DealState, ErrorCode};
    let mut s = DealSeen::default();
    let mut c = Client::connect(&addr, &token).await.unwrap().0;
    let reg = ClientMsg::TournamentRegister { request_id: None, tournament_id: tournament, invite_code: None };
    c.send(&reg).await.unwrap();
    let mut proposed = false;
    loop {
        let wait = if s.placed.is_some() { Duration::from_millis(500) } else { Duration::from_secs(60) };
        let Ok(msg) = c.recv(wait).await else {
            assert!(s.placed.is_some(), "the server stopped answering");
            return s;
        };
        let accept =
            ClientMsg::TournamentDealAnswer { request_id: Some("a".into()), tournament_id: tournament, accept: true };
        match msg {
            ServerMsg::TournamentSeat { table_id, .. } => {
                c.send(&ClientMsg::JoinTable { request_id: None, table_id, invite_code: None }).await.unwrap();
                if let (Some(method), false) = (propose, proposed) {
                    proposed = true;
                    let msg = ClientMsg::TournamentDealPropose {
                        request_id: Some("p".into()),
                        tournament_id: tournament,
                        method,
                        leave: 0,
                    };
                    c.send(&msg).await.unwrap();
                }
            }
            ServerMsg::YourTurn { table_id, hand_id, seq, legal, .. } => {
                let action = crate::passive(&legal);
                let idempotency_key = format!("{hand_id}-{seq}");
                let act = ClientMsg::Act { request_id: None, table_id, hand_id, seq, idempotency_key, action };
                let _ = c.send(&act).await;
            }
            // Only the players of a deal are told of it.
            ServerMsg::TournamentDeal { deal, .. } => {
                let open = deal.state == DealState::Proposed;
                s.deals.push(deal);
                if open {
                    c.send(&accept).await.unwrap();
                }
            }
            ServerMsg::HandResult { .. } if s.deals.last().is_some_and(|d| d.state == DealState::Proposed) => {
                c.send(&accept).await.unwrap();
            }
            ServerMsg::TournamentPlaced { tournament_id, place, prize, .. } if tournament_id == tournament => {
                s.placed = Some((place, prize));
            }
            ServerMsg::Error { code, message, .. } if code != ErrorCode::Stale && code != ErrorCode::NotNow => {
                s.errors.push(format!("{code:?}: {message}"));
            }
            _ => {}
        }
    }
}

/// Issue 30 item 5, through the real server: three players at a sit-and-go's final table make
/// an ICM deal over their sockets; each is paid the figure they were shown (ledger kind
/// `tournament_deal`), the tournament ends with the places by chips, the results record each
/// share, and prizes plus deals are the pool.
#[tokio::test]
async fn three_players_make_an_icm_deal_over_their_sockets() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let body = format!(
        r#"{{"name": "Deal SNG", "variant": "stud", "kind": "sit_and_go", "min_entrants": 3, "max_entrants": 3,
            "seats_per_table": 8, "entry_fee": 1000, "house_fee": 100, "starting_chips": 1500,
            "payouts": [50, 30, 20], "levels": {LEVELS}}}"#
    );
    let id = create(&addr, &body).await;
    assert!(detail(&addr, id).await.deals, "deals are on by default");
    let mut bots = Vec::new();
    let mut players = Vec::new();
    for i in 0..3u64 {
        let s = create_session(&addr, &format!("dealer{i}")).await.unwrap();
        players.push(s.player_id);
        let propose = (i == 0).then_some(stud_proto::DealMethod::Icm);
        bots.push(tokio::spawn(dealer(addr.clone(), s.token, id, propose)));
    }
    let mut seen = Vec::new();
    for b in bots {
        seen.push(tokio::time::timeout(Duration::from_secs(120), b).await.expect("the deal was made").unwrap());
    }
    let d = detail(&addr, id).await;
    assert_eq!(d.status, TournamentStatus::Finished, "{d:?}");
    let deal = d.deal.clone().expect("the detail shows the deal");
    assert_eq!(
        (deal.state, deal.method, deal.leave, deal.shared),
        (stud_proto::DealState::Made, stud_proto::DealMethod::Icm, 0, 3_000)
    );
    // What each was shown when the last one accepted is what each was paid.
    for s in &seen {
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        let shown =
            s.deals.iter().rev().find(|d| d.state == stud_proto::DealState::Proposed).expect("shown the figures");
        let made = s.deals.last().expect("told it was made");
        assert_eq!(made.state, stud_proto::DealState::Made);
        for p in &made.players {
            let figure = shown.players.iter().find(|q| q.player_id == p.player_id).unwrap();
            assert_eq!(p.paid, Some(figure.icm), "{shown:?} {made:?}");
        }
    }
    let total: u64 = d.results.iter().map(|r| r.prize + r.deal).sum();
    assert_eq!(total, d.pool);
    assert_eq!(d.results.iter().map(|r| r.deal).sum::<u64>(), 3_000);
    assert!(server.app.writer.flush().await);
    for r in &d.results {
        let q = stud_store::LedgerQuery {
            player: Some(r.player_id),
            table: Some(id),
            since_ms: None,
            before: None,
            limit: 10,
        };
        let lines = server.app.store.ledger(&q).await.unwrap();
        let dealt: i64 = lines.iter().filter(|l| l.kind == "tournament_deal").map(|l| l.balance_delta).sum();
        assert_eq!(dealt, r.deal as i64, "{lines:?}");
        assert_eq!(
            server.app.store.balance(r.player_id).await.unwrap(),
            crate::tournament_play::START - 1_100 + r.deal
        );
    }
    let t = server.app.store.totals().await.unwrap();
    assert!(t.conserved(), "{t:?}");
    server.shutdown().await;
}

/// Issue 30 item 8: an operator changes a rotation tournament's games and hands per game:
/// before the start at once; while running the detail shows the change pending (it takes over
/// at the next level, see the core's test); a list a level cannot play is a 400 naming the
/// field and changes nothing.
#[tokio::test]
async fn operators_change_a_rotation_before_and_during_a_tournament() {
    use stud_engine::Variant;
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let body = format!(
        r#"{{"name": "Mixed night", "variant": "rotation", "kind": "sit_and_go", "min_entrants": 2, "max_entrants": 2,
            "seats_per_table": 8, "entry_fee": 1000, "house_fee": 100, "starting_chips": 1500, "levels": {LEVELS}}}"#
    );
    let id = create(&addr, &body).await;
    let path = format!("/api/admin/tournaments/{id}");
    let (status, text) =
        call(&addr, "PATCH", &path, Some(r#"{"rotation_games": [{"variant": "stud8"}, {"variant": "razz"}]}"#)).await;
    assert_eq!(status, 200, "{text}");
    let d: TournamentDetail = serde_json::from_str(&text).unwrap();
    let games: Vec<Variant> = d.rotation_games.unwrap().iter().map(|g| g.variant).collect();
    assert_eq!((games, d.rotation_hands, d.rotation_pending), (vec![Variant::Stud8, Variant::Razz], None, None));
    assert_eq!(d.game, Variant::Stud8, "the first level plays the new list's first game");
    // A structure that does not exist, and an empty list: 400s naming the field.
    let bad = r#"{"rotation_games": [{"variant": "stud", "betting": "spread"}]}"#;
    let (status, text) = call(&addr, "PATCH", &path, Some(bad)).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("rotation_games[0].betting"), "{text}");
    let (status, text) = call(&addr, "PATCH", &path, Some(r#"{"rotation_games": []}"#)).await;
    assert_eq!(status, 400, "{text}");
    // Two players start it; a change now waits for the next level.
    for name in ["Ann", "Bob"] {
        let s = create_session(&addr, name).await.unwrap();
        let (status, text) =
            http_as(&addr, "POST", &format!("/api/tournaments/{id}/entries"), None, Some(&s.token)).await.unwrap();
        assert_eq!(status, 201, "{text}");
    }
    let started = async {
        loop {
            if detail(&addr, id).await.status == TournamentStatus::Running {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), started).await.expect("started");
    let (status, text) = call(&addr, "PATCH", &path, Some(r#"{"rotation_hands": 3, "name": "Mixed night (3)"}"#)).await;
    assert_eq!(status, 200, "{text}");
    let d: TournamentDetail = serde_json::from_str(&text).unwrap();
    assert_eq!((d.name.as_str(), d.rotation_hands, d.game), ("Mixed night (3)", None, Variant::Stud8));
    let pending = d.rotation_pending.expect("pending until the next level");
    assert_eq!(pending.rotation_hands, Some(3));
    assert_eq!(pending.rotation_games.iter().map(|g| g.variant).collect::<Vec<_>>(), [Variant::Stud8, Variant::Razz]);
    server.shutdown().await;
}
