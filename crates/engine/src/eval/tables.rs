//! Lookup tables behind the evaluators, built once on first use.
//!
//! # The per-card key
//!
//! Every card id maps to a `u64` ([`CARD_KEYS`]); the key of a hand is [`KEY_INIT`] plus the
//! keys of its cards. Because the fields never carry into each other (at most 7 cards), the sum
//! holds, side by side:
//!
//! | bits   | field                                                                   |
//! |--------|-------------------------------------------------------------------------|
//! | 0..32  | eight 4-bit counters of Aces, Twos, .. Eights, each starting at 7       |
//! | 32..44 | `sum(count(r) * HIGH_WEIGHTS[r])` over Nine..King: unique per multiset  |
//! | 48..64 | four 4-bit suit counters, each starting at 3 so bit 3 means "5 or more" |
//!
//! Bits 0..44 therefore identify the rank multiset exactly (the *rank key*), bits 48..64 say
//! whether there is a flush and in which suit (bit 3 of a suit counter is set once the suit
//! has 5 cards), and bit 3 of each low counter says whether the hand holds that rank at all
//! (7 + count >= 8): the distinct ranks A..8 that an 8-or-better low is made of.
//!
//! # The rank tables
//!
//! The rank multisets of each hand size (6,175 of 5 cards, 18,395 of 6, 49,205 of 7) are
//! mapped without collisions onto the slots of their own [`Layout`] in [`Tables::rank`]
//! (2^13, 2^15 and 2^16 slots) by a multiplicative hash followed by row displacement: the top
//! `row_bits` bits of `rank key * HASH_MUL` pick a row, the next `slot_bits` bits a column,
//! and the row's 16-bit offset rotates the column to the final slot. The multiplier makes
//! those top bits distinct for every multiset of the size, so no two multisets of one row
//! share a column; the offsets are found by first-fit placement of the rows, largest first,
//! when the tables are built. Separate sizes keep the 7-card tables, the only ones the
//! `*_ids` entry points touch, small: 16 KiB of offsets and 128 KiB of values per kind.
//!
//! Each slot holds the best high value (ignoring flushes) and the best ace-to-five low value
//! of its multiset, computed by dynamic programming from the 5-card multisets (the best five
//! of n cards is the best of the best fives of the (n - 1)-card sub-multisets).
//!
//! # The other tables
//!
//! [`Tables::flush`] maps the 13-bit rank mask of the flush suit to the best flush or
//! straight flush; [`Tables::low8`] maps the 8-bit mask of distinct ranks A..8 to the best
//! qualifying low (0 when fewer than five are present); it is indexed by a multiplicative
//! hash of the eight presence bits that never mixes masks with different lows.

use std::sync::LazyLock;

/// Weights of the ranks Nine, Ten, Jack, Queen, King in the 12-bit compact field: every
/// multiset of at most 7 cards of these ranks (at most 4 of each) has a distinct weighted sum
/// (greedy smallest such weights; the largest sum, 4 Kings and 3 Queens, is 2420).
const HIGH_WEIGHTS: [u64; 5] = [1, 5, 24, 112, 521];
/// Where the compact Nine..King field starts.
const HIGH_SHIFT: u32 = 32;
/// Where the suit counters start.
pub(super) const SUIT_SHIFT: u32 = 48;
/// The key of the empty hand: every suit counter starts at 3, every low rank counter at 7.
pub(super) const KEY_INIT: u64 = 0x3333 << SUIT_SHIFT | LOW_BIAS;
/// The starting value of the eight low rank counters.
const LOW_BIAS: u64 = 0x7777_7777;
/// Bit 3 of each low rank counter: set when the hand holds a card of that rank.
const LOW_PRESENT: u64 = 0x8888_8888;
/// Bit 3 of each suit counter: set when that suit has 5 or more cards.
pub(super) const FLUSH_BITS: u64 = 0x8888 << SUIT_SHIFT;

/// The rank part of the key of one card of rank `rank` (0 = Two .. 12 = Ace).
const fn rank_part(rank: usize) -> u64 {
    if rank == 12 {
        1
    } else if rank <= 6 {
        1 << (4 * (rank + 1))
    } else {
        HIGH_WEIGHTS[rank - 7] << HIGH_SHIFT
    }
}

const fn card_keys() -> [u64; 256] {
    let mut keys = [0u64; 256];
    let mut id = 0;
    while id < 52 {
        keys[id] = rank_part(id / 4) + (1 << (SUIT_SHIFT as usize + 4 * (id % 4)));
        id += 1;
    }
    keys
}

/// The key of each card id (ids 52.. are not cards and map to 0; 256 entries so that any
/// `u8` indexes without a bounds check).
pub(super) static CARD_KEYS: [u64; 256] = card_keys();

/// Odd multiplier of the rank hash, shifted left by 20 so that the product ignores key bits
/// 44 and up (the suit counters). Chosen (by a search) so that, for the multisets of each
/// size, the top `row_bits + slot_bits` bits of the product are all distinct: no two
/// multisets of one row share a column. `place` checks it when the tables are built.
const HASH_MUL: u64 = 0x033a_c916_ab3d << 20;

/// Where and how the multisets of one size (5, 6 or 7 cards) are hashed into
/// [`Tables::rank`]: `2^row_bits` row offsets, then `2^slot_bits` high values, then as many
/// low values.
#[derive(Debug, Clone, Copy)]
pub(super) struct Layout {
    /// log2 of the number of rows.
    row_bits: u32,
    /// log2 of the number of slots.
    slot_bits: u32,
    /// Where the row offsets start.
    offsets_at: usize,
    /// Where the high values start.
    pub(super) high_at: usize,
    /// Where the low values start.
    pub(super) low_at: usize,
    /// Where the next layout starts.
    end: usize,
}

const fn layout(row_bits: u32, slot_bits: u32, at: usize) -> Layout {
    let high_at = at + (1 << row_bits);
    let low_at = high_at + (1 << slot_bits);
    Layout { row_bits, slot_bits, offsets_at: at, high_at, low_at, end: low_at + (1 << slot_bits) }
}

/// 7-card multisets: 49,205 in 65,536 slots (128 KiB per value kind).
pub(super) const SEVEN: Layout = layout(13, 16, 0);
/// 6-card multisets: 18,395 in 32,768 slots.
pub(super) const SIX: Layout = layout(12, 15, SEVEN.end);
/// 5-card multisets: 6,175 in 8,192 slots.
pub(super) const FIVE: Layout = layout(10, 13, SIX.end);
/// Length of [`Tables::rank`].
pub(super) const RANK_LEN: usize = FIVE.end;

impl Layout {
    /// The layout for hands of `n` cards (5, 6 or 7; other sizes get some layout, and
    /// meaningless values).
    #[inline(always)]
    pub(super) fn for_len(n: usize) -> Layout {
        match n {
            7 => SEVEN,
            6 => SIX,
            _ => FIVE,
        }
    }

    const fn slot_mask(self) -> u32 {
        (1 << self.slot_bits) - 1
    }

    /// The hash of a rank key: (row, column before displacement).
    #[inline(always)]
    fn row_col(self, key: u64) -> (usize, u32) {
        let h = key.wrapping_mul(HASH_MUL);
        ((h >> (64 - self.row_bits)) as usize, (h >> (64 - self.row_bits - self.slot_bits)) as u32 & self.slot_mask())
    }

    /// The slot (`0..2^slot_bits`) of a hand key: add `high_at` or `low_at` to read a value.
    #[inline(always)]
    pub(super) fn slot(self, rank: &[u16; RANK_LEN], key: u64) -> usize {
        let (row, col) = self.row_col(key);
        (col.wrapping_add(u32::from(rank[self.offsets_at + row])) & self.slot_mask()) as usize
    }
}

/// Multiplier of the 8-or-better hash: `(presence bits * LOW8_MUL) >> 56` sends the 256
/// possible sets of distinct ranks A..8 to 256 slots so that two sets share a slot only if
/// they have the same best 8-or-better low (found by a search; checked when the table is
/// built and by the tests).
const LOW8_MUL: u64 = 0x445f_7eff_bfec_33b5;

/// The index into [`Tables::low8`] of a hand key.
#[inline(always)]
pub(super) fn low8_index(key: u64) -> usize {
    ((key & LOW_PRESENT).wrapping_mul(LOW8_MUL) >> 56) as usize
}

/// The 13-bit rank mask of the cards of the flush suit; `key` must have a flush.
#[inline]
pub(super) fn flush_mask(key: u64, ids: impl IntoIterator<Item = u8>) -> usize {
    // Only one suit can have 5 of at most 7 cards.
    let suit = ((key & FLUSH_BITS) >> SUIT_SHIFT).trailing_zeros() / 4;
    let mut mask = 0u32;
    for id in ids {
        if u32::from(id & 3) == suit {
            mask |= 1 << ((id & 63) >> 2);
        }
    }
    (mask & 0x1FFF) as usize
}

// ---------------------------------------------------------------------------------------------
// Hand scores: a readable, sortable encoding of a 5-card hand used while building the tables
// and for names. `category << 20 | r1 << 16 | r2 << 12 | ..`, the ranks of the groups ordered
// by group size then rank, both descending.

/// Number of distinct 5-card high values.
pub(super) const HIGH_CLASSES: usize = 7462;
/// Number of distinct 5-card ace-to-five low values.
pub(super) const LOW_CLASSES: usize = 6175;

/// Category numbers of the high score (the order of `HandCategory`).
const STRAIGHT: u32 = 4;
const FLUSH: u32 = 5;
const STRAIGHT_FLUSH: u32 = 8;

/// The top rank of the best straight in a 13-bit rank mask (Ace = 12; the wheel has top 3).
pub(super) fn straight_top(mask: u32) -> Option<u32> {
    (4..13).rev().find(|&top| (mask >> (top - 4)) & 0x1F == 0x1F).or(if mask & 0x100F == 0x100F {
        Some(3)
    } else {
        None
    })
}

/// Groups of equal ranks, largest group first, then highest rank first (in `order`, which
/// lists the ranks from highest to lowest). Returns the group sizes and ranks.
fn groups(counts: &[u8; 13], order: impl Iterator<Item = usize> + Clone) -> Vec<(u8, u32)> {
    let mut out = Vec::with_capacity(5);
    for size in (1..=4).rev() {
        for r in order.clone() {
            if counts[r] == size {
                out.push((size, r as u32));
            }
        }
    }
    out
}

/// Category for a group-size pattern without straights and flushes:
/// 0 high card, 1 pair, 2 two pair, 3 trips, 6 full house, 7 quads (high numbering).
fn pattern_category(groups: &[(u8, u32)]) -> u32 {
    let first = groups.first().map_or(0, |g| g.0);
    let second = groups.get(1).map_or(0, |g| g.0);
    match (first, second) {
        (4, _) => 7,
        (3, 2) => 6,
        (3, _) => 3,
        (2, 2) => 2,
        (2, _) => 1,
        _ => 0,
    }
}

fn pack(category: u32, ranks: impl IntoIterator<Item = u32>) -> u32 {
    let mut score = category << 20;
    for (i, r) in ranks.into_iter().take(5).enumerate() {
        score |= r << (16 - 4 * i);
    }
    score
}

/// High score of a 5-card rank multiset, flushes ignored.
fn high_score(counts: &[u8; 13]) -> u32 {
    let g = groups(counts, (0..13).rev());
    let category = pattern_category(&g);
    if category == 0 {
        let mask = g.iter().fold(0, |m, &(_, r)| m | 1 << r);
        if let Some(top) = straight_top(mask) {
            return pack(STRAIGHT, [top]);
        }
    }
    pack(category, g.iter().map(|&(_, r)| r))
}

/// High score of the best flush (or straight flush) in a rank mask of 5 or more ranks.
fn flush_score(mask: u32) -> u32 {
    if let Some(top) = straight_top(mask) {
        return pack(STRAIGHT_FLUSH, [top]);
    }
    pack(FLUSH, (0..13).rev().filter(|&r| mask & (1 << r) != 0))
}

/// The ace-low position of rank `r` (Ace 0, Two 1, .. King 12).
const fn ace_low(r: usize) -> u32 {
    ((r + 1) % 13) as u32
}

/// Low "badness" of a 5-card rank multiset (smaller is a better ace-to-five low): the same
/// encoding as the high score with ace-low ranks and no straights or flushes. Categories
/// 0 no pair, 1 pair, 2 two pair, 3 trips, 4 full house, 5 quads.
fn badness(counts: &[u8; 13]) -> u32 {
    // Ranks from King (11) down to Two (0), then Ace (12): ace-low order, highest first.
    let g = groups(counts, (0..12).rev().chain([12]));
    let category = match pattern_category(&g) {
        6 => 4,
        7 => 5,
        c => c,
    };
    pack(category, g.iter().map(|&(_, r)| ace_low(r as usize)))
}

// ---------------------------------------------------------------------------------------------

/// All lookup tables (about 0.45 MiB), see the module documentation.
pub(super) struct Tables {
    /// The rank hash in one allocation (one pointer for the hot path): for each [`Layout`],
    /// its row offsets, then by slot the best high value of the multiset ignoring flushes,
    /// then by slot its best ace-to-five low value.
    pub(super) rank: Box<[u16; RANK_LEN]>,
    /// Best flush / straight flush value by the 13-bit mask of the flush suit.
    pub(super) flush: Box<[u16; 8192]>,
    /// Best 8-or-better low value by [`low8_index`], 0 if none.
    pub(super) low8: [u16; 256],
    /// The score of each high value (index = value), for names.
    pub(super) high_scores: Vec<u32>,
    /// The badness of each low value (index = `LOW_CLASSES - 1 - value`), for names.
    pub(super) low_badness: Vec<u32>,
}

/// The tables, built on first use.
pub(super) static TABLES: LazyLock<Tables> = LazyLock::new(Tables::build);

fn boxed<const N: usize>() -> Box<[u16; N]> {
    match vec![0u16; N].into_boxed_slice().try_into() {
        Ok(b) => b,
        Err(_) => unreachable!("a boxed slice of length N converts to a boxed array of N"),
    }
}

/// Every rank multiset of 5, 6 or 7 cards (at most 4 of a rank), as counts, smallest first.
pub(super) fn rank_multisets() -> Vec<[u8; 13]> {
    fn rec(rank: usize, left: u8, counts: &mut [u8; 13], out: &mut Vec<[u8; 13]>) {
        if rank == 13 {
            if left <= 2 {
                out.push(*counts);
            }
            return;
        }
        for c in 0..=left.min(4) {
            counts[rank] = c;
            rec(rank + 1, left - c, counts, out);
        }
        counts[rank] = 0;
    }
    let mut out = Vec::with_capacity(73_775);
    rec(0, 7, &mut [0; 13], &mut out);
    out.sort_by_key(|c| c.iter().sum::<u8>());
    out
}

/// The rank key (bits 0..44 of the hand key) of a multiset.
pub(super) fn rank_key(counts: &[u8; 13]) -> u64 {
    LOW_BIAS + (0..13).map(|r| u64::from(counts[r]) * rank_part(r)).sum::<u64>()
}

impl Tables {
    fn build() -> Tables {
        let multisets = rank_multisets();
        let fives: Vec<&[u8; 13]> = multisets.iter().filter(|c| c.iter().sum::<u8>() == 5).collect();

        // Score lists: every 5-card class, sorted; a value is an index into the list.
        let mut high_scores = Vec::with_capacity(HIGH_CLASSES + 1300);
        high_scores.extend(fives.iter().map(|c| high_score(c)));
        high_scores.extend((0u32..8192).filter(|m| m.count_ones() == 5).map(flush_score));
        high_scores.sort_unstable();
        high_scores.dedup();
        let mut low_badness: Vec<u32> = fives.iter().map(|c| badness(c)).collect();
        low_badness.sort_unstable();
        low_badness.dedup();
        let high_value = |score: u32| high_scores.binary_search(&score).map_or(0, |i| i as u16);
        let low_value = |bad: u32| low_badness.binary_search(&bad).map_or(0, |i| (low_badness.len() - 1 - i) as u16);

        // Rank values: 5-card multisets directly, then 6 and 7 from their sub-multisets one
        // card smaller, already filled in.
        let mut rank = boxed::<RANK_LEN>();
        for (n, layout, smaller) in [(5, FIVE, FIVE), (6, SIX, FIVE), (7, SEVEN, SIX)] {
            let sized: Vec<(&[u8; 13], u64)> =
                multisets.iter().filter(|c| c.iter().sum::<u8>() == n).map(|c| (c, rank_key(c))).collect();
            place(layout, sized.iter().map(|&(_, key)| key), &mut rank);
            for (counts, key) in sized {
                let (h, l) = if n == 5 {
                    (high_value(high_score(counts)), low_value(badness(counts)))
                } else {
                    (0..13).filter(|&r| counts[r] > 0).fold((0, 0), |(h, l), r| {
                        let sub = smaller.slot(&rank, key - rank_part(r));
                        (h.max(rank[smaller.high_at + sub]), l.max(rank[smaller.low_at + sub]))
                    })
                };
                let s = layout.slot(&rank, key);
                rank[layout.high_at + s] = h;
                rank[layout.low_at + s] = l;
            }
        }

        let mut flush = boxed::<8192>();
        for mask in (0u32..8192).filter(|m| m.count_ones() >= 5) {
            flush[mask as usize] = high_value(flush_score(mask));
        }

        let mut low8 = [None; 256];
        for mask in 0..256usize {
            let mut value = 0;
            if mask.count_ones() >= 5 {
                // The five lowest of the present ranks; ace-low bit i is rank (i + 12) % 13.
                let mut counts = [0u8; 13];
                for i in (0..8).filter(|i| mask & (1 << i) != 0).take(5) {
                    counts[(i + 12) % 13] = 1;
                }
                value = low_value(badness(&counts));
            }
            let present: u64 = (0..8).filter(|i| mask & (1 << i) != 0).map(|i| 8 << (4 * i)).sum();
            let entry = &mut low8[low8_index(present)];
            if entry.is_some_and(|v| v != value) {
                unreachable!("LOW8_MUL mixes two different lows");
            }
            *entry = Some(value);
        }
        let low8 = low8.map(|v| v.unwrap_or(0));

        Tables { rank, flush, low8, high_scores, low_badness }
    }
}

/// Row displacement: finds the offset of each row of `layout` (stored in `rank`) so that all
/// `keys` land in distinct slots. Rows are placed largest first, each at the first rotation
/// where all its columns are free.
fn place(layout: Layout, keys: impl Iterator<Item = u64>, rank: &mut [u16; RANK_LEN]) {
    let mut rows: Vec<Vec<u32>> = vec![Vec::new(); 1 << layout.row_bits];
    for key in keys {
        let (row, col) = layout.row_col(key);
        rows[row].push(col);
    }
    let mut order: Vec<usize> = (0..rows.len()).filter(|&r| !rows[r].is_empty()).collect();
    order.sort_by_key(|&r| std::cmp::Reverse(rows[r].len()));
    let mask = layout.slot_mask();
    let mut used = vec![false; 1 << layout.slot_bits];
    for r in order {
        let cols = &mut rows[r];
        cols.sort_unstable();
        if cols.windows(2).any(|w| w[0] == w[1]) {
            unreachable!("HASH_MUL gives two multisets the same row and column");
        }
        let fits = |o: u32| cols.iter().all(|&c| !used[(c.wrapping_add(o) & mask) as usize]);
        // The tables are at most 75% full and rows hold a handful of keys: a free rotation
        // is found within the first few thousand.
        let Some(o) = (0..=u16::MAX).find(|&o| fits(u32::from(o))) else {
            unreachable!("rank table row {r} cannot be placed");
        };
        for &c in cols.iter() {
            used[(c.wrapping_add(u32::from(o)) & mask) as usize] = true;
        }
        rank[layout.offsets_at + r] = o;
    }
}
