//! The core's vocabulary: what goes in ([`Command`]), what comes out ([`Output`],
//! [`Decision`], [`Due`]) and the state [`TableCore`](super::TableCore) keeps per seat and for
//! the hand in play.

use std::collections::VecDeque;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use stud_engine::{Action, Chips, Event, Hand, HandRecord, PotTracker, Seat, TableConfig};
use stud_proto::{ErrorCode, RequestId, SitOutReason, TableSummary};
use uuid::Uuid;

use crate::input::{Input, Who};
use crate::spec::TableSpec;

/// A serialized server message.
pub type Frame = Arc<str>;

/// A connection's id (unique per socket in a process).
pub type ConnId = u64;

/// Milliseconds since the Unix epoch.
pub type Millis = u64;

/// The server's timers that are not table settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// pause between hands
    pub hand_pause_ms: u64,
    /// pause after a hand that went to showdown (the longer of the two applies), so the cards
    /// and the winning hand stay readable
    pub showdown_pause_ms: u64,
    /// how long a disconnected player to act is waited for
    pub disconnect_grace_ms: u64,
}

/// A command from a client or an operator, checked by [`TableCore::handle`](crate::TableCore::handle).
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Subscribe a connection (to watch, or the seated player's own view).
    Join {
        /// the connection
        conn: ConnId,
        /// who
        who: Who,
        /// echoed
        request_id: RequestId,
        /// an explicit `join_table` (to watch), not the subscription that comes with `sit`
        watch: bool,
        /// banned here (the server's list decides)
        banned: bool,
    },
    /// Take a seat.
    Sit {
        /// the connection (must have joined)
        conn: ConnId,
        /// echoed
        request_id: RequestId,
        /// a seat, or the first free one
        seat: Option<u8>,
        /// chips to bring
        buy_in: Chips,
    },
    /// Act in the hand.
    Act {
        /// the connection
        conn: ConnId,
        /// echoed
        request_id: RequestId,
        /// the hand the client means
        hand_id: Uuid,
        /// the prompt it answers
        seq: u64,
        /// idempotency key
        key: String,
        /// the action
        action: Action,
    },
    /// Sit out (true) or back in (false).
    SitOut {
        /// the connection
        conn: ConnId,
        /// echoed
        request_id: RequestId,
        /// out or in
        out: bool,
    },
    /// Auto-muck on or off for the connection's seat.
    AutoMuck {
        /// the connection
        conn: ConnId,
        /// echoed
        request_id: RequestId,
        /// on or off
        on: bool,
    },
    /// Join (true) or leave (false) the waiting list.
    Waitlist {
        /// the connection (must have joined)
        conn: ConnId,
        /// echoed
        request_id: RequestId,
        /// join or leave
        on: bool,
    },
    /// Add chips between hands.
    TopUp {
        /// the connection
        conn: ConnId,
        /// echoed
        request_id: RequestId,
        /// chips
        amount: Chips,
    },
    /// Leave the seat and stop watching.
    Leave {
        /// the connection
        conn: ConnId,
        /// echoed
        request_id: RequestId,
    },
    /// A fresh snapshot for this connection.
    Snapshot {
        /// the connection
        conn: ConnId,
        /// echoed
        request_id: RequestId,
    },
    /// A chat message (not journaled: answered and broadcast by `handle`).
    Chat {
        /// the connection
        conn: ConnId,
        /// echoed
        request_id: RequestId,
        /// what was written
        text: String,
        /// the writer is banned here (the server's list decides): muted
        banned: bool,
    },
    /// The socket closed, or the table dropped it.
    Disconnect {
        /// the connection
        conn: ConnId,
    },
    /// Operators: new settings, from the next hand.
    Update {
        /// the new spec (same id)
        spec: Box<TableSpec>,
    },
    /// Operators: no new hands (true) or hands again (false).
    Pause {
        /// paused or not
        paused: bool,
    },
    /// Operators: finish the current hand, cash everyone out, stop.
    Close,
    /// Operators: remove a player.
    Kick {
        /// who
        player: Uuid,
        /// give their hand up at once
        now: bool,
    },
    /// Tournament tables: the tournament seats a player with their tournament chips.
    TournamentSeat {
        /// who
        who: Who,
        /// the seat the tournament drew
        seat: u8,
        /// tournament chips
        chips: Chips,
    },
    /// Tournament tables: between hands, a player's stack becomes `chips` (a rebuy or the
    /// add-on); a player the table let go when they busted is seated again at `seat`.
    TournamentChips {
        /// who
        who: Who,
        /// their seat in the tournament's floor
        seat: u8,
        /// their tournament chips now
        chips: Chips,
    },
    /// Tournament tables: the tournament takes a player away (moved to another table).
    TournamentUnseat {
        /// who
        player: Uuid,
    },
    /// Tournament tables: deal the next hand with these stakes to these players.
    Deal {
        /// the level's game and stakes
        config: TableConfig,
        /// the level (1-based)
        level: u32,
        /// who is dealt in (the tournament's seating)
        players: Vec<Uuid>,
        /// the hand's number at this table in the tournament (its report gives it back)
        deal: u64,
    },
}

/// What `handle` decided.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// Done: any answer is in the outputs; nothing to journal.
    Done,
    /// Journal `input`, then [`TableCore::apply`](crate::TableCore::apply) it. With `debit`, the player's account must
    /// first give that many chips (refuse with `insufficient_balance` if it cannot).
    Journal {
        /// the input
        input: Input,
        /// (player, chips) to take from the account first
        debit: Option<(Uuid, Chips)>,
    },
}

/// What the clock wants at a wake-up.
#[derive(Clone, Debug, PartialEq)]
pub enum Due {
    /// Start a hand: journal [`Input::StartHand`] with a new id and seed.
    StartHand,
    /// Journal and apply this input (the clock acts for a player).
    Input(Input),
}

/// A chip movement between an account and this table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Movement {
    /// account to stack (sitting down)
    BuyIn,
    /// account to stack (between hands)
    TopUp,
    /// stack to account
    CashOut,
}

/// A finished hand, for the store.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedHand {
    /// the hand
    pub hand_id: Uuid,
    /// the table's hand counter
    pub number: u64,
    /// ms since the Unix epoch
    pub started_at_ms: u64,
    /// ms since the Unix epoch
    pub ended_at_ms: u64,
    /// the full record (seed included)
    pub record: HandRecord,
    /// each seat dealt in
    pub seats: Vec<SeatResult>,
    /// a tournament's hand: (the tournament, its level)
    pub tournament: Option<(Uuid, u32)>,
}

/// One seat's part in a finished hand.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatResult {
    /// the seat
    pub seat: Seat,
    /// who played it
    pub who: Who,
    /// chips won minus chips put in
    pub net: i64,
    /// still in at showdown
    pub showdown: bool,
}

/// Something for a counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// an action applied (a player's or the clock's)
    Action,
    /// the clock acted for a player
    Timeout,
    /// a hand finished
    Hand,
    /// a seated player came back
    Reconnect,
    /// an error answered
    Error(ErrorCode),
}

/// What the table wants done.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// Send a frame to one connection.
    Send {
        /// to whom
        conn: ConnId,
        /// the bytes
        frame: Frame,
    },
    /// The table stopped sending to this connection.
    Unsubscribed {
        /// which
        conn: ConnId,
    },
    /// Record a chip movement (and, live, move it in the account: a cash-out credits it).
    Ledger {
        /// whose
        player: Uuid,
        /// which way
        kind: Movement,
        /// chips
        amount: Chips,
    },
    /// Store a finished hand.
    Hand(Box<FinishedHand>),
    /// `player` holds a seat here, or no longer does.
    Seated {
        /// who
        player: Uuid,
        /// holds one now
        seated: bool,
    },
    /// The lobby line changed.
    Summary(Box<TableSummary>),
    /// The table is between hands: its durable state, for resuming from here.
    Snapshot(String),
    /// Count something.
    Metric(Metric),
    /// The table has closed (everyone was cashed out); stop.
    Closed,
    /// Tournament tables: a hand ended; every player dealt in and their chips now (0: out),
    /// and who took each busted player's last chips.
    TournamentHand(LastReport),
}

/// Tournament tables: the report of the last hand (kept durable, so a report lost in a crash
/// can be given again exactly as it was).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastReport {
    /// the hand's number, as the tournament's `Deal` gave it
    pub deal: u64,
    /// (player, chips after the hand) for everyone dealt in
    pub stacks: Vec<(Uuid, Chips)>,
    /// each player the hand busted, with the players awarded a part of the last pot they had
    /// chips in and the chips each was awarded from it (the bounty's eliminators; reports
    /// kept from before bounties have none)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub knockouts: Vec<(Uuid, Vec<(Uuid, Chips)>)>,
}

/// Tournament tables: the hand the tournament allowed and not yet dealt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct DealOrder {
    pub(super) config: TableConfig,
    pub(super) level: u32,
    pub(super) players: Vec<Uuid>,
    #[serde(default)]
    pub(super) deal: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct SeatPlayer {
    pub(super) who: Who,
    /// chips on the table outside a hand (the engine holds them during one)
    pub(super) stack: Chips,
    pub(super) sitting_out: bool,
    /// sit out when the current hand ends (asked for, or after a timeout fold)
    pub(super) sit_out_next: bool,
    /// left: the clock plays the rest of the hand at once, then the seat is cashed out
    pub(super) leaving: bool,
    /// removed by an operator once the current hand ends (plays it out meanwhile)
    pub(super) kick_after: bool,
    pub(super) time_bank_ms: u64,
    /// why they sit out (or will, after this hand)
    #[serde(default)]
    pub(super) sit_out_reason: Option<SitOutReason>,
    /// a show-or-muck choice is answered "muck" at once (`Input::AutoMuck`)
    #[serde(default)]
    pub(super) auto_muck: bool,
    pub(super) recent_keys: VecDeque<String>,
    /// presence: open connections of this player subscribed here
    #[serde(skip)]
    pub(super) connections: usize,
    /// presence: no connection since then
    #[serde(skip)]
    pub(super) disconnected: bool,
}

/// A player on the waiting list.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Waiter {
    pub(super) who: Who,
    /// presence: since when a seat is offered to them (a restart offers it afresh)
    #[serde(skip)]
    pub(super) offered_at: Option<Millis>,
}

#[derive(Clone, Debug)]
pub(super) struct Turn {
    pub(super) seat: Seat,
    /// when the prompt went out (durable: the time bank is charged from it)
    pub(super) started: Millis,
    /// presence: when the clock acts
    pub(super) deadline: Millis,
}

#[derive(Clone, Debug)]
pub(super) struct Live {
    pub(super) hand: Hand,
    pub(super) id: Uuid,
    pub(super) number: u64,
    pub(super) started_at_ms: u64,
    /// the seq of the prompt now waiting for an answer
    pub(super) prompt_seq: u64,
    pub(super) turn: Option<Turn>,
    /// who held each seat dealt in: a seat's view of this hand is only ever theirs
    pub(super) dealt: Vec<(Seat, Uuid)>,
    /// the hand's events so far, unredacted (snapshots redact them per viewer); rebuilt with
    /// the hand when the journal is replayed
    pub(super) events: Vec<Event>,
    /// the pots as the events built them
    pub(super) pots: PotTracker,
    /// a tournament's hand: its level
    pub(super) level: Option<u32>,
    /// a tournament's hand: its number, for the report
    pub(super) deal: u64,
}

/// A seat's place in [`TableCore`](super::TableCore)'s seat array.
pub(super) fn seat_index(seat: Seat) -> usize {
    usize::from(seat.number()) - 1
}
