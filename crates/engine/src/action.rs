//! What a player can do, and why an action is refused.

use crate::card::Card;
use crate::config::{Chips, Seat};

/// A betting street. 3rd street deals two down cards and the door card; 7th (the river) one
/// down card.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Street {
    /// Two down cards and the door card; bring-in.
    Third,
    /// One up card.
    Fourth,
    /// One up card; big bets from here.
    Fifth,
    /// One up card.
    Sixth,
    /// One down card (or the community card).
    Seventh,
}

impl Street {
    /// 3..=7.
    pub const fn number(self) -> u8 {
        self as u8 + 3
    }

    /// The next street, `None` after 7th.
    pub const fn next(self) -> Option<Street> {
        match self {
            Street::Third => Some(Street::Fourth),
            Street::Fourth => Some(Street::Fifth),
            Street::Fifth => Some(Street::Sixth),
            Street::Sixth => Some(Street::Seventh),
            Street::Seventh => None,
        }
    }

    /// "3rd street", ..., "7th street".
    pub const fn name(self) -> &'static str {
        match self {
            Street::Third => "3rd street",
            Street::Fourth => "4th street",
            Street::Fifth => "5th street",
            Street::Sixth => "6th street",
            Street::Seventh => "7th street",
        }
    }
}

/// A player's action. Amounts in `Complete`, `Bet` and `Raise` are the player's total on this
/// street after the action (like PHH's `cbr`), so each is exactly one of [`crate::Hand::legal_actions`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "snake_case"))]
pub enum Action {
    /// Post the bring-in (or all one has, if less).
    BringIn,
    /// Complete the bring-in (or a short all-in) to the full small bet.
    Complete {
        /// street total after the action
        to: Chips,
    },
    /// Open the betting on 4th street or later.
    Bet {
        /// street total after the action
        to: Chips,
    },
    /// Raise the current bet.
    Raise {
        /// street total after the action
        to: Chips,
    },
    /// Match the current bet (all-in for less if the stack is short).
    Call,
    /// Pass when nothing is owed.
    Check,
    /// Give up the hand (only when facing a bet).
    Fold,
    /// Show at showdown when offered the choice.
    Show,
    /// Muck at showdown when offered the choice (a winning hand still wins: cards speak).
    Muck,
    /// Declare for high, low or both before the showdown (stud8_declare, RULES.md 12.2).
    Declare {
        /// the half or halves the player plays for
        declaration: Declaration,
    },
}

/// What a player plays for in the declare game (RULES.md 12.2).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Declaration {
    /// The high half.
    High,
    /// The low half (an 8-or-better low).
    Low,
    /// Both halves: must win or tie both.
    Both,
}

impl Declaration {
    /// Every declaration, in the order they are offered.
    pub const ALL: [Declaration; 3] = [Declaration::High, Declaration::Low, Declaration::Both];

    /// The wire and history name: `high`, `low`, `both`.
    pub const fn name(self) -> &'static str {
        match self {
            Declaration::High => "high",
            Declaration::Low => "low",
            Declaration::Both => "both",
        }
    }

    /// Plays for the high half.
    pub const fn plays_high(self) -> bool {
        matches!(self, Declaration::High | Declaration::Both)
    }

    /// Plays for the low half.
    pub const fn plays_low(self) -> bool {
        matches!(self, Declaration::Low | Declaration::Both)
    }
}

impl std::str::FromStr for Declaration {
    type Err = ();

    fn from_str(s: &str) -> Result<Declaration, ()> {
        Declaration::ALL.into_iter().find(|d| d.name() == s).ok_or(())
    }
}

impl Action {
    /// The street total an aggressive action goes to, if it is one.
    pub const fn to(self) -> Option<Chips> {
        match self {
            Action::Complete { to } | Action::Bet { to } | Action::Raise { to } => Some(to),
            _ => None,
        }
    }
}

/// Why [`crate::Hand::apply`] refused an action. The hand is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The hand is over.
    #[error("the hand is over")]
    HandOver,
    /// That seat is not dealt into this hand.
    #[error("seat {0} is not in this hand")]
    NotInHand(Seat),
    /// It is another seat's turn.
    #[error("it is not seat {seat}'s turn (waiting for seat {to_act})")]
    NotYourTurn {
        /// who tried
        seat: Seat,
        /// whose turn it is
        to_act: Seat,
    },
    /// The action is not one of the legal ones.
    #[error("{action:?} is not legal now; legal: {legal:?}")]
    Illegal {
        /// what was tried
        action: Action,
        /// what is allowed
        legal: Vec<Action>,
    },
}

/// A card as one viewer may see it: face value, or a back.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct SeenCard {
    /// `None` is a card back: a down card the viewer may not see.
    pub card: Option<Card>,
    /// Dealt face up.
    pub up: bool,
}

/// Chips committed by one seat, for pots and results.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct SeatChips {
    /// The seat.
    pub seat: Seat,
    /// The amount.
    pub chips: Chips,
}
