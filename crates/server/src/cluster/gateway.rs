//! The gateway's side of a cluster: a table here is a NATS subject, not a task.
//!
//! [`Gateway::send`] turns a [`TableCmd`] into an [`Inbound`] on the table's input subject
//! (operators' commands as requests, answered by the worker). The gateway reads one frame
//! subject (`stud.out.<node>`): each frame there names the sockets it is for, and goes to their
//! outboxes as a local table would put it (a socket whose outbox is full lags: it misses frames
//! until it has room, then asks its tables for a fresh snapshot and its prompt, and is
//! dropped if it stays full). When a worker announces a table
//! (`stud.up.<table>`: claimed after a failover, or first hosted), every socket here that had
//! joined it joins again and gets a fresh snapshot. The lobby lines and who sits where come
//! from the workers (`stud.lobby`, `stud.seated`); the list of tables from the shared store.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt as _;
use futures_util::future::BoxFuture;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tracing::{debug, warn};
use uuid::Uuid;

use super::nats::Health;
use super::wire::{self, Inbound, OperatorReply, RemoteConn};
use crate::app::App;
use crate::table::{Act, Conn, LAG_LIMIT, RemoteTables, SpecExt, TableCmd, TableGone, TableHandle, TableSpec};
use crate::wire::Frame;

/// How long an operator's `close` may wait for the table's hand to finish.
const CLOSE_WAIT: Duration = Duration::from_secs(120);
/// How long one request of an operator's `close` waits before it is asked again.
const CLOSE_ROUND: Duration = Duration::from_secs(5);
/// A table no worker hosts for this long has closed (or is between workers).
const CLOSE_UNHOSTED: Duration = Duration::from_secs(10);
/// How long a worker's last table counters count in `/metrics` (it sends them every couple
/// of seconds).
const WORKER_METRICS_FOR: Duration = Duration::from_secs(10);
/// How often the gateway reads the list of tables from the store.
const TABLES_EVERY: Duration = Duration::from_secs(2);
/// A starting gateway waits this long at most for the workers' directories...
const DIRECTORY_WAIT: Duration = Duration::from_secs(2);
/// ... and stops sooner once no part came for this long after the first one.
const DIRECTORY_QUIET: Duration = Duration::from_millis(300);

/// The first connection id of a gateway process started at `now_ms` (Unix ms): its start time
/// times 2^20. The workers know a socket as (gateway name, id), and a gateway that stopped
/// without telling them its sockets closed (killed, or its last `disconnect`s not flushed)
/// leaves those subscribed at their tables: a process numbering from 1 again would give a new
/// socket an old one's frames, another player's prompts and down cards. Two processes' ids
/// meet only if the earlier opened over a million sockets per millisecond it ran.
pub(crate) fn first_conn_id(now_ms: u64) -> u64 {
    now_ms << 20
}

/// A socket that has joined tables on workers.
struct Watcher {
    conn: Conn,
    /// table -> whether it was an explicit `join_table` (watching)
    tables: HashMap<Uuid, bool>,
    /// its outbox was full: frames are skipped until it has room for a fresh snapshot
    lagging: bool,
    /// frames skipped while lagging
    misses: u32,
}

impl Watcher {
    /// Queues a frame for the socket, unless it lags (then the frame is skipped; after
    /// [`LAG_LIMIT`] skipped the socket is dropped). Returns true when this frame found the
    /// outbox full: the socket lags from now on.
    fn offer(&mut self, frame: &Frame) -> bool {
        if self.lagging {
            self.misses += 1;
            if self.misses > LAG_LIMIT {
                warn!(conn_id = self.conn.id, "dropping a client that cannot keep up");
                self.conn.kick.cancel();
            }
            return false;
        }
        match self.conn.outbox.try_send(frame.clone()) {
            Err(crate::outbox::TrySendError::Full) => {
                self.lagging = true;
                self.misses = 0;
                true
            }
            _ => false,
        }
    }

    /// Whether a lagging socket has room again (half its outbox: the snapshot, the prompt and
    /// what the table sends meanwhile); if so it no longer lags, and its tables must resync
    /// it.
    fn caught_up(&mut self) -> bool {
        if self.lagging && self.conn.outbox.capacity() * 2 >= self.conn.outbox.max_capacity() {
            self.lagging = false;
            return true;
        }
        false
    }
}

/// The gateway's routes to tables on workers. One per gateway process.
pub struct Gateway {
    client: async_nats::Client,
    /// whether NATS answers (its probe runs beside the gateway)
    health: Arc<Health>,
    node: String,
    timeout: Duration,
    watchers: Mutex<HashMap<u64, Watcher>>,
    /// whether any watcher may be lagging (the lag poll looks only then)
    some_lagging: AtomicBool,
    /// each worker's last table counters, with when they came
    workers: Mutex<HashMap<String, (std::time::Instant, crate::metrics::TableCounts)>>,
    /// the reply subjects' prefix of players' requests (`<inbox>.<n>`): NATS answers there,
    /// with "no responders", a request that no worker subscribes to (a table not claimed
    /// yet, or between workers), and the gateway answers the client `unavailable`
    unanswered_base: String,
    /// requests published with a reply subject, by `n`: the socket and its request id
    unanswered: Mutex<HashMap<u64, (u64, String, std::time::Instant)>>,
    next_request: std::sync::atomic::AtomicU64,
}

/// A request the gateway published is forgotten after this long (NATS answers "no responders"
/// at once, or never), once a second.
const UNANSWERED_FOR: Duration = Duration::from_secs(3);

impl RemoteTables for Gateway {
    fn send(&self, table: Uuid, cmd: TableCmd) -> BoxFuture<'_, Result<(), TableGone>> {
        Box::pin(Gateway::send(self, table, cmd))
    }

    fn table_counts(&self) -> Vec<crate::metrics::TableCounts> {
        self.worker_counts()
    }
}

impl std::fmt::Debug for Gateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gateway").field("node", &self.node).finish_non_exhaustive()
    }
}

impl Gateway {
    /// A gateway named `node` on `client`.
    pub fn new(client: async_nats::Client, health: Arc<Health>, node: String, timeout: Duration) -> Arc<Gateway> {
        Arc::new(Gateway {
            client: client.clone(),
            health,
            node,
            timeout,
            watchers: Mutex::new(HashMap::new()),
            some_lagging: AtomicBool::new(false),
            workers: Mutex::new(HashMap::new()),
            unanswered_base: client.new_inbox(),
            unanswered: Mutex::new(HashMap::new()),
            next_request: std::sync::atomic::AtomicU64::new(0),
        })
    }

    /// The table counters of the workers heard from lately (a worker gone quiet for
    /// [`WORKER_METRICS_FOR`] is left out: stopped, or cut off).
    pub(crate) fn worker_counts(&self) -> Vec<crate::metrics::TableCounts> {
        let mut workers = self.workers.lock().unwrap_or_else(PoisonError::into_inner);
        workers.retain(|_, (at, _)| at.elapsed() < WORKER_METRICS_FOR);
        workers.values().map(|(_, counts)| counts.clone()).collect()
    }

    fn watchers(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Watcher>> {
        self.watchers.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn remote(&self, conn: u64) -> RemoteConn {
        RemoteConn { gw: self.node.clone(), id: conn }
    }

    /// Publishes a player's command for `table`'s worker; refused at once while NATS does not
    /// answer (it would wait in a connection that leads nowhere, and the player would hear
    /// nothing).
    async fn publish(&self, table: Uuid, msg: &Inbound) -> Result<(), TableGone> {
        if !self.health.up() || self.client.connection_state() != async_nats::connection::State::Connected {
            return Err(TableGone::Unreachable);
        }
        self.publish_anyway(table, msg).await
    }

    /// Publishes what the gateway sends by itself in answer to NATS traffic (a socket joining
    /// again a table a worker now hosts, a resync): NATS just spoke, so it is not held back
    /// while the probe has yet to see NATS answer again.
    async fn publish_anyway(&self, table: Uuid, msg: &Inbound) -> Result<(), TableGone> {
        let payload = Bytes::from(serde_json::to_vec(msg).map_err(|_| TableGone::Stopped)?);
        let published = match msg.asker() {
            // A request a client waits for: with a reply subject, so a table no worker hosts
            // right now is answered (`unanswered`) rather than silent.
            Some((conn, request_id)) => {
                let n = self.next_request.fetch_add(1, Relaxed);
                let now = std::time::Instant::now();
                self.unanswered
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(n, (conn, request_id.to_owned(), now));
                let reply = format!("{}.{n}", self.unanswered_base);
                self.client.publish_with_reply(wire::input(table), reply, payload).await
            }
            None => self.client.publish(wire::input(table), payload).await,
        };
        published.map_err(|e| {
            warn!(error = %e, %table, "cannot reach the cluster");
            TableGone::Unreachable
        })
    }

    /// NATS's answer on a request's reply subject: "no responders" (no worker hosts the table
    /// now) is answered to the client as `unavailable`, with its request id; every request
    /// gets one answer, from the table or from here.
    fn unanswered(&self, m: &async_nats::Message) {
        let Some(n) = m.subject.as_str().rsplit('.').next().and_then(|n| n.parse::<u64>().ok()) else { return };
        let asked = self.unanswered.lock().unwrap_or_else(PoisonError::into_inner).remove(&n);
        let Some((conn, request_id, _)) = asked else { return };
        if m.status != Some(async_nats::StatusCode::NO_RESPONDERS) {
            return;
        }
        let frame = crate::wire::error(
            Some(request_id),
            stud_proto::ErrorCode::Unavailable,
            "the table is starting or moving to another server; try again in a moment",
        );
        if let Some(w) = self.watchers().get(&conn) {
            let _ = w.conn.outbox.try_send(frame);
        }
    }

    /// Forgets the requests NATS has not answered within [`UNANSWERED_FOR`]: a worker took them.
    fn forget_answered(&self) {
        let now = std::time::Instant::now();
        let mut waiting = self.unanswered.lock().unwrap_or_else(PoisonError::into_inner);
        waiting.retain(|_, (_, _, at)| now.duration_since(*at) < UNANSWERED_FOR);
    }

    /// Sends a command to `table`'s worker.
    ///
    /// # Errors
    /// NATS is not reachable.
    pub(crate) async fn send(&self, table: Uuid, cmd: TableCmd) -> Result<(), TableGone> {
        let msg = match cmd {
            TableCmd::Join { conn, request_id, watch } => {
                self.watch(&conn, table, watch);
                Inbound::Join {
                    conn: self.remote(conn.id),
                    player: conn.session.player_id,
                    session: conn.session.session_id,
                    name: conn.session.name.clone(),
                    request_id,
                    watch,
                }
            }
            TableCmd::Sit { conn_id, request_id, seat, buy_in } => {
                Inbound::Sit { conn: self.remote(conn_id), request_id, seat, buy_in }
            }
            TableCmd::Act { conn_id, request_id, act } => {
                let Act { hand_id, seq, key, action, .. } = *act;
                Inbound::Act { conn: self.remote(conn_id), request_id, hand_id, seq, key, action }
            }
            TableCmd::SitOut { conn_id, request_id, out } => {
                Inbound::SitOut { conn: self.remote(conn_id), request_id, out }
            }
            TableCmd::AutoMuck { conn_id, request_id, on } => {
                Inbound::AutoMuck { conn: self.remote(conn_id), request_id, on }
            }
            TableCmd::Waitlist { conn_id, request_id, on } => {
                Inbound::Waitlist { conn: self.remote(conn_id), request_id, on }
            }
            TableCmd::TopUp { conn_id, request_id, amount } => {
                Inbound::TopUp { conn: self.remote(conn_id), request_id, amount }
            }
            TableCmd::Leave { conn_id, request_id } => Inbound::Leave { conn: self.remote(conn_id), request_id },
            TableCmd::Snapshot { conn_id, request_id } => Inbound::Snapshot { conn: self.remote(conn_id), request_id },
            TableCmd::Resync { conn_id } => Inbound::Resync { conn: self.remote(conn_id) },
            TableCmd::Chat { conn_id, request_id, text } => {
                Inbound::Chat { conn: self.remote(conn_id), request_id, text }
            }
            TableCmd::Disconnect { conn_id } => {
                self.unwatch(conn_id, table);
                Inbound::Disconnect { conn: self.remote(conn_id) }
            }
            // No table lives here: nothing to stop.
            TableCmd::Shutdown { reply } => {
                let _ = reply.send(());
                return Ok(());
            }
            TableCmd::Update { spec, reply } => {
                return self.operator(table, Inbound::Update { spec }, self.timeout, move |_| {
                    let _ = reply.send(());
                });
            }
            TableCmd::Pause { paused, reply } => {
                return self.operator(table, Inbound::Pause { paused }, self.timeout, move |_| {
                    let _ = reply.send(());
                });
            }
            TableCmd::Close { reply } => {
                self.close(table, reply);
                return Ok(());
            }
            TableCmd::Kick { player, now, reply } => {
                return self.operator(table, Inbound::Kick { player, now }, self.timeout, move |r| {
                    let _ = reply.send(r.is_some_and(|r| r.here));
                });
            }
            TableCmd::Status { reply } => {
                return self.operator(table, Inbound::Status, self.timeout, move |r| {
                    let status = r.map(|r| crate::table::TableStatus { hand: r.hand, hands: r.hands, seats: r.seats });
                    let _ = reply.send(status.unwrap_or_default());
                });
            }
            // A tournament's tables, from the gateway directing it (see `super::director`).
            TableCmd::TournamentSeat { who, seat, chips } => Inbound::TournamentSeat { who: *who, seat, chips },
            TableCmd::TournamentChips { who, seat, chips } => Inbound::TournamentChips { who: *who, seat, chips },
            TableCmd::TournamentUnseat { player } => Inbound::TournamentUnseat { player },
            TableCmd::Deal { config, level, players, deal } => Inbound::Deal { config: *config, level, players, deal },
            TableCmd::TournamentState { reply } => {
                return self.operator(table, Inbound::TournamentState, self.timeout, move |r| {
                    // No answer (no worker hosts the table now): the tournament asks again later.
                    if let Some(state) = r.and_then(|r| r.tournament) {
                        let _ = reply.send(state);
                    }
                });
            }
        };
        self.publish(table, &msg).await
    }

    /// An operator's command as a request; `done` gets the worker's answer (`None`: no worker
    /// answered in time).
    fn operator(
        &self,
        table: Uuid,
        msg: Inbound,
        wait: Duration,
        done: impl FnOnce(Option<OperatorReply>) + Send + 'static,
    ) -> Result<(), TableGone> {
        let payload = serde_json::to_vec(&msg).map_err(|_| TableGone::Stopped)?;
        let client = self.client.clone();
        tokio::spawn(async move {
            let request = async_nats::Request::new().payload(Bytes::from(payload)).timeout(Some(wait));
            let answer = match client.send_request(wire::input(table), request).await {
                Ok(m) => serde_json::from_slice::<OperatorReply>(&m.payload).ok(),
                Err(e) => {
                    warn!(error = %e, %table, "no worker answered an operator's command");
                    None
                }
            };
            done(answer);
        });
        Ok(())
    }

    /// An operator's close: answered once the table has closed, wherever it is hosted by then.
    /// The worker asked may die before its hand ends; the table then moves to another worker,
    /// which finishes the hand and closes it, so the close is asked again every
    /// [`CLOSE_ROUND`] (a table already closing takes it as the same close). A table no worker
    /// hosts for [`CLOSE_UNHOSTED`] has closed, or is between workers: the reply is dropped and
    /// the operator's handler reads the store to tell which.
    fn close(&self, table: Uuid, reply: tokio::sync::oneshot::Sender<()>) {
        let client = self.client.clone();
        tokio::spawn(async move {
            let Ok(payload) = serde_json::to_vec(&Inbound::Close) else { return };
            let payload = Bytes::from(payload);
            let started = std::time::Instant::now();
            let mut unhosted_since = None;
            while started.elapsed() < CLOSE_WAIT {
                let request = async_nats::Request::new().payload(payload.clone()).timeout(Some(CLOSE_ROUND));
                match client.send_request(wire::input(table), request).await {
                    Ok(_) => {
                        let _ = reply.send(());
                        return;
                    }
                    Err(e) if e.kind() == async_nats::RequestErrorKind::NoResponders => {
                        let since = *unhosted_since.get_or_insert_with(std::time::Instant::now);
                        if since.elapsed() >= CLOSE_UNHOSTED {
                            return;
                        }
                        tokio::time::sleep(Duration::from_millis(500)).await;
                    }
                    Err(e) => {
                        unhosted_since = None;
                        debug!(error = %e, %table, "an operator's close not answered yet: asked again");
                    }
                }
            }
            warn!(%table, "an operator's close was not answered in time");
        });
    }

    /// Records that the socket joined `table` (its frames arrive on the gateway's subject,
    /// subscribed before any join is published).
    fn watch(&self, conn: &Conn, table: Uuid, watch: bool) {
        let mut watchers = self.watchers();
        if let Some(w) = watchers.get_mut(&conn.id) {
            let entry = w.tables.entry(table).or_insert(watch);
            *entry |= watch;
            return;
        }
        // Sockets that closed since are forgotten here.
        watchers.retain(|_, w| !w.conn.outbox.is_closed());
        let tables = HashMap::from([(table, watch)]);
        watchers.insert(conn.id, Watcher { conn: conn.clone(), tables, lagging: false, misses: 0 });
    }

    /// A message on the gateway's frame subject: a frame for the sockets it names, or a kick.
    /// Returns its table and the sockets named that this gateway does not have at that table
    /// (an earlier process's, or closed without their `disconnect` reaching the table).
    fn deliver(&self, m: &async_nats::Message) -> Option<(Uuid, Vec<u64>)> {
        let headers = m.headers.as_ref()?;
        let to = headers.get(wire::TO)?;
        let kick = headers.get(wire::KICK).is_some();
        let frame: Option<Frame> = if kick { None } else { std::str::from_utf8(&m.payload).ok().map(Arc::from) };
        let table = headers.get(wire::TABLE).and_then(|t| Uuid::parse_str(t.as_str()).ok());
        let (stale, lagging) = route(&mut self.watchers(), table, wire::parse_to(to.as_str()), frame.as_ref());
        if lagging {
            self.some_lagging.store(true, Relaxed);
        }
        table.filter(|_| !stale.is_empty()).map(|t| (t, stale))
    }

    /// Tells `table` that these sockets are not here: it stops sending to them (and a seated
    /// player with no other socket there is disconnected, their turns on the grace period).
    async fn gone(&self, table: Uuid, conns: Vec<u64>) {
        debug!(%table, ?conns, "frames for sockets this gateway does not have: the table forgets them");
        for id in conns {
            let _ = self.publish_anyway(table, &Inbound::Disconnect { conn: self.remote(id) }).await;
        }
    }

    /// Lagging sockets with room again ask their tables to resync them (`Inbound::Resync`): a
    /// fresh snapshot, and their prompt if it is their turn.
    async fn resync(&self) {
        if !self.some_lagging.load(Relaxed) {
            return;
        }
        let joins: Vec<(Uuid, Inbound)> = {
            let mut watchers = self.watchers();
            let mut joins = Vec::new();
            for (id, w) in watchers.iter_mut().filter(|(_, w)| w.lagging) {
                if !w.caught_up() {
                    continue;
                }
                joins.extend(w.tables.keys().map(|table| (*table, Inbound::Resync { conn: self.remote(*id) })));
            }
            self.some_lagging.store(watchers.values().any(|w| w.lagging), Relaxed);
            joins
        };
        for (table, join) in joins {
            let _ = self.publish_anyway(table, &join).await;
        }
    }

    fn join_again(&self, id: u64, w: &Watcher, watch: bool) -> Inbound {
        Inbound::Join {
            conn: self.remote(id),
            player: w.conn.session.player_id,
            session: w.conn.session.session_id,
            name: w.conn.session.name.clone(),
            request_id: None,
            watch,
        }
    }

    /// The socket closed (for `table`): once it has left every table, it is forgotten.
    fn unwatch(&self, conn: u64, table: Uuid) {
        let mut watchers = self.watchers();
        if let Some(w) = watchers.get_mut(&conn) {
            w.tables.remove(&table);
            if w.tables.is_empty() {
                watchers.remove(&conn);
            }
        }
    }

    /// A worker hosts `table` now: every socket here that joined it joins again (a fresh
    /// snapshot, and the prompt if it is their turn).
    async fn rejoin(&self, table: Uuid) {
        let joins: Vec<Inbound> = self
            .watchers()
            .iter()
            .filter(|(_, w)| !w.conn.outbox.is_closed())
            .filter_map(|(id, w)| w.tables.get(&table).map(|watch| self.join_again(*id, w, *watch)))
            .collect();
        for join in joins {
            let _ = self.publish_anyway(table, &join).await;
        }
    }
}

/// Hands a frame of `table` (`None`: a kick) to the sockets `to` names that joined that table
/// (a frame naming no table goes to the sockets named). Returns the ids named that have no
/// socket here at that table, which get nothing, and whether a socket lags from now on.
fn route(
    watchers: &mut HashMap<u64, Watcher>,
    table: Option<Uuid>,
    to: impl Iterator<Item = u64>,
    frame: Option<&Frame>,
) -> (Vec<u64>, bool) {
    let (mut stale, mut lagging) = (Vec::new(), false);
    for id in to {
        let w = watchers.get_mut(&id).filter(|w| table.is_none_or(|t| w.tables.contains_key(&t)));
        let Some(w) = w else {
            stale.push(id);
            continue;
        };
        let Some(frame) = frame else {
            w.conn.kick.cancel();
            continue;
        };
        if w.offer(frame) {
            debug!(conn_id = id, "subscriber lagging");
            lagging = true;
        }
    }
    (stale, lagging)
}

/// The gateway's background work: tables announced by workers, lobby lines, seats, and the
/// list of tables from the store, until `stop`.
///
/// # Errors
/// NATS refused a subscription.
pub(crate) async fn spawn(
    app: Arc<App>,
    gw: Arc<Gateway>,
    stop: CancellationToken,
) -> Result<Vec<JoinHandle<()>>, async_nats::SubscribeError> {
    // Before any socket can join a table: no frame of a join's answer can be missed.
    let mut frames = gw.client.subscribe(wire::output(&gw.node)).await?;
    let mut up = gw.client.subscribe(wire::UP_ALL).await?;
    let lobby = gw.client.subscribe(wire::LOBBY).await?;
    let seated = gw.client.subscribe(wire::SEATED).await?;
    let metrics = gw.client.subscribe(wire::METRICS).await?;
    let mut unanswered = gw.client.subscribe(format!("{}.*", gw.unanswered_base)).await?;
    // After the live subjects are subscribed: a change after a worker's answer still arrives.
    ask_directory(&app, &gw).await;
    let mut tasks = Vec::new();
    let (g, s) = (gw.clone(), stop.clone());
    tasks.push(tokio::spawn(async move {
        let mut poll = tokio::time::interval(crate::table::LAG_POLL);
        poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                m = frames.next() => match m {
                    Some(m) => {
                        if let Some((table, stale)) = g.deliver(&m) {
                            g.gone(table, stale).await;
                        }
                    }
                    None => return,
                },
                _ = poll.tick() => g.resync().await,
                () = s.cancelled() => return,
            }
        }
    }));
    let (g, s) = (gw.clone(), stop.clone());
    tasks.push(tokio::spawn(async move {
        let mut sweep = tokio::time::interval(Duration::from_secs(1));
        loop {
            tokio::select! {
                m = unanswered.next() => match m {
                    Some(m) => g.unanswered(&m),
                    None => return,
                },
                _ = sweep.tick() => g.forget_answered(),
                () = s.cancelled() => return,
            }
        }
    }));
    let (g, s) = (gw.clone(), stop.clone());
    tasks.push(tokio::spawn(async move {
        loop {
            let m = tokio::select! { m = up.next() => m, () = s.cancelled() => return };
            let Some(m) = m else { return };
            let table = m.subject.as_str().rsplit('.').next().and_then(|t| Uuid::parse_str(t).ok());
            if let Some(table) = table {
                debug!(%table, "table hosted: sockets join again");
                g.rejoin(table).await;
            }
        }
    }));
    let a = app.clone();
    tasks.push(listen(lobby, stop.clone(), move |m| {
        match serde_json::from_slice::<stud_proto::TableSummary>(&m.payload) {
            // Only tables this gateway lists (a closed one is not brought back).
            Ok(summary) if a.lobby.get(summary.id).is_some() => a.lobby.publish(summary),
            Ok(_) => {}
            Err(e) => debug!(error = %e, "a lobby line does not decode"),
        }
    }));
    let a = app.clone();
    tasks.push(listen(seated, stop.clone(), move |m| {
        if let Ok(x) = serde_json::from_slice::<wire::Seated>(&m.payload) {
            a.players.set_seated(x.player, x.table, x.seated);
        }
    }));
    let g = gw.clone();
    tasks.push(listen(metrics, stop.clone(), move |m| {
        if let Ok(w) = serde_json::from_slice::<wire::WorkerMetrics>(&m.payload) {
            g.workers
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(w.node, (std::time::Instant::now(), w.tables));
        }
    }));
    tasks.push(tokio::spawn(async move {
        loop {
            refresh_tables(&app, &gw).await;
            tokio::select! {
                () = tokio::time::sleep(TABLES_EVERY) => {}
                () = stop.cancelled() => return,
            }
        }
    }));
    Ok(tasks)
}

/// Hands every message on `sub` to `on`, until `stop` or the subscription ends.
fn listen(
    mut sub: async_nats::Subscriber,
    stop: CancellationToken,
    mut on: impl FnMut(async_nats::Message) + Send + 'static,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            let m = tokio::select! { m = sub.next() => m, () = stop.cancelled() => return };
            let Some(m) = m else { return };
            on(m);
        }
    })
}

/// Asks every worker who sits at its tables and their lobby lines (a gateway started after
/// players sat must know their seats: `hello` takes a player back to them). Waits at most
/// [`DIRECTORY_WAIT`]; a worker that does not answer in time leaves its seats unknown here
/// until they change (logged).
async fn ask_directory(app: &Arc<App>, gw: &Arc<Gateway>) {
    let inbox = gw.client.new_inbox();
    let mut replies = match gw.client.subscribe(inbox.clone()).await {
        Ok(sub) => sub,
        Err(e) => {
            warn!(error = %e, "cannot ask the workers for seats");
            return;
        }
    };
    if let Err(e) = gw.client.publish_with_reply(wire::DIRECTORY, inbox, Bytes::new()).await {
        warn!(error = %e, "cannot ask the workers for seats");
        return;
    }
    let deadline = tokio::time::Instant::now() + DIRECTORY_WAIT;
    let (mut nodes, mut seats, mut lines) = (std::collections::BTreeSet::new(), 0usize, 0usize);
    loop {
        let wait =
            if nodes.is_empty() { deadline } else { deadline.min(tokio::time::Instant::now() + DIRECTORY_QUIET) };
        let Ok(Some(m)) = tokio::time::timeout_at(wait, replies.next()).await else { break };
        let part: wire::Directory = match serde_json::from_slice(&m.payload) {
            Ok(part) => part,
            Err(e) => {
                debug!(error = %e, "a worker's directory does not decode");
                continue;
            }
        };
        for (player, table) in &part.seats {
            app.players.set_seated(*player, *table, true);
        }
        seats += part.seats.len();
        for summary in part.lobby {
            if app.lobby.get(summary.id).is_some() {
                app.lobby.publish(summary);
                lines += 1;
            }
        }
        nodes.insert(part.node);
    }
    tracing::info!(workers = nodes.len(), seats, lobby_lines = lines, "seats and lobby lines from the workers");
    // The seated players come back through this gateway (it may have just restarted): their
    // sessions are read ahead (their balances are the workers', shown from the store).
    match app.warm_sessions(false).await {
        Ok(sessions) => tracing::info!(sessions, "sessions of seated players read ahead"),
        Err(e) => warn!(error = %e, "the seated players' sessions were not read ahead"),
    }
}

/// The lobby and the access rules follow the store's list of open tables and its bans (an
/// operator may have created, changed or closed a table, or banned a player, through another
/// gateway).
pub(crate) async fn refresh_tables(app: &Arc<App>, gw: &Arc<Gateway>) {
    match app.store.bans().await {
        Ok(bans) => app.access.replace_bans(&bans),
        Err(e) => warn!(error = %e, "cannot read the bans from the store"),
    }
    let stored = match app.store.tables().await {
        Ok(t) => t,
        Err(e) => {
            warn!(error = %e, "cannot read the tables from the store");
            return;
        }
    };
    // A table closed mid-hand stays until its hand is over (its players play it out).
    let closing = match app.store.closing_tables().await {
        Ok(c) => c,
        Err(e) => {
            warn!(error = %e, "cannot read the closing tables from the store");
            return;
        }
    };
    let open: HashMap<Uuid, &stud_store::StoredTable> =
        super::plan::served(&stored, &closing).into_iter().map(|t| (t.id, t)).collect();
    for t in open.values() {
        let spec = TableSpec::from_stored(t, &app.config);
        if app.lobby.get(t.id).is_none() {
            app.lobby.add(t.id, TableHandle::remote(t.id, gw.clone()), crate::wire::placeholder_summary(&spec));
        }
        app.access.set_table(&spec);
    }
    for h in app.lobby.handles() {
        if !open.contains_key(&h.id) {
            app.lobby.remove(h.id);
            app.access.forget_table(h.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;

    fn watcher(queue: usize) -> (Watcher, crate::outbox::Inbox) {
        let (outbox, rx) = crate::outbox::channel(queue);
        let session = Arc::new(Session::new(String::new(), Uuid::new_v4(), Uuid::new_v4(), "slow".into()));
        let conn = Conn { id: 7, session, outbox, kick: CancellationToken::new() };
        (Watcher { conn, tables: HashMap::from([(Uuid::new_v4(), true)]), lagging: false, misses: 0 }, rx)
    }

    #[test]
    fn a_full_outbox_lags_then_catches_up_with_room_again() {
        let (mut w, mut rx) = watcher(4);
        let frame: Frame = Arc::from("{}");
        for _ in 0..4 {
            assert!(!w.offer(&frame));
        }
        assert!(w.offer(&frame), "the fifth frame finds the outbox full");
        assert!(!w.offer(&frame), "lagging: skipped, not queued");
        assert!(!w.caught_up(), "no room yet");
        rx.try_recv().unwrap();
        assert!(!w.caught_up(), "one free place of four is not enough");
        rx.try_recv().unwrap();
        assert!(w.caught_up(), "half the outbox free");
        assert!(!w.lagging && !w.caught_up(), "once");
        assert!(!w.offer(&frame), "queued again");
        assert_eq!(rx.len(), 3);
        assert!(!w.conn.kick.is_cancelled());
    }

    #[test]
    fn a_frame_goes_only_to_sockets_that_joined_its_table_and_names_the_others() {
        let (w, mut rx) = watcher(8);
        let joined = *w.tables.keys().next().unwrap();
        let mut watchers = HashMap::from([(7, w)]);
        let frame: Frame = Arc::from("{}");
        let (stale, lagging) = route(&mut watchers, Some(joined), [7, 8].into_iter(), Some(&frame));
        assert_eq!((stale, lagging), (vec![8], false), "8 has no socket here");
        assert_eq!(rx.try_recv().unwrap(), frame);
        // Another table's frame for socket 7: an earlier process's socket 7 sat there.
        let (stale, _) = route(&mut watchers, Some(Uuid::new_v4()), [7].into_iter(), Some(&frame));
        assert_eq!(stale, vec![7]);
        assert!(rx.try_recv().is_err(), "not delivered");
        // A kick for another table's socket 7 does not close this one.
        let (stale, _) = route(&mut watchers, Some(Uuid::new_v4()), [7].into_iter(), None);
        assert_eq!(stale, vec![7]);
        assert!(!watchers[&7].conn.kick.is_cancelled());
    }

    #[test]
    fn a_restarted_gateway_numbers_its_sockets_apart_from_the_last_process() {
        let first = first_conn_id(1_796_491_695_694);
        let again = first_conn_id(1_796_491_696_235);
        // The last process's ids reach the new one's only after 2^20 sockets per ms it ran.
        assert!(again - first >= (1 << 20) * 500);
        let in_2106 = u64::from(u32::MAX) * 1_000;
        assert_eq!(first_conn_id(in_2106) >> 20, in_2106, "no bit of the time is lost for centuries");
    }

    #[test]
    fn a_socket_that_stays_full_is_dropped() {
        let (mut w, _rx) = watcher(1);
        let frame: Frame = Arc::from("{}");
        assert!(!w.offer(&frame));
        assert!(w.offer(&frame));
        for _ in 0..LAG_LIMIT {
            w.offer(&frame);
        }
        assert!(!w.conn.kick.is_cancelled(), "{LAG_LIMIT} skipped frames are tolerated");
        w.offer(&frame);
        assert!(w.conn.kick.is_cancelled(), "one more and the socket is dropped");
    }
}
