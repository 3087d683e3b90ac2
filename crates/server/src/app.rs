//! Shared server state: sessions, the play-money bank, the lobby, and each session's last
//! hands. Every lock here is a short `std` lock that is never held across an `.await`.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use stud_engine::Chips;
use stud_proto::TableSummary;
use stud_store::{Ban, BanScope, LedgerEntry, LedgerKind, NewSession, Store, StoreError, StoredHand, Write, Writer};
use uuid::Uuid;

use crate::config::Config;
use crate::journal::Journal;
use crate::limits::{ConnectionLimiter, RateLimiter};
use crate::metrics::Metrics;
use crate::table::{Start, TableHandle, TableSpec, spawn_table};
use std::net::IpAddr;
use stud_table::{TableCore, Timing};

/// A guest login: one token, one player, one session. `Debug` leaves the token out.
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

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("token", &"<redacted>")
            .field("player_id", &self.player_id)
            .field("session_id", &self.session_id)
            .field("name", &self.name)
            .finish()
    }
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

    /// Loads an account kept in the store (a returning session after a restart), unless this
    /// process already holds it. The loaded chips count as issued here.
    pub fn load(&self, player: Uuid, amount: Chips) {
        let mut b = self.balances.lock().unwrap_or_else(PoisonError::into_inner);
        if let std::collections::hash_map::Entry::Vacant(slot) = b.entry(player) {
            slot.insert(amount);
            self.issued.fetch_add(amount, Relaxed);
        }
    }

    /// Puts `amount` back.
    pub fn deposit(&self, player: Uuid, amount: Chips) {
        *self.balances.lock().unwrap_or_else(PoisonError::into_inner).entry(player).or_insert(0) += amount;
    }

    /// Puts `amount` back if this process holds the account; otherwise the store's balance
    /// (loaded with the session) already has it.
    pub fn refund(&self, player: Uuid, amount: Chips) {
        if let Some(balance) = self.balances.lock().unwrap_or_else(PoisonError::into_inner).get_mut(&player) {
            *balance += amount;
        }
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

/// The tables and what the lobby shows of them.
#[derive(Default)]
pub struct Lobby {
    tables: RwLock<Vec<(Uuid, TableHandle)>>,
    summaries: RwLock<HashMap<Uuid, TableSummary>>,
    /// private tables and their invite codes (`None`: revoked, nobody gets in)
    private: RwLock<HashMap<Uuid, Option<String>>>,
}

impl Lobby {
    /// Records whether a table is private and its code.
    pub fn set_access(&self, id: Uuid, private: bool, code: Option<String>) {
        let mut map = self.private.write().unwrap_or_else(PoisonError::into_inner);
        if private {
            map.insert(id, code);
        } else {
            map.remove(&id);
        }
    }

    /// Whether the table is private.
    pub fn is_private(&self, id: Uuid) -> bool {
        self.private.read().unwrap_or_else(PoisonError::into_inner).contains_key(&id)
    }

    /// Whether `code` lets someone into the table (public tables let everyone in).
    pub fn admits(&self, id: Uuid, code: Option<&str>) -> bool {
        match self.private.read().unwrap_or_else(PoisonError::into_inner).get(&id) {
            None => true,
            Some(Some(expected)) => code.is_some_and(|c| crate::history::same_key(expected, c.trim())),
            Some(None) => false,
        }
    }

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

    /// Takes a closed table out.
    pub fn remove(&self, id: Uuid) {
        self.tables.write().unwrap_or_else(PoisonError::into_inner).retain(|(t, _)| *t != id);
        self.summaries.write().unwrap_or_else(PoisonError::into_inner).remove(&id);
        self.private.write().unwrap_or_else(PoisonError::into_inner).remove(&id);
    }

    /// A table's name.
    pub fn name(&self, id: Uuid) -> Option<String> {
        self.summaries.read().unwrap_or_else(PoisonError::into_inner).get(&id).map(|s| s.name.clone())
    }

    /// Every table handle, in lobby order.
    pub fn handles(&self) -> Vec<TableHandle> {
        self.tables.read().unwrap_or_else(PoisonError::into_inner).iter().map(|(_, h)| h.clone()).collect()
    }

    /// Replaces a table's lobby line.
    pub fn publish(&self, summary: TableSummary) {
        self.summaries.write().unwrap_or_else(PoisonError::into_inner).insert(summary.id, summary);
    }

    /// The public lobby, in table order (private tables are not in it).
    pub fn public(&self) -> Vec<TableSummary> {
        self.list().into_iter().filter(|t| !t.private).collect()
    }

    /// A table's lobby line.
    pub fn summary(&self, id: Uuid) -> Option<TableSummary> {
        self.summaries.read().unwrap_or_else(PoisonError::into_inner).get(&id).cloned()
    }

    /// Every table, private ones included, in table order.
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

/// The server's admission limits (see `Config`); a rate of 0 admits everything.
pub struct Limits {
    /// guest sessions per client IP
    pub sessions: RateLimiter<IpAddr>,
    /// WebSocket messages per connection
    pub messages: RateLimiter<u64>,
    /// wrong invite codes per player
    pub invites: RateLimiter<Uuid>,
    /// wrong invite codes per client IP (five times the per-player limit)
    pub invites_by_ip: RateLimiter<IpAddr>,
    /// open WebSocket connections per client IP
    pub connections: Arc<ConnectionLimiter<IpAddr>>,
}

fn per_minute<K: Eq + std::hash::Hash + Clone>(n: u32) -> RateLimiter<K> {
    if n == 0 { RateLimiter::new(u32::MAX, f64::INFINITY) } else { RateLimiter::new(n, f64::from(n) / 60.0) }
}

impl Limits {
    fn new(c: &Config) -> Limits {
        let messages = match c.messages_per_second {
            0 => RateLimiter::new(u32::MAX, f64::INFINITY),
            n => RateLimiter::new(n.saturating_mul(2), f64::from(n)),
        };
        let max = if c.max_connections_per_ip == 0 { usize::MAX } else { c.max_connections_per_ip };
        Limits {
            sessions: per_minute(c.sessions_per_minute_per_ip),
            messages,
            invites: per_minute(c.invite_attempts_per_minute),
            // An address may carry several players (NAT): five times the per-player budget.
            invites_by_ip: per_minute(c.invite_attempts_per_minute.saturating_mul(5)),
            connections: Arc::new(ConnectionLimiter::new(max)),
        }
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
    /// admission limits
    pub limits: Limits,
    /// the database
    pub store: Arc<dyn Store>,
    /// the batching writer in front of it
    pub writer: Writer,
    /// the tables' write-ahead journal
    pub journal: Arc<dyn Journal>,
    /// the tournaments
    pub tournaments: crate::tournament::Tournaments,
    sessions: RwLock<HashMap<String, Arc<Session>>>,
    seated: Mutex<HashMap<Uuid, HashSet<Uuid>>>,
    next_conn: AtomicU64,
    bans: RwLock<HashSet<(Uuid, BanScope)>>,
    /// table tasks opened after start (operators' tables)
    pub(crate) tasks: Mutex<Vec<tokio::task::JoinHandle<()>>>,
    /// operators' table changes run one at a time (read, store, tell the table)
    pub(crate) admin_lock: tokio::sync::Mutex<()>,
    stopping: std::sync::atomic::AtomicBool,
}

impl App {
    /// A new app on `store`, writing through `writer`, its tables journaling to `journal`.
    pub fn new(config: Config, store: Arc<dyn Store>, writer: Writer, journal: Arc<dyn Journal>) -> App {
        App {
            journal,
            limits: Limits::new(&config),
            config,
            metrics: Metrics::default(),
            bank: Bank::default(),
            lobby: Lobby::default(),
            tournaments: crate::tournament::Tournaments::default(),
            store,
            writer,
            sessions: RwLock::default(),
            seated: Mutex::default(),
            next_conn: AtomicU64::new(1),
            bans: RwLock::default(),
            tasks: Mutex::default(),
            admin_lock: tokio::sync::Mutex::new(()),
            stopping: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Shutdown has begun: no new tables.
    pub fn begin_shutdown(&self) {
        self.stopping.store(true, Relaxed);
    }

    /// Whether shutdown has begun.
    pub fn shutting_down(&self) -> bool {
        self.stopping.load(Relaxed)
    }

    /// Starts a new table's task (its journal starts empty) and puts it in the lobby.
    pub fn open_table(self: &Arc<Self>, spec: TableSpec) -> tokio::task::JoinHandle<()> {
        let core = TableCore::new(self.timing(), spec, stud_store::now_ms());
        self.open_core(core, Start::Fresh)
    }

    /// Starts the task of a table rebuilt from its journal (or a new one) and puts it in the
    /// lobby.
    pub fn open_core(self: &Arc<Self>, core: TableCore, start: Start) -> tokio::task::JoinHandle<()> {
        let spec = core.spec().clone();
        let (handle, task) = spawn_table(self.clone(), core, start);
        self.lobby.add(spec.id, handle, crate::placeholder_summary(&spec));
        self.lobby.set_access(spec.id, spec.private, spec.invite_code.clone());
        task
    }

    /// The server's timers that tables use.
    pub fn timing(&self) -> Timing {
        Timing { hand_pause_ms: self.config.hand_pause_ms, disconnect_grace_ms: self.config.disconnect_grace_ms }
    }

    /// Keeps a table task opened while serving, so shutdown can wait for it.
    pub fn track(&self, task: tokio::task::JoinHandle<()>) {
        self.tasks.lock().unwrap_or_else(PoisonError::into_inner).push(task);
    }

    /// The bans from the store.
    pub fn load_bans(&self, bans: &[Ban]) {
        let mut set = self.bans.write().unwrap_or_else(PoisonError::into_inner);
        set.extend(bans.iter().map(|b| (b.player_id, b.scope)));
    }

    /// Bans (or lifts a ban) in memory; the store is the caller's.
    pub fn set_ban(&self, player: Uuid, scope: BanScope, banned: bool) {
        let mut set = self.bans.write().unwrap_or_else(PoisonError::into_inner);
        if banned {
            set.insert((player, scope));
        } else {
            set.remove(&(player, scope));
        }
    }

    /// Whether `player` may not play at `table` (or anywhere, with `None`).
    pub fn is_banned(&self, player: Uuid, table: Option<Uuid>) -> bool {
        let set = self.bans.read().unwrap_or_else(PoisonError::into_inner);
        set.contains(&(player, BanScope::Server)) || table.is_some_and(|t| set.contains(&(player, BanScope::Table(t))))
    }

    /// Creates a guest session: a new player with a fresh play-money account, stored before
    /// it is returned (so the token works after a restart).
    ///
    /// # Errors
    /// The store refused or cannot be reached.
    pub async fn create_session(&self, name: String) -> Result<Arc<Session>, StoreError> {
        let session = Arc::new(Session {
            token: format!("{}{}", Uuid::new_v4().simple(), Uuid::new_v4().simple()),
            player_id: Uuid::new_v4(),
            session_id: Uuid::new_v4(),
            name,
        });
        let amount = self.config.starting_balance;
        self.store
            .create_session(&NewSession {
                player_id: session.player_id,
                session_id: session.session_id,
                name: session.name.clone(),
                token_hash: stud_store::token_hash(&session.token),
                starting_balance: amount,
                created_at_ms: stud_store::now_ms(),
            })
            .await?;
        self.bank.open(session.player_id, amount);
        self.sessions.write().unwrap_or_else(PoisonError::into_inner).insert(session.token.clone(), session.clone());
        Ok(session)
    }

    /// The session of a token: from memory, or from the store (a session from before a
    /// restart; its balance is loaded into the bank).
    ///
    /// # Errors
    /// The store cannot be reached.
    pub async fn resolve_session(&self, token: &str) -> Result<Option<Arc<Session>>, StoreError> {
        if let Some(s) = self.session(token) {
            return Ok(Some(s));
        }
        let Some(stored) = self.store.session_by_token(&stud_store::token_hash(token)).await? else {
            return Ok(None);
        };
        let balance = self.store.balance(stored.player_id).await?;
        self.bank.load(stored.player_id, balance);
        let session = Arc::new(Session {
            token: token.to_owned(),
            player_id: stored.player_id,
            session_id: stored.session_id,
            name: stored.name,
        });
        let mut sessions = self.sessions.write().unwrap_or_else(PoisonError::into_inner);
        Ok(Some(sessions.entry(token.to_owned()).or_insert(session).clone()))
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

    /// Hands a finished hand to the writer (never waits).
    pub fn hand_finished(&self, hand: StoredHand) {
        self.store_write(Write::Hand(Arc::new(hand)));
    }

    /// Records a chip movement between an account and a table (never waits).
    pub fn ledger(&self, player_id: Uuid, table_id: Uuid, kind: LedgerKind, amount: Chips) {
        let entry = LedgerEntry { player_id, table_id: Some(table_id), kind, amount, at_ms: stud_store::now_ms() };
        self.store_write(Write::Ledger(entry));
    }

    pub(crate) fn store_write(&self, write: Write) {
        if let Err(e) = self.writer.push(write) {
            // Only after shutdown has stopped the writer; never while serving.
            self.metrics.sink_dropped.fetch_add(1, Relaxed);
            tracing::error!(error = %e, "a write could not be queued");
        }
    }

    /// The session's last hands from the store, newest first. Waits (up to `wait`) for the
    /// writer to store the hands finished before the call, so the newest is included.
    ///
    /// # Errors
    /// The writer is behind by more than `wait`, or the store cannot be reached.
    pub async fn last_hands(&self, session: Uuid, wait: std::time::Duration) -> Result<Vec<StoredHand>, HistoryError> {
        match tokio::time::timeout(wait, self.writer.flush()).await {
            Ok(true) => {}
            Ok(false) | Err(_) => return Err(HistoryError::Behind),
        }
        let limit = u32::try_from(self.config.last_hands).unwrap_or(u32::MAX);
        Ok(self.store.session_hands(session, limit).await?)
    }
}

/// Why history could not be read.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// The writer has not caught up (database slow or down).
    #[error("the hand history is catching up; try again shortly")]
    Behind,
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_debug_shows_no_token() {
        let token = "0123456789abcdef0123456789abcdef-secret-token";
        let s = Session { token: token.into(), player_id: Uuid::nil(), session_id: Uuid::nil(), name: "Ann".into() };
        for text in [format!("{s:?}"), format!("{s:#?}"), format!("{:?}", Arc::new(s))] {
            assert!(!text.contains(token) && !text.contains("secret"), "{text}");
            assert!(text.contains("Ann") && text.contains("<redacted>"), "{text}");
        }
    }
}
