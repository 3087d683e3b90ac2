//! Tournaments on a cluster: each tournament is directed by one gateway, the one holding its
//! lease (a key in the tournament lease bucket, `<lease bucket>_tournaments`, renewed by a
//! heartbeat like a worker's table leases). That gateway runs the tournament's task exactly as a
//! single process does (`crate::tournament::actor`); its tables are stored tables that workers
//! claim and host like any other, reached through the gateway's remote table handles. The
//! other gateways hold a proxy: the same [`TournamentHandle`] whose commands go as NATS
//! requests to the director and whose state is the snapshot the director publishes.
//!
//! Subjects ([`wire`]): `stud.tcmd.<tournament>` (commands, requests the director answers),
//! `stud.tview.<tournament>` (the tournament's snapshot text after each change, at most every
//! [`VIEW_EVERY`]), `stud.treport.<tournament>` (a table's finished hand, from its worker),
//! `stud.notify` (a frame for one player, which every gateway gives its own sockets of that
//! player).
//!
//! Failover: a director that dies stops renewing; once its lease lapses another gateway claims
//! it, rebuilds the tournament from the store (where every input is committed before it is
//! applied) and goes on; the task's resync takes from each table the report of a hand that
//! ended meanwhile (a table keeps its last one) and seats what the floor says. A director
//! commits an input only while its lease is live by its own clock ([`Director::live`]), which
//! ends before the bucket lets anyone else claim it; the journal's key (tournament, n) refuses a
//! second writer of the same input besides. A report or a command to a table lost on the way
//! (a worker failing over) is healed the same way: the task resyncs its tables every
//! [`crate::tournament::actor`] `CLUSTER_RESYNC`.
//!
//! Money: the balance lives in the shared store. An entry fee, a rebuy or an add-on is held on
//! the account (`Store::hold`, keyed by the tournament and the input's number) before the
//! input is committed, exactly as a worker holds a buy-in, and the hold is dropped once the
//! commit (which moves the balance) is done or refused.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt as _;
use futures_util::future::BoxFuture;
use stud_tournament::Tournament;
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;
use tracing::{info, warn};
use uuid::Uuid;

use super::lease::{Held, Leases};
use super::nats::ClusterError;
use super::wire::{self, TournamentRequest};
use crate::app::App;
use crate::table::TableHandle;
use crate::tournament::{Directing, Refusal, TournamentCmd, TournamentHandle};

/// How often a gateway reads the stored tournaments and claims those nobody directs.
const EVERY: Duration = Duration::from_secs(1);
/// The director publishes a tournament's state at most this often...
pub const VIEW_EVERY: Duration = Duration::from_millis(200);
/// ... and at least this often.
const VIEW_AGAIN: Duration = Duration::from_secs(5);

/// One gateway's tournaments: those it directs and the proxies of the others'.
pub(crate) struct Director {
    app: Arc<App>,
    client: async_nats::Client,
    leases: Leases,
    held: Held,
    timeout: Duration,
    /// tournaments directed here: stops their command and view tasks
    directed: Mutex<HashMap<Uuid, CancellationToken>>,
    /// proxies of tournaments directed elsewhere: their state's sender and what stops them
    proxied: Mutex<HashMap<Uuid, Proxy>>,
    /// what this gateway publishes for the tournaments it directs, in order ([`Director::publish`])
    outbox: mpsc::UnboundedSender<Out>,
    outbox_rx: Mutex<Option<mpsc::UnboundedReceiver<Out>>>,
}

/// A publication of the director's, in the order made.
enum Out {
    /// the tournament's state, if it changed since it was last published
    View(Uuid),
    /// the tournament's state, changed or not
    Again(Uuid),
    /// a frame for a player (JSON of [`wire::Notify`]); the tournament's state goes first if
    /// it changed, so a gateway shows the state the frame speaks of (a player told they placed
    /// reads the tournament finished)
    Notify(Uuid, Bytes),
}

/// A proxy's state sender (its handles watch it) and what stops its task.
type Proxy = (watch::Sender<Arc<Tournament>>, CancellationToken);

impl Director {
    pub(crate) fn new(
        app: Arc<App>,
        client: async_nats::Client,
        leases: Leases,
        held: Held,
        timeout: Duration,
    ) -> Arc<Director> {
        let (outbox, outbox_rx) = mpsc::unbounded_channel();
        Arc::new(Director {
            app,
            client,
            leases,
            held,
            timeout,
            directed: Mutex::new(HashMap::new()),
            proxied: Mutex::new(HashMap::new()),
            outbox,
            outbox_rx: Mutex::new(Some(outbox_rx)),
        })
    }

    fn directed(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, CancellationToken>> {
        self.directed.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn proxied(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, Proxy>> {
        self.proxied.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Claims a new tournament before it is stored, so that no other gateway takes it up.
    async fn claim(&self, tournament: Uuid) -> Result<(), ClusterError> {
        match self.leases.claim(tournament).await? {
            Some(lease) => {
                self.held.lock().unwrap_or_else(PoisonError::into_inner).insert(tournament, lease);
                Ok(())
            }
            None => Err(ClusterError::Unavailable(format!("tournament {tournament} is directed elsewhere"))),
        }
    }

    /// The tournament's task was opened here (its lease is held): serve its commands and
    /// publish its state.
    fn serve_here(self: &Arc<Self>, tournament: Uuid) {
        let Some(handle) = self.app.tournaments.get(tournament) else { return };
        let stop = CancellationToken::new();
        if let Some(old) = self.directed().insert(tournament, stop.clone()) {
            old.cancel();
        }
        if let Some((_, proxy)) = self.proxied().remove(&tournament) {
            proxy.cancel();
        }
        tokio::spawn(self.clone().serve(tournament, handle.clone(), stop.clone()));
        tokio::spawn(self.clone().publish_view(tournament, handle, stop));
    }

    /// Until `stop`: reads the stored tournaments, claims those nobody directs, keeps a proxy
    /// of the others; takes the workers' hand reports and the frames for players.
    pub(crate) async fn run(self: Arc<Self>, mut lost: mpsc::UnboundedReceiver<Uuid>, stop: CancellationToken) {
        match self.client.subscribe(wire::TREPORT_ALL).await {
            Ok(sub) => {
                tokio::spawn(self.clone().reports(sub, stop.clone()));
            }
            Err(e) => warn!(error = %e, "cannot take tournament tables' reports"),
        }
        match tokio::try_join!(self.client.subscribe(wire::TVIEW_ALL), self.client.subscribe(wire::NOTIFY)) {
            Ok((states, notices)) => {
                tokio::spawn(self.clone().receive(states, notices, stop.clone()));
            }
            Err(e) => warn!(error = %e, "cannot follow tournaments' states and frames for players"),
        }
        let outbox = self.outbox_rx.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(outbox) = outbox {
            tokio::spawn(self.clone().publish(outbox, stop.clone()));
        }
        loop {
            while let Ok(t) = lost.try_recv() {
                self.lost(t).await;
            }
            if let Err(e) = self.step().await {
                warn!(error = %e, "tournament claims failed");
            }
            tokio::select! {
                () = tokio::time::sleep(EVERY) => {}
                t = lost.recv() => if let Some(t) = t { self.lost(t).await },
                () = stop.cancelled() => break,
            }
        }
        // Shutdown: the tasks directed here stop, and their leases go back at once.
        let ids: Vec<Uuid> = self
            .directed()
            .drain()
            .map(|(id, stop)| {
                stop.cancel();
                id
            })
            .collect();
        for id in ids {
            if let Some(h) = self.app.tournaments.get(id) {
                h.shutdown().await;
            }
            let lease = self.held.lock().unwrap_or_else(PoisonError::into_inner).remove(&id);
            if let Some(lease) = lease {
                let _ = self.leases.release(&lease).await;
            }
        }
    }

    /// The lease of a tournament directed here is lost: its task stops here at once and a
    /// proxy takes its place (another gateway directs it).
    async fn lost(self: &Arc<Self>, tournament: Uuid) {
        warn!(%tournament, "tournament lease lost: it is directed elsewhere now");
        if let Some(stop) = self.directed().remove(&tournament) {
            stop.cancel();
        }
        if let Some(h) = self.app.tournaments.get(tournament) {
            let now = h.now();
            h.shutdown().await;
            self.proxy((*now).clone());
        }
    }

    async fn step(self: &Arc<Self>) -> Result<(), ClusterError> {
        let unavailable = |e: stud_store::StoreError| ClusterError::Unavailable(e.to_string());
        let stored = self.app.store.tournaments().await.map_err(unavailable)?;
        let mut claimed = Vec::new();
        let mut failed = None;
        for t in &stored {
            let ours = self.held.lock().unwrap_or_else(PoisonError::into_inner).contains_key(&t.id);
            if ours || self.directed().contains_key(&t.id) {
                continue;
            }
            match self.leases.claim(t.id).await {
                Ok(Some(lease)) => {
                    let epoch = lease.epoch;
                    self.held.lock().unwrap_or_else(PoisonError::into_inner).insert(t.id, lease);
                    claimed.push((t.id, epoch));
                }
                Ok(None) => {
                    if !self.proxied().contains_key(&t.id) {
                        match crate::tournament::rebuild(t) {
                            Ok(core) => self.proxy(core),
                            Err(e) => warn!(tournament = %t.id, error = %e, "a stored tournament does not rebuild"),
                        }
                    }
                }
                // NATS away: what was claimed so far is still taken up (or given back) below.
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        if claimed.is_empty() {
            return failed.map_or(Ok(()), Err);
        }
        // The store is fenced at each lease's epoch before the tournament is read: a former
        // director whose lease lapsed stores nothing from now on (`Store::tournament_commit`),
        // so what is read is all there will be from it.
        let mut fenced = Vec::new();
        for (id, epoch) in claimed {
            match self.app.store.tournament_fence(id, epoch).await {
                Ok(true) => fenced.push(id),
                Ok(false) => self.give_back(id, "a newer director fenced it").await,
                Err(e) => self.give_back(id, &e.to_string()).await,
            }
        }
        let stored = match self.app.store.tournaments().await {
            Ok(stored) => stored,
            Err(e) => {
                for id in fenced {
                    self.give_back(id, &e.to_string()).await;
                }
                return Err(unavailable(e));
            }
        };
        for id in fenced {
            let Some(t) = stored.iter().find(|t| t.id == id) else {
                self.give_back(id, "no longer stored").await;
                continue;
            };
            let core = match crate::tournament::rebuild(t) {
                Ok(core) => core,
                Err(e) => {
                    warn!(tournament = %id, error = %e, "a stored tournament does not rebuild");
                    self.give_back(id, "does not rebuild").await;
                    continue;
                }
            };
            // What a former director held for an input it never committed.
            if let Err(e) = self.app.store.release_holds_after(id, 0).await {
                warn!(tournament = %id, error = %e, "holds of a former director not released");
            }
            let view = self.proxied().remove(&id).map(|(view, stop)| {
                stop.cancel();
                view
            });
            info!(tournament = %id, "directing a tournament");
            let next = Arc::new(core.clone());
            let task = crate::tournament::actor::open_with(&self.app, core, view);
            self.app.track(task);
            self.serve_here(id);
            // A series whose former director stopped before it scheduled the next one.
            tokio::spawn(crate::tournament::actor::schedule_next(self.app.clone(), next));
        }
        failed.map_or(Ok(()), Err)
    }

    /// A lease this gateway claimed but cannot direct goes back at once.
    async fn give_back(&self, tournament: Uuid, why: &str) {
        warn!(%tournament, why, "a claimed tournament is given back");
        let lease = self.held.lock().unwrap_or_else(PoisonError::into_inner).remove(&tournament);
        if let Some(lease) = lease {
            let _ = self.leases.release(&lease).await;
        }
    }

    /// A proxy of a tournament directed elsewhere, in the registry in place of any handle.
    fn proxy(self: &Arc<Self>, core: Tournament) {
        let id = core.id();
        let (tx, rx) = mpsc::channel(256);
        let (reports, _) = mpsc::unbounded_channel();
        let (view_tx, view) = watch::channel(Arc::new(core));
        let stop = CancellationToken::new();
        self.proxied().insert(id, (view_tx.clone(), stop.clone()));
        self.app.tournaments.put(id, TournamentHandle::new(tx, reports, view));
        tokio::spawn(self.clone().forward(id, rx, stop));
    }

    /// A proxy's task: commands to the director (its state comes in [`Director::receive`]).
    async fn forward(self: Arc<Self>, id: Uuid, mut rx: mpsc::Receiver<TournamentCmd>, stop: CancellationToken) {
        loop {
            tokio::select! {
                () = stop.cancelled() => return,
                cmd = rx.recv() => match cmd {
                    None => return,
                    Some(TournamentCmd::Shutdown { reply }) => {
                        let _ = reply.send(());
                        return;
                    }
                    Some(cmd) => {
                        let (client, timeout) = (self.client.clone(), self.timeout);
                        tokio::spawn(relay(client, id, cmd, timeout));
                    }
                },
            }
        }
    }

    /// Answers the tournament's commands relayed by other gateways, until `stop`.
    async fn serve(self: Arc<Self>, id: Uuid, handle: TournamentHandle, stop: CancellationToken) {
        let mut sub = match self.client.subscribe(wire::tcmd(id)).await {
            Ok(sub) => sub,
            Err(e) => {
                warn!(tournament = %id, error = %e, "cannot take the tournament's relayed commands");
                return;
            }
        };
        loop {
            let m = tokio::select! { m = sub.next() => m, () = stop.cancelled() => return };
            let Some(m) = m else { return };
            let Some(reply) = m.reply else { continue };
            let (handle, client) = (handle.clone(), self.client.clone());
            tokio::spawn(async move {
                let outcome = match serde_json::from_slice::<TournamentRequest>(&m.payload) {
                    Ok(request) => carry(&handle, request).await,
                    Err(e) => {
                        warn!(tournament = %id, error = %e, "a relayed command does not decode");
                        Err(Refusal::Unavailable)
                    }
                };
                if let Ok(payload) = serde_json::to_vec(&outcome) {
                    let _ = client.publish(reply, Bytes::from(payload)).await;
                }
            });
        }
    }

    /// Has the tournament's state published after each change, at most every [`VIEW_EVERY`]
    /// (and before any frame for a player, [`Out::Notify`]).
    async fn publish_view(self: Arc<Self>, id: Uuid, handle: TournamentHandle, stop: CancellationToken) {
        let mut view = handle.watch();
        loop {
            view.mark_unchanged();
            if self.outbox.send(Out::View(id)).is_err() {
                return;
            }
            tokio::select! {
                () = stop.cancelled() => return,
                () = tokio::time::sleep(VIEW_EVERY) => {}
            }
            tokio::select! {
                () = stop.cancelled() => return,
                changed = view.changed() => if changed.is_err() { return },
                // Published again now and then: a message NATS dropped (a reconnect) leaves no
                // proxy behind for long.
                () = tokio::time::sleep(VIEW_AGAIN) => self.republish(id),
            }
        }
    }

    /// Has the tournament's state published again even if unchanged.
    fn republish(&self, id: Uuid) {
        let _ = self.outbox.send(Out::Again(id));
    }

    /// Publishes the director's [`Out`]s in order, on this one task (one NATS connection keeps
    /// their order to every subscriber).
    async fn publish(self: Arc<Self>, mut outbox: mpsc::UnboundedReceiver<Out>, stop: CancellationToken) {
        let mut published: HashMap<Uuid, u64> = HashMap::new();
        loop {
            let out = tokio::select! { o = outbox.recv() => o, () = stop.cancelled() => return };
            let Some(out) = out else { return };
            let (id, again) = match &out {
                Out::View(id) | Out::Notify(id, _) => (*id, false),
                Out::Again(id) => (*id, true),
            };
            if let Some(handle) = self.app.tournaments.get(id).filter(|_| self.directed().contains_key(&id)) {
                let t = handle.now();
                if again || published.get(&id) != Some(&t.applied()) {
                    published.insert(id, t.applied());
                    if let Err(e) = self.client.publish(wire::tview(id), Bytes::from(t.snapshot())).await {
                        warn!(tournament = %id, error = %e, "the tournament's state not published");
                    }
                }
            }
            if let Out::Notify(_, payload) = out
                && let Err(e) = self.client.publish(wire::NOTIFY, payload).await
            {
                warn!(error = %e, "a frame for a player not published");
            }
        }
    }

    /// Workers' reports of tournament tables' hands, to the tasks directed here.
    async fn reports(self: Arc<Self>, mut sub: async_nats::Subscriber, stop: CancellationToken) {
        loop {
            let m = tokio::select! { m = sub.next() => m, () = stop.cancelled() => return };
            let Some(m) = m else { return };
            let Some(id) = m.subject.as_str().rsplit('.').next().and_then(|t| Uuid::parse_str(t).ok()) else {
                continue;
            };
            if !self.directed().contains_key(&id) {
                continue;
            }
            match serde_json::from_slice::<wire::TournamentReport>(&m.payload) {
                Ok(r) => self.app.tournaments.report(id, r.table, r.report),
                Err(e) => warn!(tournament = %id, error = %e, "a hand report does not decode"),
            }
        }
    }

    /// The states of tournaments directed elsewhere (to their proxies) and frames for players
    /// (each to this gateway's sockets of that player), on one task: a state published before
    /// a frame is taken first (`biased`), so the proxy shows what the frame speaks of.
    async fn receive(
        self: Arc<Self>,
        mut states: async_nats::Subscriber,
        mut notices: async_nats::Subscriber,
        stop: CancellationToken,
    ) {
        loop {
            tokio::select! {
                biased;
                () = stop.cancelled() => return,
                m = states.next() => {
                    let Some(m) = m else { return };
                    self.state(&m);
                }
                m = notices.next() => {
                    let Some(m) = m else { return };
                    self.notice(&m);
                }
            }
        }
    }

    fn state(&self, m: &async_nats::Message) {
        let Some(id) = m.subject.as_str().rsplit('.').next().and_then(|t| Uuid::parse_str(t).ok()) else { return };
        let Some(view) = self.proxied().get(&id).map(|(v, _)| v.clone()) else { return };
        match std::str::from_utf8(&m.payload).ok().map(Tournament::restore) {
            Some(Ok(t)) => {
                view.send_replace(Arc::new(t));
            }
            _ => warn!(tournament = %id, "a tournament state that does not restore"),
        }
    }

    fn notice(&self, m: &async_nats::Message) {
        match serde_json::from_slice::<wire::Notify>(&m.payload) {
            Ok(n) => {
                if let Some((tournament, no)) = n.seated_at {
                    let table = self.list_table(tournament, no);
                    self.app.players.set_seated(n.player, table, true);
                }
                self.app.players.notify_player(n.player, &Arc::from(n.frame.as_str()));
            }
            Err(e) => warn!(error = %e, "a frame for a player does not decode"),
        }
    }
}

impl Director {
    /// Table `no` of `tournament`, listed here (a remote handle) if the lobby has not got it
    /// yet: a player is sent there before this gateway's next read of the stored tables.
    fn list_table(&self, tournament: Uuid, no: stud_tournament::TableNo) -> Uuid {
        let table = crate::tournament::tables::table_id(tournament, no);
        if self.app.lobby.get(table).is_some() {
            return table;
        }
        let (Some(gw), Some(t)) = (self.app.gateway.get(), self.app.tournaments.get(tournament)) else { return table };
        let clock = (self.app.config.action_timeout_ms, self.app.config.time_bank_ms);
        let spec = crate::tournament::tables::table_spec(&t.now(), no, clock);
        self.app.access.set_table(&spec);
        self.app.lobby.add(table, TableHandle::remote(table, gw.clone()), crate::wire::placeholder_summary(&spec));
        table
    }
}

impl Directing for Director {
    /// The lease's epoch while this gateway may still commit `tournament`'s inputs: it holds
    /// the lease and renewed it less than a TTL ago (by its own clock).
    fn live(&self, tournament: Uuid) -> Option<u64> {
        let ttl = self.leases.ttl();
        let held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.get(&tournament).filter(|l| l.live(ttl)).map(|l| l.epoch)
    }

    fn abandon(&self, tournament: Uuid) {
        let lease = self.held.lock().unwrap_or_else(PoisonError::into_inner).remove(&tournament);
        if let Some(lease) = lease {
            let leases = self.leases.clone();
            tokio::spawn(async move {
                let _ = leases.release(&lease).await;
            });
        }
    }

    /// Gives a frame to `player`'s sockets on every gateway (this one's too, through NATS, so
    /// they keep the order of the frames published here).
    fn notify(
        &self,
        tournament: Uuid,
        player: Uuid,
        seated_at: Option<(Uuid, stud_tournament::TableNo)>,
        frame: &crate::wire::Frame,
    ) {
        let Ok(payload) = serde_json::to_vec(&wire::Notify { player, seated_at, frame: frame.to_string() }) else {
            return;
        };
        let _ = self.outbox.send(Out::Notify(tournament, Bytes::from(payload)));
    }

    fn claim_new(&self, tournament: Uuid) -> BoxFuture<'_, Result<(), String>> {
        Box::pin(async move { self.claim(tournament).await.map_err(|e| e.to_string()) })
    }

    fn directing(self: Arc<Self>, tournament: Uuid) {
        self.serve_here(tournament);
    }
}

/// A proxy's command, asked of the director and answered to the caller.
async fn relay(client: async_nats::Client, id: Uuid, cmd: TournamentCmd, timeout: Duration) {
    let (request, reply) = match cmd {
        TournamentCmd::Register { player, name, invite_code, reply } => {
            (TournamentRequest::Register { player, name, invite_code }, reply)
        }
        TournamentCmd::Unregister { player, reply } => (TournamentRequest::Unregister { player }, reply),
        TournamentCmd::Rebuy { player, key, reply } => (TournamentRequest::Rebuy { player, key }, reply),
        TournamentCmd::AddOn { player, reply } => (TournamentRequest::AddOn { player }, reply),
        TournamentCmd::Cancel { reply } => (TournamentRequest::Cancel, reply),
        TournamentCmd::Operate { command, reply } => (TournamentRequest::Operate { command }, reply),
        TournamentCmd::Shutdown { reply } => {
            let _ = reply.send(());
            return;
        }
    };
    let outcome = async {
        let payload = serde_json::to_vec(&request).map_err(|_| Refusal::Unavailable)?;
        let request = async_nats::Request::new().payload(Bytes::from(payload)).timeout(Some(timeout));
        let m = client.send_request(wire::tcmd(id), request).await.map_err(|e| {
            warn!(tournament = %id, error = %e, "the tournament's director did not answer");
            Refusal::Unavailable
        })?;
        serde_json::from_slice::<Result<(), Refusal>>(&m.payload).map_err(|_| Refusal::Unavailable)?
    }
    .await;
    let _ = reply.send(outcome);
}

/// A relayed command, carried out by the task directed here.
async fn carry(handle: &TournamentHandle, request: TournamentRequest) -> Result<(), Refusal> {
    match request {
        TournamentRequest::Register { player, name, invite_code } => handle.register(player, name, invite_code).await,
        TournamentRequest::Unregister { player } => handle.unregister(player).await,
        TournamentRequest::Rebuy { player, key } => handle.rebuy(player, key).await,
        TournamentRequest::AddOn { player } => handle.addon(player).await,
        TournamentRequest::Cancel => handle.cancel().await,
        TournamentRequest::Operate { command } => handle.operate(command).await,
    }
}
