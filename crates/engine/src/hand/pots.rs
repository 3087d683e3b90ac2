//! Main and side pots from what each player put in (RULES.md 4, all-in and side pots).

use crate::config::{Chips, Seat};

/// A pot and the seats that can win it.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Pot {
    /// chips in it
    pub amount: Chips,
    /// seats still in the hand that matched it
    pub eligible: Vec<Seat>,
}

/// Builds pots from `(committed, still in the hand)` per player index: one pot per distinct
/// commitment of the players still in, each open to those who matched it. Folded players'
/// chips fall into the pots they reached. Antes are commitments like any other, so a player
/// all-in for less than the ante wins only that much from each opponent (PHH ante trimming).
pub(crate) fn build(players: &[(Chips, bool)]) -> Vec<(Chips, Vec<usize>)> {
    let mut levels: Vec<Chips> = players.iter().filter(|(c, live)| *live && *c > 0).map(|(c, _)| *c).collect();
    levels.sort_unstable();
    levels.dedup();
    let mut pots: Vec<(Chips, Vec<usize>)> = Vec::with_capacity(levels.len());
    let mut prev = 0;
    for &level in &levels {
        let amount: Chips = players.iter().map(|(c, _)| (*c).min(level) - (*c).min(prev)).sum();
        let eligible: Vec<usize> =
            players.iter().enumerate().filter(|(_, (c, live))| *live && *c >= level).map(|(i, _)| i).collect();
        pots.push((amount, eligible));
        prev = level;
    }
    // Chips above every live commitment (only possible if a folded player out-committed all
    // live ones, which uncalled-bet returns prevent) stay in the last pot rather than vanish.
    let above: Chips = players.iter().map(|(c, _)| c.saturating_sub(prev)).sum();
    if above > 0 {
        if let Some(last) = pots.last_mut() {
            last.0 += above;
        }
    }
    pots
}

#[cfg(test)]
mod tests {
    use super::build;

    #[test]
    fn side_pots_by_all_in_level() {
        // p0 all-in for 30, p1 and p2 in for 100, p3 folded after putting in 50.
        let pots = build(&[(30, true), (100, true), (100, true), (50, false)]);
        assert_eq!(pots, vec![(120, vec![0, 1, 2]), (160, vec![1, 2])]);
        let total: u64 = pots.iter().map(|p| p.0).sum();
        assert_eq!(total, 280);
    }

    #[test]
    fn one_pot_when_everyone_matched() {
        assert_eq!(build(&[(10, true), (10, true), (4, false)]), vec![(24, vec![0, 1])]);
    }
}
