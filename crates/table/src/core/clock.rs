//! The clock: when the table next wants waking, what it wants then (a hand to start, a
//! player's time up), and the deadlines it keeps (presence: a restart gives the player to act
//! a whole clock again).

use stud_engine::{Chips, Seat};

use super::TableCore;
use super::types::{Due, Millis};
use crate::input::Input;

impl TableCore {
    /// When the table next needs [`TableCore::due`].
    pub fn wake_at(&self) -> Option<Millis> {
        let turn = self.live.as_ref().and_then(|l| l.turn.as_ref()).map(|t| t.deadline);
        let offer = self.waitlist.iter().take(self.offered()).filter_map(|w| w.offered_at).min();
        let offer = offer.map(|t| t + stud_proto::SEAT_OFFER_MS);
        [turn, self.next_hand_at, offer].into_iter().flatten().min()
    }

    /// What the clock wants now, if anything. Call until it returns `None`.
    pub fn due(&mut self, now: Millis) -> Option<Due> {
        if self.next_hand_at.is_some_and(|t| t <= now) {
            self.next_hand_at = None;
            if self.can_start() {
                return Some(Due::StartHand);
            }
        }
        // A seat offered from the waiting list and not taken in time: the next in line gets it.
        let lapsed = self
            .waitlist
            .iter()
            .take(self.offered())
            .find(|w| w.offered_at.is_some_and(|t| t + stud_proto::SEAT_OFFER_MS <= now));
        if let Some(w) = lapsed {
            return Some(Due::Input(Input::Waitlist { who: w.who.clone(), on: false }));
        }
        let live = self.live.as_ref()?;
        let turn = live.turn.as_ref().filter(|t| t.deadline <= now)?;
        match live.hand.timeout_action() {
            Some((seat, action)) if seat == turn.seat => Some(Due::Input(Input::Clock { seat: seat.number(), action })),
            _ => {
                // A deadline the clock cannot act on (never expected): wait a full turn
                // rather than wake up again at once.
                let timeout = self.spec.action_timeout_ms;
                if let Some(t) = self.live.as_mut().and_then(|l| l.turn.as_mut()) {
                    t.deadline = now + timeout;
                }
                None
            }
        }
    }

    /// The clock's input could not be journaled (database down): try again at `at` (the turn's
    /// clock, and a lapsed seat offer).
    pub fn postpone_turn(&mut self, at: Millis) {
        if let Some(t) = self.live.as_mut().and_then(|l| l.turn.as_mut()) {
            t.deadline = t.deadline.max(at);
        }
        let offered = self.offered();
        let earliest = at.saturating_sub(stud_proto::SEAT_OFFER_MS);
        for w in self.waitlist.iter_mut().take(offered) {
            w.offered_at = w.offered_at.map(|t| t.max(earliest));
        }
    }

    /// The next hand could not start now (the store is far behind): try again at `at`.
    pub fn delay_hand(&mut self, at: Millis) {
        self.next_hand_at = Some(at);
    }

    /// The seats to deal in now, with their stacks (a tournament deals whom its `Deal` names).
    pub(super) fn eligible(&self) -> Vec<(Seat, Chips)> {
        if let Some(deal) = &self.deal {
            // A tournament deals in everyone it named who sits here with chips: away players
            // too (they post and the clock folds them).
            return self
                .seated()
                .filter(|(_, p)| p.stack > 0 && !p.leaving && deal.players.contains(&p.who.player_id))
                .map(|(s, p)| (s, p.stack))
                .collect();
        }
        if self.tournament() {
            return Vec::new();
        }
        self.seated()
            .filter(|(_, p)| !p.sitting_out && !p.leaving && !p.kick_after && p.stack > 0)
            .map(|(s, p)| (s, p.stack))
            .collect()
    }

    /// Whether a hand may start now: none in play, not paused or closing, two players to deal in.
    pub(super) fn can_start(&self) -> bool {
        let paused = self.pending.as_ref().map_or(self.spec.paused, |p| p.paused);
        !self.in_play() && !paused && !self.closing && !self.closed && self.eligible().len() >= 2
    }

    /// Lets the next hand start after the pause between hands, unless one is due or in play.
    pub(super) fn schedule_hand(&mut self, now: Millis) {
        if self.next_hand_at.is_none() && !self.in_play() {
            self.next_hand_at = Some(now + self.timing.hand_pause_ms);
        }
    }

    /// A player back in time gets their turn's whole clock again (the disconnect grace is lifted).
    pub(super) fn restore_deadline(&mut self, seat: Seat) {
        let bank = self.player(seat).map_or(0, |p| p.time_bank_ms);
        let timeout = self.spec.action_timeout_ms;
        if let Some(turn) = self.live.as_mut().and_then(|l| l.turn.as_mut()).filter(|t| t.seat == seat) {
            turn.deadline = turn.started + timeout + bank;
        }
    }
}
