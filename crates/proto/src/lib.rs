//! The wire protocol of the stud server: WebSocket messages (JSON text frames, tagged by
//! `"type"`) and the bodies of the HTTP API.
//!
//! Types only, no logic. Game vocabulary (`Action`, `Event`, `HandView`, `Card`, ...) is the
//! engine's own, so the wire says exactly what the engine means. `proto/schema.json` is
//! generated from these types by [`schema_json`]; a test fails when the committed copy is stale.
#![deny(missing_docs)]

pub mod openapi;
mod tournament;

pub use tournament::{
    CreateTournament, DealMethod, DealPlayer, DealState, EntrantState, MAX_ENTRANTS, MAX_FEE, MAX_STARTING_CHIPS,
    RotationChange, TournamentDeal, TournamentDetail, TournamentEntrant, TournamentGame, TournamentKind,
    TournamentLevel, TournamentOfferKind, TournamentPurchase, TournamentRebuys, TournamentRegistration,
    TournamentResult, TournamentStatus, TournamentSummary, TournamentTable,
};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use stud_engine::config::MAX_CHIPS;
use stud_engine::record::{AwardRecord, HandRecord, RecordedAction};
use stud_engine::{Action, Betting, Chips, Event, HandStrength, HandView, Pot, TableConfig, Variant};
use uuid::Uuid;

/// The protocol version this build speaks. A `hello` with another version is refused.
pub const PROTOCOL_VERSION: u32 = 1;

/// A client's correlation id, echoed in the reply or error it causes.
pub type RequestId = Option<String>;

/// Messages from a client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// First message on a socket: the protocol version and the session token.
    Hello {
        /// must equal [`PROTOCOL_VERSION`]
        version: u32,
        /// from `POST /api/sessions`
        token: String,
    },
    /// Watch a table (observers see up cards only). Needed before sitting.
    JoinTable {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the table
        table_id: Uuid,
        /// a private table's invite code
        #[serde(default)]
        invite_code: Option<String>,
    },
    /// Take a seat with a buy-in from the play-money balance.
    Sit {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the table
        table_id: Uuid,
        /// a private table's invite code
        #[serde(default)]
        invite_code: Option<String>,
        /// a seat 1..=8, or none for the first free one
        #[serde(default)]
        seat: Option<u8>,
        /// chips to bring, within the table's buy-in range
        buy_in: Chips,
    },
    /// Act in the current hand (also show / muck at showdown).
    Act {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the table
        table_id: Uuid,
        /// the hand this action is for (an older hand is refused as stale)
        hand_id: Uuid,
        /// the table sequence number of the prompt being answered (older is stale)
        seq: u64,
        /// a key unique per intended action: a repeat is answered, not applied twice
        idempotency_key: String,
        /// what to do
        action: Action,
    },
    /// Sit out from the next hand on.
    SitOut {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the table
        table_id: Uuid,
    },
    /// Come back in from the next hand.
    SitIn {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the table
        table_id: Uuid,
    },
    /// Auto-muck on or off for your seat: on, a hand that is offered show or muck at a
    /// showdown (it beats no hand shown so far, RULES.md 5.3) is mucked at once, without a
    /// prompt (cards speak, 5.4: a muck never forfeits a winning hand). Answered `ack`
    /// ("auto-muck on" / "auto-muck off"); your snapshot's `auto_muck` says the setting.
    AutoMuck {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the table
        table_id: Uuid,
        /// on or off
        on: bool,
    },
    /// Join (`on: true`) or leave the table's waiting list. Join the table first (to watch);
    /// not at tournament tables, not while seated there. When a seat is free the first players
    /// on the list are offered it (your snapshot's `wait.offer_ms`): only they may take a free
    /// seat then, with a `sit` within [`SEAT_OFFER_MS`]; an offer not taken in time takes the
    /// player off the list and goes to the next. Answered `ack` ("on the waiting list:
    /// position N" / "off the waiting list"); the list is kept by the table (it survives a
    /// restart), the lobby's `waiting` counts it.
    Waitlist {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the table
        table_id: Uuid,
        /// join or leave the list
        on: bool,
    },
    /// Add chips from the balance between hands (up to the table maximum).
    TopUp {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the table
        table_id: Uuid,
        /// chips to add
        amount: Chips,
    },
    /// Leave the seat (after the current hand if in one) and cash out; stop watching.
    Leave {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the table
        table_id: Uuid,
    },
    /// Ask for a fresh snapshot (after a sequence gap).
    Snapshot {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the table
        table_id: Uuid,
    },
    /// List the session's last hands (up to 50), newest first.
    LastHands {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
    },
    /// The LAST HAND report of one of the session's hands.
    LastHand {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the hand
        hand_id: Uuid,
    },
    /// Say something in the table's chat (seated players only, where the table has chat on):
    /// at most [`CHAT_MAX_CHARS`] characters, a few a second at most. Everyone watching the
    /// table gets it as a `chat` frame. Chat is not journaled and not in snapshots.
    Chat {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the table
        table_id: Uuid,
        /// the message: plain text (clients must never interpret it as markup)
        text: String,
    },
    /// Register for a tournament: the entry fee and the house fee come out of the balance.
    /// Answered by `tournament_registration`.
    TournamentRegister {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the tournament
        tournament_id: Uuid,
        /// a private tournament's invite code
        #[serde(default)]
        invite_code: Option<String>,
    },
    /// Unregister before the start: refunded in full. Answered by `tournament_registration`.
    TournamentUnregister {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the tournament
        tournament_id: Uuid,
    },
    /// Buy a rebuy: the rebuy fee comes out of the balance. Sold in the rebuy period to a
    /// player at or below the starting stack (the chips come at once between hands, else when
    /// the hand in play at their table ends), and to a player busted in it with rebuys left
    /// while their `tournament_offer` lasts (seated again). Answered by `tournament_purchase`.
    TournamentRebuy {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the tournament
        tournament_id: Uuid,
        /// a key unique per intended rebuy (1 to 64 characters): asked again with the key of
        /// the entry's last rebuy (a retry after a lost answer, a second press), it is answered
        /// `tournament_purchase` again and charged once
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(length(min = 1, max = 64))]
        idempotency_key: Option<String>,
    },
    /// Propose a deal at the final table (once the field is final; the tournament's `deals`
    /// allow it): the money the remaining places still pay, less `leave` (played for, the
    /// winner's), shared by `method`. No new hand deals while it is open (2 minutes); every
    /// player left must accept it. Answered by `tournament_deal` with the figures.
    TournamentDealPropose {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the tournament
        tournament_id: Uuid,
        /// `icm` or `chip_chop`
        method: DealMethod,
        /// cents left to play for (0: the tournament ends with the deal)
        #[serde(default)]
        leave: u64,
    },
    /// Accept the open deal (between hands, when its figures are final) or decline it (it is
    /// off). Answered by `tournament_deal`.
    TournamentDealAnswer {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the tournament
        tournament_id: Uuid,
        /// accept, or decline
        accept: bool,
    },
    /// Buy the add-on (once, while it is offered at the end of the rebuy period). Answered by
    /// `tournament_purchase`.
    TournamentAddon {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// the tournament
        tournament_id: Uuid,
    },
    /// Keep-alive.
    Ping {
        /// echoed in the reply
        #[serde(default)]
        request_id: RequestId,
        /// echoed in the pong
        #[serde(default)]
        nonce: u64,
    },
}

impl ClientMsg {
    /// The `type` tags a client may send.
    pub const TYPES: &'static [&'static str] = &[
        "hello",
        "join_table",
        "sit",
        "act",
        "sit_out",
        "sit_in",
        "auto_muck",
        "waitlist",
        "top_up",
        "leave",
        "snapshot",
        "last_hands",
        "last_hand",
        "chat",
        "tournament_register",
        "tournament_unregister",
        "tournament_rebuy",
        "tournament_addon",
        "tournament_deal_propose",
        "tournament_deal_answer",
        "ping",
    ];

    /// The request id, if the message has one.
    pub fn request_id(&self) -> RequestId {
        match self {
            ClientMsg::Hello { .. } => None,
            ClientMsg::JoinTable { request_id, .. }
            | ClientMsg::Sit { request_id, .. }
            | ClientMsg::Act { request_id, .. }
            | ClientMsg::SitOut { request_id, .. }
            | ClientMsg::SitIn { request_id, .. }
            | ClientMsg::AutoMuck { request_id, .. }
            | ClientMsg::Waitlist { request_id, .. }
            | ClientMsg::TopUp { request_id, .. }
            | ClientMsg::Leave { request_id, .. }
            | ClientMsg::Snapshot { request_id, .. }
            | ClientMsg::LastHands { request_id }
            | ClientMsg::LastHand { request_id, .. }
            | ClientMsg::Chat { request_id, .. }
            | ClientMsg::TournamentRegister { request_id, .. }
            | ClientMsg::TournamentUnregister { request_id, .. }
            | ClientMsg::TournamentRebuy { request_id, .. }
            | ClientMsg::TournamentAddon { request_id, .. }
            | ClientMsg::TournamentDealPropose { request_id, .. }
            | ClientMsg::TournamentDealAnswer { request_id, .. }
            | ClientMsg::Ping { request_id, .. } => request_id.clone(),
        }
    }
}

/// Messages from the server. Every message about a table carries that table's sequence
/// number `seq`: broadcasts number 1, 2, 3, ...; a client that sees a gap asks for a snapshot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The handshake succeeded.
    Welcome {
        /// [`PROTOCOL_VERSION`]
        version: u32,
        /// the player
        player_id: Uuid,
        /// this login session (LAST HAND lists its hands)
        session_id: Uuid,
        /// display name
        name: String,
        /// play-money chips not on a table
        balance: Chips,
    },
    /// A request succeeded (the table's broadcasts show its effect).
    Ack {
        /// the request's id
        request_id: RequestId,
        /// the table concerned
        table_id: Option<Uuid>,
        /// the table's current sequence number
        seq: Option<u64>,
        /// what was done, e.g. "seated at 3", "duplicate action"
        detail: String,
    },
    /// The whole table as this client may see it.
    Snapshot {
        /// the `request_id` of the `snapshot` request this answers; absent on the snapshots
        /// the table sends by itself (a seating change, joining, catching up)
        #[serde(default, skip_serializing_if = "Option::is_none")]
        request_id: RequestId,
        /// the table
        table_id: Uuid,
        /// sequence number of the table state shown
        seq: u64,
        /// the state
        table: TableState,
    },
    /// A new hand started; the deck is committed to by `commitment` = sha256(seed).
    HandStarted {
        /// the table
        table_id: Uuid,
        /// sequence number
        seq: u64,
        /// the hand
        hand_id: Uuid,
        /// the table's hand counter
        number: u64,
        /// sha256 of the deck seed, hex; the seed is revealed in the hand record afterwards
        commitment: String,
    },
    /// Something happened in the hand (another seat's down cards are card backs).
    Event {
        /// the table
        table_id: Uuid,
        /// sequence number
        seq: u64,
        /// the hand
        hand_id: Uuid,
        /// what happened
        event: Event,
        /// the pots after this event (main pot first, then side pots, split only at all-in
        /// levels; bets of the street in progress included): on every event that changes
        /// them; empty once awarded
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pots: Option<Vec<Pot>>,
        /// on `shown` and `award` events with a hand: the hand as a code to put into words
        /// (the event's English `description` / `hand` says the same)
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hand_code: Option<HandStrength>,
    },
    /// It is your turn: exactly these actions are legal.
    YourTurn {
        /// the table
        table_id: Uuid,
        /// sequence number (send it back with the action)
        seq: u64,
        /// the hand
        hand_id: Uuid,
        /// the legal actions with exact amounts
        legal: Vec<Action>,
        /// milliseconds until the clock acts for you (action time plus time bank)
        deadline_ms: u64,
        /// of which time bank
        time_bank_ms: u64,
        /// chips a `call` adds (when call is legal; less than the bet when all in)
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to_call: Option<Chips>,
        /// chips the `bring_in` posts (when it is legal)
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bring_in_amount: Option<Chips>,
        /// what your cards make so far, as a code (see `HandStrength`)
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hand_strength: Option<HandStrength>,
        /// big-bet stud (pot limit, no limit): each legal bet, raise or opening wager with the
        /// range of street totals it may make (`min_to` to `max_to`, capped by the stack; `act`
        /// sends any `to` in it); absent in fixed limit, where `legal` gives each wager's one size
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        wagers: Vec<stud_engine::LegalEntry>,
    },
    /// Someone else is to act (sent to everyone, with the clock).
    Turn {
        /// the table
        table_id: Uuid,
        /// sequence number
        seq: u64,
        /// the hand
        hand_id: Uuid,
        /// the seat to act
        seat: u8,
        /// milliseconds until the clock acts for them (action time plus time bank)
        deadline_ms: u64,
        /// of which their time bank (the last `time_bank_ms` of the deadline)
        #[serde(default)]
        time_bank_ms: u64,
    },
    /// The hand is over.
    HandResult {
        /// the table
        table_id: Uuid,
        /// sequence number
        seq: u64,
        /// the hand
        hand_id: Uuid,
        /// every pot (or half) and who won it
        awards: Vec<AwardRecord>,
        /// stacks after the hand, per seat
        stacks: Vec<(u8, Chips)>,
    },
    /// A request failed: only the sender gets this; the table carries on.
    Error {
        /// the failing request's id (null when the frame had none, or when it could not be
        /// read: see `unread`)
        request_id: RequestId,
        /// machine-readable cause
        code: ErrorCode,
        /// human-readable explanation
        message: String,
        /// true when the frame was refused before its `request_id` could be read (a binary
        /// frame, text that is not JSON or has a `request_id` that is not a string, a frame
        /// refused unread whose id could not be picked out): `request_id` is then null even if
        /// the frame had one. Absent (false) otherwise.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        unread: bool,
        /// the table a notice without a request is about (an operator removed this player,
        /// or the table's access changed): the table is gone from this connection, the
        /// session is fine. Absent otherwise
        #[serde(default, skip_serializing_if = "Option::is_none")]
        table_id: Option<Uuid>,
    },
    /// Reply to a ping.
    Pong {
        /// the ping's id
        request_id: RequestId,
        /// the ping's nonce
        nonce: u64,
    },
    /// The session's last hands, newest first.
    LastHands {
        /// the request's id
        request_id: RequestId,
        /// up to 50
        hands: Vec<HandSummary>,
    },
    /// The table has closed (an operator closed it): everyone was cashed out.
    TableClosed {
        /// the table
        table_id: Uuid,
        /// sequence number
        seq: u64,
    },
    /// One LAST HAND report.
    LastHand {
        /// the request's id
        request_id: RequestId,
        /// the report
        report: LastHandReport,
    },
    /// A chat message at a table, to everyone watching it. Outside the table's numbered
    /// sequence: it carries no `seq`, is not journaled, and snapshots do not repeat it.
    Chat {
        /// the table
        table_id: Uuid,
        /// the writer's seat
        seat: u8,
        /// the writer
        player_id: Uuid,
        /// the writer's display name
        name: String,
        /// plain text, at most [`CHAT_MAX_CHARS`] characters (never markup)
        text: String,
        /// when the table took it, milliseconds since the Unix epoch
        at_ms: u64,
    },
    /// A `tournament_register` or `tournament_unregister` succeeded.
    TournamentRegistration {
        /// the request's id
        request_id: RequestId,
        /// what changed and the balance after it
        registration: TournamentRegistration,
    },
    /// Sent to a tournament player's sockets when the tournament seats them: at the start, a
    /// late entry, and every move between hands (balancing, a table breaking). The client
    /// follows with `join_table` (or any table message) for `table_id`; the old table, if
    /// any, deals them no more hands.
    TournamentSeat {
        /// the tournament
        tournament_id: Uuid,
        /// the table to play at now
        table_id: Uuid,
        /// the tournament's number for that table (1, 2, ...)
        table_no: u32,
        /// the seat there
        seat: u8,
        /// the table they were moved from, if any
        from_table_id: Option<Uuid>,
        /// why: `start`, `late`, `balance` or `break`
        reason: SeatReason,
        /// their tournament chips
        chips: Chips,
    },
    /// Sent to a tournament player's sockets when their entry has finished (eliminated, or
    /// the winner): the place and the prize (0 outside the money).
    TournamentPlaced {
        /// the tournament
        tournament_id: Uuid,
        /// 1 = the winner
        place: u32,
        /// cents paid to the account
        prize: u64,
        /// a satellite's ticket: the prize entered the player in this tournament (if its
        /// registration refused them, the prize stays in the account)
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ticket_for: Option<Uuid>,
    },
    /// A `tournament_rebuy` or `tournament_addon` succeeded.
    TournamentPurchase {
        /// the request's id
        request_id: RequestId,
        /// what was bought and the balance after it
        purchase: TournamentPurchase,
    },
    /// Sent to every playing entrant's sockets when the tournament goes on a break: no table
    /// deals a new hand until `until_ms` (a hand in play finishes first).
    TournamentBreak {
        /// the tournament
        tournament_id: Uuid,
        /// when play resumes, ms since the Unix epoch
        until_ms: u64,
    },
    /// A deal at the final table: proposed (with every player's figures by both methods),
    /// accepted by one more, its figures moved by a hand, made, or off. Sent to every player
    /// left, and as the reply to `tournament_deal_propose` / `tournament_deal_answer` (with
    /// the `request_id`).
    TournamentDeal {
        /// the request answered, if any
        #[serde(default, skip_serializing_if = "Option::is_none")]
        request_id: RequestId,
        /// the tournament
        tournament_id: Uuid,
        /// the deal now
        deal: TournamentDeal,
    },
    /// Sent to every playing entrant's sockets when an operator pauses the tournament (no table
    /// deals a new hand, a hand in play finishes; every clock stops) or resumes it.
    TournamentPaused {
        /// the tournament
        tournament_id: Uuid,
        /// paused, or going on again
        paused: bool,
    },
    /// A knockout tournament paid a bounty: sent to the sockets of the players at the table
    /// of the player paid (the eliminator) and of the eliminated player. The winner of the
    /// tournament is sent one for their own head (`eliminated` is then themselves).
    TournamentBounty {
        /// the tournament
        tournament_id: Uuid,
        /// who is paid
        player_id: Uuid,
        /// their display name
        name: String,
        /// whose head it was
        eliminated: Uuid,
        /// the eliminated player's display name
        eliminated_name: String,
        /// cents paid to `player_id`'s account now
        cents: u64,
        /// cents now on `player_id`'s own head (a progressive bounty adds the other half to it)
        head: u64,
    },
    /// Sent to a tournament player's sockets when something is offered to them until
    /// `until_ms`: a rebuy (they busted in the rebuy period; they are out unless they buy it
    /// in time) or the add-on (the rebuy period is over). Buy with `tournament_rebuy` or
    /// `tournament_addon`.
    TournamentOffer {
        /// the tournament
        tournament_id: Uuid,
        /// `rebuy` or `addon`
        offer: TournamentOfferKind,
        /// tournament chips it adds
        chips: Chips,
        /// cents it costs
        fee: u64,
        /// when the offer lapses, ms since the Unix epoch
        until_ms: u64,
    },
}

/// Why a tournament seats a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatReason {
    /// the tournament started
    Start,
    /// a late registration or a re-entry
    Late,
    /// tables differed by two or more players
    Balance,
    /// the player's table broke
    Break,
    /// a rebuy after a bust
    Rebuy,
}

/// The longest chat message, in characters (Unicode scalar values).
pub const CHAT_MAX_CHARS: usize = 200;

/// The longest idempotency key of a purchase (`tournament_rebuy`, the `Idempotency-Key` of
/// `POST /api/tournaments/{id}/rebuys`), in characters.
pub const MAX_IDEMPOTENCY_KEY: usize = 64;

/// Whether a purchase's idempotency key is one the server takes: 1 to
/// [`MAX_IDEMPOTENCY_KEY`] characters.
pub fn idempotency_key_ok(key: &str) -> bool {
    !key.is_empty() && key.chars().count() <= MAX_IDEMPOTENCY_KEY
}

/// Why a request failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The frame is not JSON, or not a valid message.
    Malformed,
    /// The `type` is not one the server knows.
    UnknownType,
    /// The frame exceeds the size limit.
    FrameTooLarge,
    /// The `hello` version is not [`PROTOCOL_VERSION`].
    UnsupportedVersion,
    /// No valid session: say `hello` with a token from `POST /api/sessions`.
    NotAuthenticated,
    /// No such table.
    UnknownTable,
    /// No such hand (or not one of yours).
    UnknownHand,
    /// The seat is occupied.
    SeatTaken,
    /// No free seat.
    TableFull,
    /// You already have a seat at this table.
    AlreadySeated,
    /// Buy-in or top-up outside the table's range.
    BuyInOutOfRange,
    /// Not enough chips in the balance.
    InsufficientBalance,
    /// You have no seat at this table.
    NotSeated,
    /// Not now (e.g. top-up during a hand you are in).
    NotNow,
    /// Not your turn.
    NotYourTurn,
    /// Not one of the legal actions.
    IllegalAction,
    /// For an old hand or an old prompt.
    Stale,
    /// Too many requests.
    RateLimited,
    /// A private table: the invite code is missing or wrong.
    InviteRequired,
    /// Not allowed here (banned, observers not allowed, the table is closing).
    Forbidden,
    /// The server could not do it (nothing was changed).
    Internal,
    /// The store is unavailable or behind (hand history, sessions); retry shortly.
    Unavailable,
    /// A `hello` on a socket that already said one: one socket, one session.
    AlreadyAuthenticated,
    /// The table's chat is off (an operator's setting).
    ChatOff,
    /// A chat message longer than [`CHAT_MAX_CHARS`] characters.
    TooLong,
    /// No such tournament.
    UnknownTournament,
    /// The tournament has every entrant it takes.
    TournamentFull,
    /// The tournament has started: too late to unregister.
    TournamentStarted,
    /// Registration is closed (started without late registration, past it, over, cancelled).
    RegistrationClosed,
    /// Already registered for this tournament (or still playing in it).
    AlreadyRegistered,
    /// Not registered for this tournament.
    NotRegistered,
    /// No rebuy or add-on for you now: the message says why (a stack above the starting
    /// stack, every rebuy used, the offer lapsed, the add-on taken, or not sold now).
    NotOffered,
}

/// A seat at a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SeatInfo {
    /// 1..=8
    pub seat: u8,
    /// the player
    pub player_id: Uuid,
    /// display name
    pub name: String,
    /// chips behind: during a hand, not counting what is already in the pot
    pub stack: Chips,
    /// will not be dealt in
    pub sitting_out: bool,
    /// why they sit out (none when they do not)
    #[serde(default)]
    pub sitting_out_reason: Option<SitOutReason>,
    /// has a live connection
    pub connected: bool,
}

/// Why a player sits out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SitOutReason {
    /// the clock folded them (they come back with `sit_in`)
    Timeout,
    /// they asked (`sit_out`)
    Requested,
    /// no chips left (top up, then `sit_in`)
    Busted,
}

/// How a table shows amounts: dollars and cents (chips are cents) or plain chips.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MoneyDisplay {
    /// `$218.90`
    #[default]
    Cash,
    /// `21,890`
    Chips,
}

/// A table as one client sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TableState {
    /// the table
    pub table_id: Uuid,
    /// display name
    pub name: String,
    /// rules and stakes
    pub config: TableConfig,
    /// buy-in range
    pub min_buy_in: Chips,
    /// buy-in range
    pub max_buy_in: Chips,
    /// occupied seats
    pub seats: Vec<SeatInfo>,
    /// seats at the table (2..=8; seats 1..=seat_count are used)
    #[serde(default = "eight")]
    pub seat_count: u8,
    /// the viewer's seat, if seated
    pub your_seat: Option<u8>,
    /// the viewer's seat mucks its beaten hands at showdowns by itself (`auto_muck`)
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auto_muck: bool,
    /// the hand in play, as the viewer may see it
    pub hand: Option<HandState>,
    /// players on the table's waiting list
    #[serde(default)]
    pub waiting: u32,
    /// the viewer's place on the waiting list, if on it
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wait: Option<WaitPlace>,
    /// how to show amounts
    #[serde(default)]
    pub display: MoneyDisplay,
    /// whether the table's chat is on (seated players may write; everyone watching reads)
    #[serde(default)]
    pub chat: bool,
    /// a tournament's table: the tournament (`GET /api/tournaments/{id}`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament_id: Option<Uuid>,
    /// a tournament's table: the level of the hand in play or last dealt (1-based)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament_level: Option<u32>,
}

/// How long a player offered a seat from the waiting list has to take it.
pub const SEAT_OFFER_MS: u64 = 30_000;

/// A player's place on a table's waiting list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WaitPlace {
    /// 1 for the first in line
    pub position: u32,
    /// a seat is offered to you: milliseconds left to take it with a `sit` (any free seat)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer_ms: Option<u64>,
}

/// The hand in play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HandState {
    /// the hand
    pub hand_id: Uuid,
    /// the table's hand counter
    pub number: u64,
    /// the viewer's view (own down cards, everyone's up cards, backs otherwise)
    pub view: HandView,
    /// milliseconds until the clock acts for the player to act
    pub deadline_ms: Option<u64>,
    /// of which that player's time bank
    #[serde(default)]
    pub time_bank_ms: Option<u64>,
    /// the pots now (as on `event` frames: main pot first, split only at all-in levels);
    /// once the hand is over, the pots as awarded (`event` frames then carry `[]`), like
    /// `view.pots`
    #[serde(default)]
    pub pots: Vec<Pot>,
    /// the hand so far, every event as this viewer may see it (another seat's down cards
    /// are backs), oldest first
    #[serde(default)]
    pub events: Vec<Event>,
    /// your turn: chips a `call` adds
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_call: Option<Chips>,
    /// your turn: chips the `bring_in` posts
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bring_in_amount: Option<Chips>,
    /// what your own cards make so far, as a code
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand_strength: Option<HandStrength>,
}

/// One line of the LAST HAND list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HandSummary {
    /// the hand
    pub hand_id: Uuid,
    /// the table
    pub table_id: Uuid,
    /// the table's hand counter
    pub number: u64,
    /// the game
    pub variant: Variant,
    /// the player's seat
    pub seat: u8,
    /// the player's net result in chips
    pub net: i64,
    /// when it ended, milliseconds since the Unix epoch
    pub ended_at_ms: u64,
    /// a tournament's hand: which tournament and level (its chips are tournament chips);
    /// absent for a cash hand
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<HandTournament>,
}

/// The tournament a stored hand was played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct HandTournament {
    /// the tournament
    pub tournament_id: Uuid,
    /// the level the hand was dealt at, 1-based
    pub level: u32,
}

/// The LAST HAND report (RULES.md 6): every action, the pots and who won them, and every card
/// live at showdown (mucked included); folded players' down cards stay hidden, except yours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LastHandReport {
    /// summary
    pub summary: HandSummary,
    /// the finished hand as LAST HAND shows it
    pub view: HandView,
    /// every event, with the cards LAST HAND may show
    pub events: Vec<Event>,
    /// the pots after each event (as on `event` frames: main pot first, split only at all-in
    /// levels; empty once awarded): `pots[i]` follows `events[i]`
    #[serde(default)]
    pub pots: Vec<Vec<Pot>>,
    /// who played each seat, by the names they had in the hand
    #[serde(default)]
    pub names: Vec<SeatName>,
    /// every action in order
    pub actions: Vec<RecordedAction>,
    /// sha256 of the seed, as published at the start
    pub commitment: Option<String>,
    /// the seed: only in operator reports. A player's report leaves it out, because the deck
    /// it derives would show the folded players' down cards.
    pub seed: Option<String>,
}

/// The player at a seat of a stored hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeatName {
    /// 1..=8
    pub seat: u8,
    /// their display name at the time
    pub name: String,
}

/// `POST /api/sessions` body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CreateSession {
    /// display name, 1..=24 characters, not all blank, no control, invisible or
    /// text-direction characters ([`unfit_in_a_name`]; leading and trailing blanks are dropped)
    #[schemars(length(min = 1, max = 24), regex(pattern = name_pattern()))]
    pub name: String,
}

/// The characters [`unfit_in_a_name`] refuses, as a regular expression class's ranges.
const NAME_UNFIT: &str = r"\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb";

/// [`CreateSession::name`]'s pattern: no unfit character, and one that is not blank either.
pub fn name_pattern() -> String {
    format!("^[^{NAME_UNFIT}]*[^\\s{NAME_UNFIT}][^{NAME_UNFIT}]*$")
}

/// A name by [`name_pattern`]'s rule, 1 to `max` characters as sent (not all blank, no
/// character [`unfit_in_a_name`]), with the blanks around it dropped; `None` when it breaks it.
/// Players' names (24), tables' (40) and tournaments' (64) follow it.
pub fn fit_name(sent: &str, max: usize) -> Option<&str> {
    let name = sent.trim();
    ((1..=max).contains(&sent.chars().count()) && !name.is_empty() && !name.chars().any(unfit_in_a_name))
        .then_some(name)
}

/// Whether a display name may not hold `c`: a control character, or an invisible or
/// bidirectional formatting one (a name that looks blank, that impersonates another, or that
/// turns the text after it around: soft hyphen, zero-width space, word joiner, BOM, Hangul
/// fillers, the direction marks, embeddings, overrides and isolates). The zero-width joiner and
/// non-joiner stay: emoji sequences and several scripts need them.
pub fn unfit_in_a_name(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{ad}'
                | '\u{34f}'
                | '\u{61c}'
                | '\u{115f}'
                | '\u{1160}'
                | '\u{17b4}'
                | '\u{17b5}'
                | '\u{180e}'
                | '\u{200b}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206f}'
                | '\u{3164}'
                | '\u{feff}'
                | '\u{ffa0}'
                | '\u{fff9}'..='\u{fffb}'
        )
}

/// `POST /api/sessions` body for an operator's user: a JWT the operator signed (HS256, RS256
/// or ES256) with `sub` (the operator's user id), `exp`, `aud` and optionally `name` and
/// `nbf`. The same `sub` is the same player on every device.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JwtSession {
    /// the compact JWT
    #[schemars(length(min = 1, max = 8192))]
    pub jwt: String,
}

/// `POST /api/sessions` body: a guest's name, or an operator-signed JWT.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum SessionRequest {
    /// an operator's user
    Jwt(JwtSession),
    /// a guest
    Guest(CreateSession),
}

/// `POST /api/sessions` reply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SessionCreated {
    /// bearer token for `hello`
    pub token: String,
    /// the player
    pub player_id: Uuid,
    /// the session
    pub session_id: Uuid,
    /// display name
    pub name: String,
    /// play-money balance
    pub balance: Chips,
}

/// One table in `GET /api/tables`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TableSummary {
    /// the table
    pub id: Uuid,
    /// display name
    pub name: String,
    /// the game
    pub variant: Variant,
    /// rules and stakes
    pub config: TableConfig,
    /// buy-in range
    pub min_buy_in: Chips,
    /// buy-in range
    pub max_buy_in: Chips,
    /// seats occupied
    pub seats_taken: u8,
    /// seats at the table (2..=8)
    #[serde(default = "eight")]
    pub seats: u8,
    /// no new hands until resumed
    #[serde(default)]
    pub paused: bool,
    /// not in the public lobby; joining needs the invite code
    #[serde(default)]
    pub private: bool,
    /// display names of seated players
    pub players: Vec<String>,
    /// hands per hour over the table's life
    pub hands_per_hour: f64,
    /// the average pot (every chip awarded) of the table's last 25 hands; 0 before its first
    #[serde(default)]
    pub average_pot: Chips,
    /// players on the table's waiting list (`waitlist`)
    #[serde(default)]
    pub waiting: u32,
    /// how to show amounts
    #[serde(default)]
    pub display: MoneyDisplay,
    /// whether the table's chat is on
    #[serde(default)]
    pub chat: bool,
    /// a mixed game: the game after the current one (`variant`, the hand in play's or the
    /// next hand's)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_variant: Option<Variant>,
    /// a mixed game: hands until `next_variant` starts (the current hand included)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hands_to_next_variant: Option<u32>,
    /// a mixed game: the betting structure of `next_variant` (a rotation may mix them)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_betting: Option<Betting>,
    /// a tournament's table: the tournament (its stacks are tournament chips; seats are
    /// assigned by the tournament)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament_id: Option<Uuid>,
    /// a tournament's table: the level of the hand in play or last dealt (1-based)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament_level: Option<u32>,
}

fn eight() -> u8 {
    8
}

fn yes() -> bool {
    true
}

fn three() -> u8 {
    3
}

fn action_ms() -> u64 {
    15_000
}

fn bank_ms() -> u64 {
    30_000
}

/// A table's settings: the body of `POST /api/admin/tables`, and what the admin routes show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableSettings {
    /// display name, 1..=40 characters as sent, not all blank, no control, invisible or
    /// text-direction characters (the rule of players' names; blanks around it are dropped)
    #[schemars(length(min = 1, max = 40), regex(pattern = name_pattern()))]
    pub name: String,
    /// the game
    pub variant: Variant,
    /// posted by everyone dealt in
    #[schemars(range(max = MAX_CHIPS))]
    pub ante: Chips,
    /// the forced opening bet (at most the small bet)
    #[schemars(range(min = 1, max = MAX_CHIPS))]
    pub bring_in: Chips,
    /// bet size on 3rd and 4th street
    #[schemars(range(min = 1, max = MAX_CHIPS))]
    pub small_bet: Chips,
    /// bet size on 5th to 7th street (fixed limit: at least the small bet; not used in pot
    /// limit and no limit)
    #[schemars(range(max = MAX_CHIPS))]
    pub big_bet: Chips,
    /// raises after the first bet of a street (1 bet + 3 raises by default; fixed limit only)
    #[serde(default = "three")]
    pub max_raises: u8,
    /// the big bet on 4th street with an open pair; default: on for stud and stud8, off for razz
    #[serde(default)]
    pub open_pair_big_bet: Option<bool>,
    /// how much a player may bet or raise (RULES.md 10): `fixed_limit` (the default),
    /// `pot_limit` or `no_limit`; in the big-bet structures `small_bet` is the minimum bet
    #[serde(default)]
    pub betting: Betting,
    /// seats, 2..=8
    #[serde(default = "eight")]
    #[schemars(range(min = 2, max = 8))]
    pub seats: u8,
    /// smallest buy-in (at least the ante and the bring-in, at most `max_buy_in`)
    #[schemars(range(min = 1, max = MAX_CHIPS))]
    pub min_buy_in: Chips,
    /// largest buy-in
    #[schemars(range(min = 1, max = MAX_CHIPS))]
    pub max_buy_in: Chips,
    /// time to act, milliseconds (1 s to 10 min)
    #[serde(default = "action_ms")]
    #[schemars(range(min = 1_000, max = 600_000))]
    pub action_timeout_ms: u64,
    /// each player's time bank, milliseconds (at most an hour)
    #[serde(default = "bank_ms")]
    #[schemars(range(max = 3_600_000))]
    pub time_bank_ms: u64,
    /// whether people without a seat may watch
    #[serde(default = "yes")]
    pub observers: bool,
    /// not in the public lobby; joining needs the invite code
    #[serde(default)]
    pub private: bool,
    /// how clients show amounts: `cash` (chips are cents: `$2/$4`) or `chips`
    #[serde(default)]
    pub display: MoneyDisplay,
    /// table chat: on or off; not set means the default, on for public tables and off for
    /// private ones
    #[serde(default)]
    pub chat: Option<bool>,
    /// a mixed game: the table rotates its games (`rotation_games`, else Razz, Stud, Stud
    /// Hi/Lo, in that order), starting from `variant`, this many hands each (8: an orbit; 1 to
    /// 1000); not set: `variant` only
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1_000))]
    pub rotation_hands: Option<u32>,
    /// a mixed game's games in order (1 to 16; needs `rotation_hands`), each with its own
    /// `betting` or the table's; `variant` (at `betting`) must be one of them, the rotation
    /// starts there. Not set: Razz, Stud, Stud Hi/Lo at the table's `betting`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 16))]
    pub rotation_games: Option<Vec<RotationGame>>,
}

/// One game of a rotation (a mixed table's or a tournament's): the variant and, when it is
/// not the table's or tournament's own `betting`, its betting structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RotationGame {
    /// the game
    pub variant: Variant,
    /// its structure: `fixed_limit`, `pot_limit` or `no_limit`; not set: the table's or
    /// tournament's `betting`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub betting: Option<Betting>,
}

/// `PATCH /api/admin/tables/{id}`: any subset of the settings; applies from the next hand (a
/// mixed game's rotation from its next rotation point).
/// Each field follows [`TableSettings`]' rule for it; the rules across fields are checked on
/// the settings as patched.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct TableSettingsPatch {
    #[schemars(length(min = 1, max = 40), regex(pattern = name_pattern()))]
    pub name: Option<String>,
    #[schemars(range(max = MAX_CHIPS))]
    pub ante: Option<Chips>,
    #[schemars(range(min = 1, max = MAX_CHIPS))]
    pub bring_in: Option<Chips>,
    #[schemars(range(min = 1, max = MAX_CHIPS))]
    pub small_bet: Option<Chips>,
    #[schemars(range(max = MAX_CHIPS))]
    pub big_bet: Option<Chips>,
    pub max_raises: Option<u8>,
    pub open_pair_big_bet: Option<bool>,
    pub betting: Option<Betting>,
    #[schemars(range(min = 2, max = 8))]
    pub seats: Option<u8>,
    #[schemars(range(min = 1, max = MAX_CHIPS))]
    pub min_buy_in: Option<Chips>,
    #[schemars(range(min = 1, max = MAX_CHIPS))]
    pub max_buy_in: Option<Chips>,
    #[schemars(range(min = 1_000, max = 600_000))]
    pub action_timeout_ms: Option<u64>,
    #[schemars(range(max = 3_600_000))]
    pub time_bank_ms: Option<u64>,
    pub observers: Option<bool>,
    pub private: Option<bool>,
    pub display: Option<MoneyDisplay>,
    pub chat: Option<bool>,
    /// a mixed game's hands per game (1 to 1000), or makes the table a mixed game. A change of
    /// the rotation (this or `rotation_games`) takes effect at the next rotation point: the
    /// game in play is finished, then the new rotation goes on with the game after it in the
    /// new list (its first game if that game is not in it); a table that was not mixed
    /// starts rotating with its next hand
    #[schemars(range(min = 1, max = 1_000))]
    pub rotation_hands: Option<u32>,
    /// a mixed game's games in order (1 to 16; the table must be or become a mixed game).
    /// When the table's `variant` is not among them, the first of them becomes its `variant`
    #[schemars(length(min = 1, max = 16))]
    pub rotation_games: Option<Vec<RotationGame>>,
}

/// A table as the operator sees it: settings, live status and the invite code.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AdminTable {
    /// the table
    pub id: Uuid,
    /// its settings (changes apply from the next hand)
    pub settings: TableSettings,
    /// a private table's invite code
    pub invite_code: Option<String>,
    /// no new hands until resumed
    pub paused: bool,
    /// the lobby line (players, hands per hour)
    pub status: Option<TableSummary>,
    /// the hand in play, if any
    pub current_hand: Option<Uuid>,
    /// hands played since the table opened
    pub hands_played: u64,
    /// who sits where now (stacks as they stand, in a hand too)
    #[serde(default)]
    pub seats: Vec<SeatInfo>,
}

/// `POST /api/admin/tables/{id}/kick` body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KickRequest {
    /// the player
    pub player_id: Uuid,
    /// true: their hand is given up at once (the clock checks, folds or mucks for them);
    /// false: they go after the current hand
    #[serde(default)]
    pub now: bool,
}

/// `POST /api/admin/bans` body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BanRequest {
    /// the player
    pub player_id: Uuid,
    /// a table, or none for the whole server
    #[serde(default)]
    pub table_id: Option<Uuid>,
    /// why (kept in the log)
    #[serde(default)]
    pub reason: String,
}

/// `PATCH /api/admin/tournaments/{id}` body: what an operator may change in a tournament that
/// has not finished (its name, a rotation's games and hands per game). Absent fields stay as
/// they are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentPatch {
    /// the display name (players' names' rule: 1 to 64 characters, not all blank, no control,
    /// invisible or text-direction characters)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 64), regex(pattern = name_pattern()))]
    pub name: Option<String>,
    /// a rotation (only): each table changes game every this many hands it deals (1 to 1000;
    /// a rotation by level becomes one by hands). Before the start it applies at once; while
    /// running, from the next level: each table goes on with the game after the one it played
    /// last in the new list (its first game if that one is not in it); the detail shows it
    /// as `rotation_pending` until then (a second change adds to it); refused (409
    /// last_level) while the last level is played
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1_000))]
    pub rotation_hands: Option<u32>,
    /// a rotation (only): its games in order (1 to 16), each playable at every level; when
    /// they apply: as `rotation_hands`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 16))]
    pub rotation_games: Option<Vec<RotationGame>>,
}

/// `GET /api/admin/tables/{id}/invite` and `GET /api/admin/tournaments/{id}/invite`: the code
/// a private table or tournament takes now (none: public, or its code revoked).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct InviteCode {
    /// the code, or null
    pub invite_code: Option<String>,
}

/// `POST /api/admin/tables/{id}/kick` reply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct KickResult {
    /// whether the player had a seat or a connection at the table
    pub kicked: bool,
}

/// One ban in `GET /api/admin/bans`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BanInfo {
    /// the player
    pub player_id: Uuid,
    /// the table, or none for the whole server
    pub table_id: Option<Uuid>,
    /// milliseconds since the Unix epoch
    pub at_ms: u64,
    /// why
    pub reason: String,
}

/// One line of `GET /api/admin/log`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AdminLogLine {
    /// milliseconds since the Unix epoch
    pub at_ms: u64,
    /// the operator key's name (`config` for `STUD_OPERATOR_KEY`)
    pub operator: String,
    /// what was done
    pub action: String,
    /// to what (a table or player id)
    pub target: Option<String>,
    /// the request
    pub detail: serde_json::Value,
}

/// An HTTP API error body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ApiErrorBody {
    /// machine-readable cause
    pub code: String,
    /// human-readable explanation
    pub message: String,
}

/// One seat of a stored hand, for operators.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HandDetailSeat {
    /// 1..=8
    pub seat: u8,
    /// the player
    pub player_id: Uuid,
    /// their session
    pub session_id: Uuid,
    /// their name at the time
    pub name: String,
    /// chips won minus chips put in
    pub net: i64,
    /// still in at showdown
    pub showdown: bool,
}

/// A stored hand, unfiltered: `GET /api/hands/{id}` with the operator key. The record holds
/// the seed, every card and every action; `stud verify` checks it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HandDetail {
    /// the hand
    pub hand_id: Uuid,
    /// the table
    pub table_id: Uuid,
    /// the table's hand counter
    pub number: u64,
    /// the game
    pub variant: Variant,
    /// milliseconds since the Unix epoch
    pub started_at_ms: u64,
    /// milliseconds since the Unix epoch
    pub ended_at_ms: u64,
    /// who played
    pub seats: Vec<HandDetailSeat>,
    /// the full record
    pub record: HandRecord,
    /// a tournament's hand: which tournament and level; absent for a cash hand
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<HandTournament>,
}

/// `GET /api/hands` (operators): a page of hands, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HandPage {
    /// the hands
    pub hands: Vec<HandDetail>,
    /// pass as `cursor` for the next (older) page; absent on the last page
    pub next_cursor: Option<String>,
}

/// What moved a player's chips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LedgerLineKind {
    /// new play money into the account
    Issue,
    /// account to a table stack
    BuyIn,
    /// account to a table stack, between hands
    TopUp,
    /// table stack back to the account
    CashOut,
    /// account to a tournament: entry fee + house fee (`table_id` is the tournament)
    TournamentEntry,
    /// a tournament back to the account (unregistered, cancelled)
    TournamentRefund,
    /// a tournament's prize to the account (`table_id` is the tournament)
    TournamentPrize,
    /// account to a tournament: a rebuy's fee (`table_id` is the tournament)
    TournamentRebuy,
    /// account to a tournament: the add-on's fee (`table_id` is the tournament)
    TournamentAddon,
    /// a tournament's bounty to the account (`table_id` is the tournament)
    TournamentBounty,
    /// a player's share of a deal at a tournament's final table (`table_id` is the tournament)
    TournamentDeal,
    /// the player's result in a hand (won minus put in)
    Hand,
}

/// One line of the chip ledger.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LedgerLine {
    /// milliseconds since the Unix epoch
    pub at_ms: u64,
    /// whose chips
    pub player_id: Uuid,
    /// the table, or the tournament (left out for `issue`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_id: Option<Uuid>,
    /// the hand (`hand` lines only; left out on the others)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand_id: Option<Uuid>,
    /// what moved the chips
    pub kind: LedgerLineKind,
    /// change of the account balance
    pub balance_delta: i64,
    /// change of the stack at the table
    pub stack_delta: i64,
}

/// `GET /api/sessions/{id}/ledger`, `GET /api/admin/ledger`: ledger lines, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LedgerPage {
    /// the lines
    pub entries: Vec<LedgerLine>,
    /// pass as `cursor` for the next (older) page; absent on the last page
    pub next_cursor: Option<String>,
}

/// Everything in the protocol, for the schema.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Protocol {
    client: ClientMsg,
    server: ServerMsg,
    create_session: CreateSession,
    session_request: SessionRequest,
    session_created: SessionCreated,
    table_summary: TableSummary,
    api_error: ApiErrorBody,
    last_hand_report: LastHandReport,
    hand_detail: HandDetail,
    hand_page: HandPage,
    table_settings: TableSettings,
    table_settings_patch: TableSettingsPatch,
    admin_table: AdminTable,
    kick: KickRequest,
    kick_result: KickResult,
    ban: BanRequest,
    ban_info: BanInfo,
    admin_log_line: AdminLogLine,
    ledger_page: LedgerPage,
    create_tournament: CreateTournament,
    tournament_summary: TournamentSummary,
    tournament_detail: TournamentDetail,
    tournament_registration: TournamentRegistration,
    tournament_purchase: TournamentPurchase,
    invite_code: InviteCode,
}

/// The JSON Schema of the whole protocol, pretty-printed with a trailing newline
/// (the content of `proto/schema.json`).
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(Protocol);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schema's name pattern and the server's check agree on every character of the
    /// Basic Multilingual Plane and on the planes' first characters, alone and between letters.
    #[test]
    fn the_name_pattern_refuses_exactly_the_unfit_characters() {
        let pattern = regex::Regex::new(&name_pattern()).unwrap();
        let chars = (0..=0xffffu32).chain([0x1_0000, 0x1_f600, 0xe_0001, 0x10_fffd]).filter_map(char::from_u32);
        for c in chars {
            let between = format!("a{c}b");
            assert_eq!(pattern.is_match(&between), !unfit_in_a_name(c), "U+{:04X} between letters", c as u32);
            let alone = c.to_string();
            let fit_alone = !unfit_in_a_name(c) && !c.is_whitespace();
            assert_eq!(pattern.is_match(&alone), fit_alone, "U+{:04X} alone", c as u32);
        }
        for name in ["\u{202e}nimda", "ab\u{200b}", "\u{3164}", "a\u{2066}b"] {
            assert!(!pattern.is_match(name), "{name:?}");
        }
        for name in ["Zoë", "👨\u{200d}👩\u{200d}👧", "می\u{200c}خواهم", "李"] {
            assert!(pattern.is_match(name), "{name:?}");
        }
    }

    #[test]
    fn committed_schema_is_fresh() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../proto/schema.json");
        let fresh = schema_json();
        if std::env::var_os("UPDATE_SCHEMA").is_some() {
            std::fs::write(&path, &fresh).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == fresh,
            "proto/schema.json is stale: run `UPDATE_SCHEMA=1 cargo test -p stud-proto` and commit it"
        );
    }

    #[test]
    fn messages_are_tagged_snake_case_json() {
        let msg: ClientMsg = serde_json::from_str(
            r#"{"type":"act","table_id":"00000000-0000-0000-0000-000000000001","hand_id":"00000000-0000-0000-0000-000000000002","seq":7,"idempotency_key":"k1","action":{"kind":"raise","to":400}}"#,
        )
        .unwrap();
        assert!(matches!(msg, ClientMsg::Act { seq: 7, action: Action::Raise { to: 400 }, .. }));
        let err = ServerMsg::Error {
            request_id: Some("r1".into()),
            code: ErrorCode::NotYourTurn,
            message: "wait".into(),
            unread: false,
            table_id: None,
        };
        assert_eq!(
            serde_json::to_string(&err).unwrap(),
            r#"{"type":"error","request_id":"r1","code":"not_your_turn","message":"wait"}"#
        );
        for t in ClientMsg::TYPES {
            let schema = schema_json();
            assert!(schema.contains(&format!("\"{t}\"")), "{t} missing from the schema");
        }
    }
    /// A big-bet prompt's range sits next to the wager's own fields, and reads back; a
    /// fixed-limit prompt has no `wagers` at all.
    #[test]
    fn a_big_bet_prompt_carries_each_wagers_range() {
        let id = Uuid::from_u128(1);
        let prompt = |wagers| ServerMsg::YourTurn {
            table_id: id,
            seq: 3,
            hand_id: id,
            legal: vec![Action::Fold, Action::Call, Action::Raise { to: 75 }, Action::Raise { to: 130 }],
            deadline_ms: 1,
            time_bank_ms: 0,
            to_call: Some(25),
            bring_in_amount: None,
            hand_strength: None,
            wagers,
        };
        let ranged = stud_engine::LegalEntry { action: Action::Raise { to: 75 }, min_to: Some(75), max_to: Some(130) };
        let text = serde_json::to_string(&prompt(vec![ranged])).unwrap();
        assert!(text.contains(r#""wagers":[{"kind":"raise","to":75,"min_to":75,"max_to":130}]"#), "{text}");
        let back: ServerMsg = serde_json::from_str(&text).unwrap();
        assert!(matches!(back, ServerMsg::YourTurn { ref wagers, .. } if wagers == &[ranged]));
        assert!(!serde_json::to_string(&prompt(Vec::new())).unwrap().contains("wagers"));
    }
}
