//! Table tasks: one tokio task per table owns its [`TableCore`] (seats, clock, hand: the pure
//! state machine of `stud_table`). A [`TableHandle`] (a bounded mpsc of boxed commands) is the
//! only way in. The task is a thin loop: receive, stamp the time, journal, apply, deliver the
//! outputs (`actor`); subscribers' queues and lagging clients are `delivery`'s. It awaits only
//! the journal, never a client or the store writer.

mod actor;
mod delivery;
mod env;
mod handle;
mod spec;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use stud_table::TableCore;
use tokio::sync::mpsc;

pub use actor::run_table;
pub(crate) use actor::{ledger, stored_hand};
pub(crate) use delivery::{LAG_LIMIT, LAG_POLL};
pub use env::{Debit, Start, TableEnv};
pub use handle::{Act, Conn, RemoteTables, TableCmd, TableGone, TableHandle, TableStatus, TournamentTableState};
pub use spec::{SpecExt, TableSpec};

/// Starts a table task on `core` that uses `env` (the `App`; a cluster's worker publishes what the table tells it); returns its handle.
pub fn spawn_table_with(
    env: Arc<dyn TableEnv>,
    queue: usize,
    core: TableCore,
    start: Start,
) -> (TableHandle, tokio::task::JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(queue);
    let handle = TableHandle::local(core.spec().id, tx);
    let task = tokio::spawn(run_table(env, core, start, rx));
    (handle, task)
}
