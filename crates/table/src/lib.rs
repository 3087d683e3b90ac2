//! The table core: everything one stud table decides, as a pure state machine.
//!
//! Owns seating, buy-ins and top-ups (the checks; the account is the server's), sitting out,
//! the action clock, the time bank and disconnect grace, timeouts, starting hands (the seed
//! and the hand id are inputs), actions, show/muck, kicks, pauses, settings that apply from the
//! next hand, and closing. It must not use tokio, do I/O, read a clock or draw randomness:
//! time comes in with every call, seeds with [`Input::StartHand`], and everything the table
//! wants done goes out as an [`Output`].
//!
//! Key decision: a table is its journal. Every [`Input`] is journaled before it is applied,
//! applying cannot be refused, and the same inputs give the same outputs byte for byte, so a
//! snapshot (taken between hands) plus the journal's later entries rebuild a table exactly,
//! in this process or another.

mod core;
mod input;
mod spec;
#[cfg(test)]
mod tests;
pub mod wire;

pub use crate::core::{
    Command, ConnId, Decision, Due, FinishedHand, LastReport, Metric, Millis, Movement, Output, SeatResult, TableCore,
    Timing,
};
pub use input::{Entry, Input, JOURNAL_VERSION, JournalSeed, RestoreError, Who};
pub use spec::{MAX_ROTATION_HANDS, ROTATION, RotationPoint, TableSpec};
