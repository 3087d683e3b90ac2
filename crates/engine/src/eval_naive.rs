//! TEMPORARY slow evaluator with the eval API, used until the fast one lands.
#![allow(missing_docs)]
use crate::card::Card;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HighRank(u32);
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LowRank(u32);
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BoardRank(u32);

impl HighRank {
    pub fn name(self) -> String {
        format!("high {}", self.0)
    }
}
impl LowRank {
    pub fn name(self) -> String {
        format!("low {}", self.0)
    }
}

fn five_high(c: [Card; 5]) -> u32 {
    let mut r: Vec<u32> = c.iter().map(|c| u32::from(c.rank().index())).collect();
    r.sort_unstable_by(|a, b| b.cmp(a));
    let flush = c.iter().all(|x| x.suit() == c[0].suit());
    let mut uniq = r.clone();
    uniq.dedup();
    let straight_top = if uniq.len() == 5 && r[0] - r[4] == 4 {
        Some(r[0])
    } else if uniq == [12, 3, 2, 1, 0] {
        Some(3)
    } else {
        None
    };
    let mut groups: Vec<(u32, u32)> = uniq.iter().map(|&x| (r.iter().filter(|&&y| y == x).count() as u32, x)).collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let kick = groups.iter().fold(0u32, |acc, g| acc * 16 + g.1) << (4 * (5 - groups.len() as u32));
    let cat = match (flush, straight_top, groups[0].0, groups.get(1).map_or(0, |g| g.0)) {
        (true, Some(_), _, _) => 8,
        (_, _, 4, _) => 7,
        (_, _, 3, 2) => 6,
        (true, None, _, _) => 5,
        (false, Some(_), _, _) => 4,
        (_, _, 3, _) => 3,
        (_, _, 2, 2) => 2,
        (_, _, 2, _) => 1,
        _ => 0,
    };
    let kick = if let Some(t) = straight_top.filter(|_| cat == 8 || cat == 4) { t } else { kick };
    (cat << 20) | kick
}

fn low_key(c: [Card; 5], eight: bool) -> Option<u32> {
    let mut r: Vec<u32> = c.iter().map(|c| u32::from((c.rank().index() + 1) % 13)).collect();
    r.sort_unstable();
    let mut uniq = r.clone();
    uniq.dedup();
    if eight && (uniq.len() < 5 || r[4] > 7) {
        return None;
    }
    let mut groups: Vec<(u32, u32)> = uniq.iter().map(|&x| (r.iter().filter(|&&y| y == x).count() as u32, x)).collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let worst = groups.iter().fold(0u32, |acc, g| acc * 16 + g.1) << (4 * (5 - groups.len() as u32));
    let pattern: Vec<u32> = groups.iter().map(|g| g.0).collect();
    let cat = match pattern.as_slice() {
        [1, 1, 1, 1, 1] => 0,
        [2, 1, 1, 1] => 1,
        [2, 2, 1] => 2,
        [3, 1, 1] => 3,
        [3, 2] => 4,
        _ => 5,
    };
    Some(u32::MAX - ((cat << 20) | worst))
}

fn subsets(cards: &[Card]) -> Vec<[Card; 5]> {
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

pub fn eval_high(cards: &[Card]) -> HighRank {
    HighRank(subsets(cards).into_iter().map(five_high).max().unwrap_or(0))
}
pub fn eval_low_a5(cards: &[Card]) -> LowRank {
    LowRank(subsets(cards).into_iter().filter_map(|s| low_key(s, false)).max().unwrap_or(0))
}
pub fn eval_low8(cards: &[Card]) -> Option<LowRank> {
    subsets(cards).into_iter().filter_map(|s| low_key(s, true)).max().map(LowRank)
}
pub fn eval_hilo8(cards: &[Card]) -> (HighRank, Option<LowRank>) {
    (eval_high(cards), eval_low8(cards))
}
pub fn board_high(up: &[Card]) -> BoardRank {
    let mut counts = [0u32; 13];
    for c in up {
        counts[c.rank().index() as usize] += 1;
    }
    let mut groups: Vec<(u32, u32)> = (0..13).filter(|&r| counts[r] > 0).map(|r| (counts[r], r as u32)).collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let shape = match (groups.first().map_or(0, |g| g.0), groups.get(1).map_or(0, |g| g.0)) {
        (4, _) => 5,
        (3, _) => 4,
        (2, 2) => 3,
        (2, _) => 2,
        _ => 1,
    };
    BoardRank((shape << 20) | (groups.iter().fold(0u32, |a, g| a * 16 + g.1) << (4 * (4 - groups.len() as u32))))
}
pub fn board_low(up: &[Card]) -> BoardRank {
    let mut counts = [0u32; 13];
    for c in up {
        counts[((c.rank().index() + 1) % 13) as usize] += 1;
    }
    let mut groups: Vec<(u32, u32)> = (0..13).filter(|&r| counts[r] > 0).map(|r| (counts[r], r as u32)).collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let paired = up.len() as u32 - groups.len() as u32;
    BoardRank(u32::MAX - ((paired << 20) | (groups.iter().fold(0u32, |a, g| a * 16 + g.1) << (4 * (4 - groups.len() as u32)))))
}
