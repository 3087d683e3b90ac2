//! The state every connection, route and table shares: [`App`], a struct of its parts (the
//! bank, the lobby, the session cache, the players' sockets and seats, access, limits, the
//! tournaments) plus the store, its writer and the journal. Its methods are what spans several
//! parts: a session's life, the sweep, opening tables. Every lock in the parts is a short `std`
//! lock that is never held across an `.await`.

use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;

use futures_util::future::BoxFuture;
use stud_engine::Chips;
use stud_proto::TableSummary;
use stud_store::{
    JournalRow, LedgerEntry, LedgerKind, NewSession, Store, StoreError, StoredHand, TableWrites, Write, Writer,
};
use uuid::Uuid;

use crate::access::Access;
use crate::auth::jwt::Verifier;
use crate::bank::Bank;
use crate::config::Config;
use crate::journal::{Journal, JournalError};
use crate::limits::{ConnectionLimiter, RateLimiter};
use crate::lobby::Lobby;
use crate::metrics::Metrics;
use crate::players::Players;
use crate::session::{Lookup, Session, Sessions};
use crate::table::{Debit, Start, TableEnv, TableHandle, TableSpec, spawn_table_with};
use std::net::IpAddr;
use stud_table::{TableCore, Timing};

/// How long a history read waits for the store writer to catch up (LAST HAND, the ledger).
pub const HISTORY_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// The server's admission limits (see `Config`); a rate of 0 admits everything.
pub struct Limits {
    /// guest sessions per client IP
    pub sessions: RateLimiter<IpAddr>,
    /// WebSocket messages per connection
    pub messages: RateLimiter<u64>,
    /// open WebSocket connections per client IP
    pub connections: Arc<ConnectionLimiter<IpAddr>>,
    /// history reads (LAST HAND, the history routes) per player
    pub history: RateLimiter<Uuid>,
    /// history reads per client IP
    pub history_by_ip: RateLimiter<IpAddr>,
    /// open TCP connections per peer address, WebSockets included (`max_connections_per_ip`
    /// and [`SOCKETS_BESIDE_WEBSOCKETS`] more; trusted proxies are not counted)
    pub sockets: Arc<ConnectionLimiter<IpAddr>>,
}

/// The plain HTTP connections one address may hold beside its WebSockets (page loads, history
/// reads, a browser's parallel requests).
pub const SOCKETS_BESIDE_WEBSOCKETS: usize = 64;

impl Limits {
    /// Whether `player` (from `ip`) may read the store's history now: each read costs one
    /// of the player's and one of the address's; past either, how long to wait. The store is
    /// shared by every table, so many sockets of one address (or of one player) must not be
    /// able to keep it busy.
    ///
    /// # Errors
    /// The wait until a read is allowed.
    pub fn read_history(&self, player: Uuid, ip: IpAddr) -> Result<(), std::time::Duration> {
        self.history.check(&player)?;
        self.history_by_ip.check(&ip)
    }

    /// Drops every rate limiter's full buckets (they also prune themselves as they are used;
    /// this catches the buckets of clients that went quiet). Run by [`App::sweep`].
    pub fn prune(&self) {
        self.sessions.prune();
        self.messages.prune();
        self.history.prune();
        self.history_by_ip.prune();
    }

    fn new(c: &Config) -> Limits {
        let messages = match c.messages_per_second {
            0 => RateLimiter::new(u32::MAX, f64::INFINITY),
            n => RateLimiter::new(n.saturating_mul(2), f64::from(n)),
        };
        let max = if c.max_connections_per_ip == 0 { usize::MAX } else { c.max_connections_per_ip };
        Limits {
            sessions: RateLimiter::per_minute(c.sessions_per_minute_per_ip),
            messages,
            connections: Arc::new(ConnectionLimiter::new(max)),
            history: RateLimiter::per_minute(c.history_reads_per_minute),
            history_by_ip: RateLimiter::per_minute(c.history_reads_per_minute.saturating_mul(5)),
            sockets: Arc::new(ConnectionLimiter::new(max.saturating_add(SOCKETS_BESIDE_WEBSOCKETS))),
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
    /// who may come into which table: bans, private tables' codes, wrong-code counters
    pub access: Access,
    /// the database
    pub store: Arc<dyn Store>,
    /// the batching writer in front of it
    pub writer: Writer,
    /// the tables' write-ahead journal
    pub journal: Arc<dyn Journal>,
    /// the sessions held in memory (a cache of the store's), and what was dropped
    pub sessions: Sessions,
    /// operator-signed JWTs (`None`: not accepted)
    pub(crate) jwt: Option<Verifier>,
    /// the tournaments
    pub tournaments: crate::tournament::Tournaments,
    /// who is connected and who is seated where
    pub players: Players,
    /// tasks opened after start (operators' and tournaments' tables, tournaments): shutdown
    /// waits for them; a finished one leaves it
    pub(crate) tasks: tokio_util::task::TaskTracker,
    /// operators' table changes run one at a time (read, store, tell the table)
    pub(crate) admin_lock: tokio::sync::Mutex<()>,
    stopping: std::sync::atomic::AtomicBool,
    /// a cluster's gateway: tables live on workers, reached through it (set once at start)
    pub(crate) gateway: std::sync::OnceLock<Arc<dyn crate::table::RemoteTables>>,
    /// a cluster's gateway: the tournaments it directs and the proxies of the others' (set
    /// once at start)
    pub(crate) director: std::sync::OnceLock<Arc<dyn crate::tournament::Directing>>,
}

impl App {
    /// Registers `player` in a tournament with the `invite_code` they gave (from `peer`): a
    /// private tournament's code is checked first by [`Access::check_code`], in constant time
    /// and counted with the tables' wrong codes per player and per address, so guessing one is
    /// as slow as guessing a table's.
    ///
    /// # Errors
    /// [`tournament::Refusal`](crate::tournament::Refusal): nothing was charged.
    pub async fn register_entry(
        &self,
        handle: &crate::tournament::TournamentHandle,
        player: Uuid,
        peer: IpAddr,
        name: String,
        invite_code: Option<String>,
    ) -> Result<(), crate::tournament::Refusal> {
        use crate::tournament::Refusal;
        let invite_code = invite_code.map(|c| c.trim().to_owned());
        if let Some(expected) = handle.now().spec().invite_code.as_deref() {
            self.access.check_code(player, peer, Some(expected), invite_code.as_deref()).map_err(|r| match r {
                crate::access::Refusal::TooManyCodes => Refusal::TooManyCodes,
                _ => Refusal::Rules(stud_tournament::TournamentError::WrongInviteCode),
            })?;
        }
        handle.register(player, name, invite_code).await
    }

    /// A new app on `store`, writing through `writer`, its tables journaling to `journal`;
    /// `jwt` checks operator-signed JWTs (`None`: refused), built once at start
    /// ([`Verifier::from_config`]).
    pub fn new(
        config: Config,
        store: Arc<dyn Store>,
        writer: Writer,
        journal: Arc<dyn Journal>,
        jwt: Option<Verifier>,
    ) -> App {
        App {
            journal,
            limits: Limits::new(&config),
            access: Access::new(&config),
            metrics: Metrics::default(),
            bank: Bank::default(),
            lobby: Lobby::default(),
            tournaments: crate::tournament::Tournaments::default(),
            store,
            writer,
            sessions: Sessions::new(config.session_cache),
            jwt,
            players: Players::default(),
            tasks: tokio_util::task::TaskTracker::new(),
            admin_lock: tokio::sync::Mutex::new(()),
            stopping: std::sync::atomic::AtomicBool::new(false),
            gateway: std::sync::OnceLock::new(),
            director: std::sync::OnceLock::new(),
            config,
        }
    }

    /// Gives a frame from `tournament` to every socket of `player` (on a cluster, on every
    /// gateway).
    pub fn notify_player(&self, tournament: Uuid, player: Uuid, frame: &crate::wire::Frame) {
        match self.director.get() {
            Some(d) => d.notify(tournament, player, None, frame),
            None => self.players.notify_player(player, frame),
        }
    }

    /// Counts `player` seated at table `no` of `tournament` (for the sockets' routing and
    /// admission: the table says so too once it has seated them), then gives them `frame`, on
    /// every gateway of a cluster.
    pub fn notify_seated(
        &self,
        player: Uuid,
        tournament: Uuid,
        no: stud_tournament::TableNo,
        frame: &crate::wire::Frame,
    ) {
        match self.director.get() {
            Some(d) => d.notify(tournament, player, Some((tournament, no)), frame),
            None => {
                self.players.set_seated(player, crate::tournament::tables::table_id(tournament, no), true);
                self.players.notify_player(player, frame);
            }
        }
    }

    /// On a cluster's gateway, claims a new tournament before it is stored, so that this
    /// gateway directs it and no other takes it up; elsewhere nothing to do.
    ///
    /// # Errors
    /// NATS did not answer (the reason).
    pub async fn claim_tournament(&self, id: Uuid) -> Result<(), String> {
        match self.director.get() {
            Some(d) => d.claim_new(id).await,
            None => Ok(()),
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

    /// Starts a new table's task (its journal starts empty) and puts it in the lobby; its
    /// access is the new spec's.
    pub fn open_table(self: &Arc<Self>, spec: TableSpec) -> tokio::task::JoinHandle<()> {
        self.access.set_table(&spec);
        if let Some(gw) = self.gateway.get() {
            // A cluster's gateway: the table is stored; a worker claims and hosts it.
            self.lobby.add(spec.id, TableHandle::remote(spec.id, gw.clone()), crate::wire::placeholder_summary(&spec));
            return tokio::spawn(async {});
        }
        let core = TableCore::new(self.timing(), spec, stud_store::now_ms());
        self.open_core(core, Start::Fresh)
    }

    /// Starts the task of a table rebuilt from its journal (or a new one) and puts it in the
    /// lobby. Its access is not taken from the core (whose spec may still wait for an
    /// operator's change): the caller sets it from the stored spec ([`Access::set_table`]).
    pub fn open_core(self: &Arc<Self>, core: TableCore, start: Start) -> tokio::task::JoinHandle<()> {
        let spec = core.spec().clone();
        let (handle, task) = self.spawn_table(core, start);
        self.lobby.add(spec.id, handle, crate::wire::placeholder_summary(&spec));
        task
    }

    /// Starts a table task on `core` with this app as its environment; returns its handle.
    pub fn spawn_table(self: &Arc<Self>, core: TableCore, start: Start) -> (TableHandle, tokio::task::JoinHandle<()>) {
        spawn_table_with(self.clone(), self.config.table_queue, core, start)
    }

    /// The reply to a registration change (HTTP's and the WebSocket's): the player's balance
    /// after it (on a cluster's gateway, the store's: the tournament may be directed by another
    /// gateway).
    pub async fn registration(
        &self,
        tournament_id: Uuid,
        session: &Session,
        registered: bool,
    ) -> stud_proto::TournamentRegistration {
        stud_proto::TournamentRegistration {
            tournament_id,
            player_id: session.player_id,
            registered,
            balance: self.shown_balance(session.player_id).await,
        }
    }

    /// Buys a rebuy or the add-on for the session's player; the reply names the chips, the
    /// fee and the balance after it. A rebuy asked again with the `key` of the entry's last
    /// one is answered the same, charged once (an add-on is sold once per entry anyway).
    ///
    /// # Errors
    /// [`crate::tournament::Refusal`]: nothing was charged.
    pub async fn purchase(
        &self,
        handle: &crate::tournament::TournamentHandle,
        session: &Session,
        kind: stud_proto::TournamentOfferKind,
        key: Option<String>,
    ) -> Result<stud_proto::TournamentPurchase, crate::tournament::Refusal> {
        use stud_proto::TournamentOfferKind;
        match kind {
            TournamentOfferKind::Rebuy => handle.rebuy(session.player_id, key).await?,
            TournamentOfferKind::Addon => handle.addon(session.player_id).await?,
        }
        let t = handle.now();
        let rebuys = t.spec().rebuys;
        let (chips, fee) = match kind {
            TournamentOfferKind::Rebuy => rebuys.map_or((0, 0), |r| (r.chips, r.fee)),
            TournamentOfferKind::Addon => rebuys.and_then(|r| r.addon).map_or((0, 0), |a| (a.chips, a.fee)),
        };
        Ok(stud_proto::TournamentPurchase {
            tournament_id: t.id(),
            player_id: session.player_id,
            kind,
            chips,
            fee,
            balance: self.shown_balance(session.player_id).await,
        })
    }

    /// The server's timers that tables use.
    pub fn timing(&self) -> Timing {
        Timing {
            hand_pause_ms: self.config.hand_pause_ms,
            showdown_pause_ms: self.config.showdown_pause_ms,
            disconnect_grace_ms: self.config.disconnect_grace_ms,
        }
    }

    /// Keeps a table task opened while serving, so shutdown can wait for it.
    pub fn track(&self, task: tokio::task::JoinHandle<()>) {
        self.tasks.spawn(async move {
            let _ = task.await;
        });
    }

    /// Creates a guest session: a new player with a fresh play-money account, stored before
    /// it is returned (so the token works after a restart).
    ///
    /// # Errors
    /// The store refused or cannot be reached.
    pub async fn create_session(&self, name: String) -> Result<Arc<Session>, StoreError> {
        let (session, new) = self.new_session(Uuid::new_v4(), name);
        self.store.create_session(&new).await?;
        // Cached before the account opens: a sweep drops no account whose session it sees.
        self.sessions.remember(session.clone(), new.created_at_ms);
        self.bank.open(session.player_id, new.starting_balance);
        Ok(session)
    }

    /// Creates a session for the player an operator's user (`subject`) maps to: the same player
    /// every time, with their balance and history (a new player the first time).
    ///
    /// # Errors
    /// The store refused or cannot be reached.
    pub async fn create_identity_session(&self, subject: &str, name: String) -> Result<Arc<Session>, StoreError> {
        let (session, new) = self.new_session(Uuid::new_v4(), name);
        let player_id = self.store.identity_session(subject, &new).await?;
        let session =
            Arc::new(Session::new(session.token.clone(), player_id, session.session_id, session.name.clone()));
        if player_id == new.player_id {
            self.sessions.remember(session.clone(), new.created_at_ms);
            self.bank.open(player_id, new.starting_balance);
        } else {
            self.load_account(player_id).await?;
            self.sessions.remember(session.clone(), new.created_at_ms);
            // A sweep may have dropped the account between the two lines above.
            self.load_account(player_id).await?;
        }
        Ok(session)
    }

    fn new_session(&self, player_id: Uuid, name: String) -> (Arc<Session>, NewSession) {
        let session = Arc::new(Session::new(
            format!("{}{}", Uuid::new_v4().simple(), Uuid::new_v4().simple()),
            player_id,
            Uuid::new_v4(),
            name,
        ));
        let new = NewSession {
            player_id: session.player_id,
            session_id: session.session_id,
            name: session.name.clone(),
            token_hash: stud_store::token_hash(&session.token),
            starting_balance: self.config.starting_balance,
            created_at_ms: stud_store::now_ms(),
        };
        (session, new)
    }

    /// The player's balance as a welcome or a new session shows it: this process's bank; on a
    /// cluster gateway, whose players' chips are spent by the workers in the shared store, the
    /// store's balance less what workers hold for buy-ins in flight (the bank's copy, loaded
    /// when the session was, goes stale), or the bank's copy while the store cannot answer.
    pub(crate) async fn shown_balance(&self, player: Uuid) -> Chips {
        if self.gateway.get().is_none() {
            return self.bank.balance(player);
        }
        match tokio::try_join!(self.store.balance(player), self.store.held(player)) {
            Ok((balance, held)) => balance.saturating_sub(held),
            Err(e) => {
                tracing::warn!(error = %e, "balance not read from the store; showing the gateway's copy");
                self.bank.balance(player)
            }
        }
    }

    /// Loads the player's account from the store unless this process holds it. The writer is
    /// flushed first: a sweep may have dropped the account while its last movements were
    /// still queued.
    pub(crate) async fn load_account(&self, player: Uuid) -> Result<(), StoreError> {
        if self.bank.holds(player) {
            return Ok(());
        }
        if !matches!(tokio::time::timeout(ACCOUNT_FLUSH_WAIT, self.writer.flush()).await, Ok(true)) {
            // The database is down or far behind: its balance may be stale.
            return Err(StoreError::Db(sqlx_timeout()));
        }
        let balance = self.store.balance(player).await?;
        self.bank.load(player, balance);
        Ok(())
    }

    /// The session of a token: from memory, or from the store (a session from before a
    /// restart, or dropped from memory; its balance is loaded into the bank). A session idle
    /// for longer than `session_idle_days` has expired: `None`, now and for good. A session's
    /// use is stored at most once per [`App::touch_every_ms`].
    ///
    /// # Errors
    /// The store cannot be reached.
    pub async fn resolve_session(&self, token: &str) -> Result<Option<Arc<Session>>, StoreError> {
        let now = stud_store::now_ms();
        let idle = self.config.session_idle_ms();
        match self.sessions.lookup(token, now, idle, self.touch_every_ms()) {
            Lookup::Live { session, touch } => {
                if touch {
                    self.touch_later(session.session_id, now);
                }
                return Ok(Some(session));
            }
            // The store's mark is never newer than memory's: it has expired there too.
            Lookup::Expired => return Ok(None),
            Lookup::Unknown => {}
        }
        let hash = stud_store::token_hash(token);
        // Read ahead at start (a player of a resumed table), else from the store.
        let warm = if self.sessions.any_warm() { self.sessions.take_warm(&hash) } else { None };
        let stored = match warm {
            Some(stored) => stored,
            None => match self.store.live_session(&hash, now.saturating_sub(idle)).await? {
                Some(stored) => stored,
                None => return Ok(None),
            },
        };
        self.load_account(stored.player_id).await?;
        self.touch_later(stored.session_id, now);
        let session = Arc::new(Session::new(token.to_owned(), stored.player_id, stored.session_id, stored.name));
        let Some(session) = self.sessions.remember_resolved(session, now) else {
            return Ok(None);
        };
        // A sweep drops no account whose session it sees cached; one that ran between the load
        // and `remember` may have dropped it: load it again (a no-op when it is held).
        self.load_account(session.player_id).await?;
        Ok(Some(session))
    }

    /// Reads ahead the live sessions of every seated player (and, with `accounts`, loads
    /// their balances into the bank), so that when a restarted server's players all come back
    /// at once their `hello`s need no store read. A session counts as live here if it stays
    /// live for [`crate::session::WARM_KEPT_MS`] more, the time it is kept waiting. Returns
    /// how many sessions were read.
    ///
    /// # Errors
    /// The store cannot be reached.
    pub(crate) async fn warm_sessions(&self, accounts: bool) -> Result<usize, StoreError> {
        let players = self.players.seated_players();
        if players.is_empty() {
            return Ok(0);
        }
        let now = stud_store::now_ms();
        let since = now.saturating_sub(self.config.session_idle_ms()).saturating_add(crate::session::WARM_KEPT_MS);
        let warm = self.store.live_sessions_of(&players, since).await?;
        if accounts {
            for w in &warm {
                self.bank.load(w.session.player_id, w.balance);
            }
        }
        let n = warm.len();
        self.sessions.warm(warm.into_iter().map(|w| (w.token_hash, w.session)), now);
        Ok(n)
    }

    /// A session's use is stored at most this often: a minute, or a tenth of the idle
    /// expiry when that is shorter (tests use expiries of seconds).
    pub fn touch_every_ms(&self) -> u64 {
        (self.config.session_idle_ms() / 10).clamp(1, 60_000)
    }

    /// How often [`App::sweep`] runs: a minute, or a quarter of the idle expiry.
    pub fn sweep_every(&self) -> std::time::Duration {
        std::time::Duration::from_millis((self.config.session_idle_ms() / 4).clamp(50, 60_000))
    }

    fn touch_later(&self, session: Uuid, at_ms: u64) {
        let store = self.store.clone();
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                if let Err(e) = store.touch_session(session, at_ms).await {
                    tracing::warn!(error = %e, "could not store a session's last use");
                }
            });
        }
    }

    /// Logs a session out: deletes it from the store (a restart does not bring it back), drops
    /// it from memory, and ends it, which closes its open WebSockets (`ws.rs`). From then on its
    /// token resolves to nothing (401 over HTTP, `not_authenticated` on a hello). The player,
    /// the balance, the hands and any seat stay.
    ///
    /// # Errors
    /// The store refused or cannot be reached (nothing changed then).
    pub async fn end_session(&self, session: &Arc<Session>) -> Result<(), StoreError> {
        self.store.delete_session(session.session_id).await?;
        let cached = self.sessions.forget_ended(session, stud_store::now_ms());
        session.end();
        if let Some(cached) = cached {
            cached.end();
        }
        tracing::info!(session_id = %session.session_id, "logged out");
        Ok(())
    }

    /// Sessions held in memory.
    pub fn sessions_cached(&self) -> usize {
        self.sessions.len()
    }

    /// Bounds memory: prunes the rate limiters' full buckets, drops the sessions not used for
    /// `min(idle expiry, 10 min)` (a session a socket or a table holds counts as used now),
    /// deletes the expired ones from the store, and
    /// drops the accounts of players who have no session here, no seat, and no use since the
    /// sweep began (after the writer has stored their movements). Run every
    /// [`App::sweep_every`] by [`sweep_sessions`].
    pub async fn sweep(&self) {
        self.limits.prune();
        self.access.prune();
        let now = stud_store::now_ms();
        let idle = self.config.session_idle_ms();
        let keep_for = idle.min(CACHE_IDLE_MS);
        let tick = self.bank.tick();
        let touches = self.sessions.sweep(now, keep_for, self.touch_every_ms());
        for session in touches {
            if let Err(e) = self.store.touch_session(session, now).await {
                tracing::warn!(error = %e, "could not store a session's last use");
            }
        }
        match self.store.expire_sessions(now.saturating_sub(idle)).await {
            Ok(n) => {
                self.sessions.counts.expired.fetch_add(n, Relaxed);
            }
            Err(e) => tracing::warn!(error = %e, "could not delete expired sessions"),
        }
        let idle_players: Vec<Uuid> =
            self.bank.idle(tick).into_iter().filter(|p| self.players.seated_tables(*p).is_empty()).collect();
        if idle_players.is_empty() {
            return;
        }
        // Their movements are stored before their accounts go (a reload reads the store).
        if !matches!(tokio::time::timeout(ACCOUNT_FLUSH_WAIT, self.writer.flush()).await, Ok(true)) {
            return;
        }
        // Under the cache's lock: a session cached before this keeps its account; one cached
        // after it loads (or opens) its account after caching itself.
        let n = self.sessions.with_cached_players(|cached| {
            let idle_players: Vec<Uuid> = idle_players.into_iter().filter(|p| !cached.contains(p)).collect();
            self.bank.forget(&idle_players, tick)
        });
        self.sessions.counts.accounts.fetch_add(u64::try_from(n).unwrap_or(0), Relaxed);
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

    /// The session's last hands from the store (with its player's tournament hands), newest
    /// first. Waits (up to `wait`) for the writer to store the hands finished before the call,
    /// so the newest is included.
    ///
    /// # Errors
    /// The writer is behind by more than `wait`, or the store cannot be reached.
    pub async fn last_hands(
        &self,
        session: &Session,
        wait: std::time::Duration,
    ) -> Result<Vec<StoredHand>, HistoryError> {
        match tokio::time::timeout(wait, self.writer.flush()).await {
            Ok(true) => {}
            Ok(false) | Err(_) => return Err(HistoryError::Behind),
        }
        let limit = u32::try_from(self.config.last_hands).unwrap_or(u32::MAX);
        Ok(self.store.session_hands(session.session_id, session.player_id, limit).await?)
    }
}

/// A session unused this long leaves memory (it stays valid in the store until it expires).
const CACHE_IDLE_MS: u64 = 10 * 60 * 1000;

/// How long loading an account (or dropping idle ones) waits for the writer.
const ACCOUNT_FLUSH_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The error of a store that is too far behind to read a balance from.
fn sqlx_timeout() -> sqlx::Error {
    sqlx::Error::PoolTimedOut
}

/// Runs [`App::sweep`] every [`App::sweep_every`] until `stop`.
pub async fn sweep_sessions(app: Arc<App>, stop: tokio_util::sync::CancellationToken) {
    let mut every = tokio::time::interval(app.sweep_every());
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            _ = every.tick() => app.sweep().await,
        }
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

impl TableEnv for App {
    fn metrics(&self) -> &crate::metrics::Metrics {
        &self.metrics
    }
    fn withdraw(&self, _table: Uuid, _n: u64, player: Uuid, chips: Chips) -> BoxFuture<'static, Result<(), Debit>> {
        let done =
            if self.bank.withdraw(player, chips) { Ok(()) } else { Err(Debit::Short(self.bank.balance(player))) };
        Box::pin(std::future::ready(done))
    }
    fn undo_withdraw(&self, _table: Uuid, _n: u64, player: Uuid, chips: Chips) {
        self.bank.deposit(player, chips);
    }
    fn deposit(&self, player: Uuid, chips: Chips) {
        self.bank.deposit(player, chips);
    }
    fn is_banned(&self, player: Uuid, table: Uuid) -> bool {
        self.access.is_banned(player, Some(table))
    }
    fn set_seated(&self, player: Uuid, table: Uuid, seated: bool) {
        self.players.set_seated(player, table, seated);
    }
    fn publish(&self, summary: TableSummary) {
        self.lobby.publish(summary);
    }
    fn table_stopped(&self, table: Uuid) {
        self.lobby.remove(table);
        self.access.forget_table(table);
    }
    fn journal(&self, row: JournalRow) -> BoxFuture<'static, Result<(), JournalError>> {
        self.journal.append(row)
    }
    fn journal_reset<'a>(
        &'a self,
        table: Uuid,
        n: u64,
        snapshot: &'a str,
    ) -> BoxFuture<'a, Result<(), stud_store::StoreError>> {
        self.journal.reset(table, n, snapshot)
    }
    fn store(&self, writes: TableWrites) {
        self.store_write(stud_store::Write::Table(Arc::new(writes)));
    }
    fn backlogged(&self) -> bool {
        self.writer.backlogged()
    }
    fn tournament_hand(&self, tournament: Uuid, table: Uuid, report: stud_table::LastReport) {
        self.tournaments.report(tournament, table, report);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_debug_shows_no_token() {
        let token = "0123456789abcdef0123456789abcdef-secret-token";
        let s = Session::new(token.into(), Uuid::nil(), Uuid::nil(), "Ann".into());
        for text in [format!("{s:?}"), format!("{s:#?}"), format!("{:?}", Arc::new(s))] {
            assert!(!text.contains(token) && !text.contains("secret"), "{text}");
            assert!(text.contains("Ann") && text.contains("<redacted>"), "{text}");
        }
    }
}
