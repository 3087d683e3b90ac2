//! The waiting list: players watching a full table line up for a seat. When seats are free
//! the first players in line are offered one each (one per free seat); while every free seat
//! is offered, nobody else may sit. An offer lasts [`stud_proto::SEAT_OFFER_MS`]; one not taken in time
//! takes its player off the list (the clock journals it) and the next in line is offered the
//! seat. The list is durable (journaled, in snapshots); when each offer started is presence (a
//! restart offers the free seats afresh).

use stud_proto::{ErrorCode, RequestId};
use uuid::Uuid;

use super::types::{ConnId, Decision, Millis, Output, Waiter};
use super::{MAX_WAITING, TableCore};
use crate::input::{Input, Who};

impl TableCore {
    /// A `waitlist` command: joined, not a tournament's table, not seated here (to join).
    pub(super) fn check_waitlist(
        &mut self,
        conn: ConnId,
        request_id: RequestId,
        on: bool,
        out: &mut Vec<Output>,
    ) -> Decision {
        if self.tournament() {
            let message = "a tournament table: the tournament assigns the seats";
            Self::error(out, conn, request_id, ErrorCode::Forbidden, message);
            return Decision::Done;
        }
        let Some(who) = self.subs.get(&conn).cloned() else {
            Self::error(out, conn, request_id, ErrorCode::NotSeated, "join the table first");
            return Decision::Done;
        };
        match (on, self.wait_position(who.player_id)) {
            (true, Some(i)) => {
                self.ack(out, conn, request_id, format!("on the waiting list: position {}", i + 1));
                Decision::Done
            }
            (true, None) if self.seat_of(who.player_id).is_some() => {
                Self::error(out, conn, request_id, ErrorCode::AlreadySeated, "you have a seat here");
                Decision::Done
            }
            (true, None) if self.closing || self.closed => {
                Self::error(out, conn, request_id, ErrorCode::NotNow, "the table is closing");
                Decision::Done
            }
            (true, None) if self.waitlist.len() >= MAX_WAITING => {
                let message = format!("the waiting list is full ({MAX_WAITING} players)");
                Self::error(out, conn, request_id, ErrorCode::TableFull, message);
                Decision::Done
            }
            (false, None) => {
                self.ack(out, conn, request_id, "not on the waiting list");
                Decision::Done
            }
            _ => Decision::Journal { input: Input::Waitlist { who, on }, debit: None },
        }
    }

    /// Whether `player` may take a free seat now: not while every free seat is offered to
    /// others on the waiting list.
    pub(super) fn seat_reserved_from(&self, player: Uuid) -> bool {
        let offered = self.offered();
        offered > 0
            && self.waitlist.len() >= self.free_seats()
            && !self.waitlist.iter().take(offered).any(|w| w.who.player_id == player)
    }

    /// Applies a journaled `Input::Waitlist`; `Err` names what this table would not have
    /// journaled.
    pub(super) fn apply_waitlist(
        &mut self,
        at: Millis,
        who: &Who,
        on: bool,
        origin: Option<(ConnId, RequestId)>,
        out: &mut Vec<Output>,
    ) -> Result<(), &'static str> {
        let place = self.wait_position(who.player_id);
        let detail = match (on, place) {
            (true, Some(_)) => return Err("already waiting"),
            (true, None) if self.seat_of(who.player_id).is_some() => return Err("seated"),
            (false, None) => return Err("not waiting"),
            (true, None) => {
                self.waitlist.push(Waiter { who: who.clone(), offered_at: None });
                format!("on the waiting list: position {}", self.waitlist.len())
            }
            (false, Some(i)) => {
                self.waitlist.remove(i);
                "off the waiting list".to_owned()
            }
        };
        if let Some((conn, request_id)) = origin {
            self.ack(out, conn, request_id, detail);
        }
        self.broadcast_snapshots(at, out);
        Ok(())
    }

    /// A player who sits down leaves the waiting list.
    pub(super) fn seated_from_waitlist(&mut self, player: Uuid) {
        self.waitlist.retain(|w| w.who.player_id != player);
    }

    /// Marks the offers after a change (a seat freed or taken, the list changed): the first
    /// in line get one per free seat, each from now if new; a waiter newly offered a seat is
    /// sent a snapshot saying so (`wait.offer_ms`).
    pub(super) fn refresh_offers(&mut self, at: Millis, out: &mut Vec<Output>) {
        let offered = self.offered();
        let mut told = Vec::new();
        for (i, w) in self.waitlist.iter_mut().enumerate() {
            if i >= offered {
                w.offered_at = None;
            } else if w.offered_at.is_none() {
                w.offered_at = Some(at);
                told.push(w.who.player_id);
            }
        }
        let conns: Vec<ConnId> =
            self.subs.iter().filter(|(_, w)| told.contains(&w.player_id)).map(|(conn, _)| *conn).collect();
        for conn in conns {
            Self::send(out, conn, self.snapshot_frame(conn, at));
        }
    }
}
