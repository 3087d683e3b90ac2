//! End to end: the real server on port 0, real WebSocket clients (`stud-client`), short
//! timers set in the test config (no paused time with real sockets).
//!
//! Every frame any client receives is audited: no frame may show a seat another seat's down
//! card before it is shown.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a failed unwrap is a failed test

mod bad_input;
mod big_bet;
mod chat;
mod document;
mod fuzz;
mod games;
mod history;
mod hygiene;
mod identity;
mod journal;
mod ledger;
mod operators;
mod play;
mod protocol;
mod sessions;
mod slowloris;
mod tournament_admin;
mod tournament_bounties;
mod tournament_play;
mod tournament_rebuys;
mod tournament_series;
mod tournaments;
mod view;
mod waitlist;
mod web;

use std::time::Duration;

use stud_client::{Client, create_session, tables};
use stud_engine::{Action, Event, Seat, Variant, Viewer};
use stud_proto::{ClientMsg, ServerMsg, TableSummary};
use stud_server::{Config, Server};

pub const WAIT: Duration = Duration::from_secs(15);

/// A server on a free port with fast timers.
pub async fn spawn_app(tweak: impl FnOnce(&mut Config)) -> (Server, String) {
    let mut config = Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        hand_pause_ms: 20,
        showdown_pause_ms: 20,
        action_timeout_ms: 3_000,
        time_bank_ms: 0,
        disconnect_grace_ms: 3_000,
        database_url: "sqlite::memory:".into(),
        // The tests' bots act the moment they are prompted, faster than a person's 20
        // messages a second; the tests of that limit set it.
        messages_per_second: 0,
        // The tests that want the house sit-and-go ask for it (tournament_admin.rs).
        house_sit_and_go: false,
        ..Config::default()
    };
    tweak(&mut config);
    let server = stud_server::start(config).await.unwrap();
    let addr = server.addr.to_string();
    (server, addr)
}

pub async fn table_of(addr: &str, variant: Variant) -> TableSummary {
    tables(addr).await.unwrap().into_iter().find(|t| t.variant == variant).unwrap()
}

/// The passive choice among `legal`: check, call, bring in, or show; else the first legal.
pub fn passive(legal: &[Action]) -> Action {
    [Action::Check, Action::Call, Action::BringIn, Action::Show]
        .into_iter()
        .find(|a| legal.contains(a))
        .unwrap_or(legal[0])
}

/// A connected player and the audit of everything it received.
pub struct Player {
    pub client: Client,
    pub token: String,
    pub session_id: uuid::Uuid,
    pub player_id: uuid::Uuid,
    pub seat: Option<u8>,
    pub frames: u64,
    pub leaks: Vec<String>,
    pub last_seq: u64,
}

impl Player {
    pub async fn new(addr: &str, name: &str) -> Player {
        let session = create_session(addr, name).await.unwrap();
        let (client, _) = Client::connect(addr, &session.token).await.unwrap();
        Player {
            client,
            token: session.token,
            session_id: session.session_id,
            player_id: session.player_id,
            seat: None,
            frames: 0,
            leaks: Vec::new(),
            last_seq: 0,
        }
    }

    /// The next message, audited.
    pub async fn recv(&mut self) -> ServerMsg {
        let msg = self.client.recv(WAIT).await.unwrap();
        self.audit(&msg);
        msg
    }

    pub fn audit(&mut self, msg: &ServerMsg) {
        self.frames += 1;
        let me = self.seat.and_then(Seat::new);
        match msg {
            ServerMsg::Event { event: Event::Dealt { seat, card: Some(card), up: false, .. }, .. }
                if Some(*seat) != me =>
            {
                self.leaks.push(format!("seat {:?} saw {card} dealt down to seat {seat}", self.seat));
            }
            // Another seat's declaration before the reveal (RULES.md 12.2), or anything else
            // the engine says this viewer may not see.
            ServerMsg::Event { event, .. } if event.leaks_to(me.map_or(Viewer::Observer, Viewer::Seat)) => {
                self.leaks.push(format!("seat {:?} saw {event:?}", self.seat));
            }
            ServerMsg::Snapshot { table, .. } => {
                if let Some(hand) = &table.hand {
                    for (seat, card) in hand.view.visible_down_cards_of_others() {
                        self.leaks.push(format!("snapshot for {:?} shows {card} of seat {seat}", self.seat));
                    }
                    // The hand so far, as this viewer may see it.
                    let viewer = hand.view.viewer.map_or(Viewer::Observer, Viewer::Seat);
                    for e in hand.events.iter().filter(|e| e.leaks_to(viewer)) {
                        self.leaks.push(format!("snapshot events for {:?} show {e:?}", self.seat));
                    }
                }
            }
            _ => {}
        }
    }

    /// Waits for a message matching `pred`, auditing everything on the way.
    pub async fn until(&mut self, mut pred: impl FnMut(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let msg = self.recv().await;
            if pred(&msg) {
                return msg;
            }
        }
    }

    pub async fn send(&mut self, msg: ClientMsg) {
        self.client.send(&msg).await.unwrap();
    }

    /// Sits at `table` (seat `seat`) and waits for the ack.
    pub async fn sit(&mut self, table: &TableSummary, seat: u8) {
        self.send(ClientMsg::Sit {
            request_id: Some(format!("sit{seat}")),
            table_id: table.id,
            invite_code: None,
            seat: Some(seat),
            buy_in: table.max_buy_in,
        })
        .await;
        let ack = self.until(|m| matches!(m, ServerMsg::Ack { .. } | ServerMsg::Error { .. })).await;
        assert!(matches!(ack, ServerMsg::Ack { .. }), "sit refused: {ack:?}");
        self.seat = Some(seat);
    }
}

/// The settings of a small 4-seat Stud table (ante 10, bring-in 15, bets 40/80, buy-in 800 to
/// 8,000, 3 s clock): public, cash display, chat as the table's default. Tests change what
/// they are about with `TableSettings { private: true, ..stud_table_settings("Name") }`.
pub fn stud_table_settings(name: &str) -> stud_proto::TableSettings {
    stud_proto::TableSettings {
        name: name.into(),
        variant: stud_engine::Variant::Stud,
        ante: 10,
        bring_in: 15,
        small_bet: 40,
        big_bet: 80,
        max_raises: 3,
        open_pair_big_bet: None,
        betting: stud_engine::Betting::FixedLimit,
        seats: 4,
        min_buy_in: 800,
        max_buy_in: 8_000,
        action_timeout_ms: 3_000,
        time_bank_ms: 0,
        observers: true,
        private: false,
        display: stud_proto::MoneyDisplay::default(),
        chat: None,
        rotation_hands: None,
        rotation_games: None,
    }
}

/// A new SQLite file under the temp dir (for tests that restart a server on the same
/// database): its path and its URL.
pub fn temp_db(name: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join("stud-e2e");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}-{}.db", uuid::Uuid::new_v4().simple()));
    let url = format!("sqlite://{}", path.display());
    (path, url)
}

/// A Postgres schema of its own on `TEST_DATABASE_URL` (for tests that restart a server on
/// the same database): its URL, with the schema as the search path. `None`, with a notice,
/// when the variable is not set (a failure when `STUD_REQUIRE_POSTGRES` is).
pub async fn pg_schema_url(name: &str) -> Option<String> {
    let Ok(url) = std::env::var("TEST_DATABASE_URL") else {
        assert!(
            std::env::var_os("STUD_REQUIRE_POSTGRES").is_none(),
            "STUD_REQUIRE_POSTGRES is set but TEST_DATABASE_URL is not: {name} would be skipped"
        );
        eprintln!("notice: TEST_DATABASE_URL is not set; {name} (Postgres) is skipped");
        return None;
    };
    let schema = format!("{name}_{}", uuid::Uuid::new_v4().simple());
    let admin = sqlx::PgPool::connect(&url).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}"))).execute(&admin).await.unwrap();
    admin.close().await;
    let sep = if url.contains('?') { '&' } else { '?' };
    Some(format!("{url}{sep}options=-c%20search_path%3D{schema}"))
}
