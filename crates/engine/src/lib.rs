//! The Seven Card Stud rules engine.
//!
//! Owns cards, the seeded deck, hand evaluation (high, ace-to-five low, 8-or-better low),
//! the stud hand state machine, pots, per-seat views, hand records and the PHH codec.
//! It does no I/O, reads no clock, uses no global RNG and no async runtime: a hand is a pure
//! function of (config, seats, seed or deck order, ordered actions).
#![deny(missing_docs)]

pub mod card;
pub mod eval;

pub use card::{Card, ParseCardError, Rank, Suit};
