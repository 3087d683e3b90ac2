//! Every frame the table sends, and the only module that builds a [`ServerMsg`]: snapshots
//! (the table as one viewer may see it), prompts, events, results, acks and errors.
//! [`crate::wire`] hands [`frame`] and the error frames to the server for its own messages.

use stud_engine::record::AwardRecord;
use stud_engine::{Chips, Event, Half, Hand, HandStrength, Pot, Seat, Viewer};
use stud_proto::{ErrorCode, HandState, RequestId, SeatInfo, ServerMsg, TableState, TableSummary, WaitPlace};
use uuid::Uuid;

use super::TableCore;
use super::types::{ConnId, Frame, Live, Metric, Millis, Output};
use crate::input::Who;

/// Serializes a message once.
pub fn frame(msg: &ServerMsg) -> Frame {
    match serde_json::to_string(msg) {
        Ok(s) => s.into(),
        // Serializing our own types cannot fail; if it ever did, say so instead of panicking.
        Err(e) => format!(r#"{{"type":"error","request_id":null,"code":"internal","message":"{e}"}}"#).into(),
    }
}

/// An error frame.
pub fn error(request_id: RequestId, code: ErrorCode, message: impl Into<String>) -> Frame {
    frame(&ServerMsg::Error { request_id, code, message: message.into(), unread: false, table_id: None })
}

/// An error frame for a frame whose `request_id` could not be read (`unread: true`).
pub fn error_unread(code: ErrorCode, message: impl Into<String>) -> Frame {
    frame(&ServerMsg::Error { request_id: None, code, message: message.into(), unread: true, table_id: None })
}

impl TableCore {
    /// A fresh snapshot frame for one connection.
    pub fn snapshot_frame(&self, conn: ConnId, now: Millis) -> Frame {
        self.snapshot_reply(conn, now, None)
    }

    /// A snapshot frame for one connection, answering its request `request_id` if any.
    pub(super) fn snapshot_reply(&self, conn: ConnId, now: Millis, request_id: RequestId) -> Frame {
        let player = self.subs.get(&conn).map(|w| w.player_id);
        let viewer = player.and_then(|p| self.seat_of(p)).map_or(Viewer::Observer, Viewer::Seat);
        frame(&ServerMsg::Snapshot {
            request_id,
            table_id: self.spec.id,
            seq: self.seq,
            table: self.table_state(viewer, player, now),
        })
    }

    /// What a connection that missed frames needs to catch up: a fresh snapshot and, if its
    /// player is the one to act, the prompt again.
    pub fn resync_frames(&self, conn: ConnId, now: Millis) -> Vec<Frame> {
        let mut frames = vec![self.snapshot_frame(conn, now)];
        let seat = self.conn_seat(conn);
        if let Some(seat) = seat {
            let mut out = Vec::new();
            self.prompt_conn(now, conn, seat, &mut out);
            frames.extend(out.into_iter().filter_map(|o| match o {
                Output::Send { frame, .. } => Some(frame),
                _ => None,
            }));
        }
        frames
    }

    /// The lobby line.
    pub fn summary(&self, now: Millis) -> TableSummary {
        let players: Vec<String> = self.seated().map(|(_, p)| p.who.name.clone()).collect();
        let hours = now.saturating_sub(self.opened_at) as f64 / 3_600_000.0;
        let config = self.current_config();
        let (next, hands_to_next_variant) = self.next_game();
        TableSummary {
            id: self.spec.id,
            name: self.spec.name.clone(),
            variant: config.variant,
            config,
            min_buy_in: self.spec.min_buy_in,
            max_buy_in: self.spec.max_buy_in,
            seats_taken: players.len() as u8,
            seats: self.spec.seats,
            paused: self.spec.paused,
            private: self.spec.private,
            players,
            hands_per_hour: if hours > 0.0 { (self.hands_played as f64 / hours).round() } else { 0.0 },
            average_pot: match self.recent_pots.len() as u64 {
                0 => 0,
                n => self.recent_pots.iter().sum::<Chips>() / n,
            },
            waiting: self.waitlist.len() as u32,
            display: self.spec.display,
            chat: self.spec.chat_on(),
            next_variant: next.map(|c| c.variant),
            hands_to_next_variant,
            next_betting: next.map(|c| c.betting),
            tournament_id: self.spec.tournament,
            tournament_level: self.tournament_level(),
        }
    }

    /// A seat's view of a hand belongs to the player who was dealt in there, not to whoever
    /// sits in that seat now (after a hand, a newcomer must not see the old cards).
    fn hand_viewer(live: &Live, viewer: Viewer, player: Option<Uuid>) -> Viewer {
        match viewer {
            Viewer::Seat(seat) if player.is_some_and(|p| live.dealt.contains(&(seat, p))) => viewer,
            _ => Viewer::Observer,
        }
    }

    /// Who sits where now, as anyone may see it (the snapshots' seats; operators' live status).
    pub fn seat_list(&self) -> Vec<SeatInfo> {
        // During a hand the engine holds the stacks; between hands the seats do.
        let in_play = self.live.as_ref().filter(|l| !l.hand.is_over()).map(|l| l.hand.stacks()).unwrap_or_default();
        self.seated()
            .map(|(seat, p)| {
                let stack = in_play.iter().find(|x| x.seat == seat).map_or(p.stack, |x| x.chips);
                SeatInfo {
                    seat: seat.number(),
                    player_id: p.who.player_id,
                    name: p.who.name.clone(),
                    stack,
                    sitting_out: p.sitting_out,
                    sitting_out_reason: if p.sitting_out { p.sit_out_reason } else { None },
                    connected: p.connections > 0,
                }
            })
            .collect()
    }

    /// The table as `viewer` (the seat of `player`, if any) may see it.
    fn table_state(&self, viewer: Viewer, player: Option<Uuid>, now: Millis) -> TableState {
        let seats = self.seat_list();
        TableState {
            seat_count: self.spec.seats,
            table_id: self.spec.id,
            name: self.spec.name.clone(),
            config: self.current_config(),
            min_buy_in: self.spec.min_buy_in,
            max_buy_in: self.spec.max_buy_in,
            seats,
            your_seat: match viewer {
                Viewer::Seat(s) => Some(s.number()),
                Viewer::Observer => None,
            },
            auto_muck: match viewer {
                Viewer::Seat(s) => self.player(s).is_some_and(|p| p.auto_muck),
                Viewer::Observer => false,
            },
            hand: self.live.as_ref().map(|l| self.hand_state(l, viewer, player, now)),
            waiting: self.waitlist.len() as u32,
            wait: player.and_then(|p| self.wait_position(p)).map(|i| WaitPlace {
                position: i as u32 + 1,
                offer_ms: self.offer_deadline(i, now).map(|t| t.saturating_sub(now)),
            }),
            display: self.spec.display,
            chat: self.spec.chat_on(),
            tournament_id: self.spec.tournament,
            tournament_level: self.tournament_level(),
        }
    }

    /// The hand in play as `viewer` may see it, with its events so far.
    fn hand_state(&self, l: &Live, viewer: Viewer, player: Option<Uuid>, now: Millis) -> HandState {
        let viewer = Self::hand_viewer(l, viewer, player);
        let own = match viewer {
            Viewer::Seat(s) if !l.hand.is_over() => Some(s),
            _ => None,
        };
        let (to_call, bring_in_amount) = own.map_or((None, None), |s| l.hand.prompt_amounts(s));
        let turn = l.turn.as_ref();
        HandState {
            hand_id: l.id,
            number: l.number,
            view: l.hand.view_for(viewer),
            deadline_ms: turn.map(|t| t.deadline.saturating_sub(now)),
            time_bank_ms: turn.map(|t| {
                let bank = self.player(t.seat).map_or(0, |p| p.time_bank_ms);
                bank.min(t.deadline.saturating_sub(now))
            }),
            pots: l.pots.hand_pots(),
            events: l.events.iter().map(|e| e.for_viewer(viewer)).collect(),
            to_call,
            bring_in_amount,
            hand_strength: own.and_then(|s| l.hand.strength_of(s)),
        }
    }

    /// One frame to one connection.
    pub(super) fn send(out: &mut Vec<Output>, conn: ConnId, frame: Frame) {
        out.push(Output::Send { conn, frame });
    }

    /// An error answering a request (counted).
    pub(super) fn error(
        out: &mut Vec<Output>,
        conn: ConnId,
        request_id: RequestId,
        code: ErrorCode,
        message: impl Into<String>,
    ) {
        out.push(Output::Metric(Metric::Error(code)));
        Self::send(out, conn, error(request_id, code, message));
    }

    /// An ack answering a request, with the table's seq.
    pub(super) fn ack(&self, out: &mut Vec<Output>, conn: ConnId, request_id: RequestId, detail: impl Into<String>) {
        let frame = frame(&ServerMsg::Ack {
            request_id,
            table_id: Some(self.spec.id),
            seq: Some(self.seq),
            detail: detail.into(),
        });
        Self::send(out, conn, frame);
    }

    /// Whether anyone watches. A table replaying its journal at start has no subscriber yet:
    /// its broadcasts render no frame for nobody (they were most of a restart's replay).
    fn watched(&self) -> bool {
        !self.subs.is_empty()
    }

    /// One broadcast: the same frame to everyone, except `private` (seat, frame) for that
    /// seat's connections.
    fn broadcast(&self, out: &mut Vec<Output>, public: &Frame, private: Option<(Seat, Frame)>) {
        for (conn, who) in &self.subs {
            let frame = match &private {
                Some((owner, frame)) if self.seat_of(who.player_id) == Some(*owner) => frame,
                _ => public,
            };
            Self::send(out, *conn, frame.clone());
        }
    }

    /// One event of the hand in play, to everyone as an observer sees it and to the owner of
    /// a down card with the card; `pots` when the event changed them (the seq is already
    /// counted).
    pub(super) fn broadcast_event(&self, out: &mut Vec<Output>, hand_id: Uuid, event: &Event, pots: Option<Vec<Pot>>) {
        if !self.watched() {
            return;
        }
        let (table_id, seq) = (self.spec.id, self.seq);
        let hand_code = self.live.as_ref().and_then(|live| Self::hand_code(&live.hand, event));
        // Rendered once for everyone; the owner of a down card gets its own frame.
        let public = frame(&ServerMsg::Event {
            table_id,
            seq,
            hand_id,
            event: event.for_viewer(Viewer::Observer),
            pots: pots.clone(),
            hand_code: hand_code.clone(),
        });
        // Whether a card (or a declaration) is hidden from others is the engine's rule
        // (`Event::private_to`): that seat gets it whole, everyone else the redaction.
        let private = event.private_to().map(|seat| {
            let event = event.for_viewer(Viewer::Seat(seat));
            (seat, frame(&ServerMsg::Event { table_id, seq, hand_id, event, pots, hand_code }))
        });
        self.broadcast(out, &public, private);
    }

    /// The code of the hand a `shown` event shows or an `award` names (the half awarded).
    fn hand_code(hand: &Hand, event: &Event) -> Option<HandStrength> {
        match *event {
            Event::Shown { seat, .. } => hand.strength_of(seat),
            Event::Award { seat, half, hand: Some(_), .. } => {
                let s = hand.strength_of(seat)?;
                match half {
                    Half::Whole => Some(s),
                    Half::High => Some(HandStrength { low: None, ..s }),
                    Half::Low => Some(HandStrength { high: None, ..s }),
                    // Chicago's spade half names a card, not a hand: the award's text says it.
                    Half::Spade => None,
                }
            }
            _ => None,
        }
    }

    /// A seating change: a new seq and a fresh snapshot for everyone.
    pub(super) fn broadcast_snapshots(&mut self, now: Millis, out: &mut Vec<Output>) {
        self.seq += 1;
        for conn in self.subs.keys() {
            Self::send(out, *conn, self.snapshot_frame(*conn, now));
        }
        out.push(Output::Summary(Box::new(self.summary(now))));
    }

    /// Re-sends the pending prompt to one connection of the seat to act (after a reconnect).
    pub(super) fn prompt_conn(&self, now: Millis, conn: ConnId, seat: Seat, out: &mut Vec<Output>) {
        let Some(live) = self.live.as_ref().filter(|l| !l.hand.is_over()) else { return };
        let Some(turn) = live.turn.as_ref().filter(|t| t.seat == seat) else { return };
        let bank = self.player(seat).map_or(0, |p| p.time_bank_ms);
        let msg = self.your_turn(live, seat, turn.deadline.saturating_sub(now), bank);
        Self::send(out, conn, frame(&msg));
    }

    /// The prompt for the seat to act: its legal actions and amounts, with the table's seq.
    fn your_turn(&self, live: &Live, seat: Seat, deadline_ms: u64, bank: u64) -> ServerMsg {
        let (to_call, bring_in_amount) = live.hand.prompt_amounts(seat);
        ServerMsg::YourTurn {
            table_id: self.spec.id,
            seq: self.seq,
            hand_id: live.id,
            legal: live.hand.legal_actions(seat).to_vec(),
            deadline_ms,
            time_bank_ms: bank,
            to_call,
            bring_in_amount,
            hand_strength: live.hand.strength_of(seat),
            wagers: live.hand.legal_entries(seat).into_iter().filter(|e| e.min_to.is_some()).collect(),
        }
    }

    /// A new prompt (its seq already counted and the turn set): the seat to act gets its own
    /// prompt, everyone else whose turn it is and how long they have.
    pub(super) fn broadcast_prompt(&self, out: &mut Vec<Output>, at: Millis, seat: Seat, bank: u64, deadline: Millis) {
        if !self.watched() {
            return;
        }
        let Some(live) = self.live.as_ref() else { return };
        let deadline_ms = deadline.saturating_sub(at);
        let yours = frame(&self.your_turn(live, seat, deadline_ms, bank));
        let theirs = frame(&ServerMsg::Turn {
            table_id: self.spec.id,
            seq: self.seq,
            hand_id: live.id,
            seat: seat.number(),
            deadline_ms,
            time_bank_ms: bank.min(deadline_ms),
        });
        self.broadcast(out, &theirs, Some((seat, yours)));
    }

    /// A hand has started (its seq already counted).
    pub(super) fn broadcast_hand_started(&self, out: &mut Vec<Output>, hand_id: Uuid, number: u64, commitment: String) {
        if !self.watched() {
            return;
        }
        let msg = ServerMsg::HandStarted { table_id: self.spec.id, seq: self.seq, hand_id, number, commitment };
        self.broadcast(out, &frame(&msg), None);
    }

    /// A hand's result: its awards and the stacks after it (its seq already counted).
    pub(super) fn broadcast_result(
        &self,
        out: &mut Vec<Output>,
        hand_id: Uuid,
        awards: Vec<AwardRecord>,
        stacks: &[(Seat, Chips)],
    ) {
        if !self.watched() {
            return;
        }
        let msg = ServerMsg::HandResult {
            table_id: self.spec.id,
            seq: self.seq,
            hand_id,
            awards,
            stacks: stacks.iter().map(|(s, c)| (s.number(), *c)).collect(),
        };
        self.broadcast(out, &frame(&msg), None);
    }

    /// The table has closed (its seq already counted).
    pub(super) fn broadcast_closed(&self, out: &mut Vec<Output>) {
        if !self.watched() {
            return;
        }
        let msg = ServerMsg::TableClosed { table_id: self.spec.id, seq: self.seq };
        self.broadcast(out, &frame(&msg), None);
    }

    /// A chat line from the player in `seat`, to everyone watching (no seq: chat is not
    /// journaled).
    pub(super) fn broadcast_chat(&self, out: &mut Vec<Output>, seat: Seat, who: Who, text: String, now: Millis) {
        if !self.watched() {
            return;
        }
        let msg = ServerMsg::Chat {
            table_id: self.spec.id,
            seat: seat.number(),
            player_id: who.player_id,
            name: who.name,
            text,
            at_ms: now,
        };
        self.broadcast(out, &frame(&msg), None);
    }

    /// An error frame no request asked for (the table removed the connection), not counted as
    /// an error answered.
    pub(super) fn notice(out: &mut Vec<Output>, conn: ConnId, table: Uuid, code: ErrorCode, message: &str) {
        let msg =
            ServerMsg::Error { request_id: None, code, message: message.into(), unread: false, table_id: Some(table) };
        Self::send(out, conn, frame(&msg));
    }
}
