//! Playing whole hands with bots: the loop behind `stud sim`, `stud bench`, the benches and
//! the property tests.

use crate::bot::Bot;
use crate::config::{Chips, Seat, TableConfig};
use crate::deck::{Deck, Seed};
use crate::event::Events;
use crate::hand::{Hand, SetupError};

/// Plays one hand to the end with `bots[i]` acting for `seats[i]`, appending every event of
/// the hand to `events` (a `Vec<Event>` callers reuse across hands, or
/// [`crate::event::NoEvents`] when only the outcome matters). Returns the hand, over, and the
/// number of actions taken.
///
/// # Errors
/// [`SetupError`] if the hand could not start (bad config or seats).
pub fn play_hand(
    config: TableConfig,
    seats: &[(Seat, Chips)],
    seed: Seed,
    bots: &mut [Bot],
    events: &mut impl Events,
) -> Result<(Hand, usize), SetupError> {
    let mut hand = Hand::start_into(config, seats, Deck::shuffled(&seed), Some(seed), None, events)?;
    // Bot of each seat number, by the seat's place in `seats`.
    let mut bot_of = [usize::MAX; 9];
    for (i, (s, _)) in seats.iter().enumerate() {
        if let Some(slot) = bot_of.get_mut(usize::from(s.number())) {
            *slot = i;
        }
    }
    let mut actions = 0;
    while let Some(seat) = hand.to_act() {
        let index = bot_of.get(usize::from(seat.number())).copied().unwrap_or(usize::MAX);
        let legal = hand.legal();
        let action = match bots.get_mut(index) {
            Some(bot) => bot.choose_legal(legal),
            None => legal.list().first().copied().unwrap_or(crate::action::Action::Fold),
        };
        if hand.apply_into(seat, action, events).is_err() {
            debug_assert!(false, "a bot chose an illegal action");
            break;
        }
        actions += 1;
    }
    Ok((hand, actions))
}
