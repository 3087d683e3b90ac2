//! Deal-making at a final table (issue 30 item 5): what each remaining player would take.
//!
//! The money a deal shares is what the remaining places would still pay (the prizes of places
//! 1..=n for n players left) less what the deal leaves to play for (`leave`, which goes to the
//! winner when play goes on). Two ways to share it:
//!
//! - **Chip chop**: in proportion to the chips each holds.
//! - **ICM** (Malmuth-Harville): each player's expected prize if the chance of finishing first
//!   among those left is their share of the chips, and so on down the places; the first
//!   place's prize is reduced by `leave` first.
//!
//! Both are exact to the cent and add up to the shared money exactly: each share is floored
//! and the cents left over go one each to the largest remainders (ties: the larger stack, then
//! the earlier entry). Pure functions: the tournament journals the shares they give, so a
//! replay never recomputes a float.

use serde::{Deserialize, Serialize};

use crate::floor::EntryNo;
use stud_engine::Chips;

use crate::spec::Cents;

/// How a deal shares the money.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DealMethod {
    /// Malmuth-Harville's independent chip model
    Icm,
    /// in proportion to the chips
    ChipChop,
}

/// Each player's share of `prizes` (those of places 1..=n, best first, for the n players of
/// `stacks`) less `leave`, by `method`, in the order of `stacks`. `None` when the numbers do
/// not make a deal: fewer than two players, a stack of 0, fewer prizes than players, or
/// `leave` above the first place's prize.
pub fn shares(method: DealMethod, stacks: &[(EntryNo, Chips)], prizes: &[Cents], leave: Cents) -> Option<Vec<Cents>> {
    let n = stacks.len();
    if n < 2 || prizes.len() < n || stacks.iter().any(|(_, c)| *c == 0) || leave > prizes[0] {
        return None;
    }
    let mut places: Vec<Cents> = prizes[..n].to_vec();
    places[0] -= leave;
    let total: Cents = places.iter().sum();
    let chips: Vec<f64> = stacks.iter().map(|(_, c)| *c as f64).collect();
    let exact = match method {
        DealMethod::ChipChop => {
            let sum: f64 = chips.iter().sum();
            chips.iter().map(|c| total as f64 * c / sum).collect()
        }
        DealMethod::Icm => icm(&chips, &places),
    };
    Some(round_to(total, &exact, stacks))
}

/// Malmuth-Harville equities: over every set S of players already placed (places 1..=|S|),
/// the chance that S finished first, in some order, is built up one place at a time; a
/// player outside S takes the next place with the chance of their chips among those left.
fn icm(chips: &[f64], places: &[Cents]) -> Vec<f64> {
    let n = chips.len();
    let sum: f64 = chips.iter().sum();
    let mut reach = vec![0.0f64; 1 << n];
    reach[0] = 1.0;
    let mut equity = vec![0.0f64; n];
    for set in 0..(1usize << n) {
        let p = reach[set];
        let placed = set.count_ones() as usize;
        if p == 0.0 || placed >= n {
            continue;
        }
        let left: f64 = sum - (0..n).filter(|i| set & (1 << i) != 0).map(|i| chips[i]).sum::<f64>();
        for i in (0..n).filter(|i| set & (1 << i) == 0) {
            let q = p * chips[i] / left;
            equity[i] += q * places[placed] as f64;
            reach[set | (1 << i)] += q;
        }
    }
    equity
}

/// Whole cents adding up to `total` exactly: floors, then a cent each to the largest
/// remainders (ties: the larger stack, then the earlier entry).
fn round_to(total: Cents, exact: &[f64], stacks: &[(EntryNo, Chips)]) -> Vec<Cents> {
    let mut out: Vec<Cents> = exact.iter().map(|x| x.max(0.0).floor() as Cents).collect();
    let given: Cents = out.iter().sum();
    let mut order: Vec<usize> = (0..exact.len()).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (exact[a] - exact[a].floor(), exact[b] - exact[b].floor());
        rb.total_cmp(&ra).then(stacks[b].1.cmp(&stacks[a].1)).then(stacks[a].0.cmp(&stacks[b].0))
    });
    // Floats may put the floors a cent or two off either way: trim or top up in that order.
    let mut over = given.saturating_sub(total);
    for &i in order.iter().rev() {
        if over == 0 {
            break;
        }
        if out[i] > 0 {
            out[i] -= 1;
            over -= 1;
        }
    }
    let mut short = total.saturating_sub(out.iter().sum());
    for &i in order.iter().cycle() {
        if short == 0 {
            break;
        }
        out[i] += 1;
        short -= 1;
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn stacks(chips: &[Chips]) -> Vec<(EntryNo, Chips)> {
        chips.iter().enumerate().map(|(i, c)| (i as EntryNo + 1, *c)).collect()
    }

    #[test]
    fn a_chip_chop_shares_in_proportion_to_the_chips() {
        // 6,000 + 3,000 + 1,000 chips for 5,000 + 3,000 + 2,000 cents: 10,000 shared 60/30/10.
        let s = shares(DealMethod::ChipChop, &stacks(&[6_000, 3_000, 1_000]), &[5_000, 3_000, 2_000], 0).unwrap();
        assert_eq!(s, [6_000, 3_000, 1_000]);
        // Leaving 1,000 to play for: 9,000 shared; odd cents to the largest remainders.
        let s = shares(DealMethod::ChipChop, &stacks(&[1, 1, 1]), &[5_000, 3_000, 2_000], 1_000).unwrap();
        assert_eq!(s, [3_000, 3_000, 3_000]);
        let s = shares(DealMethod::ChipChop, &stacks(&[2, 1, 1, 1, 1, 1]), &[100, 1, 1, 1, 1, 1], 0).unwrap();
        assert_eq!(s.iter().sum::<Cents>(), 105);
        assert_eq!(s, [30, 15, 15, 15, 15, 15]);
    }

    /// Malmuth-Harville by hand: stacks 50/30/20 for 50/30/20.
    /// P(A 1st) = .5; P(A 2nd) = .3*(.5/.7) + .2*(.5/.8) = .2142857 + .125 = .3392857;
    /// P(A 3rd) = 1 - .5 - .3392857 = .1607143. A = 25 + 10.178571 + 3.214286 = 38.392857.
    /// B: 1st .3; 2nd .5*(.3/.5) + .2*(.3/.8) = .3 + .075 = .375; 3rd .325:
    /// 15 + 11.25 + 6.5 = 32.75. C = 100 - 38.392857 - 32.75 = 28.857143.
    #[test]
    fn icm_matches_malmuth_harville_worked_by_hand() {
        let s = shares(DealMethod::Icm, &stacks(&[50, 30, 20]), &[5_000, 3_000, 2_000], 0).unwrap();
        assert_eq!(s, [3_839, 3_275, 2_886]);
        assert_eq!(s.iter().sum::<Cents>(), 10_000);
        // Equal stacks: equal shares (ICM gives everyone the average).
        let s = shares(DealMethod::Icm, &stacks(&[7, 7, 7, 7]), &[4_000, 3_000, 2_000, 1_000], 0).unwrap();
        assert_eq!(s, [2_500; 4]);
        // Heads-up: ICM is second's prize plus a chip share of the difference.
        let s = shares(DealMethod::Icm, &stacks(&[3_000, 1_000]), &[7_000, 3_000], 0).unwrap();
        assert_eq!(s, [6_000, 4_000]);
        // Leaving 2,000 for the winner: first's prize counts 5,000.
        let s = shares(DealMethod::Icm, &stacks(&[3_000, 1_000]), &[7_000, 3_000], 2_000).unwrap();
        assert_eq!(s, [4_500, 3_500]);
    }

    #[test]
    fn icm_gives_a_big_stack_less_than_a_chip_chop_and_never_more_than_first() {
        let chips = stacks(&[90_000, 5_000, 3_000, 2_000]);
        let prizes = [50_000, 25_000, 15_000, 10_000];
        let icm = shares(DealMethod::Icm, &chips, &prizes, 0).unwrap();
        let chop = shares(DealMethod::ChipChop, &chips, &prizes, 0).unwrap();
        assert!(icm[0] < chop[0] && icm[0] <= 50_000, "{icm:?} {chop:?}");
        assert!(icm[3] > chop[3] && icm[3] >= 10_000, "the shortest stack is worth at least last place");
        assert_eq!(icm.iter().sum::<Cents>(), 100_000);
    }

    #[test]
    fn numbers_that_make_no_deal_are_refused() {
        assert_eq!(shares(DealMethod::Icm, &stacks(&[10]), &[100], 0), None, "one player");
        assert_eq!(shares(DealMethod::Icm, &stacks(&[10, 0]), &[100, 50], 0), None, "a stack of 0");
        assert_eq!(shares(DealMethod::Icm, &stacks(&[10, 10, 10]), &[100, 50], 0), None, "fewer prizes");
        assert_eq!(shares(DealMethod::ChipChop, &stacks(&[10, 10]), &[100, 50], 101), None, "leave above first");
    }
}
