//! The way into a table: [`TableCmd`] (every command a table task takes), [`TableHandle`]
//! (a bounded queue to a task in this process, or [`RemoteTables`] for a table hosted
//! elsewhere) and [`Conn`] (what a table needs to reach one socket).
//!
//! Key decision: single-process code never names the cluster. A cluster's gateway implements
//! [`RemoteTables`]; a handle holding one forwards every command to it.

use std::sync::Arc;
use tokio::time::Instant;

use futures_util::future::BoxFuture;
use stud_engine::{Action, Chips, TableConfig};
use stud_proto::RequestId;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::session::Session;
use stud_table::TableSpec;

/// Tables hosted elsewhere (a cluster's workers), reached by table id.
pub trait RemoteTables: Send + Sync + std::fmt::Debug + 'static {
    /// Delivers a command to the table's host.
    ///
    /// # Errors
    /// The host cannot be reached.
    fn send(&self, table: Uuid, cmd: TableCmd) -> BoxFuture<'_, Result<(), TableGone>>;
    /// The hosts' table counters (for `/metrics`).
    fn table_counts(&self) -> Vec<crate::metrics::TableCounts>;
}

/// What a tournament's task asks of one of its tables between hands (after a restart).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TournamentTableState {
    /// a hand is being played
    pub in_play: bool,
    /// a hand the tournament allowed waits to be dealt
    pub deal_pending: bool,
    /// the seated players and their chips
    pub stacks: Vec<(Uuid, Chips)>,
    /// the number of the hand waiting to be dealt or in play
    pub deal: Option<u64>,
    /// the last hand's report, as it was sent (kept durable by the table)
    pub last_report: Option<stud_table::LastReport>,
}

/// What a table needs to reach one connection.
#[derive(Clone, Debug)]
pub struct Conn {
    /// unique per socket
    pub id: u64,
    /// who is connected
    pub session: Arc<Session>,
    /// the socket's bounded outbound queue
    pub outbox: crate::outbox::Outbox,
    /// cancel to drop a client that cannot keep up
    pub kick: CancellationToken,
}

/// A table's live status for operators.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableStatus {
    /// the hand in play
    pub hand: Option<Uuid>,
    /// hands played since the table opened
    pub hands: u64,
    /// who sits where
    pub seats: Vec<stud_proto::SeatInfo>,
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
        /// an explicit `join_table` (to watch), not the subscription that comes with `sit`
        watch: bool,
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
        /// the action and the prompt it answers (boxed: the largest command would size every
        /// slot of every table's queue, idle or not)
        act: Box<Act>,
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
    /// Auto-muck on or off for the connection's seat.
    AutoMuck {
        /// the connection
        conn_id: u64,
        /// echoed
        request_id: RequestId,
        /// on or off
        on: bool,
    },
    /// Join (true) or leave (false) the table's waiting list.
    Waitlist {
        /// the connection
        conn_id: u64,
        /// echoed
        request_id: RequestId,
        /// join or leave
        on: bool,
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
    /// A connection that missed frames (it lagged at its gateway): a fresh snapshot and, if
    /// it is its turn, its prompt. Not a request: nothing else is answered.
    Resync {
        /// the connection
        conn_id: u64,
    },
    /// A chat message.
    Chat {
        /// the connection
        conn_id: u64,
        /// echoed
        request_id: RequestId,
        /// what was written
        text: String,
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
    /// Operators: new settings, from the next hand.
    Update {
        /// the new spec (same id)
        spec: Box<TableSpec>,
        /// answered when taken
        reply: oneshot::Sender<()>,
    },
    /// Operators: no new hands (true) or hands again (false).
    Pause {
        /// paused or not
        paused: bool,
        /// answered when taken
        reply: oneshot::Sender<()>,
    },
    /// Operators: finish the current hand, cash everyone out, stop.
    Close {
        /// answered when the table has stopped
        reply: oneshot::Sender<()>,
    },
    /// Operators: remove a player.
    Kick {
        /// who
        player: Uuid,
        /// give their hand up at once (else they go after the current hand)
        now: bool,
        /// whether they had a seat or a connection here
        reply: oneshot::Sender<bool>,
    },
    /// Operators: the live status.
    Status {
        /// the hand in play, hands played, who sits where
        reply: oneshot::Sender<TableStatus>,
    },
    /// Tournaments: seat a player with tournament chips.
    TournamentSeat {
        /// who (boxed, as [`TableCmd::Act`]'s action)
        who: Box<stud_table::Who>,
        /// the seat the tournament drew
        seat: u8,
        /// tournament chips
        chips: Chips,
    },
    /// Tournaments: between hands, a player's stack becomes `chips` (a rebuy, the add-on);
    /// seated again at `seat` if the table let them go when they busted.
    TournamentChips {
        /// who (boxed, as [`TableCmd::Act`]'s action)
        who: Box<stud_table::Who>,
        /// their seat in the tournament's floor
        seat: u8,
        /// tournament chips now
        chips: Chips,
    },
    /// Tournaments: take a player away (moved to another table).
    TournamentUnseat {
        /// who
        player: Uuid,
    },
    /// Tournaments: deal the next hand with the level's stakes to these players.
    Deal {
        /// the game and stakes (boxed, as [`TableCmd::Act`]'s action)
        config: Box<TableConfig>,
        /// the level (1-based)
        level: u32,
        /// who is dealt in
        players: Vec<Uuid>,
        /// the hand's number at this table (its report gives it back)
        deal: u64,
    },
    /// Tournaments: the table's seats and whether it is in a hand.
    TournamentState {
        /// the answer
        reply: oneshot::Sender<TournamentTableState>,
    },
}

/// An action, as [`TableCmd::Act`] carries it.
#[derive(Debug)]
pub struct Act {
    /// the hand the client means
    pub hand_id: Uuid,
    /// the prompt it answers
    pub seq: u64,
    /// de-duplication key
    pub key: String,
    /// the action
    pub action: Action,
    /// when the frame arrived (for the latency histogram)
    pub received: Instant,
}

/// The way into a table.
#[derive(Clone, Debug)]
pub struct TableHandle {
    /// the table
    pub id: Uuid,
    tx: Route,
}

/// Where a table's commands go: its task in this process, or (a cluster's gateway) the
/// worker that holds it, over NATS.
#[derive(Clone, Debug)]
enum Route {
    Local(mpsc::Sender<Box<TableCmd>>),
    Remote(Arc<dyn RemoteTables>),
}

impl TableHandle {
    /// A table whose task runs in this process, on the other end of `tx`.
    pub(crate) fn local(id: Uuid, tx: mpsc::Sender<Box<TableCmd>>) -> TableHandle {
        TableHandle { id, tx: Route::Local(tx) }
    }

    /// A table hosted elsewhere (by a cluster's worker), reached through `remote`.
    pub fn remote(id: Uuid, remote: Arc<dyn RemoteTables>) -> TableHandle {
        TableHandle { id, tx: Route::Remote(remote) }
    }

    /// Queues a command, waiting if the table's queue is full.
    ///
    /// # Errors
    /// The table has stopped (or, in a cluster, NATS cannot be reached).
    pub async fn send(&self, cmd: TableCmd) -> Result<(), TableGone> {
        match &self.tx {
            Route::Local(tx) => tx.send(Box::new(cmd)).await.map_err(|_| TableGone::Stopped),
            Route::Remote(gw) => gw.send(self.id, cmd).await,
        }
    }

    /// Queues a command without waiting.
    ///
    /// # Errors
    /// The table has stopped or its queue is full.
    pub fn try_send(&self, cmd: TableCmd) -> Result<(), TableGone> {
        match &self.tx {
            Route::Local(tx) => tx.try_send(Box::new(cmd)).map_err(|_| TableGone::Stopped),
            Route::Remote(gw) => {
                let (gw, id) = (gw.clone(), self.id);
                tokio::spawn(async move { gw.send(id, cmd).await });
                Ok(())
            }
        }
    }
}

/// A command that did not reach its table.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableGone {
    /// The table is not running any more.
    #[error("the table has stopped")]
    Stopped,
    /// The table's host cannot be reached now (a cluster whose NATS does not answer): it may
    /// be running, and a retry may reach it.
    #[error("the cluster cannot be reached")]
    Unreachable,
}
