//! Replaying a [`HandRecord`] through the engine: the record's types live in
//! `record`, below the hand; the replay needs the hand, so it lives here.

use super::Hand;
use crate::config::{Chips, Seat};
use crate::deck::{Deck, Seed};
use crate::event::{Event, Events, NoEvents};
use crate::record::{HandRecord, ReplayError};

impl HandRecord {
    /// Replays the record through the engine, returning the hand and every event.
    ///
    /// # Errors
    /// [`ReplayError`] when the deck cannot be rebuilt or an action is refused.
    pub fn replay(&self) -> Result<(Hand, Vec<Event>), ReplayError> {
        let mut events = Vec::with_capacity(128);
        let hand = self.replay_into(&mut events)?;
        Ok((hand, events))
    }

    /// [`HandRecord::replay`] sending the events to `events` ([`NoEvents`] to skip them).
    ///
    /// # Errors
    /// As [`HandRecord::replay`].
    pub fn replay_into(&self, events: &mut impl Events) -> Result<Hand, ReplayError> {
        let seats: Vec<(Seat, Chips)> = self.seats.iter().map(|s| (s.seat, s.chips)).collect();
        let mut hand = match (&self.seed, &self.deck) {
            (Some(hex), _) => {
                let seed = Seed::from_hex(hex).ok_or(ReplayError::BadSeed)?;
                if let Some(c) = &self.commitment {
                    if *c != seed.commitment().to_hex() {
                        return Err(ReplayError::Commitment);
                    }
                }
                Hand::start_into(self.config, &seats, Deck::shuffled(&seed), Some(seed), None, events)?
            }
            (None, Some(order)) => {
                Hand::start_into(self.config, &seats, Deck::with_order(order)?, None, Some(order.clone()), events)?
            }
            (None, None) => return Err(ReplayError::NoDeck),
        };
        for (index, a) in self.actions.iter().enumerate() {
            hand.apply_into(a.seat, a.action, events).map_err(|error| ReplayError::Illegal {
                index,
                seat: a.seat,
                action: a.action,
                error,
            })?;
        }
        Ok(hand)
    }

    /// Replays the record and checks that it ends exactly as recorded.
    ///
    /// # Errors
    /// [`ReplayError`] on any difference.
    pub fn verify(&self) -> Result<Hand, ReplayError> {
        let hand = self.replay_into(&mut NoEvents)?;
        if !hand.is_over() {
            return Err(ReplayError::Unfinished(self.actions.len()));
        }
        let replayed = hand.record();
        if replayed != *self {
            let what = if replayed.result != self.result { "result" } else { "record" };
            return Err(ReplayError::Mismatch(what.to_owned()));
        }
        Ok(hand)
    }
}
