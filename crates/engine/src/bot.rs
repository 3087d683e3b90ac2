//! Seeded random-but-legal players for simulations, benchmarks and property tests.
//!
//! A bot never sees hidden cards: it picks among the legal actions at rates drawn once per bot,
//! so a table of bots mixes tight, loose, passive and aggressive play. Its randomness is a local
//! SplitMix64 stream: deterministic from the seed, no global RNG.

use crate::action::{Action, Declaration};
use crate::hand::{Legal, LegalEntry};

/// A seeded bot.
#[derive(Clone, Debug)]
pub struct Bot {
    state: u64,
    /// chance (per 256) to complete/bet/raise when allowed
    aggression: u64,
    /// chance (per 256) to fold when facing a bet
    looseness: u64,
    /// chance (per 256) to show when offered the choice
    show: u64,
}

impl Bot {
    /// A bot whose style and choices follow from `seed`.
    pub fn new(seed: u64) -> Bot {
        let mut bot = Bot { state: seed ^ 0x5eed_5eed_5eed_5eed, aggression: 0, looseness: 0, show: 0 };
        bot.aggression = 20 + bot.next_u64() % 90;
        bot.looseness = 10 + bot.next_u64() % 70;
        bot.show = bot.next_u64() % 256;
        bot
    }

    /// The next raw random number (SplitMix64).
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Picks one of the actions `legal` allows, from one roll: at showdown, show at the bot's
    /// show rate; a declaration (stud8_declare) evenly among the three; else a wager (one of the sizes, evenly) at its aggression rate; else, facing
    /// a bet, fold at its looseness rate; else bring in, call or check. A big-bet wager's size is
    /// random in its range. Reads the set directly,
    /// with no list built (simulations call this once per action). With nothing legal it gives
    /// `Action::Fold`, which the engine will refuse.
    pub fn choose_legal(&mut self, legal: &Legal) -> Action {
        let roll = self.next_u64();
        if legal.is_show_or_muck() {
            return if roll % 256 < self.show { Action::Show } else { Action::Muck };
        }
        if legal.is_declare() {
            // RULES.md 12.2: high, low or both, evenly.
            let declaration = Declaration::ALL.get((roll % 3) as usize).copied().unwrap_or(Declaration::High);
            return Action::Declare { declaration };
        }
        let n = legal.wager_count();
        if n > 0 && roll % 256 < self.aggression {
            if let Some((at_min, min_to, max_to)) = legal.range() {
                return self.size_in(legal, at_min, min_to, max_to);
            }
            if let Some(wager) = legal.wager((roll >> 8) as usize % n) {
                return wager;
            }
        }
        if legal.can_fold() && (roll >> 16) % 256 < self.looseness {
            return Action::Fold;
        }
        legal.passive().unwrap_or(Action::Fold)
    }

    /// A big-bet wager's total (RULES.md 10.5): the minimum a third of the time, the maximum a
    /// sixth, otherwise anything in between, so that simulations see every size.
    fn size_in(&mut self, legal: &Legal, at_min: Action, min_to: u64, max_to: u64) -> Action {
        let to = self.size(min_to, max_to);
        legal.wager_at(to).unwrap_or(at_min)
    }

    /// A total from `min_to` to `max_to`: the minimum a third of the time, the maximum a sixth,
    /// otherwise anything in between.
    fn size(&mut self, min_to: u64, max_to: u64) -> u64 {
        let roll = self.next_u64();
        match roll % 6 {
            0 | 1 => min_to,
            2 => max_to,
            _ => min_to + (roll >> 8) % (max_to - min_to + 1),
        }
    }

    /// Picks one of `legal` as [`Bot::choose_legal`] picks from the same set (one policy, one
    /// place). An action outside the list (only possible for a list the engine would not
    /// make) gives way to the list's first; an empty list gives `Action::Fold`, which the
    /// engine will refuse.
    pub fn choose(&mut self, legal: &[Action]) -> Action {
        let pick = self.choose_legal(&Legal::from_list(legal));
        if legal.contains(&pick) { pick } else { legal.first().copied().unwrap_or(Action::Fold) }
    }

    /// [`Bot::choose`] for a prompt that also gives big-bet ranges (`wagers`: a bet, raise or
    /// completion with `min_to` and `max_to`, as the server's `your_turn` sends them): a wager
    /// picked from `legal` (which lists each range by its two ends) is sized as
    /// [`Bot::choose_legal`] sizes one (`Bot::size`), anywhere in its range. Without ranges: [`Bot::choose`].
    pub fn choose_sized(&mut self, legal: &[Action], wagers: &[LegalEntry]) -> Action {
        let pick = self.choose(legal);
        let sized = |to| match pick {
            Action::Bet { .. } => Some(Action::Bet { to }),
            Action::Raise { .. } => Some(Action::Raise { to }),
            Action::Complete { .. } => Some(Action::Complete { to }),
            _ => None,
        };
        let Some(range) = sized(0).and_then(|kind| {
            let w = wagers.iter().find(|w| std::mem::discriminant(&w.action) == std::mem::discriminant(&kind))?;
            Some((w.min_to?, w.max_to?))
        }) else {
            return pick;
        };
        let (min_to, max_to) = range;
        if max_to <= min_to {
            return pick;
        }
        let to = self.size(min_to, max_to);
        sized(to).unwrap_or(pick)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A big-bet prompt's ranges are used: over many prompts the bot makes the smallest, the
    /// largest and sizes in between, never one outside; a prompt without ranges keeps `legal`'s.
    #[test]
    fn choose_sized_makes_every_size_of_a_range_and_none_outside() {
        let legal = [Action::Fold, Action::Call, Action::Raise { to: 75 }, Action::Raise { to: 130 }];
        let wagers = [LegalEntry { action: Action::Raise { to: 75 }, min_to: Some(75), max_to: Some(130) }];
        let mut bot = Bot::new(3);
        let mut sizes = std::collections::BTreeSet::new();
        for _ in 0..2_000 {
            match bot.choose_sized(&legal, &wagers) {
                Action::Raise { to } => {
                    assert!((75..=130).contains(&to), "{to}");
                    sizes.insert(to);
                }
                other => assert!(legal.contains(&other), "{other:?}"),
            }
        }
        assert!(sizes.contains(&75) && sizes.contains(&130) && sizes.len() > 10, "{sizes:?}");
        for _ in 0..200 {
            let a = bot.choose_sized(&legal, &[]);
            assert!(legal.contains(&a), "{a:?}");
        }
    }
}
