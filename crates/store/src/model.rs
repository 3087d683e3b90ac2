//! The store's vocabulary: the plain values that go in and come out (sessions, tables, hands,
//! the ledger's entries and lines, journals, queries and their cursors, pool settings) and the
//! small conversions every backend shares (`now_ms`, `token_hash`, chips and times as `i64`).

use std::sync::Arc;
use std::time::Duration;

use sha2::{Digest, Sha256};
use stud_engine::{Chips, HandRecord, Seat, TableConfig, Variant};
use uuid::Uuid;

use crate::error::{Result, StoreError};

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

/// A live session with what a restarting server needs to greet its player without asking the
/// store again ([`crate::Store::live_sessions_of`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarmSession {
    /// sha256 of the session's token (hex), as stored
    pub token_hash: String,
    /// the session
    pub session: StoredSession,
    /// the player's account balance
    pub balance: Chips,
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
    pub(crate) fn encode(self) -> String {
        match self {
            BanScope::Server => "server".to_owned(),
            BanScope::Table(t) => t.to_string(),
        }
    }

    pub(crate) fn decode(text: &str) -> Option<BanScope> {
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
    /// account to a tournament: a rebuy's fee (into the prize pool)
    TournamentRebuy,
    /// account to a tournament: the add-on's fee (into the prize pool)
    TournamentAddon,
    /// a tournament's bounty to the account (the bounties are set aside from the buy-ins)
    TournamentBounty,
    /// a player's share of a deal at a tournament's final table (out of the prize pool)
    TournamentDeal,
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
            LedgerKind::TournamentRebuy => "tournament_rebuy",
            LedgerKind::TournamentAddon => "tournament_addon",
            LedgerKind::TournamentBounty => "tournament_bounty",
            LedgerKind::TournamentDeal => "tournament_deal",
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
            LedgerKind::BuyIn
            | LedgerKind::TopUp
            | LedgerKind::TournamentEntry
            | LedgerKind::TournamentRebuy
            | LedgerKind::TournamentAddon => (-x, x),
            LedgerKind::CashOut
            | LedgerKind::TournamentRefund
            | LedgerKind::TournamentPrize
            | LedgerKind::TournamentBounty
            | LedgerKind::TournamentDeal => (x, -x),
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

pub(crate) fn chips_i64(c: Chips) -> i64 {
    // Stacks are capped far below i64::MAX (the engine's MAX_CHIPS).
    i64::try_from(c).unwrap_or(i64::MAX)
}

pub(crate) fn ms_i64(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

pub(crate) fn to_u64(v: i64, what: &str) -> Result<u64> {
    u64::try_from(v).map_err(|_| StoreError::Corrupt(format!("negative {what}: {v}")))
}

pub(crate) fn variant_name(v: Variant) -> &'static str {
    v.name()
}
