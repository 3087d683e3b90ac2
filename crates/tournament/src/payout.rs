//! Who gets paid and how much: default payout tables, prize amounts in cents, and places for
//! players eliminated together.
//!
//! Decisions:
//! - Paid places by field size (entries, re-entries included): 1 of 2-4, 2 of 5-8, 3 of 9-16,
//!   then 15% of the field rounded half up (at least 3). Small fields use the common sit-and-go
//!   tables 100, 65/35 and 50/30/20.
//! - Larger fields: every paid place first gets `ceil(10,000 / entries)` basis points, so the
//!   smallest prize is never below the entry fee (a "min cash" that returns the entry); the
//!   rest is shared in proportion to `1 / place` (a harmonic curve: about 15% to the winner of
//!   a 1,000-entry field). The table is non-increasing and adds to exactly 10,000.
//! - Prize amounts: `floor(pool * points / 10,000)` for each place; the cents the floors leave
//!   (fewer than the number of paid places) go one each to places 1, 2, 3, ... So the prizes
//!   add up to the pool exactly, stay non-increasing, and the same inputs give the same cents.
//! - Players eliminated together (in one hand, or one hand-for-hand round) place by their
//!   chips at the start of that hand: more chips, better place (TDA). Players who started with
//!   equal stacks share the prizes of the places they take together equally; the cents that
//!   do not divide go one each to them in entry order. Each still gets a distinct place number
//!   (in entry order) so the results list holds every place exactly once.

use crate::spec::{BasisPoints, Cents, WHOLE};

/// How many places a field of `entries` pays by default.
pub fn paid_places(entries: u32) -> u32 {
    match entries {
        0..=4 => 1,
        5..=8 => 2,
        9..=16 => 3,
        n => ((u64::from(n) * 15 + 50) / 100).max(3) as u32,
    }
}

/// The default payout table (basis points by place) for a field of `entries`.
pub fn default_payouts(entries: u32) -> Vec<BasisPoints> {
    let places = paid_places(entries);
    match places {
        1 => vec![WHOLE],
        2 => vec![6_500, 3_500],
        3 => vec![5_000, 3_000, 2_000],
        k => harmonic(k, entries),
    }
}

/// `k` places of a field of `n > k`: a floor of `ceil(10,000 / n)` each, the rest by `1 / place`.
fn harmonic(k: u32, n: u32) -> Vec<BasisPoints> {
    let floor = WHOLE.div_ceil(n.max(1));
    let rest = u128::from(WHOLE.saturating_sub(floor * k));
    // Weights 1/i on a common scale; the rounding of the scale is far below a basis point.
    const SCALE: u128 = 1 << 64;
    let weights: Vec<u128> = (1..=u128::from(k)).map(|i| SCALE / i).collect();
    let total: u128 = weights.iter().sum();
    let mut points: Vec<BasisPoints> =
        weights.iter().map(|w| floor + (rest * w / total.max(1)) as BasisPoints).collect();
    let short = WHOLE.saturating_sub(points.iter().sum());
    for p in points.iter_mut().take(short as usize) {
        *p += 1;
    }
    points
}

/// The prize of each paid place: the pool split in proportion to `points` (a payout table adds
/// up to 10,000; a table cut to the places a field has, less), the leftover cents one each to
/// the top places. Adds up to `pool` whenever some place has points.
pub fn prizes(pool: Cents, points: &[BasisPoints]) -> Vec<Cents> {
    let total = u128::from(points.iter().map(|&p| u64::from(p)).sum::<u64>().max(1));
    let mut out: Vec<Cents> = points.iter().map(|&p| (u128::from(pool) * u128::from(p) / total) as Cents).collect();
    let paid: Cents = out.iter().sum();
    let left = pool.saturating_sub(paid);
    for cents in out.iter_mut().take(left as usize) {
        *cents += 1;
    }
    out
}

/// Places and prizes for a group eliminated together.
///
/// `group` is (entry number, chips at the start of the hand); `best` is the best place the
/// group takes (the number of entries left after it, plus one); `prizes` the prize of each
/// place from 1st. Returns (entry, place, prize) from the best place down.
pub fn place_group(group: &[(u32, u64)], best: u32, prizes: &[Cents]) -> Vec<(u32, u32, Cents)> {
    let mut sorted = group.to_vec();
    // More chips first; equal chips in entry order (for the place number only).
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let prize_of = |place: u32| prizes.get(place as usize - 1).copied().unwrap_or(0);
    let mut out = Vec::with_capacity(sorted.len());
    let mut i = 0;
    while i < sorted.len() {
        let stack = sorted[i].1;
        let tied = sorted[i..].iter().take_while(|e| e.1 == stack).count();
        let first = best + i as u32;
        let share: Cents = (first..first + tied as u32).map(prize_of).sum();
        let each = share / tied as Cents;
        let odd = share % tied as Cents;
        for (j, &(entry, _)) in sorted[i..i + tied].iter().enumerate() {
            let cents = each + Cents::from((j as Cents) < odd);
            out.push((entry, first + j as u32, cents));
        }
        i += tied;
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn paid_places_follow_the_field_size() {
        let places: Vec<u32> = [2, 4, 5, 8, 9, 16, 17, 20, 24, 27, 64, 100, 1000].map(paid_places).to_vec();
        assert_eq!(places, [1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 10, 15, 150]);
        assert_eq!(default_payouts(4), [10_000]);
        assert_eq!(default_payouts(6), [6_500, 3_500]);
        assert_eq!(default_payouts(12), [5_000, 3_000, 2_000]);
        // 1,000 entries: 150 paid, about 15% to the winner; 150th gets the floor of 10 points (one
        // entry) plus 8500 / 150 / H(150) = 10.1 points of the curve: two entries back.
        let big = default_payouts(1_000);
        assert!((1_500..1_600).contains(&big[0]), "{}", big[0]);
        assert_eq!(big.last(), Some(&20));
    }

    #[test]
    fn a_24_entry_field_pays_four() {
        // A floor of ceil(10000 / 24) = 417 each; the other 8332 by 1, 1/2, 1/3, 1/4 (sum 25/12):
        // 3999, 1999, 1333, 999 (floors), 2 points short, one each to 1st and 2nd.
        assert_eq!(default_payouts(24), [4_417, 2_417, 1_750, 1_416]);
    }

    #[test]
    fn prizes_add_up_and_leftover_cents_go_to_the_top() {
        // 1001 cents at 50/30/20: 500 + 300 + 200 = 1000, one cent left for 1st.
        assert_eq!(prizes(1_001, &[5_000, 3_000, 2_000]), [501, 300, 200]);
        // 1002 cents by thirds (3334/3333/3333): 334.0668.. -> 334, 333, 333: 2 left.
        assert_eq!(prizes(1_002, &[3_334, 3_333, 3_333]), [335, 334, 333]);
        assert_eq!(prizes(0, &[10_000]), [0]);
    }

    #[test]
    fn same_hand_eliminations_place_by_starting_stack() {
        let prizes = [500, 300, 200];
        // Entries 7 (started with 40) and 9 (started with 90) bust together with 2 left:
        // they take places 3 and 4; the bigger stack takes 3rd.
        let placed = place_group(&[(7, 40), (9, 90)], 3, &prizes);
        assert_eq!(placed, [(9, 3, 200), (7, 4, 0)]);
        // Equal stacks share 2nd and 3rd: (300 + 200) / 2 each.
        let placed = place_group(&[(5, 60), (2, 60)], 2, &prizes);
        assert_eq!(placed, [(2, 2, 250), (5, 3, 250)]);
        // Odd cents go one each in entry order: 301 + 200 = 501 -> 251, 250.
        let placed = place_group(&[(5, 60), (2, 60)], 2, &[500, 301, 200]);
        assert_eq!(placed, [(2, 2, 251), (5, 3, 250)]);
        // Three equal stacks across the bubble share 3rd (200) with two unpaid places.
        let placed = place_group(&[(1, 10), (2, 10), (3, 10)], 3, &prizes);
        assert_eq!(placed, [(1, 3, 67), (2, 4, 67), (3, 5, 66)]);
    }

    proptest! {
        #[test]
        fn default_tables_are_whole_sorted_and_pay_at_least_the_entry(entries in 2u32..12_000) {
            let table = default_payouts(entries);
            prop_assert_eq!(table.len() as u32, paid_places(entries));
            prop_assert!(table.len() as u32 <= entries);
            prop_assert_eq!(table.iter().sum::<u32>(), WHOLE);
            prop_assert!(table.windows(2).all(|w| w[0] >= w[1]), "{:?}", table);
            // The smallest prize returns at least the entry fee: points >= 10000 / entries.
            let last = *table.last().unwrap();
            prop_assert!(u64::from(last) * u64::from(entries) >= u64::from(WHOLE), "{} of {}", last, entries);
        }

        #[test]
        fn prizes_pay_the_pool_in_full(entries in 2u32..5_000, fee in 0u64..1_000_000_000) {
            let pool = fee * u64::from(entries);
            let table = default_payouts(entries);
            let paid = prizes(pool, &table);
            prop_assert_eq!(paid.iter().sum::<u64>(), pool);
            prop_assert!(paid.windows(2).all(|w| w[0] >= w[1]));
            prop_assert!(*paid.last().unwrap() >= fee);
        }

        #[test]
        fn a_group_gets_exactly_its_places_prizes(
            stacks in proptest::collection::vec(1u64..5, 1..8),
            best in 1u32..6,
            pool in 0u64..100_000,
        ) {
            let prizes = prizes(pool, &[5_000, 3_000, 2_000]);
            let group: Vec<(u32, u64)> = stacks.iter().enumerate().map(|(i, &s)| (i as u32, s)).collect();
            let placed = place_group(&group, best, &prizes);
            let places: Vec<u32> = placed.iter().map(|p| p.1).collect();
            let expected: Vec<u32> = (best..best + group.len() as u32).collect();
            prop_assert_eq!(places, expected.clone());
            let owed: u64 = expected.iter().map(|&p| prizes.get(p as usize - 1).copied().unwrap_or(0)).sum();
            prop_assert_eq!(placed.iter().map(|p| p.2).sum::<u64>(), owed);
            // A bigger starting stack never gets less, equal stacks differ by at most a cent.
            for a in &placed {
                for b in &placed {
                    let (sa, sb) = (group[a.0 as usize].1, group[b.0 as usize].1);
                    if sa > sb { prop_assert!(a.2 >= b.2 && a.1 < b.1); }
                    if sa == sb { prop_assert!(a.2.abs_diff(b.2) <= 1); }
                }
            }
        }
    }
}
