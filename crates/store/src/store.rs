//! The storage interface every backend implements.

use futures_util::future::BoxFuture;
use stud_engine::Chips;
use uuid::Uuid;

use crate::error::Result;
use crate::model::{
    AdminLogEntry, Backend, Ban, BanScope, HandQuery, JournalRow, LedgerLine, LedgerQuery, LedgerTotals, NewSession,
    OpenStack, OperatorKey, StoredHand, StoredSession, StoredTable, TableJournal, WarmSession, Write,
};
use crate::tournament::{StoredTournament, TournamentCommit};

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

    /// Tables stored closed with chips still on them: an operator's close that a stop (a
    /// crash, SIGTERM, a worker lost) interrupted mid-hand. They resume to finish that hand,
    /// then close.
    fn closing_tables(&self) -> BoxFuture<'_, Result<Vec<Uuid>>>;

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

    /// Every table's snapshot mark: (table, the input number of its stored snapshot). A journal
    /// kept outside the database drops the entries at or below it.
    fn journal_marks(&self) -> BoxFuture<'_, Result<Vec<(Uuid, u64)>>>;

    /// Starts a table's journal afresh at input `n` with `snapshot` (a new table, or one whose
    /// journal was voided): the state row is replaced and entries up to `n` are deleted.
    /// Refused ([`StoreError::Refused`], nothing changed) when the table's stored mark is past
    /// `n`: inputs numbered from `n` on would be taken for ones already stored and their
    /// writes left out, or an old holder's writes stored twice.
    ///
    /// [`StoreError::Refused`]: crate::error::StoreError::Refused
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

    /// The live sessions (last used at or after `used_since_ms`) of `players`, with their token
    /// hashes and the players' balances: what a restarting server warms its memory with, so
    /// the players of its resumed tables reconnect without a store read each.
    fn live_sessions_of<'a>(
        &'a self,
        players: &'a [Uuid],
        used_since_ms: u64,
    ) -> BoxFuture<'a, Result<Vec<WarmSession>>>;

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
    ///
    /// # Errors
    /// [`StoreError::Refused`] when the tournament's director epoch is newer than
    /// `commit.epoch` ([`Store::tournament_fence`]): a former director's late input; nothing was
    /// written.
    fn tournament_commit<'a>(&'a self, commit: &'a TournamentCommit) -> BoxFuture<'a, Result<()>>;

    /// A cluster gateway taking tournament `id` over with lease epoch `epoch` (which only grows)
    /// makes it the tournament's, before it rebuilds the tournament: from then on only its
    /// commits are stored. False when a newer epoch holds it already (or no such tournament).
    fn tournament_fence(&self, id: Uuid, epoch: u64) -> BoxFuture<'_, Result<bool>>;

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
