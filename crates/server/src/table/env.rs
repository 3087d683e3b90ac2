//! What a table task needs of the server ([`TableEnv`]) and how it begins ([`Start`]).

use futures_util::future::BoxFuture;
use stud_engine::Chips;
use stud_proto::TableSummary;
use stud_store::{JournalRow, TableWrites};
use stud_table::LastReport;
use uuid::Uuid;

use crate::journal::JournalError;

/// The few things of the server a table task uses (the `App` is one).
pub trait TableEnv: Send + Sync + 'static {
    /// Counters.
    fn metrics(&self) -> &crate::metrics::Metrics;
    /// Takes chips from an account for the input numbered `n` of `table` (a buy-in or top-up),
    /// before it is journaled; refused, it changes nothing. The single process takes them from
    /// its `Bank` at once; a cluster worker holds them on the balance in the shared store (see
    /// `Store::hold`), so two workers never spend the same chips.
    fn withdraw(&self, table: Uuid, n: u64, player: Uuid, chips: Chips) -> BoxFuture<'static, Result<(), Debit>>;
    /// Gives back what [`TableEnv::withdraw`] took for an input that was not journaled.
    fn undo_withdraw(&self, table: Uuid, n: u64, player: Uuid, chips: Chips);
    /// Puts chips in an account (a cash-out).
    fn deposit(&self, player: Uuid, chips: Chips);
    /// Whether the player may not play at this table.
    fn is_banned(&self, player: Uuid, table: Uuid) -> bool;
    /// Who is seated where.
    fn set_seated(&self, player: Uuid, table: Uuid, seated: bool);
    /// The table's lobby line.
    fn publish(&self, summary: TableSummary);
    /// The table's task has ended.
    fn table_stopped(&self, table: Uuid);
    /// Makes one journal entry durable.
    fn journal(&self, row: JournalRow) -> BoxFuture<'static, Result<(), JournalError>>;
    /// Starts a table's journal at input `n` with `snapshot`.
    fn journal_reset<'a>(
        &'a self,
        table: Uuid,
        n: u64,
        snapshot: &'a str,
    ) -> BoxFuture<'a, Result<(), stud_store::StoreError>>;
    /// Queues one input's writes for the store (never waits).
    fn store(&self, writes: TableWrites);
    /// Whether the store writer is too far behind for a new hand.
    fn backlogged(&self) -> bool;
    /// A tournament table's hand ended: every player dealt in, their chips now and who
    /// busted whom (never waits; the tournament's task takes it from there).
    fn tournament_hand(&self, _tournament: Uuid, _table: Uuid, _report: LastReport) {}
    /// The table has queued every frame of one command (or wake-up) in its subscribers'
    /// outboxes: a cluster worker publishes them now, each frame once per gateway.
    fn sent(&self) {}
}

/// Why a debit was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Debit {
    /// the account has only this much (not held elsewhere)
    Short(Chips),
    /// the store that keeps the balance could not be asked
    Unavailable,
}

/// How a table task begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// a new table (or one whose journal was voided): its journal starts at its snapshot
    Fresh,
    /// rebuilt from its journal: the hand in progress goes on
    Resumed,
    /// a new table whose journal the caller has already started
    Started,
}
