//! Evaluator tests against independent, deliberately naive reference implementations.
//!
//! The fast evaluators are checked exhaustively where that is cheap (every 5-card hand, every
//! rank multiset of 5, 6 and 7 cards, every flush mask) and on seeded random hands otherwise.

use super::*;
use crate::card::{Suit, parse_cards};

// ---------------------------------------------------------------------------------------------
// Naive reference evaluators (5 cards), written for obviousness, not speed.

/// Naive high value of 5 cards: the category, then the ranks (0 = Two .. 12 = Ace) that
/// break ties, in the order they are compared. Comparing these tuples compares the hands.
fn naive_high(cards: &[Card]) -> (HandCategory, [u8; 5]) {
    assert_eq!(cards.len(), 5);
    let mut ranks: Vec<u8> = cards.iter().map(|c| c.rank().index()).collect();
    ranks.sort_unstable_by(|a, b| b.cmp(a));
    let flush = cards.iter().all(|c| c.suit() == cards[0].suit());
    let mut distinct = ranks.clone();
    distinct.dedup();
    let straight_top = if distinct.len() == 5 && ranks[0] - ranks[4] == 4 {
        Some(ranks[0])
    } else if ranks == [12, 3, 2, 1, 0] {
        Some(3) // the wheel: five high
    } else {
        None
    };
    // Groups of equal rank: biggest group first, then highest rank first.
    let mut groups: Vec<(usize, u8)> =
        distinct.iter().map(|&r| (ranks.iter().filter(|&&x| x == r).count(), r)).collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let sizes: Vec<usize> = groups.iter().map(|g| g.0).collect();
    let mut order = [0u8; 5];
    for (slot, g) in order.iter_mut().zip(&groups) {
        *slot = g.1;
    }
    let category = match (straight_top, flush, sizes.as_slice()) {
        (Some(top), true, _) => return (HandCategory::StraightFlush, [top, 0, 0, 0, 0]),
        (_, _, [4, 1]) => HandCategory::FourOfAKind,
        (_, _, [3, 2]) => HandCategory::FullHouse,
        (_, true, _) => HandCategory::Flush,
        (Some(top), _, _) => return (HandCategory::Straight, [top, 0, 0, 0, 0]),
        (_, _, [3, 1, 1]) => HandCategory::ThreeOfAKind,
        (_, _, [2, 2, 1]) => HandCategory::TwoPair,
        (_, _, [2, 1, 1, 1]) => HandCategory::OnePair,
        _ => HandCategory::HighCard,
    };
    (category, order)
}

/// The naive ace-to-five comparison key: group sizes, then group ranks (see [`naive_low`]).
type NaiveLow = (Vec<usize>, Vec<u8>);

/// Naive ace-to-five "badness" of 5 cards (smaller is a better low): the group sizes, biggest
/// first (so no pair < one pair < two pair < trips < full house < quads, by comparing the
/// lists), then the group ranks with aces as 1, biggest group first then highest first.
fn naive_low(cards: &[Card]) -> NaiveLow {
    assert_eq!(cards.len(), 5);
    let low_rank = |c: &Card| if c.rank() == Rank::Ace { 1 } else { c.rank().index() + 2 };
    let mut ranks: Vec<u8> = cards.iter().map(low_rank).collect();
    ranks.sort_unstable();
    ranks.dedup();
    let mut groups: Vec<(usize, u8)> =
        ranks.iter().map(|&r| (cards.iter().filter(|c| low_rank(c) == r).count(), r)).collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    (groups.iter().map(|g| g.0).collect(), groups.iter().map(|g| g.1).collect())
}

/// Does this 5-card hand qualify as an 8-or-better low?
fn naive_qualifies8(cards: &[Card]) -> bool {
    let (sizes, ranks) = naive_low(cards);
    sizes.len() == 5 && ranks.iter().all(|&r| r <= 8)
}

/// All 5-card subsets of `cards`.
fn subsets5(cards: &[Card]) -> Vec<[Card; 5]> {
    let n = cards.len();
    let mut out = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    for e in d + 1..n {
                        out.push([cards[a], cards[b], cards[c], cards[d], cards[e]]);
                    }
                }
            }
        }
    }
    out
}

fn card(rank: usize, suit: usize) -> Card {
    Card::new(Rank::ALL[rank], Suit::ALL[suit])
}

fn cards(s: &str) -> Vec<Card> {
    parse_cards(&s.replace(' ', "")).unwrap()
}

/// SplitMix64: a tiny deterministic generator for the random tests.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// `n` distinct random cards.
    fn hand(&mut self, n: usize) -> Vec<Card> {
        let mut used = 0u64;
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            let id = (self.next_u64() % 52) as u8;
            if used & (1 << id) == 0 {
                used |= 1 << id;
                out.extend(Card::from_id(id));
            }
        }
        out
    }
}

/// A hand with the given rank counts and no flush: card `j` (in rank order) gets suit
/// `j % 4`, so a rank's cards have distinct suits and no suit has more than two of 7 cards.
fn hand_of_counts(counts: &[u8; 13]) -> Vec<Card> {
    let mut out = Vec::new();
    for (rank, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            out.push(card(rank, out.len() % 4));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// High hands

#[test]
fn every_five_card_hand_matches_the_naive_evaluator() {
    // The naive value seen for each HighRank value, and per-category hand counts.
    let mut by_value: Vec<Option<(HandCategory, [u8; 5])>> = vec![None; 7462];
    let mut hands_per_category = [0u32; 9];
    let all: Vec<Card> = Card::all().collect();
    for hand in subsets5(&all) {
        let rank = eval_high(&hand);
        let naive = naive_high(&hand);
        assert_eq!(rank.category(), naive.0, "{hand:?}");
        hands_per_category[naive.0 as usize] += 1;
        let seen = &mut by_value[usize::from(rank.value())];
        match seen {
            Some(prev) => assert_eq!(*prev, naive, "{hand:?} shares a value with another class"),
            None => *seen = Some(naive),
        }
    }
    // Exactly 7462 values, all used, and their order is the naive order.
    let naive_in_value_order: Vec<(HandCategory, [u8; 5])> =
        by_value.into_iter().map(|v| v.expect("every value 0..7462 is used")).collect();
    assert!(naive_in_value_order.windows(2).all(|w| w[0] < w[1]));
    let mut classes_per_category = [0u32; 9];
    for (category, _) in &naive_in_value_order {
        classes_per_category[*category as usize] += 1;
    }
    assert_eq!(hands_per_category, [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]);
    assert_eq!(classes_per_category, [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]);
}

#[test]
fn every_rank_multiset_matches_its_best_five() {
    // Non-flush hands of 6 and 7 cards, one per rank multiset: the table value must be the
    // best of the 5-card subsets (themselves checked exhaustively above), for the high hand,
    // the ace-to-five low and the 8-or-better low.
    for counts in tables::rank_multisets() {
        let hand = hand_of_counts(&counts);
        let subsets = subsets5(&hand);
        let high = subsets.iter().map(|s| eval_high(s)).max();
        assert_eq!(Some(eval_high(&hand)), high, "{hand:?}");
        let best_low = subsets.iter().min_by_key(|s| naive_low(&s[..])).map(|s| eval_low_a5(s));
        assert_eq!(Some(eval_low_a5(&hand)), best_low, "{hand:?}");
        let best_low8 = subsets
            .iter()
            .filter(|s| naive_qualifies8(&s[..]))
            .min_by_key(|s| naive_low(&s[..]))
            .map(|s| eval_low_a5(s));
        assert_eq!(eval_low8(&hand), best_low8, "{hand:?}");
        assert_eq!(eval_hilo8(&hand), (eval_high(&hand), best_low8));
    }
}

#[test]
fn every_flush_matches_its_best_five() {
    for mask in (0u32..8192).filter(|m| (5..=7).contains(&m.count_ones())) {
        let hand: Vec<Card> = (0..13).filter(|r| mask & (1 << r) != 0).map(|r| card(r, 3)).collect();
        let best = subsets5(&hand).iter().map(|s| eval_high(s)).max();
        assert_eq!(Some(eval_high(&hand)), best, "{hand:?}");
        let category = eval_high(&hand).category();
        assert!(category == HandCategory::Flush || category == HandCategory::StraightFlush);
    }
}

#[test]
fn the_rank_hash_has_no_collisions() {
    let multisets = tables::rank_multisets();
    for (n, layout) in [(5, tables::FIVE), (6, tables::SIX), (7, tables::SEVEN)] {
        let mut slots: Vec<usize> = multisets
            .iter()
            .filter(|c| c.iter().sum::<u8>() == n)
            .map(|c| layout.slot(&TABLES.rank, tables::rank_key(c)))
            .collect();
        let total = slots.len();
        slots.sort_unstable();
        slots.dedup();
        assert_eq!(slots.len(), total, "{n}-card multisets collide");
    }
    assert_eq!(multisets.len(), 6_175 + 18_395 + 49_205);
}

/// Random 7-card (and 6-card) hands: every evaluator against the best of its 5-card subsets.
fn check_random_hands(seed: u64, count: usize, size: usize) {
    let mut rng = Rng(seed);
    for _ in 0..count {
        let hand = rng.hand(size);
        let subsets = subsets5(&hand);
        let high = eval_high(&hand);
        assert_eq!(Some(high), subsets.iter().map(|s| eval_high(s)).max(), "{hand:?}");
        let best = subsets.iter().min_by_key(|s| naive_low(&s[..]));
        let low = eval_low_a5(&hand);
        assert_eq!(Some(low), best.map(|s| eval_low_a5(s)), "{hand:?}");
        let best8 = subsets.iter().filter(|s| naive_qualifies8(&s[..])).min_by_key(|s| naive_low(&s[..]));
        let low8 = eval_low8(&hand);
        assert_eq!(low8, best8.map(|s| eval_low_a5(s)), "{hand:?}");
        assert_eq!(eval_hilo8(&hand), (high, low8));
        if let Ok(ids) = <[u8; 7]>::try_from(hand.iter().map(|c| c.id()).collect::<Vec<_>>()) {
            assert_eq!(eval_high_ids(&ids), high);
            assert_eq!(eval_low_a5_ids(&ids), low);
            assert_eq!(eval_hilo8_ids(&ids), (high, low8));
        }
    }
}

#[test]
fn random_seven_card_hands_a() {
    check_random_hands(1, 400_000, 7);
}

#[test]
fn random_seven_card_hands_b() {
    check_random_hands(2, 400_000, 7);
}

#[test]
fn random_seven_card_hands_c() {
    check_random_hands(3, 400_000, 7);
}

#[test]
fn random_six_card_hands() {
    check_random_hands(4, 300_000, 6);
}

#[test]
fn random_seven_card_flushes() {
    // Flushes are 3% of random hands: also check hands forced to hold 5+ of one suit.
    let mut rng = Rng(5);
    for _ in 0..100_000 {
        let suited: Vec<Card> = rng.hand(52).into_iter().filter(|c| c.suit() == Suit::Hearts).collect();
        let mut hand: Vec<Card> = suited.into_iter().take(5 + (rng.next_u64() % 3) as usize).collect();
        let rest: Vec<Card> = rng.hand(52).into_iter().filter(|c| !hand.contains(c)).take(7 - hand.len()).collect();
        hand.extend(rest);
        let best = subsets5(&hand).iter().map(|s| eval_high(s)).max();
        assert_eq!(Some(eval_high(&hand)), best, "{hand:?}");
    }
}

#[test]
fn categories_of_known_hands() {
    let cases = [
        ("As Ks Qs Js Ts 2c 2d", HandCategory::StraightFlush),
        ("Ac Ad Ah As 2c", HandCategory::FourOfAKind),
        ("Ks Kd Kh 7c 7d 7s 2c", HandCategory::FullHouse),
        ("Ah 9h 7h 4h 2h 2c 2d", HandCategory::Flush),
        ("As 2d 3h 4c 5d Kc Kd", HandCategory::Straight),
        ("7c 7d 7h Ks 2c 3d", HandCategory::ThreeOfAKind),
        ("Ac Ad 8h 8s 2c 2d 3h", HandCategory::TwoPair),
        ("Kc Kd 8h 7s 2c", HandCategory::OnePair),
        ("Ac Jd 8h 7s 2c 3d 4h", HandCategory::HighCard),
    ];
    for (hand, category) in cases {
        assert_eq!(eval_high(&cards(hand)).category(), category, "{hand}");
    }
    // The extremes of the scale.
    assert_eq!(eval_high(&cards("7c 5d 4h 3s 2c")).value(), 0);
    assert_eq!(eval_high(&cards("As Ks Qs Js Ts")).value(), 7461);
    // The wheel is the lowest straight, the steel wheel the lowest straight flush.
    assert!(eval_high(&cards("As 2d 3h 4c 5d")) < eval_high(&cards("2s 3d 4h 5c 6d")));
    assert!(eval_high(&cards("As 2s 3s 4s 5s")) < eval_high(&cards("2h 3h 4h 5h 6h")));
    assert!(eval_high(&cards("As 2s 3s 4s 5s")) > eval_high(&cards("Ac Ad Ah As Kc")));
}

#[test]
fn high_names() {
    let cases = [
        ("As Ks Qs Js Ts", "Royal flush"),
        ("9h Kh Qh Jh Th 2c 3c", "Straight flush, King high"),
        ("As 2s 3s 4s 5s", "Straight flush, Five high"),
        ("Ac Ad Ah As 2c", "Four of a kind, Aces"),
        ("Ks Kd Kh 7c 7d", "Full house, Kings full of Sevens"),
        ("Ks Kd Kh 7c 7d 7s 2c", "Full house, Kings full of Sevens"),
        ("Ah 9h 7h 4h 2h", "Flush, Ace high"),
        ("9c 8d 7h 6s 5c", "Straight, Nine high"),
        ("As 2d 3h 4c 5d", "Straight, Five high"),
        ("7c 7d 7h Ks 2c", "Three of a kind, Sevens"),
        ("Ac Ad 8h 8s 2c", "Two pair, Aces and Eights"),
        ("Ac Ad 8h 8s 2c 2d Kh", "Two pair, Aces and Eights"),
        ("Kc Kd 8h 7s 2c", "Pair of Kings"),
        ("6c 6d 8h 7s 2c", "Pair of Sixes"),
        ("Ac Jd 8h 7s 2c", "High card, Ace"),
    ];
    for (hand, name) in cases {
        assert_eq!(eval_high(&cards(hand)).name(), name, "{hand}");
    }
}

// ---------------------------------------------------------------------------------------------
// Lows

#[test]
fn low_classes_match_the_naive_order() {
    // One hand per 5-card rank multiset: 6175 distinct a5 values whose order is the naive
    // order, and 56 distinct qualifying 8-or-better lows at the top of the same scale.
    let mut seen: Vec<(u16, NaiveLow)> = Vec::new();
    let mut low8 = Vec::new();
    for counts in tables::rank_multisets().iter().filter(|c| c.iter().sum::<u8>() == 5) {
        let hand = hand_of_counts(counts);
        let value = eval_low_a5(&hand);
        seen.push((value.value(), naive_low(&hand)));
        assert_eq!(eval_low8(&hand).is_some(), naive_qualifies8(&hand), "{hand:?}");
        if let Some(l) = eval_low8(&hand) {
            assert_eq!(l, value);
            low8.push(l);
        }
    }
    seen.sort_unstable_by_key(|s| std::cmp::Reverse(s.0));
    assert_eq!(seen.len(), 6175);
    assert!(seen.windows(2).all(|w| w[0].0 > w[1].0 && w[0].1 < w[1].1));
    assert_eq!(seen[0].0, 6174);
    assert_eq!(seen[6174].0, 0);
    low8.sort_unstable();
    low8.dedup();
    assert_eq!(low8.len(), 56);
    assert_eq!(low8[0], eval_low_a5(&cards("8c 7d 6h 5s 4c")));
    assert_eq!(low8[0].value(), 6119);
}

#[test]
fn known_lows() {
    let wheel = eval_low_a5(&cards("5c 4d 3h 2s Ac"));
    assert_eq!(wheel.value(), 6174);
    assert_eq!(wheel.name(), "5-4-3-2-A");
    // Straights and flushes do not count against a low.
    assert_eq!(eval_low_a5(&cards("5c 4c 3c 2c Ac")), wheel);
    assert_eq!(eval_low8(&cards("5c 4c 3c 2c Ac Kd Kh")), Some(wheel));
    let eight = eval_low_a5(&cards("8c 6d 4h 2s Ac Kd Qh"));
    assert_eq!(eight.name(), "8-6-4-2-A");
    assert_eq!(eval_low8(&cards("8c 6d 4h 2s Ac Kd Qh")), Some(eight));
    assert!(eight < wheel);
    assert!(eval_low_a5(&cards("8c 6d 4h 3s 2c")) < eight);
    // Pairs are bad; a paired low loses to any unpaired one.
    let pair = eval_low_a5(&cards("2c 2d Kh Qs Jc"));
    assert_eq!(pair.name(), "Pair of Twos, K-Q-J");
    assert!(pair < eval_low_a5(&cards("Kc Qd Jh Ts 9c")));
    assert!(pair > eval_low_a5(&cards("3c 3d 4h 5s 6c")));
    assert_eq!(eval_low_a5(&cards("9c 9d 9h Ks Kc")).name(), "Full house, Nines full of Kings");
    assert_eq!(eval_low_a5(&cards("5c 5d 3h 3s Ac")).name(), "Two pair, Fives and Threes, A");
    assert_eq!(eval_low_a5(&cards("Kc Kd Kh Ks Qc")).value(), 0);
    // The razz hand plays its best five of seven; no 8-or-better low with a 9.
    let hand = cards("Kc Kd 9h 7s 5c 3d 2h");
    assert_eq!(eval_low_a5(&hand).name(), "9-7-5-3-2");
    assert_eq!(eval_low8(&hand), None);
    assert_eq!(eval_hilo8(&hand).1, None);
    // Five different low ranks are needed: A-A-2-3-4-5 has one, A-2-3-4-4-K-K none.
    assert_eq!(eval_low8(&cards("Ac Ad 2h 3s 4c 5d Kh")), Some(wheel));
    assert_eq!(eval_low8(&cards("Ac 2d 3h 4s 4c Kd Kh")), None);
}

// ---------------------------------------------------------------------------------------------
// Boards

#[test]
fn high_boards() {
    let b = |s: &str| board_high(&cards(s));
    assert!(b("2c 2d") > b("Ac Kd"));
    assert!(b("Ac Kd") > b("Ac Qd"));
    assert!(b("7c 7d 7h 2s") > b("Ac Ad Kh Ks"));
    assert!(b("7c 7d 7h 7s") > b("Ac Ad Ah Ks"));
    assert!(b("Ac Ad Kh Ks") > b("Ac Ad Qh Qs"));
    assert!(b("5c 5d 3h 3s") > b("Ac Ad Kh Qs"));
    assert!(b("Ac Ad Kh Qs") > b("Ac Ad Kh Js"));
    assert!(b("Kc Qd Jh Ts") < b("2c 2d 3h 4s"));
    assert!(b("8c 8d") > b("7c 7d"));
    assert!(b("Ac") > b("Kc"));
    assert_eq!(b("Ac Kd 7h"), b("As Kh 7c"));
    assert_eq!(b("9c 9d 4h"), b("9h 9s 4c"));
    assert_eq!(b(""), b(""));
    // Order and suits of the up cards do not matter; flushes and straights do not count.
    assert_eq!(b("Kd 9c 9d"), b("9h Ks 9s"));
    assert!(b("9h 8h 7h 6h") < b("2c 2d 3h 4s"));
    assert!(b("9h 8h 7h 6h") < b("Th 8c 7d 6s"));
}

#[test]
fn low_boards() {
    let b = |s: &str| board_low(&cards(s));
    assert!(b("Ac 2d") > b("3c 4d"));
    assert!(b("7c 5d") > b("7h 6s"));
    assert!(b("Kc Qd") > b("2c 2d"));
    assert!(b("Kc Qd") > b("Ac Ad"));
    assert!(b("Ac") > b("2c"));
    assert!(b("8c 2d 3h") > b("9c Ad 2h"));
    assert!(b("2c 2d 3h") > b("3c 3d 2h"));
    assert!(b("Kc Qd Jh Ts") > b("Ac Ad 2h 3s"));
    assert!(b("Ac Ad 2h 3s") > b("Ac Ad 2h 2s"));
    assert!(b("5c 5d 2h 2s") > b("4c 4d 4h 2s"));
    assert_eq!(b("7c 4d 2h"), b("2s 7h 4c"));
    assert_eq!(b(""), b(""));
    // Straights and flushes do not hurt a razz board.
    assert_eq!(b("Ah 2h 3h 4h"), b("Ac 2d 3h 4s"));
}

/// Naive board strength: the category, then the groups' strengths, largest groups first
/// and highest first within a size. `strength` maps a rank to 0 (weakest) ..= 12.
fn naive_board(ranks: &[u8], strength: impl Fn(u8) -> u8) -> (u8, Vec<u8>) {
    let mut counts = [0u8; 13];
    for &r in ranks {
        counts[usize::from(strength(r))] += 1;
    }
    let mut groups: Vec<(u8, u8)> =
        (0..13u8).filter(|&s| counts[usize::from(s)] > 0).map(|s| (counts[usize::from(s)], s)).collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let category = match (groups.first().map_or(0, |g| g.0), groups.get(1).map_or(0, |g| g.0)) {
        (4, _) => 5,
        (3, _) => 3,
        (2, 2) => 2,
        (2, _) => 1,
        _ => 0,
    };
    (category, groups.into_iter().map(|g| g.1).collect())
}

#[test]
fn boards_order_as_the_naive_reference_for_every_rank_multiset() {
    // Every multiset of 0..=4 ranks, as cards of distinct suits.
    let mut boards: Vec<Vec<u8>> = vec![vec![]];
    for size in 1..=4 {
        let mut next = Vec::new();
        for b in boards.iter().filter(|b| b.len() == size - 1) {
            let from = b.last().copied().unwrap_or(0);
            for r in from..13 {
                if b.iter().filter(|&&x| x == r).count() < 4 {
                    let mut nb = b.clone();
                    nb.push(r);
                    next.push(nb);
                }
            }
        }
        boards.extend(next);
    }
    assert_eq!(boards.len(), 1 + 13 + 91 + 455 + 1820);
    let to_cards = |ranks: &[u8]| -> Vec<Card> {
        let mut seen = [0usize; 13];
        ranks
            .iter()
            .map(|&r| {
                let suit = Suit::ALL[seen[usize::from(r)]];
                seen[usize::from(r)] += 1;
                Card::new(Rank::ALL[usize::from(r)], suit)
            })
            .collect()
    };
    for size in 0..=4 {
        let same: Vec<&Vec<u8>> = boards.iter().filter(|b| b.len() == size).collect();
        for a in &same {
            for b in &same {
                let (ca, cb) = (to_cards(a), to_cards(b));
                let high = naive_board(a, |r| r).cmp(&naive_board(b, |r| r));
                assert_eq!(board_high(&ca).cmp(&board_high(&cb)), high, "high boards {a:?} vs {b:?}");
                // Razz: aces low, and the lower board ranks higher.
                let low_strength = |r: u8| (r + 1) % 13;
                let low = naive_board(b, low_strength).cmp(&naive_board(a, low_strength));
                assert_eq!(board_low(&ca).cmp(&board_low(&cb)), low, "razz boards {a:?} vs {b:?}");
            }
        }
    }
}

/// A board fed more cards than a board holds (even five of one rank, which no deck deals)
/// gives some rank, never a panic or an overflow.
#[test]
fn an_overfull_board_never_panics() {
    let ace = Card::new(Rank::Ace, Suit::Spades);
    let mut b = Board::default();
    for _ in 0..9 {
        b = b.with_high(ace).with_low(ace);
        let _ = (b.rank_high(), b.rank_low());
    }
    assert!(b.rank_low().value() <= BoardRank::LIMIT);
}
