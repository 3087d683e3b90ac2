//! Hand evaluators: high hands (stud, the high half of stud8), ace-to-five lows (razz),
//! 8-or-better lows (the low half of stud8), and the board ranking that decides who acts
//! first (RULES.md sections 4 and 5).
//!
//! Every evaluator takes the best five cards out of 5, 6 or 7 and returns a value that
//! compares with `<`/`>`: a greater [`HighRank`] is a better high hand, a greater [`LowRank`]
//! is a better (lower) low hand, a greater [`BoardRank`] acts first. Equal values tie; suits
//! never break a tie.
//!
//! The 7-card evaluation is table driven, with no loop over 5-card subsets: each card adds a
//! precomputed 64-bit key (rank counters and suit counters side by side), the rank part is
//! hashed perfectly into a table of every 5..7-card rank multiset (giving the best non-flush
//! high hand and the best ace-to-five low at once), a flush is looked up by the rank mask of
//! its suit, and the 8-or-better low comes from the mask of distinct ranks A..8. The tables
//! (about 0.45 MiB) are built on first use, in about 30 ms; see the `tables` module.
//! The `*_ids` entry points take raw card ids (`rank * 4 + suit`) for simulations and
//! benchmarks.

mod tables;
#[cfg(test)]
mod tests;

use crate::card::{Card, Rank};
use std::sync::LazyLock;
use tables::{CARD_KEYS, FLUSH_BITS, KEY_INIT, LOW_CLASSES, Layout, SEVEN, TABLES, Tables, flush_mask, low8_index};

/// The category of a high hand, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum HandCategory {
    /// No pair, no straight, no flush.
    HighCard,
    /// Two cards of one rank.
    OnePair,
    /// Two pairs.
    TwoPair,
    /// Three cards of one rank.
    ThreeOfAKind,
    /// Five ranks in sequence (A-2-3-4-5 is the lowest, T-J-Q-K-A the highest).
    Straight,
    /// Five cards of one suit.
    Flush,
    /// Three of a kind and a pair.
    FullHouse,
    /// Four cards of one rank.
    FourOfAKind,
    /// A straight in one suit; the ace-high one is the royal flush.
    StraightFlush,
}

/// First high value of each category, in [`HandCategory`] order.
const CATEGORY_START: [u16; 9] = [0, 1277, 4137, 4995, 5853, 5863, 7140, 7296, 7452];

/// The value of a high hand (the best five cards): greater is better, equal ties.
///
/// There are exactly 7462 values, `0` (7-5-4-3-2) to `7461` (the royal flush).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HighRank(u16);

impl HighRank {
    /// The hand category.
    pub fn category(self) -> HandCategory {
        match self.0 {
            v if v >= CATEGORY_START[8] => HandCategory::StraightFlush,
            v if v >= CATEGORY_START[7] => HandCategory::FourOfAKind,
            v if v >= CATEGORY_START[6] => HandCategory::FullHouse,
            v if v >= CATEGORY_START[5] => HandCategory::Flush,
            v if v >= CATEGORY_START[4] => HandCategory::Straight,
            v if v >= CATEGORY_START[3] => HandCategory::ThreeOfAKind,
            v if v >= CATEGORY_START[2] => HandCategory::TwoPair,
            v if v >= CATEGORY_START[1] => HandCategory::OnePair,
            _ => HandCategory::HighCard,
        }
    }

    /// The English name, e.g. "Full house, Kings full of Sevens", "Straight, Five high",
    /// "Royal flush".
    pub fn name(self) -> String {
        self.name_str().to_owned()
    }

    /// [`HighRank::name`] without an allocation: every name is written once, on first use,
    /// into a table shared by all hands.
    pub fn name_str(self) -> &'static str {
        static NAMES: LazyLock<Names> = LazyLock::new(|| Names::build(7462, |v| HighRank(v).write_name()));
        NAMES.get(self.0)
    }

    fn write_name(self) -> String {
        let Some(&score) = TABLES.high_scores.get(usize::from(self.0)) else {
            return format!("High hand #{}", self.0);
        };
        let r = |i: u32| rank((score >> (16 - 4 * i)) & 0xF);
        match self.category() {
            HandCategory::StraightFlush if r(0) == Rank::Ace => "Royal flush".to_owned(),
            HandCategory::StraightFlush => format!("Straight flush, {} high", r(0).name()),
            HandCategory::FourOfAKind => format!("Four of a kind, {}", r(0).plural()),
            HandCategory::FullHouse => {
                format!("Full house, {} full of {}", r(0).plural(), r(1).plural())
            }
            HandCategory::Flush => format!("Flush, {} high", r(0).name()),
            HandCategory::Straight => format!("Straight, {} high", r(0).name()),
            HandCategory::ThreeOfAKind => format!("Three of a kind, {}", r(0).plural()),
            HandCategory::TwoPair => format!("Two pair, {} and {}", r(0).plural(), r(1).plural()),
            HandCategory::OnePair => format!("Pair of {}", r(0).plural()),
            HandCategory::HighCard => format!("High card, {}", r(0).name()),
        }
    }

    /// The raw value, `0..7462`.
    pub fn value(self) -> u16 {
        self.0
    }

    /// The ranks that name the hand, as its name says them, then the kickers: two pair,
    /// Kings and Fives with a Nine is `[K, 5, 9]`; a straight or straight flush is its top
    /// card; a flush or high card all five, highest first. For views, not hot paths.
    pub fn ranks(self) -> Vec<Rank> {
        let Some(&score) = TABLES.high_scores.get(usize::from(self.0)) else { return Vec::new() };
        let groups = match self.category() {
            HandCategory::StraightFlush | HandCategory::Straight => 1,
            HandCategory::FourOfAKind | HandCategory::FullHouse => 2,
            HandCategory::ThreeOfAKind | HandCategory::TwoPair => 3,
            HandCategory::OnePair => 4,
            HandCategory::Flush | HandCategory::HighCard => 5,
        };
        (0..groups).map(|i| rank((score >> (16 - 4 * i)) & 0xF)).collect()
    }
}

/// The value of an ace-to-five low hand (the best five cards): greater is a *better* (lower)
/// low, equal ties. 5-4-3-2-A is the maximum, `6174`; 8-7-6-5-4 is `6119`, the worst
/// hand that qualifies for an 8-or-better low. Razz and stud8 lows share this scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LowRank(u16);

impl LowRank {
    /// The name, ranks from high to low with the ace as `A`: "8-6-4-2-A" for an unpaired
    /// low, "Pair of Twos, K-Q-J", "Two pair, Fives and Threes, 7" and so on for paired ones.
    pub fn name(self) -> String {
        self.name_str().to_owned()
    }

    /// [`LowRank::name`] without an allocation (names are written once, on first use).
    pub fn name_str(self) -> &'static str {
        static NAMES: LazyLock<Names> = LazyLock::new(|| Names::build(LOW_CLASSES as u16, |v| LowRank(v).write_name()));
        NAMES.get(self.0)
    }

    fn write_name(self) -> String {
        let badness = (LOW_CLASSES - 1).checked_sub(usize::from(self.0)).and_then(|i| TABLES.low_badness.get(i));
        let Some(&bad) = badness else {
            return format!("Low hand #{}", self.0);
        };
        // Ace-low position p (Ace 0, Two 1, .. King 12) back to a rank.
        let r = |i: u32| rank((((bad >> (16 - 4 * i)) & 0xF) + 12) % 13);
        let run = |from: u32, to: u32| (from..to).map(|i| r(i).symbol().to_string()).collect::<Vec<_>>().join("-");
        match bad >> 20 {
            0 => run(0, 5),
            1 => format!("Pair of {}, {}", r(0).plural(), run(1, 4)),
            2 => format!("Two pair, {} and {}, {}", r(0).plural(), r(1).plural(), run(2, 3)),
            3 => format!("Three of a kind, {}, {}", r(0).plural(), run(1, 3)),
            4 => format!("Full house, {} full of {}", r(0).plural(), r(1).plural()),
            _ => format!("Four of a kind, {}, {}", r(0).plural(), run(1, 2)),
        }
    }

    /// The raw value, `0..6175`.
    pub fn value(self) -> u16 {
        self.0
    }

    /// The low's category: [`HandCategory::HighCard`] for an unpaired low, then pairs, two
    /// pair, trips, full house and quads (no straights or flushes in a low), with the ranks
    /// as [`LowRank::name`] says them (`8-6-4-2-A` is `[8, 6, 4, 2, A]`; a pair of Twos with
    /// K-Q-J is `[2, K, Q, J]`). For views, not hot paths.
    pub fn category_and_ranks(self) -> (HandCategory, Vec<Rank>) {
        let badness = (LOW_CLASSES - 1).checked_sub(usize::from(self.0)).and_then(|i| TABLES.low_badness.get(i));
        let Some(&bad) = badness else { return (HandCategory::HighCard, Vec::new()) };
        let (category, groups) = match bad >> 20 {
            0 => (HandCategory::HighCard, 5),
            1 => (HandCategory::OnePair, 4),
            2 => (HandCategory::TwoPair, 3),
            3 => (HandCategory::ThreeOfAKind, 3),
            4 => (HandCategory::FullHouse, 2),
            _ => (HandCategory::FourOfAKind, 2),
        };
        (category, (0..groups).map(|i| rank((((bad >> (16 - 4 * i)) & 0xF) + 12) % 13)).collect())
    }
}

/// The strength of a partial board (the up cards) for deciding who acts first: the greater
/// board acts first. Only boards with the same number of cards are meant to be compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BoardRank(u64);

impl BoardRank {
    /// No value is greater than this (2^55): a caller may pack a few more bits above one.
    pub const LIMIT: u64 = 1 << 55;

    /// The raw value (an opaque encoding, only its order matters).
    pub fn value(self) -> u64 {
        self.0
    }
}

/// The names of every value of a rank type, each distinct name stored once.
struct Names {
    /// value -> index into `names`
    index: Vec<u16>,
    names: Vec<String>,
}

impl Names {
    fn build(values: u16, name: impl Fn(u16) -> String) -> Names {
        let mut seen = std::collections::HashMap::new();
        let mut names = Vec::new();
        let index = (0..values)
            .map(|v| {
                *seen.entry(name(v)).or_insert_with_key(|n| {
                    names.push(n.clone());
                    (names.len() - 1) as u16
                })
            })
            .collect();
        Names { index, names }
    }

    fn get(&'static self, value: u16) -> &'static str {
        self.index.get(usize::from(value)).and_then(|&i| self.names.get(usize::from(i))).map_or("", String::as_str)
    }
}

fn rank(index: u32) -> Rank {
    Rank::ALL[(index as usize).min(12)]
}

/// The key of a hand: [`KEY_INIT`] plus the key of each card.
#[inline(always)]
fn hand_key(cards: &[Card]) -> u64 {
    cards.iter().fold(KEY_INIT, |k, c| k.wrapping_add(CARD_KEYS[usize::from(c.id())]))
}

/// The key of 7 card ids, summed as a tree (3 dependent additions instead of 7).
#[inline(always)]
fn key7(ids: &[u8; 7]) -> u64 {
    let k = |i: usize| CARD_KEYS[usize::from(ids[i])];
    let a = k(0).wrapping_add(k(1)).wrapping_add(k(2).wrapping_add(k(3)));
    let b = k(4).wrapping_add(k(5)).wrapping_add(k(6).wrapping_add(KEY_INIT));
    a.wrapping_add(b)
}

/// The high value of a hand key, `ids` being the hand's card ids (read only for a flush).
#[inline(always)]
fn high_of_key<I: IntoIterator<Item = u8>>(t: &Tables, key: u64, layout: Layout, ids: impl FnOnce() -> I) -> HighRank {
    if key & FLUSH_BITS != 0 {
        return flush_high(t, key, ids());
    }
    HighRank(t.rank[layout.high_at + layout.slot(&t.rank, key)])
}

/// The high value of a hand with a flush (3% of 7-card hands), kept out of line.
#[cold]
#[inline(never)]
fn flush_high(t: &Tables, key: u64, ids: impl IntoIterator<Item = u8>) -> HighRank {
    HighRank(t.flush[flush_mask(key, ids)])
}

#[inline(always)]
fn low_of_key(t: &Tables, key: u64, layout: Layout) -> LowRank {
    LowRank(t.rank[layout.low_at + layout.slot(&t.rank, key)])
}

#[inline(always)]
fn low8_of_key(t: &Tables, key: u64) -> Option<LowRank> {
    match t.low8[low8_index(key)] {
        0 => None,
        v => Some(LowRank(v)),
    }
}

/// Builds the evaluator's tables now; otherwise the first evaluation builds them (tens of
/// milliseconds). A server starting calls it on a thread of its own while it reads its tables.
pub fn prepare() {
    LazyLock::force(&TABLES);
}

/// The best 5-card high hand of 5, 6 or 7 cards (RULES.md 5, stud).
///
/// Other card counts are a caller bug: debug builds panic, release builds return a
/// meaningless value.
#[inline]
pub fn eval_high(cards: &[Card]) -> HighRank {
    debug_assert!((5..=7).contains(&cards.len()), "eval_high needs 5..=7 cards");
    high_of_key(&TABLES, hand_key(cards), Layout::for_len(cards.len()), || cards.iter().map(|c| c.id()))
}

/// The best 5-card ace-to-five low of 5, 6 or 7 cards (RULES.md 5, razz): aces low,
/// straights and flushes ignored, pairs bad. Every hand has one.
///
/// Other card counts are a caller bug: debug builds panic, release builds return a
/// meaningless value.
#[inline]
pub fn eval_low_a5(cards: &[Card]) -> LowRank {
    debug_assert!((5..=7).contains(&cards.len()), "eval_low_a5 needs 5..=7 cards");
    low_of_key(&TABLES, hand_key(cards), Layout::for_len(cards.len()))
}

/// The best qualifying 8-or-better low of 5, 6 or 7 cards (RULES.md 5, stud8): five
/// different ranks, all 8 or lower, ace low; `None` if the hand has none.
#[inline]
pub fn eval_low8(cards: &[Card]) -> Option<LowRank> {
    low8_of_key(&TABLES, hand_key(cards))
}

/// The high hand and the 8-or-better low of 5, 6 or 7 cards at once (stud8). The two may
/// use different cards.
///
/// Other card counts are a caller bug: debug builds panic, release builds return a
/// meaningless value.
#[inline]
pub fn eval_hilo8(cards: &[Card]) -> (HighRank, Option<LowRank>) {
    debug_assert!((5..=7).contains(&cards.len()), "eval_hilo8 needs 5..=7 cards");
    let (t, key) = (&*TABLES, hand_key(cards));
    (high_of_key(t, key, Layout::for_len(cards.len()), || cards.iter().map(|c| c.id())), low8_of_key(t, key))
}

/// [`eval_high`] of seven raw card ids (`rank * 4 + suit`, each in `0..52`, distinct).
#[inline]
pub fn eval_high_ids(ids: &[u8; 7]) -> HighRank {
    high_of_key(&TABLES, key7(ids), SEVEN, || ids.iter().copied())
}

/// [`eval_low_a5`] of seven raw card ids (`rank * 4 + suit`, each in `0..52`, distinct).
#[inline]
pub fn eval_low_a5_ids(ids: &[u8; 7]) -> LowRank {
    low_of_key(&TABLES, key7(ids), SEVEN)
}

/// [`eval_hilo8`] of seven raw card ids (`rank * 4 + suit`, each in `0..52`, distinct).
#[inline]
pub fn eval_hilo8_ids(ids: &[u8; 7]) -> (HighRank, Option<LowRank>) {
    let (t, key) = (&*TABLES, key7(ids));
    (high_of_key(t, key, SEVEN, || ids.iter().copied()), low8_of_key(t, key))
}

/// A board (the up cards, at most four) built one card at a time, so the hand keeps each
/// player's board as it deals instead of working it out again on every street. Cards past
/// the fourth give a meaningless rank, never a panic.
///
/// It holds one 13-bit mask of rank positions per group size:
/// `quads << 39 | trips << 26 | pairs << 13 | singles`. A position is a rank's strength
/// (0 weakest): the rank index for high boards, ace lowest for razz. The score adds the
/// category on top, `category << 52`: 0 no pair, 1 pair, 2 two pair, 3 trips, 5 quads (a full
/// house needs five cards). Boards of the same size and category hold the same number of
/// groups of each size, so comparing scores as integers compares the groups from the highest
/// down, as poker does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Board(u64);

impl Board {
    /// The lowest bit of each group's mask.
    const GROUPS: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;

    /// The board with `card` added, ranked for stud and stud8 (aces high).
    #[must_use]
    pub fn with_high(self, card: Card) -> Board {
        self.with_position(u32::from(card.rank().index()))
    }

    /// The board with `card` added, ranked for razz (aces low).
    #[must_use]
    pub fn with_low(self, card: Card) -> Board {
        self.with_position((u32::from(card.rank().index()) + 1) % 13)
    }

    /// Moves the position up one group (a single becomes a pair, and so on), or adds it as a
    /// single. No branches: whether a board pairs is the deal's business.
    fn with_position(self, position: u32) -> Board {
        let position = position % 13;
        // At most one group holds the position; `held` is its lowest-group bit, moved there.
        // (Wrapping: a fifth card of one rank, which no deck deals, gives a meaningless board
        // rather than a panic.)
        let held = (self.0 >> position) & Board::GROUPS;
        let moved = (held << position).wrapping_mul((1 << 13) - 1);
        let single = (1u64 << position) & u64::from(held == 0).wrapping_neg();
        Board(self.0.wrapping_add(moved).wrapping_add(single))
    }

    fn score(self) -> u64 {
        let groups = self.0 & ((1 << 52) - 1);
        let (pairs, trips, quads) = ((groups >> 13) & 0x1fff, (groups >> 26) & 0x1fff, groups >> 39);
        let category = if quads != 0 {
            5
        } else if trips != 0 {
            3
        } else {
            u64::from(pairs.count_ones())
        };
        category << 52 | groups
    }

    /// As a stud / stud8 board: see [`board_high`].
    pub fn rank_high(self) -> BoardRank {
        BoardRank(self.score())
    }

    /// As a razz board (built with [`Board::with_low`]): see [`board_low`].
    pub fn rank_low(self) -> BoardRank {
        BoardRank(BoardRank::LIMIT - self.score())
    }
}

/// The rank of a stud / stud8 board (RULES.md 4): the highest board acts first. Boards
/// compare as incomplete poker hands: quads > trips > two pair > pair > high card, then the
/// ranks of the groups and kickers, aces high; straights, flushes and suits do not count.
/// Works for 0..=4 up cards (cards past the fourth are ignored; it never panics).
pub fn board_high(up: &[Card]) -> BoardRank {
    up.iter().take(4).fold(Board::default(), |b, &c| b.with_high(c)).rank_high()
}

/// The rank of a razz board (RULES.md 4): the lowest ace-to-five board gets the greatest
/// rank and acts first. Aces are low and pairs are bad (any unpaired board beats any paired
/// board of the same size); then the highest card is compared first.
/// Works for 0..=4 up cards (cards past the fourth are ignored; it never panics).
pub fn board_low(up: &[Card]) -> BoardRank {
    up.iter().take(4).fold(Board::default(), |b, &c| b.with_low(c)).rank_low()
}
