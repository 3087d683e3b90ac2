//! Random draws (seats at the start, seats for late entries and broken tables) from a seed that
//! comes in with the input, so replaying the journal draws the same seats.
//!
//! The generator is ChaCha20 (as the engine's deck), `uniform` by rejection sampling on
//! `next_u32` (no modulo bias), shuffles by Fisher-Yates from the end.

use std::fmt;

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A draw's seed: 32 bytes, journaled as hex. Its `Debug` is redacted (a seed known in
/// advance would tell where players will sit).
#[derive(Clone, PartialEq, Eq)]
pub struct Draw(pub [u8; 32]);

impl fmt::Debug for Draw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Draw(<redacted>)")
    }
}

impl Serialize for Draw {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let hex: String = self.0.iter().map(|b| format!("{b:02x}")).collect();
        s.serialize_str(&hex)
    }
}

impl<'de> Deserialize<'de> for Draw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Draw, D::Error> {
        let text = String::deserialize(d)?;
        let bad = || serde::de::Error::custom("a draw is 64 hex digits");
        if text.len() != 64 || !text.is_ascii() {
            return Err(bad());
        }
        let mut out = [0u8; 32];
        for (i, byte) in out.iter_mut().enumerate() {
            let pair = text.get(2 * i..2 * i + 2).ok_or_else(bad)?;
            *byte = u8::from_str_radix(pair, 16).map_err(|_| bad())?;
        }
        Ok(Draw(out))
    }
}

/// The generator of one input's draws.
pub(crate) struct Drawer(ChaCha20Rng);

impl Drawer {
    pub(crate) fn new(draw: &Draw) -> Drawer {
        Drawer(ChaCha20Rng::from_seed(draw.0))
    }

    /// Uniform in `0..n` (`n >= 1`; 0 gives 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let n = n as u64;
        // Accept x below the largest multiple of n that fits in 2^32.
        let zone = (1u64 << 32) / n * n;
        loop {
            let x = u64::from(self.0.next_u32());
            if x < zone {
                return (x % n) as usize;
            }
        }
    }

    /// Shuffles in place (Fisher-Yates).
    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    /// One element, uniformly (`None` when empty).
    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        items.get(self.below(items.len())).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_round_trip_and_are_redacted() {
        let d = Draw([0xab; 32]);
        let text = serde_json::to_string(&d).unwrap();
        assert_eq!(text, format!("\"{}\"", "ab".repeat(32)));
        assert_eq!(serde_json::from_str::<Draw>(&text).unwrap(), d);
        assert!(serde_json::from_str::<Draw>("\"abc\"").is_err());
        assert!(serde_json::from_str::<Draw>(&format!("\"{}\"", "zz".repeat(32))).is_err());
        assert_eq!(format!("{d:?}"), "Draw(<redacted>)");
    }

    #[test]
    fn the_same_seed_draws_the_same_and_all_outcomes_occur() {
        let mut a = Drawer::new(&Draw([1; 32]));
        let mut b = Drawer::new(&Draw([1; 32]));
        let xs: Vec<usize> = (0..50).map(|_| a.below(7)).collect();
        let ys: Vec<usize> = (0..50).map(|_| b.below(7)).collect();
        assert_eq!(xs, ys);
        let mut seen = [0u32; 7];
        let mut c = Drawer::new(&Draw([2; 32]));
        for _ in 0..7_000 {
            seen[c.below(7)] += 1;
        }
        // Each of 7 outcomes about 1000 times (far outside these bounds is a broken draw).
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        let mut v: Vec<u32> = (0..10).collect();
        c.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
        assert_ne!(v, sorted, "a shuffle of 10 left them in order (1 in 3.6 million)");
    }
}
