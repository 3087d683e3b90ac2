//! What happened in a hand, in order. Events carry every card; [`Event::for_viewer`] is the one
//! place that hides what a viewer may not see (RULES.md section 7).

use std::borrow::Cow;

use crate::action::{Declaration, Street};
use crate::card::Card;
use crate::config::{Chips, Seat};
use crate::deck::Commitment;
use crate::list::SmallList;

/// Which half of a split pot an award is for.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Half {
    /// The whole pot (stud, razz, or stud8 with no qualifying low).
    Whole,
    /// The high half of a split pot (stud8, the declare game, chicago).
    High,
    /// The low half of a stud8 or declare pot.
    Low,
    /// Chicago's half for the highest spade in the hole (RULES.md 13.2).
    Spade,
}

/// Who is looking at a hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Viewer {
    /// A seated player: sees their own down cards.
    Seat(Seat),
    /// An observer: sees up cards and shown cards only.
    Observer,
}

/// One thing that happened. Amounts are chips.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "serde", serde(tag = "event", rename_all = "snake_case"))]
pub enum Event {
    /// The hand began; the deck is committed to by `sha256(seed)`.
    HandStarted {
        /// `sha256(seed)` (hex on the wire); `None` for a deck given in explicit order.
        // Boxed: a hand's events are kept for its snapshots, and these 33 bytes inline would
        // make every event larger.
        commitment: Option<Box<Commitment>>,
        /// The seats dealt in, with their stacks before the antes.
        seats: Vec<(Seat, Chips)>,
    },
    /// An ante was posted.
    Ante {
        /// who
        seat: Seat,
        /// how much
        amount: Chips,
        /// the stack is now empty
        all_in: bool,
    },
    /// A card was dealt to a player. `card` is `None` in a view that may not see it.
    Dealt {
        /// to whom
        seat: Seat,
        /// the card, or `None` for a back
        card: Option<Card>,
        /// face up
        up: bool,
        /// the street it belongs to
        street: Street,
    },
    /// The community card of 7th street (the deck ran short).
    Community {
        /// the card, face up, shared by every player in the hand
        card: Card,
    },
    /// A betting round begins; `first` acts first.
    StreetStarted {
        /// the street
        street: Street,
        /// first to act, `None` if no betting happens (at most one player has chips)
        first: Option<Seat>,
    },
    /// The bring-in was posted.
    BringIn {
        /// who
        seat: Seat,
        /// how much
        amount: Chips,
        /// the stack is now empty
        all_in: bool,
    },
    /// The bring-in (or a short all-in) was completed.
    Complete {
        /// who
        seat: Seat,
        /// street total after the action
        to: Chips,
        /// the stack is now empty
        all_in: bool,
    },
    /// A bet opened a street.
    Bet {
        /// who
        seat: Seat,
        /// street total after the action
        to: Chips,
        /// the stack is now empty
        all_in: bool,
    },
    /// A raise.
    Raise {
        /// who
        seat: Seat,
        /// street total after the action
        to: Chips,
        /// the stack is now empty
        all_in: bool,
    },
    /// A call.
    Call {
        /// who
        seat: Seat,
        /// chips added
        amount: Chips,
        /// the stack is now empty
        all_in: bool,
    },
    /// A check.
    Check {
        /// who
        seat: Seat,
    },
    /// A fold.
    Fold {
        /// who
        seat: Seat,
    },
    /// An uncalled bet went back to its bettor.
    Uncalled {
        /// who
        seat: Seat,
        /// how much
        amount: Chips,
    },
    /// The betting of a street is over.
    StreetEnded {
        /// the street
        street: Street,
    },
    /// Showdown begins, in this order.
    Showdown {
        /// order of showing
        order: SmallList<Seat, 8>,
    },
    /// A player's hand was shown.
    Shown {
        /// who
        seat: Seat,
        /// all the player's cards (not the community card)
        cards: SmallList<Card, 7>,
        /// shown by the server because it beat or tied the best shown so far
        automatic: bool,
        /// the hand's name(s), e.g. "Full house, Kings full of Sevens"
        description: Cow<'static, str>,
    },
    /// A player must choose to show or muck.
    ShowOrMuck {
        /// who
        seat: Seat,
    },
    /// A player mucked.
    Mucked {
        /// who
        seat: Seat,
    },
    /// The declaration begins (stud8_declare, RULES.md 12.2): these players declare, in
    /// this order.
    DeclarationStarted {
        /// who declares, in seat order
        order: SmallList<Seat, 8>,
    },
    /// A player declared. `declaration` is `None` in every view but the player's own until
    /// the declarations are revealed.
    Declared {
        /// who
        seat: Seat,
        /// high, low or both; `None` where the viewer may not see it yet
        declaration: Option<Declaration>,
    },
    /// Every declaration, revealed together once all have declared.
    DeclarationsRevealed {
        /// each declaring seat's declaration, in seat order
        declarations: Vec<(Seat, Declaration)>,
    },
    /// A pot (or half of one) was awarded.
    Award {
        /// 0 = main pot, 1.. = side pots
        pot: u32,
        /// which half
        half: Half,
        /// the winner
        seat: Seat,
        /// chips won
        amount: Chips,
        /// the winning hand's name, `None` when everyone else folded
        hand: Option<Cow<'static, str>>,
    },
    /// The hand is over.
    HandEnded {
        /// every seat's stack after the hand
        stacks: Vec<(Seat, Chips)>,
    },
}

impl Event {
    /// The event as `viewer` may see it: another seat's down card becomes a back, and another
    /// seat's declaration a bare "declared" until the reveal. Everything else in an event is
    /// public.
    pub fn for_viewer(&self, viewer: Viewer) -> Event {
        match *self {
            Event::Dealt { seat, card: Some(_), up: false, street } if viewer != Viewer::Seat(seat) => {
                Event::Dealt { seat, card: None, up: false, street }
            }
            Event::Declared { seat, declaration: Some(_) } if viewer != Viewer::Seat(seat) => {
                Event::Declared { seat, declaration: None }
            }
            _ => self.clone(),
        }
    }

    /// The one seat that may see this event whole, when it carries something hidden from
    /// everyone else (a down card, a declaration before the reveal); `None` for a public event.
    /// The table sends such an event whole to that seat and [`Event::for_viewer`]'s redaction
    /// to the rest.
    pub fn private_to(&self) -> Option<Seat> {
        match *self {
            Event::Dealt { seat, card: Some(_), up: false, .. } | Event::Declared { seat, declaration: Some(_) } => {
                Some(seat)
            }
            _ => None,
        }
    }

    /// True when the event would show `viewer` a card (or a declaration) it must not see; the
    /// audit tests use it.
    pub fn leaks_to(&self, viewer: Viewer) -> bool {
        self.private_to().is_some_and(|seat| viewer != Viewer::Seat(seat))
    }
}

/// Where a hand's events go. A `Vec<Event>` collects them; [`NoEvents`] keeps nothing, and the
/// events are then never built: replay, simulation and anything else that needs only the
/// hand's state and record use it.
pub trait Events {
    /// Adds the event `make` builds. A sink that keeps nothing never calls `make`.
    fn push_with(&mut self, make: impl FnOnce() -> Event);
}

impl Events for Vec<Event> {
    #[inline(always)]
    fn push_with(&mut self, make: impl FnOnce() -> Event) {
        push_in_place(self, make);
    }
}

/// Appends the value `make` builds, building it after any growth of the buffer so that it is
/// written in place: a value built first and then copied in (as `push` does) costs a
/// store-forwarding stall on x86, and this runs for every event and recorded action.
#[inline(always)]
pub(crate) fn push_in_place<T>(list: &mut Vec<T>, make: impl FnOnce() -> T) {
    list.extend(std::iter::once_with(make));
}

/// An event sink that keeps nothing (see [`Events`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoEvents;

impl Events for NoEvents {
    #[inline(always)]
    fn push_with(&mut self, _make: impl FnOnce() -> Event) {}
}

#[cfg(test)]
mod tests {
    use super::Event;

    /// The table keeps a hand's events for its snapshots (about 110 in an 8-player hand, room
    /// for 128 reserved): the largest variant's size is paid by every event of every table.
    /// The deck's commitment is boxed and a pot's number is a `u32` (64 bytes before).
    #[test]
    fn an_event_is_at_most_40_bytes() {
        let size = std::mem::size_of::<Event>();
        assert!(size <= 40, "an event is {size} bytes");
    }
}
