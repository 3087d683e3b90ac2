//! Table actors: one tokio task per table owns its engine `Hand`, its seats and its clock.
//! A [`TableHandle`] (bounded mpsc) is the only way in. Handling a command is synchronous:
//! apply it, then queue each subscriber its own frames with `try_send`; the loop never awaits
//! a client or a store.

mod actor;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use tokio::time::Instant;

use stud_engine::{Action, Chips, TableConfig};
use stud_proto::RequestId;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::app::{App, Session};
use crate::wire::Frame;

pub use actor::run_table;

/// What a table needs to reach one connection.
#[derive(Clone, Debug)]
pub struct Conn {
    /// unique per socket
    pub id: u64,
    /// who is connected
    pub session: Arc<Session>,
    /// the socket's bounded outbound queue
    pub outbox: mpsc::Sender<Frame>,
    /// cancel to drop a client that cannot keep up
    pub kick: CancellationToken,
}

/// A command for a table.
#[derive(Debug)]
pub enum TableCmd {
    /// Subscribe a connection (observer, or the seated player's own view).
    Join {
        /// the connection
        conn: Conn,
        /// echoed
        request_id: RequestId,
    },
    /// Take a seat.
    Sit {
        /// the connection (must have joined)
        conn_id: u64,
        /// echoed
        request_id: RequestId,
        /// a seat 1..=8 or the first free one
        seat: Option<u8>,
        /// chips to bring
        buy_in: Chips,
    },
    /// Act in the hand.
    Act {
        /// the connection (must have joined)
        conn_id: u64,
        /// echoed
        request_id: RequestId,
        /// the hand the client means
        hand_id: Uuid,
        /// the prompt it answers
        seq: u64,
        /// de-duplication key
        key: String,
        /// the action
        action: Action,
        /// when the frame arrived (for the latency histogram)
        received: Instant,
    },
    /// Sit out (true) or back in (false) from the next hand.
    SitOut {
        /// the connection
        conn_id: u64,
        /// echoed
        request_id: RequestId,
        /// out or in
        out: bool,
    },
    /// Add chips between hands.
    TopUp {
        /// the connection
        conn_id: u64,
        /// echoed
        request_id: RequestId,
        /// chips
        amount: Chips,
    },
    /// Leave the seat and stop watching.
    Leave {
        /// the connection
        conn_id: u64,
        /// echoed
        request_id: RequestId,
    },
    /// Send a fresh snapshot.
    Snapshot {
        /// the connection
        conn_id: u64,
        /// echoed
        request_id: RequestId,
    },
    /// The socket closed.
    Disconnect {
        /// the connection
        conn_id: u64,
    },
    /// Stop: cash everyone out (the current hand is abandoned and its chips restored).
    Shutdown {
        /// answered when done
        reply: oneshot::Sender<()>,
    },
}

/// The way into a table.
#[derive(Clone, Debug)]
pub struct TableHandle {
    /// the table
    pub id: Uuid,
    tx: mpsc::Sender<TableCmd>,
}

impl TableHandle {
    /// Queues a command, waiting if the table's queue is full.
    ///
    /// # Errors
    /// The table has stopped.
    pub async fn send(&self, cmd: TableCmd) -> Result<(), TableGone> {
        self.tx.send(cmd).await.map_err(|_| TableGone)
    }

    /// Queues a command without waiting.
    ///
    /// # Errors
    /// The table has stopped or its queue is full.
    pub fn try_send(&self, cmd: TableCmd) -> Result<(), TableGone> {
        self.tx.try_send(cmd).map_err(|_| TableGone)
    }
}

/// The table is not running any more.
#[derive(Debug, thiserror::Error)]
#[error("the table has stopped")]
pub struct TableGone;

/// What a table is: its rules, stakes and name.
#[derive(Clone, Debug)]
pub struct TableSpec {
    /// the table
    pub id: Uuid,
    /// display name
    pub name: String,
    /// rules and stakes
    pub config: TableConfig,
    /// buy-in range
    pub min_buy_in: Chips,
    /// buy-in range
    pub max_buy_in: Chips,
}

/// Starts a table task; returns its handle.
pub fn spawn_table(app: Arc<App>, spec: TableSpec) -> (TableHandle, tokio::task::JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(app.config.table_queue);
    let handle = TableHandle { id: spec.id, tx };
    let task = tokio::spawn(run_table(app, spec, rx));
    (handle, task)
}
