//! The create request (`POST /api/admin/tournaments`) and its validation into a
//! [`TournamentSpec`].
//!
//! Field names are the ones issue 14 fixes (other tools send them): `name`, `variant`, `kind`,
//! `start_at`, `min_entrants`, `max_entrants`, `seats_per_table`, `entry_fee`, `house_fee`,
//! `starting_chips`, `levels` (`ante`, `bring_in`, `small_bet`, `big_bet`, `minutes` or
//! `hands`), `payouts`. Added here: `late_registration_until_level`, `reentry_until_level`,
//! `invite_code` (private when set), `rotation_hands`, and for issue 29 `betting`
//! (`fixed_limit`, `pot_limit`, `no_limit`) and `rotation_games`. Unknown fields are refused, so a
//! misspelt optional field is an error instead of a silent default.
//!
//! Every refusal is a [`SpecError`] naming the field (`levels[2].bring_in`, `payouts`), which
//! the server answers as a 400.
//!
//! Issue 30 adds the rebuys (`rebuy_until_level`, `rebuy_chips`, `rebuy_fee`, `max_rebuys`,
//! `addon_chips`, `addon_fee`), breaks (`break_every_levels`, `break_minutes`) and bounties
//! (`bounty`, `progressive_bounty`), satellites (`satellite_for`, `tickets`) and schedules
//! (`repeat_minutes`).
//!
//! Decisions:
//! - Money (`entry_fee`, `house_fee`, prizes) is in cents; tournament chips are another unit.
//! - `start_at` is milliseconds since the Unix epoch, like every time in the table core.
//! - `payouts` are percents with at most two decimals (`27.5`): a 1,000-player field pays 150
//!   places, which whole percents cannot express. They are turned into basis points (1/100 of
//!   a percent, total 10,000) at once; no float is kept or used for money.
//! - A sit-and-go starts when `max_entrants` have registered; `min_entrants` must not exceed
//!   it. A scheduled tournament starts at `start_at` with at least `min_entrants`.
//! - An explicit payout table may not pay more places than the fewest entries the tournament
//!   can start with (`min_entrants`, or `max_entrants` for a sit-and-go), so it never has to
//!   be cut or renormalised at the start.
//! - Every level says how long it lasts (`minutes` or `hands`, exactly one); the last level's
//!   length is never reached (it is played to the end).
//! - `betting` applies to every hand of the tournament, and to each game of a rotation that
//!   does not name its own. In pot limit and no limit `small_bet` is the minimum bet and
//!   `big_bet` is not used (RULES.md 10.2): it may be left out (0), and it is checked against
//!   `small_bet` only when some game of the tournament is played fixed limit.
//! - `rotation_games` (a rotation only) replaces the default order Razz, Stud, Stud Hi/Lo with
//!   the operator's list; each game may name its own `betting`, so a rotation may mix games
//!   and structures. Each game gets the engine's defaults for its variant (no open-pair option
//!   in razz and london).

use serde::{Deserialize, Serialize};
use stud_engine::{Betting, Chips, TableConfig, Variant};
use thiserror::Error;
use uuid::Uuid;

/// Money: play-money cents (the ledger's unit). Tournament chips are [`Chips`].
pub type Cents = u64;

/// Milliseconds since the Unix epoch.
pub type Millis = u64;

/// Basis points of the prize pool (1/100 of a percent; a whole payout table is 10,000).
pub type BasisPoints = u32;

/// A whole payout table in basis points.
pub const WHOLE: BasisPoints = 10_000;

/// The most entrants a tournament may take.
pub const MAX_ENTRANTS: u32 = 10_000;

/// The most entries (first entries and re-entries) a tournament sells: with the limits below,
/// every sum of fees and chips stays far inside `u64` and every stack inside the engine's
/// `MAX_CHIPS` (2^48).
pub const MAX_ENTRIES: u32 = 100_000;

/// The largest entry or house fee, in cents.
pub const MAX_FEE: Cents = 1_000_000_000;

/// The largest starting stack, and the largest ante or bet of a level.
pub const MAX_STARTING_CHIPS: Chips = 1_000_000_000;

/// The longest break, in minutes.
pub const MAX_BREAK_MINUTES: u32 = 60;

/// The longest time between the starts of a repeating tournament, in minutes (four weeks).
pub const MAX_REPEAT_MINUTES: u32 = 40_320;

/// The most seats at a stud table.
pub const MAX_SEATS: u8 = 8;

/// The game named by `variant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameChoice {
    /// Seven Card Stud High
    Stud,
    /// Stud Hi/Lo eight or better
    Stud8,
    /// Razz
    Razz,
    /// London Lowball
    London,
    /// Stud Hi/Lo eight or better with a declaration
    Stud8Declare,
    /// Chicago
    Chicago,
    /// Mississippi
    Mississippi,
    /// the mixed rotation (see [`Games`])
    Rotation,
}

/// `sit_and_go` or `scheduled`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// starts as soon as `max_entrants` have registered
    SitAndGo,
    /// starts at `start_at` if `min_entrants` have registered (else it is cancelled)
    Scheduled,
}

/// One level of the structure as the request gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelRequest {
    /// posted by every player dealt in
    pub ante: Chips,
    /// the forced opening bet on 3rd street
    pub bring_in: Chips,
    /// 3rd and 4th street bets
    pub small_bet: Chips,
    /// 5th to 7th street bets (fixed limit; not used in pot limit and no limit: may be left out)
    #[serde(default)]
    pub big_bet: Chips,
    /// the level lasts this many minutes ...
    #[serde(default)]
    pub minutes: Option<u32>,
    /// ... or this many hands (see [`crate::Tournament`] for how hands are counted)
    #[serde(default)]
    pub hands: Option<u32>,
}

/// The body of `POST /api/admin/tournaments`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    /// display name
    pub name: String,
    /// `stud`, `stud8`, `razz`, `london`, `stud8_declare`, `chicago`, `mississippi` or
    /// `rotation`
    pub variant: GameChoice,
    /// `fixed_limit` (the default), `pot_limit` or `no_limit`: every hand's (a rotation's games
    /// may name their own)
    #[serde(default)]
    pub betting: Betting,
    /// `sit_and_go` or `scheduled`
    pub kind: Kind,
    /// scheduled only: ms since the Unix epoch
    #[serde(default)]
    pub start_at: Option<Millis>,
    /// fewest entrants to start (scheduled)
    pub min_entrants: u32,
    /// most entrants (a sit-and-go starts when this many registered)
    pub max_entrants: u32,
    /// 2..=8
    pub seats_per_table: u8,
    /// cents into the prize pool per entry
    pub entry_fee: Cents,
    /// cents to the house per entry
    pub house_fee: Cents,
    /// the stack each entry gets
    pub starting_chips: Chips,
    /// the structure, in order
    pub levels: Vec<LevelRequest>,
    /// percents by place (at most two decimals, adding to 100); default by field size
    #[serde(default)]
    pub payouts: Option<Vec<f64>>,
    /// scheduled: registration stays open to the end of this level (1 = the first)
    #[serde(default)]
    pub late_registration_until_level: Option<u32>,
    /// a busted player may buy a new entry until the end of this level
    #[serde(default)]
    pub reentry_until_level: Option<u32>,
    /// private: registering needs this code
    #[serde(default)]
    pub invite_code: Option<String>,
    /// rotation only: change the game every this many hands at each table (default: per level)
    #[serde(default)]
    pub rotation_hands: Option<u32>,
    /// rotation only: the games in order (default: [`ROTATION`] at `betting`)
    #[serde(default)]
    pub rotation_games: Option<Vec<RotationGame>>,
    /// rebuys are sold to the end of this level (1 = the first; before the last level)
    #[serde(default)]
    pub rebuy_until_level: Option<u32>,
    /// chips a rebuy adds (default: `starting_chips`)
    #[serde(default)]
    pub rebuy_chips: Option<Chips>,
    /// cents a rebuy costs, all of it into the prize pool (default: `entry_fee`)
    #[serde(default)]
    pub rebuy_fee: Option<Cents>,
    /// rebuys each entry may buy (absent: no limit)
    #[serde(default)]
    pub max_rebuys: Option<u32>,
    /// chips the add-on adds (absent: no add-on); offered once, when the rebuy period ends
    #[serde(default)]
    pub addon_chips: Option<Chips>,
    /// cents the add-on costs, all of it into the prize pool (default: the rebuy fee)
    #[serde(default)]
    pub addon_fee: Option<Cents>,
    /// a break after every this many levels (needs `break_minutes`)
    #[serde(default)]
    pub break_every_levels: Option<u32>,
    /// how long each break lasts, in minutes (needs `break_every_levels`)
    #[serde(default)]
    pub break_minutes: Option<u32>,
    /// cents of each entry set aside as the bounty on its head, paid to whoever eliminates it
    /// (on top of `entry_fee` and `house_fee`; not in the prize pool)
    #[serde(default)]
    pub bounty: Option<Cents>,
    /// progressive knockout: half of a head's bounty is paid to the eliminator, the other
    /// half goes onto the eliminator's own head (needs `bounty`)
    #[serde(default)]
    pub progressive_bounty: Option<bool>,
    /// a satellite: its prizes are entries (tickets) to this tournament, each worth that
    /// tournament's buy-in, as many as the pool buys (the rest is money, see `payouts`;
    /// shared equally beside the tickets when every entrant wins one)
    #[serde(default)]
    pub satellite_for: Option<Uuid>,
    /// a satellite: at most this many tickets (absent: as many as the pool buys)
    #[serde(default)]
    pub tickets: Option<u32>,
    /// scheduled: a copy of this tournament is scheduled this many minutes after its start,
    /// once it starts (or is cancelled), and so on
    #[serde(default)]
    pub repeat_minutes: Option<u32>,
    /// sit-and-go: when it starts, the same sit-and-go opens for registration again, and so on
    #[serde(default)]
    pub recurring: Option<bool>,
    /// players at the final table may make a deal (default: true)
    #[serde(default)]
    pub deals: Option<bool>,
}

/// One game of a rotation: the variant and, if not the tournament's, its betting structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RotationGame {
    /// the game
    pub variant: Variant,
    /// its structure; none: the tournament's `betting`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub betting: Option<Betting>,
}

/// The most games a rotation may list.
pub const MAX_ROTATION_GAMES: usize = 16;

/// The most hands per game of a rotation by hands.
pub const MAX_ROTATION_HANDS: u32 = 1_000;

/// How long a level lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LevelLength {
    /// wall-clock minutes from the level's start
    Minutes(u32),
    /// hands (see [`crate::Tournament`])
    Hands(u32),
}

/// A validated level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Level {
    /// ante
    pub ante: Chips,
    /// bring-in
    pub bring_in: Chips,
    /// small bet
    pub small_bet: Chips,
    /// big bet
    pub big_bet: Chips,
    /// length
    pub length: LevelLength,
}

impl Level {
    /// The table configuration for a hand of `variant` played `betting` at this level (engine
    /// defaults for the variant: three raises, open pair on 4th street except in razz and
    /// london).
    pub fn config(&self, variant: Variant, betting: Betting) -> TableConfig {
        TableConfig::new(variant, self.ante, self.bring_in, self.small_bet, self.big_bet).with_betting(betting)
    }
}

/// The order of the mixed rotation: stud's part of H.O.R.S.E. (Razz, Stud, Stud Hi/Lo), the
/// order the issue names and H.O.R.S.E. sites use.
pub const ROTATION: [Variant; 3] = [Variant::Razz, Variant::Stud, Variant::Stud8];

/// The game or games played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Games {
    /// one game throughout
    Fixed(Variant),
    /// the rotation ([`TournamentSpec::rotation_games`], else [`ROTATION`]), changing with
    /// every level (the tournament default: a whole level of each game, so stakes and game
    /// change together and every table plays the same game)
    PerLevel,
    /// the rotation, changing every this many hands at each table (an orbit is 8)
    PerHands(u32),
}

impl Games {
    /// A rotation by hands: its hands per game.
    pub fn hands(&self) -> Option<u32> {
        match *self {
            Games::PerHands(n) => Some(n),
            _ => None,
        }
    }

    /// The index in the rotation's list of `len` games of a table's next hand (0 for one
    /// game): `level` is 0-based, `table_hands` the hands that table has dealt so far.
    pub fn index(&self, len: usize, level: usize, table_hands: u64) -> usize {
        let len = len.max(1) as u64;
        let i = match *self {
            Games::Fixed(_) => 0,
            Games::PerLevel => level as u64,
            Games::PerHands(n) => table_hands / u64::from(n.max(1)),
        };
        (i % len) as usize
    }
}

/// A game as a hand is dealt: its variant and betting structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// the variant
    pub variant: Variant,
    /// the structure
    pub betting: Betting,
}

/// A tournament's validated settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentSpec {
    /// display name
    pub name: String,
    /// the game(s)
    pub games: Games,
    /// how it starts
    pub kind: Kind,
    /// scheduled start
    pub start_at: Option<Millis>,
    /// fewest entrants to start
    pub min_entrants: u32,
    /// most entrants
    pub max_entrants: u32,
    /// seats used at each table
    pub seats_per_table: u8,
    /// cents to the prize pool per entry
    pub entry_fee: Cents,
    /// cents to the house per entry
    pub house_fee: Cents,
    /// the stack per entry
    pub starting_chips: Chips,
    /// the structure (at least one)
    pub levels: Vec<Level>,
    /// basis points by place (adding to [`WHOLE`]); `None`: [`crate::default_payouts`]
    pub payouts: Option<Vec<BasisPoints>>,
    /// 1-based level to the end of which registration stays open after the start
    pub late_registration_until_level: Option<u32>,
    /// 1-based level to the end of which a busted player may re-enter
    pub reentry_until_level: Option<u32>,
    /// private tournaments' code
    pub invite_code: Option<String>,
    /// every hand's betting structure (a rotation's games may name their own); specs stored
    /// before issue 29 are fixed limit
    #[serde(default)]
    pub betting: Betting,
    /// a rotation's games in order; none: [`ROTATION`] at `betting`
    #[serde(default)]
    pub rotation_games: Option<Vec<RotationGame>>,
    /// rebuys and the add-on, when sold (specs stored before them have none)
    #[serde(default)]
    pub rebuys: Option<Rebuys>,
    /// breaks: (every this many levels, this many minutes)
    #[serde(default)]
    pub breaks: Option<(u32, u32)>,
    /// the bounty on each entry's head, when there is one (specs stored before it have none)
    #[serde(default)]
    pub bounty: Option<Bounty>,
    /// a satellite's tickets, when it pays them
    #[serde(default)]
    pub satellite: Option<Satellite>,
    /// scheduled: the next one starts this many minutes after this one's start
    #[serde(default)]
    pub repeat_minutes: Option<u32>,
    /// sit-and-go: the same one opens again when it starts
    #[serde(default)]
    pub recurring: bool,
    /// players at the final table may make a deal
    #[serde(default = "yes")]
    pub deals: bool,
}

fn yes() -> bool {
    true
}

/// A satellite: its first places win entries to another tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Satellite {
    /// the tournament the tickets enter
    pub target: Uuid,
    /// cents a ticket is worth: the target's buy-in (set when the satellite is created, from
    /// the target; [`TournamentSpec::with_ticket`])
    pub ticket: Cents,
    /// at most this many tickets (none: as many as the pool buys)
    pub tickets: Option<u32>,
}

/// A knockout tournament's bounties (see [`crate::Tournament`] for who is paid what).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bounty {
    /// cents on each entry's head when it is bought
    pub cents: Cents,
    /// half of each bounty won goes onto the winner's own head
    pub progressive: bool,
}

/// A tournament's rebuys and add-on (see [`crate::Tournament`] for when each is sold).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rebuys {
    /// 1-based level to the end of which rebuys are sold
    pub until_level: u32,
    /// chips a rebuy adds
    pub chips: Chips,
    /// cents a rebuy costs (into the pool)
    pub fee: Cents,
    /// rebuys per entry; none: no limit
    pub max: Option<u32>,
    /// the add-on, if one is sold
    pub addon: Option<AddOn>,
}

/// The add-on: offered once, to every entry still playing, when the rebuy period ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddOn {
    /// chips it adds
    pub chips: Chips,
    /// cents it costs (into the pool)
    pub fee: Cents,
}

impl TournamentSpec {
    /// What a registration (or a re-entry) costs: entry fee, house fee and the bounty.
    pub fn buy_in(&self) -> Cents {
        self.entry_fee + self.house_fee + self.bounty_cents()
    }

    /// The spec with a satellite's ticket worth `cents` (its target's buy-in, which only the
    /// server can look up).
    pub fn with_ticket(mut self, cents: Cents) -> TournamentSpec {
        if let Some(s) = &mut self.satellite {
            s.ticket = cents;
        }
        self
    }

    /// The bounty on each entry's head when it is bought (0: no bounties).
    pub fn bounty_cents(&self) -> Cents {
        self.bounty.map_or(0, |b| b.cents)
    }

    /// Every game the tournament plays, in the rotation's order (one for a single game).
    pub fn game_list(&self) -> Vec<Game> {
        let at =
            |variant: Variant, betting: Option<Betting>| Game { variant, betting: betting.unwrap_or(self.betting) };
        match (self.games, &self.rotation_games) {
            (Games::Fixed(v), _) => vec![at(v, None)],
            (_, Some(list)) if !list.is_empty() => list.iter().map(|g| at(g.variant, g.betting)).collect(),
            _ => ROTATION.iter().map(|&v| at(v, None)).collect(),
        }
    }

    /// The game of a table's next hand: `level` is 0-based, `table_hands` the hands that table
    /// has dealt so far.
    pub fn game(&self, level: usize, table_hands: u64) -> Game {
        let list = self.game_list();
        let i = self.games.index(list.len(), level, table_hands);
        list.get(i).copied().unwrap_or(Game { variant: Variant::Stud, betting: self.betting })
    }

    /// The spec with a rotation's hands per game and/or games changed by an operator (issue
    /// 30 item 8), checked as at creation: only a rotation changes games, 1 to 16 games, every
    /// game playable at every level.
    ///
    /// # Errors
    /// The field at fault and why.
    pub fn with_rotation(
        &self,
        hands: Option<u32>,
        games: Option<&[RotationGame]>,
    ) -> Result<TournamentSpec, SpecError> {
        rotation_rules(!matches!(self.games, Games::Fixed(_)), hands, games)?;
        let mut spec = self.clone();
        if let Some(n) = hands {
            spec.games = Games::PerHands(n);
        }
        if let Some(list) = games {
            spec.rotation_games = Some(list.to_vec());
        }
        for (i, level) in spec.levels.iter().enumerate() {
            for game in spec.game_list() {
                if let Err(e) = level.config(game.variant, game.betting).validate() {
                    return fail("rotation_games", format!("levels[{i}] {} {}: {e}", game.variant, game.betting));
                }
            }
        }
        Ok(spec)
    }

    /// The game and stakes of a table's next hand at level `level` (0-based), if it exists.
    pub fn config(&self, level: usize, table_hands: u64) -> Option<TableConfig> {
        let game = self.game(level, table_hands);
        Some(self.levels.get(level)?.config(game.variant, game.betting))
    }
}

/// The rotation's own rules, at creation and in an operator's change: only a rotation takes
/// `rotation_hands` and `rotation_games`; 1 to [`MAX_ROTATION_HANDS`] hands per game; 1 to
/// [`MAX_ROTATION_GAMES`] games.
fn rotation_rules(rotation: bool, hands: Option<u32>, list: Option<&[RotationGame]>) -> Result<(), SpecError> {
    for (field, given) in [("rotation_hands", hands.is_some()), ("rotation_games", list.is_some())] {
        if given && !rotation {
            return fail(field, "only a rotation changes games");
        }
    }
    if hands.is_some_and(|n| !(1..=MAX_ROTATION_HANDS).contains(&n)) {
        return fail("rotation_hands", format!("must be 1 to {MAX_ROTATION_HANDS}"));
    }
    if list.is_some_and(|l| l.is_empty() || l.len() > MAX_ROTATION_GAMES) {
        return fail("rotation_games", format!("list 1 to {MAX_ROTATION_GAMES} games"));
    }
    Ok(())
}

/// A refused create request: the field at fault and why.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{field}: {message}")]
pub struct SpecError {
    /// the field, as the request names it (`levels[0].bring_in`)
    pub field: String,
    /// what is wrong
    pub message: String,
}

fn fail<T>(field: impl Into<String>, message: impl Into<String>) -> Result<T, SpecError> {
    Err(SpecError { field: field.into(), message: message.into() })
}

impl CreateTournament {
    /// Checks the request and builds the spec.
    ///
    /// # Errors
    /// The first problem found, naming its field.
    pub fn validate(&self) -> Result<TournamentSpec, SpecError> {
        let name = self.name.trim();
        if name.is_empty() || self.name.chars().count() > 64 {
            return fail("name", "must be 1 to 64 characters");
        }
        match (self.kind, self.start_at) {
            (Kind::Scheduled, None) => return fail("start_at", "a scheduled tournament needs a start time"),
            (Kind::SitAndGo, Some(_)) => {
                return fail("start_at", "a sit-and-go starts when it is full; it has no start time");
            }
            _ => {}
        }
        if self.min_entrants < 2 {
            return fail("min_entrants", "must be at least 2");
        }
        if self.max_entrants < self.min_entrants {
            return fail("max_entrants", "must not be below min_entrants");
        }
        if self.max_entrants > MAX_ENTRANTS {
            return fail("max_entrants", format!("must not exceed {MAX_ENTRANTS}"));
        }
        if self.kind == Kind::SitAndGo && self.max_entrants > 64 {
            return fail("max_entrants", "a sit-and-go takes 2 to 64 players");
        }
        if !(2..=MAX_SEATS).contains(&self.seats_per_table) {
            return fail("seats_per_table", format!("must be 2 to {MAX_SEATS}"));
        }
        if self.entry_fee > MAX_FEE {
            return fail("entry_fee", format!("must not exceed {MAX_FEE} cents"));
        }
        if self.house_fee > MAX_FEE {
            return fail("house_fee", format!("must not exceed {MAX_FEE} cents"));
        }
        if self.starting_chips == 0 || self.starting_chips > MAX_STARTING_CHIPS {
            return fail("starting_chips", format!("must be 1 to {MAX_STARTING_CHIPS}"));
        }
        rotation_rules(self.variant == GameChoice::Rotation, self.rotation_hands, self.rotation_games.as_deref())?;
        let games = match (self.variant, self.rotation_hands) {
            (GameChoice::Rotation, None) => Games::PerLevel,
            (GameChoice::Rotation, Some(n)) => Games::PerHands(n),
            (_, Some(_)) => return fail("rotation_hands", "only a rotation changes games"),
            (GameChoice::Stud, None) => Games::Fixed(Variant::Stud),
            (GameChoice::Stud8, None) => Games::Fixed(Variant::Stud8),
            (GameChoice::Razz, None) => Games::Fixed(Variant::Razz),
            (GameChoice::London, None) => Games::Fixed(Variant::London),
            (GameChoice::Stud8Declare, None) => Games::Fixed(Variant::Stud8Declare),
            (GameChoice::Chicago, None) => Games::Fixed(Variant::Chicago),
            (GameChoice::Mississippi, None) => Games::Fixed(Variant::Mississippi),
        };
        let rotation_games = self.rotation_games.clone();
        let mut spec = TournamentSpec {
            name: name.to_owned(),
            games,
            kind: self.kind,
            start_at: self.start_at,
            min_entrants: self.min_entrants,
            max_entrants: self.max_entrants,
            seats_per_table: self.seats_per_table,
            entry_fee: self.entry_fee,
            house_fee: self.house_fee,
            starting_chips: self.starting_chips,
            levels: Vec::new(),
            payouts: None,
            late_registration_until_level: None,
            reentry_until_level: None,
            invite_code: self.invite_code.clone(),
            betting: self.betting,
            rotation_games,
            rebuys: None,
            breaks: None,
            bounty: None,
            satellite: None,
            repeat_minutes: None,
            recurring: false,
            deals: self.deals.unwrap_or(true),
        };
        let levels = self.levels(&spec.game_list())?;
        let within = |field: &str, level: Option<u32>| match level {
            // Below the last level: the last level never ends, so registration would never
            // close (and the field, the places and the bubble would never be known).
            Some(l) if l == 0 || l as usize >= levels.len() => {
                fail(field, format!("must name a level from 1 to {} (before the last)", levels.len() - 1))
            }
            _ => Ok(level),
        };
        let late = within("late_registration_until_level", self.late_registration_until_level)?;
        if late.is_some() && self.kind == Kind::SitAndGo {
            return fail("late_registration_until_level", "a sit-and-go starts full; it has no late registration");
        }
        let reentry = within("reentry_until_level", self.reentry_until_level)?;
        let rebuys = self.rebuys(within("rebuy_until_level", self.rebuy_until_level)?)?;
        // At least 10 characters: with wrong guesses limited (the server's wrong-code counters,
        // shared with tables), 10 characters of 64 kinds outlast any guesser.
        if let Some(code) = &self.invite_code
            && (!(10..=64).contains(&code.len())
                || !code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        {
            return fail("invite_code", "must be 10 to 64 letters, digits, '-' or '_'");
        }
        let fewest = match self.kind {
            Kind::SitAndGo => self.max_entrants,
            Kind::Scheduled => self.min_entrants,
        };
        let payouts = match &self.payouts {
            None => None,
            Some(percents) => Some(payout_points(percents, fewest)?),
        };
        spec.levels = levels;
        spec.payouts = payouts;
        spec.late_registration_until_level = late;
        spec.reentry_until_level = reentry;
        spec.rebuys = rebuys;
        spec.breaks = match (self.break_every_levels, self.break_minutes) {
            (None, None) => None,
            (Some(_), None) => return fail("break_minutes", "a break needs its length"),
            (None, Some(_)) => return fail("break_every_levels", "say after how many levels a break comes"),
            (Some(0), _) => return fail("break_every_levels", "must be at least 1"),
            // A break comes after that many levels are played; the last level never ends.
            (Some(every), _) if every as usize >= spec.levels.len() => {
                return fail(
                    "break_every_levels",
                    format!("must be less than the number of levels ({}): no break would come", spec.levels.len()),
                );
            }
            (_, Some(m)) if m == 0 || m > MAX_BREAK_MINUTES => {
                return fail("break_minutes", format!("must be 1 to {MAX_BREAK_MINUTES}"));
            }
            (Some(every), Some(minutes)) => Some((every, minutes)),
        };
        spec.bounty = match (self.bounty, self.progressive_bounty) {
            (None, Some(true)) => return fail("progressive_bounty", "needs bounty"),
            (None, _) => None,
            (Some(c), _) if c == 0 || c > MAX_FEE => return fail("bounty", format!("must be 1 to {MAX_FEE} cents")),
            (Some(cents), p) => Some(Bounty { cents, progressive: p.unwrap_or(false) }),
        };
        spec.satellite = match (self.satellite_for, self.tickets) {
            (None, Some(_)) => return fail("tickets", "needs satellite_for"),
            (None, None) => None,
            (Some(_), Some(0)) => return fail("tickets", "must be at least 1"),
            (Some(target), tickets) => Some(Satellite { target, ticket: 0, tickets }),
        };
        spec.repeat_minutes = match self.repeat_minutes {
            None => None,
            Some(_) if self.kind != Kind::Scheduled => {
                return fail("repeat_minutes", "only a scheduled tournament repeats");
            }
            Some(m) if m == 0 || m > MAX_REPEAT_MINUTES => {
                return fail("repeat_minutes", format!("must be 1 to {MAX_REPEAT_MINUTES}"));
            }
            Some(m) => Some(m),
        };
        spec.recurring = match self.recurring {
            Some(true) if self.kind != Kind::SitAndGo => {
                return fail("recurring", "only a sit-and-go recurs (a scheduled tournament repeats: repeat_minutes)");
            }
            r => r.unwrap_or(false),
        };
        Ok(spec)
    }

    /// The rebuys and the add-on (`until`: `rebuy_until_level`, checked).
    fn rebuys(&self, until: Option<u32>) -> Result<Option<Rebuys>, SpecError> {
        let Some(until_level) = until else {
            let set = [
                ("rebuy_chips", self.rebuy_chips.is_some()),
                ("rebuy_fee", self.rebuy_fee.is_some()),
                ("max_rebuys", self.max_rebuys.is_some()),
                ("addon_chips", self.addon_chips.is_some()),
                ("addon_fee", self.addon_fee.is_some()),
            ];
            return match set.iter().find(|(_, on)| *on) {
                Some((field, _)) => fail(*field, "needs rebuy_until_level (rebuys and the add-on come together)"),
                None => Ok(None),
            };
        };
        let chips = self.rebuy_chips.unwrap_or(self.starting_chips);
        if chips == 0 || chips > MAX_STARTING_CHIPS {
            return fail("rebuy_chips", format!("must be 1 to {MAX_STARTING_CHIPS}"));
        }
        let fee = self.rebuy_fee.unwrap_or(self.entry_fee);
        if fee > MAX_FEE {
            return fail("rebuy_fee", format!("must not exceed {MAX_FEE} cents"));
        }
        if self.max_rebuys == Some(0) {
            return fail("max_rebuys", "must be at least 1 (leave rebuy_until_level out for no rebuys)");
        }
        let addon = match (self.addon_chips, self.addon_fee) {
            (None, Some(_)) => return fail("addon_fee", "needs addon_chips"),
            (None, None) => None,
            (Some(c), _) if c == 0 || c > MAX_STARTING_CHIPS => {
                return fail("addon_chips", format!("must be 1 to {MAX_STARTING_CHIPS}"));
            }
            (Some(_), Some(f)) if f > MAX_FEE => return fail("addon_fee", format!("must not exceed {MAX_FEE} cents")),
            (Some(chips), f) => Some(AddOn { chips, fee: f.unwrap_or(fee) }),
        };
        Ok(Some(Rebuys { until_level, chips, fee, max: self.max_rebuys, addon }))
    }

    /// The levels, checked for every game the tournament plays (`games`).
    fn levels(&self, games: &[Game]) -> Result<Vec<Level>, SpecError> {
        // RULES.md 10.2: the big bet is used only in fixed limit.
        let fixed_limit = games.iter().any(|g| !g.betting.is_big_bet());
        if self.levels.is_empty() {
            return fail("levels", "at least one level is needed");
        }
        let mut out = Vec::with_capacity(self.levels.len());
        for (i, l) in self.levels.iter().enumerate() {
            let field = |name: &str| format!("levels[{i}].{name}");
            if l.bring_in == 0 {
                return fail(field("bring_in"), "must be greater than 0");
            }
            if l.bring_in > l.small_bet {
                return fail(field("bring_in"), format!("{} is above the small bet ({})", l.bring_in, l.small_bet));
            }
            if fixed_limit && l.small_bet > l.big_bet {
                return fail(field("small_bet"), format!("{} is above the big bet ({})", l.small_bet, l.big_bet));
            }
            for (name, chips) in
                [("ante", l.ante), ("bring_in", l.bring_in), ("small_bet", l.small_bet), ("big_bet", l.big_bet)]
            {
                if chips > MAX_STARTING_CHIPS {
                    return fail(field(name), format!("must not exceed {MAX_STARTING_CHIPS}"));
                }
            }
            let length = match (l.minutes, l.hands) {
                (Some(0), _) => return fail(field("minutes"), "must be at least 1"),
                (_, Some(0)) => return fail(field("hands"), "must be at least 1"),
                (Some(m), None) => LevelLength::Minutes(m),
                (None, Some(h)) => LevelLength::Hands(h),
                (Some(_), Some(_)) => return fail(field("minutes"), "give minutes or hands, not both"),
                (None, None) => return fail(field("minutes"), "give the level's length in minutes or hands"),
            };
            let level =
                Level { ante: l.ante, bring_in: l.bring_in, small_bet: l.small_bet, big_bet: l.big_bet, length };
            // The engine's own check for each game the level may be played in.
            for game in games {
                if let Err(e) = level.config(game.variant, game.betting).validate() {
                    return fail(format!("levels[{i}]"), format!("{} {}: {e}", game.variant, game.betting));
                }
            }
            out.push(level);
        }
        Ok(out)
    }
}

/// Percents (at most two decimals, adding to 100, non-increasing, at most `fewest` places)
/// to basis points.
fn payout_points(percents: &[f64], fewest: u32) -> Result<Vec<BasisPoints>, SpecError> {
    if percents.is_empty() {
        return fail("payouts", "at least one place must be paid");
    }
    if percents.len() > fewest as usize {
        return fail(
            "payouts",
            format!("{} paid places but the tournament may start with {fewest} entrants", percents.len()),
        );
    }
    let mut points = Vec::with_capacity(percents.len());
    for (i, &p) in percents.iter().enumerate() {
        let scaled = p * 100.0;
        let rounded = scaled.round();
        if !p.is_finite() || p <= 0.0 || p > 100.0 || (scaled - rounded).abs() > 1e-6 {
            return fail(format!("payouts[{i}]"), "must be a percent above 0 with at most two decimals");
        }
        // In 1..=10_000 by the checks above.
        let bp = rounded as BasisPoints;
        if let Some(&above) = points.last()
            && bp > above
        {
            return fail(format!("payouts[{i}]"), "pays more than the place above it");
        }
        points.push(bp);
    }
    let total: u64 = points.iter().map(|&p| u64::from(p)).sum();
    if total != u64::from(WHOLE) {
        return fail("payouts", format!("add up to {}.{:02}, not 100", total / 100, total % 100));
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> CreateTournament {
        serde_json::from_value(serde_json::json!({
            "name": "Sunday Stud",
            "variant": "stud",
            "kind": "scheduled",
            "start_at": 1_000_000,
            "min_entrants": 4,
            "max_entrants": 24,
            "seats_per_table": 8,
            "entry_fee": 1000,
            "house_fee": 100,
            "starting_chips": 1500,
            "levels": [
                {"ante": 5, "bring_in": 10, "small_bet": 20, "big_bet": 40, "minutes": 10},
                {"ante": 10, "bring_in": 15, "small_bet": 30, "big_bet": 60, "hands": 12}
            ]
        }))
        .unwrap()
    }

    fn field_of(req: &CreateTournament) -> String {
        req.validate().unwrap_err().field
    }

    #[test]
    fn a_good_request_validates() {
        let spec = request().validate().unwrap();
        assert_eq!(spec.games, Games::Fixed(Variant::Stud));
        assert_eq!(spec.levels[0].length, LevelLength::Minutes(10));
        assert_eq!(spec.levels[1].length, LevelLength::Hands(12));
        assert_eq!(spec.payouts, None);
        assert_eq!(spec.buy_in(), 1100);
    }

    #[test]
    fn bad_structures_name_their_field() {
        let mut r = request();
        r.levels.clear();
        assert_eq!(field_of(&r), "levels");

        let mut r = request();
        r.levels[1].bring_in = 31;
        let e = r.validate().unwrap_err();
        assert_eq!(e.field, "levels[1].bring_in");
        assert!(e.message.contains("above the small bet"), "{e}");

        let mut r = request();
        r.levels[0].small_bet = 50;
        assert_eq!(field_of(&r), "levels[0].small_bet");

        let mut r = request();
        r.levels[0].bring_in = 0;
        assert_eq!(field_of(&r), "levels[0].bring_in");

        let mut r = request();
        r.levels[0].minutes = None;
        assert_eq!(field_of(&r), "levels[0].minutes");
        r.levels[0].minutes = Some(3);
        r.levels[0].hands = Some(3);
        assert_eq!(field_of(&r), "levels[0].minutes");
        r.levels[0].minutes = None;
        r.levels[0].hands = Some(0);
        assert_eq!(field_of(&r), "levels[0].hands");

        let mut r = request();
        r.payouts = Some(vec![50.0, 30.0, 15.0]);
        let e = r.validate().unwrap_err();
        assert_eq!(e.field, "payouts");
        assert!(e.message.contains("95.00"), "{e}");

        let mut r = request();
        r.payouts = Some(vec![40.0, 20.0, 15.0, 15.0, 10.0]);
        let e = r.validate().unwrap_err();
        assert_eq!(e.field, "payouts");
        assert!(e.message.contains("5 paid places"), "{e}");

        let mut r = request();
        r.payouts = Some(vec![30.0, 70.0]);
        assert_eq!(field_of(&r), "payouts[1]");
        r.payouts = Some(vec![33.333, 33.333, 33.334]);
        assert_eq!(field_of(&r), "payouts[0]");
        r.payouts = Some(vec![100.0, 0.0]);
        assert_eq!(field_of(&r), "payouts[1]");
        r.payouts = Some(vec![]);
        assert_eq!(field_of(&r), "payouts");
    }

    #[test]
    fn other_fields_are_checked() {
        type Change = Box<dyn Fn(&mut CreateTournament)>;
        let cases: Vec<(&str, Change)> = vec![
            ("name", Box::new(|r| r.name = "   ".into())),
            ("start_at", Box::new(|r| r.start_at = None)),
            ("start_at", Box::new(|r| r.kind = Kind::SitAndGo)),
            ("min_entrants", Box::new(|r| r.min_entrants = 1)),
            ("max_entrants", Box::new(|r| r.max_entrants = 3)),
            ("max_entrants", Box::new(|r| r.max_entrants = MAX_ENTRANTS + 1)),
            ("seats_per_table", Box::new(|r| r.seats_per_table = 9)),
            ("seats_per_table", Box::new(|r| r.seats_per_table = 1)),
            ("entry_fee", Box::new(|r| r.entry_fee = MAX_FEE + 1)),
            ("house_fee", Box::new(|r| r.house_fee = MAX_FEE + 1)),
            ("starting_chips", Box::new(|r| r.starting_chips = 0)),
            ("late_registration_until_level", Box::new(|r| r.late_registration_until_level = Some(3))),
            ("late_registration_until_level", Box::new(|r| r.late_registration_until_level = Some(0))),
            ("reentry_until_level", Box::new(|r| r.reentry_until_level = Some(2))),
            ("invite_code", Box::new(|r| r.invite_code = Some("a b c d".into()))),
            ("rotation_hands", Box::new(|r| r.rotation_hands = Some(8))),
        ];
        for (field, change) in cases {
            let mut r = request();
            change(&mut r);
            assert_eq!(field_of(&r), field);
        }
        // A sit-and-go: no start time, no late registration, at most 64 players.
        let mut r = request();
        r.kind = Kind::SitAndGo;
        r.start_at = None;
        r.min_entrants = 6;
        r.max_entrants = 6;
        assert!(r.validate().is_ok());
        r.late_registration_until_level = Some(1);
        assert_eq!(field_of(&r), "late_registration_until_level");
        r.late_registration_until_level = None;
        r.max_entrants = 65;
        assert_eq!(field_of(&r), "max_entrants");
    }

    #[test]
    fn payouts_become_basis_points() {
        let mut r = request();
        r.payouts = Some(vec![50.0, 27.5, 22.5]);
        assert_eq!(r.validate().unwrap().payouts, Some(vec![5000, 2750, 2250]));
        // A sit-and-go is checked against the field it starts with.
        r.kind = Kind::SitAndGo;
        r.start_at = None;
        r.min_entrants = 2;
        r.max_entrants = 3;
        assert!(r.validate().is_ok());
        r.max_entrants = 2;
        assert_eq!(field_of(&r), "payouts");
    }

    #[test]
    fn rotation_is_per_level_unless_hands_are_given() {
        let mut r = request();
        r.variant = GameChoice::Rotation;
        let spec = r.validate().unwrap();
        assert_eq!(spec.games, Games::PerLevel);
        let per_level: Vec<Variant> = (0..4).map(|l| spec.game(l, 99).variant).collect();
        assert_eq!(per_level, [Variant::Razz, Variant::Stud, Variant::Stud8, Variant::Razz]);
        r.rotation_hands = Some(8);
        let spec = r.validate().unwrap();
        assert_eq!(spec.games, Games::PerHands(8));
        let by_hand: Vec<Variant> = [0, 7, 8, 15, 16, 23, 24].iter().map(|&h| spec.game(3, h).variant).collect();
        use Variant::{Razz, Stud, Stud8};
        assert_eq!(by_hand, [Razz, Razz, Stud, Stud, Stud8, Stud8, Razz]);
        r.rotation_hands = Some(0);
        assert_eq!(field_of(&r), "rotation_hands");
    }

    /// Issue 29: `betting` applies to every hand; in pot limit and no limit the big bet is not
    /// used, so it may be left out, and `small_bet` (the minimum bet) must still cover the
    /// bring-in.
    #[test]
    fn betting_applies_to_every_hand_and_big_bet_levels_need_no_big_bet() {
        let spec = request().validate().unwrap();
        assert_eq!(spec.betting, Betting::FixedLimit, "fixed limit by default");
        let mut v = serde_json::to_value(request()).unwrap();
        v["betting"] = serde_json::json!("no_limit");
        for level in v["levels"].as_array_mut().unwrap() {
            level.as_object_mut().unwrap().remove("big_bet");
        }
        let r: CreateTournament = serde_json::from_value(v).unwrap();
        let spec = r.validate().unwrap();
        assert_eq!(spec.betting, Betting::NoLimit);
        assert_eq!(spec.levels[0].big_bet, 0);
        let config = spec.config(1, 0).unwrap();
        assert_eq!((config.variant, config.betting, config.small_bet), (Variant::Stud, Betting::NoLimit, 30));
        // The same levels in fixed limit need a big bet.
        let mut fixed = r.clone();
        fixed.betting = Betting::FixedLimit;
        assert_eq!(field_of(&fixed), "levels[0].small_bet");
        // The minimum bet still covers the bring-in.
        let mut low = r.clone();
        low.levels[1].small_bet = 10;
        assert_eq!(field_of(&low), "levels[1].bring_in");
        // A rotation with one fixed-limit game needs the big bet too.
        let mut mixed = r;
        mixed.variant = GameChoice::Rotation;
        mixed.rotation_games = Some(vec![
            RotationGame { variant: Variant::Razz, betting: None },
            RotationGame { variant: Variant::Stud, betting: Some(Betting::FixedLimit) },
        ]);
        let e = mixed.validate().unwrap_err();
        assert_eq!(e.field, "levels[0].small_bet", "{e}");
        mixed.rotation_games.as_mut().unwrap()[1].betting = Some(Betting::PotLimit);
        assert!(mixed.validate().is_ok());
    }

    /// Issue 29: every game the engine deals is a tournament's `variant`, by its wire name.
    #[test]
    fn every_game_is_a_tournament_variant() {
        for variant in stud_engine::config::ALL_VARIANTS {
            let mut v = serde_json::to_value(request()).unwrap();
            v["variant"] = serde_json::json!(variant.name());
            let spec = serde_json::from_value::<CreateTournament>(v).unwrap().validate().unwrap();
            assert_eq!(spec.games, Games::Fixed(variant));
            assert_eq!(spec.game_list(), [Game { variant, betting: Betting::FixedLimit }]);
            let config = spec.config(0, 17).unwrap();
            assert_eq!(config.variant, variant);
            assert_eq!(config.open_pair_big_bet, !variant.is_razz_like(), "{variant}");
        }
    }

    /// Issue 29: a rotation of the operator's games, each at its own structure or the
    /// tournament's; the list is checked.
    #[test]
    fn rotation_games_are_the_operators_list() {
        let mut r = request();
        r.variant = GameChoice::Rotation;
        r.betting = Betting::PotLimit;
        r.rotation_games = Some(vec![
            RotationGame { variant: Variant::London, betting: None },
            RotationGame { variant: Variant::Chicago, betting: Some(Betting::FixedLimit) },
            RotationGame { variant: Variant::Stud, betting: Some(Betting::NoLimit) },
        ]);
        let spec = r.validate().unwrap();
        let per_level: Vec<(Variant, Betting)> =
            (0..4).map(|l| spec.game(l, 5)).map(|g| (g.variant, g.betting)).collect();
        use Betting::{FixedLimit, NoLimit, PotLimit};
        assert_eq!(
            per_level,
            [
                (Variant::London, PotLimit),
                (Variant::Chicago, FixedLimit),
                (Variant::Stud, NoLimit),
                (Variant::London, PotLimit)
            ]
        );
        // Levels beyond the structure have no config; the rest have their game's open pair.
        assert_eq!(spec.config(2, 0), None);
        assert!(!spec.config(0, 0).unwrap().open_pair_big_bet);
        assert!(spec.config(1, 0).unwrap().open_pair_big_bet);
        // Without a list: the default order at the tournament's structure.
        r.rotation_games = None;
        let spec = r.validate().unwrap();
        let games: Vec<Game> = spec.game_list();
        assert_eq!(games.iter().map(|g| g.variant).collect::<Vec<_>>(), ROTATION);
        assert!(games.iter().all(|g| g.betting == PotLimit));
        // Checked: not empty, not too long, rotations only, no unknown game or field.
        r.rotation_games = Some(vec![]);
        assert_eq!(field_of(&r), "rotation_games");
        r.rotation_games = Some(vec![RotationGame { variant: Variant::Razz, betting: None }; MAX_ROTATION_GAMES + 1]);
        assert_eq!(field_of(&r), "rotation_games");
        r.rotation_games = Some(vec![RotationGame { variant: Variant::Razz, betting: None }]);
        assert!(r.validate().is_ok());
        r.variant = GameChoice::Stud;
        assert_eq!(field_of(&r), "rotation_games");
        let mut v = serde_json::to_value(request()).unwrap();
        v["variant"] = serde_json::json!("rotation");
        v["rotation_games"] = serde_json::json!([{"variant": "holdem"}]);
        assert!(serde_json::from_value::<CreateTournament>(v.clone()).is_err());
        v["rotation_games"] = serde_json::json!([{"variant": "razz", "bet": "no_limit"}]);
        assert!(serde_json::from_value::<CreateTournament>(v.clone()).is_err());
        v["rotation_games"] = serde_json::json!([{"variant": "razz", "betting": "no_limit"}, {"variant": "stud8"}]);
        let spec = serde_json::from_value::<CreateTournament>(v).unwrap().validate().unwrap();
        assert_eq!(spec.game(0, 0), Game { variant: Variant::Razz, betting: NoLimit });
        assert_eq!(spec.game(1, 0), Game { variant: Variant::Stud8, betting: FixedLimit });
    }

    /// A spec stored before issue 29 (no `betting`, no `rotation_games`) still reads: fixed
    /// limit, the default rotation.
    #[test]
    fn specs_stored_before_the_new_games_still_read() {
        let mut r = request();
        r.variant = GameChoice::Rotation;
        let mut v = serde_json::to_value(r.validate().unwrap()).unwrap();
        let o = v.as_object_mut().unwrap();
        assert!(o.remove("betting").is_some() && o.remove("rotation_games").is_some());
        let old: TournamentSpec = serde_json::from_value(v).unwrap();
        assert_eq!(old.betting, Betting::FixedLimit);
        let games: Vec<Variant> = (0..3).map(|l| old.game(l, 0).variant).collect();
        assert_eq!(games, ROTATION);
    }

    #[test]
    fn unknown_and_misspelt_fields_are_refused() {
        let mut v = serde_json::to_value(request()).unwrap();
        v["payout"] = serde_json::json!([100]);
        assert!(serde_json::from_value::<CreateTournament>(v).is_err());
        let mut v = serde_json::to_value(request()).unwrap();
        v["variant"] = serde_json::json!("holdem");
        assert!(serde_json::from_value::<CreateTournament>(v).is_err());
    }

    #[test]
    fn rebuys_and_the_add_on_default_to_the_entry_and_name_their_field() {
        let mut r = request();
        r.rebuy_until_level = Some(1);
        r.addon_chips = Some(2_000);
        let spec = r.validate().unwrap();
        let expected = Rebuys {
            until_level: 1,
            chips: 1_500,
            fee: 1_000,
            max: None,
            addon: Some(AddOn { chips: 2_000, fee: 1_000 }),
        };
        assert_eq!(spec.rebuys, Some(expected));
        // A stored spec without them reads as none.
        let mut v = serde_json::to_value(&spec).unwrap();
        v.as_object_mut().unwrap().remove("rebuys");
        assert_eq!(serde_json::from_value::<TournamentSpec>(v).unwrap().rebuys, None);

        type Change = fn(&mut CreateTournament);
        let cases: [(Change, &str); 8] = [
            (|r| r.rebuy_until_level = Some(2), "rebuy_until_level"),
            (|r| r.rebuy_until_level = Some(0), "rebuy_until_level"),
            (|r| r.rebuy_chips = Some(0), "rebuy_chips"),
            (|r| r.rebuy_fee = Some(MAX_FEE + 1), "rebuy_fee"),
            (|r| r.max_rebuys = Some(0), "max_rebuys"),
            (|r| r.addon_chips = Some(MAX_STARTING_CHIPS + 1), "addon_chips"),
            (|r| r.addon_fee = Some(5), "addon_fee"),
            (|r| r.addon_fee = Some(MAX_FEE + 1), "addon_fee"),
        ];
        for (change, field) in cases {
            let mut r = request();
            r.rebuy_until_level = Some(1);
            change(&mut r);
            // A fee above the most is checked once there is an add-on to charge it for.
            if r.addon_fee == Some(MAX_FEE + 1) {
                r.addon_chips = Some(10);
            }
            assert_eq!(field_of(&r), field, "{r:?}");
        }
        // Without a rebuy period, any rebuy field is refused.
        let mut r = request();
        r.max_rebuys = Some(3);
        let e = r.validate().unwrap_err();
        assert_eq!(e.field, "max_rebuys");
        assert!(e.message.contains("needs rebuy_until_level"), "{e}");
    }
}
