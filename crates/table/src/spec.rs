//! What a table is: its rules, stakes, name and the operator's settings.

use serde::{Deserialize, Serialize};
use stud_engine::{Betting, Chips, TableConfig, Variant};
use stud_proto::{MoneyDisplay, RotationGame, TableSettings};
use uuid::Uuid;

/// A table's rules, stakes, clock and access. Journaled (an operator's change is an input)
/// and kept in snapshots, so it is serialisable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// how clients show amounts
    #[serde(default)]
    pub display: MoneyDisplay,
    /// table chat on or off; none: the default ([`TableSpec::chat_on`])
    #[serde(default)]
    pub chat: Option<bool>,
    /// a tournament's table: seats are assigned by the tournament (no buy-in, no top-up, no
    /// leaving the seat), stacks are tournament chips, and a hand is dealt only when the
    /// tournament says so ([`crate::Input::Deal`]) with the stakes of its level
    #[serde(default)]
    pub tournament: Option<Uuid>,
    /// a mixed game: the table rotates its games ([`TableSpec::games`]) from `config`'s, this
    /// many hands each (8: an orbit), counted by the table's hand numbers (so a restart goes on
    /// where it was); `None`: always `config`
    #[serde(default)]
    pub rotation_hands: Option<u32>,
    /// a mixed game's games in order, each at its own betting structure or `config.betting`;
    /// `None`: [`ROTATION`] (specs stored before issue 29 have none)
    #[serde(default)]
    pub rotation_games: Option<Vec<RotationGame>>,
    /// where an operator's change of the rotation took effect (the table sets it when it
    /// applies the change, [`TableSpec::carry_rotation`]); `None`: the rotation counts from
    /// the table's first hand
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation_at: Option<RotationPoint>,
}

/// A mixed game's rotation changed by an operator: the new one starts at hand `from` (the old
/// one's next rotation point) with game `index` of the new list; the hands before it finish
/// the game that was being played (`hold`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RotationPoint {
    /// the table's hand number where the new rotation starts counting
    pub from: u64,
    /// the game of hand `from`, an index into [`TableSpec::games`]
    pub index: usize,
    /// the game of the hands before `from`
    pub hold: (Variant, Betting),
}

/// The mixed game's default order (issue 14): Razz, Stud, Stud Hi/Lo.
pub const ROTATION: [Variant; 3] = [Variant::Razz, Variant::Stud, Variant::Stud8];

/// Most hands per game of a rotation.
pub const MAX_ROTATION_HANDS: u32 = 1_000;

/// Most games in a rotation's list.
pub const MAX_ROTATION_GAMES: usize = 16;

impl TableSpec {
    /// A public table with 8 seats and the given clock.
    pub fn public(
        id: Uuid,
        name: String,
        config: TableConfig,
        (min_buy_in, max_buy_in): (Chips, Chips),
        (action_timeout_ms, time_bank_ms): (u64, u64),
    ) -> TableSpec {
        TableSpec {
            id,
            name,
            config,
            min_buy_in,
            max_buy_in,
            seats: 8,
            action_timeout_ms,
            time_bank_ms,
            observers: true,
            private: false,
            invite_code: None,
            paused: false,
            hands_before: 0,
            display: MoneyDisplay::Cash,
            chat: None,
            tournament: None,
            rotation_hands: None,
            rotation_games: None,
            rotation_at: None,
        }
    }

    /// A mixed game's games in order, each with its betting structure: `rotation_games` (a
    /// game without one at `config.betting`), else [`ROTATION`] at `config.betting`.
    pub fn games(&self) -> Vec<(Variant, Betting)> {
        match &self.rotation_games {
            Some(list) if !list.is_empty() => {
                list.iter().map(|g| (g.variant, g.betting.unwrap_or(self.config.betting))).collect()
            }
            _ => ROTATION.iter().map(|&v| (v, self.config.betting)).collect(),
        }
    }

    /// Where `config`'s game is in [`TableSpec::games`] ([`TableSpec::position`]).
    fn start_of(games: &[(Variant, Betting)], config: &TableConfig) -> Option<usize> {
        Self::position(games, (config.variant, config.betting))
    }

    /// Where a game is in a rotation's list: the first with its variant and betting, else
    /// the first with its variant.
    fn position(games: &[(Variant, Betting)], game: (Variant, Betting)) -> Option<usize> {
        games.iter().position(|g| *g == game).or_else(|| games.iter().position(|(v, _)| *v == game.0))
    }

    /// The game of the table's hand number `number` (1, 2, ...).
    pub fn variant_of(&self, number: u64) -> Variant {
        self.config_of(number).variant
    }

    /// The rules and stakes of hand number `number`: `config` with that hand's game and
    /// betting structure. A mixed game starts at `config`'s game (the first of its list if
    /// that is not in it), or where an operator's change put it ([`TableSpec::rotation_at`]).
    pub fn config_of(&self, number: u64) -> TableConfig {
        let Some(n) = self.rotation_hands.filter(|n| *n > 0) else { return self.config };
        let games = self.games();
        let (from, start) = match self.rotation_at {
            Some(at) if number < at.from => return self.with_game(at.hold),
            Some(at) => (at.from, at.index as u64),
            None => (1, Self::start_of(&games, &self.config).unwrap_or(0) as u64),
        };
        let step = number.saturating_sub(from) / u64::from(n);
        match games.get(((start + step) % games.len().max(1) as u64) as usize) {
            Some(&game) => self.with_game(game),
            None => self.config,
        }
    }

    /// `config` at another game and betting structure. The open-pair option is each game's
    /// own: never in razz and london; in the others `config`'s setting when `config`'s game
    /// has the option, else the engine's default (on).
    fn with_game(&self, (variant, betting): (Variant, Betting)) -> TableConfig {
        let open_pair_big_bet = if variant.is_razz_like() {
            false
        } else if self.config.variant.is_razz_like() {
            TableConfig::new(variant, 0, 1, 1, 1).open_pair_big_bet
        } else {
            self.config.open_pair_big_bet
        };
        TableConfig { variant, betting, open_pair_big_bet, ..self.config }
    }

    /// A mixed game's first hand number after `number` where a game starts (`None`: not a
    /// mixed game).
    pub fn next_rotation_point(&self, number: u64) -> Option<u64> {
        let n = u64::from(self.rotation_hands.filter(|n| *n > 0)?);
        let from = self.rotation_at.map_or(1, |at| at.from);
        Some(if number < from { from } else { from + ((number - from) / n + 1) * n })
    }

    /// Takes over what only the table knows when an operator's change (`self`, built from the
    /// settings) replaces `old` before hand number `next`: where the rotation stands. An
    /// unchanged rotation goes on as it was; a changed one starts at `old`'s next rotation
    /// point (the game in play is finished first) with the game after the current one in the
    /// new list (its first game when the current one is not in it); a table that was not mixed
    /// starts its rotation at `next`. When the game in play cannot be played at the new
    /// stakes, the new rotation starts at `next` instead.
    pub fn carry_rotation(&mut self, old: &TableSpec, next: u64) {
        if self.rotation_hands.is_none() {
            self.rotation_at = None;
            return;
        }
        if self.rotation_hands == old.rotation_hands && self.games() == old.games() {
            // The same rotation goes on where it stands. Counted from the first hand, its start
            // is `config`'s game, which a change of `betting` can move when the list has a
            // variant twice: then it is pinned where it was.
            let games = old.games();
            let start = Self::start_of(&games, &old.config).unwrap_or(0);
            let moved = Self::start_of(&self.games(), &self.config).unwrap_or(0) != start;
            self.rotation_at = match old.rotation_at {
                Some(at) => Some(at),
                None if moved => {
                    Some(RotationPoint { from: 1, index: start, hold: (old.config.variant, old.config.betting) })
                }
                None => None,
            };
            return;
        }
        let games = self.games();
        let point = old.next_rotation_point(next.saturating_sub(1)).filter(|_| next > 1);
        let Some(point) = point else {
            // Not a mixed game before, or no hand dealt yet: the rotation starts with the next
            // hand, at `config`'s game.
            let index = Self::start_of(&games, &self.config).unwrap_or(0);
            let hold = (self.config.variant, self.config.betting);
            self.rotation_at = Some(RotationPoint { from: next, index, hold });
            return;
        };
        let current = old.config_of(point.saturating_sub(1).max(1));
        let current = (current.variant, current.betting);
        let index = Self::position(&games, current).map_or(0, |i| (i + 1) % games.len());
        let playable = self.with_game(current).validate().is_ok();
        let from = if playable { point.max(next) } else { next };
        self.rotation_at = Some(RotationPoint { from, index, hold: current });
    }

    /// Whether the table's chat is on: as the operator set it, else on for public tables and
    /// off for private ones.
    pub fn chat_on(&self) -> bool {
        self.chat.unwrap_or(!self.private)
    }

    /// A table from an operator's settings.
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn from_settings(id: Uuid, s: &TableSettings) -> Result<TableSpec, String> {
        let Some(name) = stud_proto::fit_name(&s.name, 40) else {
            return Err(
                "name must be 1 to 40 characters, not all blank, without control, invisible or text-direction characters"
                    .into(),
            );
        };
        let mut config = TableConfig::new(s.variant, s.ante, s.bring_in, s.small_bet, s.big_bet);
        config.max_raises = s.max_raises;
        if let Some(open_pair) = s.open_pair_big_bet {
            config.open_pair_big_bet = open_pair;
        }
        let config = config.with_betting(s.betting);
        config.validate().map_err(|e| e.to_string())?;
        if !(2..=8).contains(&s.seats) {
            return Err("seats must be 2 to 8".into());
        }
        if s.min_buy_in == 0 || s.min_buy_in > s.max_buy_in {
            return Err("need 0 < min_buy_in <= max_buy_in".into());
        }
        if s.max_buy_in > stud_engine::config::MAX_CHIPS {
            return Err(format!("max_buy_in must not exceed {}", stud_engine::config::MAX_CHIPS));
        }
        if s.min_buy_in < s.ante + s.bring_in {
            return Err("min_buy_in must cover at least the ante and the bring-in".into());
        }
        if !(1_000..=600_000).contains(&s.action_timeout_ms) || s.time_bank_ms > 3_600_000 {
            return Err("action_timeout_ms must be 1000 to 600000 and time_bank_ms at most 3600000".into());
        }
        if s.rotation_hands.is_some_and(|n| !(1..=MAX_ROTATION_HANDS).contains(&n)) {
            return Err(format!("rotation_hands must be 1 to {MAX_ROTATION_HANDS}"));
        }
        if let Some(list) = &s.rotation_games {
            if s.rotation_hands.is_none() {
                return Err("rotation_games needs rotation_hands (how many hands each game lasts)".into());
            }
            if list.is_empty() || list.len() > MAX_ROTATION_GAMES {
                return Err(format!("rotation_games must list 1 to {MAX_ROTATION_GAMES} games"));
            }
        }
        let spec = TableSpec {
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
            display: s.display,
            chat: s.chat,
            tournament: None,
            rotation_hands: s.rotation_hands,
            rotation_games: s.rotation_games.clone(),
            rotation_at: None,
        };
        if spec.rotation_games.is_some() && Self::start_of(&spec.games(), &spec.config).is_none() {
            return Err(format!("variant {} must be one of rotation_games", spec.config.variant));
        }
        // Every game of the rotation must be playable at these stakes.
        if spec.rotation_hands.is_some() {
            let games = spec.games().len() as u64;
            let n = u64::from(spec.rotation_hands.unwrap_or(1));
            for k in 0..games {
                let c = spec.config_of(1 + k * n);
                c.validate().map_err(|e| format!("{} {}: {e}", c.variant, c.betting))?;
            }
        }
        Ok(spec)
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
            betting: self.config.betting,
            seats: self.seats,
            min_buy_in: self.min_buy_in,
            max_buy_in: self.max_buy_in,
            action_timeout_ms: self.action_timeout_ms,
            time_bank_ms: self.time_bank_ms,
            observers: self.observers,
            private: self.private,
            display: self.display,
            chat: self.chat,
            rotation_hands: self.rotation_hands,
            rotation_games: self.rotation_games.clone(),
        }
    }
}
