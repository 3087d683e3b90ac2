//! The room: applying a journaled input (which cannot be refused: [`TableCore::handle`]
//! checked it), and the room's rules for it: sitting down, sitting out, topping up, leaving,
//! kicks, pauses, new settings, closing, resuming after a restart.

use std::collections::VecDeque;

use stud_engine::{Chips, Seat};
use stud_proto::{RequestId, SitOutReason};
use uuid::Uuid;

use super::TableCore;
use super::types::{ConnId, DealOrder, Millis, Movement, Output, SeatPlayer, seat_index};
use crate::input::{Input, RestoreError, Who};

impl TableCore {
    /// Applies an input accepted at `at`. `origin` is the connection that asked (answered
    /// here; `None` when replaying). Inputs made by [`TableCore::handle`] or [`TableCore::due`]
    /// always apply.
    ///
    /// # Errors
    /// [`RestoreError::Refused`] for an input this table would not have made (a damaged or
    /// foreign journal); the table is then unchanged except for the input count.
    pub fn apply(
        &mut self,
        at: Millis,
        input: &Input,
        origin: Option<(ConnId, RequestId)>,
        out: &mut Vec<Output>,
    ) -> Result<(), RestoreError> {
        self.applied += 1;
        let n = self.applied;
        let refused = |why: &str| RestoreError::Refused { n, why: why.to_owned() };
        match input {
            Input::Sit { seat, who, buy_in } => {
                let seat = Seat::new(*seat).filter(|s| self.player(*s).is_none()).ok_or_else(|| refused("seat"))?;
                if self.seat_of(who.player_id).is_some() {
                    return Err(refused("already seated"));
                }
                self.seated_from_waitlist(who.player_id);
                self.sit(at, seat, who, *buy_in, origin, out);
            }
            Input::Act { seat, action, key } => {
                let seat = Seat::new(*seat).ok_or_else(|| refused("seat"))?;
                self.act(at, seat, *action, key, origin, out).map_err(|e| refused(&e.to_string()))?;
            }
            Input::Clock { seat, action } => {
                let seat = Seat::new(*seat).ok_or_else(|| refused("seat"))?;
                self.clock_acts(at, seat, *action, out).map_err(|e| refused(&e.to_string()))?;
            }
            Input::SitOut { seat, out: away } => {
                let seat = Seat::new(*seat).filter(|s| self.player(*s).is_some()).ok_or_else(|| refused("seat"))?;
                self.sit_out(at, seat, *away, origin, out);
            }
            Input::AutoMuck { seat, on } => {
                let seat = Seat::new(*seat).filter(|s| self.player(*s).is_some()).ok_or_else(|| refused("seat"))?;
                self.auto_muck(at, seat, *on, origin, out);
            }
            Input::Waitlist { who, on } => self.apply_waitlist(at, who, *on, origin, out).map_err(refused)?,
            Input::TopUp { seat, amount } => {
                let seat = Seat::new(*seat).filter(|s| self.player(*s).is_some()).ok_or_else(|| refused("seat"))?;
                self.top_up(at, seat, *amount, origin, out);
            }
            Input::Leave { seat } => {
                let seat = Seat::new(*seat).filter(|s| self.player(*s).is_some()).ok_or_else(|| refused("seat"))?;
                self.leave(at, seat, origin, out);
            }
            Input::StartHand { hand_id, seed } => self.start_hand(at, *hand_id, seed, out),
            Input::Resume => self.resume(at, out),
            Input::Update { spec } => {
                self.pending = Some((**spec).clone());
                if !self.in_play() {
                    self.apply_pending(at, out);
                }
            }
            Input::Pause { paused } => {
                self.spec.paused = *paused;
                if let Some(p) = self.pending.as_mut() {
                    p.paused = *paused;
                }
                if !paused {
                    self.schedule_hand(at);
                }
                out.push(Output::Summary(Box::new(self.summary(at))));
            }
            Input::Close => {
                self.closing = true;
                if !self.in_play() {
                    self.close(at, out);
                }
            }
            Input::Kick { player, now } => self.kick(at, *player, *now, out),
            Input::Deal { config, level, players, deal } => {
                self.deal = Some(DealOrder { config: *config, level: *level, players: players.clone(), deal: *deal });
                self.schedule_hand(at);
            }
        }
        // Every input may free or take a seat or change the list: the seat offers follow.
        self.refresh_offers(at, out);
        if !self.in_play() && !self.closed {
            out.push(Output::Snapshot(self.snapshot()));
        }
        Ok(())
    }

    /// Seats a player (a buy-in on the ledger, unless a tournament's) and tells everyone.
    fn sit(
        &mut self,
        at: Millis,
        seat: Seat,
        who: &Who,
        buy_in: Chips,
        origin: Option<(ConnId, RequestId)>,
        out: &mut Vec<Output>,
    ) {
        let player = who.player_id;
        if !self.tournament() {
            out.push(Output::Ledger { player, kind: Movement::BuyIn, amount: buy_in });
        }
        out.push(Output::Seated { player, seated: true });
        let connections = self.subs.values().filter(|w| w.player_id == player).count();
        if let Some(slot) = self.seats.get_mut(seat_index(seat)) {
            *slot = Some(SeatPlayer {
                who: who.clone(),
                stack: buy_in,
                sitting_out: false,
                sit_out_next: false,
                leaving: false,
                kick_after: false,
                time_bank_ms: self.spec.time_bank_ms,
                sit_out_reason: None,
                auto_muck: false,
                recent_keys: VecDeque::new(),
                connections,
                disconnected: connections == 0,
            });
        }
        if let Some((conn, request_id)) = origin {
            self.ack(out, conn, request_id, format!("seated at {}", seat.number()));
        }
        self.broadcast_snapshots(at, out);
        self.schedule_hand(at);
    }

    /// Sits a player out (after the hand, if they are in it) or back in.
    fn sit_out(
        &mut self,
        at: Millis,
        seat: Seat,
        away: bool,
        origin: Option<(ConnId, RequestId)>,
        out: &mut Vec<Output>,
    ) {
        let in_hand = self.in_hand(seat);
        if let Some(p) = self.player_mut(seat) {
            if away {
                // RULES.md: sitting out takes effect after the current hand.
                if in_hand {
                    p.sit_out_next = true
                } else {
                    p.sitting_out = true
                }
                p.sit_out_reason = Some(SitOutReason::Requested);
            } else {
                p.sit_out_next = false;
                p.sitting_out = false;
                p.sit_out_reason = None;
            }
        }
        if let Some((conn, request_id)) = origin {
            self.ack(out, conn, request_id, if away { "sitting out" } else { "sitting in" });
        }
        self.broadcast_snapshots(at, out);
        self.schedule_hand(at);
    }

    /// Adds chips to a stack between hands.
    fn top_up(
        &mut self,
        at: Millis,
        seat: Seat,
        amount: Chips,
        origin: Option<(ConnId, RequestId)>,
        out: &mut Vec<Output>,
    ) {
        let tournament = self.tournament();
        if let Some(p) = self.player_mut(seat) {
            p.stack += amount;
            let player = p.who.player_id;
            // A tournament's chips are not money: its rebuys are on the tournament's ledger.
            if !tournament {
                out.push(Output::Ledger { player, kind: Movement::TopUp, amount });
            }
        }
        if let Some((conn, request_id)) = origin {
            self.ack(out, conn, request_id, "topped up");
        }
        self.broadcast_snapshots(at, out);
        self.schedule_hand(at);
    }

    /// Auto-muck on or off; on, a show-or-muck choice open for the seat now is answered at once.
    fn auto_muck(
        &mut self,
        at: Millis,
        seat: Seat,
        on: bool,
        origin: Option<(ConnId, RequestId)>,
        out: &mut Vec<Output>,
    ) {
        if let Some(p) = self.player_mut(seat) {
            p.auto_muck = on;
        }
        if let Some((conn, request_id)) = origin {
            self.ack(out, conn, request_id, if on { "auto-muck on" } else { "auto-muck off" });
        }
        if on && self.in_hand(seat) {
            self.after_action(at, out);
        }
        self.broadcast_snapshots(at, out);
    }

    /// A player leaves: a hand they are in is played out by the clock, then the seat is cashed out.
    fn leave(&mut self, at: Millis, seat: Seat, origin: Option<(ConnId, RequestId)>, out: &mut Vec<Output>) {
        if self.in_hand(seat) {
            // RULES.md 8: the hand is played out by the clock (at once), then the seat is
            // cashed out.
            if let Some(p) = self.player_mut(seat) {
                p.leaving = true;
            }
            self.after_action(at, out);
        }
        if !self.in_hand(seat) {
            self.cash_out(seat, out);
            self.broadcast_snapshots(at, out);
        }
        if let Some((conn, request_id)) = origin {
            self.ack(out, conn, request_id, "left");
            self.remove_sub(at, conn, out);
        }
    }

    /// Removes a seated player: their connections stop watching; their seat is cashed out
    /// now, or after the hand (`now`: the clock gives their hand up at once).
    fn kick(&mut self, at: Millis, player: Uuid, now: bool, out: &mut Vec<Output>) {
        let Some(seat) = self.seat_of(player) else { return };
        if let Some(p) = self.player_mut(seat) {
            p.leaving |= now;
            p.kick_after = true;
        }
        if now {
            self.drop_player(at, player, out);
            if self.in_hand(seat) {
                self.after_action(at, out);
            }
        }
        // Kicked for after the hand, the player keeps their view and plays it out;
        // finish_hand removes them.
        if !self.in_hand(seat) {
            self.cash_out(seat, out);
            self.drop_player(at, player, out);
            self.broadcast_snapshots(at, out);
        }
    }

    /// The table is back after a restart.
    fn resume(&mut self, at: Millis, out: &mut Vec<Output>) {
        // The process was away, not the player: the one to act gets their whole clock again.
        let timeout = self.spec.action_timeout_ms;
        let seat = self.live.as_ref().and_then(|l| l.turn.as_ref()).map(|t| t.seat);
        let bank = seat.and_then(|s| self.player(s)).map_or(0, |p| p.time_bank_ms);
        if let Some(turn) = self.live.as_mut().and_then(|l| l.turn.as_mut()) {
            turn.started = at;
            turn.deadline = at + timeout + bank;
        }
        if !self.in_play() {
            self.schedule_hand(at);
        }
        out.push(Output::Summary(Box::new(self.summary(at))));
    }
}
