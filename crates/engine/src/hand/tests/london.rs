//! RULES.md 11: London Lowball. Every razz rule is run for london too (the `ALL` and `LOWS`
//! lists of the rule tests); these are the points of section 11 itself.

use super::*;
use crate::bot::Bot;
use crate::config::ALL_BETTINGS;

#[test]
fn london_plays_every_hand_exactly_as_razz() {
    // RULES.md 11.1: the same seed and the same choices give the same events, the same
    // awards and the same hand names, in every structure.
    for betting in ALL_BETTINGS {
        for k in 0..40u8 {
            let seats: Vec<(Seat, Chips)> =
                (1..=(2 + k % 7)).map(|s| (seat(s), 300 + 97 * Chips::from(s + k))).collect();
            let play = |variant: Variant| {
                let config = cfg(variant).with_betting(betting);
                let (mut hand, mut events) = Hand::start(config, &seats, Seed([k; 32])).unwrap();
                let mut bot = Bot::new(u64::from(k));
                while let Some(s) = hand.to_act() {
                    let a = bot.choose_legal(hand.legal());
                    events.extend(hand.apply(s, a).unwrap());
                }
                events
            };
            assert_eq!(play(Variant::London), play(Variant::Razz), "{betting} seed {k}");
        }
    }
}

#[test]
fn london_has_no_open_pair_and_fixed_limit_is_its_default() {
    // RULES.md 11.1, 11.2.
    let config = TableConfig::new(Variant::London, 40, 50, 200, 400);
    assert!(!config.open_pair_big_bet);
    assert_eq!(config.betting, Betting::FixedLimit);
    let with_pair = TableConfig { open_pair_big_bet: true, ..config };
    assert_eq!(with_pair.validate(), Err(crate::config::ConfigError::OpenPairInRazz));
}

#[test]
fn london_has_its_own_name_title_and_history_code() {
    // RULES.md 11.3.
    let v = Variant::London;
    assert_eq!((v.name(), v.title(), v.phh_code()), ("london", "London Lowball", "F7SL"));
    assert_eq!("london".parse::<Variant>(), Ok(v));
    for betting in ALL_BETTINGS {
        let code = cfg(v).with_betting(betting).phh_code();
        assert_eq!(TableConfig::from_phh_code(&code), Ok((v, betting)), "{code}");
    }
}

#[test]
fn every_game_has_a_distinct_name_and_code_that_read_back() {
    // RULES.md 1.4: the seven names, each read back from its name and its PHH code.
    let names: Vec<&str> = crate::config::ALL_VARIANTS.iter().map(|v| v.name()).collect();
    assert_eq!(names, ["stud", "stud8", "razz", "london", "stud8_declare", "chicago", "mississippi"]);
    for v in crate::config::ALL_VARIANTS {
        assert_eq!(v.name().parse::<Variant>(), Ok(v));
        assert_eq!(v.phh_code().parse::<Variant>(), Ok(v));
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, format!("\"{}\"", v.name()));
    }
}
