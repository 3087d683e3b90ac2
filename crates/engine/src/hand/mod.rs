//! The stud hand state machine (RULES.md sections 3, 4 and 5).
//!
//! [`Hand::start`] posts the antes, deals 3rd street and waits for the bring-in. Every later
//! input is an [`Action`] for the seat whose turn it is ([`Hand::to_act`]); [`Hand::apply`]
//! either refuses it (the hand is unchanged) or returns what happened as [`Event`]s. Dealing,
//! skipped betting rounds, uncalled bets, automatic shows and pot awards happen inside `apply`.
//! Timeouts are ordinary actions chosen by the caller ([`Hand::timeout_action`]).

mod legal;
mod pots;
mod replay;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::fmt;

use crate::action::{Action, ActionError, Declaration, SeatChips, Street};
use crate::card::{Card, Rank, Suit};
use crate::config::{Betting, Chips, MAX_CHIPS, Seat, TableConfig, Variant};
use crate::deck::{Commitment, Deck, Seed};
use crate::eval::{self, HighRank, LowRank};
use crate::event::{Event, Events, Half, push_in_place};
use crate::record::{AwardRecord, HandRecord, HandResult, RecordedAction, ShowdownRecord};

pub use crate::error::SetupError;
pub use legal::{ActionList, Legal, LegalEntry};
pub use pots::Pot;

/// Where the hand is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Phase {
    /// A betting round; `to_act` must act.
    Betting,
    /// The declaration of stud8_declare (RULES.md 12.2); `to_act` must declare.
    Declare,
    /// Showdown; `to_act` must choose to show or muck.
    Showdown,
    /// Over: pots awarded.
    Over,
}

#[derive(Clone, Debug)]
struct Player {
    seat: Seat,
    start_stack: Chips,
    stack: Chips,
    /// committed on the current street
    street_in: Chips,
    /// committed in the whole hand, antes included
    total_in: Chips,
    /// own cards in dealing order: 0, 1 and 6 are down, 2..=5 up; the eighth slot is never
    /// dealt (a word's size: seven bytes are copied as two overlapping halves, which stalls)
    cards: [Card; 8],
    n_cards: u8,
    /// the up cards as a board, kept as they are dealt (who acts first)
    board: eval::Board,
    folded: bool,
    /// the `reopen` counter when this player last acted on this street (0: not yet)
    acted_at: u32,
    shown: bool,
    mucked: bool,
    /// stud8_declare: what the player declared (RULES.md 12.2)
    declaration: Option<Declaration>,
    won: Chips,
}

impl Player {
    fn live(&self) -> bool {
        !self.folded
    }
    /// Still able to bet: in the hand with chips behind.
    fn can_bet(&self) -> bool {
        !self.folded && self.stack > 0
    }
    fn own_cards(&self) -> &[Card] {
        &self.cards[..self.n_cards as usize]
    }
    fn up_cards(&self) -> &[Card] {
        let n = (self.n_cards as usize).min(6);
        self.cards.get(2..n).unwrap_or(&[])
    }
    fn is_up(position: usize) -> bool {
        (2..=5).contains(&position)
    }
    /// Chicago (RULES.md 13.2): the highest spade among the down cards (the first two and the
    /// 7th), as its rank index plus one; 0 for none.
    fn hole_spade(&self) -> u8 {
        self.own_cards()
            .iter()
            .enumerate()
            .filter(|&(k, c)| !Player::is_up(k) && c.suit() == Suit::Spades)
            .map(|(_, c)| c.rank().index() + 1)
            .max()
            .unwrap_or(0)
    }
}

/// A player's hand values: high, and low (razz, or a qualifying stud8 low).
type Values = (Option<HighRank>, Option<LowRank>);

#[derive(Clone, Debug)]
struct Showdown {
    /// every player's values, computed once when the showdown starts
    values: [Values; 8],
    /// chicago: each player's highest spade in the hole ([`Player::hole_spade`]), else 0
    spades: [u8; 8],
    /// player indices in showing order; `len` of them
    order: [u8; 8],
    len: u8,
    next: usize,
    best_high: Option<HighRank>,
    best_low: Option<LowRank>,
    best_spade: u8,
}

/// What an award's hand name describes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Basis {
    High,
    Low,
    Spade,
}

/// One hand of stud. Not serialisable: its record ([`Hand::record`]) is. Its `Debug` is
/// redacted: it shows where the hand is, never a card, the deck or the seed.
#[derive(Clone)]
pub struct Hand {
    config: TableConfig,
    deck: Deck,
    seed: Option<Seed>,
    commitment: Option<Commitment>,
    explicit_deck: Option<Vec<Card>>,
    players: Vec<Player>,
    /// players not folded
    n_live: u8,
    /// per player, the most they can have in on this street (stack plus street commitment;
    /// 0 for a folded or absent player): constant through a street but for folds
    caps: [Chips; 8],
    /// the greatest of `caps` with its player, and the second greatest: whether anyone but
    /// player `i` could go past the current level is then one comparison
    top_caps: ((Chips, u8), Chips),
    /// bit `i`: player `i` must act before the street can end (always able to bet)
    pending: Mask,
    /// bit `i`: player `i` can still bet (in the hand, chips behind); set when a street's
    /// betting begins and kept through it
    bettors: Mask,
    community: Option<Card>,
    street: Street,
    phase: Phase,
    to_act: Option<usize>,
    /// what `to_act` may do: computed once per turn ([`Hand::set_turn`]), read by
    /// `legal_actions` and by `apply`'s check
    legal: Legal,
    /// the bring-in is owed by `to_act`
    bring_in_pending: bool,
    /// highest street commitment
    level: Chips,
    /// the level reached by voluntary wagers (the bring-in is not one)
    wager_level: Chips,
    /// the level reached by the last full bet or raise (0 before any)
    full_level: Chips,
    /// big-bet stud: the largest full bet or raise increment on this street (RULES.md 10.5)
    increment: Chips,
    /// full bets and raises on this street; the completion is the first
    bets: u8,
    /// the street was capped while three or more players could bet: with `uncapped_heads_up`,
    /// a later fold or all-in that leaves two bettors does not lift the cap (RULES.md 4.6)
    cap_locked: bool,
    /// a big bet or raise was made on a 4th street with an open pair
    big_made: bool,
    /// the 4th-street open-pair option is in force
    open_pair: bool,
    /// bumped by every full bet or raise: players who acted before it may raise again
    reopen: u32,
    /// last player to bet or raise (or bring in) per street
    aggressor: [Option<usize>; 5],
    showdown: Option<Showdown>,
    actions: Vec<RecordedAction>,
    awards: Vec<AwardRecord>,
}

/// What `{:?}` may show of a hand: public facts only (no card, no deck, no seed), so a hand
/// that reaches a log or a panic message leaks nothing (ARCHITECTURE.md, hidden information).
impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        /// One seat's public chips and state, printed in place of the player with its cards.
        struct SeatDebug<'a>(&'a Player);
        impl fmt::Debug for SeatDebug<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let p = self.0;
                f.debug_struct("Seat")
                    .field("seat", &p.seat.number())
                    .field("stack", &p.stack)
                    .field("street_in", &p.street_in)
                    .field("total_in", &p.total_in)
                    .field("folded", &p.folded)
                    .field("cards", &p.n_cards)
                    .finish()
            }
        }
        let seats: Vec<SeatDebug<'_>> = self.players.iter().map(SeatDebug).collect();
        f.debug_struct("Hand")
            .field("variant", &self.config.variant)
            .field("street", &self.street)
            .field("phase", &self.phase)
            .field("to_act", &self.to_act().map(Seat::number))
            .field("pot", &self.pot_total())
            .field("level", &self.level)
            .field("seats", &seats)
            .field("deck", &"<redacted>")
            .finish_non_exhaustive()
    }
}

impl Showdown {
    /// Player indices in showing order.
    fn order(&self) -> impl Iterator<Item = usize> + '_ {
        self.order.iter().take(usize::from(self.len)).map(|&j| usize::from(j))
    }
}

impl Hand {
    /// Starts a hand with a deck shuffled from `seed`. Returns the hand and the events of the
    /// antes and the 3rd-street deal.
    ///
    /// # Errors
    /// [`SetupError`] for an invalid config or seat list.
    pub fn start(config: TableConfig, seats: &[(Seat, Chips)], seed: Seed) -> Result<(Hand, Vec<Event>), SetupError> {
        let mut events = Vec::with_capacity(64);
        let hand = Hand::start_into(config, seats, Deck::shuffled(&seed), Some(seed), None, &mut events)?;
        Ok((hand, events))
    }

    /// Starts a hand that deals `order` first, then the other cards in id order (tests choose the
    /// deal this way).
    ///
    /// # Errors
    /// [`SetupError`] for an invalid config or seat list; a bad order is reported as a panic-free
    /// `Err` by [`Deck::with_order`] before this is called.
    pub fn start_with_deck(
        config: TableConfig,
        seats: &[(Seat, Chips)],
        order: &[Card],
    ) -> Result<(Hand, Vec<Event>), crate::error::Error> {
        let deck = Deck::with_order(order)?;
        let mut events = Vec::with_capacity(64);
        let hand = Hand::start_into(config, seats, deck, None, Some(order.to_vec()), &mut events)?;
        Ok((hand, events))
    }

    /// [`Hand::start`] writing events into a caller's buffer (benchmarks and bots reuse one).
    ///
    /// # Errors
    /// [`SetupError`] for an invalid config or seat list.
    pub fn start_into(
        config: TableConfig,
        seats: &[(Seat, Chips)],
        deck: Deck,
        seed: Option<Seed>,
        explicit_deck: Option<Vec<Card>>,
        events: &mut impl Events,
    ) -> Result<Hand, SetupError> {
        config.validate()?;
        if !(2..=8).contains(&seats.len()) {
            return Err(SetupError::PlayerCount(seats.len()));
        }
        let mut players: Vec<Player> = Vec::with_capacity(seats.len());
        for &(seat, stack) in seats {
            if stack == 0 || stack > MAX_CHIPS {
                return Err(SetupError::BadStack { seat, stack });
            }
            if players.iter().any(|p| p.seat == seat) {
                return Err(SetupError::DuplicateSeat(seat));
            }
            players.push(Player {
                seat,
                start_stack: stack,
                stack,
                street_in: 0,
                total_in: 0,
                cards: [Card::new(Rank::Two, Suit::Clubs); 8],
                n_cards: 0,
                board: eval::Board::default(),
                folded: false,
                acted_at: 0,
                shown: false,
                mucked: false,
                declaration: None,
                won: 0,
            });
        }
        if !players.is_sorted_by_key(|p| p.seat) {
            players.sort_by_key(|p| p.seat);
        }
        let commitment = seed.map(|s| s.commitment());
        let n_live = players.len() as u8;
        let mut hand = Hand {
            config,
            deck,
            seed,
            commitment,
            explicit_deck,
            players,
            n_live,
            caps: [0; 8],
            top_caps: ((0, 0), 0),
            pending: 0,
            bettors: 0,
            community: None,
            street: Street::Third,
            phase: Phase::Betting,
            to_act: None,
            legal: Legal::NONE,
            bring_in_pending: false,
            level: 0,
            wager_level: 0,
            full_level: 0,
            increment: 0,
            bets: 0,
            cap_locked: false,
            big_made: false,
            open_pair: false,
            reopen: 1,
            aggressor: [None; 5],
            showdown: None,
            actions: Vec::with_capacity(64),
            awards: Vec::new(),
        };
        events.push_with(|| Event::HandStarted {
            commitment: commitment.map(Box::new),
            seats: hand.players.iter().map(|p| (p.seat, p.start_stack)).collect(),
        });
        // RULES.md 3.1: every player posts the ante, all-in if the stack is smaller.
        if config.ante > 0 {
            for p in &mut hand.players {
                let amount = config.ante.min(p.stack);
                p.stack -= amount;
                p.total_in += amount;
                events.push_with(|| Event::Ante { seat: p.seat, amount, all_in: p.stack == 0 });
            }
        }
        // RULES.md 3.2: two down cards, then the door card, to each player from seat 1.
        for round in 0..3 {
            for i in 0..hand.players.len() {
                hand.deal_to(i, round == 2, events);
            }
        }
        hand.begin_betting(events);
        Ok(hand)
    }

    /// Every field, cards and deck included, for tests that check a refused action changed
    /// nothing (the `Debug` impl is redacted and would miss a change to a card).
    #[cfg(test)]
    pub(crate) fn internals(&self) -> String {
        format!(
            "{:?}",
            (
                (&self.config, self.deck.remaining(), &self.seed.map(|s| s.to_hex()), &self.explicit_deck),
                (&self.players, self.n_live, self.caps, self.top_caps, self.pending, self.bettors),
                (self.community, self.street, self.phase, self.to_act, self.legal, self.bring_in_pending),
                (
                    self.level,
                    self.wager_level,
                    self.full_level,
                    self.increment,
                    self.bets,
                    self.big_made,
                    self.open_pair
                ),
                (self.reopen, self.aggressor, &self.showdown, &self.actions, &self.awards, self.cap_locked),
            )
        )
    }

    // ---- queries -------------------------------------------------------------------------

    /// The table configuration.
    pub fn config(&self) -> &TableConfig {
        &self.config
    }

    /// The current street.
    pub fn street(&self) -> Street {
        self.street
    }

    /// Betting, showdown or over.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// True when the pots have been awarded.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Whose turn it is (to bet, or to choose show or muck).
    pub fn to_act(&self) -> Option<Seat> {
        self.to_act.and_then(|i| self.players.get(i)).map(|p| p.seat)
    }

    /// The seats dealt in, in seat order.
    pub fn seats(&self) -> impl Iterator<Item = Seat> + '_ {
        self.players.iter().map(|p| p.seat)
    }

    /// Each seat's stack now (chips not committed to the pot).
    pub fn stacks(&self) -> Vec<SeatChips> {
        self.players.iter().map(|p| SeatChips { seat: p.seat, chips: p.stack }).collect()
    }

    /// Total chips committed to the pot so far (antes included, uncalled bets excluded once returned).
    pub fn pot_total(&self) -> Chips {
        if self.is_over() { 0 } else { self.players.iter().map(|p| p.total_in).sum() }
    }

    /// The pots as they stand (main pot first); once the hand is over, the pots as awarded
    /// (an `Award`'s `pot` indexes them).
    pub fn pots(&self) -> Vec<Pot> {
        self.pot_layers()
            .iter()
            .map(|(amount, eligible)| Pot { amount, eligible: self.seats_in(eligible).collect() })
            .collect()
    }

    /// Main and side pots (amount, eligible player mask) from what everyone put in.
    fn pot_layers(&self) -> pots::Layers {
        pots::build(self.players.iter().map(|p| (p.total_in, p.live())))
    }

    /// The player indices in `mask`, in seat order.
    fn seats_in(&self, mask: u8) -> impl Iterator<Item = Seat> + '_ {
        self.players.iter().enumerate().filter(move |(i, _)| mask & bit(*i) != 0).map(|(_, p)| p.seat)
    }

    /// The commitment `sha256(seed)`, if the deck came from a seed.
    pub fn commitment(&self) -> Option<Commitment> {
        self.commitment
    }

    /// The community card, once dealt.
    pub fn community(&self) -> Option<Card> {
        self.community
    }

    /// The actions applied so far, in order.
    pub fn actions(&self) -> &[RecordedAction] {
        &self.actions
    }

    /// What the player to act ([`Hand::to_act`]) may do, compact; [`Legal::NONE`] when nobody
    /// is to act. Borrowed, not copied: a copy of it right after the turn wrote it is one wide
    /// load over two narrower stores, which stalls (about a tenth of a bot hand's time).
    pub fn legal(&self) -> &Legal {
        &self.legal
    }

    /// The legal actions for `seat` now with their ranges ([`LegalEntry`]: in big-bet stud a
    /// wager's `min_to` and `max_to`); empty when it is not that seat's turn.
    pub fn legal_entries(&self, seat: Seat) -> Vec<LegalEntry> {
        match self.to_act {
            Some(i) if self.players.get(i).is_some_and(|p| p.seat == seat) => self.legal.entries(),
            _ => Vec::new(),
        }
    }

    /// The legal actions for `seat` now (empty when it is not that seat's turn). In big-bet
    /// stud a wager is listed by the two ends of its range ([`Hand::legal_entries`]).
    pub fn legal_actions(&self, seat: Seat) -> ActionList {
        // One construction site, so the list is built where the caller wants it.
        let options = match self.to_act {
            Some(i) if self.players.get(i).is_some_and(|p| p.seat == seat) => self.legal,
            _ => Legal::NONE,
        };
        options.list()
    }

    /// What the clock does for the player to act when their time runs out (RULES.md 8): check
    /// if free, else fold; the bring-in is posted (it cannot be refused); at showdown, muck; a
    /// declaration not made in time is `high` (RULES.md 12.2).
    pub fn timeout_action(&self) -> Option<(Seat, Action)> {
        let i = self.to_act?;
        let seat = self.players.get(i)?.seat;
        let high = Action::Declare { declaration: Declaration::High };
        let pick = [Action::Muck, high, Action::Check, Action::BringIn, Action::Fold]
            .into_iter()
            .find(|&a| self.legal.allows(a))?;
        Some((seat, pick))
    }

    /// Hands the turn to player `i` (or to nobody) and works out what they may do.
    fn set_turn(&mut self, to_act: Option<usize>) {
        self.to_act = to_act;
        self.legal = match to_act {
            Some(i) => self.options_for(i),
            None => Legal::NONE,
        };
    }

    /// What player `i` may do now (RULES.md 4 and 5).
    fn options_for(&self, i: usize) -> Legal {
        let Some(p) = self.players.get(i) else { return Legal::NONE };
        match self.phase {
            Phase::Over => return Legal::NONE,
            Phase::Showdown => return Legal::SHOW_OR_MUCK,
            Phase::Declare => return Legal::DECLARE_ANY,
            Phase::Betting => {}
        }
        let all_in_to = p.street_in + p.stack;
        if self.config.betting.is_big_bet() {
            return self.big_bet_options(i, all_in_to);
        }
        if self.bring_in_pending {
            // RULES.md 4.2: bring in or complete, nothing else; a bring-in as large as the small
            // bet is already the full bet, so there is nothing to complete.
            return if p.stack > self.config.bring_in && self.config.small_bet > self.config.bring_in {
                let to = self.config.small_bet.min(all_in_to);
                Legal::new(Legal::BRING_IN | Legal::COMPLETE, [to, 0])
            } else {
                Legal::new(Legal::BRING_IN, [0; 2])
            };
        }
        let owed = self.level - p.street_in;
        // Fold is offered only when facing a bet.
        let mut out = Legal::new(if owed > 0 { Legal::FOLD | Legal::CALL } else { Legal::CHECK }, [0; 2]);
        // RULES.md 4.6: heads-up means two players who can still bet (all-in players do not
        // count), and only if the street was not capped before it became heads-up.
        debug_assert_eq!(self.bettors, self.bettors_now());
        let capped = self.bets > self.config.max_raises
            && !(self.config.uncapped_heads_up && !self.cap_locked && self.bettors.count_ones() <= 2);
        let reopened = p.acted_at != self.reopen;
        // RULES.md 4.10: no betting when nobody else could put in another chip. A raise is offered
        // only if some other player still in the hand could go past the current level.
        let answerable = || {
            debug_assert_eq!(self.top_caps, top_two(&self.caps));
            let (top, second) = self.top_caps;
            let others = if usize::from(top.1) == i { second } else { top.0 };
            others > self.level
        };
        if p.stack > owed && !capped && reopened && answerable() {
            out.add(if self.bets > 0 {
                Legal::RAISE
            } else if self.level > 0 {
                Legal::COMPLETE
            } else {
                Legal::BET
            });
            let (small, big) = self.units_pair();
            let first = (self.full_level + small).min(all_in_to);
            out.set_to(0, first);
            if let Some(big) = big {
                // Both sizes clip to the same all-in when the stack is short: list it once.
                let second = (self.full_level + big).min(all_in_to);
                if second != first {
                    out.set_to(1, second);
                }
            }
        }
        out
    }

    /// What player `i` may do in big-bet stud (RULES.md 10): fold, call or check as in fixed
    /// limit, and one wager with a range of totals.
    fn big_bet_options(&self, i: usize, all_in_to: Chips) -> Legal {
        let Some(p) = self.players.get(i) else { return Legal::NONE };
        let pot = self.players.iter().map(|q| q.total_in).sum::<Chips>();
        // RULES.md 10.5: a raise adds at least the largest full increment so far and at least
        // the minimum bet.
        let step = self.config.small_bet.max(self.increment);
        let range = |min_to: Chips, pot_max: Chips| {
            let max_to = match self.config.betting {
                Betting::PotLimit => pot_max.min(all_in_to),
                _ => all_in_to,
            };
            let min_to = min_to.min(all_in_to);
            [min_to, if max_to > min_to { max_to } else { 0 }]
        };
        if self.bring_in_pending {
            // RULES.md 10.3: bring in, or open for more: priced as bringing in and raising one's
            // own bring-in (the pot after posting it, nothing to call).
            let bring_in = self.config.bring_in;
            return if p.stack > bring_in {
                let to = range(bring_in + step, bring_in + pot + bring_in);
                Legal::new(Legal::BRING_IN | Legal::BET | Legal::RANGE, to)
            } else {
                Legal::new(Legal::BRING_IN, [0; 2])
            };
        }
        let owed = self.level - p.street_in;
        let mut out = Legal::new(if owed > 0 { Legal::FOLD | Legal::CALL } else { Legal::CHECK }, [0; 2]);
        // RULES.md 10.6: a player who has acted may raise again only when what they face now
        // is at least a full raise over what they last matched (TDA: short all-ins count
        // together, measured from that player's last action).
        let reopened = p.acted_at != self.reopen && (p.acted_at == 0 || owed >= step);
        // RULES.md 4.10, 10.7: a raise only if someone else could answer it.
        let answerable = {
            debug_assert_eq!(self.top_caps, top_two(&self.caps));
            let (top, second) = self.top_caps;
            let others = if usize::from(top.1) == i { second } else { top.0 };
            others > self.level
        };
        if p.stack > owed && reopened && answerable {
            out.add(if self.level > 0 { Legal::RAISE } else { Legal::BET } | Legal::RANGE);
            // Pot limit: call, then raise by the pot as it stands after the call.
            let to = range(self.level + step, self.level + pot + owed);
            out.set_to(0, to[0]);
            out.set_to(1, to[1]);
        }
        out
    }

    /// The bet sizes open now: the small bet on 3rd and 4th street, the big bet later; on a
    /// 4th street with an open pair both, until a big bet is made (RULES.md 4.5).
    fn units(&self) -> impl Iterator<Item = Chips> {
        let (a, b) = self.units_pair();
        std::iter::once(a).chain(b)
    }

    /// [`Hand::units`] as (smallest, optional larger).
    fn units_pair(&self) -> (Chips, Option<Chips>) {
        let (small, big) = (self.config.small_bet, self.config.big_bet);
        match self.street {
            Street::Third => (small, None),
            Street::Fourth if self.open_pair && self.big_made => (big, None),
            Street::Fourth if self.open_pair && small != big => (small, Some(big)),
            Street::Fourth => (small, None),
            _ => (big, None),
        }
    }

    // ---- applying actions ----------------------------------------------------------------

    /// Applies `action` by `seat` and returns what happened.
    ///
    /// # Errors
    /// [`ActionError`] if the hand is over, the seat is not in it, it is not its turn, or the
    /// action is not one of [`Hand::legal_actions`]. The hand is then unchanged.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, ActionError> {
        let mut events = Vec::with_capacity(16);
        self.apply_into(seat, action, &mut events)?;
        Ok(events)
    }

    /// [`Hand::apply`] appending to a caller's buffer. On error nothing is appended.
    ///
    /// # Errors
    /// As [`Hand::apply`].
    pub fn apply_into(&mut self, seat: Seat, action: Action, events: &mut impl Events) -> Result<(), ActionError> {
        // The usual case first: the seat whose turn it is.
        let i = match self.to_act {
            Some(turn) if self.phase != Phase::Over && self.players.get(turn).is_some_and(|p| p.seat == seat) => turn,
            _ => return Err(self.turn_error(seat)),
        };
        if !self.legal.allows(action) {
            return Err(ActionError::Illegal { action, legal: self.legal.list().to_vec() });
        }
        push_in_place(&mut self.actions, || RecordedAction { seat, action });
        match action {
            Action::Show | Action::Muck => self.showdown_choice(i, action == Action::Show, events),
            Action::Declare { declaration } => self.declare(i, declaration, events),
            _ => {
                self.bet_action(i, action, events);
                self.after_bet_action(i, action == Action::Fold, events);
            }
        }
        Ok(())
    }

    /// Why `seat` may not act now.
    fn turn_error(&self, seat: Seat) -> ActionError {
        if self.phase == Phase::Over {
            return ActionError::HandOver;
        }
        if !self.players.iter().any(|p| p.seat == seat) {
            return ActionError::NotInHand(seat);
        }
        match self.to_act.and_then(|turn| self.players.get(turn)) {
            Some(p) => ActionError::NotYourTurn { seat, to_act: p.seat },
            None => ActionError::HandOver,
        }
    }

    fn bet_action(&mut self, i: usize, action: Action, events: &mut impl Events) {
        let street = self.street;
        let reopen = self.reopen;
        let Some(p) = self.players.get_mut(i) else { return };
        let seat = p.seat;
        match action {
            Action::Fold => {
                p.folded = true;
                if let Some(cap) = self.caps.get_mut(i) {
                    // Only one of the two largest changes them.
                    let counted = *cap >= self.top_caps.1;
                    *cap = 0;
                    if counted {
                        self.top_caps = top_two(&self.caps);
                    }
                }
                self.n_live -= 1;
                self.pending &= !seat_bit(i);
                self.bettors &= !seat_bit(i);
                events.push_with(|| Event::Fold { seat });
            }
            Action::Check => {
                self.pending &= !seat_bit(i);
                p.acted_at = reopen;
                events.push_with(|| Event::Check { seat });
            }
            Action::Call => {
                let amount = (self.level - p.street_in).min(p.stack);
                p.stack -= amount;
                p.street_in += amount;
                p.total_in += amount;
                self.pending &= !seat_bit(i);
                self.bettors &= !(seat_bit(i) * Mask::from(p.stack == 0));
                p.acted_at = reopen;
                events.push_with(|| Event::Call { seat, amount, all_in: p.stack == 0 });
            }
            Action::BringIn => {
                let amount = self.config.bring_in.min(p.stack);
                p.stack -= amount;
                p.street_in += amount;
                p.total_in += amount;
                self.pending &= !seat_bit(i);
                self.bettors &= !(seat_bit(i) * Mask::from(p.stack == 0));
                p.acted_at = reopen;
                self.level = amount;
                self.bring_in_pending = false;
                self.aggressor[street as usize] = Some(i);
                let all_in = p.stack == 0;
                if self.config.betting.is_big_bet() {
                    // RULES.md 10.3, 10.5: the bring-in is the street's opening bet, an
                    // increment of its own size (even when posted short).
                    self.full_level = amount;
                    self.increment = self.config.bring_in;
                    self.bets = 1;
                    self.reopen += 1;
                    p.acted_at = self.reopen;
                } else if amount == self.config.small_bet {
                    // RULES.md 4.2: a bring-in of the full small bet is the street's first bet:
                    // the next players raise it, and it counts towards the cap.
                    self.wager_level = amount;
                    self.full_level = amount;
                    self.bets = 1;
                    self.reopen += 1;
                    p.acted_at = self.reopen;
                }
                events.push_with(|| Event::BringIn { seat, amount, all_in });
            }
            Action::Complete { to } | Action::Bet { to } | Action::Raise { to } => {
                if self.bring_in_pending && self.config.betting.is_big_bet() {
                    // RULES.md 10.3: opening for more is bringing in and raising one's own
                    // bring-in: the bring-in is the full level the raise is measured from.
                    self.full_level = self.config.bring_in;
                    self.increment = self.config.bring_in;
                    self.bets = 1;
                }
                let add = to - p.street_in;
                p.stack -= add;
                p.street_in = to;
                p.total_in += add;
                let all_in = p.stack == 0;
                self.bring_in_pending = false;
                self.aggressor[street as usize] = Some(i);
                let (full, big) = self.classify_wager(to);
                if full && self.config.betting.is_big_bet() {
                    // RULES.md 10.5: a raise is measured from the bet it raises: the level
                    // (a short all-in's included), or the bring-in a bring-in player opens
                    // over; never from an earlier full level below a short all-in.
                    self.increment = self.increment.max(to - self.level.max(self.full_level));
                }
                self.level = to.max(self.level);
                self.wager_level = to;
                if full {
                    self.full_level = to;
                    self.bets += 1;
                    self.reopen += 1;
                    self.big_made |= big;
                    // The wager that caps the street, counted before an all-in drops its maker
                    // from the bettors: three or more could bet, so the cap stays (RULES.md 4.6).
                    if self.bets == self.config.max_raises.saturating_add(1) && self.bettors.count_ones() > 2 {
                        self.cap_locked = true;
                    }
                }
                let reopen = self.reopen;
                if let Some(p) = self.players.get_mut(i) {
                    p.acted_at = reopen;
                }
                // Everyone else who can still bet must answer.
                self.bettors &= !(seat_bit(i) * Mask::from(all_in));
                debug_assert_eq!(self.bettors, self.bettors_now());
                self.pending = self.bettors & !seat_bit(i);
                events.push_with(|| match action {
                    Action::Complete { .. } => Event::Complete { seat, to, all_in },
                    Action::Bet { .. } => Event::Bet { seat, to, all_in },
                    _ => Event::Raise { seat, to, all_in },
                });
            }
            Action::Show | Action::Muck | Action::Declare { .. } => {}
        }
    }

    /// Is a wager to `to` a full bet or raise, and is it a big one (4th-street open pair)?
    /// RULES.md 4.9, short all-ins: a wager that reaches a bet size is full; an all-in short of it
    /// is full when it raises by half a bet or more, or when the short all-ins since the last
    /// full wager together reach a full bet.
    fn classify_wager(&self, to: Chips) -> (bool, bool) {
        if self.config.betting.is_big_bet() {
            // RULES.md 10.6: full when it adds a full increment to the last full level (short
            // all-ins since then count together).
            let step = self.config.small_bet.max(self.increment);
            return (to >= self.full_level + step, false);
        }
        let mut smallest = Chips::MAX;
        for unit in self.units() {
            if to == self.full_level + unit {
                let big = self.street == Street::Fourth && unit == self.config.big_bet && unit != self.config.small_bet;
                return (true, big);
            }
            smallest = smallest.min(unit);
        }
        // The bring-in is not a wager: an all-in completion is measured from zero.
        let own = to.saturating_sub(self.wager_level);
        let together = to.saturating_sub(self.full_level);
        (own * 2 >= smallest || together >= smallest, false)
    }

    fn after_bet_action(&mut self, i: usize, folded: bool, events: &mut impl Events) {
        // Only a fold can leave a single player in the hand.
        if folded && self.n_live == 1 {
            self.finish_uncontested(events);
            return;
        }
        match self.next_needing_action(i) {
            Some(j) => self.set_turn(Some(j)),
            None => self.end_street(events),
        }
    }

    /// The next player clockwise from `i` (exclusive) who still has to act.
    fn next_needing_action(&self, i: usize) -> Option<usize> {
        let after = self.pending & !((2 << i) - 1);
        let next = if after != 0 { after } else { self.pending };
        (next != 0).then(|| next.trailing_zeros() as usize)
    }

    /// The players still able to bet (in the hand with chips behind), as a bit mask.
    fn bettors_now(&self) -> Mask {
        self.players.iter().enumerate().fold(0, |mask, (j, p)| if p.can_bet() { mask | seat_bit(j) } else { mask })
    }

    // ---- streets -------------------------------------------------------------------------

    fn deal_to(&mut self, i: usize, up: bool, events: &mut impl Events) {
        let street = self.street;
        let razz = self.config.variant.is_razz_like();
        let Some(card) = self.deck.deal() else {
            // RULES.md 8: cannot happen with at most 8 players; the community card covers 7th.
            debug_assert!(false, "deck exhausted before 7th street");
            return;
        };
        if let Some(p) = self.players.get_mut(i) {
            if let Some(slot) = p.cards.get_mut(p.n_cards as usize).filter(|_| p.n_cards < 7) {
                *slot = card;
                p.n_cards += 1;
            }
            if up {
                p.board = if razz { p.board.with_low(card) } else { p.board.with_high(card) };
            }
            events.push_with(|| Event::Dealt { seat: p.seat, card: Some(card), up, street });
        }
    }

    /// Starts the betting of the current street (cards already dealt), or skips it when at
    /// most one player can bet.
    fn begin_betting(&mut self, events: &mut impl Events) {
        self.level = 0;
        self.wager_level = 0;
        self.full_level = 0;
        self.increment = 0;
        self.bets = 0;
        self.cap_locked = false;
        self.big_made = false;
        self.bring_in_pending = false;
        // One pass: street commitments cleared, each player's cap, who can bet.
        self.caps = [0; 8];
        let mut bettors: Mask = 0;
        for (j, (p, cap)) in self.players.iter_mut().zip(&mut self.caps).enumerate() {
            p.street_in = 0;
            p.acted_at = 0;
            *cap = if p.live() { p.stack } else { 0 };
            bettors |= Mask::from(*cap > 0) << j;
        }
        debug_assert_eq!(bettors, self.bettors_now());
        self.top_caps = top_two(&self.caps);
        self.bettors = bettors;
        self.pending = bettors;
        // RULES.md 10.1: no open-pair option in big-bet stud.
        self.open_pair = self.street == Street::Fourth
            && self.config.open_pair_big_bet
            && !self.config.betting.is_big_bet()
            && self.players.iter().filter(|p| p.live()).any(|p| matches!(p.up_cards(), [a, b] if a.rank() == b.rank()));
        if self.pending.count_ones() <= 1 {
            // RULES.md 4.10: at most one player has chips: no betting, deal on to showdown.
            self.pending = 0;
            events.push_with(|| Event::StreetStarted { street: self.street, first: None });
            self.end_street(events);
            return;
        }
        let first = if self.street == Street::Third { self.bring_in_index() } else { self.best_board_index() };
        // The chosen player may be all-in: the next one clockwise with chips acts instead.
        let n = self.players.len();
        let first = clockwise(first, n).find(|&j| self.players.get(j).is_some_and(Player::can_bet));
        self.bring_in_pending = self.street == Street::Third;
        self.set_turn(first);
        events.push_with(|| Event::StreetStarted {
            street: self.street,
            first: first.and_then(|j| self.players.get(j)).map(|p| p.seat),
        });
    }

    /// RULES.md 4.1: lowest door card brings in, suits clubs < diamonds < hearts < spades breaking
    /// ties (razz: highest door card, ace low, highest suit).
    fn bring_in_index(&self) -> usize {
        let key = |p: &Player| {
            let door = p.cards[2];
            match self.config.variant {
                Variant::Razz | Variant::London => {
                    // King highest, ace lowest; higher suit brings in.
                    let rank = (door.rank().index() + 1) % 13;
                    u32::from(rank) * 4 + u32::from(door.suit().index())
                }
                // Lowest card brings in: invert so that the maximum key wins below.
                _ => 51 - u32::from(door.id()),
            }
        };
        let mut best = 0;
        for (i, p) in self.players.iter().enumerate() {
            if self.players.get(best).is_some_and(|b| key(p) > key(b)) {
                best = i;
            }
        }
        best
    }

    /// RULES.md 4.4: the best board acts first (razz: the lowest), ties to the lowest seat.
    fn best_board_index(&self) -> usize {
        let razz = self.config.variant.is_razz_like();
        let rank = |p: &Player| if razz { p.board.rank_low() } else { p.board.rank_high() };
        // One key per live player, greatest wins: the board, then the lower seat. Taken as a
        // maximum, with no branch on who leads (that is the deal's business, and random).
        let mut best = 0u64;
        for (i, p) in self.players.iter().enumerate().filter(|(_, p)| p.live()) {
            debug_assert_eq!(
                rank(p),
                if razz { eval::board_low(p.up_cards()) } else { eval::board_high(p.up_cards()) }
            );
            best = best.max(rank(p).value() << 4 | (8 - i as u64));
        }
        match (best & 15) as usize {
            0 => 0,
            k => 8 - k,
        }
    }

    fn end_street(&mut self, events: &mut impl Events) {
        self.set_turn(None);
        events.push_with(|| Event::StreetEnded { street: self.street });
        self.return_uncalled(events);
        match self.next_street() {
            None if self.config.variant == Variant::Stud8Declare => self.start_declaration(events),
            None => self.start_showdown(events),
            Some(next) => {
                self.street = next;
                self.deal_street(events);
                self.begin_betting(events);
            }
        }
    }

    /// The street after this one: in mississippi 5th street is followed by the last round,
    /// 7th street (RULES.md 14.2).
    fn next_street(&self) -> Option<Street> {
        match (self.config.variant, self.street) {
            (Variant::Mississippi, Street::Fifth) => Some(Street::Seventh),
            (_, street) => street.next(),
        }
    }

    /// RULES.md 3.3-3.5: one card to each player still in; 7th street down, or a community
    /// card when fewer cards remain than players. In mississippi the 6th card (up) goes to
    /// every player first, then the 7th (RULES.md 14.2, 14.3).
    fn deal_street(&mut self, events: &mut impl Events) {
        if self.street == Street::Seventh && self.config.variant == Variant::Mississippi {
            for i in 0..self.players.len() {
                if self.players.get(i).is_some_and(Player::live) {
                    self.deal_to(i, true, events);
                }
            }
        }
        if self.street == Street::Seventh && self.deck.remaining() < usize::from(self.n_live) {
            if let Some(card) = self.deck.deal() {
                self.community = Some(card);
                events.push_with(|| Event::Community { card });
            }
            return;
        }
        let up = self.street != Street::Seventh;
        for i in 0..self.players.len() {
            if self.players.get(i).is_some_and(Player::live) {
                self.deal_to(i, up, events);
            }
        }
    }

    /// RULES.md 4.11: the part of the top wager nobody matched goes back to its bettor.
    fn return_uncalled(&mut self, events: &mut impl Events) {
        let mut top: Option<usize> = None;
        let mut first = 0;
        let mut second = 0;
        for (i, p) in self.players.iter().enumerate() {
            if p.total_in > first {
                second = first;
                first = p.total_in;
                top = Some(i);
            } else if p.total_in > second {
                second = p.total_in;
            }
        }
        if let Some(p) = top.and_then(|i| self.players.get_mut(i)) {
            if first > second {
                let amount = first - second;
                p.total_in -= amount;
                p.street_in = p.street_in.saturating_sub(amount);
                p.stack += amount;
                events.push_with(|| Event::Uncalled { seat: p.seat, amount });
            }
        }
    }

    // ---- the end ---------------------------------------------------------------------------

    fn finish_uncontested(&mut self, events: &mut impl Events) {
        self.set_turn(None);
        events.push_with(|| Event::StreetEnded { street: self.street });
        self.return_uncalled(events);
        let winner = self.players.iter().position(Player::live).unwrap_or(0);
        let pots = self.pot_layers();
        for (pot, (amount, _)) in pots.iter().enumerate() {
            self.award(pot, Half::Whole, winner, amount, None, events);
        }
        self.end(events);
    }

    fn start_showdown(&mut self, events: &mut impl Events) {
        self.phase = Phase::Showdown;
        // RULES.md 5.3: the last aggressor of the last street with a bet shows first, then clockwise.
        let n = self.players.len();
        let first = self
            .aggressor
            .iter()
            .rev()
            .flatten()
            .copied()
            .find(|&i| self.players.get(i).is_some_and(Player::live))
            .unwrap_or(0);
        let mut sd = Showdown {
            values: [(None, None); 8],
            spades: [0; 8],
            order: [0; 8],
            len: 0,
            next: 0,
            best_high: None,
            best_low: None,
            best_spade: 0,
        };
        for j in clockwise(first, n).filter(|&j| self.players.get(j).is_some_and(Player::live)) {
            if let Some(slot) = sd.order.get_mut(usize::from(sd.len)) {
                *slot = j as u8;
                sd.len += 1;
            }
        }
        for (i, v) in sd.values.iter_mut().enumerate().take(n) {
            *v = self.compute_values(i);
        }
        if self.config.variant == Variant::Chicago {
            for (spade, p) in sd.spades.iter_mut().zip(&self.players) {
                *spade = if p.live() { p.hole_spade() } else { 0 };
            }
        }
        events.push_with(|| Event::Showdown {
            order: sd.order().filter_map(|j| self.players.get(j)).map(|p| p.seat).collect(),
        });
        self.showdown = Some(sd);
        self.continue_showdown(events);
    }

    /// The cards a player plays with: own cards plus the community card.
    fn playing_cards(&self, i: usize) -> ([Card; 8], usize) {
        let Some(p) = self.players.get(i) else { return ([Card::new(Rank::Two, Suit::Clubs); 8], 0) };
        // The whole array at once: written a card at a time, it was read back wider and stalled.
        let mut cards = p.cards;
        let mut n = usize::from(p.n_cards).min(7);
        if let (Some(c), Some(slot)) = (self.community, cards.get_mut(n).filter(|_| n < 7)) {
            *slot = c;
            n += 1;
        }
        (cards, n)
    }

    /// The hand values of player `i` (cached once the showdown has started).
    fn values(&self, i: usize) -> Values {
        match self.showdown.as_ref().and_then(|sd| sd.values.get(i)) {
            Some(v) => *v,
            None => self.compute_values(i),
        }
    }

    /// The hand values of player `i`; none for a folded player or fewer than five cards.
    fn compute_values(&self, i: usize) -> Values {
        let (cards, n) = self.playing_cards(i);
        if n < 5 || self.players.get(i).is_none_or(|p| p.folded) {
            return (None, None);
        }
        let cards = &cards[..n];
        match self.config.variant {
            Variant::Stud | Variant::Chicago | Variant::Mississippi => (Some(eval::eval_high(cards)), None),
            Variant::Razz | Variant::London => (None, Some(eval::eval_low_a5(cards))),
            Variant::Stud8 | Variant::Stud8Declare => {
                let (h, l) = eval::eval_hilo8(cards);
                (Some(h), l)
            }
        }
    }

    fn describe(&self, i: usize) -> Cow<'static, str> {
        let (high, low) = self.values(i);
        let split = self.config.variant.has_low_half();
        match (high, low) {
            // Concatenated, not `format!`: one allocation and no formatting machinery.
            (Some(h), Some(l)) if split => [h.name_str(), "; low ", l.name_str()].concat().into(),
            (Some(h), None) if split => [h.name_str(), "; no low"].concat().into(),
            (Some(h), _) => h.name_str().into(),
            (None, Some(l)) => l.name_str().into(),
            (None, None) => "".into(),
        }
    }

    fn continue_showdown(&mut self, events: &mut impl Events) {
        loop {
            let Some(sd) = &self.showdown else { return };
            let Some(i) = sd.order().nth(sd.next) else { break };
            let (high, low) = self.values(i);
            // RULES.md 12.3: in the declare game every declared hand is shown; 13.5: in
            // chicago a higher spade in the hole than any shown so far is shown too.
            let spade = sd.spades.get(i).copied().unwrap_or(0);
            let beats_or_ties = sd.next == 0
                || self.config.variant == Variant::Stud8Declare
                || high.is_some_and(|h| sd.best_high.is_none_or(|b| h >= b))
                || low.is_some_and(|l| sd.best_low.is_none_or(|b| l >= b))
                || spade > sd.best_spade;
            if beats_or_ties {
                self.show(i, true, events);
            } else {
                // RULES.md 5.3: the player chooses; the clock mucks.
                self.set_turn(Some(i));
                if let Some(p) = self.players.get(i) {
                    events.push_with(|| Event::ShowOrMuck { seat: p.seat });
                }
                return;
            }
        }
        self.set_turn(None);
        self.award_showdown(events);
        self.end(events);
    }

    fn show(&mut self, i: usize, automatic: bool, events: &mut impl Events) {
        let (high, low) = self.values(i);
        if let Some(sd) = &mut self.showdown {
            sd.best_high = sd.best_high.max(high);
            sd.best_low = sd.best_low.max(low);
            sd.best_spade = sd.best_spade.max(sd.spades.get(i).copied().unwrap_or(0));
            sd.next += 1;
        }
        if let Some(p) = self.players.get_mut(i) {
            p.shown = true;
        }
        if let Some(p) = self.players.get(i) {
            events.push_with(|| Event::Shown {
                seat: p.seat,
                cards: p.own_cards().into(),
                automatic,
                description: self.describe(i),
            });
        }
    }

    fn showdown_choice(&mut self, i: usize, show: bool, events: &mut impl Events) {
        if show {
            self.show(i, false, events);
        } else {
            if let Some(sd) = &mut self.showdown {
                sd.next += 1;
            }
            if let Some(p) = self.players.get_mut(i) {
                p.mucked = true;
                events.push_with(|| Event::Mucked { seat: p.seat });
            }
        }
        self.continue_showdown(events);
    }

    /// RULES.md 5: cards speak; stud8 halves with the high half taking the odd chip and the
    /// whole pot when no low qualifies; ties split with odd chips one each from seat 1.
    /// Chicago's spade half (13.2) and the declare game's split (12.4) follow the same shape.
    fn award_showdown(&mut self, events: &mut impl Events) {
        // The values were computed once when the showdown started.
        let (values, spades) = self.showdown.as_ref().map_or(([(None, None); 8], [0; 8]), |sd| (sd.values, sd.spades));
        let pots = self.pot_layers();
        for (pot, (amount, eligible)) in pots.iter().enumerate() {
            let high = best_of(eligible, |i| values.get(i).and_then(|v| v.0));
            let low = best_of(eligible, |i| values.get(i).and_then(|v| v.1));
            match self.config.variant {
                Variant::Stud | Variant::Mississippi => self.split(pot, Half::Whole, amount, high, Basis::High, events),
                Variant::Razz | Variant::London => self.split(pot, Half::Whole, amount, low, Basis::Low, events),
                Variant::Stud8 => self.split_hi_lo(pot, amount, high, low, events),
                Variant::Chicago => {
                    let spade = best_of(eligible, |i| spades.get(i).copied().filter(|&s| s > 0));
                    if spade == 0 {
                        // RULES.md 13.3: no spade in the hole: the high hand takes the pot.
                        self.split(pot, Half::Whole, amount, high, Basis::High, events);
                    } else {
                        let spade_half = amount / 2;
                        self.split(pot, Half::High, amount - spade_half, high, Basis::High, events);
                        self.split(pot, Half::Spade, spade_half, spade, Basis::Spade, events);
                    }
                }
                Variant::Stud8Declare => self.award_declared(pot, amount, eligible, &values, events),
            }
        }
    }

    /// Stud8's split of one pot: halves, the high half taking the odd chip; the whole pot to
    /// the high hand when no low qualifies (RULES.md 5.2).
    fn split_hi_lo(&mut self, pot: usize, amount: Chips, high: u8, low: u8, events: &mut impl Events) {
        if low == 0 {
            self.split(pot, Half::Whole, amount, high, Basis::High, events);
        } else {
            let low_half = amount / 2;
            self.split(pot, Half::High, amount - low_half, high, Basis::High, events);
            self.split(pot, Half::Low, low_half, low, Basis::Low, events);
        }
    }

    /// RULES.md 12.4: one pot of the declare game. A player who declared both and does not
    /// win or tie both halves against everyone in the pot who declared for that half is out
    /// of it; the high half goes to the best high among the rest who declared high or both,
    /// the low half to the best qualifying low among those who declared low or both; a half
    /// nobody can win goes to the other; with neither, cards speak as in stud8.
    fn award_declared(
        &mut self,
        pot: usize,
        amount: Chips,
        eligible: u8,
        values: &[Values; 8],
        events: &mut impl Events,
    ) {
        let declared = |want: fn(Declaration) -> bool| {
            self.players.iter().enumerate().fold(0u8, |mask, (i, p)| {
                let playing = p.declaration.unwrap_or(Declaration::High);
                if eligible & bit(i) != 0 && want(playing) { mask | bit(i) } else { mask }
            })
        };
        let (for_high, for_low) = (declared(Declaration::plays_high), declared(Declaration::plays_low));
        let high_of = |i: usize| values.get(i).and_then(|v| v.0);
        let low_of = |i: usize| values.get(i).and_then(|v| v.1);
        // Both ways: judged against every contender of each half at once, before anyone is
        // taken out (two players who each declared both and each lost a half are both out).
        let both = for_high & for_low;
        let failed = both & !(best_of(for_high, high_of) & best_of(for_low, low_of));
        let high = best_of(for_high & !failed, high_of);
        let low = best_of(for_low & !failed, low_of);
        match (high, low) {
            (0, 0) => {
                let high = best_of(eligible, high_of);
                let low = best_of(eligible, low_of);
                self.split_hi_lo(pot, amount, high, low, events);
            }
            (high, 0) => self.split(pot, Half::Whole, amount, high, Basis::High, events),
            (0, low) => self.split(pot, Half::Whole, amount, low, Basis::Low, events),
            (high, low) => {
                let low_half = amount / 2;
                self.split(pot, Half::High, amount - low_half, high, Basis::High, events);
                self.split(pot, Half::Low, low_half, low, Basis::Low, events);
            }
        }
    }

    /// Shares `amount` among the players in the mask `winners`; each award names the hand
    /// `basis` says (the high hand, the low, or chicago's spade in the hole).
    fn split(&mut self, pot: usize, half: Half, amount: Chips, winners: u8, basis: Basis, events: &mut impl Events) {
        // Player indices are in seat order: odd chips go from seat 1 upwards.
        let k = Chips::from(winners.count_ones());
        if k == 0 {
            debug_assert!(false, "a pot without an eligible winner");
            return;
        }
        let share = amount / k;
        let odd = amount % k;
        let indices = (0..8usize).filter(|&i| winners & bit(i) != 0);
        for (rank, w) in indices.enumerate() {
            let extra = Chips::from((rank as Chips) < odd);
            let name = self.award_name(w, basis);
            self.award(pot, half, w, share + extra, name, events);
        }
    }

    /// The name an award gives the winning hand of player `w`.
    fn award_name(&self, w: usize, basis: Basis) -> Option<Cow<'static, str>> {
        let (high, low) = self.values(w);
        match basis {
            Basis::Spade => {
                let rank =
                    self.players.get(w).map(Player::hole_spade).and_then(|k| Rank::from_index(k.checked_sub(1)?))?;
                Some(["Spade in the hole, ", rank.name()].concat().into())
            }
            Basis::Low => low.map(|l| l.name_str().into()).or_else(|| high.map(|h| h.name_str().into())),
            Basis::High => high.map(|h| h.name_str().into()).or_else(|| low.map(|l| l.name_str().into())),
        }
    }

    // ---- the declaration (stud8_declare) -----------------------------------------------------

    /// RULES.md 12.2: after 7th street every player still in declares, in seat order, each
    /// declaration hidden from the others until all are in.
    fn start_declaration(&mut self, events: &mut impl Events) {
        self.phase = Phase::Declare;
        let mut order = crate::list::SmallList::<Seat, 8>::new();
        for p in self.players.iter().filter(|p| p.live()) {
            order.push(p.seat);
        }
        events.push_with(|| Event::DeclarationStarted { order });
        let first = self.players.iter().position(Player::live);
        self.set_turn(first);
    }

    fn declare(&mut self, i: usize, declaration: Declaration, events: &mut impl Events) {
        let Some(p) = self.players.get_mut(i) else { return };
        p.declaration = Some(declaration);
        let seat = p.seat;
        events.push_with(|| Event::Declared { seat, declaration: Some(declaration) });
        let next = self.players.iter().enumerate().skip(i + 1).find(|(_, p)| p.live()).map(|(j, _)| j);
        if next.is_some() {
            self.set_turn(next);
            return;
        }
        events.push_with(|| Event::DeclarationsRevealed {
            declarations: self.players.iter().filter_map(|p| Some((p.seat, p.declaration?))).collect(),
        });
        self.set_turn(None);
        self.start_showdown(events);
    }

    fn award(
        &mut self,
        pot: usize,
        half: Half,
        i: usize,
        amount: Chips,
        hand: Option<Cow<'static, str>>,
        events: &mut impl Events,
    ) {
        let Some(p) = self.players.get_mut(i) else { return };
        p.stack += amount;
        p.won += amount;
        self.awards.push(AwardRecord { pot, half, seat: p.seat, amount, hand: hand.clone() });
        // At most 8 pots: the `u32` keeps the event small (a hand's events are kept).
        let pot_no = u32::try_from(pot).unwrap_or(u32::MAX);
        events.push_with(|| Event::Award { pot: pot_no, half, seat: p.seat, amount, hand });
    }

    fn end(&mut self, events: &mut impl Events) {
        self.phase = Phase::Over;
        self.set_turn(None);
        // `total_in` stays: after the hand it is each seat's total for the hand, and the pots
        // built from it are the ones awarded (`pots`, views, LAST HAND).
        for p in &mut self.players {
            p.street_in = 0;
        }
        events.push_with(|| Event::HandEnded { stacks: self.players.iter().map(|p| (p.seat, p.stack)).collect() });
    }

    // ---- records -----------------------------------------------------------------------------

    /// The hand's record: config, seats, seed (or explicit deck), commitment, actions and,
    /// once the hand is over, its result. The seed is in it: give it out only after the hand.
    pub fn record(&self) -> HandRecord {
        HandRecord {
            config: self.config,
            seats: self.players.iter().map(|p| SeatChips { seat: p.seat, chips: p.start_stack }).collect(),
            seed: self.seed.map(|s| s.to_hex()),
            deck: self.explicit_deck.clone(),
            commitment: self.commitment.map(|c| c.to_hex()),
            actions: self.actions.clone(),
            result: self.is_over().then(|| self.result()),
        }
    }

    fn result(&self) -> HandResult {
        let at_showdown = self.showdown.is_some();
        HandResult {
            finishing_stacks: self.stacks(),
            awards: self.awards.clone(),
            community: self.community,
            showdown: if at_showdown {
                self.showdown
                    .iter()
                    .flat_map(|sd| sd.order())
                    .filter_map(|i| self.players.get(i))
                    .map(|p| ShowdownRecord { seat: p.seat, cards: p.own_cards().to_vec(), shown: p.shown })
                    .collect()
            } else {
                Vec::new()
            },
        }
    }

    // ---- accessors for views -----------------------------------------------------------------

    pub(crate) fn seat_state(&self) -> impl Iterator<Item = SeatState<'_>> {
        let at_showdown = self.showdown.is_some();
        self.players.iter().map(move |p| SeatState {
            seat: p.seat,
            stack: p.stack,
            street_in: p.street_in,
            total_in: p.total_in,
            folded: p.folded,
            cards: p.own_cards(),
            shown: p.shown,
            mucked: p.mucked,
            at_showdown: at_showdown && p.live(),
            won: p.won,
            declaration: p.declaration,
        })
    }

    pub(crate) fn level(&self) -> Chips {
        self.level
    }

    pub(crate) fn description_of(&self, seat: Seat) -> Option<String> {
        self.players.iter().position(|p| p.seat == seat).map(|i| self.describe(i).into_owned())
    }

    pub(crate) fn is_up_position(position: usize) -> bool {
        Player::is_up(position)
    }
}

/// The greatest value with its index, and the second greatest (equal to the first on a tie).
fn top_two(caps: &[Chips; 8]) -> ((Chips, u8), Chips) {
    let (mut top, mut second) = ((0, 0u8), 0);
    for (j, &cap) in caps.iter().enumerate() {
        if cap > top.0 {
            second = top.0;
            top = (cap, j as u8);
        } else {
            second = second.max(cap);
        }
    }
    (top, second)
}

/// The mask bit of player index `i` (`i < 8`).
fn bit(i: usize) -> u8 {
    1u8.wrapping_shl(i as u32)
}

/// The players still to act, and those who can bet, as masks of player indices: a full word, so
/// a turn's read of one is served from the store of the action before it (a byte stored, then
/// read back as part of a wider load, stalls the turn hand-off).
type Mask = u32;

fn seat_bit(i: usize) -> Mask {
    1u32.wrapping_shl(i as u32)
}

/// Player indices `start, start + 1, ...` wrapping at `n`, each once (clockwise from `start`).
/// Written without `%`: this runs after every action.
fn clockwise(start: usize, n: usize) -> impl Iterator<Item = usize> {
    let start = if start >= n { start - n } else { start };
    (start..n).chain(0..start)
}

/// The players among the mask `eligible` with the best value (ties all win), as a mask;
/// empty when nobody has a value.
fn best_of<T: Ord + Copy>(eligible: u8, value: impl Fn(usize) -> Option<T>) -> u8 {
    let mut best: Option<T> = None;
    let mut mask = 0u8;
    for i in (0..8usize).filter(|&i| eligible & bit(i) != 0) {
        match (value(i), best) {
            (None, _) => {}
            (Some(v), Some(b)) if v < b => {}
            (Some(v), Some(b)) if v == b => mask |= bit(i),
            (Some(v), _) => {
                best = Some(v);
                mask = bit(i);
            }
        }
    }
    mask
}

/// A read-only look at one seat for [`crate::view`].
pub(crate) struct SeatState<'a> {
    pub seat: Seat,
    pub stack: Chips,
    pub street_in: Chips,
    pub total_in: Chips,
    pub folded: bool,
    pub cards: &'a [Card],
    pub shown: bool,
    pub mucked: bool,
    pub at_showdown: bool,
    pub won: Chips,
    pub declaration: Option<Declaration>,
}
