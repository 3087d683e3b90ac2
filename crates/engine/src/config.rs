//! Table configuration: variant and stakes (RULES.md sections 1, 2 and 8), seats and chips.

use std::fmt;

/// Chips are integers (think cents). No floating point anywhere near a pot.
pub type Chips = u64;

/// A seat number, 1..=8. Seat 8 holds the nominal stud button, so seat 1 is "first to the left".
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Seat(u8);

impl Seat {
    /// Seat 1.
    pub const FIRST: Seat = Seat(1);

    /// The seat `n`, if `1 <= n <= 8`.
    pub const fn new(n: u8) -> Option<Seat> {
        if n >= 1 && n <= 8 { Some(Seat(n)) } else { None }
    }

    /// The seat number, 1..=8.
    pub const fn number(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Seat {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
        let n = u8::deserialize(d)?;
        Seat::new(n).ok_or_else(|| serde::de::Error::custom(format!("seat {n} is not in 1..=8")))
    }
}

/// Every game, in the order of RULES.md 1.4.
pub const ALL_VARIANTS: [Variant; 7] = [
    Variant::Stud,
    Variant::Stud8,
    Variant::Razz,
    Variant::London,
    Variant::Stud8Declare,
    Variant::Chicago,
    Variant::Mississippi,
];

/// Every betting structure, the default first.
pub const ALL_BETTINGS: [Betting; 3] = [Betting::FixedLimit, Betting::PotLimit, Betting::NoLimit];

/// The game played at a table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Variant {
    /// Seven Card Stud High.
    Stud,
    /// Seven Card Stud Hi/Lo, eight or better.
    Stud8,
    /// Razz: Seven Card Stud ace-to-five low.
    Razz,
    /// London Lowball: ace-to-five stud lowball, played as razz (RULES.md 11).
    London,
    /// Stud Hi/Lo eight or better with a declaration before the showdown (RULES.md 12).
    #[cfg_attr(feature = "serde", serde(rename = "stud8_declare"))]
    Stud8Declare,
    /// Chicago: the highest spade in the hole wins half the pot (RULES.md 13).
    Chicago,
    /// Mississippi: 6th and 7th cards dealt together, one betting round fewer (RULES.md 14).
    Mississippi,
}

impl Variant {
    /// The wire and CLI name: `stud`, `stud8`, `razz`, `london`, `stud8_declare`, `chicago`,
    /// `mississippi`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Stud => "stud",
            Variant::Stud8 => "stud8",
            Variant::Razz => "razz",
            Variant::London => "london",
            Variant::Stud8Declare => "stud8_declare",
            Variant::Chicago => "chicago",
            Variant::Mississippi => "mississippi",
        }
    }

    /// The PHH variant code in fixed limit: PokerKit's `F7S`, `F7S/8`, `FR`; ours for the
    /// games PokerKit does not deal (docs/PHH.md): `F7SL`, `F7S/8D`, `F7SC`, `F7SM`.
    pub const fn phh_code(self) -> &'static str {
        match self {
            Variant::Stud => "F7S",
            Variant::Stud8 => "F7S/8",
            Variant::Razz => "FR",
            Variant::London => "F7SL",
            Variant::Stud8Declare => "F7S/8D",
            Variant::Chicago => "F7SC",
            Variant::Mississippi => "F7SM",
        }
    }

    /// The display name ("7 Card Stud Hi/Lo").
    pub const fn title(self) -> &'static str {
        match self {
            Variant::Stud => "7 Card Stud",
            Variant::Stud8 => "7 Card Stud Hi/Lo",
            Variant::Razz => "Razz",
            Variant::London => "London Lowball",
            Variant::Stud8Declare => "7 Card Stud Hi/Lo Declare",
            Variant::Chicago => "Chicago",
            Variant::Mississippi => "Mississippi Stud",
        }
    }

    /// Played for the low hand only, ace to five, as razz (RULES.md 11.1): the highest door
    /// card brings in, the lowest board acts first, no open pair.
    pub const fn is_razz_like(self) -> bool {
        matches!(self, Variant::Razz | Variant::London)
    }

    /// The pot is split between a high and an 8-or-better low (stud8, RULES.md 5.2, and the
    /// declare game, 12.4).
    pub const fn has_low_half(self) -> bool {
        matches!(self, Variant::Stud8 | Variant::Stud8Declare)
    }
}

impl std::str::FromStr for Variant {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<Variant, ConfigError> {
        match s {
            "stud" | "F7S" => Ok(Variant::Stud),
            "stud8" | "F7S/8" => Ok(Variant::Stud8),
            "razz" | "FR" => Ok(Variant::Razz),
            "london" | "F7SL" => Ok(Variant::London),
            "stud8_declare" | "F7S/8D" => Ok(Variant::Stud8Declare),
            "chicago" | "F7SC" => Ok(Variant::Chicago),
            "mississippi" | "F7SM" => Ok(Variant::Mississippi),
            other => Err(ConfigError::UnknownVariant(other.to_owned())),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How much a player may bet or raise (RULES.md 1.4 and 10.1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Betting {
    /// Fixed limit: the small and the big bet, a raise cap (RULES.md 2 to 4). The default.
    #[default]
    FixedLimit,
    /// Pot limit: bets from the minimum bet to the pot, raises unlimited (RULES.md 10).
    PotLimit,
    /// No limit: bets from the minimum bet to the whole stack, raises unlimited (RULES.md 10).
    NoLimit,
}

impl Betting {
    /// The wire and CLI name: `fixed_limit`, `pot_limit`, `no_limit`.
    pub const fn name(self) -> &'static str {
        match self {
            Betting::FixedLimit => "fixed_limit",
            Betting::PotLimit => "pot_limit",
            Betting::NoLimit => "no_limit",
        }
    }

    /// The display name: "Limit", "Pot Limit", "No Limit".
    pub const fn title(self) -> &'static str {
        match self {
            Betting::FixedLimit => "Limit",
            Betting::PotLimit => "Pot Limit",
            Betting::NoLimit => "No Limit",
        }
    }

    /// True for pot limit and no limit (RULES.md 10).
    pub const fn is_big_bet(self) -> bool {
        !matches!(self, Betting::FixedLimit)
    }

    /// The first letter of a PHH variant code: `F`, `P`, `N`.
    const fn phh_letter(self) -> char {
        match self {
            Betting::FixedLimit => 'F',
            Betting::PotLimit => 'P',
            Betting::NoLimit => 'N',
        }
    }
}

impl std::str::FromStr for Betting {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<Betting, ConfigError> {
        match s {
            "fixed_limit" => Ok(Betting::FixedLimit),
            "pot_limit" => Ok(Betting::PotLimit),
            "no_limit" => Ok(Betting::NoLimit),
            other => Err(ConfigError::UnknownBetting(other.to_owned())),
        }
    }
}

impl fmt::Display for Betting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rules and stakes of a table. Build with [`TableConfig::new`], then [`TableConfig::validate`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct TableConfig {
    /// The game.
    pub variant: Variant,
    /// Posted by every player dealt in (may be 0).
    pub ante: Chips,
    /// The forced opening bet on 3rd street.
    pub bring_in: Chips,
    /// Bet and raise size on 3rd and 4th street.
    pub small_bet: Chips,
    /// Bet and raise size on 5th to 7th street (and the 4th-street open-pair option).
    pub big_bet: Chips,
    /// Raises allowed after the first bet of a street ("one bet and three raises").
    #[cfg_attr(feature = "serde", serde(default = "default_max_raises"))]
    pub max_raises: u8,
    /// A pair showing on 4th street allows the big bet (stud, stud8; never razz).
    pub open_pair_big_bet: bool,
    /// Lift the raise cap when only two players are in the hand (RULES.md 8; off by default).
    #[cfg_attr(feature = "serde", serde(default))]
    pub uncapped_heads_up: bool,
    /// Fixed limit (the default), pot limit or no limit (RULES.md 10). In pot limit and no
    /// limit `small_bet` is the minimum bet; `big_bet`, `max_raises`, `open_pair_big_bet` and
    /// `uncapped_heads_up` are not used.
    #[cfg_attr(feature = "serde", serde(default))]
    pub betting: Betting,
}

#[cfg(feature = "serde")]
fn default_max_raises() -> u8 {
    3
}

/// A table configuration that breaks RULES.md section 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Not one of the games of RULES.md 1.4.
    #[error("unknown variant {0:?} (expected stud, stud8, razz, london, stud8_declare, chicago or mississippi)")]
    UnknownVariant(String),
    /// Not `fixed_limit`, `pot_limit` or `no_limit`.
    #[error("unknown betting structure {0:?} (expected fixed_limit, pot_limit or no_limit)")]
    UnknownBetting(String),
    /// `bring_in` is 0.
    #[error("bring_in must be greater than 0")]
    ZeroBringIn,
    /// `bring_in > small_bet`.
    #[error("bring_in ({bring_in}) must not exceed small_bet ({small_bet})")]
    BringInAboveSmallBet {
        /// configured bring-in
        bring_in: Chips,
        /// configured small bet
        small_bet: Chips,
    },
    /// `small_bet > big_bet`.
    #[error("small_bet ({small_bet}) must not exceed big_bet ({big_bet})")]
    SmallBetAboveBigBet {
        /// configured small bet
        small_bet: Chips,
        /// configured big bet
        big_bet: Chips,
    },
    /// The open-pair option was set for razz or london.
    #[error("open_pair_big_bet does not exist in razz and london")]
    OpenPairInRazz,
    /// Amounts so large that a hand's arithmetic could overflow.
    #[error("stakes above {max} chips are not supported")]
    TooLarge {
        /// the largest supported amount
        max: Chips,
    },
}

/// The largest stake or stack the engine accepts: keeps every sum far from overflow.
pub const MAX_CHIPS: Chips = 1 << 48;

impl TableConfig {
    /// A configuration with the defaults of the variant: 3 raises, open pair on for stud and
    /// stud8 and off for razz, heads-up capped.
    pub fn new(variant: Variant, ante: Chips, bring_in: Chips, small_bet: Chips, big_bet: Chips) -> TableConfig {
        TableConfig {
            variant,
            ante,
            bring_in,
            small_bet,
            big_bet,
            max_raises: 3,
            open_pair_big_bet: !variant.is_razz_like(),
            uncapped_heads_up: false,
            betting: Betting::FixedLimit,
        }
    }

    /// The same configuration with the betting structure `betting`.
    pub const fn with_betting(self, betting: Betting) -> TableConfig {
        TableConfig { betting, ..self }
    }

    /// The PHH variant code (docs/PHH.md): PokerKit's `F7S`, `F7S/8`, `FR` in fixed limit; in
    /// pot limit and no limit the same codes with `P` or `N` for the `F`, as phh-std names its
    /// big-bet games (PokerKit has no big-bet stud: ours).
    pub fn phh_code(&self) -> String {
        let code = self.variant.phh_code();
        let mut out = String::with_capacity(code.len());
        out.push(self.betting.phh_letter());
        out.push_str(code.get(1..).unwrap_or(""));
        out
    }

    /// The variant and betting structure of a PHH variant code ([`TableConfig::phh_code`]).
    ///
    /// # Errors
    /// [`ConfigError::UnknownVariant`] for any other code.
    pub fn from_phh_code(code: &str) -> Result<(Variant, Betting), ConfigError> {
        let unknown = || ConfigError::UnknownVariant(code.to_owned());
        let betting = match code.get(..1) {
            Some("F") => Betting::FixedLimit,
            Some("P") => Betting::PotLimit,
            Some("N") => Betting::NoLimit,
            _ => return Err(unknown()),
        };
        let fixed = ["F", code.get(1..).unwrap_or("")].concat();
        let variant = ALL_VARIANTS.into_iter().find(|v| v.phh_code() == fixed).ok_or_else(unknown)?;
        Ok((variant, betting))
    }

    /// Checks RULES.md section 2: `0 < bring_in <= small_bet <= big_bet`, `ante >= 0`.
    ///
    /// # Errors
    /// The first [`ConfigError`] found.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.bring_in == 0 {
            return Err(ConfigError::ZeroBringIn);
        }
        if self.bring_in > self.small_bet {
            return Err(ConfigError::BringInAboveSmallBet { bring_in: self.bring_in, small_bet: self.small_bet });
        }
        // RULES.md 10.2: in big-bet stud the big bet is not used.
        if self.small_bet > self.big_bet && !self.betting.is_big_bet() {
            return Err(ConfigError::SmallBetAboveBigBet { small_bet: self.small_bet, big_bet: self.big_bet });
        }
        if self.open_pair_big_bet && self.variant.is_razz_like() {
            return Err(ConfigError::OpenPairInRazz);
        }
        if self.big_bet > MAX_CHIPS || self.small_bet > MAX_CHIPS || self.ante > MAX_CHIPS {
            return Err(ConfigError::TooLarge { max: MAX_CHIPS });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_variant() {
        assert!(TableConfig::new(Variant::Stud, 40, 50, 200, 400).open_pair_big_bet);
        assert!(TableConfig::new(Variant::Stud8, 40, 50, 200, 400).open_pair_big_bet);
        let razz = TableConfig::new(Variant::Razz, 40, 50, 200, 400);
        assert!(!razz.open_pair_big_bet);
        assert_eq!(razz.max_raises, 3);
        assert!(!razz.uncapped_heads_up);
        assert_eq!(razz.validate(), Ok(()));
    }

    #[test]
    fn invalid_configs_are_typed_errors() {
        let ok = TableConfig::new(Variant::Stud, 40, 50, 200, 400);
        assert_eq!(TableConfig { bring_in: 0, ..ok }.validate(), Err(ConfigError::ZeroBringIn));
        assert!(matches!(
            TableConfig { bring_in: 300, ..ok }.validate(),
            Err(ConfigError::BringInAboveSmallBet { .. })
        ));
        assert!(matches!(TableConfig { big_bet: 100, ..ok }.validate(), Err(ConfigError::SmallBetAboveBigBet { .. })));
        let razz = TableConfig { variant: Variant::Razz, ..ok };
        assert_eq!(razz.validate(), Err(ConfigError::OpenPairInRazz));
        assert!(matches!(TableConfig { big_bet: u64::MAX, ..ok }.validate(), Err(ConfigError::TooLarge { .. })));
        // The usual shape is not required: an ante above the bring-in is allowed.
        assert_eq!(TableConfig { ante: 60, ..ok }.validate(), Ok(()));
        assert!("holdem".parse::<Variant>().is_err());
        assert_eq!("F7S/8".parse::<Variant>(), Ok(Variant::Stud8));
    }

    #[test]
    fn big_bet_configs_need_only_bring_in_up_to_the_minimum_bet() {
        let ok = TableConfig::new(Variant::Stud, 100, 150, 150, 0);
        assert!(matches!(ok.validate(), Err(ConfigError::SmallBetAboveBigBet { .. })));
        for betting in [Betting::PotLimit, Betting::NoLimit] {
            assert_eq!(ok.with_betting(betting).validate(), Ok(()));
            let low_min = TableConfig { small_bet: 100, ..ok.with_betting(betting) };
            assert!(matches!(low_min.validate(), Err(ConfigError::BringInAboveSmallBet { .. })));
        }
        assert_eq!(TableConfig::new(Variant::Razz, 1, 2, 4, 8).betting, Betting::FixedLimit);
    }

    #[test]
    fn phh_codes_name_the_game_and_the_structure() {
        for variant in ALL_VARIANTS {
            for betting in ALL_BETTINGS {
                let config = TableConfig::new(variant, 1, 2, 4, 8).with_betting(betting);
                assert_eq!(TableConfig::from_phh_code(&config.phh_code()), Ok((variant, betting)));
            }
        }
        let pl = TableConfig::new(Variant::Stud8, 1, 2, 4, 8).with_betting(Betting::PotLimit);
        assert_eq!(pl.phh_code(), "P7S/8");
        assert_eq!(TableConfig::new(Variant::Razz, 1, 2, 4, 8).phh_code(), "FR");
        assert!(TableConfig::from_phh_code("NT").is_err());
        assert_eq!("no_limit".parse::<Betting>(), Ok(Betting::NoLimit));
        assert!("spread_limit".parse::<Betting>().is_err());
    }

    #[cfg(feature = "serde")]
    #[test]
    fn betting_defaults_to_fixed_limit_when_absent() {
        let json = r#"{"variant":"stud","ante":1,"bring_in":2,"small_bet":4,"big_bet":8,"open_pair_big_bet":true}"#;
        let config: TableConfig = serde_json::from_str(json).unwrap();
        assert_eq!(config.betting, Betting::FixedLimit);
        let pl = serde_json::to_string(&config.with_betting(Betting::PotLimit)).unwrap();
        assert!(pl.contains(r#""betting":"pot_limit""#), "{pl}");
    }

    #[test]
    fn seats_are_one_to_eight() {
        assert!(Seat::new(0).is_none());
        assert!(Seat::new(9).is_none());
        assert_eq!(Seat::new(8).map(Seat::number), Some(8));
    }
}
