//! Shared server state: sessions, the play-money bank, the lobby, and each session's last
//! hands. Every lock here is a short `std` lock that is never held across an `.await`.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use stud_engine::{Chips, HandRecord, Seat};
use stud_proto::TableSummary;
use tokio::sync::mpsc;
use uuid::Uuid;

use crate::config::Config;
use crate::metrics::Metrics;
use crate::table::TableHandle;

/// A guest login: one token, one player, one session.
#[derive(Debug)]
pub struct Session {
    /// bearer token (secret)
    pub token: String,
    /// the player
    pub player_id: Uuid,
    /// this session (LAST HAND is per session)
    pub session_id: Uuid,
    /// display name
    pub name: String,
}

/// One seat's part in a finished hand.
#[derive(Clone, Debug)]
pub struct HandSeat {
    /// the seat
    pub seat: Seat,
    /// who sat there
    pub player_id: Uuid,
    /// their session
    pub session_id: Uuid,
    /// chips won minus chips put in
    pub net: i64,
}

/// A finished hand, as it goes to the hand sink and to LAST HAND.
#[derive(Clone, Debug)]
pub struct FinishedHand {
    /// the hand
    pub hand_id: Uuid,
    /// the table
    pub table_id: Uuid,
    /// the table's hand counter
    pub number: u64,
    /// the full record (seed included: never send it unfiltered to a player)
    pub record: HandRecord,
    /// the PHH text (all cards: operators only)
    pub phh: String,
    /// when it ended, ms since the Unix epoch
    pub ended_at_ms: u64,
    /// who played
    pub seats: Vec<HandSeat>,
}

/// The play-money bank: balances off the tables. Chips move between it and table stacks only.
#[derive(Default)]
pub struct Bank {
    balances: Mutex<HashMap<Uuid, Chips>>,
    issued: AtomicU64,
}

impl Bank {
    /// Opens an account with `amount` new chips (counted as issued).
    pub fn open(&self, player: Uuid, amount: Chips) {
        self.issued.fetch_add(amount, Relaxed);
        self.balances.lock().unwrap_or_else(PoisonError::into_inner).insert(player, amount);
    }

    /// The balance.
    pub fn balance(&self, player: Uuid) -> Chips {
        self.balances.lock().unwrap_or_else(PoisonError::into_inner).get(&player).copied().unwrap_or(0)
    }

    /// Takes `amount` out, or returns false and changes nothing.
    pub fn withdraw(&self, player: Uuid, amount: Chips) -> bool {
        let mut b = self.balances.lock().unwrap_or_else(PoisonError::into_inner);
        match b.get_mut(&player) {
            Some(balance) if *balance >= amount => {
                *balance -= amount;
                true
            }
            _ => false,
        }
    }

    /// Puts `amount` back.
    pub fn deposit(&self, player: Uuid, amount: Chips) {
        *self.balances.lock().unwrap_or_else(PoisonError::into_inner).entry(player).or_insert(0) += amount;
    }

    /// All chips ever issued.
    pub fn issued(&self) -> Chips {
        self.issued.load(Relaxed)
    }

    /// Sum of all balances.
    pub fn total_balances(&self) -> Chips {
        self.balances.lock().unwrap_or_else(PoisonError::into_inner).values().sum()
    }
}

/// The public tables and what the lobby shows of them.
#[derive(Default)]
pub struct Lobby {
    tables: RwLock<Vec<(Uuid, TableHandle)>>,
    summaries: RwLock<HashMap<Uuid, TableSummary>>,
}

impl Lobby {
    /// Adds a table.
    pub fn add(&self, id: Uuid, handle: TableHandle, summary: TableSummary) {
        self.tables.write().unwrap_or_else(PoisonError::into_inner).push((id, handle));
        self.publish(summary);
    }

    /// The table's handle.
    pub fn get(&self, id: Uuid) -> Option<TableHandle> {
        self.tables
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .find(|(t, _)| *t == id)
            .map(|(_, h)| h.clone())
    }

    /// Every table handle, in lobby order.
    pub fn handles(&self) -> Vec<TableHandle> {
        self.tables.read().unwrap_or_else(PoisonError::into_inner).iter().map(|(_, h)| h.clone()).collect()
    }

    /// Replaces a table's lobby line.
    pub fn publish(&self, summary: TableSummary) {
        self.summaries.write().unwrap_or_else(PoisonError::into_inner).insert(summary.id, summary);
    }

    /// The lobby, in table order.
    pub fn list(&self) -> Vec<TableSummary> {
        let summaries = self.summaries.read().unwrap_or_else(PoisonError::into_inner);
        self.tables
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter_map(|(id, _)| summaries.get(id).cloned())
            .collect()
    }
}

/// Everything the routes, connections and tables share.
pub struct App {
    /// the configuration, parsed once
    pub config: Config,
    /// counters
    pub metrics: Metrics,
    /// play money
    pub bank: Bank,
    /// the tables
    pub lobby: Lobby,
    sessions: RwLock<HashMap<String, Arc<Session>>>,
    seated: Mutex<HashMap<Uuid, HashSet<Uuid>>>,
    history: Mutex<HashMap<Uuid, VecDeque<Arc<FinishedHand>>>>,
    hand_sink: mpsc::Sender<Arc<FinishedHand>>,
    next_conn: AtomicU64,
}

impl App {
    /// A new app whose finished hands go to `hand_sink`.
    pub fn new(config: Config, hand_sink: mpsc::Sender<Arc<FinishedHand>>) -> App {
        App {
            config,
            metrics: Metrics::default(),
            bank: Bank::default(),
            lobby: Lobby::default(),
            sessions: RwLock::default(),
            seated: Mutex::default(),
            history: Mutex::default(),
            hand_sink,
            next_conn: AtomicU64::new(1),
        }
    }

    /// Creates a guest session with a fresh play-money account.
    pub fn create_session(&self, name: String) -> Arc<Session> {
        let session = Arc::new(Session {
            token: format!("{}{}", Uuid::new_v4().simple(), Uuid::new_v4().simple()),
            player_id: Uuid::new_v4(),
            session_id: Uuid::new_v4(),
            name,
        });
        self.bank.open(session.player_id, self.config.starting_balance);
        self.sessions.write().unwrap_or_else(PoisonError::into_inner).insert(session.token.clone(), session.clone());
        session
    }

    /// The session of a token.
    pub fn session(&self, token: &str) -> Option<Arc<Session>> {
        self.sessions.read().unwrap_or_else(PoisonError::into_inner).get(token).cloned()
    }

    /// A fresh connection id.
    pub fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Relaxed)
    }

    /// Records that `player` holds a seat at `table` (or no longer does).
    pub fn set_seated(&self, player: Uuid, table: Uuid, seated: bool) {
        let mut map = self.seated.lock().unwrap_or_else(PoisonError::into_inner);
        let tables = map.entry(player).or_default();
        if seated {
            tables.insert(table);
        } else {
            tables.remove(&table);
        }
    }

    /// The tables where `player` holds a seat.
    pub fn seated_tables(&self, player: Uuid) -> Vec<Uuid> {
        self.seated
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&player)
            .map(|t| t.iter().copied().collect())
            .unwrap_or_default()
    }

    /// Hands a finished hand to the sink (never waits) and to each player's LAST HAND list.
    pub fn hand_finished(&self, hand: FinishedHand) {
        let hand = Arc::new(hand);
        {
            let mut history = self.history.lock().unwrap_or_else(PoisonError::into_inner);
            for s in &hand.seats {
                let list = history.entry(s.session_id).or_default();
                list.push_front(hand.clone());
                list.truncate(self.config.last_hands);
            }
        }
        if self.hand_sink.try_send(hand).is_err() {
            self.metrics.sink_dropped.fetch_add(1, Relaxed);
            tracing::warn!("hand sink full or closed: a finished hand was not handed over");
        }
    }

    /// The session's last hands, newest first.
    pub fn last_hands(&self, session: Uuid) -> Vec<Arc<FinishedHand>> {
        self.history
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&session)
            .map(|l| l.iter().cloned().collect())
            .unwrap_or_default()
    }
}
