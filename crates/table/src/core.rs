//! [`TableCore`]: one table's seats, clock, hand and room rules as a pure state machine.
//!
//! Two kinds of calls. [`TableCore::handle`] takes a client's or an operator's command: it
//! answers at once what changes nothing that must survive a restart (joining to watch, a
//! snapshot, a refusal), and otherwise returns the [`Input`] to journal. [`TableCore::apply`]
//! applies an input (a journaled one, or one replayed from the journal) and cannot be refused
//! by the rules, since `handle` checked it. Time comes in with every call; what the table
//! wants done comes out as [`Output`]s, and when it next needs to be woken as
//! [`TableCore::wake_at`].
//!
//! State is of two kinds: durable (seats, stacks, the hand, the settings: rebuilt from a
//! snapshot plus the journal) and presence (who is connected and watching, deadlines: gone
//! with the process; clients come back and say so).

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};
use stud_engine::{
    Action, ActionError, Chips, Event, Half, Hand, HandRecord, HandStrength, PotTracker, Seat, TableConfig, Variant,
    Viewer,
};
use stud_proto::{ErrorCode, HandState, RequestId, SeatInfo, ServerMsg, SitOutReason, TableState, TableSummary};
use uuid::Uuid;

use crate::input::{Input, JOURNAL_VERSION, JournalSeed, RestoreError, Who};
use crate::spec::TableSpec;
use crate::wire::{self, Frame};

/// Idempotency keys remembered per seat.
const KEYS_KEPT: usize = 64;

/// Chat: messages a player may write at once, then one per `CHAT_INTERVAL_MS` (a GCRA
/// bucket per player and table, presence only).
const CHAT_BURST: u64 = 5;
/// Chat: the sustained rate, one message per this many milliseconds.
const CHAT_INTERVAL_MS: u64 = 2_000;

/// Events of the hand in play kept for snapshots (a stud hand has a few hundred at most;
/// past this a snapshot's `events` stop, and the client's log with them).
const EVENTS_KEPT: usize = 2_000;

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

/// A command from a client or an operator, checked by [`TableCore::handle`].
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
    /// Journal `input`, then [`TableCore::apply`] it. With `debit`, the player's account must
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
    /// Tournament tables: a hand ended; every player dealt in and their chips now (0: out).
    TournamentHand {
        /// the hand's number, as the tournament's `Deal` gave it
        deal: u64,
        /// (player, chips after the hand)
        stacks: Vec<(Uuid, Chips)>,
    },
}

/// Tournament tables: the report of the last hand (kept durable, so a report lost in a crash
/// can be given again exactly as it was).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastReport {
    /// the hand's number, as the tournament's `Deal` gave it
    pub deal: u64,
    /// (player, chips after the hand) for everyone dealt in
    pub stacks: Vec<(Uuid, Chips)>,
}

/// Tournament tables: the hand the tournament allowed and not yet dealt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct DealOrder {
    config: TableConfig,
    level: u32,
    players: Vec<Uuid>,
    #[serde(default)]
    deal: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct SeatPlayer {
    who: Who,
    /// chips on the table outside a hand (the engine holds them during one)
    stack: Chips,
    sitting_out: bool,
    /// sit out when the current hand ends (asked for, or after a timeout fold)
    sit_out_next: bool,
    /// left: the clock plays the rest of the hand at once, then the seat is cashed out
    leaving: bool,
    /// removed by an operator once the current hand ends (plays it out meanwhile)
    kick_after: bool,
    time_bank_ms: u64,
    /// why they sit out (or will, after this hand)
    #[serde(default)]
    sit_out_reason: Option<SitOutReason>,
    recent_keys: VecDeque<String>,
    /// presence: open connections of this player subscribed here
    #[serde(skip)]
    connections: usize,
    /// presence: no connection since then
    #[serde(skip)]
    disconnected: bool,
}

#[derive(Clone, Debug)]
struct Turn {
    seat: Seat,
    /// when the prompt went out (durable: the time bank is charged from it)
    started: Millis,
    /// presence: when the clock acts
    deadline: Millis,
}

#[derive(Clone, Debug)]
struct Live {
    hand: Hand,
    id: Uuid,
    number: u64,
    started_at_ms: u64,
    /// the seq of the prompt now waiting for an answer
    prompt_seq: u64,
    turn: Option<Turn>,
    /// who held each seat dealt in: a seat's view of this hand is only ever theirs
    dealt: Vec<(Seat, Uuid)>,
    /// the hand's events so far, unredacted (snapshots redact them per viewer); rebuilt with
    /// the hand when the journal is replayed
    events: Vec<Event>,
    /// the pots as the events built them
    pots: PotTracker,
    /// a tournament's hand: its level
    level: Option<u32>,
    /// a tournament's hand: its number, for the report
    deal: u64,
}

/// The durable state between hands, as a snapshot holds it.
#[derive(Serialize, Deserialize)]
struct Saved {
    v: u32,
    /// inputs applied so far
    applied: u64,
    spec: TableSpec,
    seats: Vec<Option<SeatPlayer>>,
    seq: u64,
    hands_played: u64,
    pending: Option<TableSpec>,
    closing: bool,
    #[serde(default)]
    deal: Option<DealOrder>,
    #[serde(default)]
    last_report: Option<LastReport>,
}

/// One table, IO-less. See the module docs.
#[derive(Debug)]
pub struct TableCore {
    timing: Timing,
    spec: TableSpec,
    seats: [Option<SeatPlayer>; 8],
    /// presence: who watches, in a fixed order (outputs are deterministic)
    subs: BTreeMap<ConnId, Who>,
    seq: u64,
    live: Option<Live>,
    /// presence: when the next hand may start
    next_hand_at: Option<Millis>,
    hands_played: u64,
    /// presence: for the lobby's hands per hour
    opened_at: Millis,
    /// operator settings waiting for the current hand to end
    pending: Option<TableSpec>,
    /// closing: no new hands; stop once the current one is over
    closing: bool,
    closed: bool,
    /// inputs applied so far (the journal position)
    applied: u64,
    /// presence: each chatting player's next free moment (GCRA theoretical arrival time)
    chat_tat: BTreeMap<Uuid, Millis>,
    /// tournament tables: the next hand the tournament allowed
    deal: Option<DealOrder>,
    /// tournament tables: the last hand's report
    last_report: Option<LastReport>,
}

fn seat_index(seat: Seat) -> usize {
    usize::from(seat.number()) - 1
}

impl TableCore {
    /// A new, empty table.
    pub fn new(timing: Timing, spec: TableSpec, now: Millis) -> TableCore {
        TableCore {
            timing,
            spec,
            seats: Default::default(),
            subs: BTreeMap::new(),
            seq: 0,
            live: None,
            next_hand_at: None,
            hands_played: 0,
            opened_at: now,
            pending: None,
            closing: false,
            closed: false,
            applied: 0,
            chat_tat: BTreeMap::new(),
            deal: None,
            last_report: None,
        }
    }

    /// The same table with its journal position at `applied` (a table whose journal was
    /// voided continues after the damaged entries).
    pub fn starting_at(mut self, applied: u64) -> TableCore {
        self.applied = applied;
        self
    }

    /// A table as a snapshot left it (then apply the journal's later entries).
    ///
    /// # Errors
    /// The snapshot does not decode or is of another version.
    pub fn restore(timing: Timing, snapshot: &str, now: Millis) -> Result<TableCore, RestoreError> {
        let saved: Saved = serde_json::from_str(snapshot).map_err(|e| RestoreError::Corrupt(e.to_string()))?;
        if saved.v != JOURNAL_VERSION {
            return Err(RestoreError::Version(saved.v));
        }
        let mut seats: [Option<SeatPlayer>; 8] = Default::default();
        for (slot, s) in seats.iter_mut().zip(saved.seats) {
            *slot = s.map(|p| SeatPlayer { disconnected: true, ..p });
        }
        Ok(TableCore {
            timing,
            spec: saved.spec,
            seats,
            subs: BTreeMap::new(),
            seq: saved.seq,
            live: None,
            next_hand_at: None,
            hands_played: saved.hands_played,
            opened_at: now,
            pending: saved.pending,
            closing: saved.closing,
            closed: false,
            applied: saved.applied,
            chat_tat: BTreeMap::new(),
            deal: saved.deal,
            last_report: saved.last_report,
        })
    }

    /// The durable state, for a snapshot (meaningful between hands: a hand in play is not in it).
    pub fn snapshot(&self) -> String {
        let saved = Saved {
            v: JOURNAL_VERSION,
            applied: self.applied,
            spec: self.spec.clone(),
            seats: self.seats.to_vec(),
            seq: self.seq,
            hands_played: self.hands_played,
            pending: self.pending.clone(),
            closing: self.closing,
            deal: self.deal.clone(),
            last_report: self.last_report.clone(),
        };
        serde_json::to_string(&saved).unwrap_or_default()
    }

    // ---- queries ---------------------------------------------------------------------------

    /// The table's settings.
    pub fn spec(&self) -> &TableSpec {
        &self.spec
    }

    /// Inputs applied so far: the next journaled input is number `applied() + 1`.
    pub fn applied(&self) -> u64 {
        self.applied
    }

    /// Whether the table has closed.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// (the hand in play, hands played since it opened this time).
    pub fn status(&self) -> (Option<Uuid>, u64) {
        (self.live.as_ref().filter(|l| !l.hand.is_over()).map(|l| l.id), self.hands_played)
    }

    /// Tournament tables: whether a hand the tournament allowed is waiting to be dealt.
    pub fn deal_pending(&self) -> bool {
        self.deal.is_some()
    }

    /// Tournament tables: the number of the hand waiting to be dealt or in play, if any.
    pub fn deal_number(&self) -> Option<u64> {
        match (&self.deal, &self.live) {
            (Some(d), _) => Some(d.deal),
            (None, Some(l)) if !l.hand.is_over() => Some(l.deal),
            _ => None,
        }
    }

    /// Tournament tables: the last hand's report, as it was sent.
    pub fn last_report(&self) -> Option<&LastReport> {
        self.last_report.as_ref()
    }

    /// Whether this is a tournament's table.
    fn tournament(&self) -> bool {
        self.spec.tournament.is_some()
    }

    /// Whether a hand is being played.
    pub fn in_play(&self) -> bool {
        self.live.as_ref().is_some_and(|l| !l.hand.is_over())
    }

    /// Whether `player` has a seat or a connection here.
    pub fn is_here(&self, player: Uuid) -> bool {
        self.seat_of(player).is_some() || self.subs.values().any(|w| w.player_id == player)
    }

    /// The seated players and their stacks (in a hand, the engine's).
    pub fn stacks(&self) -> Vec<(Uuid, Chips)> {
        let in_play = self.live.as_ref().filter(|l| !l.hand.is_over()).map(|l| l.hand.stacks()).unwrap_or_default();
        self.seated()
            .map(|(seat, p)| {
                let stack = in_play.iter().find(|x| x.seat == seat).map_or(p.stack, |x| x.chips);
                (p.who.player_id, stack)
            })
            .collect()
    }

    /// Chips in the pot of the hand in play.
    pub fn pot(&self) -> Chips {
        self.live.as_ref().filter(|l| !l.hand.is_over()).map_or(0, |l| l.hand.pot_total())
    }

    /// The seat to act in the hand in play.
    pub fn to_act_seat(&self) -> Option<u8> {
        self.live.as_ref().and_then(|l| l.hand.to_act()).map(Seat::number)
    }

    /// Everything durable, hand included, as text: two tables with the same fingerprint
    /// behave the same from here on (tests compare a rebuilt table with the original).
    #[cfg(test)]
    pub(crate) fn fingerprint(&self) -> String {
        let live = self.live.as_ref().filter(|l| !l.hand.is_over()).map(|l| {
            let views: Vec<String> =
                l.hand.seats().map(|s| format!("{:?}", l.hand.view_for(Viewer::Seat(s)))).collect();
            let record = serde_json::to_string(&l.hand.record()).unwrap_or_default();
            let turn = l.turn.as_ref().map(|t| (t.seat, t.started));
            format!(
                "{} {} {} {} {turn:?} {:?} {record} {views:?} {:?} {:?}",
                l.id, l.number, l.started_at_ms, l.prompt_seq, l.dealt, l.events, l.pots
            )
        });
        format!("{} {:?} {}", self.snapshot(), live, self.closed)
    }

    /// When the table next needs [`TableCore::due`].
    pub fn wake_at(&self) -> Option<Millis> {
        let turn = self.live.as_ref().and_then(|l| l.turn.as_ref()).map(|t| t.deadline);
        match (turn, self.next_hand_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// A fresh snapshot frame for one connection.
    pub fn snapshot_frame(&self, conn: ConnId, now: Millis) -> Frame {
        self.snapshot_reply(conn, now, None)
    }

    /// A snapshot frame for one connection, answering its request `request_id` if any.
    fn snapshot_reply(&self, conn: ConnId, now: Millis, request_id: RequestId) -> Frame {
        let player = self.subs.get(&conn).map(|w| w.player_id);
        let viewer = player.and_then(|p| self.seat_of(p)).map_or(Viewer::Observer, Viewer::Seat);
        wire::frame(&ServerMsg::Snapshot {
            request_id,
            table_id: self.spec.id,
            seq: self.seq,
            table: self.table_state(viewer, player, now),
        })
    }

    /// What a connection that missed frames needs to catch up: a fresh snapshot and, if its
    /// player is the one to act, the prompt again.
    pub fn resync_frames(&self, conn: ConnId, now: Millis) -> Vec<Frame> {
        let mut frames = vec![self.snapshot_frame(conn, now)];
        let seat = self.conn_seat(conn);
        if let Some(seat) = seat {
            let mut out = Vec::new();
            self.prompt_conn(now, conn, seat, &mut out);
            frames.extend(out.into_iter().filter_map(|o| match o {
                Output::Send { frame, .. } => Some(frame),
                _ => None,
            }));
        }
        frames
    }

    /// The lobby line.
    pub fn summary(&self, now: Millis) -> TableSummary {
        let players: Vec<String> = self.seated().map(|(_, p)| p.who.name.clone()).collect();
        let hours = now.saturating_sub(self.opened_at) as f64 / 3_600_000.0;
        let config = self.current_config();
        let (next_variant, hands_to_next_variant) = self.next_game();
        TableSummary {
            id: self.spec.id,
            name: self.spec.name.clone(),
            variant: config.variant,
            config,
            min_buy_in: self.spec.min_buy_in,
            max_buy_in: self.spec.max_buy_in,
            seats_taken: players.len() as u8,
            seats: self.spec.seats,
            paused: self.spec.paused,
            private: self.spec.private,
            players,
            hands_per_hour: if hours > 0.0 { (self.hands_played as f64 / hours).round() } else { 0.0 },
            display: self.spec.display,
            chat: self.spec.chat_on(),
            next_variant,
            hands_to_next_variant,
            tournament_id: self.spec.tournament,
            tournament_level: self.tournament_level(),
        }
    }

    /// A tournament table's level: of the next hand once the tournament ordered it (as
    /// `current_config`), else of the hand in play or last dealt.
    fn tournament_level(&self) -> Option<u32> {
        self.deal.as_ref().map(|d| d.level).or_else(|| self.live.as_ref().and_then(|l| l.level))
    }

    /// The number of the hand in play, or of the next hand.
    fn current_number(&self) -> u64 {
        match &self.live {
            Some(l) if !l.hand.is_over() => l.number,
            _ => self.spec.hands_before + self.hands_played + 1,
        }
    }

    /// The rules and stakes of the hand in play, or of the next hand (a mixed game's game
    /// changes with the hand number; a tournament's come with its `Deal`).
    fn current_config(&self) -> TableConfig {
        if self.tournament() {
            return self.deal.as_ref().map_or(self.spec.config, |d| d.config);
        }
        self.spec.config_of(self.current_number())
    }

    /// A mixed game's next game and the hands until it starts (the current one included).
    fn next_game(&self) -> (Option<Variant>, Option<u32>) {
        let Some(n) = self.spec.rotation_hands.filter(|n| *n > 0 && !self.tournament()) else { return (None, None) };
        let now = self.current_number();
        let left = u64::from(n) - (now.saturating_sub(1) % u64::from(n));
        let next = self.spec.variant_of(now + left);
        (Some(next), u32::try_from(left).ok())
    }

    fn seated(&self) -> impl Iterator<Item = (Seat, &SeatPlayer)> {
        self.seats.iter().enumerate().filter_map(|(i, s)| Some((Seat::new(i as u8 + 1)?, s.as_ref()?)))
    }

    fn seat_of(&self, player: Uuid) -> Option<Seat> {
        self.seated().find(|(_, p)| p.who.player_id == player).map(|(s, _)| s)
    }

    fn conn_seat(&self, conn: ConnId) -> Option<Seat> {
        self.subs.get(&conn).and_then(|w| self.seat_of(w.player_id))
    }

    fn player(&self, seat: Seat) -> Option<&SeatPlayer> {
        self.seats.get(seat_index(seat)).and_then(Option::as_ref)
    }

    fn player_mut(&mut self, seat: Seat) -> Option<&mut SeatPlayer> {
        self.seats.get_mut(seat_index(seat)).and_then(Option::as_mut)
    }

    fn in_hand(&self, seat: Seat) -> bool {
        self.live.as_ref().is_some_and(|l| !l.hand.is_over() && l.hand.seats().any(|s| s == seat))
    }

    /// A seat's view of a hand belongs to the player who was dealt in there, not to whoever
    /// sits in that seat now (after a hand, a newcomer must not see the old cards).
    fn hand_viewer(live: &Live, viewer: Viewer, player: Option<Uuid>) -> Viewer {
        match viewer {
            Viewer::Seat(seat) if player.is_some_and(|p| live.dealt.contains(&(seat, p))) => viewer,
            _ => Viewer::Observer,
        }
    }

    fn table_state(&self, viewer: Viewer, player: Option<Uuid>, now: Millis) -> TableState {
        // During a hand the engine holds the stacks; between hands the seats do.
        let in_play = self.live.as_ref().filter(|l| !l.hand.is_over()).map(|l| l.hand.stacks()).unwrap_or_default();
        let seats = self
            .seated()
            .map(|(seat, p)| {
                let stack = in_play.iter().find(|x| x.seat == seat).map_or(p.stack, |x| x.chips);
                SeatInfo {
                    seat: seat.number(),
                    player_id: p.who.player_id,
                    name: p.who.name.clone(),
                    stack,
                    sitting_out: p.sitting_out,
                    sitting_out_reason: if p.sitting_out { p.sit_out_reason } else { None },
                    connected: p.connections > 0,
                }
            })
            .collect();
        TableState {
            seat_count: self.spec.seats,
            table_id: self.spec.id,
            name: self.spec.name.clone(),
            config: self.current_config(),
            min_buy_in: self.spec.min_buy_in,
            max_buy_in: self.spec.max_buy_in,
            seats,
            your_seat: match viewer {
                Viewer::Seat(s) => Some(s.number()),
                Viewer::Observer => None,
            },
            hand: self.live.as_ref().map(|l| self.hand_state(l, viewer, player, now)),
            display: self.spec.display,
            chat: self.spec.chat_on(),
            tournament_id: self.spec.tournament,
            tournament_level: self.tournament_level(),
        }
    }

    /// The hand in play as `viewer` may see it, with its events so far.
    fn hand_state(&self, l: &Live, viewer: Viewer, player: Option<Uuid>, now: Millis) -> HandState {
        let viewer = Self::hand_viewer(l, viewer, player);
        let own = match viewer {
            Viewer::Seat(s) if !l.hand.is_over() => Some(s),
            _ => None,
        };
        let (to_call, bring_in_amount) = own.map_or((None, None), |s| l.hand.prompt_amounts(s));
        let turn = l.turn.as_ref();
        HandState {
            hand_id: l.id,
            number: l.number,
            view: l.hand.view_for(viewer),
            deadline_ms: turn.map(|t| t.deadline.saturating_sub(now)),
            time_bank_ms: turn.map(|t| {
                let bank = self.player(t.seat).map_or(0, |p| p.time_bank_ms);
                bank.min(t.deadline.saturating_sub(now))
            }),
            pots: l.pots.hand_pots(),
            events: l.events.iter().map(|e| e.for_viewer(viewer)).collect(),
            to_call,
            bring_in_amount,
            hand_strength: own.and_then(|s| l.hand.strength_of(s)),
        }
    }

    // ---- sending ---------------------------------------------------------------------------

    fn send(out: &mut Vec<Output>, conn: ConnId, frame: Frame) {
        out.push(Output::Send { conn, frame });
    }

    fn error(out: &mut Vec<Output>, conn: ConnId, request_id: RequestId, code: ErrorCode, message: impl Into<String>) {
        out.push(Output::Metric(Metric::Error(code)));
        Self::send(out, conn, wire::error(request_id, code, message));
    }

    fn ack(&self, out: &mut Vec<Output>, conn: ConnId, request_id: RequestId, detail: impl Into<String>) {
        let frame = wire::frame(&ServerMsg::Ack {
            request_id,
            table_id: Some(self.spec.id),
            seq: Some(self.seq),
            detail: detail.into(),
        });
        Self::send(out, conn, frame);
    }

    /// One broadcast: the same frame to everyone, except `private` (seat, frame) for that
    /// seat's connections.
    fn broadcast(&self, out: &mut Vec<Output>, public: &Frame, private: Option<(Seat, Frame)>) {
        for (conn, who) in &self.subs {
            let frame = match &private {
                Some((owner, frame)) if self.seat_of(who.player_id) == Some(*owner) => frame,
                _ => public,
            };
            Self::send(out, *conn, frame.clone());
        }
    }

    fn broadcast_event(&mut self, out: &mut Vec<Output>, hand_id: Uuid, event: &Event) {
        self.seq += 1;
        let seq = self.seq;
        let table_id = self.spec.id;
        // Kept for snapshots; the pots and the hand's code go with the event.
        let (pots, hand_code) = match self.live.as_mut() {
            Some(live) => {
                if live.events.len() < EVENTS_KEPT {
                    live.events.push(event.clone());
                }
                let pots = live.pots.apply(event).then(|| live.pots.pots());
                (pots, Self::hand_code(&live.hand, event))
            }
            None => (None, None),
        };
        // Rendered once for everyone; the owner of a down card gets its own frame.
        let public = wire::frame(&ServerMsg::Event {
            table_id,
            seq,
            hand_id,
            event: event.for_viewer(Viewer::Observer),
            pots: pots.clone(),
            hand_code: hand_code.clone(),
        });
        let private = match event {
            Event::Dealt { seat, up: false, card: Some(_), .. } => Some((
                *seat,
                wire::frame(&ServerMsg::Event { table_id, seq, hand_id, event: event.clone(), pots, hand_code }),
            )),
            _ => None,
        };
        self.broadcast(out, &public, private);
    }

    /// The code of the hand a `shown` event shows or an `award` names (the half awarded).
    fn hand_code(hand: &Hand, event: &Event) -> Option<HandStrength> {
        match *event {
            Event::Shown { seat, .. } => hand.strength_of(seat),
            Event::Award { seat, half, hand: Some(_), .. } => {
                let s = hand.strength_of(seat)?;
                Some(match half {
                    Half::Whole => s,
                    Half::High => HandStrength { low: None, ..s },
                    Half::Low => HandStrength { high: None, ..s },
                })
            }
            _ => None,
        }
    }

    /// A seating change: a new seq and a fresh snapshot for everyone.
    fn broadcast_snapshots(&mut self, now: Millis, out: &mut Vec<Output>) {
        self.seq += 1;
        for conn in self.subs.keys() {
            Self::send(out, *conn, self.snapshot_frame(*conn, now));
        }
        out.push(Output::Summary(Box::new(self.summary(now))));
    }

    // ---- commands --------------------------------------------------------------------------

    /// Checks a command. Answers what needs no journal at once (into `out`); returns the
    /// input to journal otherwise.
    pub fn handle(&mut self, now: Millis, cmd: Command, out: &mut Vec<Output>) -> Decision {
        match cmd {
            Command::Join { conn, who, request_id, watch, banned } => {
                self.join(now, conn, who, request_id, watch, banned, out);
                Decision::Done
            }
            Command::Sit { conn, request_id, .. } | Command::TopUp { conn, request_id, .. } if self.tournament() => {
                let message = "a tournament table: the tournament assigns the seats and the chips";
                Self::error(out, conn, request_id, ErrorCode::Forbidden, message);
                Decision::Done
            }
            Command::Leave { conn, request_id } if self.tournament() => {
                // The seat is kept (an away player keeps posting and is folded by the clock):
                // leaving only stops watching.
                self.ack(out, conn, request_id, "left (the tournament seat is kept)");
                self.remove_sub(now, conn, out);
                Decision::Done
            }
            Command::TournamentSeat { who, seat, chips } => {
                let free = Seat::new(seat).filter(|s| seat <= self.spec.seats && self.player(*s).is_none());
                if !self.tournament() || free.is_none() || self.seat_of(who.player_id).is_some() {
                    return Decision::Done;
                }
                Decision::Journal { input: Input::Sit { seat, who, buy_in: chips }, debit: None }
            }
            Command::TournamentUnseat { player } => match self.seat_of(player) {
                Some(seat) if self.tournament() => {
                    Decision::Journal { input: Input::Leave { seat: seat.number() }, debit: None }
                }
                _ => Decision::Done,
            },
            Command::Deal { config, level, players, deal } => {
                if !self.tournament() {
                    return Decision::Done;
                }
                Decision::Journal { input: Input::Deal { config, level, players, deal }, debit: None }
            }
            Command::Sit { conn, request_id, seat, buy_in } => {
                let decision = self.check_sit(conn, request_id.clone(), seat, buy_in, out);
                if decision == Decision::Done {
                    self.refused(conn, out);
                }
                decision
            }
            Command::Act { conn, request_id, hand_id, seq, key, action } => {
                self.check_act(conn, request_id, hand_id, seq, key, action, out)
            }
            Command::SitOut { conn, request_id, out: away } => match self.conn_seat(conn) {
                Some(seat) => {
                    Decision::Journal { input: Input::SitOut { seat: seat.number(), out: away }, debit: None }
                }
                None => {
                    Self::error(out, conn, request_id, ErrorCode::NotSeated, "you have no seat at this table");
                    Decision::Done
                }
            },
            Command::TopUp { conn, request_id, amount } => self.check_top_up(conn, request_id, amount, out),
            Command::Leave { conn, request_id } => match self.conn_seat(conn) {
                Some(seat) => Decision::Journal { input: Input::Leave { seat: seat.number() }, debit: None },
                None => {
                    self.ack(out, conn, request_id, "left");
                    self.remove_sub(now, conn, out);
                    Decision::Done
                }
            },
            Command::Snapshot { conn, request_id } => {
                // The snapshot is the reply (it carries the request's id).
                if self.subs.contains_key(&conn) {
                    Self::send(out, conn, self.snapshot_reply(conn, now, request_id));
                } else {
                    Self::error(out, conn, request_id, ErrorCode::NotSeated, "join the table first");
                }
                Decision::Done
            }
            Command::Disconnect { conn } => {
                self.remove_sub(now, conn, out);
                Decision::Done
            }
            Command::Chat { conn, request_id, text, banned } => {
                self.chat(now, conn, request_id, &text, banned, out);
                Decision::Done
            }
            Command::Update { spec } => Decision::Journal { input: Input::Update { spec }, debit: None },
            Command::Pause { paused } => Decision::Journal { input: Input::Pause { paused }, debit: None },
            Command::Close => Decision::Journal { input: Input::Close, debit: None },
            Command::Kick { player, now: at_once } => {
                if self.seat_of(player).is_some() {
                    Decision::Journal { input: Input::Kick { player, now: at_once }, debit: None }
                } else {
                    self.drop_player(now, player, out);
                    Decision::Done
                }
            }
        }
    }

    /// A chat message: checked (a seated writer, chat on, not banned, not empty, not too
    /// long, not too fast) and sent to everyone watching. Nothing durable changes, so nothing
    /// is journaled; the frame carries no `seq` (a replay of the journal does not repeat it).
    fn chat(
        &mut self,
        now: Millis,
        conn: ConnId,
        request_id: RequestId,
        text: &str,
        banned: bool,
        out: &mut Vec<Output>,
    ) {
        let Some(who) = self.subs.get(&conn).cloned() else {
            return Self::error(out, conn, request_id, ErrorCode::NotSeated, "join the table first");
        };
        if banned {
            return Self::error(out, conn, request_id, ErrorCode::Forbidden, "you are banned from this table: muted");
        }
        if !self.spec.chat_on() {
            return Self::error(out, conn, request_id, ErrorCode::ChatOff, "this table's chat is off");
        }
        let Some(seat) = self.seat_of(who.player_id) else {
            return Self::error(
                out,
                conn,
                request_id,
                ErrorCode::NotSeated,
                "observers read the chat; take a seat to write",
            );
        };
        // Plain text on one line: control characters (newlines too) become spaces.
        let text: String = text.trim().chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        if text.is_empty() {
            return Self::error(out, conn, request_id, ErrorCode::Malformed, "an empty chat message");
        }
        let chars = text.chars().count();
        if chars > stud_proto::CHAT_MAX_CHARS {
            let message = format!("chat messages are at most {} characters, not {chars}", stud_proto::CHAT_MAX_CHARS);
            return Self::error(out, conn, request_id, ErrorCode::TooLong, message);
        }
        self.chat_tat.retain(|_, tat| *tat > now);
        let tat = self.chat_tat.get(&who.player_id).copied().unwrap_or(now).max(now);
        let allowance = (CHAT_BURST - 1) * CHAT_INTERVAL_MS;
        if tat - now > allowance {
            let wait = tat - now - allowance;
            let message = format!(
                "at most {CHAT_BURST} chat messages at once, then one every {} s; wait {wait} ms",
                CHAT_INTERVAL_MS / 1_000
            );
            return Self::error(out, conn, request_id, ErrorCode::RateLimited, message);
        }
        self.chat_tat.insert(who.player_id, tat + CHAT_INTERVAL_MS);
        let frame = wire::frame(&ServerMsg::Chat {
            table_id: self.spec.id,
            seat: seat.number(),
            player_id: who.player_id,
            name: who.name,
            text,
            at_ms: now,
        });
        self.broadcast(out, &frame, None);
        self.ack(out, conn, request_id, "sent");
    }

    /// After a refusal outside the core (the account could not pay, the journal failed):
    /// where nobody may watch, a connection whose sit failed does not stay as a spectator.
    pub fn refused(&mut self, conn: ConnId, out: &mut Vec<Output>) {
        let player = self.subs.get(&conn).map(|w| w.player_id);
        if !self.spec.observers && player.is_some_and(|p| self.seat_of(p).is_none()) {
            self.subs.remove(&conn);
            out.push(Output::Unsubscribed { conn });
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn join(
        &mut self,
        now: Millis,
        conn: ConnId,
        who: Who,
        request_id: RequestId,
        watch: bool,
        banned: bool,
        out: &mut Vec<Output>,
    ) {
        let player = who.player_id;
        if banned {
            Self::error(out, conn, request_id, ErrorCode::Forbidden, "you are banned from this table");
            out.push(Output::Unsubscribed { conn });
            return;
        }
        if watch && !self.spec.observers && self.seat_of(player).is_none() {
            Self::error(out, conn, request_id, ErrorCode::Forbidden, "this table has no observers");
            out.push(Output::Unsubscribed { conn });
            return;
        }
        let new = self.subs.insert(conn, who).is_none();
        if !new && !watch {
            // Already subscribed (a `sit` from a socket that watches): nothing to send.
            return;
        }
        if new && let Some(seat) = self.seat_of(player) {
            let back = self.player_mut(seat).map(|p| {
                p.connections += 1;
                std::mem::take(&mut p.disconnected)
            });
            if back == Some(true) {
                out.push(Output::Metric(Metric::Reconnect));
                self.restore_deadline(seat);
            }
        }
        Self::send(out, conn, self.snapshot_frame(conn, now));
        // An explicit `join_table` is answered; the subscription that comes with a `sit` or a
        // reconnecting `hello` is not a request of its own (the sit is answered itself).
        if watch {
            self.ack(out, conn, request_id, "joined");
        }
        // A seated player whose turn it is can act at once.
        if let Some(seat) = self.seat_of(player) {
            self.prompt_conn(now, conn, seat, out);
        }
    }

    fn check_sit(
        &mut self,
        conn: ConnId,
        request_id: RequestId,
        seat: Option<u8>,
        buy_in: Chips,
        out: &mut Vec<Output>,
    ) -> Decision {
        let Some(who) = self.subs.get(&conn).cloned() else {
            Self::error(out, conn, request_id, ErrorCode::NotSeated, "join the table first");
            return Decision::Done;
        };
        if self.seat_of(who.player_id).is_some() {
            Self::error(out, conn, request_id, ErrorCode::AlreadySeated, "you already have a seat here");
            return Decision::Done;
        }
        let chosen = match seat {
            Some(n) if (1..=8).contains(&n) && n > self.spec.seats => {
                let seats = self.spec.seats;
                Self::error(out, conn, request_id, ErrorCode::Malformed, format!("this table has seats 1 to {seats}"));
                return Decision::Done;
            }
            Some(n) => match Seat::new(n) {
                None => {
                    Self::error(out, conn, request_id, ErrorCode::Malformed, format!("seat {n} is not 1..=8"));
                    return Decision::Done;
                }
                Some(s) if self.player(s).is_some() => {
                    Self::error(out, conn, request_id, ErrorCode::SeatTaken, format!("seat {n} is taken"));
                    return Decision::Done;
                }
                Some(s) => s,
            },
            None => match (1..=self.spec.seats).filter_map(Seat::new).find(|s| self.player(*s).is_none()) {
                Some(s) => s,
                None => {
                    Self::error(out, conn, request_id, ErrorCode::TableFull, "no free seat");
                    return Decision::Done;
                }
            },
        };
        let (min, max) = (self.spec.min_buy_in, self.spec.max_buy_in);
        if !(min..=max).contains(&buy_in) {
            let message = format!("buy-in must be between {min} and {max}");
            Self::error(out, conn, request_id, ErrorCode::BuyInOutOfRange, message);
            return Decision::Done;
        }
        let player = who.player_id;
        Decision::Journal { input: Input::Sit { seat: chosen.number(), who, buy_in }, debit: Some((player, buy_in)) }
    }

    #[allow(clippy::too_many_arguments)]
    fn check_act(
        &mut self,
        conn: ConnId,
        request_id: RequestId,
        hand_id: Uuid,
        seq: u64,
        key: String,
        action: Action,
        out: &mut Vec<Output>,
    ) -> Decision {
        if !self.subs.contains_key(&conn) {
            Self::error(out, conn, request_id, ErrorCode::NotSeated, "join the table first");
            return Decision::Done;
        }
        let Some(seat) = self.conn_seat(conn) else {
            Self::error(out, conn, request_id, ErrorCode::NotSeated, "you have no seat at this table");
            return Decision::Done;
        };
        if self.player(seat).is_some_and(|p| p.recent_keys.contains(&key)) {
            self.ack(out, conn, request_id, "duplicate: already applied");
            return Decision::Done;
        }
        let Some(live) = self.live.as_ref().filter(|l| !l.hand.is_over()) else {
            Self::error(out, conn, request_id, ErrorCode::Stale, "no hand is in play");
            return Decision::Done;
        };
        if live.id != hand_id {
            Self::error(out, conn, request_id, ErrorCode::Stale, "that hand is over");
            return Decision::Done;
        }
        if seq < live.prompt_seq {
            let message = format!("answer the prompt of seq {}", live.prompt_seq);
            Self::error(out, conn, request_id, ErrorCode::Stale, message);
            return Decision::Done;
        }
        match check_action(&live.hand, seat, action) {
            Ok(()) => Decision::Journal { input: Input::Act { seat: seat.number(), action, key }, debit: None },
            Err(ActionError::NotYourTurn { .. }) => {
                Self::error(out, conn, request_id, ErrorCode::NotYourTurn, "it is not your turn");
                Decision::Done
            }
            Err(e @ ActionError::Illegal { .. }) => {
                Self::error(out, conn, request_id, ErrorCode::IllegalAction, e.to_string());
                Decision::Done
            }
            Err(e) => {
                Self::error(out, conn, request_id, ErrorCode::Stale, e.to_string());
                Decision::Done
            }
        }
    }

    fn check_top_up(&mut self, conn: ConnId, request_id: RequestId, amount: Chips, out: &mut Vec<Output>) -> Decision {
        let Some(seat) = self.conn_seat(conn) else {
            Self::error(out, conn, request_id, ErrorCode::NotSeated, "you have no seat at this table");
            return Decision::Done;
        };
        if self.in_hand(seat) {
            Self::error(out, conn, request_id, ErrorCode::NotNow, "top up between hands");
            return Decision::Done;
        }
        let max = self.spec.max_buy_in;
        let Some((player, stack)) = self.player(seat).map(|p| (p.who.player_id, p.stack)) else {
            return Decision::Done;
        };
        if amount == 0 || stack.saturating_add(amount) > max {
            let message = format!("a top-up may bring the stack to at most {max}");
            Self::error(out, conn, request_id, ErrorCode::BuyInOutOfRange, message);
            return Decision::Done;
        }
        Decision::Journal { input: Input::TopUp { seat: seat.number(), amount }, debit: Some((player, amount)) }
    }

    /// Removes a subscriber; a seated player left with no connection is marked disconnected
    /// (their turns get the grace period).
    fn remove_sub(&mut self, now: Millis, conn: ConnId, out: &mut Vec<Output>) {
        let Some(who) = self.subs.remove(&conn) else { return };
        out.push(Output::Unsubscribed { conn });
        let Some(seat) = self.seat_of(who.player_id) else { return };
        let gone = self.player_mut(seat).map(|p| {
            p.connections = p.connections.saturating_sub(1);
            if p.connections == 0 {
                p.disconnected = true;
            }
            p.connections == 0
        });
        if gone == Some(true) {
            let grace = now + self.timing.disconnect_grace_ms;
            if let Some(turn) = self.live.as_mut().and_then(|l| l.turn.as_mut()).filter(|t| t.seat == seat) {
                turn.deadline = turn.deadline.min(grace);
            }
        }
    }

    /// Tells a removed player's connections so and stops sending them this table.
    fn drop_player(&mut self, now: Millis, player: Uuid, out: &mut Vec<Output>) {
        let conns: Vec<ConnId> = self.subs.iter().filter(|(_, w)| w.player_id == player).map(|(id, _)| *id).collect();
        for conn in conns {
            Self::send(out, conn, wire::error(None, ErrorCode::Forbidden, "an operator removed you from this table"));
            self.remove_sub(now, conn, out);
        }
    }

    // ---- the clock ---------------------------------------------------------------------------

    /// What the clock wants now, if anything. Call until it returns `None`.
    pub fn due(&mut self, now: Millis) -> Option<Due> {
        if self.next_hand_at.is_some_and(|t| t <= now) {
            self.next_hand_at = None;
            if self.can_start() {
                return Some(Due::StartHand);
            }
        }
        let live = self.live.as_ref()?;
        let turn = live.turn.as_ref().filter(|t| t.deadline <= now)?;
        match live.hand.timeout_action() {
            Some((seat, action)) if seat == turn.seat => Some(Due::Input(Input::Clock { seat: seat.number(), action })),
            _ => {
                // A deadline the clock cannot act on (never expected): wait a full turn
                // rather than wake up again at once.
                let timeout = self.spec.action_timeout_ms;
                if let Some(t) = self.live.as_mut().and_then(|l| l.turn.as_mut()) {
                    t.deadline = now + timeout;
                }
                None
            }
        }
    }

    /// The clock's input could not be journaled (database down): try again at `at`.
    pub fn postpone_turn(&mut self, at: Millis) {
        if let Some(t) = self.live.as_mut().and_then(|l| l.turn.as_mut()) {
            t.deadline = t.deadline.max(at);
        }
    }

    /// The next hand could not start now (the store is far behind): try again at `at`.
    pub fn delay_hand(&mut self, at: Millis) {
        self.next_hand_at = Some(at);
    }

    fn eligible(&self) -> Vec<(Seat, Chips)> {
        if let Some(deal) = &self.deal {
            // A tournament deals in everyone it named who sits here with chips: away players
            // too (they post and the clock folds them).
            return self
                .seated()
                .filter(|(_, p)| p.stack > 0 && !p.leaving && deal.players.contains(&p.who.player_id))
                .map(|(s, p)| (s, p.stack))
                .collect();
        }
        if self.tournament() {
            return Vec::new();
        }
        self.seated()
            .filter(|(_, p)| !p.sitting_out && !p.leaving && !p.kick_after && p.stack > 0)
            .map(|(s, p)| (s, p.stack))
            .collect()
    }

    fn can_start(&self) -> bool {
        let paused = self.pending.as_ref().map_or(self.spec.paused, |p| p.paused);
        !self.in_play() && !paused && !self.closing && !self.closed && self.eligible().len() >= 2
    }

    fn schedule_hand(&mut self, now: Millis) {
        if self.next_hand_at.is_none() && !self.in_play() {
            self.next_hand_at = Some(now + self.timing.hand_pause_ms);
        }
    }

    fn restore_deadline(&mut self, seat: Seat) {
        let bank = self.player(seat).map_or(0, |p| p.time_bank_ms);
        let timeout = self.spec.action_timeout_ms;
        if let Some(turn) = self.live.as_mut().and_then(|l| l.turn.as_mut()).filter(|t| t.seat == seat) {
            turn.deadline = turn.started + timeout + bank;
        }
    }

    // ---- applying inputs -----------------------------------------------------------------------

    /// Applies an input accepted at `at`. `origin` is the connection that asked (answered
    /// here; `None` when replaying). Inputs made by [`TableCore::handle`] or [`TableCore::due`]
    /// always apply.
    ///
    /// # Errors
    /// [`RestoreError::Refused`] for an input this table would not have made (a damaged or
    /// foreign journal); the table is then unchanged except for the input count.
    pub fn apply(
        &mut self,
        at: Millis,
        input: &Input,
        origin: Option<(ConnId, RequestId)>,
        out: &mut Vec<Output>,
    ) -> Result<(), RestoreError> {
        self.applied += 1;
        let n = self.applied;
        let refused = |why: &str| RestoreError::Refused { n, why: why.to_owned() };
        match input {
            Input::Sit { seat, who, buy_in } => {
                let seat = Seat::new(*seat).filter(|s| self.player(*s).is_none()).ok_or_else(|| refused("seat"))?;
                if self.seat_of(who.player_id).is_some() {
                    return Err(refused("already seated"));
                }
                self.sit(at, seat, who, *buy_in, origin, out);
            }
            Input::Act { seat, action, key } => {
                let seat = Seat::new(*seat).ok_or_else(|| refused("seat"))?;
                self.act(at, seat, *action, key, origin, out).map_err(|e| refused(&e.to_string()))?;
            }
            Input::Clock { seat, action } => {
                let seat = Seat::new(*seat).ok_or_else(|| refused("seat"))?;
                self.clock(at, seat, *action, out).map_err(|e| refused(&e.to_string()))?;
            }
            Input::SitOut { seat, out: away } => {
                let seat = Seat::new(*seat).filter(|s| self.player(*s).is_some()).ok_or_else(|| refused("seat"))?;
                self.sit_out(at, seat, *away, origin, out);
            }
            Input::TopUp { seat, amount } => {
                let seat = Seat::new(*seat).filter(|s| self.player(*s).is_some()).ok_or_else(|| refused("seat"))?;
                self.top_up(at, seat, *amount, origin, out);
            }
            Input::Leave { seat } => {
                let seat = Seat::new(*seat).filter(|s| self.player(*s).is_some()).ok_or_else(|| refused("seat"))?;
                self.leave(at, seat, origin, out);
            }
            Input::StartHand { hand_id, seed } => self.start_hand(at, *hand_id, seed, out),
            Input::Resume => self.resume(at, out),
            Input::Update { spec } => {
                self.pending = Some((**spec).clone());
                if !self.in_play() {
                    self.apply_pending(at, out);
                }
            }
            Input::Pause { paused } => {
                self.spec.paused = *paused;
                if let Some(p) = self.pending.as_mut() {
                    p.paused = *paused;
                }
                if !paused {
                    self.schedule_hand(at);
                }
                out.push(Output::Summary(Box::new(self.summary(at))));
            }
            Input::Close => {
                self.closing = true;
                if !self.in_play() {
                    self.close(at, out);
                }
            }
            Input::Kick { player, now } => self.kick(at, *player, *now, out),
            Input::Deal { config, level, players, deal } => {
                self.deal = Some(DealOrder { config: *config, level: *level, players: players.clone(), deal: *deal });
                self.schedule_hand(at);
            }
        }
        if !self.in_play() && !self.closed {
            out.push(Output::Snapshot(self.snapshot()));
        }
        Ok(())
    }

    fn sit(
        &mut self,
        at: Millis,
        seat: Seat,
        who: &Who,
        buy_in: Chips,
        origin: Option<(ConnId, RequestId)>,
        out: &mut Vec<Output>,
    ) {
        let player = who.player_id;
        if !self.tournament() {
            out.push(Output::Ledger { player, kind: Movement::BuyIn, amount: buy_in });
        }
        out.push(Output::Seated { player, seated: true });
        let connections = self.subs.values().filter(|w| w.player_id == player).count();
        if let Some(slot) = self.seats.get_mut(seat_index(seat)) {
            *slot = Some(SeatPlayer {
                who: who.clone(),
                stack: buy_in,
                sitting_out: false,
                sit_out_next: false,
                leaving: false,
                kick_after: false,
                time_bank_ms: self.spec.time_bank_ms,
                sit_out_reason: None,
                recent_keys: VecDeque::new(),
                connections,
                disconnected: connections == 0,
            });
        }
        if let Some((conn, request_id)) = origin {
            self.ack(out, conn, request_id, format!("seated at {}", seat.number()));
        }
        self.broadcast_snapshots(at, out);
        self.schedule_hand(at);
    }

    fn act(
        &mut self,
        at: Millis,
        seat: Seat,
        action: Action,
        key: &str,
        origin: Option<(ConnId, RequestId)>,
        out: &mut Vec<Output>,
    ) -> Result<(), ActionError> {
        // The sender hears first that its action is in (then everyone sees its events), like
        // every other request that changes the table.
        if let Some((conn, request_id)) = origin
            && let Some(live) = self.live.as_ref()
        {
            check_action(&live.hand, seat, action)?;
            self.ack(out, conn, request_id, "applied");
        }
        self.apply_action(at, seat, action, false, out)?;
        if let Some(p) = self.player_mut(seat) {
            p.recent_keys.push_back(key.to_owned());
            if p.recent_keys.len() > KEYS_KEPT {
                p.recent_keys.pop_front();
            }
        }
        self.after_action(at, out);
        Ok(())
    }

    fn clock(&mut self, at: Millis, seat: Seat, action: Action, out: &mut Vec<Output>) -> Result<(), ActionError> {
        let live = self.live.as_ref().ok_or(ActionError::HandOver)?;
        check_action(&live.hand, seat, action)?;
        out.push(Output::Metric(Metric::Timeout));
        if let Some(p) = self.player_mut(seat) {
            p.time_bank_ms = 0;
            if action == Action::Fold {
                // A timeout fold sits the player out.
                p.sit_out_next = true;
                p.sit_out_reason = Some(SitOutReason::Timeout);
            }
        }
        self.apply_action(at, seat, action, true, out)?;
        self.after_action(at, out);
        Ok(())
    }

    fn sit_out(
        &mut self,
        at: Millis,
        seat: Seat,
        away: bool,
        origin: Option<(ConnId, RequestId)>,
        out: &mut Vec<Output>,
    ) {
        let in_hand = self.in_hand(seat);
        if let Some(p) = self.player_mut(seat) {
            if away {
                // RULES.md: sitting out takes effect after the current hand.
                if in_hand {
                    p.sit_out_next = true
                } else {
                    p.sitting_out = true
                }
                p.sit_out_reason = Some(SitOutReason::Requested);
            } else {
                p.sit_out_next = false;
                p.sitting_out = false;
                p.sit_out_reason = None;
            }
        }
        if let Some((conn, request_id)) = origin {
            self.ack(out, conn, request_id, if away { "sitting out" } else { "sitting in" });
        }
        self.broadcast_snapshots(at, out);
        self.schedule_hand(at);
    }

    fn top_up(
        &mut self,
        at: Millis,
        seat: Seat,
        amount: Chips,
        origin: Option<(ConnId, RequestId)>,
        out: &mut Vec<Output>,
    ) {
        if let Some(p) = self.player_mut(seat) {
            p.stack += amount;
            let player = p.who.player_id;
            out.push(Output::Ledger { player, kind: Movement::TopUp, amount });
        }
        if let Some((conn, request_id)) = origin {
            self.ack(out, conn, request_id, "topped up");
        }
        self.broadcast_snapshots(at, out);
        self.schedule_hand(at);
    }

    fn leave(&mut self, at: Millis, seat: Seat, origin: Option<(ConnId, RequestId)>, out: &mut Vec<Output>) {
        if self.in_hand(seat) {
            // RULES.md 8: the hand is played out by the clock (at once), then the seat is
            // cashed out.
            if let Some(p) = self.player_mut(seat) {
                p.leaving = true;
            }
            self.after_action(at, out);
        }
        if !self.in_hand(seat) {
            self.cash_out(seat, out);
            self.broadcast_snapshots(at, out);
        }
        if let Some((conn, request_id)) = origin {
            self.ack(out, conn, request_id, "left");
            self.remove_sub(at, conn, out);
        }
    }

    fn cash_out(&mut self, seat: Seat, out: &mut Vec<Output>) {
        let Some(p) = self.seats.get_mut(seat_index(seat)).and_then(Option::take) else { return };
        let player = p.who.player_id;
        // Tournament chips are not money: they leave with the player (to another table).
        if p.stack > 0 && self.spec.tournament.is_none() {
            out.push(Output::Ledger { player, kind: Movement::CashOut, amount: p.stack });
        }
        out.push(Output::Seated { player, seated: false });
    }

    /// Takes the operator's new settings (between hands).
    fn apply_pending(&mut self, at: Millis, out: &mut Vec<Output>) {
        let Some(mut spec) = self.pending.take() else { return };
        spec.hands_before = self.spec.hands_before;
        // Watchers came in under the old access rules: when they tighten (observers off, made
        // private, a new or revoked code), everyone without a seat has to come in again.
        let old = &self.spec;
        let tightened = (old.observers && !spec.observers)
            || (spec.private && (!old.private || spec.invite_code != old.invite_code));
        self.spec = spec;
        // Seats past a smaller table size are cashed out.
        for n in self.spec.seats + 1..=8 {
            if let Some(seat) = Seat::new(n) {
                self.cash_out(seat, out);
            }
        }
        if tightened {
            let watchers: Vec<ConnId> =
                self.subs.iter().filter(|(_, w)| self.seat_of(w.player_id).is_none()).map(|(id, _)| *id).collect();
            for conn in watchers {
                Self::send(
                    out,
                    conn,
                    wire::error(None, ErrorCode::Forbidden, "the table's access changed: join again"),
                );
                self.remove_sub(at, conn, out);
            }
        }
        self.broadcast_snapshots(at, out);
    }

    /// Closes the table: everyone is cashed out and told.
    fn close(&mut self, _at: Millis, out: &mut Vec<Output>) {
        for seat in (1..=8).filter_map(Seat::new) {
            self.cash_out(seat, out);
        }
        self.seq += 1;
        let frame = wire::frame(&ServerMsg::TableClosed { table_id: self.spec.id, seq: self.seq });
        self.broadcast(out, &frame, None);
        for conn in std::mem::take(&mut self.subs).into_keys() {
            out.push(Output::Unsubscribed { conn });
        }
        self.closed = true;
        out.push(Output::Closed);
    }

    /// Removes a seated player: their connections stop watching; their seat is cashed out
    /// now, or after the hand (`now`: the clock gives their hand up at once).
    fn kick(&mut self, at: Millis, player: Uuid, now: bool, out: &mut Vec<Output>) {
        let Some(seat) = self.seat_of(player) else { return };
        if let Some(p) = self.player_mut(seat) {
            p.leaving |= now;
            p.kick_after = true;
        }
        if now {
            self.drop_player(at, player, out);
            if self.in_hand(seat) {
                self.after_action(at, out);
            }
        }
        // Kicked for after the hand, the player keeps their view and plays it out;
        // finish_hand removes them.
        if !self.in_hand(seat) {
            self.cash_out(seat, out);
            self.drop_player(at, player, out);
            self.broadcast_snapshots(at, out);
        }
    }

    fn resume(&mut self, at: Millis, out: &mut Vec<Output>) {
        // The process was away, not the player: the one to act gets their whole clock again.
        let timeout = self.spec.action_timeout_ms;
        let seat = self.live.as_ref().and_then(|l| l.turn.as_ref()).map(|t| t.seat);
        let bank = seat.and_then(|s| self.player(s)).map_or(0, |p| p.time_bank_ms);
        if let Some(turn) = self.live.as_mut().and_then(|l| l.turn.as_mut()) {
            turn.started = at;
            turn.deadline = at + timeout + bank;
        }
        if !self.in_play() {
            self.schedule_hand(at);
        }
        out.push(Output::Summary(Box::new(self.summary(at))));
    }

    // ---- the hand --------------------------------------------------------------------------

    fn start_hand(&mut self, at: Millis, id: Uuid, seed: &JournalSeed, out: &mut Vec<Output>) {
        self.next_hand_at = None;
        if self.in_play() {
            return;
        }
        self.apply_pending(at, out);
        if self.spec.paused || self.closing {
            return;
        }
        let seats = self.eligible();
        if seats.len() < 2 {
            return;
        }
        let (mut level, mut deal_no) = (None, 0);
        if let Some(deal) = self.deal.take() {
            // The tournament's level: its stakes from this hand on.
            self.spec.config = deal.config;
            level = Some(deal.level);
            deal_no = deal.deal;
        }
        // A mixed game's game goes with the hand's number (a tournament's came with its Deal).
        let config = if level.is_some() {
            self.spec.config
        } else {
            self.spec.config_of(self.spec.hands_before + self.hands_played + 1)
        };
        let Ok((hand, events)) = Hand::start(config, &seats, seed.0) else {
            // The table's config was validated when it was made; nothing to deal.
            return;
        };
        self.hands_played += 1;
        let number = self.spec.hands_before + self.hands_played;
        let commitment = hand.commitment().map(|c| c.to_hex()).unwrap_or_default();
        let dealt = seats.iter().filter_map(|(s, _)| self.player(*s).map(|p| (*s, p.who.player_id))).collect();
        self.live = Some(Live {
            hand,
            id,
            number,
            started_at_ms: at,
            prompt_seq: 0,
            turn: None,
            dealt,
            events: Vec::with_capacity(128),
            pots: PotTracker::default(),
            level,
            deal: deal_no,
        });
        self.seq += 1;
        let started = wire::frame(&ServerMsg::HandStarted {
            table_id: self.spec.id,
            seq: self.seq,
            hand_id: id,
            number,
            commitment,
        });
        self.broadcast(out, &started, None);
        self.broadcast_events(id, &events, out);
        self.after_action(at, out);
    }

    fn broadcast_events(&mut self, hand_id: Uuid, events: &[Event], out: &mut Vec<Output>) {
        for e in events {
            self.broadcast_event(out, hand_id, e);
        }
    }

    /// Applies one action to the hand and broadcasts its events; charges the time bank for a
    /// player's own action.
    fn apply_action(
        &mut self,
        at: Millis,
        seat: Seat,
        action: Action,
        by_clock: bool,
        out: &mut Vec<Output>,
    ) -> Result<(), ActionError> {
        let Some(live) = self.live.as_mut() else { return Err(ActionError::HandOver) };
        let events = live.hand.apply(seat, action)?;
        out.push(Output::Metric(Metric::Action));
        let turn = live.turn.take();
        let hand_id = live.id;
        if !by_clock && let Some(t) = turn.filter(|t| t.seat == seat) {
            let over = at.saturating_sub(t.started).saturating_sub(self.spec.action_timeout_ms);
            if let Some(p) = self.player_mut(seat) {
                p.time_bank_ms = p.time_bank_ms.saturating_sub(over);
            }
        }
        self.broadcast_events(hand_id, &events, out);
        Ok(())
    }

    /// After events: finishes the hand, or plays for leavers and prompts the next player.
    fn after_action(&mut self, at: Millis, out: &mut Vec<Output>) {
        if self.live.as_ref().is_some_and(|l| l.hand.is_over()) {
            self.finish_hand(at, out);
            return;
        }
        self.play_for_absent(at, out);
        if self.live.as_ref().is_some_and(|l| l.hand.is_over()) {
            return;
        }
        if self.live.as_ref().is_some_and(|l| l.turn.is_none()) {
            self.prompt(at, out);
        }
    }

    /// Leavers' turns are taken by the clock at once (RULES.md 8).
    fn play_for_absent(&mut self, at: Millis, out: &mut Vec<Output>) {
        loop {
            let Some((seat, action)) = self.live.as_ref().and_then(|l| l.hand.timeout_action()) else { return };
            if !self.player(seat).is_some_and(|p| p.leaving) {
                return;
            }
            if self.apply_action(at, seat, action, true, out).is_err() {
                return;
            }
            if self.live.as_ref().is_none_or(|l| l.hand.is_over()) {
                self.finish_hand(at, out);
                return;
            }
        }
    }

    /// Starts the clock for the player to act and tells everyone.
    fn prompt(&mut self, at: Millis, out: &mut Vec<Output>) {
        let Some(seat) = self.live.as_ref().and_then(|l| l.hand.to_act()) else { return };
        let tournament = self.tournament();
        let (bank, away) = self
            .player(seat)
            .map_or((0, false), |p| (p.time_bank_ms, p.connections == 0 || (tournament && p.sitting_out)));
        let mut deadline = at + self.spec.action_timeout_ms + bank;
        if away {
            deadline = deadline.min(at + self.timing.disconnect_grace_ms);
        }
        self.seq += 1;
        let seq = self.seq;
        let table_id = self.spec.id;
        let Some(live) = self.live.as_mut() else { return };
        live.prompt_seq = seq;
        live.turn = Some(Turn { seat, started: at, deadline });
        let hand_id = live.id;
        let legal = live.hand.legal_actions(seat).to_vec();
        let deadline_ms = deadline.saturating_sub(at);
        let (to_call, bring_in_amount) = live.hand.prompt_amounts(seat);
        let yours = wire::frame(&ServerMsg::YourTurn {
            table_id,
            seq,
            hand_id,
            legal,
            deadline_ms,
            time_bank_ms: bank,
            to_call,
            bring_in_amount,
            hand_strength: live.hand.strength_of(seat),
        });
        let theirs = wire::frame(&ServerMsg::Turn {
            table_id,
            seq,
            hand_id,
            seat: seat.number(),
            deadline_ms,
            time_bank_ms: bank.min(deadline_ms),
        });
        self.broadcast(out, &theirs, Some((seat, yours)));
    }

    /// Re-sends the pending prompt to one connection of the seat to act (after a reconnect).
    fn prompt_conn(&self, now: Millis, conn: ConnId, seat: Seat, out: &mut Vec<Output>) {
        let Some(live) = self.live.as_ref().filter(|l| !l.hand.is_over()) else { return };
        let Some(turn) = live.turn.as_ref().filter(|t| t.seat == seat) else { return };
        let bank = self.player(seat).map_or(0, |p| p.time_bank_ms);
        let (to_call, bring_in_amount) = live.hand.prompt_amounts(seat);
        let frame = wire::frame(&ServerMsg::YourTurn {
            table_id: self.spec.id,
            seq: self.seq,
            hand_id: live.id,
            legal: live.hand.legal_actions(seat).to_vec(),
            deadline_ms: turn.deadline.saturating_sub(now),
            time_bank_ms: bank,
            to_call,
            bring_in_amount,
            hand_strength: live.hand.strength_of(seat),
        });
        Self::send(out, conn, frame);
    }

    fn finish_hand(&mut self, at: Millis, out: &mut Vec<Output>) {
        let Some(live) = self.live.as_mut() else { return };
        live.turn = None;
        let record = live.hand.record();
        let (hand_id, number, started_at_ms, deal) = (live.id, live.number, live.started_at_ms, live.deal);
        let tournament = self.spec.tournament.map(|t| (t, live.level.unwrap_or(0)));
        let stacks: Vec<(Seat, Chips)> = live.hand.stacks().iter().map(|s| (s.seat, s.chips)).collect();
        let awards = record.result.as_ref().map(|r| r.awards.clone()).unwrap_or_default();
        let showdown = record.result.as_ref().is_some_and(|r| !r.showdown.is_empty());
        self.seq += 1;
        let result = wire::frame(&ServerMsg::HandResult {
            table_id: self.spec.id,
            seq: self.seq,
            hand_id,
            awards,
            stacks: stacks.iter().map(|(s, c)| (s.number(), *c)).collect(),
        });
        self.broadcast(out, &result, None);

        let mut seats = Vec::with_capacity(stacks.len());
        for (seat, after) in &stacks {
            let before = record.seats.iter().find(|s| s.seat == *seat).map_or(0, |s| s.chips);
            let showdown = record.result.as_ref().is_some_and(|r| r.showdown.iter().any(|s| s.seat == *seat));
            if let Some(p) = self.player_mut(*seat) {
                p.stack = *after;
                seats.push(SeatResult {
                    seat: *seat,
                    who: p.who.clone(),
                    net: i64::try_from(*after).unwrap_or(i64::MAX) - i64::try_from(before).unwrap_or(i64::MAX),
                    showdown,
                });
            }
        }
        out.push(Output::Hand(Box::new(FinishedHand {
            hand_id,
            number,
            started_at_ms,
            ended_at_ms: at,
            record,
            seats,
            tournament,
        })));
        out.push(Output::Metric(Metric::Hand));
        if self.tournament() {
            let report: Vec<(Uuid, Chips)> = stacks
                .iter()
                .filter_map(|(seat, chips)| self.player(*seat).map(|p| (p.who.player_id, *chips)))
                .collect();
            self.last_report = Some(LastReport { deal, stacks: report.clone() });
            out.push(Output::TournamentHand { deal, stacks: report });
            // A player out of chips is out of the tournament: the seat empties.
            for (seat, chips) in &stacks {
                if *chips == 0 {
                    self.cash_out(*seat, out);
                }
            }
        }

        // Between hands: pending sit-outs, busted players, leavers.
        for seat in (1..=8).filter_map(Seat::new) {
            let (leave, kicked) = match self.player_mut(seat) {
                Some(p) => {
                    if p.sit_out_next || p.stack == 0 {
                        p.sitting_out = true;
                        p.sit_out_next = false;
                        if p.stack == 0 {
                            p.sit_out_reason = Some(SitOutReason::Busted);
                        }
                    }
                    (p.leaving || p.kick_after, p.kick_after.then_some(p.who.player_id))
                }
                None => (false, None),
            };
            if leave {
                self.cash_out(seat, out);
            }
            if let Some(player) = kicked {
                self.drop_player(at, player, out);
            }
        }
        if self.closing {
            return self.close(at, out);
        }
        self.apply_pending(at, out);
        self.broadcast_snapshots(at, out);
        if showdown {
            // The cards shown and the winning hand stay up at least the showdown pause.
            let pause = self.timing.showdown_pause_ms.max(self.timing.hand_pause_ms);
            self.next_hand_at = Some(at + pause);
        } else {
            self.schedule_hand(at);
        }
    }
}

/// Whether `hand` would take `action` from `seat`, with the engine's own reasons.
fn check_action(hand: &Hand, seat: Seat, action: Action) -> Result<(), ActionError> {
    if hand.is_over() {
        return Err(ActionError::HandOver);
    }
    if !hand.seats().any(|s| s == seat) {
        return Err(ActionError::NotInHand(seat));
    }
    match hand.to_act() {
        Some(turn) if turn == seat => {}
        Some(to_act) => return Err(ActionError::NotYourTurn { seat, to_act }),
        None => return Err(ActionError::HandOver),
    }
    let legal = hand.legal();
    if !legal.allows(action) {
        return Err(ActionError::Illegal { action, legal: legal.list().to_vec() });
    }
    Ok(())
}
