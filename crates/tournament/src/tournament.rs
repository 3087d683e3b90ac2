//! [`Tournament`]: registration, the start, levels, hands, eliminations, places and prizes as
//! a pure state machine driven like the table core.
//!
//! [`Tournament::handle`] checks a [`Command`] (a player's, an operator's or a table's report)
//! and answers the [`Input`] to journal, or a [`TournamentError`]. [`Tournament::apply`]
//! applies a journaled input and cannot be refused; it returns the [`Output`]s for the server
//! to carry out (refunds, seats, moves, deals, places and prizes). [`Tournament::due`] is what
//! the clock wants (the start, a cancellation, the next level). Every random choice draws from
//! a [`Draw`] carried by the input, so replaying the journal gives the same tournament.
//!
//! Decisions (the issue left them open):
//! - **Levels by hands** count the hands of the table that has played the most in the level:
//!   when any table has played N hands at the level, the next level starts and applies to every
//!   table's next hand (time levels do the same on the clock). A level change never touches a
//!   hand in play: the stakes are fixed when a hand starts ([`Output::Deal`]).
//! - **Rotation** (`variant: rotation`): Razz, Stud, Stud Hi/Lo in that order, or the
//!   operator's `rotation_games` (each with its own betting structure if it names one), one
//!   game per level by default (every table plays the same game with the level's stakes); with
//!   `rotation_hands: N` each table changes game every N hands it deals (8 = an orbit).
//! - **Hand-for-hand** runs when registration is closed, two or more tables play, and one more
//!   elimination would reach the money (players left = paid places + 1). The hands in play
//!   then are the first round's at their tables; every other table with two or more players
//!   deals one hand, and no table deals again until all of those hands are over (one round);
//!   then every such table deals one hand again. Players eliminated in one round place
//!   together by their chips at the start of their hands (PokerStars; equal stacks share).
//!   It ends at the end of the round in which the field reaches the paid places.
//! - **Eliminations outside hand-for-hand** at different tables are not simultaneous: they
//!   place in the order the tables report their hands. Players busted in the same hand place
//!   by their chips at its start.
//! - **Places** are final when registration and re-entry are closed (the number of entries is
//!   then known): eliminations before that are kept in order and placed then. Each entry
//!   places (a player who re-entered can place twice). The pool is the entry fees of every
//!   entry; house fees are not in it.
//! - **The end**: when one entry holds every chip the tournament ends at once, closing late
//!   registration and re-entry if they were still open.
//! - **Re-entry** has no command of its own on the wire: a player whose entry is out
//!   registers again (`tournament_register`, `POST .../entries`) while re-entry is open, and
//!   that is a re-entry (a new entry with a starting stack, charged like the first).
//! - **Bounties** (`bounty`): each entry carries a head of `bounty` cents, bought with it
//!   (not in the prize pool). A busted entry's head is paid to the players awarded a part of
//!   the last pot it had chips in (the table names them, [`Knockout`]); several winners of
//!   that pot (a tie, the halves of hi/lo) share it in proportion to the chips each took from
//!   it, floored to cents, the cents left over one each to the larger shares first (ties: the
//!   earlier entry). Each bust in a hand is its own knockout, so one player may take several
//!   heads in one hand. With `progressive_bounty` each share is split: half onto the
//!   winner's own head, the rest (the odd cent included) paid now; a winner no longer playing
//!   when it is paid takes it all in cash. A bust with a rebuy offer is paid when the offer
//!   lapses (a rebuy keeps the head on). The last entry standing is paid its own head. So
//!   the bounties paid add up to `bounty` x entries. A report that names no eliminator (a
//!   table from before bounties) gives the head to the player with the most chips after the
//!   hand at that table (ties: the earlier entry).
//! - **Satellites** (`satellite_for`): the first places win tickets, each the target's
//!   buy-in in cents, as many as the pool buys (at most `tickets`, at most the entries); the
//!   pool left over is money, paid by `payouts` (default: all of it to the next place). The
//!   core pays a ticket as a prize like any other and marks it ([`Placed::ticket`]); the
//!   server then registers the player in the target with it. Places tied across the last
//!   ticket share its money and get no ticket. The bubble of hand-for-hand is the last
//!   paid place, ticket or money.
//! - `max_entrants` caps the players who register; re-entries are not capped by it (a
//!   re-entry takes the seat count a bust freed) but by [`crate::MAX_ENTRIES`].

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use stud_engine::{Chips, TableConfig, Variant};
use thiserror::Error;
use uuid::Uuid;

use crate::deal::{DealMethod, shares};
use crate::draw::{Draw, Drawer};
use crate::floor::{EntryNo, Floor, Move, Spot, TableNo};
use crate::payout::{default_payouts, place_group, prizes};
use crate::spec::{
    BasisPoints, Cents, Game, Games, Kind, LevelLength, MAX_ENTRIES, Millis, RotationGame, TournamentSpec,
};

/// The format of snapshots and journaled inputs.
pub const TOURNAMENT_VERSION: u32 = 1;

/// Where a tournament is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// taking registrations
    Registering,
    /// playing
    Running,
    /// one entry holds every chip
    Finished,
    /// cancelled before the start (everyone refunded)
    Cancelled,
}

/// Where an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryState {
    /// registered, waiting for the start
    Registered,
    /// unregistered before the start (refunded)
    Withdrawn,
    /// at a table
    Playing,
    /// eliminated (or the tournament was cancelled)
    Out,
}

/// One entry bought into the tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// 1, 2, ... in the order bought
    pub no: EntryNo,
    /// the player
    pub player: Uuid,
    /// display name
    pub name: String,
    /// tournament chips
    pub chips: Chips,
    /// where it is
    pub state: EntryState,
    /// hands dealt in
    pub hands: u64,
    /// the finishing place, once known
    pub place: Option<u32>,
    /// the prize in cents, once the place is known
    pub prize: Option<Cents>,
    /// rebuys bought
    #[serde(default)]
    pub rebuys: u32,
    /// took the add-on
    #[serde(default)]
    pub addon: bool,
    /// chips bought while its table was in a hand: added when that hand ends
    #[serde(default)]
    pub pending: Chips,
    /// busted in the rebuy period: a rebuy is offered until then (ms since the Unix epoch)
    #[serde(default)]
    pub rebuy_offer_until: Option<Millis>,
    /// cents of bounty on this entry's head (0 once paid, or without bounties)
    #[serde(default)]
    pub head: Cents,
    /// cents of bounties this entry has been paid (its own head included, for the winner)
    #[serde(default)]
    pub bounties: Cents,
    /// busted with a rebuy offer open: who takes its head if the offer lapses
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub knocked_out_by: Vec<(EntryNo, Chips)>,
    /// cents this entry was paid by a deal at the final table
    #[serde(default)]
    pub deal: Cents,
    /// the key its last rebuy was bought with, if the buyer gave one
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebuy_key: Option<String>,
}

/// A deal proposed at the final table, open until every remaining player accepts, one
/// declines, a hand ends with someone out, or `until`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    /// who proposed it
    pub by: EntryNo,
    /// how it shares the money
    pub method: DealMethod,
    /// cents left to play for (the winner's, when play goes on)
    pub leave: Cents,
    /// who has accepted the figures as they stand (cleared when a hand changes them)
    pub accepted: BTreeSet<EntryNo>,
    /// it lapses then (ms since the Unix epoch)
    pub until: Millis,
}

/// A deal made: what each remaining player was paid, and what was left to play for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    /// who proposed it
    pub by: EntryNo,
    /// how it shared the money
    pub method: DealMethod,
    /// cents left to play for (0: the tournament ended with the deal)
    pub leave: Cents,
    /// (entry, cents) for each player left, in entry order
    pub shares: Vec<(EntryNo, Cents)>,
}

/// A busted player and who took its last chips: the players awarded a part of the last pot
/// it had chips in, with the chips each took from that pot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Knockout {
    /// the busted player
    pub player: Uuid,
    /// (winner, chips won from that pot)
    pub by: Vec<(Uuid, Chips)>,
}

/// A satellite's tickets for the current field ([`Tournament::tickets_won`]).
#[derive(Clone, Copy, Debug, Default)]
struct Tickets {
    /// how many places win one
    count: u32,
    /// every entrant wins one
    every: bool,
}

/// A line of the results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placed {
    /// 1 = the winner
    pub place: u32,
    /// the entry
    pub entry: EntryNo,
    /// the player
    pub player_id: Uuid,
    /// display name
    pub name: String,
    /// cents (0 outside the money)
    pub prize: Cents,
    /// hands dealt in
    pub hands: u64,
    /// cents of bounties won
    pub bounties: Cents,
    /// cents paid by a deal at the final table (on top of `prize`, already paid)
    pub deal: Cents,
    /// a satellite's ticket: the prize is an entry to this tournament (the server pays the
    /// prize and registers the player there with it)
    pub ticket: Option<Uuid>,
}

/// The hand-for-hand state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandForHand {
    /// hands that started before hand-for-hand are still being played, and count in no
    /// round (snapshots from before the hands in play made up the first round; never set now)
    pub draining: bool,
    /// tables that dealt in this round
    pub dealt: BTreeSet<TableNo>,
    /// rounds completed
    pub rounds: u32,
    /// eliminated in this round (placed together at its end): entry, chips at the hand's start
    pub pending: Vec<(EntryNo, Chips)>,
}

/// A player's, an operator's, the clock's or a table's request, checked by
/// [`Tournament::handle`]. (Serialized as a cluster gateway relays an operator's or a
/// player's command to the gateway directing the tournament.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Command {
    /// Register (or late-register). `draw` seats a late entry.
    Register {
        /// who
        player: Uuid,
        /// display name
        name: String,
        /// the code of a private tournament
        invite_code: Option<String>,
        /// a fresh seed
        draw: Draw,
    },
    /// Unregister before the start (refunded).
    Unregister {
        /// who
        player: Uuid,
    },
    /// A busted player buys a new entry.
    ReEnter {
        /// who
        player: Uuid,
        /// a fresh seed
        draw: Draw,
    },
    /// A table wants to deal its next hand.
    StartHand {
        /// the table
        table: TableNo,
    },
    /// A table's hand ended: every player dealt in and their chips now.
    HandFinished {
        /// the table
        table: TableNo,
        /// the hand's number at this table, as [`Output::Deal`] gave it (0: not numbered, a
        /// table journal from before numbers; taken for the hand in play)
        deal: u64,
        /// (player, chips after the hand) for everyone dealt in
        stacks: Vec<(Uuid, Chips)>,
        /// who took each busted player's last chips
        knockouts: Vec<Knockout>,
        /// a fresh seed (for breaking tables)
        draw: Draw,
    },
    /// An operator cancels before the start.
    Cancel,
    /// A rebuy: an entry busted in the rebuy period is seated again (while its offer lasts);
    /// a playing entry at or below the starting stack gets the chips (after the hand in play
    /// at its table).
    Rebuy {
        /// who
        player: Uuid,
        /// a fresh seed (seats a busted entry)
        draw: Draw,
        /// the buyer's key for this purchase: the entry's last rebuy made with the same key is
        /// this one again ([`TournamentError::AlreadyBought`]), never a second
        key: Option<String>,
    },
    /// The add-on, while it is offered.
    AddOn {
        /// who
        player: Uuid,
    },
    /// An operator pauses a running tournament: no table deals a new hand (hands in play
    /// finish) and every clock stops (the level, a break, rebuy offers, the add-on).
    Pause,
    /// An operator resumes a paused tournament: the clocks go on from where they stopped.
    Resume,
    /// An operator changes a rotation's hands per game and/or games (checked with
    /// [`Tournament::with_rotation`]): before the start at once, while running from the next
    /// level ([`Tournament::rotation_pending`]); refused at the last level.
    Rotation {
        /// hands per game at each table (a per-level rotation becomes one by hands)
        hands: Option<u32>,
        /// the games in order
        games: Option<Vec<RotationGame>>,
    },
    /// An operator renames the tournament.
    Rename {
        /// the new display name (checked by the caller)
        name: String,
    },
    /// An operator gives a private tournament a new invite code (the old one stops working).
    NewInviteCode {
        /// the new code (made by the caller)
        code: String,
    },
    /// A player at the final table proposes a deal.
    ProposeDeal {
        /// who
        player: Uuid,
        /// how it shares the money
        method: DealMethod,
        /// cents left to play for
        leave: Cents,
    },
    /// A player at the final table accepts the open deal (between hands) or declines it.
    AnswerDeal {
        /// who
        player: Uuid,
        /// accept, or decline (the deal is off)
        accept: bool,
    },
}

/// What a tournament journals: the inputs that change it, each already checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Input {
    /// a registration (paid)
    Register {
        /// who
        player: Uuid,
        /// display name
        name: String,
        /// seats a late entry
        draw: Draw,
    },
    /// an unregistration (refunded)
    Unregister {
        /// who
        player: Uuid,
    },
    /// a re-entry (paid)
    ReEnter {
        /// who
        player: Uuid,
        /// seats it
        draw: Draw,
    },
    /// the start
    Start {
        /// seats everyone
        draw: Draw,
    },
    /// cancelled (everyone refunded)
    Cancel,
    /// the next level (time levels; hand levels change inside [`Input::HandFinished`])
    NextLevel,
    /// a table deals
    HandStarted {
        /// the table
        table: TableNo,
    },
    /// a table's hand ended
    HandFinished {
        /// the table
        table: TableNo,
        /// (player, chips after)
        stacks: Vec<(Uuid, Chips)>,
        /// who took each busted player's last chips (journals from before bounties: none)
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        knockouts: Vec<Knockout>,
        /// breaks tables
        draw: Draw,
    },
    /// a rebuy (paid)
    Rebuy {
        /// who
        player: Uuid,
        /// seats a busted entry
        draw: Draw,
        /// the buyer's key (kept as the entry's [`Entry::rebuy_key`])
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
    },
    /// an add-on (paid)
    AddOn {
        /// who
        player: Uuid,
    },
    /// the clock: rebuy offers and the add-on past their time lapse
    OffersLapsed,
    /// the clock: the break is over
    BreakOver,
    /// an operator paused it
    Pause,
    /// an operator resumed it
    Resume,
    /// an operator changed the rotation (checked when accepted)
    Rotation {
        /// hands per game
        hands: Option<u32>,
        /// the games in order
        games: Option<Vec<RotationGame>>,
    },
    /// an operator renamed it
    Rename {
        /// the new name
        name: String,
    },
    /// an operator replaced a private tournament's invite code
    NewInviteCode {
        /// the new code
        code: String,
    },
    /// a deal proposed (open for [`DEAL_MS`])
    ProposeDeal {
        /// by this entry
        by: EntryNo,
        /// how it shares the money
        method: DealMethod,
        /// cents left to play for
        leave: Cents,
        /// the proposer accepts it as it stands (false when proposed during a hand)
        accepted: bool,
    },
    /// an entry accepted the open deal (not the last one to)
    AcceptDeal {
        /// who
        entry: EntryNo,
    },
    /// the last acceptance: the deal is made with these shares (worked out when it was
    /// accepted, so a replay never recomputes them)
    Deal {
        /// the deal
        deal: Deal,
    },
    /// the open deal is off: an entry declined it
    DeclineDeal {
        /// who
        entry: EntryNo,
    },
    /// the clock: the open deal lapsed
    DealLapsed,
}

/// What `handle` accepted.
#[derive(Clone, Debug, PartialEq)]
pub struct Accepted {
    /// journal it, then [`Tournament::apply`] it
    pub input: Input,
    /// (player, cents) the account must give first (refuse the command if it cannot)
    pub debit: Option<(Uuid, Cents)>,
}

/// What the clock wants.
#[derive(Clone, Debug, PartialEq)]
pub enum Due {
    /// Start now: journal [`Input::Start`] with a fresh draw.
    Start,
    /// Journal and apply this input.
    Input(Input),
}

/// Something for the server to do or tell.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// Give cents back to an account (unregistering, cancellation).
    Refund {
        /// who
        player: Uuid,
        /// cents
        amount: Cents,
    },
    /// The tournament started with these tables.
    Started {
        /// entries at the start
        entries: u32,
        /// tables opened
        tables: Vec<TableNo>,
    },
    /// Seat an entry (the start, a late entry, a re-entry) with its chips.
    Seat {
        /// who
        player: Uuid,
        /// which entry
        entry: EntryNo,
        /// where
        at: Spot,
        /// its chips
        chips: Chips,
    },
    /// Move a player between hands.
    Move {
        /// who
        player: Uuid,
        /// the move
        step: Move,
    },
    /// This table has broken (empty, close it).
    TableClosed {
        /// the table
        table: TableNo,
    },
    /// One table is left.
    FinalTable {
        /// the table
        table: TableNo,
    },
    /// Deal this table's hand with these stakes and game.
    Deal {
        /// the table
        table: TableNo,
        /// the hand's number at this table (1, 2, ...): its report must carry it, so a late
        /// report of an earlier hand is never taken for this one
        deal: u64,
        /// 1-based level
        level: u32,
        /// the game and stakes
        config: TableConfig,
    },
    /// A new level applies from each table's next hand.
    Level {
        /// 1-based
        level: u32,
    },
    /// No more entries: the field and the payouts are known.
    RegistrationClosed {
        /// entries sold
        entries: u32,
        /// the prize pool in cents
        pool: Cents,
        /// prize by place
        prizes: Vec<Cents>,
    },
    /// An entry is out of chips (its place may come later).
    Eliminated {
        /// who
        player: Uuid,
        /// which entry
        entry: EntryNo,
        /// where
        table: TableNo,
    },
    /// An entry's final place and prize (pay `prize` to the player's account if above 0).
    Placed(Placed),
    /// Hand-for-hand starts (true) or ends (false).
    HandForHand {
        /// on or off
        on: bool,
    },
    /// A hand-for-hand round begins (at its start: the tables not already in a hand; after a
    /// round: every table that can play): these tables may deal.
    NextRound {
        /// the tables
        tables: Vec<TableNo>,
    },
    /// The tournament is over.
    Ended {
        /// the winner
        winner: Uuid,
    },
    /// The tournament was cancelled (refunds are their own outputs).
    Cancelled,
    /// An entry's chips changed between hands (a rebuy or the add-on): its table's stack is
    /// now `chips` (seat it again at its spot if the table let it go when it busted).
    Chips {
        /// who
        player: Uuid,
        /// which entry
        entry: EntryNo,
        /// its chips now
        chips: Chips,
    },
    /// A break starts: no table deals until `until` (hands in play finish first); the next
    /// level's clock starts then.
    Break {
        /// when play resumes (ms since the Unix epoch)
        until: Millis,
    },
    /// The break is over: tables deal again.
    BreakOver,
    /// An operator paused the tournament (true) or resumed it (false).
    Paused {
        /// paused, or going on
        paused: bool,
    },
    /// The open deal changed: proposed, accepted by one more, its figures changed by a hand,
    /// or it is off (`Tournament::proposal` says which; none: off).
    DealChanged,
    /// A deal was made: pay `cents` to `player` (ledger `tournament_deal`).
    DealPaid {
        /// who
        player: Uuid,
        /// which entry
        entry: EntryNo,
        /// cents
        cents: Cents,
    },
    /// A bounty paid: `cents` to `player`'s account for the head of entry `of` (its own, for
    /// the winner).
    Bounty {
        /// who is paid
        player: Uuid,
        /// their entry
        entry: EntryNo,
        /// the entry whose head it was
        of: EntryNo,
        /// cents paid now
        cents: Cents,
        /// cents now on the paid entry's head (progressive bounties add to it)
        head: Cents,
    },
    /// Offer a player a rebuy or the add-on, until `until` (ms since the Unix epoch).
    Offer {
        /// who
        player: Uuid,
        /// which entry
        entry: EntryNo,
        /// what
        offer: Offer,
        /// when it lapses
        until: Millis,
    },
}

/// What [`Output::Offer`] offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Offer {
    /// a rebuy (the entry busted in the rebuy period)
    Rebuy,
    /// the add-on (the rebuy period is over)
    AddOn,
}

/// How long a player busted in the rebuy period has to rebuy.
pub const REBUY_OFFER_MS: Millis = 60_000;
/// How long the add-on is sold once the rebuy period ends (play goes on meanwhile).
pub const ADDON_MS: Millis = 120_000;
/// How long a proposed deal stays open.
pub const DEAL_MS: Millis = 120_000;

/// A refused command. Nothing was journaled or charged. (Serialized as a cluster gateway
/// relays it from the gateway directing the tournament.)
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum TournamentError {
    /// registration is not open (started without late registration, past it, or over)
    #[error("registration is closed")]
    RegistrationClosed,
    /// every place is taken
    #[error("the tournament is full")]
    Full,
    /// already registered (or still playing)
    #[error("already registered")]
    AlreadyRegistered,
    /// not registered
    #[error("not registered")]
    NotRegistered,
    /// private: wrong or missing code
    #[error("wrong invite code")]
    WrongInviteCode,
    /// too late to unregister
    #[error("the tournament has started")]
    Started,
    /// re-entry is not open
    #[error("re-entry is closed")]
    ReentryClosed,
    /// a re-entry needs the previous entry to be out
    #[error("still playing")]
    StillPlaying,
    /// not running
    #[error("the tournament is not running")]
    NotRunning,
    /// no such table
    #[error("no table {0}")]
    NoSuchTable(TableNo),
    /// that table is in a hand
    #[error("table {0} is in a hand")]
    HandInPlay(TableNo),
    /// that table is between hands
    #[error("table {0} is not in a hand")]
    NoHand(TableNo),
    /// fewer than two players at the table (wait for balancing)
    #[error("table {0} waits for players")]
    WaitForPlayers(TableNo),
    /// hand-for-hand: wait for the other tables
    #[error("table {0} waits for the hand-for-hand round")]
    HandForHand(TableNo),
    /// a hand's report does not match the table (players or chips)
    #[error("bad hand report: {0}")]
    BadReport(String),
    /// a break: no table deals until it ends
    #[error("the tournament is on a break")]
    OnBreak,
    /// paused by an operator: no table deals until it is resumed
    #[error("the tournament is paused")]
    Paused,
    /// resumed while not paused
    #[error("the tournament is not paused")]
    NotPaused,
    /// a public tournament has no invite code to replace
    #[error("the tournament is public: it has no invite code")]
    NotPrivate,
    /// no deal can be proposed or answered now (the reason says why)
    #[error("{0}")]
    NoDeal(Cow<'static, str>),
    /// rebuys are not sold now (none in this tournament, or the rebuy period is over)
    #[error("rebuys are closed")]
    RebuyClosed,
    /// this entry's last rebuy was bought with the same key: it is that purchase again (a
    /// retry), not a new one
    #[error("already bought with this key")]
    AlreadyBought,
    /// the add-on is not sold now (none in this tournament, not yet, or over)
    #[error("the add-on is not on offer")]
    AddOnClosed,
    /// this player may not buy it now (the reason says why)
    #[error("{0}")]
    NotOffered(Cow<'static, str>),
    /// the last level is being played: no level is left for a change of the rotation
    #[error("the last level is being played: no level is left to change the rotation at")]
    LastLevel,
    /// an operator's rotation does not fit the tournament (the field and why)
    #[error("{0}")]
    BadRotation(String),
    /// a report of another hand than the one in play (a late report of an earlier hand)
    #[error("the report of hand {reported} at table {table}, where hand {in_play} is in play")]
    StaleReport {
        /// the table
        table: TableNo,
        /// the hand reported
        reported: u64,
        /// the hand in play
        in_play: u64,
    },
}

impl TournamentError {
    /// A stable snake_case code for the wire.
    pub fn code(&self) -> &'static str {
        match self {
            TournamentError::RegistrationClosed => "registration_closed",
            TournamentError::Full => "tournament_full",
            TournamentError::AlreadyRegistered => "already_registered",
            TournamentError::NotRegistered => "not_registered",
            TournamentError::WrongInviteCode => "wrong_invite_code",
            TournamentError::Started => "tournament_started",
            TournamentError::ReentryClosed => "reentry_closed",
            TournamentError::StillPlaying => "still_playing",
            TournamentError::NotRunning => "not_running",
            TournamentError::NoSuchTable(_) => "no_such_table",
            TournamentError::HandInPlay(_) => "hand_in_play",
            TournamentError::NoHand(_) => "no_hand",
            TournamentError::WaitForPlayers(_) => "wait_for_players",
            TournamentError::HandForHand(_) => "hand_for_hand",
            TournamentError::BadReport(_) => "bad_report",
            TournamentError::StaleReport { .. } => "stale_report",
            TournamentError::OnBreak => "on_break",
            TournamentError::Paused => "paused",
            TournamentError::NotPaused => "not_paused",
            TournamentError::NotPrivate => "not_private",
            TournamentError::NoDeal(_) => "no_deal",
            TournamentError::RebuyClosed => "rebuy_closed",
            TournamentError::AlreadyBought => "already_bought",
            TournamentError::AddOnClosed => "addon_closed",
            TournamentError::NotOffered(_) => "not_offered",
            TournamentError::BadRotation(_) => "bad_rotation",
            TournamentError::LastLevel => "last_level",
        }
    }
}

/// One journal entry: an input, its number and when it was accepted (ms since the Unix epoch).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Journaled {
    /// [`TOURNAMENT_VERSION`]
    pub v: u32,
    /// the tournament's input number, 1, 2, ... ([`Tournament::applied`] after applying it)
    pub n: u64,
    /// when it was accepted
    pub at: Millis,
    /// what
    pub input: Input,
}

impl Journaled {
    /// The entry as a journal stores it.
    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a stored entry.
    ///
    /// # Errors
    /// It does not parse, or another version wrote it.
    pub fn decode(text: &str) -> Result<Journaled, RestoreError> {
        read_versioned(text, |e: &Journaled| e.v)
    }
}

/// Parses a snapshot or a journal entry and checks that this version wrote it.
fn read_versioned<T: serde::de::DeserializeOwned>(text: &str, version: impl Fn(&T) -> u32) -> Result<T, RestoreError> {
    let value: T = serde_json::from_str(text).map_err(|e| RestoreError::Corrupt(e.to_string()))?;
    match version(&value) {
        TOURNAMENT_VERSION => Ok(value),
        other => Err(RestoreError::Version(other)),
    }
}

/// A snapshot that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RestoreError {
    /// not JSON of a tournament
    #[error("corrupt snapshot: {0}")]
    Corrupt(String),
    /// written by another version
    #[error("snapshot version {0} is not {TOURNAMENT_VERSION}")]
    Version(u32),
}

/// One tournament: everything is durable (there is no presence), so the whole state is the
/// snapshot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tournament {
    v: u32,
    id: Uuid,
    spec: TournamentSpec,
    status: Status,
    entries: Vec<Entry>,
    floor: Floor,
    /// 0-based
    level: usize,
    level_started_at: Millis,
    /// hands each table played at this level
    level_hands: BTreeMap<TableNo, u64>,
    /// no more entries can come
    closed: bool,
    /// eliminations in order, one group per hand (or hand-for-hand round): entry, chips at
    /// the start of the hand
    busts: Vec<Vec<(EntryNo, Chips)>>,
    /// groups already placed
    placed: usize,
    hand_for_hand: Option<HandForHand>,
    /// the hand-for-hand rounds played (kept after it ends)
    hfh_rounds: u32,
    /// how many times hand-for-hand was switched on (kept after it ends)
    #[serde(default)]
    hfh_starts: u32,
    final_table: bool,
    applied: u64,
    /// rebuys and add-ons sold
    #[serde(default)]
    rebuys: u32,
    #[serde(default)]
    addons: u32,
    /// the add-on is sold until then (set when the rebuy period ends)
    #[serde(default)]
    addon_until: Option<Millis>,
    /// on a break until then
    #[serde(default)]
    break_until: Option<Millis>,
    /// paused by an operator since then (every clock stopped)
    #[serde(default)]
    paused_since: Option<Millis>,
    /// when it was cancelled (snapshots from before this field: unknown)
    #[serde(default)]
    cancelled_at: Option<Millis>,
    /// the deal proposed at the final table, while it is open
    #[serde(default)]
    proposal: Option<Proposal>,
    /// the deal made, if one was
    #[serde(default)]
    deal: Option<Deal>,
    /// an operator's change of the rotation waiting for the next level: the games as they
    /// will be, and their list
    #[serde(default)]
    rotation_pending: Option<(Games, Option<Vec<RotationGame>>)>,
    /// where the rotation stands since an operator changed it
    #[serde(default)]
    rotation_base: Option<RotationBase>,
}

/// Where a rotation changed by an operator took over (at the start of a level): a per-level
/// rotation plays game `index` of the list at `level` and the next one at each level after;
/// a rotation by hands starts each table at its own game (`tables`: the hands the table had
/// dealt then, and that game's index) and goes on every so many hands it deals. The game a
/// table takes over with is the one after the game it played last, in the new list (its first
/// game when that one is not in it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RotationBase {
    /// the level (0-based) the change took over at
    pub level: usize,
    /// the game of that level (per level), or of a table not listed (by hands)
    pub index: usize,
    /// by hands: each table's hands dealt at the change, and its game's index
    pub tables: BTreeMap<TableNo, (u64, usize)>,
}

impl Tournament {
    /// A tournament taking registrations.
    pub fn new(id: Uuid, spec: TournamentSpec) -> Tournament {
        let floor = Floor::new(spec.seats_per_table);
        Tournament {
            v: TOURNAMENT_VERSION,
            id,
            spec,
            status: Status::Registering,
            entries: Vec::new(),
            floor,
            level: 0,
            level_started_at: 0,
            level_hands: BTreeMap::new(),
            closed: false,
            busts: Vec::new(),
            placed: 0,
            hand_for_hand: None,
            hfh_rounds: 0,
            hfh_starts: 0,
            final_table: false,
            applied: 0,
            rotation_pending: None,
            rotation_base: None,
            rebuys: 0,
            addons: 0,
            addon_until: None,
            break_until: None,
            paused_since: None,
            cancelled_at: None,
            proposal: None,
            deal: None,
        }
    }

    /// The whole state as JSON (take it between inputs; any time will do).
    pub fn snapshot(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a snapshot.
    ///
    /// # Errors
    /// It does not parse, or another version wrote it.
    pub fn restore(text: &str) -> Result<Tournament, RestoreError> {
        read_versioned(text, |t: &Tournament| t.v)
    }

    /// The id.
    pub fn id(&self) -> Uuid {
        self.id
    }

    /// The settings.
    pub fn spec(&self) -> &TournamentSpec {
        &self.spec
    }

    /// Where it is.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Every entry, in order bought.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The tables and who sits where.
    pub fn floor(&self) -> &Floor {
        &self.floor
    }

    /// The current level, 1-based.
    pub fn level(&self) -> u32 {
        self.level as u32 + 1
    }

    /// Inputs applied.
    pub fn applied(&self) -> u64 {
        self.applied
    }

    /// Hand-for-hand, when on.
    pub fn hand_for_hand(&self) -> Option<&HandForHand> {
        self.hand_for_hand.as_ref()
    }

    /// Hand-for-hand rounds completed so far.
    pub fn hand_for_hand_rounds(&self) -> u32 {
        self.hfh_rounds
    }

    /// How many times hand-for-hand was switched on so far (it can end before a round is
    /// complete: the hands in play when it started may burst the bubble).
    pub fn hand_for_hand_starts(&self) -> u32 {
        self.hfh_starts
    }

    /// Entries that count (bought and not withdrawn).
    pub fn entry_count(&self) -> u32 {
        self.entries.iter().filter(|e| e.state != EntryState::Withdrawn).count() as u32
    }

    /// Entries still playing.
    pub fn live(&self) -> usize {
        self.entries.iter().filter(|e| e.state == EntryState::Playing).count()
    }

    /// The prize pool in cents: the entry fee of every entry, the rebuy fee of every rebuy
    /// and the add-on fee of every add-on (house fees are not in it).
    pub fn pool(&self) -> Cents {
        let (rebuy, addon) = self.spec.rebuys.map_or((0, 0), |r| (r.fee, r.addon.map_or(0, |a| a.fee)));
        self.spec.entry_fee * Cents::from(self.entry_count())
            + rebuy * Cents::from(self.rebuys)
            + addon * Cents::from(self.addons)
    }

    /// Rebuys sold so far.
    pub fn rebuys(&self) -> u32 {
        self.rebuys
    }

    /// Add-ons sold so far.
    pub fn addons(&self) -> u32 {
        self.addons
    }

    /// Cents of bounties paid so far.
    pub fn bounties_paid(&self) -> Cents {
        self.entries.iter().map(|e| e.bounties).sum()
    }

    /// Everything sold: entries, rebuys and add-ons (capped by [`MAX_ENTRIES`], so every
    /// sum of chips stays inside the engine's limits).
    fn purchases(&self) -> u32 {
        self.entry_count().saturating_add(self.rebuys).saturating_add(self.addons)
    }

    /// Whether rebuys are sold now (the rebuy period: to the end of `rebuy_until_level`).
    pub fn rebuy_open(&self) -> bool {
        self.status == Status::Running
            && !self.closed
            && self.spec.rebuys.is_some_and(|r| self.level() <= r.until_level)
    }

    /// Until when the add-on is sold, while it is.
    pub fn addon_until(&self) -> Option<Millis> {
        self.addon_until.filter(|_| self.status == Status::Running && !self.closed)
    }

    /// The end of the break the tournament is on, if it is on one.
    pub fn break_until(&self) -> Option<Millis> {
        self.break_until.filter(|_| self.status == Status::Running)
    }

    /// The deal proposed at the final table, while it is open.
    pub fn proposal(&self) -> Option<&Proposal> {
        self.proposal.as_ref().filter(|_| self.status == Status::Running)
    }

    /// The deal made at the final table, if one was.
    pub fn deal(&self) -> Option<&Deal> {
        self.deal.as_ref()
    }

    /// The players a deal would be between (every entry still playing), in entry order,
    /// with their chips.
    fn deal_players(&self) -> Vec<(EntryNo, Chips)> {
        self.entries.iter().filter(|e| e.state == EntryState::Playing).map(|e| (e.no, e.chips)).collect()
    }

    /// What each remaining player would take by `method` leaving `leave` to play for, as the
    /// chips stand now: (entry, cents) in entry order; `None` when no deal can be made.
    pub fn deal_figures(&self, method: DealMethod, leave: Cents) -> Option<Vec<(EntryNo, Cents)>> {
        let players = self.deal_players();
        let prizes = self.prizes();
        let cents = shares(method, &players, &prizes, leave)?;
        Some(players.iter().map(|(no, _)| *no).zip(cents).collect())
    }

    /// Whether a deal may be proposed now, and why not.
    fn check_propose(&self, player: Uuid, leave: Cents) -> Result<EntryNo, TournamentError> {
        if !self.spec.deals {
            return Err(TournamentError::NoDeal(Cow::Borrowed("this tournament takes no deals")));
        }
        if self.status != Status::Running {
            return Err(TournamentError::NotRunning);
        }
        if !self.final_table || !self.closed {
            return Err(TournamentError::NoDeal(Cow::Borrowed(
                "deals are made at the final table, once the field is final",
            )));
        }
        if self.deal.is_some() {
            return Err(TournamentError::NoDeal(Cow::Borrowed("a deal has been made")));
        }
        if self.proposal.is_some() {
            return Err(TournamentError::NoDeal(Cow::Borrowed("a deal is already proposed")));
        }
        let e = self.latest_entry(player).filter(|e| e.state == EntryState::Playing);
        let Some(e) = e else { return Err(TournamentError::NotRegistered) };
        if self.prizes().first().is_some_and(|first| leave > *first) {
            return Err(TournamentError::NoDeal(Cow::Borrowed("more is left to play for than first place pays")));
        }
        if self.deal_figures(DealMethod::ChipChop, leave).is_none() {
            return Err(TournamentError::NoDeal(Cow::Borrowed("the prizes left cannot be shared")));
        }
        Ok(e.no)
    }

    /// Whether the final table is in a hand now.
    fn in_hand(&self) -> bool {
        self.floor.tables().values().any(|t| t.in_hand())
    }

    /// When it was cancelled, if it was (and the snapshot knows).
    pub fn cancelled_at(&self) -> Option<Millis> {
        self.cancelled_at.filter(|_| self.status == Status::Cancelled)
    }

    /// Since when an operator has paused the tournament, if they have.
    pub fn paused_since(&self) -> Option<Millis> {
        self.paused_since.filter(|_| self.status == Status::Running)
    }

    /// The earliest rebuy offer's end, if any is open.
    fn first_offer_end(&self) -> Option<Millis> {
        self.entries.iter().filter_map(|e| e.rebuy_offer_until).min()
    }

    /// Registration and re-entry are closed: the field and the payouts are final.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The payout table for the current field (final once closed); a satellite's, for the
    /// money left after its tickets (default: all of it to one place).
    pub fn payout_table(&self) -> Vec<BasisPoints> {
        let default = || match self.spec.satellite {
            Some(_) => vec![crate::spec::WHOLE],
            None => default_payouts(self.entry_count()),
        };
        self.spec.payouts.clone().unwrap_or_else(default)
    }

    /// The prize of each place for the current field. A satellite's first places are its
    /// tickets (each worth the target's buy-in); what the pool has left is paid as money by
    /// the payout table (by default all of it to the next place) to the places after them,
    /// or shared equally by the ticket winners when every entrant wins a ticket.
    pub fn prizes(&self) -> Vec<Cents> {
        let mut out = self.prizes_before_a_deal();
        // After a deal the places of the players in it pay only what was left to play for,
        // to the winner: the rest was paid by the deal.
        if let Some(d) = &self.deal {
            for (k, prize) in out.iter_mut().take(d.shares.len()).enumerate() {
                *prize = if k == 0 { d.leave } else { 0 };
            }
        }
        out
    }

    fn prizes_before_a_deal(&self) -> Vec<Cents> {
        let Some(s) = self.spec.satellite.filter(|s| s.ticket > 0) else {
            return prizes(self.pool(), &self.payout_table());
        };
        let tickets = self.tickets();
        let rest = self.pool() - s.ticket * Cents::from(tickets);
        let mut out = vec![s.ticket; tickets as usize];
        if rest == 0 {
            return out;
        }
        match self.entry_count().saturating_sub(tickets) as usize {
            // Every entrant wins a ticket: they share the money left equally, beside it.
            0 => {
                for (prize, share) in out.iter_mut().zip(prizes(rest, &vec![1; tickets as usize])) {
                    *prize += share;
                }
            }
            // The places after the tickets; a table longer than the places left is cut to
            // them, and they share the rest in its proportions.
            places => {
                let mut table = self.payout_table();
                table.truncate(places);
                out.extend(prizes(rest, &table));
            }
        }
        out
    }

    /// A satellite's tickets for the current field: as many as the pool buys, at most the
    /// operator's number and the entries (0 for a tournament that pays money only).
    pub fn tickets(&self) -> u32 {
        self.tickets_won().count
    }

    /// [`Tournament::tickets`], and whether every entrant wins one: one pass over the entries
    /// for both, taken once for all the results' lines.
    fn tickets_won(&self) -> Tickets {
        let Some(s) = self.spec.satellite.filter(|s| s.ticket > 0) else { return Tickets::default() };
        let bought = u32::try_from(self.pool() / s.ticket).unwrap_or(u32::MAX);
        let entries = self.entry_count();
        let count = bought.min(s.tickets.unwrap_or(u32::MAX)).min(entries);
        Tickets { count, every: count == entries }
    }

    /// The results so far, best place first.
    pub fn results(&self) -> Vec<Placed> {
        let tickets = self.tickets_won();
        let mut out: Vec<Placed> = self.entries.iter().filter_map(|e| self.placed_line(e, tickets)).collect();
        out.sort_by_key(|p| p.place);
        out
    }

    fn placed_line(&self, e: &Entry, tickets: Tickets) -> Option<Placed> {
        Some(Placed {
            place: e.place?,
            entry: e.no,
            player_id: e.player,
            name: e.name.clone(),
            prize: e.prize.unwrap_or(0),
            hands: e.hands,
            bounties: e.bounties,
            deal: e.deal,
            ticket: self.ticket_of(e, tickets),
        })
    }

    /// The target of the ticket an entry won (`tickets`: [`Tournament::tickets_won`]): a ticket
    /// place paid exactly a ticket (places tied across the last ticket share the money instead),
    /// or any place when every entrant wins one (with a share of the money left beside it); never
    /// a place a deal paid (in money).
    fn ticket_of(&self, e: &Entry, tickets: Tickets) -> Option<Uuid> {
        let s = self.spec.satellite.filter(|s| s.ticket > 0)?;
        let place = e.place?;
        let dealt = self.deal.as_ref().is_some_and(|d| place as usize <= d.shares.len());
        let won = place <= tickets.count && !dealt && (tickets.every || e.prize == Some(s.ticket));
        won.then_some(s.target)
    }

    /// The game and stakes of a table's next hand.
    pub fn next_config(&self, table: TableNo) -> Option<TableConfig> {
        let hands = self.floor.tables().get(&table)?.hands;
        let game = self.game_of(Some(table), self.level, hands);
        Some(self.spec.levels.get(self.level)?.config(game.variant, game.betting))
    }

    /// The spec with an operator's change of the rotation (on top of one still waiting for
    /// its level, so a second change adds to the first), checked as at creation.
    ///
    /// # Errors
    /// The field at fault and why.
    pub fn with_rotation(
        &self,
        hands: Option<u32>,
        games: Option<&[RotationGame]>,
    ) -> Result<TournamentSpec, crate::SpecError> {
        match &self.rotation_pending {
            Some((now, list)) => TournamentSpec { games: *now, rotation_games: list.clone(), ..self.spec.clone() }
                .with_rotation(hands, games),
            None => self.spec.with_rotation(hands, games),
        }
    }

    /// The game of the level in play (a rotation by hands: of a table that has dealt none).
    pub fn game_now(&self) -> Game {
        self.game_of(None, self.level, 0)
    }

    /// The game of `table`'s next hand at `level` (0-based) after it has dealt `hands`.
    fn game_of(&self, table: Option<TableNo>, level: usize, hands: u64) -> Game {
        let Some(base) = &self.rotation_base else { return self.spec.game(level, hands) };
        let list = self.spec.game_list();
        let i = match self.spec.games {
            Games::Fixed(_) => 0,
            Games::PerLevel => base.index + level.saturating_sub(base.level),
            Games::PerHands(n) => {
                let (from, index) = table.and_then(|t| base.tables.get(&t)).copied().unwrap_or((0, base.index));
                index + usize::try_from(hands.saturating_sub(from) / u64::from(n.max(1))).unwrap_or(0)
            }
        };
        list.get(i % list.len().max(1)).copied().unwrap_or_else(|| self.spec.game(level, hands))
    }

    /// An operator's change of the rotation waiting for a level: it takes over now, at the
    /// start of level `self.level` (see [`RotationBase`]).
    fn take_over_rotation(&mut self) {
        let Some((games, list)) = self.rotation_pending.take() else { return };
        let before = self.level.saturating_sub(1);
        // The game each table played last, under the rotation as it was.
        let last: Vec<(TableNo, u64, Game)> = self
            .floor
            .tables()
            .iter()
            .map(|(&t, table)| {
                // A hand in play (the level may change on the clock during one) counts as
                // dealt: the new game starts with the table's next hand.
                let dealt = table.hands + u64::from(table.in_hand());
                (t, dealt, self.game_of(Some(t), before, dealt.saturating_sub(1)))
            })
            .collect();
        let level_game = last.first().map_or_else(|| self.game_of(None, before, 0), |(_, _, g)| *g);
        self.spec.games = games;
        self.spec.rotation_games = list;
        let new = self.spec.game_list();
        let after = |g: Game| {
            new.iter()
                .position(|n| *n == g)
                .or_else(|| new.iter().position(|n| n.variant == g.variant))
                .map_or(0, |i| (i + 1) % new.len().max(1))
        };
        let index = after(level_game);
        let tables = last.into_iter().map(|(t, hands, g)| (t, (hands, after(g)))).collect();
        self.rotation_base = Some(RotationBase { level: self.level, index, tables });
    }

    /// An operator's change of the rotation that waits for the next level: the hands per
    /// game (none: one game per level) and the games.
    pub fn rotation_pending(&self) -> Option<(Option<u32>, Vec<Game>)> {
        let (games, list) = self.rotation_pending.as_ref()?;
        let spec = TournamentSpec { games: *games, rotation_games: list.clone(), ..self.spec.clone() };
        Some((games.hands(), spec.game_list()))
    }

    /// The number of the hand in play at a table (its reports must carry it), if one is.
    pub fn deal_number(&self, table: TableNo) -> Option<u64> {
        let t = self.floor.tables().get(&table)?;
        t.in_hand().then_some(t.hands + 1)
    }

    /// The game of a table's next hand.
    pub fn next_variant(&self, table: TableNo) -> Option<Variant> {
        self.next_config(table).map(|c| c.variant)
    }

    /// When the clock next wants [`Tournament::due`].
    pub fn wake_at(&self) -> Option<Millis> {
        match self.status {
            Status::Registering => self.spec.start_at,
            Status::Running if self.paused_since.is_some() => None,
            Status::Running => [
                self.level_ends_at(),
                self.first_offer_end(),
                self.addon_until,
                self.break_until,
                self.proposal.as_ref().map(|p| p.until),
            ]
            .into_iter()
            .flatten()
            .min(),
            Status::Finished | Status::Cancelled => None,
        }
    }

    /// When the current level ends (levels by minutes; `None` for levels by hands and the
    /// last level). The lobby's "time to next level".
    pub fn next_level_at(&self) -> Option<Millis> {
        if self.status == Status::Running { self.level_ends_at() } else { None }
    }

    /// Levels by hands: the hands until the next level, counted at the table that has played
    /// the most at this level (`None` for levels by minutes, the last level, and a
    /// tournament not running). The lobby's "hands to next level".
    pub fn hands_to_next_level(&self) -> Option<u64> {
        if self.status != Status::Running || self.level + 1 >= self.spec.levels.len() {
            return None;
        }
        match self.spec.levels.get(self.level)?.length {
            LevelLength::Hands(n) => {
                let busiest = self.level_hands.values().copied().max().unwrap_or(0);
                Some(u64::from(n).saturating_sub(busiest))
            }
            LevelLength::Minutes(_) => None,
        }
    }

    fn level_ends_at(&self) -> Option<Millis> {
        if self.level + 1 >= self.spec.levels.len() {
            return None;
        }
        match self.spec.levels.get(self.level)?.length {
            LevelLength::Minutes(m) => Some(self.level_started_at + u64::from(m) * 60_000),
            LevelLength::Hands(_) => None,
        }
    }

    fn registered(&self) -> usize {
        self.entries.iter().filter(|e| e.state == EntryState::Registered).count()
    }

    /// What the clock wants at `now`, if anything.
    pub fn due(&self, now: Millis) -> Option<Due> {
        match self.status {
            Status::Registering => match self.spec.kind {
                Kind::SitAndGo => (self.registered() >= self.spec.max_entrants as usize).then_some(Due::Start),
                Kind::Scheduled => {
                    let at = self.spec.start_at?;
                    if now < at {
                        None
                    } else if self.registered() >= self.spec.min_entrants as usize {
                        Some(Due::Start)
                    } else {
                        Some(Due::Input(Input::Cancel))
                    }
                }
            },
            Status::Running if self.paused_since.is_some() => None,
            Status::Running => {
                if self.break_until.is_some_and(|t| now >= t) {
                    return Some(Due::Input(Input::BreakOver));
                }
                if self.proposal.as_ref().is_some_and(|p| now >= p.until) {
                    return Some(Due::Input(Input::DealLapsed));
                }
                let lapses = [self.first_offer_end(), self.addon_until].into_iter().flatten().min();
                if lapses.is_some_and(|t| now >= t) {
                    return Some(Due::Input(Input::OffersLapsed));
                }
                let ends = self.level_ends_at()?;
                (now >= ends).then_some(Due::Input(Input::NextLevel))
            }
            Status::Finished | Status::Cancelled => None,
        }
    }

    /// Whether a new player may register now: before the start, or during late registration
    /// (the rule [`Tournament::handle`] applies; a player who is out may also re-enter while
    /// [`Tournament::reentry_open`]).
    pub fn registration_open(&self) -> bool {
        match self.status {
            Status::Registering => true,
            Status::Running => self.late_registration_open(),
            Status::Finished | Status::Cancelled => false,
        }
    }

    fn late_registration_open(&self) -> bool {
        !self.closed && self.spec.late_registration_until_level.is_some_and(|l| self.level() <= l)
    }

    /// Whether a player who is out may enter again now.
    pub fn reentry_open(&self) -> bool {
        !self.closed && self.spec.reentry_until_level.is_some_and(|l| self.level() <= l)
    }

    fn players(&self) -> BTreeSet<Uuid> {
        self.entries.iter().filter(|e| e.state != EntryState::Withdrawn).map(|e| e.player).collect()
    }

    fn latest_entry(&self, player: Uuid) -> Option<&Entry> {
        self.entries.iter().rev().find(|e| e.player == player && e.state != EntryState::Withdrawn)
    }

    /// Where a player sits now.
    pub fn seat_of(&self, player: Uuid) -> Option<Spot> {
        self.live_entry(player).and_then(|e| self.floor.spot_of(e.no))
    }

    /// The entry a player is playing now.
    pub fn live_entry(&self, player: Uuid) -> Option<&Entry> {
        self.entries.iter().find(|e| e.player == player && e.state == EntryState::Playing)
    }

    /// Checks a command.
    ///
    /// # Errors
    /// Why it is refused; nothing is to be journaled or charged.
    pub fn handle(&self, cmd: Command) -> Result<Accepted, TournamentError> {
        let charge = |player: Uuid, input: Input| Accepted { input, debit: Some((player, self.spec.buy_in())) };
        match cmd {
            Command::Register { player, name, invite_code, draw } => {
                let open = match self.status {
                    Status::Registering => true,
                    Status::Running => self.late_registration_open() || self.reentry_open(),
                    Status::Finished | Status::Cancelled => false,
                };
                if !open {
                    return Err(TournamentError::RegistrationClosed);
                }
                if self.status == Status::Running
                    && !self.late_registration_open()
                    && self.latest_entry(player).is_none_or(|e| e.state != EntryState::Out)
                {
                    // Only re-entry is open: a new player cannot register.
                    return Err(TournamentError::RegistrationClosed);
                }
                if let Some(expected) = &self.spec.invite_code
                    && !invite_code.as_deref().is_some_and(|code| same_code(expected, code))
                {
                    return Err(TournamentError::WrongInviteCode);
                }
                if let Some(e) = self.latest_entry(player) {
                    // Registering again once out is a re-entry (while it is open).
                    if e.state == EntryState::Out && self.status == Status::Running {
                        return self.handle(Command::ReEnter { player, draw });
                    }
                    return Err(TournamentError::AlreadyRegistered);
                }
                if self.players().len() >= self.spec.max_entrants as usize || self.purchases() >= MAX_ENTRIES {
                    return Err(TournamentError::Full);
                }
                Ok(charge(player, Input::Register { player, name, draw }))
            }
            Command::Unregister { player } => match self.latest_entry(player) {
                None => Err(TournamentError::NotRegistered),
                Some(e) if e.state == EntryState::Registered && self.status == Status::Registering => {
                    Ok(Accepted { input: Input::Unregister { player }, debit: None })
                }
                Some(_) => Err(TournamentError::Started),
            },
            Command::ReEnter { player, draw } => {
                if self.status != Status::Running || !self.reentry_open() {
                    return Err(TournamentError::ReentryClosed);
                }
                match self.latest_entry(player) {
                    None => Err(TournamentError::NotRegistered),
                    Some(e) if e.state != EntryState::Out => Err(TournamentError::StillPlaying),
                    Some(_) if self.purchases() >= MAX_ENTRIES => Err(TournamentError::Full),
                    Some(_) => Ok(charge(player, Input::ReEnter { player, draw })),
                }
            }
            Command::StartHand { table } => {
                self.check_start(table).map(|()| Accepted { input: Input::HandStarted { table }, debit: None })
            }
            Command::HandFinished { table, deal, stacks, knockouts, draw } => {
                self.check_report(table, deal, &stacks)?;
                Ok(Accepted { input: Input::HandFinished { table, stacks, knockouts, draw }, debit: None })
            }
            Command::Cancel => match self.status {
                Status::Registering => Ok(Accepted { input: Input::Cancel, debit: None }),
                _ => Err(TournamentError::Started),
            },
            Command::Rebuy { player, draw, key } => {
                // A retry of the entry's last rebuy (the answer was lost, the button pressed
                // twice): that purchase, not a second one.
                if key.is_some() && self.latest_entry(player).is_some_and(|e| e.rebuy_key == key) {
                    return Err(TournamentError::AlreadyBought);
                }
                let fee = self.check_rebuy(player)?;
                Ok(Accepted { input: Input::Rebuy { player, draw, key }, debit: Some((player, fee)) })
            }
            Command::AddOn { player } => {
                let fee = self.check_addon(player)?;
                Ok(Accepted { input: Input::AddOn { player }, debit: Some((player, fee)) })
            }
            Command::Pause => match (self.status, self.paused_since) {
                (Status::Running, None) => Ok(Accepted { input: Input::Pause, debit: None }),
                (Status::Running, Some(_)) => Err(TournamentError::Paused),
                _ => Err(TournamentError::NotRunning),
            },
            Command::Resume => match (self.status, self.paused_since) {
                (Status::Running, Some(_)) => Ok(Accepted { input: Input::Resume, debit: None }),
                (Status::Running, None) => Err(TournamentError::NotPaused),
                _ => Err(TournamentError::NotRunning),
            },
            Command::Rotation { hands, games } => match self.status {
                Status::Running if self.level + 1 >= self.spec.levels.len() => Err(TournamentError::LastLevel),
                Status::Registering | Status::Running => {
                    self.with_rotation(hands, games.as_deref())
                        .map_err(|e| TournamentError::BadRotation(e.to_string()))?;
                    Ok(Accepted { input: Input::Rotation { hands, games }, debit: None })
                }
                Status::Finished | Status::Cancelled => Err(TournamentError::NotRunning),
            },
            Command::Rename { name } => match self.status {
                Status::Registering | Status::Running => Ok(Accepted { input: Input::Rename { name }, debit: None }),
                Status::Finished | Status::Cancelled => Err(TournamentError::NotRunning),
            },
            Command::ProposeDeal { player, method, leave } => {
                let by = self.check_propose(player, leave)?;
                let accepted = !self.in_hand();
                Ok(Accepted { input: Input::ProposeDeal { by, method, leave, accepted }, debit: None })
            }
            Command::AnswerDeal { player, accept } => {
                let Some(p) = self.proposal() else {
                    return Err(TournamentError::NoDeal(Cow::Borrowed("no deal is proposed")));
                };
                let e = self.latest_entry(player).filter(|e| e.state == EntryState::Playing);
                let Some(e) = e else { return Err(TournamentError::NotRegistered) };
                if !accept {
                    return Ok(Accepted { input: Input::DeclineDeal { entry: e.no }, debit: None });
                }
                if self.in_hand() {
                    return Err(TournamentError::NoDeal(Cow::Borrowed("accept once the hand in play has ended")));
                }
                let everyone = self.deal_players().iter().all(|(no, _)| *no == e.no || p.accepted.contains(no));
                if !everyone {
                    return Ok(Accepted { input: Input::AcceptDeal { entry: e.no }, debit: None });
                }
                let shares = self
                    .deal_figures(p.method, p.leave)
                    .ok_or(TournamentError::NoDeal(Cow::Borrowed("the prizes left cannot be shared")))?;
                let deal = Deal { by: p.by, method: p.method, leave: p.leave, shares };
                Ok(Accepted { input: Input::Deal { deal }, debit: None })
            }
            Command::NewInviteCode { code } => match (self.status, &self.spec.invite_code) {
                (_, None) => Err(TournamentError::NotPrivate),
                (Status::Registering | Status::Running, Some(_)) => {
                    Ok(Accepted { input: Input::NewInviteCode { code }, debit: None })
                }
                (Status::Finished | Status::Cancelled, Some(_)) => Err(TournamentError::NotRunning),
            },
        }
    }

    /// Whether `player` may buy a rebuy now; its fee if so.
    fn check_rebuy(&self, player: Uuid) -> Result<Cents, TournamentError> {
        let r = self.spec.rebuys.ok_or(TournamentError::RebuyClosed)?;
        let e = self.latest_entry(player).ok_or(TournamentError::NotRegistered)?;
        match e.state {
            // Busted in the rebuy period: while the offer lasts (it may outlast the period).
            EntryState::Out if e.rebuy_offer_until.is_some() => {}
            EntryState::Out if self.rebuy_open() => {
                // Busted with every rebuy used: no offer was made, so none lapsed.
                if r.max.is_some_and(|m| e.rebuys >= m) {
                    return Err(TournamentError::NotOffered(Cow::Borrowed(
                        "this entry has bought every rebuy the tournament allows",
                    )));
                }
                return Err(TournamentError::NotOffered(Cow::Borrowed("the rebuy offer has lapsed: the entry is out")));
            }
            EntryState::Playing if self.rebuy_open() => {
                if e.chips.saturating_add(e.pending) > self.spec.starting_chips {
                    return Err(TournamentError::NotOffered(Cow::Borrowed(
                        "a rebuy needs a stack at or below the starting stack",
                    )));
                }
            }
            EntryState::Registered | EntryState::Withdrawn | EntryState::Out | EntryState::Playing => {
                return Err(TournamentError::RebuyClosed);
            }
        }
        if r.max.is_some_and(|m| e.rebuys >= m) {
            return Err(TournamentError::NotOffered(Cow::Borrowed(
                "this entry has bought every rebuy the tournament allows",
            )));
        }
        if self.purchases() >= MAX_ENTRIES {
            return Err(TournamentError::Full);
        }
        Ok(r.fee)
    }

    /// Whether `player` may buy the add-on now; its fee if so.
    fn check_addon(&self, player: Uuid) -> Result<Cents, TournamentError> {
        let a = self.spec.rebuys.and_then(|r| r.addon).ok_or(TournamentError::AddOnClosed)?;
        if self.addon_until().is_none() {
            return Err(TournamentError::AddOnClosed);
        }
        if self.latest_entry(player).is_none() {
            return Err(TournamentError::NotRegistered);
        }
        let e = self
            .live_entry(player)
            .ok_or(TournamentError::NotOffered(Cow::Borrowed("the add-on is for players still in")))?;
        if e.addon {
            return Err(TournamentError::NotOffered(Cow::Borrowed("this entry has taken the add-on")));
        }
        if self.purchases() >= MAX_ENTRIES {
            return Err(TournamentError::Full);
        }
        Ok(a.fee)
    }

    fn check_start(&self, table: TableNo) -> Result<(), TournamentError> {
        if self.status != Status::Running {
            return Err(TournamentError::NotRunning);
        }
        let t = self.floor.tables().get(&table).ok_or(TournamentError::NoSuchTable(table))?;
        if t.in_hand() {
            return Err(TournamentError::HandInPlay(table));
        }
        if self.break_until.is_some() {
            return Err(TournamentError::OnBreak);
        }
        if self.paused_since.is_some() {
            return Err(TournamentError::Paused);
        }
        if self.proposal.is_some() {
            return Err(TournamentError::NoDeal(Cow::Borrowed("a deal is being considered")));
        }
        if t.count() < 2 {
            return Err(TournamentError::WaitForPlayers(table));
        }
        if let Some(h) = &self.hand_for_hand
            && (h.draining || h.dealt.contains(&table))
        {
            return Err(TournamentError::HandForHand(table));
        }
        Ok(())
    }

    fn check_report(&self, table: TableNo, deal: u64, stacks: &[(Uuid, Chips)]) -> Result<(), TournamentError> {
        if self.status != Status::Running {
            return Err(TournamentError::NotRunning);
        }
        let t = self.floor.tables().get(&table).ok_or(TournamentError::NoSuchTable(table))?;
        let dealt = t.hand.as_ref().ok_or(TournamentError::NoHand(table))?;
        let in_play = t.hands + 1;
        if deal != 0 && deal != in_play {
            return Err(TournamentError::StaleReport { table, reported: deal, in_play });
        }
        let bad = |why: &str| Err(TournamentError::BadReport(why.to_owned()));
        let reported: BTreeSet<Uuid> = stacks.iter().map(|s| s.0).collect();
        if reported.len() != stacks.len() {
            return bad("a player is listed twice");
        }
        let expected: BTreeSet<Uuid> = dealt.iter().filter_map(|(e, _)| self.entry(*e)).map(|e| e.player).collect();
        // A player the table could not seat (its seat was refused; the server seats them again
        // before the next hand) was not dealt in: a report may leave them out.
        if reported.is_empty() || !reported.is_subset(&expected) {
            return bad("the players are not the ones dealt in");
        }
        let before: u128 = dealt
            .iter()
            .filter(|(e, _)| self.entry(*e).is_some_and(|e| reported.contains(&e.player)))
            .map(|(_, c)| u128::from(*c))
            .sum();
        let after: u128 = stacks.iter().map(|(_, c)| u128::from(*c)).sum();
        if before != after {
            return bad(&format!("chips {before} at the start, {after} after"));
        }
        Ok(())
    }

    fn entry(&self, no: EntryNo) -> Option<&Entry> {
        self.entries.get(no.checked_sub(1)? as usize)
    }

    fn entry_mut(&mut self, no: EntryNo) -> Option<&mut Entry> {
        self.entries.get_mut(no.checked_sub(1)? as usize)
    }

    fn player_of(&self, no: EntryNo) -> Uuid {
        self.entry(no).map(|e| e.player).unwrap_or_default()
    }

    /// Applies a journaled input. Cannot be refused: `handle` checked it (an input that no
    /// longer fits, say from a damaged journal, changes nothing).
    pub fn apply(&mut self, now: Millis, input: &Input) -> Vec<Output> {
        let mut out = Vec::new();
        self.applied += 1;
        match input {
            Input::Register { player, name, draw } => self.register(*player, name, draw, &mut out),
            Input::Unregister { player } => {
                let buy_in = self.spec.buy_in();
                if let Some(e) =
                    self.entries.iter_mut().find(|e| e.player == *player && e.state == EntryState::Registered)
                {
                    e.state = EntryState::Withdrawn;
                    out.push(Output::Refund { player: *player, amount: buy_in });
                }
            }
            Input::ReEnter { player, draw } => {
                let name = self.latest_entry(*player).map(|e| e.name.clone()).unwrap_or_default();
                self.add_entry(*player, &name, draw, &mut out);
            }
            Input::Start { draw } => self.start(now, draw, &mut out),
            Input::Cancel => {
                if self.status == Status::Registering {
                    self.cancelled_at = Some(now);
                }
                self.cancel(&mut out);
            }
            Input::NextLevel => {
                let next = self.level_ends_at().unwrap_or(now);
                self.next_level(next, &mut out);
            }
            Input::HandStarted { table } => self.hand_started(*table, &mut out),
            Input::HandFinished { table, stacks, knockouts, draw } => {
                self.hand_finished(now, *table, stacks, knockouts, draw, &mut out);
            }
            Input::Rebuy { player, draw, key } => self.rebuy(*player, draw, key.as_ref(), &mut out),
            Input::AddOn { player } => self.addon(*player, &mut out),
            Input::OffersLapsed => self.lapse(now, &mut out),
            Input::BreakOver => {
                if self.break_until.is_some_and(|t| t <= now) {
                    self.break_until = None;
                    out.push(Output::BreakOver);
                }
            }
            Input::Pause => {
                if self.status == Status::Running && self.paused_since.is_none() {
                    self.paused_since = Some(now);
                    out.push(Output::Paused { paused: true });
                }
            }
            Input::Resume => self.resume(now, &mut out),
            Input::Rename { name } => self.spec.name.clone_from(name),
            Input::Rotation { hands, games } => {
                if let Ok(next) = self.with_rotation(*hands, games.as_deref()) {
                    if self.status == Status::Running {
                        self.rotation_pending = Some((next.games, next.rotation_games));
                    } else {
                        self.spec = next;
                    }
                }
            }
            Input::ProposeDeal { by, method, leave, accepted } => {
                if self.status == Status::Running && self.proposal.is_none() && self.deal.is_none() {
                    let accepted = if *accepted { BTreeSet::from([*by]) } else { BTreeSet::new() };
                    let until = now + DEAL_MS;
                    self.proposal = Some(Proposal { by: *by, method: *method, leave: *leave, accepted, until });
                    out.push(Output::DealChanged);
                }
            }
            Input::AcceptDeal { entry } => {
                if let Some(p) = &mut self.proposal {
                    p.accepted.insert(*entry);
                    out.push(Output::DealChanged);
                }
            }
            Input::Deal { deal } => self.make_deal(deal, &mut out),
            Input::DeclineDeal { .. } => {
                if self.proposal.take().is_some() {
                    out.push(Output::DealChanged);
                }
            }
            Input::DealLapsed => {
                if self.proposal.as_ref().is_some_and(|p| now >= p.until) {
                    self.proposal = None;
                    out.push(Output::DealChanged);
                }
            }
            Input::NewInviteCode { code } => {
                if self.spec.invite_code.is_some() {
                    self.spec.invite_code = Some(code.clone());
                }
            }
        }
        out
    }

    /// A deal everyone accepted: each player in it is paid their share; the places they will
    /// take pay only what was left to play for (to the winner). Nothing left: the tournament
    /// ends here, the places by chips (most first; equal stacks by entry).
    fn make_deal(&mut self, deal: &Deal, out: &mut Vec<Output>) {
        if self.status != Status::Running || self.deal.is_some() {
            return;
        }
        self.proposal = None;
        for &(no, cents) in &deal.shares {
            if let Some(e) = self.entry_mut(no) {
                e.deal = cents;
                out.push(Output::DealPaid { player: e.player, entry: no, cents });
            }
        }
        self.deal = Some(deal.clone());
        out.push(Output::DealChanged);
        if deal.leave > 0 {
            return;
        }
        let mut left: Vec<(EntryNo, Chips)> = self.deal_players();
        left.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        for (k, &(no, _)) in left.iter().enumerate() {
            if let Some(e) = self.entry_mut(no) {
                e.place = Some(k as u32 + 1);
                e.prize = Some(0);
                if k > 0 {
                    e.state = EntryState::Out;
                }
            }
        }
        // The places below the deal's are settled already; the players of the deal are
        // placed now, worst first, like busts.
        let tickets = self.tickets_won();
        for &(no, _) in left.iter().rev() {
            if let Some(line) = self.entry(no).and_then(|e| self.placed_line(e, tickets)) {
                out.push(Output::Placed(line));
            }
        }
        // Nobody was knocked out: each keeps the bounty on their own head.
        for &(no, _) in &left {
            self.pay_head(no, &[(no, 1)], out);
        }
        let Some(&(winner, _)) = left.first() else { return };
        self.hand_for_hand = None;
        self.status = Status::Finished;
        out.push(Output::Ended { winner: self.player_of(winner) });
    }

    /// Every clock that stopped at the pause moves on by the pause's length: the level's
    /// start, a break's end, the add-on's and each rebuy offer's end.
    fn resume(&mut self, now: Millis, out: &mut Vec<Output>) {
        let Some(since) = self.paused_since.take() else { return };
        let d = now.saturating_sub(since);
        self.level_started_at += d;
        for t in [&mut self.break_until, &mut self.addon_until].into_iter().flatten() {
            *t += d;
        }
        for e in &mut self.entries {
            if let Some(t) = &mut e.rebuy_offer_until {
                *t += d;
            }
        }
        out.push(Output::Paused { paused: false });
    }

    /// A rebuy: a busted entry is seated again with the rebuy's chips (it was not eliminated
    /// after all); a playing one gets them now, or when the hand at its table ends.
    fn rebuy(&mut self, player: Uuid, draw: &Draw, key: Option<&String>, out: &mut Vec<Output>) {
        let (Some(r), Some(no)) = (self.spec.rebuys, self.latest_entry(player).map(|e| e.no)) else { return };
        if self.status != Status::Running {
            return;
        }
        let Some(e) = self.entry_mut(no) else { return };
        if matches!(e.state, EntryState::Out | EntryState::Playing) {
            e.rebuy_key = key.cloned();
        }
        match e.state {
            EntryState::Out => {
                e.state = EntryState::Playing;
                e.chips = r.chips;
                e.rebuy_offer_until = None;
                // Bought back in: the head stays on.
                e.knocked_out_by.clear();
                e.rebuys += 1;
                // Groups not placed yet (none are while rebuys are sold) forget the bust.
                for group in self.busts.iter_mut().skip(self.placed) {
                    group.retain(|(n, _)| *n != no);
                }
                let placed = self.placed;
                let mut i = 0;
                self.busts.retain(|g| {
                    i += 1;
                    i <= placed || !g.is_empty()
                });
                let at = self.floor.seat_new(no, &mut Drawer::new(draw));
                out.push(Output::Seat { player, entry: no, at, chips: r.chips });
                // Back in while the add-on is sold (an offer that outlasted the rebuy period):
                // offered it too, as everyone still in was when the period ended.
                if let Some(until) = self.addon_until().filter(|_| r.addon.is_some()) {
                    out.push(Output::Offer { player, entry: no, offer: Offer::AddOn, until });
                }
            }
            EntryState::Playing => {
                e.rebuys += 1;
                self.add_chips(no, r.chips, out);
            }
            EntryState::Registered | EntryState::Withdrawn => return,
        }
        self.rebuys += 1;
        // A rebuy on an offer that outlasted the rebuy period may be the last thing the field
        // waited for.
        self.maybe_close(out);
    }

    /// The add-on: its chips now, or when the hand at the entry's table ends.
    fn addon(&mut self, player: Uuid, out: &mut Vec<Output>) {
        let Some(a) = self.spec.rebuys.and_then(|r| r.addon) else { return };
        let Some(no) = self.live_entry(player).map(|e| e.no) else { return };
        if let Some(e) = self.entry_mut(no) {
            e.addon = true;
        }
        self.addons += 1;
        self.add_chips(no, a.chips, out);
    }

    /// Adds bought chips to an entry: at once between hands at its table, else when the hand
    /// there ends ([`Entry::pending`]).
    fn add_chips(&mut self, no: EntryNo, chips: Chips, out: &mut Vec<Output>) {
        let in_hand =
            self.floor.spot_of(no).and_then(|s| self.floor.tables().get(&s.table)).is_some_and(|t| t.in_hand());
        let Some(e) = self.entry_mut(no) else { return };
        if in_hand {
            e.pending += chips;
            return;
        }
        e.chips += chips;
        out.push(Output::Chips { player: e.player, entry: no, chips: e.chips });
    }

    /// The clock: rebuy offers and the add-on whose time is up lapse; the field may then be
    /// final, or the tournament over.
    fn lapse(&mut self, now: Millis, out: &mut Vec<Output>) {
        let mut out_for_good = Vec::new();
        for e in &mut self.entries {
            if e.rebuy_offer_until.is_some_and(|t| t <= now) {
                e.rebuy_offer_until = None;
                out_for_good.push((e.no, std::mem::take(&mut e.knocked_out_by)));
            }
        }
        for (no, by) in out_for_good {
            self.pay_head(no, &by, out);
        }
        if self.addon_until.is_some_and(|t| t <= now) {
            self.addon_until = None;
        }
        self.maybe_close(out);
        self.check_end(out);
    }

    fn register(&mut self, player: Uuid, name: &str, draw: &Draw, out: &mut Vec<Output>) {
        match self.status {
            Status::Registering => {
                let no = self.entries.len() as EntryNo + 1;
                self.entries.push(Entry {
                    no,
                    player,
                    name: name.to_owned(),
                    chips: 0,
                    state: EntryState::Registered,
                    hands: 0,
                    place: None,
                    prize: None,
                    rebuys: 0,
                    addon: false,
                    pending: 0,
                    rebuy_offer_until: None,
                    head: self.spec.bounty_cents(),
                    bounties: 0,
                    knocked_out_by: Vec::new(),
                    deal: 0,
                    rebuy_key: None,
                });
            }
            Status::Running => self.add_entry(player, name, draw, out),
            Status::Finished | Status::Cancelled => {}
        }
    }

    /// A late entry or a re-entry: seated at once with a starting stack.
    fn add_entry(&mut self, player: Uuid, name: &str, draw: &Draw, out: &mut Vec<Output>) {
        if self.status != Status::Running {
            return;
        }
        let no = self.entries.len() as EntryNo + 1;
        let chips = self.spec.starting_chips;
        self.entries.push(Entry {
            no,
            player,
            name: name.to_owned(),
            chips,
            state: EntryState::Playing,
            hands: 0,
            place: None,
            prize: None,
            rebuys: 0,
            addon: false,
            pending: 0,
            rebuy_offer_until: None,
            head: self.spec.bounty_cents(),
            bounties: 0,
            knocked_out_by: Vec::new(),
            deal: 0,
            rebuy_key: None,
        });
        let at = self.floor.seat_new(no, &mut Drawer::new(draw));
        out.push(Output::Seat { player, entry: no, at, chips });
    }

    fn cancel(&mut self, out: &mut Vec<Output>) {
        if self.status != Status::Registering {
            return;
        }
        let buy_in = self.spec.buy_in();
        for e in &mut self.entries {
            if e.state == EntryState::Registered {
                e.state = EntryState::Out;
                out.push(Output::Refund { player: e.player, amount: buy_in });
            }
        }
        self.status = Status::Cancelled;
        out.push(Output::Cancelled);
    }

    fn start(&mut self, now: Millis, draw: &Draw, out: &mut Vec<Output>) {
        if self.status != Status::Registering {
            return;
        }
        if self.registered() < (self.spec.min_entrants as usize).max(2) {
            self.cancel(out);
            return;
        }
        let chips = self.spec.starting_chips;
        let mut ids = Vec::new();
        for e in &mut self.entries {
            if e.state == EntryState::Registered {
                e.state = EntryState::Playing;
                e.chips = chips;
                ids.push(e.no);
            }
        }
        let spots = self.floor.seat_start(&ids, &mut Drawer::new(draw));
        self.status = Status::Running;
        self.level = 0;
        self.level_started_at = now;
        let tables: Vec<TableNo> = self.floor.tables().keys().copied().collect();
        out.push(Output::Started { entries: ids.len() as u32, tables: tables.clone() });
        for (entry, at) in spots {
            out.push(Output::Seat { player: self.player_of(entry), entry, at, chips });
        }
        out.push(Output::Level { level: 1 });
        self.maybe_close(out);
    }

    fn next_level(&mut self, started_at: Millis, out: &mut Vec<Output>) {
        if self.status != Status::Running || self.level + 1 >= self.spec.levels.len() {
            return;
        }
        self.level += 1;
        self.level_started_at = started_at;
        self.level_hands.clear();
        self.take_over_rotation();
        out.push(Output::Level { level: self.level() });
        // Every `every` levels a break: the new level's clock starts when it ends.
        if let Some((every, minutes)) = self.spec.breaks
            && every > 0
            && self.level as u32 % every == 0
        {
            let until = started_at + u64::from(minutes) * 60_000;
            self.break_until = Some(until);
            self.level_started_at = until;
            out.push(Output::Break { until });
        }
        // The rebuy period is over: the add-on is sold for a while, to every entry still in.
        if let Some(r) = self.spec.rebuys
            && r.addon.is_some()
            && self.level() == r.until_level + 1
            && !self.closed
        {
            let until = started_at + ADDON_MS;
            self.addon_until = Some(until);
            for e in self.entries.iter().filter(|e| e.state == EntryState::Playing) {
                out.push(Output::Offer { player: e.player, entry: e.no, offer: Offer::AddOn, until });
            }
        }
        self.maybe_close(out);
    }

    /// Closes registration once neither late registration nor re-entry is open.
    fn maybe_close(&mut self, out: &mut Vec<Output>) {
        if self.closed || self.status != Status::Running {
            return;
        }
        if self.late_registration_open()
            || self.reentry_open()
            || self.rebuy_open()
            || self.addon_until.is_some()
            || self.first_offer_end().is_some()
        {
            return;
        }
        self.close(out);
    }

    fn close(&mut self, out: &mut Vec<Output>) {
        if self.closed {
            return;
        }
        self.closed = true;
        out.push(Output::RegistrationClosed { entries: self.entry_count(), pool: self.pool(), prizes: self.prizes() });
        self.place_groups(out);
        self.check_final_table(out);
    }

    fn hand_started(&mut self, table: TableNo, out: &mut Vec<Output>) {
        let Some(config) = self.next_config(table) else { return };
        let level = self.level();
        let Some(t) = self.floor.table_mut(table) else { return };
        if t.in_hand() {
            return;
        }
        let dealt: Vec<EntryNo> = t.seats.values().copied().collect();
        let stacks: Vec<(EntryNo, Chips)> =
            dealt.iter().map(|&no| (no, self.entry(no).map_or(0, |e| e.chips))).collect();
        if let Some(t) = self.floor.table_mut(table) {
            t.hand = Some(stacks);
        }
        for no in dealt {
            if let Some(e) = self.entry_mut(no) {
                e.hands += 1;
            }
        }
        if let Some(h) = &mut self.hand_for_hand {
            h.dealt.insert(table);
        }
        let deal = self.deal_number(table).unwrap_or_default();
        out.push(Output::Deal { table, deal, level, config });
    }

    fn hand_finished(
        &mut self,
        now: Millis,
        table: TableNo,
        stacks: &[(Uuid, Chips)],
        knockouts: &[Knockout],
        draw: &Draw,
        out: &mut Vec<Output>,
    ) {
        let Some(t) = self.floor.table_mut(table) else { return };
        let Some(dealt) = t.hand.take() else { return };
        t.hands += 1;
        *self.level_hands.entry(table).or_default() += 1;
        let after: BTreeMap<Uuid, Chips> = stacks.iter().copied().collect();
        // Chips bought during the hand (rebuys, the add-on) are added now, so a player who
        // rebought and then lost the hand's chips is still in.
        let seated: Vec<EntryNo> = t.seats.values().copied().collect();
        for &(no, _) in &dealt {
            let Some(e) = self.entry_mut(no) else { continue };
            let Some(&chips) = after.get(&e.player) else {
                // Not dealt in after all (the table could not seat them): nothing changed.
                e.hands = e.hands.saturating_sub(1);
                continue;
            };
            e.chips = chips;
        }
        for no in seated {
            if let Some(e) = self.entry_mut(no)
                && e.pending > 0
            {
                e.chips += std::mem::take(&mut e.pending);
                out.push(Output::Chips { player: e.player, entry: no, chips: e.chips });
            }
        }
        let mut busted = Vec::new();
        for &(no, start) in &dealt {
            let Some(e) = self.entry_mut(no) else { continue };
            if e.state == EntryState::Playing && e.chips == 0 {
                e.state = EntryState::Out;
                busted.push((no, start));
            }
        }
        // An open deal's figures move with the chips: its acceptances are cleared, and a
        // player out makes it off.
        if let Some(p) = &mut self.proposal {
            p.accepted.clear();
            if !busted.is_empty() {
                self.proposal = None;
            }
            out.push(Output::DealChanged);
        }
        let rebuy = self.spec.rebuys.filter(|_| self.rebuy_open());
        for &(no, _) in &busted {
            self.floor.remove(no);
            out.push(Output::Eliminated { player: self.player_of(no), entry: no, table });
            let by = self.eliminators(no, &dealt, &after, knockouts);
            // Busted in the rebuy period, with rebuys left: offered one for a while.
            if let Some(r) = rebuy
                && let Some(e) = self.entry_mut(no)
                && r.max.is_none_or(|m| e.rebuys < m)
            {
                let until = now + REBUY_OFFER_MS;
                e.rebuy_offer_until = Some(until);
                e.knocked_out_by = by;
                out.push(Output::Offer { player: e.player, entry: no, offer: Offer::Rebuy, until });
            } else {
                self.pay_head(no, &by, out);
            }
        }
        match &mut self.hand_for_hand {
            Some(h) if !h.draining => h.pending.extend(busted),
            _ if busted.is_empty() => {}
            _ => self.busts.push(busted),
        }
        // Levels by hands: the busiest table's count at this level.
        if let Some(LevelLength::Hands(n)) = self.spec.levels.get(self.level).map(|l| l.length)
            && self.level_hands.values().any(|&h| h >= u64::from(n))
        {
            self.next_level(now, out);
        }
        // In a hand-for-hand round the floor waits for the round's end: a player moved from a
        // table that has played its hand to one that has not would play the round twice.
        if self.hand_for_hand.as_ref().is_none_or(|h| h.draining) {
            self.rebalance(draw, out);
        }
        self.check_final_table(out);
        self.hand_for_hand_step(draw, out);
        if self.closed {
            self.place_groups(out);
        }
        self.check_end(out);
    }

    /// Breaks and balances the tables between hands ([`Floor::rebalance`]).
    fn rebalance(&mut self, draw: &Draw, out: &mut Vec<Output>) {
        let r = self.floor.rebalance(&mut Drawer::new(draw));
        for step in r.moves {
            out.push(Output::Move { player: self.player_of(step.entry), step });
        }
        for table in r.closed {
            self.level_hands.remove(&table);
            out.push(Output::TableClosed { table });
        }
    }

    /// The entries that busted `no` at this hand, with the chips each took from the last pot
    /// it had chips in: the table's word for it where it names entries dealt in that still
    /// have chips, else the entry with the most chips after the hand (ties: the earlier).
    fn eliminators(
        &self,
        no: EntryNo,
        dealt: &[(EntryNo, Chips)],
        after: &BTreeMap<Uuid, Chips>,
        knockouts: &[Knockout],
    ) -> Vec<(EntryNo, Chips)> {
        let alive = |e: &EntryNo| *e != no && self.entry(*e).and_then(|x| after.get(&x.player)).is_some_and(|c| *c > 0);
        let entry_of = |p: Uuid| dealt.iter().map(|(e, _)| *e).find(|e| self.player_of(*e) == p);
        let busted = self.player_of(no);
        let mut by: Vec<(EntryNo, Chips)> = Vec::new();
        for k in knockouts.iter().filter(|k| k.player == busted) {
            for &(p, chips) in &k.by {
                let Some(e) = entry_of(p).filter(|e| alive(e) && chips > 0) else { continue };
                match by.iter_mut().find(|(x, _)| *x == e) {
                    Some((_, c)) => *c = c.saturating_add(chips),
                    None => by.push((e, chips)),
                }
            }
        }
        if by.is_empty() {
            let leader =
                dealt.iter().map(|(e, _)| *e).filter(alive).max_by_key(|e| {
                    (self.entry(*e).and_then(|x| after.get(&x.player)).copied(), std::cmp::Reverse(*e))
                });
            by.extend(leader.map(|e| (e, 1)));
        }
        by
    }

    /// Pays the head of entry `no` to `by` (entries, with the chips each took from the pot
    /// that busted it: the shares' weights; the winner's own head: itself).
    fn pay_head(&mut self, no: EntryNo, by: &[(EntryNo, Chips)], out: &mut Vec<Output>) {
        let Some(bounty) = self.spec.bounty else { return };
        let Some(head) = self.entry_mut(no).map(|e| std::mem::take(&mut e.head)) else { return };
        for (winner, share) in bounty_shares(head, by) {
            let playing = winner != no && self.entry(winner).is_some_and(|e| e.state == EntryState::Playing);
            let onto_head = if bounty.progressive && playing { share / 2 } else { 0 };
            let Some(e) = self.entry_mut(winner) else { continue };
            e.head += onto_head;
            e.bounties += share - onto_head;
            out.push(Output::Bounty {
                player: e.player,
                entry: winner,
                of: no,
                cents: share - onto_head,
                head: e.head,
            });
        }
    }

    /// One table left, and no late entry can open another.
    fn check_final_table(&mut self, out: &mut Vec<Output>) {
        if self.closed && !self.final_table && self.floor.tables().len() == 1 && self.live() > 1 {
            self.final_table = true;
            if let Some(&table) = self.floor.tables().keys().next() {
                out.push(Output::FinalTable { table });
            }
        }
    }

    fn paid_places(&self) -> usize {
        if self.spec.satellite.is_some_and(|s| s.ticket > 0) {
            return self.prizes().len();
        }
        self.payout_table().len()
    }

    /// Hand-for-hand: advance the round (balancing the tables at its end), switch it on at the
    /// bubble and off past it.
    fn hand_for_hand_step(&mut self, draw: &Draw, out: &mut Vec<Output>) {
        let in_hand = self.floor.tables().values().any(|t| t.in_hand());
        let ready = |f: &Floor| -> Vec<TableNo> {
            f.tables().iter().filter(|(_, t)| t.count() >= 2).map(|(&n, _)| n).collect()
        };
        if let Some(h) = &mut self.hand_for_hand {
            if h.draining {
                if in_hand {
                    return;
                }
                h.draining = false;
                // The hands that finished before the first round may have burst the bubble.
                if self.live() <= self.paid_places() || self.floor.tables().len() < 2 {
                    self.hand_for_hand = None;
                    out.push(Output::HandForHand { on: false });
                } else {
                    out.push(Output::NextRound { tables: ready(&self.floor) });
                }
                return;
            }
            let round_over = !in_hand && ready(&self.floor).iter().all(|t| h.dealt.contains(t));
            if !round_over {
                return;
            }
            h.rounds += 1;
            self.hfh_rounds += 1;
            h.dealt.clear();
            let group = std::mem::take(&mut h.pending);
            if !group.is_empty() {
                self.busts.push(group);
            }
            // Between rounds: the tables are broken and balanced now.
            self.rebalance(draw, out);
            self.check_final_table(out);
            if self.live() <= self.paid_places() || self.floor.tables().len() < 2 {
                self.hand_for_hand = None;
                out.push(Output::HandForHand { on: false });
            } else {
                out.push(Output::NextRound { tables: ready(&self.floor) });
            }
            return;
        }
        let ready = ready(&self.floor);
        if self.closed && self.live() == self.paid_places() + 1 && self.floor.tables().len() >= 2 {
            // The hands in play when it starts are the first round's at their tables (PokerStars:
            // eliminations in the same hand-for-hand hand rank by the stacks they started it
            // with): the other tables deal one hand each, and a bust anywhere in the round is
            // placed with the round's others. Waiting for those hands to end first (as before)
            // let them burst the bubble one table at a time, by the clock, in every 1,000-entrant
            // run: no round ever completed.
            let dealt: BTreeSet<TableNo> =
                self.floor.tables().iter().filter(|(_, t)| t.in_hand()).map(|(&n, _)| n).collect();
            let tables: Vec<TableNo> = ready.into_iter().filter(|t| !dealt.contains(t)).collect();
            self.hand_for_hand = Some(HandForHand { draining: false, dealt, rounds: 0, pending: Vec::new() });
            self.hfh_starts += 1;
            out.push(Output::HandForHand { on: true });
            out.push(Output::NextRound { tables });
        }
    }

    /// Places every elimination group not placed yet (registration must be closed).
    fn place_groups(&mut self, out: &mut Vec<Output>) {
        let total = self.entry_count();
        let prizes = self.prizes();
        let tickets = self.tickets_won();
        let mut busted_before: u32 = self.busts.iter().take(self.placed).map(|g| g.len() as u32).sum();
        while self.placed < self.busts.len() {
            let group = self.busts.get(self.placed).cloned().unwrap_or_default();
            busted_before += group.len() as u32;
            let best = total.saturating_sub(busted_before) + 1;
            for (no, place, prize) in place_group(&group, best, &prizes) {
                if let Some(e) = self.entry_mut(no) {
                    e.place = Some(place);
                    e.prize = Some(prize);
                }
                if let Some(line) = self.entry(no).and_then(|e| self.placed_line(e, tickets)) {
                    out.push(Output::Placed(line));
                }
            }
            self.placed += 1;
        }
    }

    fn check_end(&mut self, out: &mut Vec<Output>) {
        if self.status != Status::Running || self.live() != 1 {
            return;
        }
        // A player busted in the rebuy period may still buy back in: wait for the offer.
        if self.first_offer_end().is_some() {
            return;
        }
        if self.hand_for_hand.as_ref().is_some_and(|h| !h.pending.is_empty()) {
            return;
        }
        self.hand_for_hand = None;
        self.close(out);
        let prize = self.prizes().first().copied().unwrap_or(0);
        let Some(winner) = self.entries.iter_mut().find(|e| e.state == EntryState::Playing) else { return };
        winner.place = Some(1);
        winner.prize = Some(prize);
        let player = winner.player;
        let no = winner.no;
        self.pay_head(no, &[(no, 1)], out);
        if let Some(line) = self.entries.iter().find(|e| e.player == player && e.place == Some(1)) {
            if let Some(line) = self.placed_line(line, self.tickets_won()) {
                out.push(Output::Placed(line));
            }
        }
        self.status = Status::Finished;
        out.push(Output::Ended { winner: player });
    }
}

/// Splits `head` cents among `by` in proportion to their weights: each share floored, the
/// cents left over one each to the larger weights first (ties: the order given). Shares of 0
/// are left out.
fn bounty_shares(head: Cents, by: &[(EntryNo, Chips)]) -> Vec<(EntryNo, Cents)> {
    let total: u128 = by.iter().map(|(_, w)| u128::from(*w)).sum();
    if total == 0 {
        return Vec::new();
    }
    let mut shares: Vec<(EntryNo, Cents)> =
        by.iter().map(|&(e, w)| (e, (u128::from(head) * u128::from(w) / total) as Cents)).collect();
    let mut left = head - shares.iter().map(|(_, c)| *c).sum::<Cents>();
    let mut order: Vec<usize> = (0..by.len()).collect();
    order.sort_by_key(|&i| by.get(i).map(|&(e, w)| (std::cmp::Reverse(w), e)));
    for i in order.into_iter().cycle().take(by.len() * 2) {
        if left == 0 {
            break;
        }
        if let Some((_, c)) = shares.get_mut(i) {
            *c += 1;
            left -= 1;
        }
    }
    shares.retain(|(_, c)| *c > 0);
    shares
}

/// Whether two invite codes are equal, in a time that does not depend on where they differ
/// (a guesser learns nothing from how long a refusal took).
fn same_code(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
