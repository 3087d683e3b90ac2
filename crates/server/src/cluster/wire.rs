//! What gateways and workers say to each other on core NATS subjects (not JetStream: these
//! are live messages; what must survive is in the journal and in Postgres).
//!
//! Subjects:
//! - `stud.in.<table>`: a table's inputs ([`Inbound`], JSON), gateway -> the worker holding
//!   the table's lease (the only subscriber). Operators' commands are requests: the worker
//!   answers on the reply subject ([`OperatorReply`]).
//! - `stud.out.<gateway node>`: a table's frames for the sockets of one gateway, worker -> that
//!   gateway (the payload is the frame's text; the [`TO`] header names the gateway's
//!   connections it is for; a message with the [`KICK`] header tells the gateway to close those
//!   sockets). A frame the table sends several connections (an event everyone sees) is
//!   published once per gateway that has any of them, named in one [`TO`] list; a frame for
//!   one player (their down card, their prompt, a reply) goes only to the subject of the
//!   gateway holding that player's socket, so a down card never reaches a NATS connection that
//!   does not serve its owner. One subject per gateway and one publisher per table keep each
//!   connection's frames in the table's order.
//! - `stud.up.<table>`: a worker now hosts the table (claimed, rebuilt): gateways join their
//!   sockets at that table again, and each gets a fresh snapshot.
//! - `stud.lobby`: a table's lobby line (`TableSummary`, JSON) whenever it changes.
//! - `stud.seated`: a player took or left a seat ([`Seated`], JSON).
//! - `stud.metrics`: each worker's table counters ([`WorkerMetrics`], JSON), which gateways
//!   add to their own in `/metrics`.
//! - `stud.directory`: a gateway that starts asks (a request with a reply subject, no
//!   payload) and every worker answers with who sits at its tables and their lobby lines
//!   ([`Directory`], JSON, in parts of [`DIRECTORY_PART`] items), so a gateway started after
//!   players sat resumes their seats on `hello` and lists the tables as they are.

use serde::{Deserialize, Serialize};
use stud_engine::{Action, Chips};
use stud_proto::RequestId;
use stud_table::TableSpec;
use uuid::Uuid;

/// The header of a message on a connection's subject that closes the socket.
pub const KICK: &str = "Stud-Kick";

/// The header naming the worker that published a frame (operators and tests can tell who
/// spoke for a table).
pub const NODE: &str = "Stud-Node";

/// The header naming the table a frame is from.
pub const TABLE: &str = "Stud-Table";

/// The header naming the gateway's connections a frame on its subject is for (decimal ids,
/// comma separated).
pub const TO: &str = "Stud-To";

/// The [`TO`] header's value for these connections.
pub fn to_header(conns: &[u64]) -> String {
    let mut text = String::with_capacity(conns.len() * 8);
    for (i, id) in conns.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&id.to_string());
    }
    text
}

/// The connections a [`TO`] header names; ids that do not parse are skipped.
pub fn parse_to(value: &str) -> impl Iterator<Item = u64> + '_ {
    value.split(',').filter_map(|id| id.trim().parse().ok())
}

/// A table's input subject.
pub fn input(table: Uuid) -> String {
    format!("stud.in.{table}")
}

/// One gateway's frame subject.
pub fn output(gateway: &str) -> String {
    format!("stud.out.{gateway}")
}

/// Announced when a worker starts hosting a table.
pub fn up(table: Uuid) -> String {
    format!("stud.up.{table}")
}

/// Every table's announcements.
pub const UP_ALL: &str = "stud.up.*";

/// Lobby lines.
pub const LOBBY: &str = "stud.lobby";

/// Seat changes.
pub const SEATED: &str = "stud.seated";

/// A worker's table counters ([`WorkerMetrics`], JSON), every other claim round: gateways add
/// them to their own `/metrics`.
pub const METRICS: &str = "stud.metrics";

/// A worker's table counters now.
#[derive(Debug, Serialize, Deserialize)]
pub struct WorkerMetrics {
    /// the worker
    pub node: String,
    /// its tables' counters
    pub tables: crate::metrics::TableCounts,
}

/// A starting gateway's request for the seats and lobby lines.
pub const DIRECTORY: &str = "stud.directory";

/// At most this many seats or lobby lines in one [`Directory`] message (NATS caps a message's
/// size, 1 MB by default).
pub const DIRECTORY_PART: usize = 1_000;

/// Part of a worker's answer to [`DIRECTORY`].
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Directory {
    /// the worker answering
    pub node: String,
    /// (player, table): who sits at the worker's tables
    pub seats: Vec<(Uuid, Uuid)>,
    /// the lobby lines of the worker's tables
    pub lobby: Vec<stud_proto::TableSummary>,
}

/// A connection, as a worker knows it: its gateway and the gateway's id for it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RemoteConn {
    /// the gateway node
    pub gw: String,
    /// the gateway's connection id
    pub id: u64,
}

/// A message to a table on its input subject.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Inbound {
    /// `TableCmd::Join`
    Join {
        /// the connection
        conn: RemoteConn,
        /// its player
        player: Uuid,
        /// its session
        session: Uuid,
        /// the player's name
        name: String,
        /// echoed
        request_id: RequestId,
        /// an explicit `join_table`
        watch: bool,
    },
    /// `TableCmd::Sit`
    Sit {
        /// the connection
        conn: RemoteConn,
        /// echoed
        request_id: RequestId,
        /// the seat asked for
        seat: Option<u8>,
        /// chips brought
        buy_in: Chips,
    },
    /// `TableCmd::Act`
    Act {
        /// the connection
        conn: RemoteConn,
        /// echoed
        request_id: RequestId,
        /// the hand meant
        hand_id: Uuid,
        /// the prompt answered
        seq: u64,
        /// de-duplication key
        key: String,
        /// the action
        action: Action,
    },
    /// `TableCmd::SitOut`
    SitOut {
        /// the connection
        conn: RemoteConn,
        /// echoed
        request_id: RequestId,
        /// out or back in
        out: bool,
    },
    /// `TableCmd::AutoMuck`
    AutoMuck {
        /// the connection
        conn: RemoteConn,
        /// echoed
        request_id: RequestId,
        /// on or off
        on: bool,
    },
    /// `TableCmd::Waitlist`
    Waitlist {
        /// the connection
        conn: RemoteConn,
        /// echoed
        request_id: RequestId,
        /// join or leave the list
        on: bool,
    },
    /// `TableCmd::TopUp`
    TopUp {
        /// the connection
        conn: RemoteConn,
        /// echoed
        request_id: RequestId,
        /// chips
        amount: Chips,
    },
    /// `TableCmd::Leave`
    Leave {
        /// the connection
        conn: RemoteConn,
        /// echoed
        request_id: RequestId,
    },
    /// `TableCmd::Resync`: the socket lagged at its gateway and missed frames
    Resync {
        /// the connection
        conn: RemoteConn,
    },
    /// `TableCmd::Snapshot`
    Snapshot {
        /// the connection
        conn: RemoteConn,
        /// echoed
        request_id: RequestId,
    },
    /// `TableCmd::Chat`
    Chat {
        /// the connection
        conn: RemoteConn,
        /// echoed
        request_id: RequestId,
        /// the text
        text: String,
    },
    /// `TableCmd::Disconnect`
    Disconnect {
        /// the connection
        conn: RemoteConn,
    },
    /// `TableCmd::Update` (a request)
    Update {
        /// the new spec
        spec: Box<TableSpec>,
    },
    /// `TableCmd::Pause` (a request)
    Pause {
        /// paused or not
        paused: bool,
    },
    /// `TableCmd::Close` (a request, answered once the table has stopped)
    Close,
    /// `TableCmd::Kick` (a request)
    Kick {
        /// who
        player: Uuid,
        /// at once
        now: bool,
    },
    /// `TableCmd::Status` (a request)
    Status,
    /// `TableCmd::TournamentSeat` (from the gateway directing the tournament)
    TournamentSeat {
        /// who
        who: stud_table::Who,
        /// the seat
        seat: u8,
        /// tournament chips
        chips: Chips,
    },
    /// `TableCmd::TournamentChips`
    TournamentChips {
        /// who
        who: stud_table::Who,
        /// their seat
        seat: u8,
        /// tournament chips now
        chips: Chips,
    },
    /// `TableCmd::TournamentUnseat`
    TournamentUnseat {
        /// who
        player: Uuid,
    },
    /// `TableCmd::Deal`
    Deal {
        /// the game and stakes
        config: stud_engine::TableConfig,
        /// the level (1-based)
        level: u32,
        /// who is dealt in
        players: Vec<Uuid>,
        /// the hand's number at this table
        deal: u64,
    },
    /// `TableCmd::TournamentState` (a request)
    TournamentState,
}

impl Inbound {
    /// The gateway connection that asked and its request id, when this is a request a client
    /// waits an answer to (it carries a `request_id`).
    pub fn asker(&self) -> Option<(u64, &str)> {
        match self {
            Inbound::Join { conn, request_id, .. }
            | Inbound::Sit { conn, request_id, .. }
            | Inbound::Act { conn, request_id, .. }
            | Inbound::SitOut { conn, request_id, .. }
            | Inbound::AutoMuck { conn, request_id, .. }
            | Inbound::Waitlist { conn, request_id, .. }
            | Inbound::TopUp { conn, request_id, .. }
            | Inbound::Leave { conn, request_id }
            | Inbound::Snapshot { conn, request_id }
            | Inbound::Chat { conn, request_id, .. } => request_id.as_deref().map(|r| (conn.id, r)),
            _ => None,
        }
    }
}

/// A worker's answer to an operator's request.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct OperatorReply {
    /// `Kick`: whether the player had a seat or a connection there
    #[serde(default)]
    pub here: bool,
    /// `Status`: the hand in play
    #[serde(default)]
    pub hand: Option<Uuid>,
    /// `Status`: hands played
    #[serde(default)]
    pub hands: u64,
    /// `Status`: who sits where
    #[serde(default)]
    pub seats: Vec<stud_proto::SeatInfo>,
    /// `TournamentState`: the table's answer
    #[serde(default)]
    pub tournament: Option<crate::table::TournamentTableState>,
}

/// A tournament table's finished hand, worker -> the gateway directing the tournament, on
/// [`treport`].
#[derive(Debug, Serialize, Deserialize)]
pub struct TournamentReport {
    /// the table
    pub table: Uuid,
    /// the report
    pub report: stud_table::LastReport,
}

/// The subject of a tournament's tables' hand reports.
pub fn treport(tournament: Uuid) -> String {
    format!("stud.treport.{tournament}")
}

/// Every tournament's hand reports.
pub const TREPORT_ALL: &str = "stud.treport.*";

/// The subject of a tournament's commands (requests, answered by the gateway directing it).
pub fn tcmd(tournament: Uuid) -> String {
    format!("stud.tcmd.{tournament}")
}

/// The subject of a tournament's state (its snapshot text, from the gateway directing it).
pub fn tview(tournament: Uuid) -> String {
    format!("stud.tview.{tournament}")
}

/// Every tournament's state.
pub const TVIEW_ALL: &str = "stud.tview.*";

/// A frame for one player's sockets, wherever they are connected: every gateway delivers it
/// to its own ([`Notify`], JSON).
pub const NOTIFY: &str = "stud.notify";

/// A frame for one player's sockets on every gateway.
#[derive(Debug, Serialize, Deserialize)]
pub struct Notify {
    /// the player
    pub player: Uuid,
    /// (tournament, table number): list that table if need be and count the player seated
    /// there first
    #[serde(default)]
    pub seated_at: Option<(Uuid, u32)>,
    /// the frame's text
    pub frame: String,
}

/// A tournament command relayed to the gateway directing the tournament.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum TournamentRequest {
    /// register
    Register {
        /// who
        player: Uuid,
        /// display name
        name: String,
        /// a private tournament's code
        invite_code: Option<String>,
    },
    /// unregister
    Unregister {
        /// who
        player: Uuid,
    },
    /// buy a rebuy
    Rebuy {
        /// who
        player: Uuid,
        /// the buyer's key
        key: Option<String>,
    },
    /// buy the add-on
    AddOn {
        /// who
        player: Uuid,
    },
    /// cancel before the start
    Cancel,
    /// an operator's command that moves no money
    Operate {
        /// the command
        command: stud_tournament::Command,
    },
}

/// A seat taken or left.
#[derive(Debug, Serialize, Deserialize)]
pub struct Seated {
    /// the player
    pub player: Uuid,
    /// the table
    pub table: Uuid,
    /// whether the player holds a seat there now
    pub seated: bool,
}
