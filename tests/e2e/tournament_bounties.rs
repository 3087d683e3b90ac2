//! Bounties (issue 30 item 3) played by real WebSocket bots: a progressive knockout
//! sit-and-go of four with 100-chip stacks. Checked: every head is paid once (the bounties add
//! up to `bounty` x entries, the winner's own head included), each player is told of every
//! bounty they are paid and of their own elimination (`tournament_bounty`), what each was told
//! is what the results say, the ledger has a `tournament_bounty` line for each payment, and
//! every account is its buy-in, prize and bounties; the totals are conserved.

use std::collections::BTreeMap;
use std::time::Duration;

use stud_client::{Client, create_session};
use stud_engine::bot::Bot;
use stud_proto::{ClientMsg, ServerMsg, TournamentStatus};
use stud_store::LedgerQuery;
use uuid::Uuid;

use crate::spawn_app;
use crate::tournament_play::{KEY, START, create, detail, levels};

const ENTRY: u64 = 1_000;
const HOUSE: u64 = 100;
const BOUNTY: u64 = 500;

/// What one bot saw.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    pub(crate) me: Uuid,
    /// `tournament_bounty` frames: (paid, eliminated, cents, head)
    bounties: Vec<(Uuid, Uuid, u64, u64)>,
    pub(crate) placed: Option<(u32, u64)>,
    /// a satellite's ticket, with the place
    pub(crate) ticket_for: Option<Uuid>,
    pub(crate) errors: Vec<String>,
}

pub(crate) async fn hunter(addr: String, token: String, me: Uuid, tournament: Uuid, seed: u64) -> Seen {
    let mut s = Seen { me, ..Seen::default() };
    let mut rng = Bot::new(seed);
    let mut c = Client::connect(&addr, &token).await.unwrap().0;
    let reg = ClientMsg::TournamentRegister { request_id: None, tournament_id: tournament, invite_code: None };
    c.send(&reg).await.unwrap();
    loop {
        // After its place, a bot listens a little longer: the bounty of the hand that placed
        // it may come after `tournament_placed`.
        let wait = if s.placed.is_some() { Duration::from_millis(1_500) } else { Duration::from_secs(60) };
        let Ok(msg) = c.recv(wait).await else {
            assert!(s.placed.is_some(), "the server stopped answering");
            return s;
        };
        match msg {
            ServerMsg::TournamentSeat { table_id, .. } => {
                c.send(&ClientMsg::JoinTable { request_id: None, table_id, invite_code: None }).await.unwrap();
            }
            ServerMsg::YourTurn { table_id, hand_id, seq, legal, .. } => {
                let action = rng.choose(&legal);
                let idempotency_key = format!("{hand_id}-{seq}");
                let act = ClientMsg::Act { request_id: None, table_id, hand_id, seq, idempotency_key, action };
                let _ = c.send(&act).await;
            }
            ServerMsg::TournamentBounty { tournament_id, player_id, eliminated, cents, head, .. } => {
                assert_eq!(tournament_id, tournament);
                s.bounties.push((player_id, eliminated, cents, head));
            }
            ServerMsg::TournamentPlaced { tournament_id, place, prize, ticket_for } if tournament_id == tournament => {
                s.placed = Some((place, prize));
                s.ticket_for = ticket_for;
            }
            ServerMsg::Error { code, message, .. } if code != stud_proto::ErrorCode::Stale => {
                s.errors.push(format!("{code:?}: {message}"));
            }
            _ => {}
        }
    }
}

#[tokio::test]
async fn every_head_is_paid_once_told_to_the_table_and_in_the_ledger() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let body = format!(
        r#"{{"name": "PKO SNG", "variant": "stud", "kind": "sit_and_go", "min_entrants": 4, "max_entrants": 4,
            "seats_per_table": 8, "entry_fee": {ENTRY}, "house_fee": {HOUSE}, "starting_chips": 100,
            "levels": {}, "bounty": {BOUNTY}, "progressive_bounty": true}}"#,
        levels(2)
    );
    let id = create(&addr, &body).await;
    let d = detail(&addr, id).await;
    assert_eq!((d.bounty, d.progressive_bounty, d.bounties_paid), (Some(BOUNTY), true, 0));
    let (_, lobby) = stud_client::http(&addr, "GET", "/api/tournaments", None).await.unwrap();
    let lobby: Vec<stud_proto::TournamentSummary> = serde_json::from_str(&lobby).unwrap();
    assert_eq!(lobby.iter().find(|t| t.id == id).and_then(|t| t.bounty), Some(BOUNTY), "the lobby says it");

    let mut bots = Vec::new();
    for i in 0..4u64 {
        let s = create_session(&addr, &format!("hunter{i}")).await.unwrap();
        bots.push(tokio::spawn(hunter(addr.clone(), s.token, s.player_id, id, 90 + i)));
    }
    let mut seen = Vec::new();
    for b in bots {
        seen.push(tokio::time::timeout(Duration::from_secs(300), b).await.expect("the tournament ended").unwrap());
    }
    let d = detail(&addr, id).await;
    assert_eq!(d.status, TournamentStatus::Finished, "{d:?}");
    assert_eq!(d.bounties_paid, 4 * BOUNTY, "every head once: {d:?}");
    assert_eq!(d.results.iter().map(|r| r.bounties_won).sum::<u64>(), 4 * BOUNTY);
    assert!(d.entrants.iter().all(|e| e.bounty == Some(0)), "no head left on: {:?}", d.entrants);
    assert!(server.app.writer.flush().await);
    let mut ledger_bounties = 0;
    for s in &seen {
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        let result = d.results.iter().find(|r| r.player_id == s.me).unwrap();
        // Told of every bounty paid to them, and of their own head's payment.
        let told: u64 = s.bounties.iter().filter(|b| b.0 == s.me).map(|b| b.2).sum();
        assert_eq!(told, result.bounties_won, "{s:?}");
        assert!(s.bounties.iter().any(|b| b.1 == s.me), "never told where their head went: {s:?}");
        let balance = server.app.store.balance(s.me).await.unwrap();
        assert_eq!(balance, START - ENTRY - HOUSE - BOUNTY + result.prize + result.bounties_won, "{s:?}");
        let q = LedgerQuery { player: Some(s.me), table: Some(id), since_ms: None, before: None, limit: 100 };
        let lines = server.app.store.ledger(&q).await.unwrap();
        let by_kind: BTreeMap<&str, i64> = lines.iter().fold(BTreeMap::new(), |mut m, l| {
            *m.entry(l.kind.as_str()).or_default() += l.balance_delta;
            m
        });
        assert_eq!(by_kind.get("tournament_bounty").copied().unwrap_or(0), result.bounties_won as i64, "{lines:?}");
        ledger_bounties += by_kind.get("tournament_bounty").copied().unwrap_or(0);
    }
    assert_eq!(ledger_bounties, (4 * BOUNTY) as i64);
    // The winner was paid their own head, and the bounties they took built it (progressive).
    let winner = d.results.iter().find(|r| r.place == 1).unwrap();
    assert!(winner.bounties_won >= BOUNTY, "{d:?}");
    let t = server.app.store.totals().await.unwrap();
    assert!(t.conserved(), "{t:?}");
    assert_eq!(t.on_tables, (HOUSE * 4) as i64, "what the tournament keeps is the house fees: {t:?}");
    server.shutdown().await;
}
