//! Table tasks: one tokio task per table owns its [`TableCore`] (seats, clock, hand: the pure
//! state machine of `stud_table`). A [`TableHandle`] (bounded mpsc) is the only way in. The
//! task is a thin loop: receive, stamp the time, journal, apply, deliver the outputs
//! (`actor`); subscribers' queues and lagging clients are `delivery`'s. It awaits only the
//! journal, never a client or the store writer.

mod actor;
mod delivery;
pub(crate) use delivery::{LAG_LIMIT, LAG_POLL};
#[cfg(test)]
mod tests;

use std::sync::Arc;
use tokio::time::Instant;

use futures_util::future::BoxFuture;
use stud_engine::{Action, Chips, TableConfig};
use stud_proto::{RequestId, TableSettings, TableSummary};
use stud_store::{JournalRow, TableWrites};

use crate::journal::JournalError;
use stud_store::StoredTable;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::app::{App, Session};
use crate::wire::Frame;
use stud_table::TableCore;

pub use actor::run_table;
pub(crate) use actor::{ledger, stored_hand};

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
    /// A tournament table's hand ended: every player dealt in and their chips now (never
    /// waits; the tournament's task takes it from there).
    fn tournament_hand(&self, _tournament: Uuid, _table: Uuid, _deal: u64, _stacks: Vec<(Uuid, Chips)>) {}
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

/// What a tournament's task asks of one of its tables between hands (after a restart).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
        /// (hand in play, hands played)
        reply: oneshot::Sender<(Option<Uuid>, u64)>,
    },
    /// Tournaments: seat a player with tournament chips.
    TournamentSeat {
        /// who
        who: stud_table::Who,
        /// the seat the tournament drew
        seat: u8,
        /// tournament chips
        chips: Chips,
    },
    /// Tournaments: take a player away (moved to another table).
    TournamentUnseat {
        /// who
        player: Uuid,
    },
    /// Tournaments: deal the next hand with the level's stakes to these players.
    Deal {
        /// the game and stakes
        config: TableConfig,
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
    Local(mpsc::Sender<TableCmd>),
    Remote(Arc<crate::cluster::Gateway>),
}

impl TableHandle {
    /// A table hosted by a cluster's worker, reached through `gateway`.
    pub fn remote(id: Uuid, gateway: Arc<crate::cluster::Gateway>) -> TableHandle {
        TableHandle { id, tx: Route::Remote(gateway) }
    }

    /// Queues a command, waiting if the table's queue is full.
    ///
    /// # Errors
    /// The table has stopped (or, in a cluster, NATS cannot be reached).
    pub async fn send(&self, cmd: TableCmd) -> Result<(), TableGone> {
        match &self.tx {
            Route::Local(tx) => tx.send(cmd).await.map_err(|_| TableGone),
            Route::Remote(gw) => gw.send(self.id, cmd).await,
        }
    }

    /// Queues a command without waiting.
    ///
    /// # Errors
    /// The table has stopped or its queue is full.
    pub fn try_send(&self, cmd: TableCmd) -> Result<(), TableGone> {
        match &self.tx {
            Route::Local(tx) => tx.try_send(cmd).map_err(|_| TableGone),
            Route::Remote(gw) => {
                let (gw, id) = (gw.clone(), self.id);
                tokio::spawn(async move { gw.send(id, cmd).await });
                Ok(())
            }
        }
    }
}

/// The table is not running any more.
#[derive(Debug, thiserror::Error)]
#[error("the table has stopped")]
pub struct TableGone;

pub use stud_table::TableSpec;

/// What `tables.settings` holds.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredSettings {
    settings: TableSettings,
    invite_code: Option<String>,
    paused: bool,
    /// a tournament's table (opened again in tournament mode even without a journal)
    #[serde(default)]
    tournament: Option<Uuid>,
}

/// A [`TableSpec`] as the server makes and stores it.
pub trait SpecExt: Sized {
    /// A public table with the server's configured clock.
    fn public_with(id: Uuid, name: String, config: TableConfig, buy_in: (Chips, Chips), server: &crate::Config)
    -> Self;
    /// As stored.
    fn stored(&self, created_at_ms: u64, closed: bool) -> StoredTable;
    /// From the store (a row without settings is a public table, with the server's clock).
    fn from_stored(t: &StoredTable, server: &crate::Config) -> Self;
}

impl SpecExt for TableSpec {
    fn public_with(
        id: Uuid,
        name: String,
        config: TableConfig,
        buy_in: (Chips, Chips),
        server: &crate::Config,
    ) -> TableSpec {
        TableSpec::public(id, name, config, buy_in, (server.action_timeout_ms, server.time_bank_ms))
    }

    fn stored(&self, created_at_ms: u64, closed: bool) -> StoredTable {
        let settings = StoredSettings {
            settings: self.settings(),
            invite_code: self.invite_code.clone(),
            paused: self.paused,
            tournament: self.tournament,
        };
        StoredTable {
            id: self.id,
            name: self.name.clone(),
            config: self.config,
            min_buy_in: self.min_buy_in,
            max_buy_in: self.max_buy_in,
            created_at_ms,
            closed,
            settings: serde_json::to_string(&settings).unwrap_or_default(),
        }
    }

    fn from_stored(t: &StoredTable, server: &crate::Config) -> TableSpec {
        let basics = || TableSpec::public_with(t.id, t.name.clone(), t.config, (t.min_buy_in, t.max_buy_in), server);
        match serde_json::from_str::<StoredSettings>(&t.settings) {
            Ok(s) => match TableSpec::from_settings(t.id, &s.settings) {
                Ok(spec) => {
                    TableSpec { invite_code: s.invite_code, paused: s.paused, tournament: s.tournament, ..spec }
                }
                Err(e) => {
                    tracing::warn!(table = %t.id, error = %e, "stored settings are invalid; opening with the basics");
                    basics()
                }
            },
            Err(_) => basics(),
        }
    }
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

/// Starts a table task on `core`; returns its handle.
pub fn spawn_table(app: Arc<App>, core: TableCore, start: Start) -> (TableHandle, tokio::task::JoinHandle<()>) {
    let queue = app.config.table_queue;
    spawn_table_with(app, queue, core, start)
}

/// [`spawn_table`] with any [`TableEnv`] (a cluster's worker publishes what the table tells it).
pub fn spawn_table_with(
    env: Arc<dyn TableEnv>,
    queue: usize,
    core: TableCore,
    start: Start,
) -> (TableHandle, tokio::task::JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(queue);
    let handle = TableHandle { id: core.spec().id, tx: Route::Local(tx) };
    let task = tokio::spawn(run_table(env, core, start, rx));
    (handle, task)
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
        App::set_seated(self, player, table, seated);
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
    fn tournament_hand(&self, tournament: Uuid, table: Uuid, deal: u64, stacks: Vec<(Uuid, Chips)>) {
        self.tournaments.report(tournament, table, deal, stacks);
    }
}
