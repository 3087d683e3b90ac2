//! Seats and watchers leaving: a seat cashed out, a connection or a player dropped, the
//! operator's settings taking effect between hands (a smaller table, tighter access), the
//! table closing. Both a finished hand and the room's inputs use these.

use stud_engine::Seat;
use stud_proto::ErrorCode;
use uuid::Uuid;

use super::TableCore;
use super::types::{ConnId, Millis, Movement, Output, seat_index};

impl TableCore {
    /// After a refusal outside the core (the account could not pay, the journal failed):
    /// where nobody may watch, a connection whose sit failed does not stay as a spectator.
    pub fn refused(&mut self, conn: ConnId, out: &mut Vec<Output>) {
        let player = self.subs.get(&conn).map(|w| w.player_id);
        if !self.spec.observers && player.is_some_and(|p| self.seat_of(p).is_none()) {
            self.subs.remove(&conn);
            out.push(Output::Unsubscribed { conn });
        }
    }

    /// Removes a subscriber; a seated player left with no connection is marked disconnected
    /// (their turns get the grace period).
    pub(super) fn remove_sub(&mut self, now: Millis, conn: ConnId, out: &mut Vec<Output>) {
        let Some(who) = self.subs.remove(&conn) else { return };
        out.push(Output::Unsubscribed { conn });
        let Some(seat) = self.seat_of(who.player_id) else { return };
        let gone = self.player_mut(seat).map(|p| {
            p.connections = p.connections.saturating_sub(1);
            if p.connections == 0 {
                p.disconnected = true;
            }
            p.connections == 0
        });
        if gone == Some(true) {
            let grace = now + self.timing.disconnect_grace_ms;
            if let Some(turn) = self.live.as_mut().and_then(|l| l.turn.as_mut()).filter(|t| t.seat == seat) {
                turn.deadline = turn.deadline.min(grace);
            }
        }
    }

    /// Tells a removed player's connections so and stops sending them this table.
    pub(super) fn drop_player(&mut self, now: Millis, player: Uuid, out: &mut Vec<Output>) {
        let conns: Vec<ConnId> = self.subs.iter().filter(|(_, w)| w.player_id == player).map(|(id, _)| *id).collect();
        for conn in conns {
            Self::notice(out, conn, self.spec.id, ErrorCode::Forbidden, "an operator removed you from this table");
            self.remove_sub(now, conn, out);
        }
    }

    /// Empties `seat`: its stack back to the account (not a tournament's chips), `Seated` false.
    pub(super) fn cash_out(&mut self, seat: Seat, out: &mut Vec<Output>) {
        let Some(p) = self.seats.get_mut(seat_index(seat)).and_then(Option::take) else { return };
        let player = p.who.player_id;
        // Tournament chips are not money: they leave with the player (to another table).
        if p.stack > 0 && self.spec.tournament.is_none() {
            out.push(Output::Ledger { player, kind: Movement::CashOut, amount: p.stack });
        }
        out.push(Output::Seated { player, seated: false });
    }

    /// Takes the operator's new settings (between hands).
    pub(super) fn apply_pending(&mut self, at: Millis, out: &mut Vec<Output>) {
        let Some(mut spec) = self.pending.take() else { return };
        spec.hands_before = self.spec.hands_before;
        spec.carry_rotation(&self.spec, self.current_number());
        // Watchers came in under the old access rules: when they tighten (observers off, made
        // private, a new or revoked code), everyone without a seat has to come in again.
        let old = &self.spec;
        let tightened = (old.observers && !spec.observers)
            || (spec.private && (!old.private || spec.invite_code != old.invite_code));
        self.spec = spec;
        // Seats past a smaller table size are cashed out.
        for n in self.spec.seats + 1..=8 {
            if let Some(seat) = Seat::new(n) {
                self.cash_out(seat, out);
            }
        }
        if tightened {
            let watchers: Vec<ConnId> =
                self.subs.iter().filter(|(_, w)| self.seat_of(w.player_id).is_none()).map(|(id, _)| *id).collect();
            for conn in watchers {
                Self::notice(out, conn, self.spec.id, ErrorCode::Forbidden, "the table's access changed: join again");
                self.remove_sub(at, conn, out);
            }
        }
        self.broadcast_snapshots(at, out);
    }

    /// Closes the table: everyone is cashed out and told.
    pub(super) fn close(&mut self, _at: Millis, out: &mut Vec<Output>) {
        for seat in (1..=8).filter_map(Seat::new) {
            self.cash_out(seat, out);
        }
        self.waitlist.clear();
        self.seq += 1;
        self.broadcast_closed(out);
        for conn in std::mem::take(&mut self.subs).into_keys() {
            out.push(Output::Unsubscribed { conn });
        }
        self.closed = true;
        out.push(Output::Closed);
    }
}
