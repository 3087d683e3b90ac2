//! Main and side pots from what each player put in (RULES.md 4.8, all-in and side pots).

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

/// Main and side pots as amounts and bit masks of eligible player indices (at most 8 pots:
/// one per distinct commitment of a player still in). No allocation: this runs at the end of
/// every hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Layers {
    amounts: [Chips; 8],
    eligible: [u8; 8],
    len: u8,
}

impl Layers {
    /// `(amount, eligible mask)` per pot, main pot first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Chips, u8)> + '_ {
        let n = usize::from(self.len);
        self.amounts.iter().copied().zip(self.eligible.iter().copied()).take(n)
    }
}

/// Builds pots from `(committed, still in the hand)` per player index (at most 8): one pot
/// per distinct commitment of the players still in, each open to those who matched it.
/// Folded players' chips fall into the pots they reached. Antes are commitments like any
/// other, so a player all-in for less than the ante wins only that much from each opponent
/// (PHH ante trimming).
pub(crate) fn build(players: impl Iterator<Item = (Chips, bool)> + Clone) -> Layers {
    let mut layers = Layers::default();
    let mut prev = 0;
    // Each level is the smallest live commitment above the previous one.
    while let Some(level) = players.clone().filter(|&(c, live)| live && c > prev).map(|(c, _)| c).min() {
        let mut amount = 0;
        let mut eligible = 0u8;
        for (i, (c, live)) in players.clone().enumerate() {
            amount += c.min(level) - c.min(prev);
            if live && c >= level {
                eligible |= 1u8.wrapping_shl(i as u32);
            }
        }
        let k = usize::from(layers.len);
        if let (Some(a), Some(e)) = (layers.amounts.get_mut(k), layers.eligible.get_mut(k)) {
            *a = amount;
            *e = eligible;
            layers.len += 1;
        }
        prev = level;
    }
    // Chips above every live commitment (only possible if a folded player out-committed all
    // live ones, which uncalled-bet returns prevent) stay in the last pot rather than vanish.
    let above: Chips = players.map(|(c, _)| c.saturating_sub(prev)).sum();
    if above > 0 {
        if let Some(last) = usize::from(layers.len).checked_sub(1).and_then(|k| layers.amounts.get_mut(k)) {
            *last += above;
        }
    }
    layers
}

#[cfg(test)]
mod tests {
    use super::build;

    fn pots(players: &[(u64, bool)]) -> Vec<(u64, u8)> {
        build(players.iter().copied()).iter().collect()
    }

    #[test]
    fn side_pots_by_all_in_level() {
        // p0 all-in for 30, p1 and p2 in for 100, p3 folded after putting in 50.
        let pots = pots(&[(30, true), (100, true), (100, true), (50, false)]);
        assert_eq!(pots, vec![(120, 0b111), (160, 0b110)]);
        let total: u64 = pots.iter().map(|p| p.0).sum();
        assert_eq!(total, 280);
    }

    #[test]
    fn one_pot_when_everyone_matched() {
        assert_eq!(pots(&[(10, true), (10, true), (4, false)]), vec![(24, 0b11)]);
    }

    #[test]
    fn eight_all_in_levels_make_eight_pots() {
        let players: Vec<(u64, bool)> = (1..=8).map(|c| (c * 10, true)).collect();
        let pots = pots(&players);
        assert_eq!(pots.len(), 8);
        assert_eq!(pots[0], (80, 0xff));
        assert_eq!(pots[7], (10, 0x80));
        assert_eq!(pots.iter().map(|p| p.0).sum::<u64>(), 360);
    }
}
