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
use stud_proto::{RequestId, TableSettings};
use stud_store::StoredTable;
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

/// What a table is: its rules, stakes, name and the operator's settings.
#[derive(Clone, Debug, PartialEq)]
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
    /// seats 1..=seats are used
    pub seats: u8,
    /// time to act
    pub action_timeout_ms: u64,
    /// each player's time bank
    pub time_bank_ms: u64,
    /// people without a seat may watch
    pub observers: bool,
    /// not in the lobby; joining needs `invite_code`
    pub private: bool,
    /// the private table's code (none: nobody can join until the operator sets one)
    pub invite_code: Option<String>,
    /// no new hands
    pub paused: bool,
    /// hands this table played before it opened this time (its hand numbers go on from there)
    pub hands_before: u64,
}

/// What `tables.settings` holds.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredSettings {
    settings: TableSettings,
    invite_code: Option<String>,
    paused: bool,
}

impl TableSpec {
    /// A public table with the server's configured clock.
    pub fn public(
        id: Uuid,
        name: String,
        config: TableConfig,
        (min_buy_in, max_buy_in): (Chips, Chips),
        server: &crate::Config,
    ) -> TableSpec {
        TableSpec {
            id,
            name,
            config,
            min_buy_in,
            max_buy_in,
            seats: 8,
            action_timeout_ms: server.action_timeout_ms,
            time_bank_ms: server.time_bank_ms,
            observers: true,
            private: false,
            invite_code: None,
            paused: false,
            hands_before: 0,
        }
    }

    /// A table from an operator's settings.
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn from_settings(id: Uuid, s: &TableSettings) -> Result<TableSpec, String> {
        let name = s.name.trim();
        if !(1..=40).contains(&name.chars().count()) || name.chars().any(char::is_control) {
            return Err("name must be 1 to 40 printable characters".into());
        }
        let mut config = TableConfig::new(s.variant, s.ante, s.bring_in, s.small_bet, s.big_bet);
        config.max_raises = s.max_raises;
        if let Some(open_pair) = s.open_pair_big_bet {
            config.open_pair_big_bet = open_pair;
        }
        config.validate().map_err(|e| e.to_string())?;
        if !(2..=8).contains(&s.seats) {
            return Err("seats must be 2 to 8".into());
        }
        if s.min_buy_in == 0 || s.min_buy_in > s.max_buy_in {
            return Err("need 0 < min_buy_in <= max_buy_in".into());
        }
        if s.min_buy_in < s.ante + s.bring_in {
            return Err("min_buy_in must cover at least the ante and the bring-in".into());
        }
        if !(1_000..=600_000).contains(&s.action_timeout_ms) || s.time_bank_ms > 3_600_000 {
            return Err("action_timeout_ms must be 1000 to 600000 and time_bank_ms at most 3600000".into());
        }
        Ok(TableSpec {
            id,
            name: name.to_owned(),
            config,
            min_buy_in: s.min_buy_in,
            max_buy_in: s.max_buy_in,
            seats: s.seats,
            action_timeout_ms: s.action_timeout_ms,
            time_bank_ms: s.time_bank_ms,
            observers: s.observers,
            private: s.private,
            invite_code: None,
            paused: false,
            hands_before: 0,
        })
    }

    /// The settings as operators see them.
    pub fn settings(&self) -> TableSettings {
        TableSettings {
            name: self.name.clone(),
            variant: self.config.variant,
            ante: self.config.ante,
            bring_in: self.config.bring_in,
            small_bet: self.config.small_bet,
            big_bet: self.config.big_bet,
            max_raises: self.config.max_raises,
            open_pair_big_bet: Some(self.config.open_pair_big_bet),
            seats: self.seats,
            min_buy_in: self.min_buy_in,
            max_buy_in: self.max_buy_in,
            action_timeout_ms: self.action_timeout_ms,
            time_bank_ms: self.time_bank_ms,
            observers: self.observers,
            private: self.private,
        }
    }

    /// As stored.
    pub fn stored(&self, created_at_ms: u64, closed: bool) -> StoredTable {
        let settings =
            StoredSettings { settings: self.settings(), invite_code: self.invite_code.clone(), paused: self.paused };
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

    /// From the store (a row without settings is a public table, with the server's clock).
    pub fn from_stored(t: &StoredTable, server: &crate::Config) -> TableSpec {
        match serde_json::from_str::<StoredSettings>(&t.settings) {
            Ok(s) => match TableSpec::from_settings(t.id, &s.settings) {
                Ok(spec) => TableSpec { invite_code: s.invite_code, paused: s.paused, ..spec },
                Err(e) => {
                    tracing::warn!(table = %t.id, error = %e, "stored settings are invalid; opening with the basics");
                    TableSpec::public(t.id, t.name.clone(), t.config, (t.min_buy_in, t.max_buy_in), server)
                }
            },
            Err(_) => TableSpec::public(t.id, t.name.clone(), t.config, (t.min_buy_in, t.max_buy_in), server),
        }
    }
}

/// Starts a table task; returns its handle.
pub fn spawn_table(app: Arc<App>, spec: TableSpec) -> (TableHandle, tokio::task::JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(app.config.table_queue);
    let handle = TableHandle { id: spec.id, tx };
    let task = tokio::spawn(run_table(app, spec, rx));
    (handle, task)
}
