//! Hand records: everything needed to reproduce a hand exactly, and its result. The types
//! only: replaying a record ([`HandRecord::replay`], [`HandRecord::verify`]) is the hand's
//! business and lives in `hand::replay`, so that `hand` imports `record` and not the reverse.

use crate::action::{Action, ActionError, SeatChips};
use crate::card::Card;
use crate::config::{Chips, Seat, TableConfig};
use crate::deck::DeckError;
use crate::error::SetupError;
use crate::event::Half;

/// One applied action.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct RecordedAction {
    /// who acted
    pub seat: Seat,
    /// what they did
    pub action: Action,
}

/// A pot, or half of one, going to a seat.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct AwardRecord {
    /// 0 = main pot
    pub pot: usize,
    /// which half
    pub half: Half,
    /// the winner
    pub seat: Seat,
    /// chips won
    pub amount: Chips,
    /// the winning hand's name; `None` when everyone else folded
    pub hand: Option<std::borrow::Cow<'static, str>>,
}

/// A player at showdown: their cards (live at showdown, so LAST HAND reveals them) and whether
/// they were shown or mucked.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct ShowdownRecord {
    /// the seat
    pub seat: Seat,
    /// the player's own cards in dealing order
    pub cards: Vec<Card>,
    /// shown (true) or mucked (false)
    pub shown: bool,
}

/// How a hand ended.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct HandResult {
    /// every seat's stack after the hand
    pub finishing_stacks: Vec<SeatChips>,
    /// every award in order
    pub awards: Vec<AwardRecord>,
    /// the community card, if one was dealt
    pub community: Option<Card>,
    /// the showdown in showing order; empty when the hand ended without one
    pub showdown: Vec<ShowdownRecord>,
}

/// Everything about a hand: replaying it through the engine reproduces it exactly.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct HandRecord {
    /// the table's rules and stakes
    pub config: TableConfig,
    /// seats dealt in and their stacks before the antes
    pub seats: Vec<SeatChips>,
    /// the deck seed (hex), revealed once the hand is over
    pub seed: Option<String>,
    /// an explicit deck order, for hands dealt from one (tests, imported histories)
    pub deck: Option<Vec<Card>>,
    /// `sha256(seed)` (hex), published when the hand started
    pub commitment: Option<String>,
    /// every action in order
    pub actions: Vec<RecordedAction>,
    /// the result, once the hand is over
    pub result: Option<HandResult>,
}

/// A record that does not reproduce.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The hand could not start.
    #[error("cannot start the hand: {0}")]
    Setup(#[from] SetupError),
    /// The seed is not 64 hex characters.
    #[error("the seed is not 64 hex characters")]
    BadSeed,
    /// Neither a seed nor a deck order.
    #[error("the record has neither a seed nor a deck order")]
    NoDeck,
    /// The explicit deck order is unusable.
    #[error("bad deck order: {0}")]
    Deck(#[from] DeckError),
    /// `sha256(seed)` is not the recorded commitment.
    #[error("the seed does not match the commitment")]
    Commitment,
    /// An action was refused.
    #[error("action {index} ({seat} {action:?}) refused: {error}")]
    Illegal {
        /// 0-based index in `actions`
        index: usize,
        /// who
        seat: Seat,
        /// what
        action: Action,
        /// why
        error: ActionError,
    },
    /// The actions ran out before the hand ended.
    #[error("the hand is not over after all {0} actions")]
    Unfinished(usize),
    /// The replayed result differs from the recorded one.
    #[error("the replayed result differs from the record: {0}")]
    Mismatch(String),
}
