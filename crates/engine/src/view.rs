//! Per-viewer views of a hand: the only shape in which a hand leaves the engine while it is
//! played (RULES.md 7), and the LAST HAND view of a finished hand (RULES.md 6).

use crate::action::{Action, Declaration, SeenCard, Street};
use crate::card::{Card, Rank};
use crate::config::{Chips, Seat, Variant};
use crate::eval::{self, HandCategory};
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
    /// committed on this street (0 once the hand is over)
    pub bet: Chips,
    /// committed in the hand, antes included, uncalled chips returned: the hand's total for
    /// this seat, kept after the hand
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
    /// the same hand as a code (category and ranks, both halves in hi/lo: what `event` frames'
    /// `hand_code` says of a shown hand), so a client can tell which five cards make it
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub hand_code: Option<HandStrength>,
    /// chips won in this hand
    pub won: Chips,
    /// stud8_declare (RULES.md 12.2): the seat has declared
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "std::ops::Not::not"))]
    pub declared: bool,
    /// stud8_declare: the declaration, to its own player as soon as it is made and to everyone
    /// once all are revealed
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub declaration: Option<Declaration>,
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
    /// main pot first; once the hand is over, the pots as awarded (an award's `pot` indexes
    /// them)
    pub pots: Vec<Pot>,
    /// whose turn
    pub to_act: Option<Seat>,
    /// the street's current bet level
    pub current_bet: Chips,
    /// the viewer's legal actions (empty unless it is the viewer's turn)
    pub legal_actions: Vec<Action>,
    /// `sha256(seed)` (hex) of the deck
    pub commitment: Option<String>,
    /// the seat that posted the bring-in (none before it is posted)
    #[cfg_attr(feature = "serde", serde(default))]
    pub bring_in: Option<Seat>,
}

/// A hand's strength as a code a client can put into words in any language: the category
/// and the ranks that name it (`ranks` is rank symbols, `T` for ten, `A` for ace; the
/// naming ranks first, then kickers), e.g. two pair, Kings and Fives with a Nine kicker is
/// `{"category": "two_pair", "ranks": "K59"}`; a royal flush is a straight flush with ranks
/// `A`. A low uses the same categories (`high_card` is an unpaired low) with ranks as the
/// low reads, highest first and the ace last: `8-6-4-2-A` is `"8642A"`.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct HandCode {
    /// the category
    pub category: HandCategory,
    /// rank symbols, naming ranks first
    pub ranks: String,
}

/// A hand's strength: the high hand (stud, stud8) and the low (razz; stud8 when it qualifies
/// with five cards). With fewer than five cards, what the cards make so far (a pair of
/// Kings; a razz low of 7-4-A). The English words are [`HandStrength::name`].
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct HandStrength {
    /// the high hand (not in razz)
    pub high: Option<HandCode>,
    /// the low hand, if any
    pub low: Option<HandCode>,
}

fn rank_symbols(ranks: &[Rank]) -> String {
    ranks.iter().map(|r| r.symbol()).collect()
}

/// Ranks grouped by how many of each there are (most first, then by `order`, greatest
/// first): the partial hand of fewer than five cards.
fn partial_code(cards: &[Card], ace_low: bool) -> HandCode {
    let order = |r: Rank| if ace_low && r == Rank::Ace { 0 } else { r as u8 + 1 };
    let mut groups: Vec<(usize, Rank)> = Vec::new();
    for c in cards {
        match groups.iter_mut().find(|(_, r)| *r == c.rank()) {
            Some(g) => g.0 += 1,
            None => groups.push((1, c.rank())),
        }
    }
    groups.sort_by(|a, b| b.0.cmp(&a.0).then(order(b.1).cmp(&order(a.1))));
    let counts: Vec<usize> = groups.iter().map(|g| g.0).collect();
    let category = match counts.as_slice() {
        [4, ..] => HandCategory::FourOfAKind,
        [3, ..] => HandCategory::ThreeOfAKind,
        [2, 2, ..] => HandCategory::TwoPair,
        [2, ..] => HandCategory::OnePair,
        _ => HandCategory::HighCard,
    };
    HandCode { category, ranks: rank_symbols(&groups.iter().map(|g| g.1).collect::<Vec<_>>()) }
}

impl HandStrength {
    /// The strength of `cards` (a player's own cards plus any community card) in `variant`.
    /// `None` without cards.
    pub fn of(variant: Variant, cards: &[Card]) -> Option<HandStrength> {
        if cards.is_empty() {
            return None;
        }
        if cards.len() < 5 {
            return Some(match variant {
                Variant::Razz | Variant::London => HandStrength { high: None, low: Some(partial_code(cards, true)) },
                _ => HandStrength { high: Some(partial_code(cards, false)), low: None },
            });
        }
        let high = |h: eval::HighRank| HandCode { category: h.category(), ranks: rank_symbols(&h.ranks()) };
        let low = |l: eval::LowRank| {
            let (category, ranks) = l.category_and_ranks();
            HandCode { category, ranks: rank_symbols(&ranks) }
        };
        let cards = cards.get(..cards.len().min(7)).unwrap_or(cards);
        Some(match variant {
            Variant::Stud | Variant::Chicago | Variant::Mississippi => {
                HandStrength { high: Some(high(eval::eval_high(cards))), low: None }
            }
            Variant::Razz | Variant::London => HandStrength { high: None, low: Some(low(eval::eval_low_a5(cards))) },
            Variant::Stud8 | Variant::Stud8Declare => {
                let (h, l) = eval::eval_hilo8(cards);
                HandStrength { high: Some(high(h)), low: l.map(low) }
            }
        })
    }
}

/// The pots as a card room shows them while a hand is played, followed event by event: all
/// the chips put in (bets of the street in progress included), split into a main pot and
/// side pots only at the levels of players all in. At the end of the betting they are the
/// engine's own pots (the ones awarded, with the same numbers). Events in, pots out: a
/// client's view of the events, and the table's, agree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PotTracker {
    seats: Vec<Tracked>,
    over: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Tracked {
    seat: Seat,
    stack: Chips,
    /// this street's chips
    street: Chips,
    /// the hand's chips, antes included
    total: Chips,
    folded: bool,
}

impl PotTracker {
    fn seat(&mut self, seat: Seat) -> Option<&mut Tracked> {
        self.seats.iter_mut().find(|s| s.seat == seat)
    }

    fn pay(&mut self, seat: Seat, amount: Chips, bet: bool) {
        if let Some(s) = self.seat(seat) {
            s.stack = s.stack.saturating_sub(amount);
            s.total += amount;
            if bet {
                s.street += amount;
            }
        }
    }

    /// Follows one event; true when the pots may have changed.
    pub fn apply(&mut self, event: &Event) -> bool {
        match *event {
            Event::HandStarted { ref seats, .. } => {
                self.seats = seats
                    .iter()
                    .map(|&(seat, stack)| Tracked { seat, stack, street: 0, total: 0, folded: false })
                    .collect();
                self.over = false;
            }
            Event::Ante { seat, amount, .. } => self.pay(seat, amount, false),
            Event::BringIn { seat, amount, .. } | Event::Call { seat, amount, .. } => self.pay(seat, amount, true),
            Event::Complete { seat, to, .. } | Event::Bet { seat, to, .. } | Event::Raise { seat, to, .. } => {
                let already = self.seat(seat).map_or(0, |s| s.street);
                self.pay(seat, to.saturating_sub(already), true);
            }
            Event::Uncalled { seat, amount } => {
                if let Some(s) = self.seat(seat) {
                    s.stack += amount;
                    s.street = s.street.saturating_sub(amount);
                    s.total = s.total.saturating_sub(amount);
                }
            }
            Event::Fold { seat } => {
                if let Some(s) = self.seat(seat) {
                    s.folded = true;
                }
            }
            Event::StreetStarted { .. } => {
                for s in &mut self.seats {
                    s.street = 0;
                }
                return false;
            }
            Event::Award { .. } | Event::HandEnded { .. } => {
                let was = self.over;
                self.over = true;
                return !was;
            }
            _ => return false,
        }
        true
    }

    /// Main pot first, then side pots; empty once the pots are awarded (what an event frame
    /// carries: the chips have gone to the winners).
    pub fn pots(&self) -> Vec<Pot> {
        if self.over {
            return Vec::new();
        }
        self.hand_pots()
    }

    /// The hand's pots: while it is played, as [`PotTracker::pots`]; once awarded, the pots as
    /// they were awarded (what a snapshot of the finished hand shows, like the engine's
    /// [`Hand::pots`]).
    pub fn hand_pots(&self) -> Vec<Pot> {
        let live = || self.seats.iter().filter(|s| !s.folded);
        let mut levels: Vec<Chips> = live().filter(|s| s.stack == 0 && s.total > 0).map(|s| s.total).collect();
        levels.extend(self.seats.iter().map(|s| s.total).max().filter(|&top| top > 0));
        levels.sort_unstable();
        levels.dedup();
        let mut pots = Vec::with_capacity(levels.len());
        let mut prev = 0;
        for level in levels {
            let amount: Chips = self.seats.iter().map(|s| s.total.min(level) - s.total.min(prev)).sum();
            // Players with chips behind can still match any level; all-in players reach theirs.
            let eligible = live().filter(|s| s.stack > 0 || s.total >= level).map(|s| s.seat).collect();
            if amount > 0 {
                pots.push(Pot { amount, eligible });
            }
            prev = level;
        }
        pots
    }
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
    /// players live at showdown and the viewer's own are shown, other down cards are backs;
    /// declarations once they were revealed (RULES.md 12.2).
    pub fn last_hand_events(&self, events: &[Event], viewer: Viewer) -> Vec<Event> {
        let revealed: Vec<Seat> =
            self.seat_state().filter(|s| s.at_showdown && self.is_over()).map(|s| s.seat).collect();
        let declarations_out = events.iter().any(|e| matches!(e, Event::DeclarationsRevealed { .. }));
        events
            .iter()
            .map(|e| match e {
                Event::Dealt { seat, .. } if revealed.contains(seat) => e.clone(),
                Event::Declared { .. } if declarations_out => e.clone(),
                _ => e.for_viewer(viewer),
            })
            .collect()
    }

    fn view(&self, viewer: Viewer, reveal: Reveal) -> HandView {
        // RULES.md 12.2: declarations are revealed together, before the showdown.
        let declarations_out = matches!(self.phase(), Phase::Showdown | Phase::Over);
        let seats = self
            .seat_state()
            .map(|s| {
                let whole = s.shown || (reveal == Reveal::LastHand && s.at_showdown);
                let own = viewer == Viewer::Seat(s.seat);
                let named = whole || (own && !s.folded && s.cards.len() >= 5);
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
                    hand: named.then(|| self.description_of(s.seat)).flatten(),
                    hand_code: named.then(|| self.strength_of(s.seat)).flatten(),
                    won: s.won,
                    declared: s.declaration.is_some(),
                    declaration: s.declaration.filter(|_| own || declarations_out),
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
            bring_in: self.actions().iter().find(|a| a.action == Action::BringIn).map(|a| a.seat),
        }
    }

    /// What `seat`'s prompt costs: (chips a call adds, chips the bring-in posts), each when
    /// that action is legal for `seat` now.
    pub fn prompt_amounts(&self, seat: Seat) -> (Option<Chips>, Option<Chips>) {
        let legal = self.legal_actions(seat);
        let Some(s) = self.seat_state().find(|s| s.seat == seat) else { return (None, None) };
        let call = legal.contains(&Action::Call).then(|| self.level().saturating_sub(s.street_in).min(s.stack));
        let bring_in = legal.contains(&Action::BringIn).then(|| self.config().bring_in.min(s.stack));
        (call, bring_in)
    }

    /// The strength of `seat`'s cards so far (with the community card, if dealt); `None` for
    /// a seat not in the hand or folded. Only for that seat's own eyes (or once shown).
    pub fn strength_of(&self, seat: Seat) -> Option<HandStrength> {
        let s = self.seat_state().find(|s| s.seat == seat && !s.folded)?;
        let mut cards: Vec<Card> = s.cards.to_vec();
        cards.extend(self.community());
        HandStrength::of(self.config().variant, &cards)
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
