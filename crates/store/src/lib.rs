//! Persistence for the stud server, behind one trait ([`Store`]) with two implementations
//! through sqlx: Postgres (production) and SQLite (the embedded default, so `cargo run`
//! needs nothing).
//!
//! What is stored: players and their guest sessions, tables (so they survive a restart),
//! every finished hand (its full [`HandRecord`]; PHH and text histories are rendered from it),
//! each seat's part in a hand, and the chip ledger with its running sums.
//!
//! Key decision: every chip movement is a [`Write`] that goes through one FIFO, the
//! [`writer`], and each batch is one transaction. The database therefore always holds a
//! prefix of the server's chip movements, each of them balanced, so after a crash it is
//! consistent: a hand whose result was not stored never happened, and the stacks stored are
//! those the players had before it (see [`Store::open_stacks`]).

/// The columns of `hands h` that make a [`StoredHand`] (a macro so `concat!` can build
/// `&'static` SQL from it).
macro_rules! hand_columns {
    () => {
        "h.id, h.table_id, h.number, h.started_at_ms, h.ended_at_ms, h.record, h.tournament_id, h.tournament_level"
    };
}

#[macro_use]
mod tournament;
#[macro_use]
mod common;
mod pg;
mod sqlite;
pub mod writer;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use sha2::{Digest, Sha256};
use stud_engine::{Chips, HandRecord, Seat, TableConfig, Variant};
use uuid::Uuid;

pub use pg::PgStore;
pub use sqlite::SqliteStore;
pub use writer::{Writer, WriterConfig, WriterStats, WriterTask};

/// A store error.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The URL names no backend we have.
    #[error("unsupported database URL {0:?}: use postgres://... or sqlite://...")]
    BadUrl(String),
    /// The database refused or could not be reached.
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    /// The schema could not be brought up to date.
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored value does not decode.
    #[error("stored data does not decode: {0}")]
    Corrupt(String),
    /// A change the records forbid (nothing was written).
    #[error("refused: {0}")]
    Refused(String),
}

/// Store results.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Which database a store talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// PostgreSQL
    Postgres,
    /// SQLite (a file, or memory)
    Sqlite,
}

/// A new guest session: a new player with an account holding `starting_balance`.
#[derive(Clone, Debug)]
pub struct NewSession {
    /// the player
    pub player_id: Uuid,
    /// the session
    pub session_id: Uuid,
    /// display name
    pub name: String,
    /// [`token_hash`] of the bearer token
    pub token_hash: String,
    /// play money issued to the new account
    pub starting_balance: Chips,
    /// ms since the Unix epoch
    pub created_at_ms: u64,
}

/// A stored session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSession {
    /// the player
    pub player_id: Uuid,
    /// the session
    pub session_id: Uuid,
    /// display name
    pub name: String,
}

/// A table: its rules and stakes.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTable {
    /// the table
    pub id: Uuid,
    /// display name
    pub name: String,
    /// rules and stakes
    pub config: TableConfig,
    /// smallest buy-in
    pub min_buy_in: Chips,
    /// largest buy-in
    pub max_buy_in: Chips,
    /// ms since the Unix epoch
    pub created_at_ms: u64,
    /// closed tables are kept for their history but not opened
    pub closed: bool,
    /// the server's settings for the table (JSON; the server owns the shape)
    pub settings: String,
}

/// An operator API key as stored (the key itself never is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperatorKey {
    /// the key's id
    pub id: Uuid,
    /// who or what it is for
    pub name: String,
    /// [`token_hash`] of the key
    pub key_hash: String,
    /// ms since the Unix epoch
    pub created_at_ms: u64,
    /// refused from now on
    pub revoked: bool,
}

/// One line of the operators' audit log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdminLogEntry {
    /// ms since the Unix epoch
    pub at_ms: u64,
    /// the key's name
    pub operator: String,
    /// what was done (`create_table`, `kick`, ...)
    pub action: String,
    /// to what (a table or player id)
    pub target: Option<String>,
    /// the request, as JSON
    pub detail: String,
}

/// Where a ban applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BanScope {
    /// every table
    Server,
    /// one table
    Table(Uuid),
}

impl BanScope {
    fn encode(self) -> String {
        match self {
            BanScope::Server => "server".to_owned(),
            BanScope::Table(t) => t.to_string(),
        }
    }

    fn decode(text: &str) -> Option<BanScope> {
        if text == "server" { Some(BanScope::Server) } else { Uuid::try_parse(text).ok().map(BanScope::Table) }
    }
}

/// A banned player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ban {
    /// who
    pub player_id: Uuid,
    /// where
    pub scope: BanScope,
    /// ms since the Unix epoch
    pub at_ms: u64,
    /// why
    pub reason: String,
}

/// One seat's part in a finished hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandSeat {
    /// the seat
    pub seat: Seat,
    /// who sat there
    pub player_id: Uuid,
    /// their session
    pub session_id: Uuid,
    /// their name at the time
    pub name: String,
    /// chips won minus chips put in
    pub net: i64,
    /// whether they were still in at showdown
    pub showdown: bool,
}

/// A finished hand as it is stored.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredHand {
    /// the hand
    pub hand_id: Uuid,
    /// the table
    pub table_id: Uuid,
    /// the table's hand counter
    pub number: u64,
    /// ms since the Unix epoch
    pub started_at_ms: u64,
    /// ms since the Unix epoch
    pub ended_at_ms: u64,
    /// the full record, seed included: never send it unfiltered to a player
    pub record: HandRecord,
    /// who played, by seat
    pub seats: Vec<HandSeat>,
    /// a tournament's hand (migration 0008): the seats' nets are tournament chips, not money,
    /// so they change no table stack's running sum and are no lines of the money ledger
    pub tournament: Option<HandTournament>,
}

/// The tournament a hand was played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandTournament {
    /// the tournament
    pub id: Uuid,
    /// the level the hand was dealt at, 1-based
    pub level: u32,
}

impl StoredHand {
    /// The seat `player` played, if they were dealt in.
    pub fn seat_of(&self, player: Uuid) -> Option<&HandSeat> {
        self.seats.iter().find(|s| s.player_id == player)
    }

    /// The game.
    pub fn variant(&self) -> Variant {
        self.record.config.variant
    }
}

/// What a ledger entry records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LedgerKind {
    /// new play money into an account
    Issue,
    /// account to a table stack
    BuyIn,
    /// account to a table stack, between hands
    TopUp,
    /// table stack back to the account
    CashOut,
    /// account to a tournament (entry fee + house fee; `table_id` is the tournament's id)
    TournamentEntry,
    /// tournament back to the account (unregistered, cancelled)
    TournamentRefund,
    /// a tournament's prize to the account (the prize pool is the entry fees)
    TournamentPrize,
}

impl LedgerKind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            LedgerKind::Issue => "issue",
            LedgerKind::BuyIn => "buy_in",
            LedgerKind::TopUp => "top_up",
            LedgerKind::CashOut => "cash_out",
            LedgerKind::TournamentEntry => "tournament_entry",
            LedgerKind::TournamentRefund => "tournament_refund",
            LedgerKind::TournamentPrize => "tournament_prize",
        }
    }
}

/// A chip movement between a player's account and their stack at a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerEntry {
    /// whose chips
    pub player_id: Uuid,
    /// the table (none for `issue`)
    pub table_id: Option<Uuid>,
    /// what
    pub kind: LedgerKind,
    /// chips moved: always positive; the kind gives the direction
    pub amount: Chips,
    /// ms since the Unix epoch
    pub at_ms: u64,
}

impl LedgerEntry {
    /// (balance delta, stack delta).
    pub fn deltas(&self) -> (i64, i64) {
        let x = chips_i64(self.amount);
        match self.kind {
            LedgerKind::Issue => (x, 0),
            LedgerKind::BuyIn | LedgerKind::TopUp | LedgerKind::TournamentEntry => (-x, x),
            LedgerKind::CashOut | LedgerKind::TournamentRefund | LedgerKind::TournamentPrize => (x, -x),
        }
    }
}

/// One item for the writer: a finished hand (with its seats' results, which are ledger
/// entries of kind `hand`), a chip movement, or what one journaled table input wrote.
#[derive(Clone, Debug)]
pub enum Write {
    /// a finished hand
    Hand(Arc<StoredHand>),
    /// a buy-in, top-up or cash-out
    Ledger(LedgerEntry),
    /// the writes of one table input, stored together with the table's mark (never split
    /// across transactions)
    Table(Arc<TableWrites>),
}

/// What one journaled input of a table wrote: its hands and chip movements, and the table's
/// snapshot when the input left it between hands. Storing it moves the table's `stored_n` to
/// `n` (a replay after a crash skips inputs up to there) and, with a snapshot, prunes the
/// journal up to `n`.
#[derive(Clone, Debug)]
pub struct TableWrites {
    /// the table
    pub table_id: Uuid,
    /// the input's number in the table's journal
    pub n: u64,
    /// hands and ledger entries (no nested `Table`)
    pub writes: Vec<Write>,
    /// the table's state after the input, if it was between hands
    pub snapshot: Option<String>,
}

/// One journal entry as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JournalRow {
    /// the table
    pub table_id: Uuid,
    /// the table's input number
    pub n: u64,
    /// ms since the Unix epoch
    pub at_ms: u64,
    /// the entry (the table owns the format)
    pub entry: String,
}

/// A table's journal as stored: where to resume from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableJournal {
    /// the table
    pub table_id: Uuid,
    /// the last snapshot stored and its input number
    pub snapshot: Option<(u64, String)>,
    /// the last input whose writes are stored
    pub stored_n: u64,
    /// the entries after the snapshot, in order: (n, entry)
    pub entries: Vec<(u64, String)>,
}

/// A player's chips on a table as the ledger has them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenStack {
    /// the table
    pub table_id: Uuid,
    /// the player
    pub player_id: Uuid,
    /// chips
    pub stack: Chips,
}

/// The ledger's totals: `issued == balances + on_tables` always.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LedgerTotals {
    /// all play money ever issued
    pub issued: i64,
    /// sum of account balances
    pub balances: i64,
    /// sum of stacks on tables
    pub on_tables: i64,
    /// sum of every ledger entry's balance and stack deltas, hands' nets included (checks the
    /// running sums)
    pub ledger_sum: i64,
}

impl LedgerTotals {
    /// Whether no chip was created or lost.
    pub fn conserved(&self) -> bool {
        self.issued == self.balances + self.on_tables && self.ledger_sum == self.issued
    }
}

/// An operator's hand search, newest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HandQuery {
    /// only this table
    pub table: Option<Uuid>,
    /// only hands this player was dealt into
    pub player: Option<Uuid>,
    /// only hands that ended at or after this time (ms since the Unix epoch)
    pub since_ms: Option<u64>,
    /// only hands older than this one (paging)
    pub before: Option<Cursor>,
    /// at most this many
    pub limit: u32,
}

/// A position in the newest-first order of hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// the last hand's end
    pub ended_at_ms: u64,
    /// the last hand
    pub hand_id: Uuid,
}

impl Cursor {
    /// The cursor after `hand`.
    pub fn after(hand: &StoredHand) -> Cursor {
        Cursor { ended_at_ms: hand.ended_at_ms, hand_id: hand.hand_id }
    }

    /// Opaque text form (`<ms>-<uuid>`).
    pub fn encode(&self) -> String {
        format!("{}-{}", self.ended_at_ms, self.hand_id.simple())
    }

    /// Parses [`Cursor::encode`].
    pub fn decode(text: &str) -> Option<Cursor> {
        let (ms, id) = text.split_once('-')?;
        Some(Cursor { ended_at_ms: ms.parse().ok()?, hand_id: Uuid::try_parse(id).ok()? })
    }
}

/// The storage interface. Implementations are cheap to share (`Arc<dyn Store>`).
pub trait Store: Send + Sync + 'static {
    /// Which database.
    fn backend(&self) -> Backend;

    /// Writes a batch in one transaction: all of it, or nothing.
    fn write_batch<'a>(&'a self, batch: &'a [Write]) -> BoxFuture<'a, Result<()>>;

    /// Creates a player, their session and their account (an `issue` entry), in one transaction.
    fn create_session<'a>(&'a self, session: &'a NewSession) -> BoxFuture<'a, Result<()>>;

    /// The session whose token hashes to `token_hash`.
    fn session_by_token<'a>(&'a self, token_hash: &'a str) -> BoxFuture<'a, Result<Option<StoredSession>>>;

    /// A player's account balance.
    fn balance(&self, player: Uuid) -> BoxFuture<'_, Result<Chips>>;

    /// Inserts or replaces a table.
    fn save_table<'a>(&'a self, table: &'a StoredTable) -> BoxFuture<'a, Result<()>>;

    /// Every table, oldest first.
    fn tables(&self) -> BoxFuture<'_, Result<Vec<StoredTable>>>;

    /// LAST HAND: the last `limit` hands of a session, with the tournament hands of its
    /// `player` (a tournament seat is the player's, whatever session they had), newest first.
    fn session_hands(&self, session: Uuid, player: Uuid, limit: u32) -> BoxFuture<'_, Result<Vec<StoredHand>>>;

    /// One hand.
    fn hand(&self, id: Uuid) -> BoxFuture<'_, Result<Option<StoredHand>>>;

    /// Hands matching a query, newest first.
    fn hands<'a>(&'a self, query: &'a HandQuery) -> BoxFuture<'a, Result<Vec<StoredHand>>>;

    /// The number of the table's newest stored hand (hand numbers go on after a restart).
    fn last_hand_number(&self, table: Uuid) -> BoxFuture<'_, Result<Option<u64>>>;

    /// Every non-zero stack on a table, as the ledger has it.
    fn open_stacks(&self) -> BoxFuture<'_, Result<Vec<OpenStack>>>;

    /// The ledger's totals.
    fn totals(&self) -> BoxFuture<'_, Result<LedgerTotals>>;

    /// Stores a new operator key.
    fn add_operator_key<'a>(&'a self, key: &'a OperatorKey) -> BoxFuture<'a, Result<()>>;

    /// The key (not revoked) whose hash is `key_hash`.
    fn operator_key<'a>(&'a self, key_hash: &'a str) -> BoxFuture<'a, Result<Option<OperatorKey>>>;

    /// Appends to the operators' audit log.
    fn log_admin<'a>(&'a self, entry: &'a AdminLogEntry) -> BoxFuture<'a, Result<()>>;

    /// The newest `limit` audit log lines, newest first.
    fn admin_log(&self, limit: u32) -> BoxFuture<'_, Result<Vec<AdminLogEntry>>>;

    /// Bans a player (again: replaces the reason).
    fn ban<'a>(&'a self, ban: &'a Ban) -> BoxFuture<'a, Result<()>>;

    /// Lifts a ban; returns whether there was one.
    fn unban(&self, player: Uuid, scope: BanScope) -> BoxFuture<'_, Result<bool>>;

    /// Every ban.
    fn bans(&self) -> BoxFuture<'_, Result<Vec<Ban>>>;

    /// Appends journal entries (of any tables) in one transaction: all of them, or none. An
    /// entry whose (table, n) is already stored fails the whole append.
    fn journal_append<'a>(&'a self, rows: &'a [JournalRow]) -> BoxFuture<'a, Result<()>>;

    /// Every table's journal: snapshot, stored mark and the entries after the snapshot.
    fn journals(&self) -> BoxFuture<'_, Result<Vec<TableJournal>>>;

    /// Starts a table's journal afresh at input `n` with `snapshot` (a new table, or one whose
    /// journal was voided): the state row is replaced and entries up to `n` are deleted.
    /// Refused ([`StoreError::Refused`], nothing changed) when the table's stored mark is past
    /// `n`: inputs numbered from `n` on would be taken for ones already stored and their
    /// writes left out, or an old holder's writes stored twice.
    fn journal_reset<'a>(&'a self, table: Uuid, n: u64, snapshot: &'a str) -> BoxFuture<'a, Result<()>>;

    /// Ledger lines (chip movements and hands' results) matching a query, newest first.
    fn ledger<'a>(&'a self, query: &'a LedgerQuery) -> BoxFuture<'a, Result<Vec<LedgerLine>>>;

    /// The session whose token hashes to `token_hash`, if it was last used at or after
    /// `used_since_ms` (an idle session has expired: it is never returned again).
    fn live_session<'a>(
        &'a self,
        token_hash: &'a str,
        used_since_ms: u64,
    ) -> BoxFuture<'a, Result<Option<StoredSession>>>;

    /// Records that the session was used at `at_ms` (never moves the mark back). The server
    /// calls it at most about once a minute per session.
    fn touch_session(&self, session: Uuid, at_ms: u64) -> BoxFuture<'_, Result<()>>;

    /// Deletes the sessions last used before `before_ms` (their players, balances and hands
    /// stay); returns how many.
    fn expire_sessions(&self, before_ms: u64) -> BoxFuture<'_, Result<u64>>;

    /// Deletes one session (a log out): its token never resolves again; its player, balance
    /// and hands stay. Returns whether it was there.
    fn delete_session(&self, session: Uuid) -> BoxFuture<'_, Result<bool>>;

    /// A session for the player that `subject` (an operator's user id) maps to: the first time,
    /// a new player with `session.player_id` and an account holding `session.starting_balance`,
    /// and the mapping, all in one transaction; later, the same player (`session.player_id` and
    /// `starting_balance` are then ignored). Returns the player's id.
    fn identity_session<'a>(&'a self, subject: &'a str, session: &'a NewSession) -> BoxFuture<'a, Result<Uuid>>;

    /// Stores a new tournament as of its first snapshot (input 0).
    fn tournament_create<'a>(&'a self, id: Uuid, at_ms: u64, snapshot: &'a str) -> BoxFuture<'a, Result<()>>;

    /// Stores one journaled tournament input with the ledger entries it causes, in one
    /// transaction (both or neither); with a snapshot, it becomes the tournament's and the
    /// journal is pruned up to it.
    fn tournament_commit<'a>(&'a self, commit: &'a TournamentCommit) -> BoxFuture<'a, Result<()>>;

    /// Every stored tournament: its snapshot and the journal entries after it.
    fn tournaments(&self) -> BoxFuture<'_, Result<Vec<StoredTournament>>>;

    /// Holds `amount` of `player`'s balance for input `n` of `table` (a buy-in or top-up a
    /// cluster worker is about to journal), in one transaction that locks the player's account
    /// row: held if the balance less what is already held covers it. `Ok(Err(available))`:
    /// refused, nothing held. Storing input `n`'s writes (the `buy_in`/`top_up` entry, the
    /// movement itself) releases the hold in the same transaction; holding `(table, n)` again
    /// replaces the hold.
    fn hold(&self, table: Uuid, n: u64, player: Uuid, amount: Chips) -> BoxFuture<'_, Result<Result<(), Chips>>>;

    /// Drops the hold of input `n` of `table` (the input was not journaled).
    fn release_hold(&self, table: Uuid, n: u64) -> BoxFuture<'_, Result<()>>;

    /// Drops `table`'s holds of inputs after `n`: a worker that takes a table over, its
    /// journal rebuilt up to input `n`, drops what a former holder held for inputs it never
    /// journaled (it crashed between the hold and the append), which nothing else would settle.
    fn release_holds_after(&self, table: Uuid, n: u64) -> BoxFuture<'_, Result<()>>;

    /// The chips held on `player`'s balance (tests and operators).
    fn held(&self, player: Uuid) -> BoxFuture<'_, Result<Chips>>;
}

pub use tournament::{StoredTournament, TournamentCommit};

/// A ledger search, newest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LedgerQuery {
    /// only this player's lines
    pub player: Option<Uuid>,
    /// only lines at this table
    pub table: Option<Uuid>,
    /// only lines at or after this time (ms since the Unix epoch)
    pub since_ms: Option<u64>,
    /// only lines older than this one (paging)
    pub before: Option<LedgerCursor>,
    /// at most this many
    pub limit: u32,
}

/// One line of the ledger as a player or an operator reads it: a chip movement (`issue`,
/// `buy_in`, `top_up`, `cash_out`) or one seat's result in a hand (`hand`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerLine {
    /// ms since the Unix epoch
    pub at_ms: u64,
    /// whose chips
    pub player_id: Uuid,
    /// the table (none for `issue`)
    pub table_id: Option<Uuid>,
    /// the hand (`hand` lines only)
    pub hand_id: Option<Uuid>,
    /// `issue`, `buy_in`, `top_up`, `cash_out` or `hand`
    pub kind: String,
    /// change of the player's account balance
    pub balance_delta: i64,
    /// change of the player's stack at the table
    pub stack_delta: i64,
    /// this line's place in the order (pass as `before` for the lines after it)
    pub cursor: LedgerCursor,
}

/// A position in the newest-first order of ledger lines: time, then movements before hands'
/// lines (at the same millisecond, a cash-out or top-up follows the hand it comes after), then
/// hand, then the line's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LedgerCursor {
    /// the line's time
    pub at_ms: u64,
    /// 0 for a hand's line, 1 for a movement
    pub source: i64,
    /// the hand (nil for a movement)
    pub hand_id: Uuid,
    /// the movement's id, or the hand's seat
    pub n: i64,
}

impl LedgerCursor {
    /// Opaque text form (`<ms>-<source>-<uuid>-<n>`).
    pub fn encode(&self) -> String {
        format!("{}-{}-{}-{}", self.at_ms, self.source, self.hand_id.simple(), self.n)
    }

    /// Parses [`LedgerCursor::encode`].
    pub fn decode(text: &str) -> Option<LedgerCursor> {
        let mut parts = text.split('-');
        let cursor = LedgerCursor {
            at_ms: parts.next()?.parse().ok()?,
            source: parts.next()?.parse().ok().filter(|s| *s == 0 || *s == 1)?,
            hand_id: Uuid::try_parse(parts.next()?).ok()?,
            n: parts.next()?.parse().ok()?,
        };
        parts.next().is_none().then_some(cursor)
    }
}

/// A row of the ledger query (`at_ms, src, n, hand_id, player_id, table_id, kind,
/// balance_delta, stack_delta`; nil ids stand for none).
fn ledger_row(r: &impl Cols) -> Result<LedgerLine> {
    let some = |id: Uuid| (!id.is_nil()).then_some(id);
    let at_ms = to_u64(r.int("at_ms")?, "time")?;
    let hand_id = r.uuid("hand_id")?;
    Ok(LedgerLine {
        at_ms,
        player_id: r.uuid("player_id")?,
        table_id: some(r.uuid("table_id")?),
        hand_id: some(hand_id),
        kind: r.text("kind")?,
        balance_delta: r.int("balance_delta")?,
        stack_delta: r.int("stack_delta")?,
        cursor: LedgerCursor { at_ms, source: r.int("src")?, hand_id, n: r.int("n")? },
    })
}

/// How the store's connection pools treat connections nobody uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolSettings {
    /// A pooled connection unused this long is closed (a quiet server gives back the memory
    /// its connections hold, and the database its backends); the pool opens one again when
    /// it is needed.
    pub idle_timeout: Duration,
}

impl Default for PoolSettings {
    /// Ten minutes, as sqlx and most pools do.
    fn default() -> PoolSettings {
        PoolSettings { idle_timeout: Duration::from_secs(600) }
    }
}

/// Opens the store a URL names (`postgres://…`, `postgresql://…`, `sqlite://…`,
/// `sqlite::memory:`) and brings its schema up to date.
///
/// # Errors
/// [`StoreError`] when the URL is not one of those, the database cannot be reached, or a
/// migration fails.
pub async fn open(url: &str) -> Result<Arc<dyn Store>> {
    open_with(url, PoolSettings::default()).await
}

/// [`open`], with the pools' settings.
///
/// # Errors
/// As [`open`].
pub async fn open_with(url: &str, pools: PoolSettings) -> Result<Arc<dyn Store>> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let options = sqlx::postgres::PgConnectOptions::from_str(url)?;
        Ok(Arc::new(PgStore::connect_pooled(options, pools).await?))
    } else if url.starts_with("sqlite:") {
        Ok(Arc::new(SqliteStore::connect_pooled(url, pools).await?))
    } else {
        Err(StoreError::BadUrl(url.to_owned()))
    }
}

/// sha256 of a bearer token, hex: what the store keeps instead of the token.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn chips_i64(c: Chips) -> i64 {
    // Stacks are capped far below i64::MAX (the engine's MAX_CHIPS).
    i64::try_from(c).unwrap_or(i64::MAX)
}

fn ms_i64(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

fn to_u64(v: i64, what: &str) -> Result<u64> {
    u64::try_from(v).map_err(|_| StoreError::Corrupt(format!("negative {what}: {v}")))
}

fn variant_name(v: Variant) -> &'static str {
    match v {
        Variant::Stud => "stud",
        Variant::Stud8 => "stud8",
        Variant::Razz => "razz",
    }
}

/// The writes of `batch` that were not stored yet. `stored`: the marks (`table_state.stored_n`)
/// of the batch's tables, read in the batch's transaction with their rows locked. A table's
/// group whose input number is at or below its mark, or at or below a group of the same table
/// earlier in the batch, is left out: its writes are stored already, by this process or by a
/// worker that held the table before (a worker paused past its lease still has its writer, and
/// the new holder queues the writes past the mark again when it rebuilds the table; an input's
/// number names the same input, and so the same writes, on both, because the journal takes each
/// number once). A table without a mark is not fenced. Returns the writes kept and how many
/// groups were left out.
fn unstored(batch: &[Write], stored: &std::collections::HashMap<Uuid, i64>) -> (Vec<Write>, usize) {
    let mut marks = stored.clone();
    let mut kept = Vec::with_capacity(batch.len());
    let mut skipped = 0;
    for w in batch {
        if let Write::Table(t) = w {
            let n = ms_i64(t.n);
            if let Some(mark) = marks.get_mut(&t.table_id) {
                if n <= *mark {
                    skipped += 1;
                    continue;
                }
                *mark = n;
            }
        }
        kept.push(w.clone());
    }
    (kept, skipped)
}

/// The tables with a group in `batch`, sorted (rows are locked in this order).
fn batch_tables(batch: &[Write]) -> Vec<Uuid> {
    let mut tables: Vec<Uuid> =
        batch.iter().filter_map(|w| if let Write::Table(t) = w { Some(t.table_id) } else { None }).collect();
    tables.sort_unstable();
    tables.dedup();
    tables
}

/// A batch laid out in columns, the same for both backends.
#[derive(Default)]
struct Plan {
    hand_id: Vec<Uuid>,
    hand_table: Vec<Uuid>,
    hand_number: Vec<i64>,
    hand_variant: Vec<&'static str>,
    hand_started: Vec<i64>,
    hand_ended: Vec<i64>,
    hand_commitment: Vec<Option<String>>,
    hand_seed: Vec<Option<String>>,
    hand_record: Vec<String>,
    hand_tournament: Vec<Option<Uuid>>,
    hand_level: Vec<Option<i64>>,
    seat_hand: Vec<Uuid>,
    seat_no: Vec<i16>,
    seat_player: Vec<Uuid>,
    seat_session: Vec<Uuid>,
    seat_name: Vec<String>,
    seat_net: Vec<i64>,
    seat_showdown: Vec<bool>,
    seat_ended: Vec<i64>,
    ledger: Vec<LedgerRow>,
    /// net balance change per player
    accounts: Vec<(Uuid, i64)>,
    /// net stack change per (table, player)
    stacks: Vec<(Uuid, Uuid, i64)>,
    /// per table: the last input whose writes this batch stores
    marks: Vec<(Uuid, i64)>,
    /// per table: the last snapshot in this batch (table, n, snapshot)
    snapshots: Vec<(Uuid, i64, String)>,
}

struct LedgerRow {
    at_ms: i64,
    player_id: Uuid,
    table_id: Option<Uuid>,
    kind: &'static str,
    balance_delta: i64,
    stack_delta: i64,
}

impl Plan {
    fn new(batch: &[Write]) -> Result<Plan> {
        use std::collections::HashMap;
        let mut p = Plan::default();
        let mut accounts: HashMap<Uuid, i64> = HashMap::new();
        let mut stacks: HashMap<(Uuid, Uuid), i64> = HashMap::new();
        let mut marks: HashMap<Uuid, i64> = HashMap::new();
        let mut snapshots: HashMap<Uuid, (i64, String)> = HashMap::new();
        let mut flat: Vec<&Write> = Vec::with_capacity(batch.len());
        for w in batch {
            if let Write::Table(t) = w {
                let n = ms_i64(t.n);
                let mark = marks.entry(t.table_id).or_insert(n);
                *mark = (*mark).max(n);
                if let Some(snapshot) = &t.snapshot {
                    // Batches keep the writer's order: the last snapshot of a table is its newest.
                    snapshots.insert(t.table_id, (n, snapshot.clone()));
                }
                flat.extend(t.writes.iter().filter(|w| !matches!(w, Write::Table(_))));
            } else {
                flat.push(w);
            }
        }
        for w in flat {
            match w {
                Write::Table(_) => {}
                Write::Hand(h) => {
                    let record = serde_json::to_string(&h.record).map_err(|e| StoreError::Corrupt(e.to_string()))?;
                    p.hand_id.push(h.hand_id);
                    p.hand_table.push(h.table_id);
                    p.hand_number.push(ms_i64(h.number));
                    p.hand_variant.push(variant_name(h.variant()));
                    p.hand_started.push(ms_i64(h.started_at_ms));
                    p.hand_ended.push(ms_i64(h.ended_at_ms));
                    p.hand_commitment.push(h.record.commitment.clone());
                    p.hand_seed.push(h.record.seed.clone());
                    p.hand_record.push(record);
                    p.hand_tournament.push(h.tournament.map(|t| t.id));
                    p.hand_level.push(h.tournament.map(|t| i64::from(t.level)));
                    for s in &h.seats {
                        p.seat_hand.push(h.hand_id);
                        p.seat_no.push(i16::from(s.seat.number()));
                        p.seat_player.push(s.player_id);
                        p.seat_session.push(s.session_id);
                        p.seat_name.push(s.name.clone());
                        p.seat_net.push(s.net);
                        p.seat_showdown.push(s.showdown);
                        p.seat_ended.push(ms_i64(h.ended_at_ms));
                        // The seat row is the hand's ledger entry (stack +net); tournament
                        // chips are not money (each hand's nets sum to 0 either way).
                        if h.tournament.is_none() {
                            *stacks.entry((h.table_id, s.player_id)).or_default() += s.net;
                        }
                    }
                }
                Write::Ledger(e) => {
                    let (balance_delta, stack_delta) = e.deltas();
                    p.ledger.push(LedgerRow {
                        at_ms: ms_i64(e.at_ms),
                        player_id: e.player_id,
                        table_id: e.table_id,
                        kind: e.kind.as_str(),
                        balance_delta,
                        stack_delta,
                    });
                    *accounts.entry(e.player_id).or_default() += balance_delta;
                    if let Some(t) = e.table_id {
                        *stacks.entry((t, e.player_id)).or_default() += stack_delta;
                    }
                }
            }
        }
        p.marks = marks.into_iter().collect();
        p.marks.sort_unstable();
        p.snapshots = snapshots.into_iter().map(|(t, (n, s))| (t, n, s)).collect();
        p.snapshots.sort_unstable_by_key(|s| s.0);
        p.accounts = accounts.into_iter().filter(|(_, d)| *d != 0).collect();
        p.stacks = stacks.into_iter().filter(|(_, d)| *d != 0).map(|((t, pl), d)| (t, pl, d)).collect();
        // A fixed order keeps concurrent writers (several servers on one database) from
        // deadlocking on the running sums.
        p.accounts.sort_unstable();
        p.stacks.sort_unstable();
        Ok(p)
    }
}

/// A result row of either backend, read by column name.
trait Cols {
    fn uuid(&self, column: &str) -> Result<Uuid>;
    fn int(&self, column: &str) -> Result<i64>;
    fn text(&self, column: &str) -> Result<String>;
    fn opt_text(&self, column: &str) -> Result<Option<String>>;
    fn opt_uuid(&self, column: &str) -> Result<Option<Uuid>>;
    fn opt_int(&self, column: &str) -> Result<Option<i64>>;
    fn flag(&self, column: &str) -> Result<bool>;
}

/// `hand_columns!()` of a row (seats are attached separately).
fn hand_row(r: &impl Cols) -> Result<StoredHand> {
    let hand_id = r.uuid("id")?;
    let record: HandRecord =
        serde_json::from_str(&r.text("record")?).map_err(|e| StoreError::Corrupt(format!("hand {hand_id}: {e}")))?;
    Ok(StoredHand {
        hand_id,
        table_id: r.uuid("table_id")?,
        number: to_u64(r.int("number")?, "hand number")?,
        started_at_ms: to_u64(r.int("started_at_ms")?, "time")?,
        ended_at_ms: to_u64(r.int("ended_at_ms")?, "time")?,
        record,
        seats: Vec::new(),
        tournament: match (r.opt_uuid("tournament_id")?, r.opt_int("tournament_level")?) {
            (Some(id), Some(level)) => Some(HandTournament {
                id,
                level: u32::try_from(level)
                    .map_err(|_| StoreError::Corrupt(format!("hand {hand_id}: level {level}")))?,
            }),
            _ => None,
        },
    })
}

/// A `hand_seats` row: (hand, seat).
fn seat_row(r: &impl Cols) -> Result<(Uuid, HandSeat)> {
    let n = r.int("seat")?;
    let seat = u8::try_from(n).ok().and_then(Seat::new).ok_or_else(|| StoreError::Corrupt(format!("seat {n}")))?;
    Ok((
        r.uuid("hand_id")?,
        HandSeat {
            seat,
            player_id: r.uuid("player_id")?,
            session_id: r.uuid("session_id")?,
            name: r.text("name")?,
            net: r.int("net")?,
            showdown: r.flag("showdown")?,
        },
    ))
}

fn table_row(r: &impl Cols) -> Result<StoredTable> {
    let id = r.uuid("id")?;
    let config: TableConfig =
        serde_json::from_str(&r.text("config")?).map_err(|e| StoreError::Corrupt(format!("table {id}: {e}")))?;
    Ok(StoredTable {
        id,
        name: r.text("name")?,
        config,
        min_buy_in: to_u64(r.int("min_buy_in")?, "buy-in")?,
        max_buy_in: to_u64(r.int("max_buy_in")?, "buy-in")?,
        created_at_ms: to_u64(r.int("created_at_ms")?, "time")?,
        closed: r.flag("closed")?,
        settings: r.text("settings")?,
    })
}

fn key_row(r: &impl Cols) -> Result<OperatorKey> {
    Ok(OperatorKey {
        id: r.uuid("id")?,
        name: r.text("name")?,
        key_hash: r.text("key_hash")?,
        created_at_ms: to_u64(r.int("created_at_ms")?, "time")?,
        revoked: r.flag("revoked")?,
    })
}

fn log_row(r: &impl Cols) -> Result<AdminLogEntry> {
    Ok(AdminLogEntry {
        at_ms: to_u64(r.int("at_ms")?, "time")?,
        operator: r.text("operator")?,
        action: r.text("action")?,
        target: r.opt_text("target")?,
        detail: r.text("detail")?,
    })
}

fn ban_row(r: &impl Cols) -> Result<Ban> {
    let scope = r.text("scope")?;
    Ok(Ban {
        player_id: r.uuid("player_id")?,
        scope: BanScope::decode(&scope).ok_or_else(|| StoreError::Corrupt(format!("ban scope {scope}")))?,
        at_ms: to_u64(r.int("at_ms")?, "time")?,
        reason: r.text("reason")?,
    })
}

fn session_row(r: &impl Cols) -> Result<StoredSession> {
    Ok(StoredSession { session_id: r.uuid("id")?, player_id: r.uuid("player_id")?, name: r.text("name")? })
}

fn stack_row(r: &impl Cols) -> Result<OpenStack> {
    Ok(OpenStack {
        table_id: r.uuid("table_id")?,
        player_id: r.uuid("player_id")?,
        stack: to_u64(r.int("stack")?, "stack")?,
    })
}

fn totals_row(r: &impl Cols) -> Result<LedgerTotals> {
    Ok(LedgerTotals {
        issued: r.int("issued")?,
        balances: r.int("balances")?,
        on_tables: r.int("on_tables")?,
        ledger_sum: r.int("ledger_sum")?,
    })
}

fn encode_table(t: &StoredTable) -> Result<String> {
    serde_json::to_string(&t.config).map_err(|e| StoreError::Corrupt(e.to_string()))
}

/// Puts each hand's seats (from a seat query, in any order) into the hands, keeping the
/// hands' order.
fn attach_seats(hands: &mut [StoredHand], seats: Vec<(Uuid, HandSeat)>) {
    let index: std::collections::HashMap<Uuid, usize> = hands.iter().enumerate().map(|(i, h)| (h.hand_id, i)).collect();
    for (hand, seat) in seats {
        if let Some(&i) = index.get(&hand) {
            hands[i].seats.push(seat);
        }
    }
    for h in hands {
        h.seats.sort_by_key(|s| s.seat);
    }
}
