//! The table task: a thin loop around a [`TableCore`]. Receive a command (or wake for the
//! clock), stamp the time, let the core check it, journal the input it makes, apply it, and
//! carry out the outputs: frames to subscribers, writes to the store writer, chips to and
//! from accounts, the lobby line.

use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use stud_engine::Seed;
use stud_proto::{ErrorCode, RequestId};
use stud_store::{HandSeat, JournalRow, LedgerEntry, LedgerKind, StoredHand, TableWrites, Write};
use stud_table::{Command, ConnId, Decision, Due, Entry, Input, JOURNAL_VERSION, JournalSeed, Metric, Millis};
use stud_table::{Movement, Output, TableCore, Who};
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Instant, sleep_until};
use tracing::{Instrument, debug, warn};
use uuid::Uuid;

use super::delivery::{Delivery, LAG_POLL};
use super::{Debit, Start, TableCmd, TableEnv};
use crate::wire;

/// Wait before retrying what the clock could not journal (database down).
const RETRY_MS: u64 = 500;
/// Wait before trying to start a hand again while the store writer is far behind.
const BACKLOG_WAIT_MS: u64 = 250;

/// Milliseconds since the Unix epoch, read from tokio's clock (so tests can pause time).
///
/// The base is kept in microseconds: with whole milliseconds on both sides (the wall clock's
/// floor plus the elapsed time's floor) the table's time could be one millisecond behind the
/// wall clock the rest of the server stamps with, and a buy-in could be stamped before the
/// issue of the chips it spends (the ledger orders by time).
#[derive(Clone, Copy)]
struct Clock {
    base_us: u64,
    base: Instant,
}

impl Clock {
    fn new() -> Clock {
        let base_us = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX));
        Clock { base_us, base: Instant::now() }
    }

    fn now(&self) -> Millis {
        let elapsed = u64::try_from(self.base.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.base_us.saturating_add(elapsed) / 1000
    }

    fn instant(&self, at: Millis) -> Instant {
        let at_us = at.saturating_mul(1000);
        self.base + Duration::from_micros(at_us.saturating_sub(self.base_us))
    }
}

struct Actor {
    env: Arc<dyn TableEnv>,
    core: TableCore,
    delivery: Delivery,
    clock: Clock,
    /// operators waiting for the table to close
    closing: Vec<oneshot::Sender<()>>,
    out: Vec<Output>,
}

/// The table loop: commands and the clock, until every handle is dropped, `Shutdown`, or the
/// table closes. A resumed table first journals [`Input::Resume`]; a fresh one starts its journal.
///
/// Not an `async fn`: its arguments would be kept in the task beside the actor built from them
/// (and again by a tracing wrapper), three copies of the 2.5 KB core in the task of every table,
/// idle or not. The future made here holds the actor once.
pub fn run_table(
    env: Arc<dyn TableEnv>,
    core: TableCore,
    start: Start,
    rx: mpsc::Receiver<Box<TableCmd>>,
) -> impl Future<Output = ()> + Send + 'static {
    let span = tracing::info_span!("run_table", table_id = %core.spec().id);
    let actor =
        Actor { env, core, delivery: Delivery::default(), clock: Clock::new(), closing: Vec::new(), out: Vec::new() };
    actor.serve(start, rx).instrument(span)
}

impl Actor {
    /// The loop (a plain `fn` returning the future, for the reason given at [`run_table`]).
    #[expect(clippy::manual_async_fn, reason = "an `async fn` keeps its arguments in its future twice")]
    fn serve(
        mut self,
        start: Start,
        mut rx: mpsc::Receiver<Box<TableCmd>>,
    ) -> impl Future<Output = ()> + Send + 'static {
        async move {
            let actor = &mut self;
            let env = actor.env.clone();
            env.metrics().tables.fetch_add(1, Relaxed);
            let id = actor.core.spec().id;
            let now = actor.clock.now();
            env.publish(actor.core.summary(now));
            match start {
                Start::Resumed => {
                    // The process was away: the player to act gets a whole clock again (journaled, so
                    // a later replay charges the time bank from the same moment).
                    Box::pin(actor.journal_and_apply(now, Input::Resume, None, None)).await;
                }
                Start::Started => {}
                Start::Fresh => {
                    // The journal starts at this snapshot before the first input can be appended.
                    let snapshot = actor.core.snapshot();
                    while let Err(e) = env.journal_reset(id, actor.core.applied(), &snapshot).await {
                        warn!(error = %e, "cannot start the table's journal; retrying");
                        tokio::time::sleep(Duration::from_millis(1_000)).await;
                    }
                }
            }
            while !actor.core.is_closed() {
                let wake = actor.core.wake_at().map(|t| actor.clock.instant(t));
                tokio::select! {
                    cmd = rx.recv() => match cmd.map(|c| *c) {
                        None => break,
                        Some(TableCmd::Shutdown { reply }) => {
                            // Nothing to void: every applied input is in the journal; the next start
                            // resumes from it.
                            let _ = reply.send(());
                            break;
                        }
                        // Boxed, like the clock's turn below: the work for one command (journal,
                        // debit, apply, deliver) is allocated while it runs, not held in the task
                        // of every table, idle or not (it was most of an empty table's memory).
                        Some(cmd) => Box::pin(actor.command(cmd)).await,
                    },
                    () = sleep_until(wake.unwrap_or_else(|| Instant::now() + Duration::from_secs(86_400))), if wake.is_some() => {
                        Box::pin(actor.on_clock()).await;
                    }
                    () = tokio::time::sleep(LAG_POLL), if actor.delivery.any_lagging() => actor.on_lag_poll(),
                }
                actor.env.sent();
            }
            // Requests that were queued when the table stopped still get their one reply.
            rx.close();
            while let Ok(cmd) = rx.try_recv() {
                actor.gone(*cmd);
            }
            env.sent();
            // A close is answered as done only when the table did close: a table stopped first (the
            // server shutting down mid-hand) drops the reply, and the close route says the table
            // finishes its hand and closes when the server is back (`start_with_store` resumes it).
            if actor.core.is_closed() {
                for reply in actor.closing.drain(..) {
                    let _ = reply.send(());
                }
            }
            env.table_stopped(id);
            env.metrics().tables.fetch_sub(1, Relaxed);
        }
    }

    async fn command(&mut self, cmd: TableCmd) {
        let now = self.clock.now();
        let (cmd, origin) = match cmd {
            TableCmd::Join { conn, request_id, watch } => {
                let who = who(&conn.session);
                let banned = self.env.is_banned(who.player_id, self.core.spec().id);
                let conn_id = conn.id;
                self.delivery.add(conn);
                (Command::Join { conn: conn_id, who, request_id, watch, banned }, None)
            }
            TableCmd::Sit { conn_id, request_id, seat, buy_in } => {
                let origin = (conn_id, request_id.clone());
                (Command::Sit { conn: conn_id, request_id, seat, buy_in }, Some(origin))
            }
            TableCmd::Act { conn_id, request_id, act } => {
                let super::Act { hand_id, seq, key, action, received } = *act;
                let origin = (conn_id, request_id.clone());
                let cmd = Command::Act { conn: conn_id, request_id, hand_id, seq, key, action };
                self.run(now, cmd, Some(origin)).await;
                self.env.metrics().action_latency(received.elapsed());
                return;
            }
            TableCmd::SitOut { conn_id, request_id, out } => {
                let origin = (conn_id, request_id.clone());
                (Command::SitOut { conn: conn_id, request_id, out }, Some(origin))
            }
            TableCmd::AutoMuck { conn_id, request_id, on } => {
                let origin = (conn_id, request_id.clone());
                (Command::AutoMuck { conn: conn_id, request_id, on }, Some(origin))
            }
            TableCmd::Waitlist { conn_id, request_id, on } => {
                let origin = (conn_id, request_id.clone());
                (Command::Waitlist { conn: conn_id, request_id, on }, Some(origin))
            }
            TableCmd::TopUp { conn_id, request_id, amount } => {
                let origin = (conn_id, request_id.clone());
                (Command::TopUp { conn: conn_id, request_id, amount }, Some(origin))
            }
            TableCmd::Leave { conn_id, request_id } => {
                let origin = (conn_id, request_id.clone());
                (Command::Leave { conn: conn_id, request_id }, Some(origin))
            }
            TableCmd::Snapshot { conn_id, request_id } => {
                self.delivery.caught_up(conn_id);
                (Command::Snapshot { conn: conn_id, request_id }, None)
            }
            TableCmd::Resync { conn_id } => {
                self.delivery.caught_up(conn_id);
                for frame in self.core.resync_frames(conn_id, now) {
                    self.delivery.deliver(self.env.metrics(), conn_id, frame);
                }
                return;
            }
            TableCmd::Disconnect { conn_id } => {
                self.run(now, Command::Disconnect { conn: conn_id }, None).await;
                self.delivery.forget(conn_id);
                return;
            }
            TableCmd::Chat { conn_id, request_id, text } => {
                // Banned players are muted (a ban may come after they joined).
                let table = self.core.spec().id;
                let banned = self.delivery.player(conn_id).is_some_and(|p| self.env.is_banned(p, table));
                (Command::Chat { conn: conn_id, request_id, text, banned }, None)
            }
            TableCmd::Shutdown { reply } => {
                let _ = reply.send(());
                return;
            }
            TableCmd::Update { spec, reply } => {
                self.run(now, Command::Update { spec: Box::new(*spec) }, None).await;
                let _ = reply.send(());
                return;
            }
            TableCmd::Pause { paused, reply } => {
                self.run(now, Command::Pause { paused }, None).await;
                let _ = reply.send(());
                return;
            }
            TableCmd::Close { reply } => {
                self.closing.push(reply);
                (Command::Close, None)
            }
            TableCmd::Kick { player, now: at_once, reply } => {
                let here = self.core.is_here(player);
                self.run(now, Command::Kick { player, now: at_once }, None).await;
                let _ = reply.send(here);
                return;
            }
            TableCmd::Status { reply } => {
                let (hand, hands) = self.core.status();
                let _ = reply.send(super::TableStatus { hand, hands, seats: self.core.seat_list() });
                return;
            }
            TableCmd::TournamentSeat { who, seat, chips } => (Command::TournamentSeat { who: *who, seat, chips }, None),
            TableCmd::TournamentChips { who, seat, chips } => {
                (Command::TournamentChips { who: *who, seat, chips }, None)
            }
            TableCmd::TournamentUnseat { player } => (Command::TournamentUnseat { player }, None),
            TableCmd::Deal { config, level, players, deal } => {
                (Command::Deal { config: *config, level, players, deal }, None)
            }
            TableCmd::TournamentState { reply } => {
                let _ = reply.send(super::TournamentTableState {
                    in_play: self.core.in_play(),
                    deal_pending: self.core.deal_pending(),
                    stacks: self.core.stacks(),
                    deal: self.core.deal_number(),
                    last_report: self.core.last_report().cloned(),
                });
                return;
            }
        };
        self.run(now, cmd, origin).await;
    }

    /// Answers a command that reached a table which has stopped: closed, or stopped where it
    /// runs (a shutdown, or a cluster worker giving it up) to resume there or elsewhere, when
    /// the request was not applied and may be sent again.
    fn gone(&mut self, cmd: TableCmd) {
        let closed = self.core.is_closed();
        let frame = |request_id| match closed {
            true => wire::error(request_id, ErrorCode::UnknownTable, "the table has closed"),
            false => wire::error(
                request_id,
                ErrorCode::Unavailable,
                "the table is restarting or moving to another server; try again in a moment",
            ),
        };
        match cmd {
            TableCmd::Join { conn, request_id, .. } => {
                let _ = conn.outbox.try_send(frame(request_id));
            }
            TableCmd::Sit { conn_id, request_id, .. }
            | TableCmd::Act { conn_id, request_id, .. }
            | TableCmd::SitOut { conn_id, request_id, .. }
            | TableCmd::AutoMuck { conn_id, request_id, .. }
            | TableCmd::Waitlist { conn_id, request_id, .. }
            | TableCmd::TopUp { conn_id, request_id, .. }
            | TableCmd::Leave { conn_id, request_id }
            | TableCmd::Snapshot { conn_id, request_id }
            | TableCmd::Chat { conn_id, request_id, .. } => self.delivery.reply(conn_id, frame(request_id)),
            TableCmd::Close { reply } => self.closing.push(reply),
            TableCmd::Shutdown { reply } => {
                let _ = reply.send(());
            }
            TableCmd::Disconnect { .. }
            | TableCmd::Resync { .. }
            | TableCmd::Update { .. }
            | TableCmd::Pause { .. }
            | TableCmd::Kick { .. }
            | TableCmd::Status { .. }
            | TableCmd::TournamentSeat { .. }
            | TableCmd::TournamentChips { .. }
            | TableCmd::TournamentUnseat { .. }
            | TableCmd::Deal { .. }
            | TableCmd::TournamentState { .. } => {}
        }
    }

    /// Checks a command with the core; journals and applies the input it makes.
    async fn run(&mut self, now: Millis, cmd: Command, origin: Option<(ConnId, RequestId)>) {
        let decision = self.core.handle(now, cmd, &mut self.out);
        self.flush(now, None);
        if let Decision::Journal { input, debit } = decision {
            self.journal_and_apply(now, input, debit, origin).await;
        }
    }

    /// Journals `input` (after taking `debit` from the account), then applies it. A refusal
    /// (no chips, no journal) goes to `origin` and changes nothing.
    async fn journal_and_apply(
        &mut self,
        now: Millis,
        input: Input,
        debit: Option<(Uuid, u64)>,
        origin: Option<(ConnId, RequestId)>,
    ) -> bool {
        let n = self.core.applied() + 1;
        let table_id = self.core.spec().id;
        if let Some((player, chips)) = debit {
            match self.env.withdraw(table_id, n, player, chips).await {
                Ok(()) => {}
                Err(Debit::Short(balance)) => {
                    let message = format!("balance {balance} is less than {chips}");
                    self.refuse(now, origin, ErrorCode::InsufficientBalance, message);
                    return false;
                }
                Err(Debit::Unavailable) => {
                    let message = "the table cannot take chips right now (database unavailable); try again";
                    self.refuse(now, origin, ErrorCode::Unavailable, message.to_owned());
                    return false;
                }
            }
        }
        let entry = Entry { v: JOURNAL_VERSION, n, at: now, input };
        let row = JournalRow { table_id: self.core.spec().id, n, at_ms: now, entry: entry.encode() };
        if self.env.journal(row).await.is_err() {
            if let Some((player, chips)) = debit {
                self.env.undo_withdraw(table_id, n, player, chips);
            }
            let message = "the table cannot record moves right now (database unavailable); try again";
            self.refuse(now, origin, ErrorCode::Unavailable, message.to_owned());
            return false;
        }
        if let Err(e) = self.core.apply(now, &entry.input, origin, &mut self.out) {
            // Never expected: the core made this input a moment ago.
            warn!(error = %e, "an input the table made was not applied");
        }
        self.flush(now, Some(n));
        true
    }

    fn refuse(&mut self, now: Millis, origin: Option<(ConnId, RequestId)>, code: ErrorCode, message: String) {
        if let Some((conn, request_id)) = origin {
            self.env.metrics().error(code);
            self.delivery.reply(conn, wire::error(request_id, code, message));
            self.core.refused(conn, &mut self.out);
            self.flush(now, None);
        }
    }

    async fn on_clock(&mut self) {
        let now = self.clock.now();
        while let Some(due) = self.core.due(now) {
            let input = match due {
                Due::Input(input) => input,
                Due::StartHand => {
                    if self.env.backlogged() {
                        // The database is far behind: finish no more hands than it can take.
                        self.env.metrics().store_waits.fetch_add(1, Relaxed);
                        self.core.delay_hand(now + BACKLOG_WAIT_MS);
                        return;
                    }
                    let mut seed = [0u8; 32];
                    if let Err(e) = getrandom::fill(&mut seed) {
                        warn!(error = %e, "no OS randomness: hand not started, retrying");
                        self.core.delay_hand(now + RETRY_MS);
                        return;
                    }
                    Input::StartHand { hand_id: Uuid::new_v4(), seed: JournalSeed(Seed(seed)) }
                }
            };
            let start = matches!(input, Input::StartHand { .. });
            if !self.journal_and_apply(now, input, None, None).await {
                // Not journaled: nothing happened; the clock tries again shortly.
                if start {
                    self.core.delay_hand(now + RETRY_MS);
                } else {
                    self.core.postpone_turn(now + RETRY_MS);
                }
                return;
            }
        }
    }

    /// Carries out the core's outputs. `n`: the journaled input they came from (its writes
    /// go to the store as one group, with the table's mark).
    fn flush(&mut self, now: Millis, n: Option<u64>) {
        let table_id = self.core.spec().id;
        let mut writes = Vec::new();
        let mut snapshot = None;
        let mut closed_conns = Vec::new();
        for o in std::mem::take(&mut self.out) {
            match o {
                Output::Send { conn, frame } => {
                    if !self.delivery.deliver(self.env.metrics(), conn, frame) {
                        closed_conns.push(conn);
                    }
                }
                Output::Unsubscribed { conn } => self.delivery.remove(conn),
                Output::Ledger { player, kind, amount } => {
                    if kind == Movement::CashOut {
                        self.env.deposit(player, amount);
                    }
                    writes.push(ledger(table_id, player, kind, amount, now));
                }
                Output::Hand(h) => writes.push(stored_hand(table_id, *h)),
                Output::Snapshot(s) => snapshot = Some(s),
                Output::Seated { player, seated } => self.env.set_seated(player, table_id, seated),
                Output::Summary(s) => self.env.publish(*s),
                Output::Metric(m) => {
                    if let Metric::Error(code) = m {
                        debug!(table = %table_id, ?code, "a request refused");
                    }
                    count(self.env.metrics(), m);
                }
                Output::Closed => {}
                Output::TournamentHand(report) => {
                    if let Some(tournament) = self.core.spec().tournament {
                        self.env.tournament_hand(tournament, table_id, report);
                    }
                }
            }
        }
        if let Some(n) = n
            && (!writes.is_empty() || snapshot.is_some())
        {
            self.env.store(TableWrites { table_id, n, writes, snapshot });
        }
        closed_conns.extend(self.delivery.resync(&self.core, now, true));
        self.disconnected(now, closed_conns);
    }

    /// A lagging subscriber's queue may have room again while nothing happens at the table.
    fn on_lag_poll(&mut self) {
        let now = self.clock.now();
        let gone = self.delivery.resync(&self.core, now, false);
        self.disconnected(now, gone);
    }

    /// Connections whose sockets closed (or that were dropped for lagging) leave the table.
    fn disconnected(&mut self, now: Millis, conns: Vec<ConnId>) {
        for conn in conns {
            self.core.handle(now, Command::Disconnect { conn }, &mut self.out);
            self.delivery.remove(conn);
        }
        if !self.out.is_empty() {
            self.flush(now, None);
        }
    }
}

fn who(s: &crate::session::Session) -> Who {
    Who { player_id: s.player_id, session_id: s.session_id, name: s.name.clone() }
}

fn count(m: &crate::metrics::Metrics, metric: Metric) {
    match metric {
        Metric::Action => m.actions.fetch_add(1, Relaxed),
        Metric::Timeout => m.timeouts.fetch_add(1, Relaxed),
        Metric::Hand => m.hands.fetch_add(1, Relaxed),
        Metric::Reconnect => m.reconnects.fetch_add(1, Relaxed),
        Metric::Error(code) => {
            m.error(code);
            0
        }
    };
}

/// A chip movement as the store records it.
pub(crate) fn ledger(table_id: Uuid, player: Uuid, kind: Movement, amount: u64, at_ms: Millis) -> Write {
    let kind = match kind {
        Movement::BuyIn => LedgerKind::BuyIn,
        Movement::TopUp => LedgerKind::TopUp,
        Movement::CashOut => LedgerKind::CashOut,
    };
    Write::Ledger(LedgerEntry { player_id: player, table_id: Some(table_id), kind, amount, at_ms })
}

/// A finished hand as the store records it.
pub(crate) fn stored_hand(table_id: Uuid, h: stud_table::FinishedHand) -> Write {
    let seats = h
        .seats
        .into_iter()
        .map(|s| HandSeat {
            seat: s.seat,
            player_id: s.who.player_id,
            session_id: s.who.session_id,
            name: s.who.name,
            net: s.net,
            showdown: s.showdown,
        })
        .collect();
    Write::Hand(Arc::new(StoredHand {
        hand_id: h.hand_id,
        table_id,
        number: h.number,
        started_at_ms: h.started_at_ms,
        ended_at_ms: h.ended_at_ms,
        record: h.record,
        seats,
        tournament: h.tournament.map(|(id, level)| stud_store::HandTournament { id, level }),
    }))
}
