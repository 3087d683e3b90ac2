//! Commands: checking what a client or an operator asks. What needs no journal is answered
//! at once (joining, a snapshot, chat, refusals); the rest comes back as the [`Input`] to
//! journal, which then applies without fail.

use stud_engine::{Action, ActionError, Chips, Seat};
use stud_proto::{ErrorCode, RequestId};
use uuid::Uuid;

use super::TableCore;
use super::hand::check_action;
use super::types::{Command, ConnId, Decision, Metric, Millis, Output};
use crate::input::{Input, Who};

/// Chat: messages a player may write at once, then one per `CHAT_INTERVAL_MS` (a GCRA
/// bucket per player and table, presence only).
const CHAT_BURST: u64 = 5;
/// Chat: the sustained rate, one message per this many milliseconds.
const CHAT_INTERVAL_MS: u64 = 2_000;

impl TableCore {
    /// Checks a command. Answers what needs no journal at once (into `out`); returns the
    /// input to journal otherwise.
    pub fn handle(&mut self, now: Millis, cmd: Command, out: &mut Vec<Output>) -> Decision {
        match cmd {
            Command::Join { conn, who, request_id, watch, banned } => {
                self.join(now, conn, who, request_id, watch, banned, out);
                Decision::Done
            }
            Command::Sit { conn, request_id, .. } | Command::TopUp { conn, request_id, .. } if self.tournament() => {
                let message = "a tournament table: the tournament assigns the seats and the chips";
                Self::error(out, conn, request_id, ErrorCode::Forbidden, message);
                Decision::Done
            }
            Command::Leave { conn, request_id } if self.tournament() => {
                // The seat is kept (an away player keeps posting and is folded by the clock):
                // leaving only stops watching.
                self.ack(out, conn, request_id, "left (the tournament seat is kept)");
                self.remove_sub(now, conn, out);
                Decision::Done
            }
            Command::TournamentSeat { who, seat, chips } => {
                let free = Seat::new(seat).filter(|s| seat <= self.spec.seats && self.player(*s).is_none());
                if !self.tournament() || free.is_none() || self.seat_of(who.player_id).is_some() {
                    return Decision::Done;
                }
                Decision::Journal { input: Input::Sit { seat, who, buy_in: chips }, debit: None }
            }
            Command::TournamentChips { who, seat, chips } if self.tournament() => match self.seat_of(who.player_id) {
                // Chips change only between hands (the tournament sends them then; one that
                // comes during a hand is given again before the next deal).
                Some(s) if self.in_hand(s) => Decision::Done,
                Some(s) => match self.player(s).map(|p| p.stack) {
                    Some(stack) if chips > stack => Decision::Journal {
                        input: Input::TopUp { seat: s.number(), amount: chips - stack },
                        debit: None,
                    },
                    _ => Decision::Done,
                },
                None => self.handle(now, Command::TournamentSeat { who, seat, chips }, out),
            },
            Command::TournamentChips { .. } => Decision::Done,
            Command::TournamentUnseat { player } => match self.seat_of(player) {
                Some(seat) if self.tournament() => {
                    Decision::Journal { input: Input::Leave { seat: seat.number() }, debit: None }
                }
                _ => Decision::Done,
            },
            Command::Deal { config, level, players, deal } => {
                // The same hand ordered again (a tournament directed over a network sends it
                // again when its resync asked before the first order arrived) is dealt once.
                let again = deal != 0
                    && (self.deal_number() == Some(deal) || self.last_report.as_ref().is_some_and(|r| r.deal >= deal));
                if !self.tournament() || again {
                    return Decision::Done;
                }
                Decision::Journal { input: Input::Deal { config, level, players, deal }, debit: None }
            }
            Command::Sit { conn, request_id, seat, buy_in } => {
                let decision = self.check_sit(conn, request_id.clone(), seat, buy_in, out);
                if decision == Decision::Done {
                    self.refused(conn, out);
                }
                decision
            }
            Command::Act { conn, request_id, hand_id, seq, key, action } => {
                self.check_act(conn, request_id, hand_id, seq, key, action, out)
            }
            Command::SitOut { conn, request_id, out: away } => match self.conn_seat(conn) {
                Some(seat) => {
                    Decision::Journal { input: Input::SitOut { seat: seat.number(), out: away }, debit: None }
                }
                None => {
                    Self::error(out, conn, request_id, ErrorCode::NotSeated, "you have no seat at this table");
                    Decision::Done
                }
            },
            Command::AutoMuck { conn, request_id, on } => match self.conn_seat(conn) {
                Some(seat) => Decision::Journal { input: Input::AutoMuck { seat: seat.number(), on }, debit: None },
                None => {
                    Self::error(out, conn, request_id, ErrorCode::NotSeated, "you have no seat at this table");
                    Decision::Done
                }
            },
            Command::Waitlist { conn, request_id, on } => self.check_waitlist(conn, request_id, on, out),
            Command::TopUp { conn, request_id, amount } => self.check_top_up(conn, request_id, amount, out),
            Command::Leave { conn, request_id } => match self.conn_seat(conn) {
                Some(seat) => Decision::Journal { input: Input::Leave { seat: seat.number() }, debit: None },
                None => {
                    self.ack(out, conn, request_id, "left");
                    self.remove_sub(now, conn, out);
                    Decision::Done
                }
            },
            Command::Snapshot { conn, request_id } => {
                // The snapshot is the reply (it carries the request's id).
                if self.subs.contains_key(&conn) {
                    Self::send(out, conn, self.snapshot_reply(conn, now, request_id));
                } else {
                    Self::error(out, conn, request_id, ErrorCode::NotSeated, "join the table first");
                }
                Decision::Done
            }
            Command::Disconnect { conn } => {
                self.remove_sub(now, conn, out);
                Decision::Done
            }
            Command::Chat { conn, request_id, text, banned } => {
                self.chat(now, conn, request_id, &text, banned, out);
                Decision::Done
            }
            Command::Update { spec } => Decision::Journal { input: Input::Update { spec }, debit: None },
            Command::Pause { paused } => Decision::Journal { input: Input::Pause { paused }, debit: None },
            // A second close (asked again, or by a worker taking the table over) is the same.
            Command::Close if self.closing => Decision::Done,
            Command::Close => Decision::Journal { input: Input::Close, debit: None },
            Command::Kick { player, now: at_once } => {
                if self.seat_of(player).is_some() {
                    return Decision::Journal { input: Input::Kick { player, now: at_once }, debit: None };
                }
                self.drop_player(now, player, out);
                // A removed player waiting for a seat is taken off the list too.
                match self.wait_position(player).and_then(|i| self.waitlist.get(i)) {
                    Some(w) => {
                        Decision::Journal { input: Input::Waitlist { who: w.who.clone(), on: false }, debit: None }
                    }
                    None => Decision::Done,
                }
            }
        }
    }

    /// A chat message: checked (a seated writer, chat on, not banned, not empty, not too
    /// long, not too fast) and sent to everyone watching. Nothing durable changes, so nothing
    /// is journaled; the frame carries no `seq` (a replay of the journal does not repeat it).
    fn chat(
        &mut self,
        now: Millis,
        conn: ConnId,
        request_id: RequestId,
        text: &str,
        banned: bool,
        out: &mut Vec<Output>,
    ) {
        let Some(who) = self.subs.get(&conn).cloned() else {
            return Self::error(out, conn, request_id, ErrorCode::NotSeated, "join the table first");
        };
        if banned {
            return Self::error(out, conn, request_id, ErrorCode::Forbidden, "you are banned from this table: muted");
        }
        if !self.spec.chat_on() {
            return Self::error(out, conn, request_id, ErrorCode::ChatOff, "this table's chat is off");
        }
        let Some(seat) = self.seat_of(who.player_id) else {
            return Self::error(
                out,
                conn,
                request_id,
                ErrorCode::NotSeated,
                "observers read the chat; take a seat to write",
            );
        };
        // Plain text on one line: control characters (newlines too) become spaces.
        let text: String = text.trim().chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        if text.is_empty() {
            return Self::error(out, conn, request_id, ErrorCode::Malformed, "an empty chat message");
        }
        let chars = text.chars().count();
        if chars > stud_proto::CHAT_MAX_CHARS {
            let message = format!("chat messages are at most {} characters, not {chars}", stud_proto::CHAT_MAX_CHARS);
            return Self::error(out, conn, request_id, ErrorCode::TooLong, message);
        }
        self.chat_tat.retain(|_, tat| *tat > now);
        let tat = self.chat_tat.get(&who.player_id).copied().unwrap_or(now).max(now);
        let allowance = (CHAT_BURST - 1) * CHAT_INTERVAL_MS;
        if tat - now > allowance {
            let wait = tat - now - allowance;
            let message = format!(
                "at most {CHAT_BURST} chat messages at once, then one every {} s; wait {wait} ms",
                CHAT_INTERVAL_MS / 1_000
            );
            return Self::error(out, conn, request_id, ErrorCode::RateLimited, message);
        }
        self.chat_tat.insert(who.player_id, tat + CHAT_INTERVAL_MS);
        self.broadcast_chat(out, seat, who, text, now);
        self.ack(out, conn, request_id, "sent");
    }

    #[allow(clippy::too_many_arguments)]
    fn join(
        &mut self,
        now: Millis,
        conn: ConnId,
        who: Who,
        request_id: RequestId,
        watch: bool,
        banned: bool,
        out: &mut Vec<Output>,
    ) {
        let player = who.player_id;
        if banned {
            Self::error(out, conn, request_id, ErrorCode::Forbidden, "you are banned from this table");
            out.push(Output::Unsubscribed { conn });
            return;
        }
        if watch && !self.spec.observers && self.seat_of(player).is_none() {
            Self::error(out, conn, request_id, ErrorCode::Forbidden, "this table has no observers");
            out.push(Output::Unsubscribed { conn });
            return;
        }
        let new = self.subs.insert(conn, who).is_none();
        if !new && !watch {
            // Already subscribed (a `sit` from a socket that watches): nothing to send.
            return;
        }
        if new && let Some(seat) = self.seat_of(player) {
            let back = self.player_mut(seat).map(|p| {
                p.connections += 1;
                std::mem::take(&mut p.disconnected)
            });
            if back == Some(true) {
                out.push(Output::Metric(Metric::Reconnect));
                self.restore_deadline(seat);
            }
        }
        Self::send(out, conn, self.snapshot_frame(conn, now));
        // An explicit `join_table` is answered; the subscription that comes with a `sit` or a
        // reconnecting `hello` is not a request of its own (the sit is answered itself).
        if watch {
            self.ack(out, conn, request_id, "joined");
        }
        // A seated player whose turn it is can act at once.
        if let Some(seat) = self.seat_of(player) {
            self.prompt_conn(now, conn, seat, out);
        }
    }

    /// A `sit`: joined, not seated yet, a free seat of this table, a buy-in in range.
    fn check_sit(
        &mut self,
        conn: ConnId,
        request_id: RequestId,
        seat: Option<u8>,
        buy_in: Chips,
        out: &mut Vec<Output>,
    ) -> Decision {
        let Some(who) = self.subs.get(&conn).cloned() else {
            Self::error(out, conn, request_id, ErrorCode::NotSeated, "join the table first");
            return Decision::Done;
        };
        if self.seat_of(who.player_id).is_some() {
            Self::error(out, conn, request_id, ErrorCode::AlreadySeated, "you already have a seat here");
            return Decision::Done;
        }
        if self.seat_reserved_from(who.player_id) {
            let waiting = self.waitlist.len();
            let message =
                format!("the free seats are offered to the waiting list ({waiting} waiting): join it with `waitlist`");
            Self::error(out, conn, request_id, ErrorCode::TableFull, message);
            return Decision::Done;
        }
        let chosen = match seat {
            Some(n) if (1..=8).contains(&n) && n > self.spec.seats => {
                let seats = self.spec.seats;
                Self::error(out, conn, request_id, ErrorCode::Malformed, format!("this table has seats 1 to {seats}"));
                return Decision::Done;
            }
            Some(n) => match Seat::new(n) {
                None => {
                    Self::error(out, conn, request_id, ErrorCode::Malformed, format!("seat {n} is not 1..=8"));
                    return Decision::Done;
                }
                Some(s) if self.player(s).is_some() => {
                    Self::error(out, conn, request_id, ErrorCode::SeatTaken, format!("seat {n} is taken"));
                    return Decision::Done;
                }
                Some(s) => s,
            },
            None => match (1..=self.spec.seats).filter_map(Seat::new).find(|s| self.player(*s).is_none()) {
                Some(s) => s,
                None => {
                    Self::error(out, conn, request_id, ErrorCode::TableFull, "no free seat");
                    return Decision::Done;
                }
            },
        };
        let (min, max) = (self.spec.min_buy_in, self.spec.max_buy_in);
        if !(min..=max).contains(&buy_in) {
            let message = format!("buy-in must be between {min} and {max}");
            Self::error(out, conn, request_id, ErrorCode::BuyInOutOfRange, message);
            return Decision::Done;
        }
        let player = who.player_id;
        Decision::Journal { input: Input::Sit { seat: chosen.number(), who, buy_in }, debit: Some((player, buy_in)) }
    }

    #[allow(clippy::too_many_arguments)]
    fn check_act(
        &mut self,
        conn: ConnId,
        request_id: RequestId,
        hand_id: Uuid,
        seq: u64,
        key: String,
        action: Action,
        out: &mut Vec<Output>,
    ) -> Decision {
        if !self.subs.contains_key(&conn) {
            Self::error(out, conn, request_id, ErrorCode::NotSeated, "join the table first");
            return Decision::Done;
        }
        let Some(seat) = self.conn_seat(conn) else {
            Self::error(out, conn, request_id, ErrorCode::NotSeated, "you have no seat at this table");
            return Decision::Done;
        };
        if self.player(seat).is_some_and(|p| p.recent_keys.contains(&key)) {
            self.ack(out, conn, request_id, "duplicate: already applied");
            return Decision::Done;
        }
        let Some(live) = self.live.as_ref().filter(|l| !l.hand.is_over()) else {
            Self::error(out, conn, request_id, ErrorCode::Stale, "no hand is in play");
            return Decision::Done;
        };
        if live.id != hand_id {
            Self::error(out, conn, request_id, ErrorCode::Stale, "that hand is over");
            return Decision::Done;
        }
        if seq < live.prompt_seq {
            let message = format!("answer the prompt of seq {}", live.prompt_seq);
            Self::error(out, conn, request_id, ErrorCode::Stale, message);
            return Decision::Done;
        }
        match check_action(&live.hand, seat, action) {
            Ok(()) => Decision::Journal { input: Input::Act { seat: seat.number(), action, key }, debit: None },
            Err(ActionError::NotYourTurn { .. }) => {
                Self::error(out, conn, request_id, ErrorCode::NotYourTurn, "it is not your turn");
                Decision::Done
            }
            Err(e @ ActionError::Illegal { .. }) => {
                Self::error(out, conn, request_id, ErrorCode::IllegalAction, e.to_string());
                Decision::Done
            }
            Err(e) => {
                Self::error(out, conn, request_id, ErrorCode::Stale, e.to_string());
                Decision::Done
            }
        }
    }

    /// A `top_up`: seated, between hands, the stack staying within the maximum buy-in.
    fn check_top_up(&mut self, conn: ConnId, request_id: RequestId, amount: Chips, out: &mut Vec<Output>) -> Decision {
        let Some(seat) = self.conn_seat(conn) else {
            Self::error(out, conn, request_id, ErrorCode::NotSeated, "you have no seat at this table");
            return Decision::Done;
        };
        if self.in_hand(seat) {
            Self::error(out, conn, request_id, ErrorCode::NotNow, "top up between hands");
            return Decision::Done;
        }
        let max = self.spec.max_buy_in;
        let Some((player, stack)) = self.player(seat).map(|p| (p.who.player_id, p.stack)) else {
            return Decision::Done;
        };
        if amount == 0 || stack.saturating_add(amount) > max {
            let message = format!("a top-up may bring the stack to at most {max}");
            Self::error(out, conn, request_id, ErrorCode::BuyInOutOfRange, message);
            return Decision::Done;
        }
        Decision::Journal { input: Input::TopUp { seat: seat.number(), amount }, debit: Some((player, amount)) }
    }
}
