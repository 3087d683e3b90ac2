//! The tournament bodies of the HTTP API (`/api/admin/tournaments`, `/api/tournaments`) and
//! of the WebSocket's registration messages. The create request's field names are the ones
//! issue 14 fixes; the server checks it with the tournament core (`stud_tournament`), which
//! names the field at fault in a 400.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use stud_engine::{Betting, Chips, Variant};

use crate::{RotationGame, name_pattern};
use uuid::Uuid;

/// Most entrants of a tournament.
pub const MAX_ENTRANTS: u32 = 10_000;
/// Most cents of an entry fee or a house fee (ten million play-money dollars).
pub const MAX_FEE: u64 = 1_000_000_000;
/// Most tournament chips per entry, and the largest ante or bet of a level.
pub const MAX_STARTING_CHIPS: Chips = 1_000_000_000;

/// The game(s) a tournament plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentGame {
    /// Seven Card Stud High
    Stud,
    /// Stud Hi/Lo eight or better
    Stud8,
    /// Razz
    Razz,
    /// London Lowball (ace-to-five stud lowball)
    London,
    /// Stud Hi/Lo eight or better with a declaration
    Stud8Declare,
    /// Chicago: the highest spade in the hole wins half
    Chicago,
    /// Mississippi: 6th and 7th cards together
    Mississippi,
    /// Razz, Stud, Stud Hi/Lo in turn, or the games of `rotation_games` (one game per level,
    /// or every `rotation_hands` hands)
    Rotation,
}

/// How a tournament starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentKind {
    /// starts as soon as `max_entrants` have registered
    SitAndGo,
    /// starts at `start_at` with at least `min_entrants` (else it is cancelled and refunded)
    Scheduled,
}

/// One level of the structure. Exactly one of `minutes` and `hands`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentLevel {
    /// posted by every player dealt in
    #[schemars(range(max = MAX_STARTING_CHIPS))]
    pub ante: Chips,
    /// the forced opening bet on 3rd street (at most the small bet)
    #[schemars(range(min = 1, max = MAX_STARTING_CHIPS))]
    pub bring_in: Chips,
    /// 3rd and 4th street bets (fixed limit: at most the big bet); the minimum bet in pot
    /// limit and no limit
    #[schemars(range(min = 1, max = MAX_STARTING_CHIPS))]
    pub small_bet: Chips,
    /// 5th to 7th street bets (fixed limit; not used in pot limit and no limit: may be left
    /// out, 0)
    #[serde(default)]
    #[schemars(range(max = MAX_STARTING_CHIPS))]
    pub big_bet: Chips,
    /// the level lasts this many minutes ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub minutes: Option<u32>,
    /// ... or this many hands (counted at the table that has played the most)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub hands: Option<u32>,
}

/// `POST /api/admin/tournaments` body. Money (`entry_fee`, `house_fee`) is in play-money
/// cents; `starting_chips` are tournament chips.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    /// display name, 1 to 64 characters as sent, not all blank, no control, invisible or
    /// text-direction characters (the rule of players' names; blanks around it are dropped)
    #[schemars(length(min = 1, max = 64), regex(pattern = name_pattern()))]
    pub name: String,
    /// the game or the rotation
    pub variant: TournamentGame,
    /// every hand's betting structure: `fixed_limit` (the default), `pot_limit` or `no_limit`
    /// (RULES.md 10: `small_bet` is then the minimum bet and `big_bet` is not used); a
    /// rotation's games may name their own
    #[serde(default)]
    pub betting: Betting,
    /// sit-and-go or scheduled
    pub kind: TournamentKind,
    /// scheduled only (required there): milliseconds since the Unix epoch
    #[serde(default)]
    pub start_at: Option<u64>,
    /// fewest entrants to start (at least 2, at most `max_entrants`)
    #[schemars(range(min = 2, max = MAX_ENTRANTS))]
    pub min_entrants: u32,
    /// most entrants (a scheduled tournament: up to 10,000; a sit-and-go starts when this
    /// many registered: 2 to 64)
    #[schemars(range(min = 2, max = MAX_ENTRANTS))]
    pub max_entrants: u32,
    /// players per table, 2 to 8
    #[schemars(range(min = 2, max = 8))]
    pub seats_per_table: u8,
    /// cents into the prize pool per entry
    #[schemars(range(max = MAX_FEE))]
    pub entry_fee: u64,
    /// cents to the house per entry
    #[schemars(range(max = MAX_FEE))]
    pub house_fee: u64,
    /// tournament chips per entry
    #[schemars(range(min = 1, max = MAX_STARTING_CHIPS))]
    pub starting_chips: Chips,
    /// the structure, in order (at least one level)
    #[schemars(length(min = 1))]
    pub levels: Vec<TournamentLevel>,
    /// percents by place, each above 0 and at most 100 with at most two decimals, not more
    /// than the place above, adding to 100, no more places than the fewest entrants; default
    /// by field size
    #[serde(default)]
    #[schemars(schema_with = "payouts_schema")]
    pub payouts: Option<Vec<f64>>,
    /// scheduled: registration stays open to the end of this level (1 = the first; before
    /// the last level)
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub late_registration_until_level: Option<u32>,
    /// a busted player may buy a new entry until the end of this level (1 = the first;
    /// before the last level)
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub reentry_until_level: Option<u32>,
    /// private: registering needs this code, 10 to 64 letters, digits, `-` or `_` (wrong
    /// codes are counted with the tables' per player and per address)
    #[serde(default)]
    #[schemars(length(min = 10, max = 64), regex(pattern = r"^[A-Za-z0-9_-]{10,64}$"))]
    pub invite_code: Option<String>,
    /// rotation only: change the game every this many hands at each table (1 to 1000)
    #[serde(default)]
    #[schemars(range(min = 1, max = 1_000))]
    pub rotation_hands: Option<u32>,
    /// rotation only: the games in order (1 to 16), each with its own `betting` or the
    /// tournament's; not set: Razz, Stud, Stud Hi/Lo
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 16))]
    pub rotation_games: Option<Vec<RotationGame>>,
    /// rebuys are sold to the end of this level (1 = the first; before the last level): to a
    /// player at or below the starting stack, and to one busted in the period (for 60 s)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub rebuy_until_level: Option<u32>,
    /// tournament chips a rebuy adds (default: `starting_chips`; needs `rebuy_until_level`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = MAX_STARTING_CHIPS))]
    pub rebuy_chips: Option<Chips>,
    /// cents a rebuy costs, all of it into the prize pool (default: `entry_fee`; needs
    /// `rebuy_until_level`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = MAX_FEE))]
    pub rebuy_fee: Option<u64>,
    /// rebuys each entry may buy (absent: no limit; needs `rebuy_until_level`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_rebuys: Option<u32>,
    /// tournament chips of the add-on, sold once to every player still in for 2 minutes from
    /// the end of the rebuy period (absent: no add-on; needs `rebuy_until_level`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = MAX_STARTING_CHIPS))]
    pub addon_chips: Option<Chips>,
    /// cents the add-on costs, all of it into the prize pool (default: the rebuy fee; needs
    /// `addon_chips`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = MAX_FEE))]
    pub addon_fee: Option<u64>,
    /// a break after every this many levels (needs `break_minutes`): no table deals a new
    /// hand during it (a hand in play finishes), and the next level's clock starts after it
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub break_every_levels: Option<u32>,
    /// how long each break lasts, 1 to 60 minutes (needs `break_every_levels`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 60))]
    pub break_minutes: Option<u32>,
    /// a knockout tournament: cents of each entry (and re-entry) set aside as the bounty on
    /// its head, paid on top of `entry_fee` and `house_fee` and not in the prize pool. The
    /// players awarded the last pot a busted player had chips in share its head in
    /// proportion to what they took from that pot; the winner keeps their own
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = MAX_FEE))]
    pub bounty: Option<u64>,
    /// progressive knockout: half of every bounty won is paid, the other half goes onto the
    /// winner's own head (needs `bounty`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progressive_bounty: Option<bool>,
    /// a satellite for this tournament (which must be taking registrations): the first
    /// places win tickets, each worth its buy-in (the prize is paid and the player registered
    /// there with it), as many as the pool buys; the money left is paid by `payouts` to the
    /// places after them (default: all of it to the next place), or shared equally beside the
    /// tickets when every entrant wins one
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub satellite_for: Option<Uuid>,
    /// a satellite: at most this many tickets (needs `satellite_for`)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub tickets: Option<u32>,
    /// scheduled only: once it starts (or is cancelled), the same tournament is scheduled
    /// again this many minutes after its start (1 to 40,320), and so on
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 40_320))]
    pub repeat_minutes: Option<u32>,
    /// sit-and-go only: when it starts, the same sit-and-go opens for registration again,
    /// and so on (an operator's cancellation of the open one ends the series)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recurring: Option<bool>,
    /// false: the players at the final table cannot make a deal (default true)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deals: Option<bool>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn yes() -> bool {
    true
}

/// [`CreateTournament::payouts`]: null, or 1 or more percents above 0 and at most 100.
fn payouts_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": ["array", "null"],
        "minItems": 1,
        "items": {"type": "number", "exclusiveMinimum": 0, "maximum": 100},
    })
}

/// Where a tournament is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// taking registrations
    Registering,
    /// playing
    Running,
    /// over: one entry holds every chip
    Finished,
    /// cancelled before the start (everyone refunded)
    Cancelled,
}

/// Where an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EntrantState {
    /// registered, waiting for the start
    Registered,
    /// seated, playing
    Playing,
    /// eliminated (or the tournament was cancelled)
    Out,
    /// the winner: holds every chip, the tournament is over
    Won,
}

/// A rotation as an operator changed it, before it takes over (at the next level).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RotationChange {
    /// hands per game at each table (none: one game per level)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation_hands: Option<u32>,
    /// the games in order, each with its betting structure
    pub rotation_games: Vec<RotationGame>,
}

/// One line of `GET /api/tournaments`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentSummary {
    /// the tournament
    pub id: Uuid,
    /// display name
    pub name: String,
    /// where it is
    pub status: TournamentStatus,
    /// sit-and-go or scheduled
    pub kind: TournamentKind,
    /// the game or the rotation
    pub variant: TournamentGame,
    /// the betting structure of every hand (a rotation's games may name their own)
    #[serde(default)]
    pub betting: Betting,
    /// a rotation: its games in order, each with its betting structure
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation_games: Option<Vec<RotationGame>>,
    /// scheduled start, ms since the Unix epoch
    pub start_at: Option<u64>,
    /// entries bought (withdrawn ones not counted)
    pub entrants: u32,
    /// fewest entrants to start
    pub min_entrants: u32,
    /// most entrants
    pub max_entrants: u32,
    /// cents into the prize pool per entry
    pub entry_fee: u64,
    /// cents to the house per entry
    pub house_fee: u64,
    /// registering needs an invite code
    pub private: bool,
    /// players per table
    pub seats_per_table: u8,
    /// tournament chips per entry
    pub starting_chips: Chips,
    /// the current level, 1-based (1 before the start)
    pub level: u32,
    /// registration (or late registration) is open
    pub registration_open: bool,
    /// entries still in (seated and playing; before the start, the registered ones)
    pub players_left: u32,
    /// a knockout tournament: cents on each entry's head when it is bought
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounty: Option<u64>,
    /// a satellite: the tournament its tickets enter
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub satellite_for: Option<Uuid>,
}

/// One entry in `GET /api/tournaments/{id}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentEntrant {
    /// 1, 2, ... in the order bought
    pub entry: u32,
    /// the player
    pub player_id: Uuid,
    /// display name
    pub name: String,
    /// where the entry is
    pub state: EntrantState,
    /// tournament chips
    pub chips: Chips,
    /// the tournament table it sits at (playing entries)
    pub table: Option<u32>,
    /// its seat there
    pub seat: Option<u8>,
    /// the finishing place, once known
    pub place: Option<u32>,
    /// the prize in cents, once the place is known
    pub prize: Option<u64>,
    /// rebuys this entry bought
    #[serde(default)]
    pub rebuys: u32,
    /// this entry took the add-on
    #[serde(default)]
    pub addon: bool,
    /// busted in the rebuy period: a rebuy is offered until then (ms since the Unix epoch)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebuy_offer_until: Option<u64>,
    /// a knockout tournament: cents on this entry's head now (0 once paid)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounty: Option<u64>,
    /// cents of bounties this entry has won (the winner's own head included)
    #[serde(default)]
    pub bounties_won: u64,
}

/// One tournament table in `GET /api/tournaments/{id}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentTable {
    /// the table's number (never reused)
    pub table: u32,
    /// who sits there
    pub players: Vec<Uuid>,
    /// hands dealt there
    pub hands: u64,
}

/// How a deal shares the money: `icm` (Malmuth-Harville: each player's expected prize if
/// the chance of each place follows the chips) or `chip_chop` (in proportion to the chips).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DealMethod {
    /// Malmuth-Harville's independent chip model
    Icm,
    /// in proportion to the chips
    ChipChop,
}

/// Where a deal stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DealState {
    /// open: waiting for every player's acceptance
    Proposed,
    /// everyone accepted: each was paid their share
    Made,
    /// declined, lapsed, or a player went out
    Off,
}

/// A player of a deal and their figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DealPlayer {
    /// the player
    pub player_id: Uuid,
    /// display name
    pub name: String,
    /// tournament chips now (at the deal, once made)
    pub chips: u64,
    /// cents by ICM, as the chips stand (a made deal: its method's figure only, the other 0)
    pub icm: u64,
    /// cents by chip chop, as the chips stand (a made deal: likewise)
    pub chip_chop: u64,
    /// has accepted the figures as they stand
    pub accepted: bool,
    /// cents paid by the deal (once made)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paid: Option<u64>,
}

/// A deal at a tournament's final table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentDeal {
    /// proposed, made or off
    pub state: DealState,
    /// who proposed it
    pub by: Uuid,
    /// how it shares the money
    pub method: DealMethod,
    /// cents left to play for (the winner's)
    pub leave: u64,
    /// cents the deal shares (the remaining places' prizes less `leave`)
    pub shared: u64,
    /// proposed: it lapses then (ms since the Unix epoch)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_ms: Option<u64>,
    /// every player left, in entry order
    pub players: Vec<DealPlayer>,
}

/// One line of the results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentResult {
    /// 1 = the winner
    pub place: u32,
    /// the player
    pub player_id: Uuid,
    /// display name
    pub name: String,
    /// cents (0 outside the money)
    pub prize: u64,
    /// cents of bounties won
    #[serde(default)]
    pub bounties_won: u64,
    /// cents paid by a deal at the final table (on top of `prize`)
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deal: u64,
    /// a satellite's ticket: the prize is an entry to this tournament
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ticket_for: Option<Uuid>,
}

/// `GET /api/tournaments/{id}` (and the reply to the create call).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentDetail {
    /// the tournament
    pub id: Uuid,
    /// display name
    pub name: String,
    /// where it is
    pub status: TournamentStatus,
    /// sit-and-go or scheduled
    pub kind: TournamentKind,
    /// the game or the rotation
    pub variant: TournamentGame,
    /// the betting structure of every hand (a rotation's games may name their own)
    #[serde(default)]
    pub betting: Betting,
    /// a rotation: its games in order, each with its betting structure
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation_games: Option<Vec<RotationGame>>,
    /// a rotation by hands: each table changes game every this many hands it deals (none:
    /// one game per level)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation_hands: Option<u32>,
    /// an operator's change of the rotation, taking over at the next level
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation_pending: Option<RotationChange>,
    /// scheduled start, ms since the Unix epoch
    pub start_at: Option<u64>,
    /// fewest entrants to start
    pub min_entrants: u32,
    /// most entrants
    pub max_entrants: u32,
    /// players per table
    pub seats_per_table: u8,
    /// cents into the prize pool per entry
    pub entry_fee: u64,
    /// cents to the house per entry
    pub house_fee: u64,
    /// tournament chips per entry
    pub starting_chips: Chips,
    /// registering needs an invite code
    pub private: bool,
    /// the structure
    pub levels: Vec<TournamentLevel>,
    /// the current level, 1-based
    pub level: u32,
    /// the game of the current level (a per-hands rotation: the game each table's next hand
    /// plays depends on the table)
    pub game: Variant,
    /// the betting structure of `game`
    #[serde(default)]
    pub game_betting: Betting,
    /// when the current level ends, ms since the Unix epoch (running, levels in minutes, not
    /// the last level)
    pub next_level_at: Option<u64>,
    /// milliseconds from now to `next_level_at` (while paused: from `paused_since`, the clock
    /// standing)
    pub ms_to_next_level: Option<u64>,
    /// levels by hands: hands until the next level (counted at the table that has played the
    /// most at this level; running, not the last level)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hands_to_next_level: Option<u64>,
    /// registration (or late registration) is open
    pub registration_open: bool,
    /// playing hand-for-hand (near the money)
    pub hand_for_hand: bool,
    /// every entry bought (withdrawn ones left out)
    pub entrants: Vec<TournamentEntrant>,
    /// the tables in play
    pub tables: Vec<TournamentTable>,
    /// the prize pool in cents (entry fees; house fees are not in it)
    pub pool: u64,
    /// percents of the pool by place, for the field as it stands
    pub payouts: Vec<f64>,
    /// cents by place, for the field as it stands
    pub prizes: Vec<u64>,
    /// everyone placed so far, best place first
    pub results: Vec<TournamentResult>,
    /// the rebuys and the add-on, when the tournament sells them
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebuys: Option<TournamentRebuys>,
    /// a break after every this many levels
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub break_every_levels: Option<u32>,
    /// how long each break lasts, in minutes
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub break_minutes: Option<u32>,
    /// on a break until then (ms since the Unix epoch): no table deals a new hand
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_break_until: Option<u64>,
    /// paused by an operator since then (ms since the Unix epoch): no table deals a new hand
    /// and every clock stands still until it is resumed
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused_since: Option<u64>,
    /// a knockout tournament: cents on each entry's head when it is bought
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounty: Option<u64>,
    /// progressive knockout: half of each bounty won goes onto the winner's head
    #[serde(default)]
    pub progressive_bounty: bool,
    /// cents of bounties paid so far (at the end: `bounty` x entries)
    #[serde(default)]
    pub bounties_paid: u64,
    /// a satellite: the tournament its tickets enter
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub satellite_for: Option<Uuid>,
    /// a satellite: the tickets the field as it stands wins (each worth `ticket` cents)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tickets: Option<u32>,
    /// a satellite: cents a ticket is worth (the target's buy-in)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ticket: Option<u64>,
    /// scheduled again this many minutes after its start, once it starts
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat_minutes: Option<u32>,
    /// a sit-and-go that opens again when it starts
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recurring: bool,
    /// players at the final table may make a deal
    #[serde(default = "yes")]
    pub deals: bool,
    /// the deal open at the final table, or the one made
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<TournamentDeal>,
    /// a repeating tournament that has started (or was cancelled at its start time for too
    /// few entrants): the next one's id, once scheduled
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_id: Option<Uuid>,
}

/// A tournament's rebuys and add-on: the settings, what is on sale now, and what was sold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentRebuys {
    /// rebuys are sold to the end of this level
    pub rebuy_until_level: u32,
    /// tournament chips a rebuy adds
    pub rebuy_chips: Chips,
    /// cents a rebuy costs (into the pool)
    pub rebuy_fee: u64,
    /// rebuys each entry may buy (absent: no limit)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rebuys: Option<u32>,
    /// tournament chips of the add-on (absent: no add-on)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub addon_chips: Option<Chips>,
    /// cents the add-on costs (into the pool)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub addon_fee: Option<u64>,
    /// rebuys are on sale now (the rebuy period)
    pub rebuy_open: bool,
    /// the add-on is on sale until then, ms since the Unix epoch
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub addon_until: Option<u64>,
    /// rebuys sold so far
    pub rebuys: u32,
    /// add-ons sold so far
    pub addons: u32,
}

/// What a rebuy or an add-on was offered as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentOfferKind {
    /// a rebuy
    Rebuy,
    /// the add-on
    Addon,
}

/// The reply to a rebuy or an add-on (HTTP and WebSocket).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentPurchase {
    /// the tournament
    pub tournament_id: Uuid,
    /// the player
    pub player_id: Uuid,
    /// `rebuy` or `addon`
    pub kind: TournamentOfferKind,
    /// tournament chips it adds (now, or when the hand at the player's table ends)
    pub chips: Chips,
    /// cents it cost
    pub fee: u64,
    /// the play-money balance after the charge
    pub balance: u64,
}

/// The reply to registering or unregistering (HTTP and WebSocket).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentRegistration {
    /// the tournament
    pub tournament_id: Uuid,
    /// the player
    pub player_id: Uuid,
    /// registered now (false: unregistered and refunded)
    pub registered: bool,
    /// the play-money balance after the charge or the refund
    pub balance: u64,
}
