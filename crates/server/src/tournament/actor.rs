//! The tournament task: a thin loop around a [`Tournament`]. Receive a command (or wake for
//! the clock), let the core check it, store the input with the ledger entries it causes (one
//! transaction), then make the applied state the tournament's and publish it.
//!
//! The input is applied to a copy first, so its refunds and prizes are known before anything
//! is stored; the copy becomes the tournament only once the store has taken the input. A
//! store failure leaves the tournament, the accounts and the ledger as they were.
//!
//! Then the outputs are carried out on the tables ([`super::tables`]): seats, moves (the
//! player's sockets get `tournament_seat`), broken tables closed, and every table between
//! hands that the core lets deal is sent `Deal` with its level's stakes (one stored
//! `HandStarted` each). Tables report finished hands through an unbounded channel.
//!
//! After a restart the task compares the core's floor with its tables (each resumed from its
//! own journal; see [`super::resync`]): a hand the core thinks in play at a table that is
//! between hands is settled first (the table's kept report is taken again, or the lost
//! `Deal` sent again), then missing seats are given and stray ones taken away, and tables of
//! the tournament that the floor no longer has (broken before the crash) are closed.
//!
//! Nothing stalls for good: a report carries its hand's number (a late one is refused, never
//! taken for the next hand); a report the store could not take is kept and tried again; and
//! before a table deals, its seats are checked against the floor (a seat or a move it did not
//! take is given again; until it holds, that table waits and is tried again).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use stud_proto::{SeatReason, ServerMsg, TournamentOfferKind};
use stud_store::{LedgerEntry, LedgerKind, TournamentCommit};
use stud_table::Who;
use stud_tournament::{
    Command, Draw, Due, EntryState, Input, Journaled, Knockout, MoveReason, Offer, Output, Status, TOURNAMENT_VERSION,
    TableNo, Tournament, TournamentError,
};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::{Instant, sleep_until};
use tracing::{info, warn};
use uuid::Uuid;

use super::resync::{HandFix, hand_fix, seat_fix, strays, wanted};
use super::{Refusal, Report, TournamentCmd, TournamentHandle, tables};
use crate::app::App;
use crate::table::{SpecExt, TableCmd, TableHandle, TournamentTableState};

/// Starts a tournament's task and lists it.
pub fn open(app: &Arc<App>, core: Tournament) -> tokio::task::JoinHandle<()> {
    open_with(app, core, None)
}

/// Opens a new tournament's task (stored already) and keeps it for shutdown. On a cluster's
/// gateway the caller has claimed it (`App::claim_tournament`): this gateway directs it.
pub fn open_new(app: &Arc<App>, core: Tournament) {
    let id = core.id();
    let task = open(app, core);
    app.track(task);
    if let Some(d) = app.director.get() {
        d.clone().directing(id);
    }
}

/// Starts a tournament's task and lists it (in place of a handle of the same id), publishing
/// its state on `view` if given (a cluster gateway's proxy that starts directing it keeps the
/// sender its handles watch).
pub fn open_with(
    app: &Arc<App>,
    core: Tournament,
    view: Option<watch::Sender<Arc<Tournament>>>,
) -> tokio::task::JoinHandle<()> {
    let id = core.id();
    let (tx, rx) = mpsc::channel(256);
    let (reports, reports_rx) = mpsc::unbounded_channel();
    let view_tx = match view {
        Some(v) => {
            v.send_replace(Arc::new(core.clone()));
            v
        }
        None => watch::channel(Arc::new(core.clone())).0,
    };
    app.tournaments.put(id, TournamentHandle::new(tx, reports, view_tx.subscribe()));
    tokio::spawn(run(app.clone(), core, view_tx, rx, reports_rx))
}

/// Schedules the next one of a repeating tournament `t` that has started or been cancelled,
/// unless it is scheduled already (after a restart too: its id is derived from `t`'s). A
/// start that has passed (the server was down) moves on by whole repeats.
pub async fn schedule_next(app: Arc<App>, t: Arc<Tournament>) {
    let Some((id, mut spec)) = super::successor(&t) else { return };
    if app.tournaments.get(id).is_some() || app.shutting_down() {
        return;
    }
    let now = stud_store::now_ms();
    let step = u64::from(spec.repeat_minutes.unwrap_or(1)).max(1) * 60_000;
    if let Some(start) = spec.start_at.filter(|s| *s <= now) {
        spec.start_at = Some(start + (now - start) / step * step + step);
    }
    let core = Tournament::new(id, spec);
    // On a cluster, another gateway may have scheduled it already (after a failover): then
    // that one directs it.
    if let Err(e) = app.claim_tournament(id).await {
        info!(previous = %t.id(), next = %id, error = %e, "the next tournament of a series is not scheduled here");
        return;
    }
    if let Err(e) = app.store.tournament_create(id, now, &core.snapshot()).await {
        warn!(previous = %t.id(), next = %id, error = %e, "the next tournament of a series was not scheduled");
        if let Some(d) = app.director.get() {
            d.abandon(id);
        }
        return;
    }
    info!(previous = %t.id(), next = %id, start_at = core.spec().start_at, "the next tournament of a series is scheduled");
    open_new(&app, core);
}

/// The first house sit-and-go's id (a version-8 UUID, never one of the random ids operators'
/// tournaments get); the next ones' ids follow from it ([`super::successor`]).
pub const HOUSE_SIT_AND_GO: Uuid = Uuid::from_u128(0x7374_7564_686f_8573_8e67_0000_0000_0001);

/// The house sit-and-go's settings: Stud for six, $10 + $1, 1,500 chips, five-minute levels,
/// recurring (the same one opens as it starts).
pub fn house_sit_and_go() -> Result<stud_tournament::TournamentSpec, stud_tournament::SpecError> {
    let level = |ante: u64, bring_in: u64, small_bet: u64| stud_tournament::LevelRequest {
        ante,
        bring_in,
        small_bet,
        big_bet: small_bet * 2,
        minutes: Some(5),
        hands: None,
    };
    let request = stud_tournament::CreateTournament {
        name: "Stud Sit & Go".into(),
        variant: stud_tournament::GameChoice::Stud,
        betting: stud_engine::Betting::FixedLimit,
        kind: stud_tournament::Kind::SitAndGo,
        start_at: None,
        min_entrants: 2,
        max_entrants: 6,
        seats_per_table: 6,
        entry_fee: 1_000,
        house_fee: 100,
        starting_chips: 1_500,
        levels: vec![
            level(5, 10, 20),
            level(10, 15, 30),
            level(15, 25, 50),
            level(20, 50, 100),
            level(30, 75, 150),
            level(50, 100, 200),
            level(75, 150, 300),
            level(100, 200, 400),
        ],
        payouts: None,
        late_registration_until_level: None,
        reentry_until_level: None,
        invite_code: None,
        rotation_hands: None,
        rotation_games: None,
        rebuy_until_level: None,
        rebuy_chips: None,
        rebuy_fee: None,
        max_rebuys: None,
        addon_chips: None,
        addon_fee: None,
        break_every_levels: None,
        break_minutes: None,
        bounty: None,
        progressive_bounty: None,
        satellite_for: None,
        tickets: None,
        repeat_minutes: None,
        recurring: Some(true),
        deals: None,
    };
    request.validate()
}

/// Opens the house sit-and-go if this server has never had it (issue 31: a first run shows the
/// tournament room too). Once made it is a tournament like any other: it recurs as it starts,
/// and an operator who cancels the open one ends the series (it is not made again).
pub async fn open_house_sit_and_go(app: &Arc<App>, stored: &std::collections::HashSet<Uuid>) {
    if stored.contains(&HOUSE_SIT_AND_GO) || app.tournaments.get(HOUSE_SIT_AND_GO).is_some() {
        return;
    }
    let spec = match house_sit_and_go() {
        Ok(spec) => spec,
        Err(e) => {
            warn!(error = %e, "the house sit-and-go's settings do not validate");
            return;
        }
    };
    let core = Tournament::new(HOUSE_SIT_AND_GO, spec);
    if let Err(e) = app.store.tournament_create(HOUSE_SIT_AND_GO, stud_store::now_ms(), &core.snapshot()).await {
        warn!(error = %e, "the house sit-and-go was not opened");
        return;
    }
    info!(id = %HOUSE_SIT_AND_GO, "the house sit-and-go is open");
    let task = open(app, core);
    app.track(task);
}

/// A snapshot is stored at least every this many inputs (and whenever the status changes).
const SNAPSHOT_EVERY: u64 = 64;
/// Wait before retrying what the clock could not store.
const RETRY_MS: u64 = 1_000;
/// On a cluster, how often a running tournament asks its tables where they stand.
const CLUSTER_RESYNC: Duration = Duration::from_secs(3);

struct Actor {
    app: Arc<App>,
    core: Tournament,
    view: watch::Sender<Arc<Tournament>>,
    /// the clock's input could not be stored: try again at this time
    retry_at: Option<u64>,
    /// the open tables, by the core's number
    tables: BTreeMap<TableNo, TableHandle>,
    /// reports the store could not take yet, and tables whose seats did not match the floor
    /// when they were to deal: tried again at `heal_at`
    pending: Vec<Report>,
    unsettled: BTreeSet<TableNo>,
    heal_at: Option<u64>,
    /// the deal as the players were last told it (to tell them when it is off)
    last_deal: Option<stud_proto::TournamentDeal>,
    /// figures for the log line at the end (BENCHMARKS.md): moves carried out, and in
    /// hand-for-hand, when each table's last hand ended and the longest any table then
    /// waited for its next `Deal`
    moves: u64,
    hfh_since: BTreeMap<TableNo, u64>,
    hfh_wait_max_ms: u64,
}

/// The loop: commands and the clock, until `Shutdown` or every handle is dropped.
#[tracing::instrument(skip_all, fields(tournament_id = %core.id()))]
pub async fn run(
    app: Arc<App>,
    core: Tournament,
    view: watch::Sender<Arc<Tournament>>,
    mut rx: mpsc::Receiver<TournamentCmd>,
    mut reports: mpsc::UnboundedReceiver<Report>,
) {
    let last_deal = crate::wire::tournament::deal(&core);
    let mut actor = Actor {
        app,
        core,
        view,
        retry_at: None,
        tables: BTreeMap::new(),
        pending: Vec::new(),
        unsettled: BTreeSet::new(),
        heal_at: None,
        last_deal,
        moves: 0,
        hfh_since: BTreeMap::new(),
        hfh_wait_max_ms: 0,
    };
    actor.resync().await;
    // A tournament resumed after its start time (or full) starts now.
    actor.on_clock().await;
    actor.pump().await;
    // On a cluster a command to a table or a table's report can be lost on the way (a worker
    // failing over): the tables are asked again every so often, as after a restart.
    let mut cluster_resync = tokio::time::interval(CLUSTER_RESYNC);
    cluster_resync.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    cluster_resync.tick().await;
    let on_cluster = actor.app.director.get().is_some();
    loop {
        let wake = [actor.core.wake_at(), actor.retry_at, actor.heal_at].into_iter().flatten().min();
        let at = wake.map(|t| Instant::now() + Duration::from_millis(t.saturating_sub(stud_store::now_ms())));
        tokio::select! {
            cmd = rx.recv() => match cmd {
                None => break,
                Some(TournamentCmd::Shutdown { reply }) => {
                    let _ = reply.send(());
                    break;
                }
                Some(cmd) => actor.command(cmd).await,
            },
            Some(report) = reports.recv() => {
                actor.report(report).await;
                actor.pump().await;
            }
            _ = cluster_resync.tick(), if on_cluster && actor.core.status() == Status::Running => {
                actor.resync_tables().await;
                actor.pump().await;
            }
            () = sleep_until(at.unwrap_or_else(|| Instant::now() + Duration::from_secs(86_400))), if at.is_some() => {
                actor.on_clock().await;
                actor.heal().await;
                actor.pump().await;
            }
        }
    }
}

/// A satellite's ticket: the prize (paid to the account) registers the player in `target`.
/// If that registration is refused (it has started, is full, the player is registered
/// already), the prize stays in the account as money.
async fn use_ticket(app: Arc<App>, target: Uuid, player: Uuid, name: String) {
    let Some(handle) = app.tournaments.get(target) else {
        warn!(%target, %player, "a satellite ticket for a tournament that is gone: paid as money");
        return;
    };
    let code = handle.now().spec().invite_code.clone();
    match handle.register(player, name, code).await {
        Ok(()) => info!(%target, %player, "a satellite ticket entered its winner"),
        Err(e) => warn!(%target, %player, error = ?e, "a satellite ticket could not be used: paid as money"),
    }
}

fn fresh_draw() -> Result<Draw, Refusal> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| {
        warn!(error = %e, "no OS randomness");
        Refusal::Unavailable
    })?;
    Ok(Draw(seed))
}

impl Actor {
    async fn command(&mut self, cmd: TournamentCmd) {
        // What the clock wants first: a purchase that comes after its offer's end (before the
        // clock woke for it) meets the lapse, not the offer.
        self.on_clock().await;
        let (cmd, reply) = match cmd {
            TournamentCmd::Register { player, name, invite_code, reply } => match fresh_draw() {
                Ok(draw) => (Command::Register { player, name, invite_code, draw }, reply),
                Err(e) => {
                    let _ = reply.send(Err(e));
                    return;
                }
            },
            TournamentCmd::Unregister { player, reply } => (Command::Unregister { player }, reply),
            TournamentCmd::Rebuy { player, key, reply } => match fresh_draw() {
                Ok(draw) => (Command::Rebuy { player, draw, key }, reply),
                Err(e) => {
                    let _ = reply.send(Err(e));
                    return;
                }
            },
            TournamentCmd::AddOn { player, reply } => (Command::AddOn { player }, reply),
            TournamentCmd::Cancel { reply } => (Command::Cancel, reply),
            TournamentCmd::Operate { command, reply } => (command, reply),
            TournamentCmd::Shutdown { reply } => {
                let _ = reply.send(());
                return;
            }
        };
        let outcome = match self.core.handle(cmd) {
            // The same purchase asked again: answered as it was, charged once.
            Err(TournamentError::AlreadyBought) => Ok(()),
            Err(e) => Err(Refusal::Rules(e)),
            Ok(accepted) => self.store_and_apply(accepted.input, accepted.debit).await,
        };
        // A sit-and-go starts as its last seat is taken, before the registration is answered
        // (so whoever filled it sees it started).
        self.on_clock().await;
        let _ = reply.send(outcome);
        self.pump().await;
    }

    /// A table's finished hand: stored as the core's `HandFinished`. One the store cannot
    /// take now is kept and tried again.
    async fn report(&mut self, report: Report) {
        let Some(table) = self.table_no(report.table) else { return };
        let Ok(draw) = fresh_draw() else {
            self.keep(report);
            return;
        };
        let knockouts =
            report.hand.knockouts.iter().map(|(player, by)| Knockout { player: *player, by: by.clone() }).collect();
        let cmd = Command::HandFinished {
            table,
            deal: report.hand.deal,
            stacks: report.hand.stacks.clone(),
            knockouts,
            draw,
        };
        match self.core.handle(cmd) {
            Ok(accepted) => {
                if self.core.hand_for_hand().is_some() {
                    self.hfh_since.insert(table, stud_store::now_ms());
                }
                if self.store_and_apply(accepted.input, None).await.is_err() {
                    warn!(table, "a hand's report could not be stored; it is tried again");
                    self.keep(report);
                }
            }
            // A late report of a hand already settled (say, by the resync): nothing to do.
            Err(e @ TournamentError::StaleReport { .. }) => info!(table, error = %e, "a stale hand report"),
            Err(e) => {
                // The table and the floor disagree: its seats are checked before it deals again.
                warn!(table, error = %e, "a table's hand report was refused");
                self.unsettled.insert(table);
                self.heal_later();
            }
        }
    }

    fn keep(&mut self, report: Report) {
        self.pending.push(report);
        self.heal_later();
    }

    fn heal_later(&mut self) {
        let at = stud_store::now_ms() + RETRY_MS;
        self.heal_at = Some(self.heal_at.map_or(at, |t| t.min(at)));
    }

    /// Tries again what could not be done: reports the store did not take, and tables whose
    /// hand or seats did not match the floor.
    async fn heal(&mut self) {
        if self.heal_at.is_none_or(|t| stud_store::now_ms() < t) {
            return;
        }
        self.heal_at = None;
        for report in std::mem::take(&mut self.pending) {
            self.report(report).await;
        }
        for no in std::mem::take(&mut self.unsettled) {
            self.settle_hand(no).await;
        }
    }

    fn table_no(&self, id: Uuid) -> Option<TableNo> {
        let t = self.core.id();
        self.core.floor().tables().keys().copied().find(|no| tables::table_id(t, *no) == id)
    }

    /// Lets every table between hands deal, as far as the core agrees (levels, hand-for-hand).
    async fn pump(&mut self) {
        if self.core.status() != Status::Running {
            return;
        }
        let idle: Vec<TableNo> =
            self.core.floor().tables().iter().filter(|(_, t)| !t.in_hand()).map(|(no, _)| *no).collect();
        for table in idle {
            let Ok(accepted) = self.core.handle(Command::StartHand { table }) else { continue };
            // The table must seat exactly the floor's players before it deals (a seat or a
            // move it did not take is given again; until then it waits).
            if !self.seats_agree(table).await {
                self.unsettled.insert(table);
                self.heal_later();
                continue;
            }
            if self.store_and_apply(accepted.input, None).await.is_err() {
                return;
            }
        }
    }

    async fn table_state(&mut self, no: TableNo) -> Option<TournamentTableState> {
        let handle = self.table(no).await?;
        let (reply, answer) = oneshot::channel();
        handle.send(TableCmd::TournamentState { reply }).await.ok()?;
        answer.await.ok()
    }

    /// Whether table `no` (between hands) seats exactly the floor's players, after giving the
    /// seats it lacks and taking away the ones the floor put elsewhere.
    async fn seats_agree(&mut self, no: TableNo) -> bool {
        let Some(state) = self.table_state(no).await else { return false };
        if state.in_play {
            return false;
        }
        let fix = seat_fix(&wanted(&self.core, no), &state.stacks);
        let short = self.short_stacks(no, &state.stacks);
        if fix.is_empty() && short.is_empty() {
            return true;
        }
        warn!(table = no, ?fix, ?short, "a table's seats or stacks differ from the floor; fixing");
        self.fix_seats(no, &fix).await;
        if let Some(handle) = self.table(no).await {
            for (seat, player, chips) in short {
                let who = self.who(player);
                let _ = handle.send(TableCmd::TournamentChips { who: Box::new(who), seat, chips }).await;
            }
        }
        let Some(state) = self.table_state(no).await else { return false };
        seat_fix(&wanted(&self.core, no), &state.stacks).is_empty() && self.short_stacks(no, &state.stacks).is_empty()
    }

    /// Players seated at table `no` (between hands) with fewer chips there than the
    /// tournament gives them: a rebuy or an add-on the table did not take. (seat, player,
    /// chips.)
    fn short_stacks(&self, no: TableNo, stacks: &[(Uuid, u64)]) -> Vec<(u8, Uuid, u64)> {
        wanted(&self.core, no)
            .into_iter()
            .filter_map(|(seat, player)| {
                let have = stacks.iter().find(|(p, _)| *p == player)?.1;
                let want = self.chips_of(player);
                (have < want).then_some((seat, player, want))
            })
            .collect()
    }

    async fn fix_seats(&mut self, no: TableNo, fix: &super::resync::SeatFix) {
        let Some(handle) = self.table(no).await else { return };
        for player in &fix.unseat {
            let _ = handle.send(TableCmd::TournamentUnseat { player: *player }).await;
        }
        for (seat, player) in &fix.seat {
            let chips = self.chips_of(*player);
            let who = self.who(*player);
            let _ = handle.send(TableCmd::TournamentSeat { who: Box::new(who), seat: *seat, chips }).await;
            self.app.players.set_seated(*player, handle.id, true);
        }
    }

    /// Settles the hand the core thinks in play at table `no` if the table is between hands:
    /// its kept report is taken again, or its lost `Deal` sent again.
    async fn settle_hand(&mut self, no: TableNo) {
        let Some(state) = self.table_state(no).await else { return };
        match hand_fix(&self.core, no, &state) {
            HandFix::Nothing => {}
            HandFix::Report(hand) => {
                let table = tables::table_id(self.core.id(), no);
                self.report(Report { table, hand }).await;
            }
            HandFix::Deal => self.deal(no).await,
        }
    }

    /// Sends table `no` the `Deal` of the hand the core has in play there.
    async fn deal(&mut self, no: TableNo) {
        let (Some(deal), Some(config)) = (self.core.deal_number(no), self.core.next_config(no)) else { return };
        let level = self.core.level();
        let players: Vec<Uuid> = self
            .core
            .floor()
            .tables()
            .get(&no)
            .and_then(|t| t.hand.clone())
            .unwrap_or_default()
            .iter()
            .filter_map(|(e, _)| self.player_of(*e))
            .collect();
        if let Some(h) = self.table(no).await {
            let _ = h.send(TableCmd::Deal { config: Box::new(config), level, players, deal }).await;
        }
    }

    /// The table task of table `no`, opened (and stored) if it is not running.
    async fn table(&mut self, no: TableNo) -> Option<TableHandle> {
        if let Some(h) = self.tables.get(&no) {
            return Some(h.clone());
        }
        let id = tables::table_id(self.core.id(), no);
        if let Some(h) = self.app.lobby.get(id) {
            self.tables.insert(no, h.clone());
            return Some(h);
        }
        let clock = (self.app.config.action_timeout_ms, self.app.config.time_bank_ms);
        let spec = tables::table_spec(&self.core, no, clock);
        if let Err(e) = self.app.store.save_table(&spec.stored(stud_store::now_ms(), false)).await {
            warn!(error = %e, table = no, "a tournament table could not be stored");
        }
        let task = self.app.open_table(spec);
        self.app.track(task);
        let h = self.app.lobby.get(id)?;
        self.tables.insert(no, h.clone());
        Some(h)
    }

    fn who(&self, player: Uuid) -> Who {
        let name = self.core.entries().iter().rev().find(|e| e.player == player).map(|e| e.name.clone());
        Who {
            player_id: player,
            session_id: self.app.players.session_of(player).unwrap_or_default(),
            name: name.unwrap_or_default(),
        }
    }

    fn chips_of(&self, player: Uuid) -> u64 {
        self.core.live_entry(player).map_or(0, |e| e.chips)
    }

    /// Seats `player` at `at` and tells their sockets.
    async fn seat(&mut self, player: Uuid, at: stud_tournament::Spot, from: Option<Uuid>, reason: SeatReason) {
        let Some(handle) = self.table(at.table).await else { return };
        let chips = self.chips_of(player);
        let who = self.who(player);
        let _ = handle.send(TableCmd::TournamentSeat { who: Box::new(who), seat: at.seat, chips }).await;
        let frame = crate::wire::frame(&ServerMsg::TournamentSeat {
            tournament_id: self.core.id(),
            table_id: handle.id,
            table_no: at.table,
            seat: at.seat,
            from_table_id: from,
            reason,
            chips,
        });
        // Seated from now on for the sockets' routing and admission (the table says so too once
        // applied), on every gateway, before the frame that sends the player there.
        self.app.notify_seated(player, self.core.id(), at.table, &frame);
    }

    /// Carries out what an applied input wants done on the tables and the players' sockets.
    async fn carry_out(&mut self, outputs: Vec<Output>) {
        let tid = self.core.id();
        for o in outputs {
            match o {
                Output::Started { entries, tables } => {
                    info!(entries, tables = tables.len(), "tournament started");
                    tokio::spawn(schedule_next(self.app.clone(), Arc::new(self.core.clone())));
                    for no in tables {
                        self.table(no).await;
                    }
                }
                Output::Seat { player, entry, at, .. } => {
                    let rebought = self.core.entries().iter().any(|e| e.no == entry && e.rebuys > 0 && e.hands > 0);
                    let reason = if rebought {
                        SeatReason::Rebuy
                    } else if self.core.level() == 1 && self.core.floor().tables().values().all(|t| t.hands == 0) {
                        SeatReason::Start
                    } else {
                        SeatReason::Late
                    };
                    self.seat(player, at, None, reason).await;
                }
                Output::Move { player, step } => {
                    self.moves += 1;
                    if let Some(from) = self.table(step.from.table).await {
                        let _ = from.send(TableCmd::TournamentUnseat { player }).await;
                        let reason = match step.reason {
                            MoveReason::Balance => SeatReason::Balance,
                            MoveReason::Break => SeatReason::Break,
                        };
                        self.seat(player, step.to, Some(from.id), reason).await;
                    }
                }
                Output::TableClosed { table } => self.close_table(table).await,
                Output::Deal { table, deal, level, config } => {
                    if let Some(since) = self.hfh_since.remove(&table) {
                        let waited = stud_store::now_ms().saturating_sub(since);
                        self.hfh_wait_max_ms = self.hfh_wait_max_ms.max(waited);
                    }
                    let players: Vec<Uuid> = self
                        .core
                        .floor()
                        .tables()
                        .get(&table)
                        .map(|t| t.seats.values().filter_map(|e| self.player_of(*e)).collect())
                        .unwrap_or_default();
                    if let Some(h) = self.table(table).await {
                        let _ = h.send(TableCmd::Deal { config: Box::new(config), level, players, deal }).await;
                    }
                }
                Output::Placed(p) => {
                    let frame = crate::wire::frame(&ServerMsg::TournamentPlaced {
                        tournament_id: tid,
                        place: p.place,
                        prize: p.prize,
                        ticket_for: p.ticket,
                    });
                    self.app.notify_player(self.core.id(), p.player_id, &frame);
                    if let Some(target) = p.ticket {
                        tokio::spawn(use_ticket(self.app.clone(), target, p.player_id, p.name));
                    }
                }
                Output::Ended { winner } => {
                    let hands: u64 = self.core.entries().iter().map(|e| e.hands).sum();
                    info!(
                        %winner,
                        entries = self.core.entry_count(),
                        seat_hands = hands,
                        moves = self.moves,
                        hand_for_hand_rounds = self.core.hand_for_hand_rounds(),
                        hand_for_hand_slowest_wait_ms = self.hfh_wait_max_ms,
                        "tournament ended"
                    );
                    let open: Vec<TableNo> = self.tables.keys().copied().collect();
                    for no in open {
                        self.close_table(no).await;
                    }
                }
                Output::Chips { player, chips, .. } => {
                    // The player's table now (a move in the same input has seated them there).
                    if let Some(at) = self.core.seat_of(player)
                        && let Some(handle) = self.table(at.table).await
                    {
                        let who = self.who(player);
                        let _ =
                            handle.send(TableCmd::TournamentChips { who: Box::new(who), seat: at.seat, chips }).await;
                        self.app.players.set_seated(player, handle.id, true);
                    }
                }
                Output::Offer { player, offer, until, .. } => {
                    let Some(r) = self.core.spec().rebuys else { continue };
                    let (offer, chips, fee) = match offer {
                        Offer::Rebuy => (TournamentOfferKind::Rebuy, r.chips, r.fee),
                        Offer::AddOn => {
                            let Some(a) = r.addon else { continue };
                            (TournamentOfferKind::Addon, a.chips, a.fee)
                        }
                    };
                    let frame = crate::wire::frame(&ServerMsg::TournamentOffer {
                        tournament_id: tid,
                        offer,
                        chips,
                        fee,
                        until_ms: until,
                    });
                    self.app.notify_player(self.core.id(), player, &frame);
                }
                Output::Break { until } => {
                    info!(until, "a break");
                    let frame = crate::wire::frame(&ServerMsg::TournamentBreak { tournament_id: tid, until_ms: until });
                    for e in self.core.entries().iter().filter(|e| e.state == EntryState::Playing) {
                        self.app.notify_player(self.core.id(), e.player, &frame);
                    }
                }
                Output::Bounty { player, entry, of, cents, head } => self.bounty_paid(player, entry, of, cents, head),
                Output::BreakOver => info!("the break is over"),
                Output::DealChanged => self.deal_changed(),
                Output::DealPaid { player, cents, .. } => info!(%player, cents, "paid by a deal"),
                Output::Paused { paused } => {
                    info!(paused, "paused by an operator");
                    let frame = crate::wire::frame(&ServerMsg::TournamentPaused { tournament_id: tid, paused });
                    for e in self.core.entries().iter().filter(|e| e.state == EntryState::Playing) {
                        self.app.notify_player(self.core.id(), e.player, &frame);
                    }
                }
                Output::Cancelled => {
                    info!("tournament cancelled");
                    // Cancelled at its start time (too few entrants): the series goes on. An
                    // operator's cancellation before then ends it (`successor` tells).
                    tokio::spawn(schedule_next(self.app.clone(), Arc::new(self.core.clone())));
                }
                Output::Level { level } => info!(level, "next level"),
                Output::Refund { .. }
                | Output::FinalTable { .. }
                | Output::RegistrationClosed { .. }
                | Output::Eliminated { .. }
                | Output::HandForHand { .. }
                | Output::NextRound { .. } => {}
            }
        }
    }

    /// Tells a bounty paid to the players at the table of the one paid, and to the one whose
    /// head it was.
    fn bounty_paid(
        &self,
        player: Uuid,
        entry: stud_tournament::EntryNo,
        of: stud_tournament::EntryNo,
        cents: u64,
        head: u64,
    ) {
        let name = |no| self.core.entries().iter().find(|e| e.no == no).map(|e| (e.player, e.name.clone()));
        let (Some((_, winner)), Some((eliminated, eliminated_name))) = (name(entry), name(of)) else { return };
        info!(%player, %eliminated, cents, head, "a bounty paid");
        let frame = crate::wire::frame(&ServerMsg::TournamentBounty {
            tournament_id: self.core.id(),
            player_id: player,
            name: winner,
            eliminated,
            eliminated_name,
            cents,
            head,
        });
        let mut told: BTreeSet<Uuid> = BTreeSet::from([player, eliminated]);
        if let Some(t) = self.core.seat_of(player).and_then(|s| self.core.floor().tables().get(&s.table)) {
            told.extend(t.seats.values().filter_map(|e| self.player_of(*e)));
        }
        for p in told {
            self.app.notify_player(self.core.id(), p, &frame);
        }
    }

    /// Tells every player of the deal where it stands now (off: as it was, marked off).
    fn deal_changed(&mut self) {
        let now = crate::wire::tournament::deal(&self.core);
        let deal = match (&now, self.last_deal.take()) {
            (Some(d), _) => d.clone(),
            (None, Some(last)) => crate::wire::tournament::deal_off(last),
            (None, None) => return,
        };
        self.last_deal = now;
        info!(state = ?deal.state, "the deal changed");
        let told: BTreeSet<Uuid> = deal.players.iter().map(|p| p.player_id).collect();
        let frame =
            crate::wire::frame(&ServerMsg::TournamentDeal { request_id: None, tournament_id: self.core.id(), deal });
        for p in told {
            self.app.notify_player(self.core.id(), p, &frame);
        }
    }

    fn player_of(&self, entry: stud_tournament::EntryNo) -> Option<Uuid> {
        self.core.entries().iter().find(|e| e.no == entry).map(|e| e.player)
    }

    /// Closes a table that broke (or the last one, at the end) and stores it as closed.
    async fn close_table(&mut self, no: TableNo) {
        let Some(handle) = self.tables.remove(&no) else { return };
        let (reply, _done) = oneshot::channel();
        let _ = handle.send(TableCmd::Close { reply }).await;
        let clock = (self.app.config.action_timeout_ms, self.app.config.time_bank_ms);
        let spec = tables::table_spec(&self.core, no, clock);
        if let Err(e) = self.app.store.save_table(&spec.stored(stud_store::now_ms(), true)).await {
            warn!(error = %e, table = no, "a closed tournament table could not be stored as closed");
        }
    }

    /// After a restart: closes the tournament's tables the floor no longer has, settles the
    /// hands whose report (or `Deal`) was lost, then makes the seats agree with the floor.
    async fn resync(&mut self) {
        let open: Vec<Uuid> = self.app.lobby.handles().iter().map(|h| h.id).collect();
        for (no, id) in strays(&self.core, &open) {
            if let Some(handle) = self.app.lobby.get(id) {
                info!(table = no, "closing a table the tournament no longer has");
                self.tables.insert(no, handle);
                self.close_table(no).await;
            }
        }
        self.resync_tables().await;
    }

    /// Settles the hands whose report (or `Deal`) was lost, then makes the seats agree with
    /// the floor.
    async fn resync_tables(&mut self) {
        if self.core.status() != Status::Running {
            return;
        }
        let floor: Vec<TableNo> = self.core.floor().tables().keys().copied().collect();
        // Hands first: a lost report may eliminate a player the floor still seats.
        for &no in &floor {
            self.settle_hand(no).await;
        }
        let floor: Vec<TableNo> = self.core.floor().tables().keys().copied().collect();
        for no in floor {
            let Some(state) = self.table_state(no).await else { continue };
            if state.in_play {
                // Seats change only between hands; it is checked again before it deals.
                continue;
            }
            let fix = seat_fix(&wanted(&self.core, no), &state.stacks);
            self.fix_seats(no, &fix).await;
        }
    }

    async fn on_clock(&mut self) {
        let now = stud_store::now_ms();
        if self.retry_at.is_some_and(|t| now < t) {
            return;
        }
        self.retry_at = None;
        while let Some(due) = self.core.due(now) {
            let input = match due {
                Due::Input(input) => input,
                Due::Start => match fresh_draw() {
                    Ok(draw) => Input::Start { draw },
                    Err(_) => {
                        self.retry_at = Some(now + RETRY_MS);
                        return;
                    }
                },
            };
            if self.store_and_apply(input, None).await.is_err() {
                self.retry_at = Some(now + RETRY_MS);
                return;
            }
        }
    }

    /// Takes `debit` from the account, stores `input` with its ledger entries, then applies
    /// it. On a refusal nothing changed.
    async fn store_and_apply(&mut self, input: Input, debit: Option<(Uuid, u64)>) -> Result<(), Refusal> {
        let now = stud_store::now_ms();
        let id = self.core.id();
        let n = self.core.applied() + 1;
        // On a cluster: only while this gateway directs it, and the balance is the shared
        // store's (held there for this input, as a worker holds a buy-in).
        let director = self.app.director.get().cloned();
        let epoch = match &director {
            Some(d) => d.live(id).ok_or(Refusal::Unavailable)?,
            None => 0,
        };
        if let Some((player, need)) = debit {
            match &director {
                None if !self.app.bank.withdraw(player, need) => {
                    return Err(Refusal::Balance { balance: self.app.bank.balance(player), need });
                }
                None => {}
                Some(_) => match self.app.store.hold(id, n, player, need).await {
                    Ok(Ok(())) => {}
                    Ok(Err(balance)) => return Err(Refusal::Balance { balance, need }),
                    Err(e) => {
                        // It may have been stored before the answer was lost.
                        warn!(error = %e, "cannot hold an entry fee on the account");
                        let _ = self.app.store.release_hold(id, n).await;
                        return Err(Refusal::Unavailable);
                    }
                },
            }
        }
        let mut next = self.core.clone();
        let outputs = next.apply(now, &input);
        let entry = |player_id, kind, amount| LedgerEntry { player_id, table_id: Some(id), kind, amount, at_ms: now };
        let mut ledger = Vec::new();
        if let Some((player, amount)) = debit {
            let kind = match input {
                Input::Rebuy { .. } => LedgerKind::TournamentRebuy,
                Input::AddOn { .. } => LedgerKind::TournamentAddon,
                _ => LedgerKind::TournamentEntry,
            };
            ledger.push(entry(player, kind, amount));
        }
        let refunds: Vec<(Uuid, u64)> = outputs
            .iter()
            .filter_map(|o| match o {
                Output::Refund { player, amount } => Some((*player, *amount)),
                _ => None,
            })
            .collect();
        ledger.extend(refunds.iter().filter(|(_, a)| *a > 0).map(|(p, a)| entry(*p, LedgerKind::TournamentRefund, *a)));
        let prizes: Vec<(Uuid, u64)> = outputs
            .iter()
            .filter_map(|o| match o {
                Output::Placed(p) if p.prize > 0 => Some((p.player_id, p.prize)),
                _ => None,
            })
            .collect();
        ledger.extend(prizes.iter().map(|(p, a)| entry(*p, LedgerKind::TournamentPrize, *a)));
        let bounties: Vec<(Uuid, u64)> = outputs
            .iter()
            .filter_map(|o| match o {
                Output::Bounty { player, cents, .. } if *cents > 0 => Some((*player, *cents)),
                _ => None,
            })
            .collect();
        ledger.extend(bounties.iter().map(|(p, a)| entry(*p, LedgerKind::TournamentBounty, *a)));
        let deals: Vec<(Uuid, u64)> = outputs
            .iter()
            .filter_map(|o| match o {
                Output::DealPaid { player, cents, .. } if *cents > 0 => Some((*player, *cents)),
                _ => None,
            })
            .collect();
        ledger.extend(deals.iter().map(|(p, a)| entry(*p, LedgerKind::TournamentDeal, *a)));
        let snapshot = (next.status() != self.core.status() || n % SNAPSHOT_EVERY == 0).then(|| next.snapshot());
        let journaled = Journaled { v: TOURNAMENT_VERSION, n, at: now, input };
        let commit =
            TournamentCommit { tournament_id: id, n, at_ms: now, entry: journaled.encode(), ledger, snapshot, epoch };
        // Committed, the hold went in the same transaction; refused, it goes now (one left by a
        // crash here goes when the next director starts).
        let committed = self.app.store.tournament_commit(&commit).await;
        if director.is_some()
            && debit.is_some()
            && committed.is_err()
            && let Err(e) = self.app.store.release_hold(id, n).await
        {
            warn!(error = %e, "a hold not released; the next director releases it");
        }
        if let Err(e) = committed {
            warn!(error = %e, "a tournament input could not be stored");
            if let Some((player, need)) = debit
                && director.is_none()
            {
                self.app.bank.deposit(player, need);
            }
            return Err(Refusal::Unavailable);
        }
        self.core = next;
        if director.is_none() {
            for (player, amount) in refunds.into_iter().chain(prizes).chain(bounties).chain(deals) {
                self.app.bank.refund(player, amount);
            }
        }
        self.view.send_replace(Arc::new(self.core.clone()));
        Box::pin(self.carry_out(outputs)).await;
        Ok(())
    }
}
