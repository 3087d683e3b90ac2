//! The engine's setup errors: why a hand could not start, and [`Error`], any of them.

use crate::config::{Chips, ConfigError, Seat};
use crate::deck::DeckError;

/// Why a hand could not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The table configuration is invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Fewer than 2 or more than 8 players.
    #[error("a hand needs 2 to 8 players, got {0}")]
    PlayerCount(usize),
    /// The same seat twice.
    #[error("seat {0} is listed twice")]
    DuplicateSeat(Seat),
    /// A player without chips (or with more than the engine supports).
    #[error("seat {seat} has an unusable stack of {stack}")]
    BadStack {
        /// the seat
        seat: Seat,
        /// its stack
        stack: Chips,
    },
}

/// Any engine error, for callers that do not need to tell them apart.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The hand could not start.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The deck order is unusable.
    #[error(transparent)]
    Deck(#[from] DeckError),
}
