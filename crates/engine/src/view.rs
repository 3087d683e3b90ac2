//! Per-viewer views of a hand: the only shape in which a hand leaves the engine while it is
//! played (RULES.md 7), and the LAST HAND view of a finished hand (RULES.md 6).

use crate::action::{Action, SeenCard, Street};
use crate::card::Card;
use crate::config::{Chips, Seat, Variant};
use crate::event::{Event, Viewer};
use crate::hand::{Hand, Phase, Pot};

/// One seat as a viewer sees it.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct SeatView {
    /// the seat
    pub seat: Seat,
    /// chips behind
    pub stack: Chips,
    /// committed on this street
    pub bet: Chips,
    /// committed in the hand, antes included
    pub committed: Chips,
    /// out of the hand
    pub folded: bool,
    /// in the hand with no chips behind
    pub all_in: bool,
    /// cards in dealing order; backs where the viewer may not look
    pub cards: Vec<SeenCard>,
    /// shown at showdown
    pub shown: bool,
    /// mucked at showdown
    pub mucked: bool,
    /// the hand's name, when its cards are visible in full to this viewer
    pub hand: Option<String>,
    /// chips won in this hand
    pub won: Chips,
}

/// A hand as one viewer may see it. Never contains the deck, the seed, or a down card the
/// viewer may not see.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct HandView {
    /// the game
    pub variant: Variant,
    /// the current (or last) street
    pub street: Street,
    /// betting, showdown or over
    pub phase: Phase,
    /// the seat this view is for; `None` for an observer
    pub viewer: Option<Seat>,
    /// every seat dealt in
    pub seats: Vec<SeatView>,
    /// the 7th-street community card, if dealt
    pub community: Option<Card>,
    /// main pot first
    pub pots: Vec<Pot>,
    /// whose turn
    pub to_act: Option<Seat>,
    /// the street's current bet level
    pub current_bet: Chips,
    /// the viewer's legal actions (empty unless it is the viewer's turn)
    pub legal_actions: Vec<Action>,
    /// `sha256(seed)` (hex) of the deck
    pub commitment: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Reveal {
    /// during play: down cards of the viewer and of shown hands
    Live,
    /// LAST HAND: also every hand live at showdown, mucked included
    LastHand,
}

impl Hand {
    /// Every card `viewer` may see in the LAST HAND report of this (finished) hand: up cards,
    /// their own down cards, the down cards of hands live at showdown, the community card.
    /// Histories written for a player hide every other dealt card.
    pub fn last_hand_visible(&self, viewer: Viewer) -> Vec<Card> {
        let view = self.last_hand_view(viewer);
        let mut cards: Vec<Card> = view.seats.iter().flat_map(|s| s.cards.iter().filter_map(|c| c.card)).collect();
        cards.extend(view.community);
        cards
    }

    /// The hand as `viewer` sees it now.
    pub fn view_for(&self, viewer: Viewer) -> HandView {
        self.view(viewer, Reveal::Live)
    }

    /// The LAST HAND report of a finished hand for `viewer` (RULES.md 6): every card live at
    /// showdown, mucked ones included; folded players' down cards stay hidden, except the
    /// viewer's own. On a hand still in play it is the same as [`Hand::view_for`].
    pub fn last_hand_view(&self, viewer: Viewer) -> HandView {
        if self.is_over() { self.view(viewer, Reveal::LastHand) } else { self.view(viewer, Reveal::Live) }
    }

    /// `events` of this finished hand as LAST HAND shows them to `viewer`: down cards of
    /// players live at showdown and the viewer's own are shown, other down cards are backs.
    pub fn last_hand_events(&self, events: &[Event], viewer: Viewer) -> Vec<Event> {
        let revealed: Vec<Seat> =
            self.seat_state().filter(|s| s.at_showdown && self.is_over()).map(|s| s.seat).collect();
        events
            .iter()
            .map(|e| match e {
                Event::Dealt { seat, .. } if revealed.contains(seat) => e.clone(),
                _ => e.for_viewer(viewer),
            })
            .collect()
    }

    fn view(&self, viewer: Viewer, reveal: Reveal) -> HandView {
        let seats = self
            .seat_state()
            .map(|s| {
                let whole = s.shown || (reveal == Reveal::LastHand && s.at_showdown);
                let own = viewer == Viewer::Seat(s.seat);
                let cards = s
                    .cards
                    .iter()
                    .enumerate()
                    .map(|(pos, &card)| {
                        let up = Hand::is_up_position(pos);
                        SeenCard { card: (up || own || whole).then_some(card), up }
                    })
                    .collect();
                SeatView {
                    seat: s.seat,
                    stack: s.stack,
                    bet: s.street_in,
                    committed: s.total_in,
                    folded: s.folded,
                    all_in: !s.folded && s.stack == 0 && !self.is_over(),
                    cards,
                    shown: s.shown,
                    mucked: s.mucked,
                    hand: if whole || (own && !s.folded && s.cards.len() >= 5) {
                        self.description_of(s.seat)
                    } else {
                        None
                    },
                    won: s.won,
                }
            })
            .collect::<Vec<_>>();
        HandView {
            variant: self.config().variant,
            street: self.street(),
            phase: self.phase(),
            viewer: match viewer {
                Viewer::Seat(s) => Some(s),
                Viewer::Observer => None,
            },
            seats,
            community: self.community(),
            pots: self.pots(),
            to_act: self.to_act(),
            current_bet: self.level(),
            legal_actions: match viewer {
                Viewer::Seat(s) => self.legal_actions(s).to_vec(),
                Viewer::Observer => Vec::new(),
            },
            commitment: self.commitment().map(|c| c.to_hex()),
        }
    }
}

impl HandView {
    /// Every card this view shows face up for a seat other than the viewer, while that seat's
    /// hand has not been shown: the audit tests check these are all up cards.
    pub fn visible_down_cards_of_others(&self) -> Vec<(Seat, Card)> {
        self.seats
            .iter()
            .filter(|s| Some(s.seat) != self.viewer && !s.shown)
            .flat_map(|s| s.cards.iter().filter(|c| !c.up).filter_map(move |c| c.card.map(|card| (s.seat, card))))
            .collect()
    }
}
