//! [`TableCore`]: one table's seats, clock, hand and room rules as a pure state machine.
//!
//! Two kinds of calls. [`TableCore::handle`] takes a client's or an operator's command: it
//! answers at once what changes nothing that must survive a restart (joining to watch, a
//! snapshot, a refusal), and otherwise returns the [`Input`](crate::Input) to journal.
//! [`TableCore::apply`] applies an input (a journaled one, or one replayed from the journal) and cannot be refused
//! by the rules, since `handle` checked it. Time comes in with every call; what the table
//! wants done comes out as [`Output`]s, and when it next needs to be woken as
//! [`TableCore::wake_at`].
//!
//! State is of two kinds: durable (seats, stacks, the hand, the settings: rebuilt from a
//! snapshot plus the journal) and presence (who is connected and watching, deadlines: gone
//! with the process; clients come back and say so).
//!
//! The core is split by job, each module adding its methods to [`TableCore`]; a module uses
//! only those below it (ARCHITECTURE.md has the table; `tests/layers.rs` checks the imports):
//! - [`types`]: the vocabulary (commands, outputs, per-seat state, the hand in play);
//! - this module: the struct, its constructors and the reads every job shares;
//! - [`snapshot`]: the durable state as text, and back; [`view`]: every frame, and the only
//!   place that builds a `ServerMsg`;
//! - [`clock`]: deadlines and when a hand may start;
//! - [`seats`]: a seat cashed out, a watcher dropped, settings taking effect, closing;
//! - [`hand`]: start, act, prompt, finish; [`waitlist`]: the waiting list and its seat offers;
//! - [`room`]: applying a journaled input; [`commands`]: checking a command.

mod clock;
mod commands;
mod hand;
mod room;
mod seats;
mod snapshot;
mod types;
pub(crate) mod view;
mod waitlist;

use std::collections::BTreeMap;

use stud_engine::{Chips, Seat, TableConfig};
use uuid::Uuid;

use crate::input::Who;
use crate::spec::TableSpec;

pub use self::types::{
    Command, ConnId, Decision, Due, FinishedHand, Frame, LastReport, Metric, Millis, Movement, Output, SeatResult,
    Timing,
};
use self::types::{DealOrder, Live, SeatPlayer, Waiter, seat_index};

/// Hands the lobby's average pot is taken over.
pub const RECENT_POTS: usize = 25;

/// The longest waiting list a table keeps.
pub const MAX_WAITING: usize = 50;

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
    /// the pots of the last [`RECENT_POTS`] hands, oldest first (the lobby's average pot)
    recent_pots: std::collections::VecDeque<Chips>,
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
    /// the waiting list, first in line first
    waitlist: Vec<Waiter>,
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
            recent_pots: Default::default(),
            opened_at: now,
            pending: None,
            closing: false,
            closed: false,
            applied: 0,
            chat_tat: BTreeMap::new(),
            deal: None,
            last_report: None,
            waitlist: Vec::new(),
        }
    }

    /// The same table with its journal position at `applied` (a table whose journal was
    /// voided continues after the damaged entries).
    pub fn starting_at(mut self, applied: u64) -> TableCore {
        self.applied = applied;
        self
    }

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

    /// A mixed game's next game (its rules) and the hands until it starts (the current one
    /// included).
    fn next_game(&self) -> (Option<TableConfig>, Option<u32>) {
        if self.tournament() {
            return (None, None);
        }
        let now = self.current_number();
        let Some(point) = self.spec.next_rotation_point(now) else { return (None, None) };
        (Some(self.spec.config_of(point)), u32::try_from(point - now).ok())
    }

    /// The occupied seats, in seat order.
    fn seated(&self) -> impl Iterator<Item = (Seat, &SeatPlayer)> {
        self.seats.iter().enumerate().filter_map(|(i, s)| Some((Seat::new(i as u8 + 1)?, s.as_ref()?)))
    }

    /// The seat `player` holds here.
    fn seat_of(&self, player: Uuid) -> Option<Seat> {
        self.seated().find(|(_, p)| p.who.player_id == player).map(|(s, _)| s)
    }

    /// The seat of the player behind a subscribed connection.
    fn conn_seat(&self, conn: ConnId) -> Option<Seat> {
        self.subs.get(&conn).and_then(|w| self.seat_of(w.player_id))
    }

    /// Who sits in `seat`.
    fn player(&self, seat: Seat) -> Option<&SeatPlayer> {
        self.seats.get(seat_index(seat)).and_then(Option::as_ref)
    }

    /// Who sits in `seat`, to change.
    fn player_mut(&mut self, seat: Seat) -> Option<&mut SeatPlayer> {
        self.seats.get_mut(seat_index(seat)).and_then(Option::as_mut)
    }

    /// Seats nobody holds (of the table's `seats`).
    fn free_seats(&self) -> usize {
        (1..=self.spec.seats).filter_map(Seat::new).filter(|s| self.player(*s).is_none()).count()
    }

    /// How many at the head of the waiting list are offered a seat: one per free seat.
    fn offered(&self) -> usize {
        // (Most tables have nobody waiting: no seat count on every input and wake-up.)
        if self.waitlist.is_empty() {
            return 0;
        }
        self.free_seats().min(self.waitlist.len())
    }

    /// `player`'s place on the waiting list (0: first in line).
    fn wait_position(&self, player: Uuid) -> Option<usize> {
        self.waitlist.iter().position(|w| w.who.player_id == player)
    }

    /// When the seat offered to the waiter at `index` lapses (offered now if not yet marked).
    fn offer_deadline(&self, index: usize, now: Millis) -> Option<Millis> {
        (index < self.offered())
            .then(|| self.waitlist.get(index).map(|w| w.offered_at.unwrap_or(now) + stud_proto::SEAT_OFFER_MS))
            .flatten()
    }

    /// Whether `seat` is dealt into the hand in play.
    fn in_hand(&self, seat: Seat) -> bool {
        self.live.as_ref().is_some_and(|l| !l.hand.is_over() && l.hand.seats().any(|s| s == seat))
    }
}
