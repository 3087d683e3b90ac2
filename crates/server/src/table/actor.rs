//! The table task: seats, the hand in play, the clock, and fan-out to subscribers.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use stud_engine::{Action, ActionError, Chips, Event, Hand, Seat, Seed, Viewer};
use stud_proto::{ErrorCode, HandState, RequestId, SeatInfo, ServerMsg, TableState, TableSummary};
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Instant, sleep_until};
use tracing::{debug, info, warn};
use uuid::Uuid;

use super::{Conn, TableCmd, TableSpec};
use crate::app::{App, Session};
use crate::wire::{self, Frame};
use stud_store::{HandSeat, LedgerKind, StoredHand};

/// Broadcasts a lagging subscriber may miss before it is disconnected.
const LAG_LIMIT: u32 = 64;
/// Idempotency keys remembered per seat.
const KEYS_KEPT: usize = 64;

struct SeatPlayer {
    session: Arc<Session>,
    /// chips on the table outside a hand (the engine holds them during one)
    stack: Chips,
    sitting_out: bool,
    /// sit out when the current hand ends (asked for, or after a timeout fold)
    sit_out_next: bool,
    /// left: the clock plays the rest of the hand at once, then the seat is cashed out
    leaving: bool,
    /// removed by an operator once the current hand ends (plays it out meanwhile)
    kick_after: bool,
    time_bank: Duration,
    connections: usize,
    disconnected_since: Option<Instant>,
    recent_keys: VecDeque<String>,
}

struct Sub {
    conn: Conn,
    lagging: bool,
    misses: u32,
}

struct Turn {
    seat: Seat,
    started: Instant,
    deadline: Instant,
}

struct Live {
    hand: Hand,
    id: Uuid,
    number: u64,
    /// ms since the Unix epoch
    started_at_ms: u64,
    /// the seq of the prompt now waiting for an answer
    prompt_seq: u64,
    turn: Option<Turn>,
    /// who held each seat dealt in: a seat's view of this hand is only ever theirs
    dealt: Vec<(Seat, Uuid)>,
}

struct Table {
    app: Arc<App>,
    spec: TableSpec,
    seats: [Option<SeatPlayer>; 8],
    subs: HashMap<u64, Sub>,
    seq: u64,
    live: Option<Live>,
    next_hand_at: Option<Instant>,
    hands_played: u64,
    opened: Instant,
    /// operator settings waiting for the current hand to end
    pending: Option<TableSpec>,
    /// closing: no new hands; stop once the current one is over
    closing: Option<oneshot::Sender<()>>,
    /// stopped: the loop ends
    closed: bool,
}

/// The table loop: commands and the clock, until every handle is dropped or `Shutdown`.
#[tracing::instrument(skip_all, fields(table_id = %spec.id))]
pub async fn run_table(app: Arc<App>, spec: TableSpec, mut rx: mpsc::Receiver<TableCmd>) {
    app.metrics.tables.fetch_add(1, Relaxed);
    let mut table = Table {
        app: app.clone(),
        spec,
        seats: Default::default(),
        subs: HashMap::new(),
        seq: 0,
        live: None,
        next_hand_at: None,
        hands_played: 0,
        opened: Instant::now(),
        pending: None,
        closing: None,
        closed: false,
    };
    table.publish_summary();
    while !table.closed {
        let wake = table.next_wake();
        tokio::select! {
            cmd = rx.recv() => match cmd {
                None => break,
                Some(TableCmd::Shutdown { reply }) => {
                    table.shutdown();
                    let _ = reply.send(());
                    break;
                }
                Some(cmd) => table.handle(cmd),
            },
            () = sleep_until(wake.unwrap_or_else(far_future)), if wake.is_some() => table.on_clock(),
        }
    }
    app.lobby.remove(table.spec.id);
    app.metrics.tables.fetch_sub(1, Relaxed);
}

fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86_400)
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn ms_until(t: Instant) -> u64 {
    u64::try_from(t.saturating_duration_since(Instant::now()).as_millis()).unwrap_or(u64::MAX)
}

impl Table {
    fn seat_of(&self, player: Uuid) -> Option<Seat> {
        self.seats
            .iter()
            .enumerate()
            .find(|(_, s)| s.as_ref().is_some_and(|p| p.session.player_id == player))
            .and_then(|(i, _)| Seat::new(i as u8 + 1))
    }

    fn player(&self, seat: Seat) -> Option<&SeatPlayer> {
        self.seats.get(usize::from(seat.number()) - 1).and_then(Option::as_ref)
    }

    fn player_mut(&mut self, seat: Seat) -> Option<&mut SeatPlayer> {
        self.seats.get_mut(usize::from(seat.number()) - 1).and_then(Option::as_mut)
    }

    fn viewer_of(&self, conn_id: u64) -> Viewer {
        match self.subs.get(&conn_id).and_then(|s| self.seat_of(s.conn.session.player_id)) {
            Some(seat) => Viewer::Seat(seat),
            None => Viewer::Observer,
        }
    }

    fn in_hand(&self, seat: Seat) -> bool {
        self.live.as_ref().is_some_and(|l| !l.hand.is_over() && l.hand.seats().any(|s| s == seat))
    }

    fn next_wake(&self) -> Option<Instant> {
        let turn = self.live.as_ref().and_then(|l| l.turn.as_ref()).map(|t| t.deadline);
        match (turn, self.next_hand_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    // ---- sending -------------------------------------------------------------------------

    /// Queues a frame for one subscriber; a full queue marks it lagging (it will get a fresh
    /// snapshot instead of the backlog), a closed one removes it.
    fn deliver(&mut self, conn_id: u64, frame: &Frame) {
        let Some(sub) = self.subs.get_mut(&conn_id) else { return };
        if sub.lagging {
            return;
        }
        match sub.conn.outbox.try_send(frame.clone()) {
            Ok(()) => {
                self.app.metrics.frames.fetch_add(1, Relaxed);
            }
            Err(TrySendError::Full(_)) => {
                sub.lagging = true;
                sub.misses = 0;
                self.app.metrics.lagging.fetch_add(1, Relaxed);
                debug!(conn_id, "subscriber lagging");
            }
            Err(TrySendError::Closed(_)) => self.remove_sub(conn_id),
        }
    }

    /// Lagging subscribers get one fresh snapshot as soon as their queue has room; one that
    /// stays full for `LAG_LIMIT` broadcasts is disconnected.
    fn resync_lagging(&mut self) {
        let lagging: Vec<u64> = self.subs.iter().filter(|(_, s)| s.lagging).map(|(id, _)| *id).collect();
        for conn_id in lagging {
            let frame = self.snapshot_frame(conn_id);
            let Some(sub) = self.subs.get_mut(&conn_id) else { continue };
            match sub.conn.outbox.try_send(frame) {
                Ok(()) => sub.lagging = false,
                Err(TrySendError::Full(_)) => {
                    sub.misses += 1;
                    if sub.misses > LAG_LIMIT {
                        warn!(conn_id, "dropping a client that cannot keep up");
                        sub.conn.kick.cancel();
                        self.remove_sub(conn_id);
                    }
                }
                Err(TrySendError::Closed(_)) => self.remove_sub(conn_id),
            }
        }
    }

    fn reply(&mut self, conn_id: u64, frame: Frame) {
        self.deliver(conn_id, &frame);
    }

    fn error(&mut self, conn_id: u64, request_id: RequestId, code: ErrorCode, message: impl Into<String>) {
        self.app.metrics.error(code);
        self.reply(conn_id, wire::error(request_id, code, message));
    }

    fn ack(&mut self, conn_id: u64, request_id: RequestId, detail: impl Into<String>) {
        let frame = wire::frame(&ServerMsg::Ack {
            request_id,
            table_id: Some(self.spec.id),
            seq: Some(self.seq),
            detail: detail.into(),
        });
        self.reply(conn_id, frame);
    }

    /// One broadcast: the same frame to everyone, except `private` (seat, frame) for that
    /// seat's connections.
    fn broadcast(&mut self, public: &Frame, private: Option<(Seat, Frame)>) {
        let ids: Vec<(u64, Option<Seat>)> =
            self.subs.iter().map(|(id, s)| (*id, self.seat_of(s.conn.session.player_id))).collect();
        for (id, seat) in ids {
            match &private {
                Some((owner, frame)) if seat == Some(*owner) => self.deliver(id, &frame.clone()),
                _ => self.deliver(id, public),
            }
        }
        self.resync_lagging();
    }

    fn broadcast_event(&mut self, hand_id: Uuid, event: &Event) {
        self.seq += 1;
        let seq = self.seq;
        let table_id = self.spec.id;
        // Rendered once for everyone; the owner of a down card gets its own frame.
        let public =
            wire::frame(&ServerMsg::Event { table_id, seq, hand_id, event: event.for_viewer(Viewer::Observer) });
        let private = match event {
            Event::Dealt { seat, up: false, card: Some(_), .. } => {
                Some((*seat, wire::frame(&ServerMsg::Event { table_id, seq, hand_id, event: event.clone() })))
            }
            _ => None,
        };
        self.broadcast(&public, private);
    }

    /// A seat's view of a hand belongs to the player who was dealt in there, not to whoever
    /// sits in that seat now (after a hand, a newcomer must not see the old cards).
    fn hand_viewer(live: &Live, viewer: Viewer, player: Option<Uuid>) -> Viewer {
        match viewer {
            Viewer::Seat(seat) if player.is_some_and(|p| live.dealt.contains(&(seat, p))) => viewer,
            _ => Viewer::Observer,
        }
    }

    fn table_state(&self, viewer: Viewer, player: Option<Uuid>) -> TableState {
        // During a hand the engine holds the stacks; between hands the seats do.
        let in_play = self.live.as_ref().filter(|l| !l.hand.is_over()).map(|l| l.hand.stacks()).unwrap_or_default();
        let seats = self
            .seats
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let p = s.as_ref()?;
                let seat = Seat::new(i as u8 + 1)?;
                let stack = in_play.iter().find(|x| x.seat == seat).map_or(p.stack, |x| x.chips);
                Some(SeatInfo {
                    seat: seat.number(),
                    player_id: p.session.player_id,
                    name: p.session.name.clone(),
                    stack,
                    sitting_out: p.sitting_out,
                    connected: p.connections > 0,
                })
            })
            .collect();
        TableState {
            seat_count: self.spec.seats,
            table_id: self.spec.id,
            name: self.spec.name.clone(),
            config: self.spec.config,
            min_buy_in: self.spec.min_buy_in,
            max_buy_in: self.spec.max_buy_in,
            seats,
            your_seat: match viewer {
                Viewer::Seat(s) => Some(s.number()),
                Viewer::Observer => None,
            },
            hand: self.live.as_ref().map(|l| HandState {
                hand_id: l.id,
                number: l.number,
                view: l.hand.view_for(Self::hand_viewer(l, viewer, player)),
                deadline_ms: l.turn.as_ref().map(|t| ms_until(t.deadline)),
            }),
        }
    }

    fn snapshot_frame(&self, conn_id: u64) -> Frame {
        let viewer = self.viewer_of(conn_id);
        let player = self.subs.get(&conn_id).map(|s| s.conn.session.player_id);
        wire::frame(&ServerMsg::Snapshot {
            table_id: self.spec.id,
            seq: self.seq,
            table: self.table_state(viewer, player),
        })
    }

    /// A seating change: a new seq and a fresh snapshot for everyone.
    fn broadcast_snapshots(&mut self) {
        self.seq += 1;
        let ids: Vec<u64> = self.subs.keys().copied().collect();
        for id in ids {
            let frame = self.snapshot_frame(id);
            self.deliver(id, &frame);
        }
        self.resync_lagging();
        self.publish_summary();
    }

    fn publish_summary(&self) {
        let players: Vec<String> = self.seats.iter().flatten().map(|p| p.session.name.clone()).collect();
        let hours = self.opened.elapsed().as_secs_f64() / 3600.0;
        self.app.lobby.publish(TableSummary {
            id: self.spec.id,
            name: self.spec.name.clone(),
            variant: self.spec.config.variant,
            config: self.spec.config,
            min_buy_in: self.spec.min_buy_in,
            max_buy_in: self.spec.max_buy_in,
            seats_taken: players.len() as u8,
            seats: self.spec.seats,
            paused: self.spec.paused,
            private: self.spec.private,
            players,
            hands_per_hour: if hours > 0.0 { (self.hands_played as f64 / hours).round() } else { 0.0 },
        });
    }

    // ---- commands ------------------------------------------------------------------------

    fn handle(&mut self, cmd: TableCmd) {
        match cmd {
            TableCmd::Join { conn, request_id, watch } => self.join(conn, request_id, watch),
            TableCmd::Sit { conn_id, request_id, seat, buy_in } => {
                self.sit(conn_id, request_id, seat, buy_in);
                // Where nobody may watch, a failed sit does not leave a spectator behind.
                let player = self.subs.get(&conn_id).map(|s| s.conn.session.player_id);
                if !self.spec.observers && player.is_some_and(|p| self.seat_of(p).is_none()) {
                    self.remove_sub(conn_id);
                }
            }
            TableCmd::Act { conn_id, request_id, hand_id, seq, key, action, received } => {
                self.act(conn_id, request_id, hand_id, seq, key, action);
                self.app.metrics.action_latency(received.elapsed());
            }
            TableCmd::SitOut { conn_id, request_id, out } => self.sit_out(conn_id, request_id, out),
            TableCmd::TopUp { conn_id, request_id, amount } => self.top_up(conn_id, request_id, amount),
            TableCmd::Leave { conn_id, request_id } => self.leave(conn_id, request_id),
            TableCmd::Snapshot { conn_id, .. } => {
                let frame = self.snapshot_frame(conn_id);
                if let Some(sub) = self.subs.get_mut(&conn_id) {
                    sub.lagging = false;
                }
                self.reply(conn_id, frame);
            }
            TableCmd::Disconnect { conn_id } => self.disconnect(conn_id),
            TableCmd::Shutdown { .. } => {}
            TableCmd::Update { spec, reply } => {
                self.pending = Some(*spec);
                if self.live.as_ref().is_none_or(|l| l.hand.is_over()) {
                    self.apply_pending();
                }
                let _ = reply.send(());
            }
            TableCmd::Pause { paused, reply } => {
                self.spec.paused = paused;
                if let Some(p) = self.pending.as_mut() {
                    p.paused = paused;
                }
                if !paused {
                    self.schedule_hand();
                }
                self.publish_summary();
                let _ = reply.send(());
            }
            TableCmd::Close { reply } => {
                self.closing = Some(reply);
                if self.live.as_ref().is_none_or(|l| l.hand.is_over()) {
                    self.close();
                }
            }
            TableCmd::Kick { player, now, reply } => {
                let _ = reply.send(self.kick(player, now));
            }
            TableCmd::Status { reply } => {
                let hand = self.live.as_ref().filter(|l| !l.hand.is_over()).map(|l| l.id);
                let _ = reply.send((hand, self.hands_played));
            }
        }
    }

    /// Takes the operator's new settings (between hands).
    fn apply_pending(&mut self) {
        if let Some(mut spec) = self.pending.take() {
            info!(table = %spec.id, "new settings");
            spec.hands_before = self.spec.hands_before;
            // Watchers came in under the old access rules: when they tighten (observers off, made
            // private, a new or revoked code), everyone without a seat has to come in again.
            let old = &self.spec;
            let tightened = (old.observers && !spec.observers)
                || (spec.private && (!old.private || spec.invite_code != old.invite_code));
            self.spec = spec;
            // Seats past a smaller table size are cashed out.
            for n in self.spec.seats + 1..=8 {
                if let Some(seat) = Seat::new(n) {
                    self.cash_out(seat);
                }
            }
            if tightened {
                let watchers: Vec<u64> = self
                    .subs
                    .iter()
                    .filter(|(_, s)| self.seat_of(s.conn.session.player_id).is_none())
                    .map(|(id, _)| *id)
                    .collect();
                for id in watchers {
                    self.reply(id, wire::error(None, ErrorCode::Forbidden, "the table's access changed: join again"));
                    self.remove_sub(id);
                }
            }
            self.broadcast_snapshots();
        }
    }

    /// Closes the table: everyone is cashed out and told; the loop ends.
    fn close(&mut self) {
        for n in 1..=8 {
            if let Some(seat) = Seat::new(n) {
                self.cash_out(seat);
            }
        }
        self.seq += 1;
        let frame = wire::frame(&ServerMsg::TableClosed { table_id: self.spec.id, seq: self.seq });
        self.broadcast(&frame, None);
        self.subs.clear();
        self.closed = true;
        if let Some(reply) = self.closing.take() {
            let _ = reply.send(());
        }
    }

    /// Removes a player: their connections stop watching; their seat is cashed out now, or
    /// after the hand (`now`: the clock gives their hand up at once). Returns whether they were
    /// here at all.
    fn kick(&mut self, player: Uuid, now: bool) -> bool {
        let watching = self.subs.values().any(|s| s.conn.session.player_id == player);
        let Some(seat) = self.seat_of(player) else {
            self.drop_player(player);
            return watching;
        };
        if let Some(p) = self.player_mut(seat) {
            p.leaving |= now;
            p.kick_after = true;
        }
        if now {
            self.drop_player(player);
            if self.in_hand(seat) {
                self.play_for_absent();
            }
        }
        // Kicked for after the hand, the player keeps their view and plays it out;
        // finish_hand removes them.
        if !self.in_hand(seat) {
            self.cash_out(seat);
            self.drop_player(player);
            self.broadcast_snapshots();
        }
        true
    }

    /// Tells a removed player's connections so and stops sending them this table.
    fn drop_player(&mut self, player: Uuid) {
        let conns: Vec<u64> =
            self.subs.iter().filter(|(_, s)| s.conn.session.player_id == player).map(|(id, _)| *id).collect();
        for id in conns {
            let frame = wire::error(None, ErrorCode::Forbidden, "an operator removed you from this table");
            self.reply(id, frame);
            self.remove_sub(id);
        }
    }

    fn join(&mut self, conn: Conn, request_id: RequestId, watch: bool) {
        let conn_id = conn.id;
        let player = conn.session.player_id;
        if self.app.is_banned(player, Some(self.spec.id)) {
            self.app.metrics.error(ErrorCode::Forbidden);
            let _ =
                conn.outbox.try_send(wire::error(request_id, ErrorCode::Forbidden, "you are banned from this table"));
            return;
        }
        if watch && !self.spec.observers && self.seat_of(player).is_none() {
            self.app.metrics.error(ErrorCode::Forbidden);
            let _ = conn.outbox.try_send(wire::error(request_id, ErrorCode::Forbidden, "this table has no observers"));
            return;
        }
        let replaced = self.subs.insert(conn_id, Sub { conn, lagging: false, misses: 0 });
        if replaced.is_none() {
            if let Some(seat) = self.seat_of(player) {
                let back = self.player_mut(seat).map(|p| {
                    p.connections += 1;
                    p.disconnected_since.take().is_some()
                });
                if back == Some(true) {
                    self.app.metrics.reconnects.fetch_add(1, Relaxed);
                    info!(%player, seat = seat.number(), "player reconnected");
                    self.restore_deadline(seat);
                }
            }
        }
        let frame = self.snapshot_frame(conn_id);
        self.reply(conn_id, frame);
        self.ack(conn_id, request_id, "joined");
        // A seated player whose turn it is can act at once.
        if let Some(seat) = self.seat_of(player) {
            self.prompt_conn(conn_id, seat);
        }
    }

    fn sit(&mut self, conn_id: u64, request_id: RequestId, seat: Option<u8>, buy_in: Chips) {
        let Some(session) = self.subs.get(&conn_id).map(|s| s.conn.session.clone()) else {
            return self.error(conn_id, request_id, ErrorCode::NotSeated, "join the table first");
        };
        if self.seat_of(session.player_id).is_some() {
            return self.error(conn_id, request_id, ErrorCode::AlreadySeated, "you already have a seat here");
        }
        let chosen = match seat {
            Some(n) if (1..=8).contains(&n) && n > self.spec.seats => {
                let seats = self.spec.seats;
                return self.error(
                    conn_id,
                    request_id,
                    ErrorCode::Malformed,
                    format!("this table has seats 1 to {seats}"),
                );
            }
            Some(n) => match Seat::new(n) {
                None => return self.error(conn_id, request_id, ErrorCode::Malformed, format!("seat {n} is not 1..=8")),
                Some(s) if self.player(s).is_some() => {
                    return self.error(conn_id, request_id, ErrorCode::SeatTaken, format!("seat {n} is taken"));
                }
                Some(s) => s,
            },
            None => match (1..=self.spec.seats).filter_map(Seat::new).find(|s| self.player(*s).is_none()) {
                Some(s) => s,
                None => return self.error(conn_id, request_id, ErrorCode::TableFull, "no free seat"),
            },
        };
        let (min, max) = (self.spec.min_buy_in, self.spec.max_buy_in);
        if !(min..=max).contains(&buy_in) {
            return self.error(
                conn_id,
                request_id,
                ErrorCode::BuyInOutOfRange,
                format!("buy-in must be between {min} and {max}"),
            );
        }
        if !self.app.bank.withdraw(session.player_id, buy_in) {
            let balance = self.app.bank.balance(session.player_id);
            return self.error(
                conn_id,
                request_id,
                ErrorCode::InsufficientBalance,
                format!("balance {balance} is less than {buy_in}"),
            );
        }
        self.app.ledger(session.player_id, self.spec.id, LedgerKind::BuyIn, buy_in);
        let connections = self.subs.values().filter(|s| s.conn.session.player_id == session.player_id).count();
        self.app.set_seated(session.player_id, self.spec.id, true);
        if let Some(slot) = self.seats.get_mut(usize::from(chosen.number()) - 1) {
            *slot = Some(SeatPlayer {
                session,
                stack: buy_in,
                sitting_out: false,
                sit_out_next: false,
                leaving: false,
                kick_after: false,
                time_bank: Duration::from_millis(self.spec.time_bank_ms),
                connections,
                disconnected_since: None,
                recent_keys: VecDeque::new(),
            });
        }
        self.ack(conn_id, request_id, format!("seated at {}", chosen.number()));
        self.broadcast_snapshots();
        self.schedule_hand();
    }

    fn act(&mut self, conn_id: u64, request_id: RequestId, hand_id: Uuid, seq: u64, key: String, action: Action) {
        let Some(player) = self.subs.get(&conn_id).map(|s| s.conn.session.player_id) else {
            return self.error(conn_id, request_id, ErrorCode::NotSeated, "join the table first");
        };
        let Some(seat) = self.seat_of(player) else {
            return self.error(conn_id, request_id, ErrorCode::NotSeated, "you have no seat at this table");
        };
        if self.player(seat).is_some_and(|p| p.recent_keys.contains(&key)) {
            return self.ack(conn_id, request_id, "duplicate: already applied");
        }
        let Some(live) = self.live.as_ref().filter(|l| !l.hand.is_over()) else {
            return self.error(conn_id, request_id, ErrorCode::Stale, "no hand is in play");
        };
        if live.id != hand_id {
            return self.error(conn_id, request_id, ErrorCode::Stale, "that hand is over");
        }
        if seq < live.prompt_seq {
            return self.error(
                conn_id,
                request_id,
                ErrorCode::Stale,
                format!("answer the prompt of seq {}", live.prompt_seq),
            );
        }
        match self.apply(seat, action, false) {
            Ok(()) => {
                if let Some(p) = self.player_mut(seat) {
                    p.recent_keys.push_back(key);
                    if p.recent_keys.len() > KEYS_KEPT {
                        p.recent_keys.pop_front();
                    }
                }
            }
            Err(ActionError::NotYourTurn { .. }) => {
                self.error(conn_id, request_id, ErrorCode::NotYourTurn, "it is not your turn")
            }
            Err(e @ ActionError::Illegal { .. }) => {
                self.error(conn_id, request_id, ErrorCode::IllegalAction, e.to_string())
            }
            Err(e) => self.error(conn_id, request_id, ErrorCode::Stale, e.to_string()),
        }
    }

    fn sit_out(&mut self, conn_id: u64, request_id: RequestId, out: bool) {
        let Some(seat) = self.subs.get(&conn_id).and_then(|s| self.seat_of(s.conn.session.player_id)) else {
            return self.error(conn_id, request_id, ErrorCode::NotSeated, "you have no seat at this table");
        };
        let in_hand = self.in_hand(seat);
        if let Some(p) = self.player_mut(seat) {
            if out {
                // RULES: sitting out takes effect after the current hand.
                if in_hand { p.sit_out_next = true } else { p.sitting_out = true }
            } else {
                p.sit_out_next = false;
                p.sitting_out = false;
            }
        }
        self.ack(conn_id, request_id, if out { "sitting out" } else { "sitting in" });
        self.broadcast_snapshots();
        self.schedule_hand();
    }

    fn top_up(&mut self, conn_id: u64, request_id: RequestId, amount: Chips) {
        let Some(seat) = self.subs.get(&conn_id).and_then(|s| self.seat_of(s.conn.session.player_id)) else {
            return self.error(conn_id, request_id, ErrorCode::NotSeated, "you have no seat at this table");
        };
        if self.in_hand(seat) {
            return self.error(conn_id, request_id, ErrorCode::NotNow, "top up between hands");
        }
        let max = self.spec.max_buy_in;
        let Some((player, stack)) = self.player(seat).map(|p| (p.session.player_id, p.stack)) else { return };
        if amount == 0 || stack.saturating_add(amount) > max {
            return self.error(
                conn_id,
                request_id,
                ErrorCode::BuyInOutOfRange,
                format!("a top-up may bring the stack to at most {max}"),
            );
        }
        if !self.app.bank.withdraw(player, amount) {
            return self.error(conn_id, request_id, ErrorCode::InsufficientBalance, "not enough chips in the balance");
        }
        self.app.ledger(player, self.spec.id, LedgerKind::TopUp, amount);
        if let Some(p) = self.player_mut(seat) {
            p.stack += amount;
        }
        self.ack(conn_id, request_id, "topped up");
        self.broadcast_snapshots();
        self.schedule_hand();
    }

    fn leave(&mut self, conn_id: u64, request_id: RequestId) {
        let seat = self.subs.get(&conn_id).and_then(|s| self.seat_of(s.conn.session.player_id));
        if let Some(seat) = seat {
            if self.in_hand(seat) {
                // RULES.md 8: the hand is played out by the clock (at once), then the seat is
                // cashed out.
                if let Some(p) = self.player_mut(seat) {
                    p.leaving = true;
                }
                self.play_for_absent();
            }
            if !self.in_hand(seat) {
                self.cash_out(seat);
                self.broadcast_snapshots();
            }
        }
        self.ack(conn_id, request_id, "left");
        self.remove_sub(conn_id);
    }

    /// The socket closed (or the table dropped it).
    fn disconnect(&mut self, conn_id: u64) {
        self.remove_sub(conn_id);
    }

    /// Removes a subscriber; a seated player left with no connection is marked disconnected
    /// (their turns get the grace period).
    fn remove_sub(&mut self, conn_id: u64) {
        let Some(sub) = self.subs.remove(&conn_id) else { return };
        let player = sub.conn.session.player_id;
        if let Some(seat) = self.seat_of(player) {
            let gone = self.player_mut(seat).map(|p| {
                p.connections = p.connections.saturating_sub(1);
                if p.connections == 0 {
                    p.disconnected_since = Some(Instant::now());
                }
                p.connections == 0
            });
            if gone == Some(true) {
                info!(%player, seat = seat.number(), "seated player disconnected");
                let grace = Duration::from_millis(self.app.config.disconnect_grace_ms);
                if let Some(turn) = self.live.as_mut().and_then(|l| l.turn.as_mut()).filter(|t| t.seat == seat) {
                    turn.deadline = turn.deadline.min(Instant::now() + grace);
                }
            }
        }
    }

    fn cash_out(&mut self, seat: Seat) {
        let Some(p) = self.seats.get_mut(usize::from(seat.number()) - 1).and_then(Option::take) else { return };
        self.app.bank.deposit(p.session.player_id, p.stack);
        if p.stack > 0 {
            self.app.ledger(p.session.player_id, self.spec.id, LedgerKind::CashOut, p.stack);
        }
        self.app.set_seated(p.session.player_id, self.spec.id, false);
    }

    /// Server shutdown: an unfinished hand is voided (everyone gets their stack from before
    /// the hand back), then every seat is cashed out to the bank.
    fn shutdown(&mut self) {
        self.live = None;
        for n in 1..=8 {
            if let Some(seat) = Seat::new(n) {
                self.cash_out(seat);
            }
        }
    }

    // ---- the hand --------------------------------------------------------------------------

    fn schedule_hand(&mut self) {
        if self.next_hand_at.is_none() && self.live.as_ref().is_none_or(|l| l.hand.is_over()) {
            self.next_hand_at = Some(Instant::now() + Duration::from_millis(self.app.config.hand_pause_ms));
        }
    }

    fn on_clock(&mut self) {
        let now = Instant::now();
        if self.next_hand_at.is_some_and(|t| t <= now) {
            self.next_hand_at = None;
            self.start_hand();
        }
        let due = self.live.as_ref().and_then(|l| l.turn.as_ref()).filter(|t| t.deadline <= now).map(|t| t.seat);
        if let Some(seat) = due {
            let pick = self.live.as_ref().and_then(|l| l.hand.timeout_action());
            if let Some((s, action)) = pick.filter(|(s, _)| *s == seat) {
                self.app.metrics.timeouts.fetch_add(1, Relaxed);
                if let Some(p) = self.player_mut(s) {
                    p.time_bank = Duration::ZERO;
                    if action == Action::Fold {
                        // A timeout fold sits the player out.
                        p.sit_out_next = true;
                    }
                }
                if let Err(e) = self.apply(s, action, true) {
                    warn!(error = %e, "the clock's action was refused");
                    self.rearm_clock();
                }
            } else {
                self.rearm_clock();
            }
        }
    }

    /// A deadline passed that the clock could not act on (never expected): prompt afresh rather
    /// than wake up again at once.
    fn rearm_clock(&mut self) {
        if let Some(live) = self.live.as_mut() {
            live.turn = None;
        }
        self.prompt();
    }

    fn start_hand(&mut self) {
        if self.live.as_ref().is_some_and(|l| !l.hand.is_over()) {
            return;
        }
        self.apply_pending();
        if self.spec.paused || self.closing.is_some() {
            return;
        }
        let seats: Vec<(Seat, Chips)> = self
            .seats
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let p = s.as_ref().filter(|p| !p.sitting_out && !p.leaving && !p.kick_after && p.stack > 0)?;
                Some((Seat::new(i as u8 + 1)?, p.stack))
            })
            .collect();
        if seats.len() < 2 {
            return;
        }
        if self.app.writer.backlogged() {
            // The database is far behind: finish no more hands than it can take. Try again
            // shortly; players see the table waiting between hands.
            self.app.metrics.store_waits.fetch_add(1, Relaxed);
            self.next_hand_at = Some(Instant::now() + Duration::from_millis(250));
            return;
        }
        let mut seed = [0u8; 32];
        if let Err(e) = getrandom::fill(&mut seed) {
            warn!(error = %e, "no OS randomness: hand not started, retrying");
            self.schedule_hand();
            return;
        }
        let (hand, events) = match Hand::start(self.spec.config, &seats, Seed(seed)) {
            Ok(x) => x,
            Err(e) => {
                warn!(error = %e, "hand could not start");
                return;
            }
        };
        self.hands_played += 1;
        let id = Uuid::new_v4();
        let commitment = hand.commitment().map(|c| c.to_hex()).unwrap_or_default();
        let dealt = seats.iter().filter_map(|(s, _)| self.player(*s).map(|p| (*s, p.session.player_id))).collect();
        self.live = Some(Live {
            hand,
            id,
            number: self.spec.hands_before + self.hands_played,
            started_at_ms: now_ms(),
            prompt_seq: 0,
            turn: None,
            dealt,
        });
        self.seq += 1;
        let started = wire::frame(&ServerMsg::HandStarted {
            table_id: self.spec.id,
            seq: self.seq,
            hand_id: id,
            number: self.spec.hands_before + self.hands_played,
            commitment,
        });
        self.broadcast(&started, None);
        self.after_events(events);
    }

    fn apply(&mut self, seat: Seat, action: Action, by_clock: bool) -> Result<(), ActionError> {
        let Some(live) = self.live.as_mut() else { return Err(ActionError::HandOver) };
        let events = live.hand.apply(seat, action)?;
        self.app.metrics.actions.fetch_add(1, Relaxed);
        let turn = live.turn.take();
        if !by_clock {
            if let Some(t) = turn.filter(|t| t.seat == seat) {
                let over = t.started.elapsed().saturating_sub(Duration::from_millis(self.spec.action_timeout_ms));
                if let Some(p) = self.player_mut(seat) {
                    p.time_bank = p.time_bank.saturating_sub(over);
                }
            }
        }
        self.after_events(events);
        Ok(())
    }

    /// Broadcasts `events`, then prompts the next player or finishes the hand.
    fn after_events(&mut self, events: Vec<Event>) {
        let Some(hand_id) = self.live.as_ref().map(|l| l.id) else { return };
        for e in &events {
            self.broadcast_event(hand_id, e);
        }
        if self.live.as_ref().is_some_and(|l| l.hand.is_over()) {
            self.finish_hand();
        } else {
            self.play_for_absent();
            if self.live.as_ref().is_some_and(|l| !l.hand.is_over() && l.turn.is_none()) {
                self.prompt();
            }
        }
    }

    /// Leavers' turns are taken by the clock at once (RULES.md 8).
    fn play_for_absent(&mut self) {
        loop {
            let Some((seat, action)) = self.live.as_ref().and_then(|l| l.hand.timeout_action()) else { return };
            if !self.player(seat).is_some_and(|p| p.leaving) {
                return;
            }
            if let Some(live) = self.live.as_mut() {
                live.turn = None;
            }
            if self.apply(seat, action, true).is_err() || self.live.as_ref().is_none_or(|l| l.hand.is_over()) {
                return;
            }
        }
    }

    /// Starts the clock for the player to act and tells everyone.
    fn prompt(&mut self) {
        let Some(seat) = self.live.as_ref().and_then(|l| l.hand.to_act()) else { return };
        let now = Instant::now();
        let (bank, away) = self.player(seat).map_or((Duration::ZERO, false), |p| (p.time_bank, p.connections == 0));
        let mut deadline = now + Duration::from_millis(self.spec.action_timeout_ms) + bank;
        if away {
            deadline = deadline.min(now + Duration::from_millis(self.app.config.disconnect_grace_ms));
        }
        self.seq += 1;
        let seq = self.seq;
        let table_id = self.spec.id;
        let Some(live) = self.live.as_mut() else { return };
        live.prompt_seq = seq;
        live.turn = Some(Turn { seat, started: now, deadline });
        let hand_id = live.id;
        let legal = live.hand.legal_actions(seat).to_vec();
        let deadline_ms = ms_until(deadline);
        let yours = wire::frame(&ServerMsg::YourTurn {
            table_id,
            seq,
            hand_id,
            legal,
            deadline_ms,
            time_bank_ms: u64::try_from(bank.as_millis()).unwrap_or(u64::MAX),
        });
        let theirs = wire::frame(&ServerMsg::Turn { table_id, seq, hand_id, seat: seat.number(), deadline_ms });
        self.broadcast(&theirs, Some((seat, yours)));
    }

    /// Re-sends the pending prompt to one connection of the seat to act (after a reconnect).
    fn prompt_conn(&mut self, conn_id: u64, seat: Seat) {
        let Some(live) = self.live.as_ref().filter(|l| !l.hand.is_over()) else { return };
        let Some(turn) = live.turn.as_ref().filter(|t| t.seat == seat) else { return };
        let bank = self.player(seat).map_or(Duration::ZERO, |p| p.time_bank);
        let frame = wire::frame(&ServerMsg::YourTurn {
            table_id: self.spec.id,
            seq: self.seq,
            hand_id: live.id,
            legal: live.hand.legal_actions(seat).to_vec(),
            deadline_ms: ms_until(turn.deadline),
            time_bank_ms: u64::try_from(bank.as_millis()).unwrap_or(u64::MAX),
        });
        self.reply(conn_id, frame);
    }

    fn restore_deadline(&mut self, seat: Seat) {
        let bank = self.player(seat).map_or(Duration::ZERO, |p| p.time_bank);
        let timeout = Duration::from_millis(self.spec.action_timeout_ms);
        if let Some(turn) = self.live.as_mut().and_then(|l| l.turn.as_mut()).filter(|t| t.seat == seat) {
            turn.deadline = turn.started + timeout + bank;
        }
    }

    fn finish_hand(&mut self) {
        let Some(live) = self.live.as_mut() else { return };
        live.turn = None;
        let record = live.hand.record();
        let (hand_id, number, started_at_ms) = (live.id, live.number, live.started_at_ms);
        let stacks: Vec<(Seat, Chips)> = live.hand.stacks().iter().map(|s| (s.seat, s.chips)).collect();
        let awards = record.result.as_ref().map(|r| r.awards.clone()).unwrap_or_default();
        self.seq += 1;
        let result = wire::frame(&ServerMsg::HandResult {
            table_id: self.spec.id,
            seq: self.seq,
            hand_id,
            awards,
            stacks: stacks.iter().map(|(s, c)| (s.number(), *c)).collect(),
        });
        self.broadcast(&result, None);

        let mut seats = Vec::with_capacity(stacks.len());
        for (seat, after) in &stacks {
            let before = record.seats.iter().find(|s| s.seat == *seat).map_or(0, |s| s.chips);
            if let Some(p) = self.player_mut(*seat) {
                p.stack = *after;
                seats.push(HandSeat {
                    seat: *seat,
                    player_id: p.session.player_id,
                    session_id: p.session.session_id,
                    name: p.session.name.clone(),
                    net: i64::try_from(*after).unwrap_or(i64::MAX) - i64::try_from(before).unwrap_or(i64::MAX),
                    showdown: record.result.as_ref().is_some_and(|r| r.showdown.iter().any(|s| s.seat == *seat)),
                });
            }
        }
        self.app.hand_finished(StoredHand {
            hand_id,
            table_id: self.spec.id,
            number,
            started_at_ms,
            ended_at_ms: now_ms(),
            record,
            seats,
        });
        self.app.metrics.hands.fetch_add(1, Relaxed);

        // Between hands: pending sit-outs, busted players, leavers.
        for n in 1..=8 {
            let Some(seat) = Seat::new(n) else { continue };
            let (leave, kicked) = match self.player_mut(seat) {
                Some(p) => {
                    if p.sit_out_next || p.stack == 0 {
                        p.sitting_out = true;
                        p.sit_out_next = false;
                    }
                    (p.leaving || p.kick_after, p.kick_after.then_some(p.session.player_id))
                }
                None => (false, None),
            };
            if leave {
                self.cash_out(seat);
            }
            if let Some(player) = kicked {
                self.drop_player(player);
            }
        }
        if self.closing.is_some() {
            return self.close();
        }
        self.apply_pending();
        self.broadcast_snapshots();
        self.schedule_hand();
    }
}
