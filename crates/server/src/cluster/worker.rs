//! The worker's side of a cluster: it claims tables through their leases (its share, chosen by
//! [`super::plan`]), takes each table's journal with the lease, rebuilds the table from its
//! snapshot and journal exactly as a single process does after a restart (`crate::resume`),
//! runs the same table task (`crate::table::run_table`) journaling to JetStream, and moves the
//! table's inputs and frames over NATS subjects ([`super::wire`]).
//!
//! A table stops here the moment its lease is lost (the heartbeat says so): its task is
//! aborted and its input subscription dropped. Until then nothing of it leaves this process
//! unless the lease is still live by this worker's own clock (renewed less than a TTL ago):
//! another worker can claim the table only after the lease lapsed in the bucket, which is never
//! sooner, so frames of a table that may have changed hands are dropped, not published. Inputs
//! are fenced by JetStream itself (see `super::journal`).
//!
//! Which tables exist: the shared store's `tables` (what operators created and the public
//! tables the gateways opened), read every tick. Snapshots: the table task's writes carry its
//! snapshot to Postgres (`table_state`, in the transaction of the writes it covers); each tick
//! the newer ones move to the JetStream snapshot bucket, which purges the journal below them.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_util::StreamExt as _;
use futures_util::future::BoxFuture;
use stud_engine::Chips;
use stud_proto::TableSummary;
use stud_store::{JournalRow, StoreError, TableJournal, TableWrites};
use stud_table::{TableCore, TableSpec};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tracing::{debug, info, warn};
use uuid::Uuid;

use super::journal::JetStreamJournal;
use super::lease::{Held, Lease, Leases};
use super::nats::ClusterError;
use super::outbound::{Outbound, Remote};
use super::plan;
use super::wire::{self, Inbound, OperatorReply, RemoteConn};
use crate::app::App;
use crate::journal::JournalError;
use crate::session::Session;
use crate::table::{Act, Conn, Debit, SpecExt, Start, TableCmd, TableEnv, TableHandle, spawn_table_with};

/// How often snapshots move from the store to the JetStream bucket, in ticks.
const SNAPSHOT_TICKS: u32 = 10;

/// Tables claimed, or rebuilt and started, at once.
const CLAIMS_IN_FLIGHT: usize = 16;

/// One worker process's tables.
pub(crate) struct Worker {
    app: Arc<App>,
    client: async_nats::Client,
    journal: JetStreamJournal,
    leases: Leases,
    held: Held,
    hosted: Mutex<HashMap<Uuid, Hosted>>,
    /// per table, the snapshot's input number last moved to the bucket
    advanced: Mutex<HashMap<Uuid, u64>>,
    /// who sits at the hosted tables and their lobby lines (a starting gateway asks)
    directory: Arc<Mutex<Directory>>,
}

/// What a worker tells a starting gateway about its tables.
#[derive(Default)]
struct Directory {
    /// table -> the players seated there
    seats: HashMap<Uuid, BTreeSet<Uuid>>,
    /// table -> its last lobby line
    lobby: HashMap<Uuid, TableSummary>,
}

impl Directory {
    fn forget(&mut self, table: Uuid) {
        self.seats.remove(&table);
        self.lobby.remove(&table);
    }

    /// The whole directory in messages of at most [`wire::DIRECTORY_PART`] items each.
    fn parts(&self, node: &str) -> Vec<wire::Directory> {
        let seats: Vec<(Uuid, Uuid)> =
            self.seats.iter().flat_map(|(t, players)| players.iter().map(move |p| (*p, *t))).collect();
        let lobby: Vec<&TableSummary> = self.lobby.values().collect();
        let parts = seats.len().div_ceil(wire::DIRECTORY_PART).max(lobby.len().div_ceil(wire::DIRECTORY_PART)).max(1);
        (0..parts)
            .map(|i| {
                let range = |len: usize| (i * wire::DIRECTORY_PART).min(len)..((i + 1) * wire::DIRECTORY_PART).min(len);
                wire::Directory {
                    node: node.to_owned(),
                    seats: seats[range(seats.len())].to_vec(),
                    lobby: lobby[range(lobby.len())].iter().map(|s| (*s).clone()).collect(),
                }
            })
            .collect()
    }
}

struct Hosted {
    handle: TableHandle,
    task: JoinHandle<()>,
    stop: CancellationToken,
}

impl Worker {
    pub(crate) fn new(
        app: Arc<App>,
        client: async_nats::Client,
        journal: JetStreamJournal,
        leases: Leases,
        held: Held,
    ) -> Arc<Worker> {
        Arc::new(Worker {
            app,
            client,
            journal,
            leases,
            held,
            hosted: Mutex::new(HashMap::new()),
            advanced: Mutex::new(HashMap::new()),
            directory: Arc::default(),
        })
    }

    fn directory(&self) -> std::sync::MutexGuard<'_, Directory> {
        self.directory.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Answers starting gateways' [`wire::DIRECTORY`] requests until `stop`.
    async fn answer_directory(self: Arc<Self>, mut sub: async_nats::Subscriber, stop: CancellationToken) {
        loop {
            let m = tokio::select! { m = sub.next() => m, () = stop.cancelled() => return };
            let Some(m) = m else { return };
            let Some(reply) = m.reply else { continue };
            let parts = self.directory().parts(self.leases.node());
            for part in parts {
                let Ok(payload) = serde_json::to_vec(&part) else { continue };
                if let Err(e) = self.client.publish(reply.clone(), Bytes::from(payload)).await {
                    warn!(error = %e, "cannot answer a gateway's directory request");
                    break;
                }
            }
        }
    }

    fn hosted(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, Hosted>> {
        self.hosted.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, Lease>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether this worker may still speak for `table`: it holds the lease and renewed it less
    /// than a TTL ago (by its own clock; the bucket lets another worker claim it only later).
    fn live(&self, table: Uuid) -> bool {
        let ttl = self.leases.ttl();
        self.held().get(&table).is_some_and(|l| l.live(ttl))
    }

    /// The tables this worker hosts now.
    pub(crate) fn tables(&self) -> Vec<Uuid> {
        self.hosted().keys().copied().collect()
    }

    /// The worker's loop until `stop`: announce, drop lost tables, claim its share.
    pub(crate) async fn run(self: Arc<Self>, mut lost: mpsc::UnboundedReceiver<Uuid>, stop: CancellationToken) {
        let period = (self.leases.ttl() / 4).min(Duration::from_secs(1));
        let mut tick = 0u32;
        match self.client.subscribe(wire::DIRECTORY).await {
            Ok(sub) => {
                tokio::spawn(self.clone().answer_directory(sub, stop.clone()));
            }
            Err(e) => warn!(error = %e, "cannot answer gateways' directory requests"),
        }
        // Workers started together see each other before the first claims.
        if let Err(e) = self.leases.announce().await {
            warn!(error = %e, "cannot announce this worker");
        }
        tokio::select! {
            () = tokio::time::sleep(period * 2) => {}
            () = stop.cancelled() => return,
        }
        loop {
            while let Ok(table) = lost.try_recv() {
                warn!(%table, "lease lost: the table stops here");
                self.drop_table(table);
            }
            self.reap().await;
            if let Err(e) = self.step().await {
                warn!(error = %e, "cluster step failed");
            }
            if tick % SNAPSHOT_TICKS == 0 {
                self.advance_snapshots().await;
            }
            if tick % 2 == 0 {
                let counts = wire::WorkerMetrics {
                    node: self.leases.node().to_owned(),
                    tables: self.app.metrics.table_counts(),
                };
                publish_json(&self.client, wire::METRICS, &counts);
            }
            tick = tick.wrapping_add(1);
            tokio::select! {
                () = tokio::time::sleep(period) => {}
                t = lost.recv() => if let Some(table) = t {
                    warn!(%table, "lease lost: the table stops here");
                    self.drop_table(table);
                },
                () = stop.cancelled() => return,
            }
        }
    }

    /// Stops playing `table` at once (its lease is gone).
    fn drop_table(&self, table: Uuid) {
        if let Some(h) = self.hosted().remove(&table) {
            h.stop.cancel();
            h.task.abort();
        }
        self.directory().forget(table);
        self.held().remove(&table);
        self.journal.release(table);
    }

    /// Tables whose task ended (closed by an operator): their leases go back.
    async fn reap(&self) {
        let done: Vec<Uuid> = self.hosted().iter().filter(|(_, h)| h.task.is_finished()).map(|(t, _)| *t).collect();
        for table in done {
            if let Some(h) = self.hosted().remove(&table) {
                h.stop.cancel();
            }
            self.directory().forget(table);
            let lease = self.held().remove(&table);
            self.journal.release(table);
            if let Some(lease) = lease {
                let _ = self.leases.release(&lease).await;
            }
        }
    }

    /// One round: announce, read the tables and the leases, claim this worker's share.
    async fn step(self: &Arc<Self>) -> Result<(), ClusterError> {
        self.leases.announce().await?;
        let stored = self.app.store.tables().await.map_err(|e| ClusterError::Unavailable(e.to_string()))?;
        // The tables' chat mutes banned players: the bans follow the store (operators ban
        // through the gateways).
        match self.app.store.bans().await {
            Ok(bans) => self.app.access.replace_bans(&bans),
            Err(e) => warn!(error = %e, "cannot read the bans from the store"),
        }
        // Open tables, and those an operator closed mid-hand whose worker stopped before the
        // hand ended: they resume to finish it, then close (chips still on them say so).
        let closing = self.app.store.closing_tables().await.map_err(|e| ClusterError::Unavailable(e.to_string()))?;
        let open = plan::served(&stored, &closing);
        let ids: Vec<Uuid> = open.iter().map(|t| t.id).collect();
        let (leased, workers) = self.leases.list().await?;
        let owners = plan::owners(self.leases.node(), &leased, &self.held());
        // A worker joined (or came back): tables above this one's share go back, between
        // hands, for the others to claim.
        let surplus = plan::surplus(self.leases.node(), &ids, &owners, &workers);
        if surplus > 0 {
            self.release_surplus(surplus, &workers).await;
        }
        // Leases and journals first, then the store's marks once for all of them: read after
        // the journals are ours, so they include every write a former holder flushed.
        // Many tables at once (a failover moves hundreds): each is a few NATS round trips.
        let wanted: Vec<stud_store::StoredTable> = plan::claims(self.leases.node(), &ids, &owners, &workers)
            .into_iter()
            .filter_map(|table| open.iter().find(|t| t.id == table).map(|t| (*t).clone()))
            .collect();
        let attempts: Vec<Result<Option<(stud_store::StoredTable, Lease)>, ClusterError>> =
            futures_util::stream::iter(wanted.into_iter().map(|row| self.claim(row)))
                .buffer_unordered(CLAIMS_IN_FLIGHT)
                .collect()
                .await;
        let mut claimed = Vec::new();
        let mut failed = None;
        for attempt in attempts {
            match attempt {
                Ok(Some(c)) => claimed.push(c),
                Ok(None) => {}
                Err(e) => failed = Some(e),
            }
        }
        if claimed.is_empty() {
            return failed.map_or(Ok(()), Err);
        }
        let state: HashMap<Uuid, TableJournal> = match self.app.store.journals().await {
            Ok(all) => all.into_iter().map(|j| (j.table_id, j)).collect(),
            Err(e) => {
                let e = ClusterError::Unavailable(e.to_string());
                for (_, lease) in &claimed {
                    self.give_back(lease, &e).await;
                }
                return Err(e);
            }
        };
        let hosts = claimed.into_iter().map(|(row, lease)| {
            let stored = state.get(&row.id);
            self.host_or_give_back(row, lease, stored)
        });
        futures_util::stream::iter(hosts).buffer_unordered(CLAIMS_IN_FLIGHT).collect::<Vec<()>>().await;
        failed.map_or(Ok(()), Err)
    }

    /// Claims a table's lease and its journal; `None` when another worker was first.
    async fn claim(
        self: &Arc<Self>,
        row: stud_store::StoredTable,
    ) -> Result<Option<(stud_store::StoredTable, Lease)>, ClusterError> {
        let Some(lease) = self.leases.claim(row.id).await? else { return Ok(None) };
        self.held().insert(row.id, lease.clone());
        match self.journal.acquire(&lease).await {
            Ok(()) => Ok(Some((row, lease))),
            Err(e) => {
                self.give_back(&lease, &e).await;
                Ok(None)
            }
        }
    }

    async fn host_or_give_back(
        self: &Arc<Self>,
        row: stud_store::StoredTable,
        lease: Lease,
        stored: Option<&TableJournal>,
    ) {
        if let Err(e) = self.host(&row, &lease, stored).await {
            self.give_back(&lease, &e).await;
        }
    }

    /// A claimed table this worker cannot host: its lease goes back at once.
    async fn give_back(&self, lease: &Lease, e: &ClusterError) {
        warn!(table = %lease.table, error = %e, "cannot host a claimed table; giving it back");
        self.drop_table(lease.table);
        let _ = self.leases.release(lease).await;
    }

    /// Gives back up to `n` tables that another worker ranks higher and that have no hand in
    /// play: the table stops here (nothing is voided), its writes reach the store, and its lease
    /// is released so another worker claims it at once.
    async fn release_surplus(&self, n: usize, workers: &BTreeSet<String>) {
        let me = self.leases.node();
        let candidates: Vec<(Uuid, TableHandle)> = self
            .hosted()
            .iter()
            .filter(|(t, _)| plan::preferred(**t, workers) != Some(me))
            .map(|(t, h)| (*t, h.handle.clone()))
            .collect();
        let mut released = 0;
        for (table, handle) in candidates {
            if released == n {
                break;
            }
            let (reply, status) = oneshot::channel();
            if handle.send(TableCmd::Status { reply }).await.is_err() {
                continue;
            }
            if !status.await.is_ok_and(|s| s.hand.is_none()) {
                continue;
            }
            let Some(h) = self.hosted().remove(&table) else { continue };
            let (reply, done) = oneshot::channel();
            if h.handle.send(TableCmd::Shutdown { reply }).await.is_ok() {
                let _ = done.await;
            }
            h.stop.cancel();
            let _ = h.task.await;
            self.directory().forget(table);
            let _ = tokio::time::timeout(Duration::from_secs(10), self.app.writer.flush()).await;
            self.journal.release(table);
            let lease = self.held().remove(&table);
            if let Some(lease) = lease {
                let _ = self.leases.release(&lease).await;
            }
            info!(%table, "table released to another worker");
            released += 1;
        }
    }

    /// Rebuilds a claimed table (its journal acquired) or starts it, and serves it. `stored`:
    /// the store's `table_state` of it.
    async fn host(
        self: &Arc<Self>,
        row: &stud_store::StoredTable,
        lease: &Lease,
        stored: Option<&TableJournal>,
    ) -> Result<(), ClusterError> {
        let table = row.id;
        let started = Instant::now();
        debug!(table = %lease.table, epoch = lease.epoch, "hosting");
        let journal = self.load(table, stored).await?;
        let app = &self.app;
        let store_err = |e: StoreError| ClusterError::Unavailable(e.to_string());
        let (core, start) = match &journal {
            Some(j) => match crate::resume::rebuild(app, j) {
                Ok(core) => (core, Start::Resumed),
                Err(e) => {
                    let spec = TableSpec::from_stored(row, &app.config);
                    let core = crate::resume::void(app, spec, j, &e).await.map_err(store_err)?;
                    self.reset(&core).await?;
                    (core, Start::Started)
                }
            },
            // The store has the table's state but JetStream no journal of it (lost with a NATS
            // server's storage): a journal that fails its checks, voided as such (open stacks
            // cashed out, audited), and numbered on from the stored mark.
            None => match stored.filter(|s| s.snapshot.is_some()) {
                Some(s) => {
                    let e = stud_table::RestoreError::Corrupt(format!(
                        "no journal in JetStream; the store has the table's state up to input {}",
                        s.stored_n
                    ));
                    let spec = TableSpec::from_stored(row, &app.config);
                    let core = crate::resume::void(app, spec, s, &e).await.map_err(store_err)?;
                    self.reset(&core).await?;
                    (core, Start::Started)
                }
                None => {
                    let hands_before = app.store.last_hand_number(table).await.map_err(store_err)?.unwrap_or(0);
                    let spec = TableSpec { hands_before, ..TableSpec::from_stored(row, &app.config) };
                    let core = TableCore::new(app.timing(), spec, stud_store::now_ms());
                    self.reset(&core).await?;
                    (core, Start::Started)
                }
            },
        };
        // A former holder may have held a buy-in for an input it never journaled (it crashed
        // in between): nothing would settle that hold, so it goes before any input comes.
        app.store.release_holds_after(table, core.applied()).await.map_err(store_err)?;
        let seated: Vec<Uuid> = core.stacks().into_iter().map(|(p, _)| p).collect();
        self.directory().seats.insert(table, seated.iter().copied().collect());
        let outbound = Arc::new(Outbound::default());
        let env: Arc<dyn TableEnv> = Arc::new(WorkerEnv {
            app: app.clone(),
            client: self.client.clone(),
            directory: self.directory.clone(),
            outbound: outbound.clone(),
        });
        let inputs = self.client.subscribe(wire::input(table)).await.map_err(ClusterError::nats)?;
        let stop = CancellationToken::new();
        tokio::spawn(self.clone().publish_frames(table, outbound.clone(), stop.clone()));
        let (handle, task) = spawn_table_with(env, app.config.table_queue, core, start);
        tokio::spawn(self.clone().inputs(table, handle.clone(), inputs, outbound, stop.clone()));
        if row.closed {
            // Closed by an operator while its hand was in play: it finishes the hand, cashes
            // everyone out and stops (a close already in its journal is the same close).
            let (reply, _closed) = tokio::sync::oneshot::channel();
            if handle.send(TableCmd::Close { reply }).await.is_ok() {
                info!(%table, "a table closed mid-hand resumes to finish its hand, then closes");
            }
        }
        self.hosted().insert(table, Hosted { handle, task, stop });
        for player in seated {
            publish_json(&self.client, wire::SEATED, &wire::Seated { player, table, seated: true });
        }
        let _ = self.client.publish(wire::up(table), Bytes::new()).await;
        info!(
            %table,
            resumed = start == Start::Resumed,
            ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            "hosting table"
        );
        Ok(())
    }

    /// A table's journal: the JetStream snapshot and entries, with the store's newer snapshot
    /// (written with the writes it covers) and stored mark. `None`: a table never journaled.
    async fn load(&self, table: Uuid, stored: Option<&TableJournal>) -> Result<Option<TableJournal>, ClusterError> {
        let nats = self.journal.load_table(table).await?;
        let Some(mut j) = nats else { return Ok(None) };
        if let Some(stored) = stored {
            j.stored_n = j.stored_n.max(stored.stored_n);
            let newer = match (&stored.snapshot, &j.snapshot) {
                (Some((s, _)), Some((n, _))) => s > n,
                (Some(_), None) => true,
                _ => false,
            };
            if newer && let Some((s, text)) = &stored.snapshot {
                j.entries.retain(|(n, _)| n > s);
                j.snapshot = Some((*s, text.clone()));
            }
        }
        // Entries only, no snapshot: not a table this cluster can rebuild.
        Ok(if j.snapshot.is_none() && j.entries.is_empty() { None } else { Some(j) })
    }

    /// Starts a table's journal at its core's state, in JetStream and in the store's
    /// `table_state` (where its snapshots and stored mark are kept with its writes).
    async fn reset(&self, core: &TableCore) -> Result<(), ClusterError> {
        let (table, n, snapshot) = (core.spec().id, core.applied(), core.snapshot());
        use crate::journal::Journal as _;
        self.journal.reset(table, n, &snapshot).await.map_err(|e| ClusterError::Unavailable(e.to_string()))?;
        self.app.store.journal_reset(table, n, &snapshot).await.map_err(|e| ClusterError::Unavailable(e.to_string()))
    }

    /// Moves the store's newer snapshots of hosted tables to the JetStream bucket (which
    /// purges the journal below them: a rebuild replays at most about one hand).
    async fn advance_snapshots(&self) {
        let hosted: BTreeSet<Uuid> = self.hosted().keys().copied().collect();
        if hosted.is_empty() {
            return;
        }
        let Ok(stored) = self.app.store.journals().await else { return };
        for j in stored.into_iter().filter(|j| hosted.contains(&j.table_id)) {
            let Some((n, text)) = j.snapshot else { continue };
            let last = self.advanced.lock().unwrap_or_else(PoisonError::into_inner).get(&j.table_id).copied();
            if last.is_some_and(|l| l >= n) || !self.journal.holds(j.table_id) {
                continue;
            }
            match self.journal.snapshot(j.table_id, n, &text).await {
                Ok(_) => {
                    self.advanced.lock().unwrap_or_else(PoisonError::into_inner).insert(j.table_id, n);
                }
                Err(e) => debug!(table = %j.table_id, error = %e, "snapshot not moved"),
            }
        }
    }

    /// A table's inputs from its subject, until the table stops here.
    async fn inputs(
        self: Arc<Self>,
        table: Uuid,
        handle: TableHandle,
        mut sub: async_nats::Subscriber,
        outbound: Arc<Outbound>,
        stop: CancellationToken,
    ) {
        // Each remote connection's id here and its outbox, for as long as it is at the table
        // (a join again, after a failover or a lag, reuses them: the table keeps the outbox
        // it has).
        let mut conns: HashMap<RemoteConn, (u64, crate::outbox::Outbox, CancellationToken)> = HashMap::new();
        loop {
            let m = tokio::select! {
                m = sub.next() => m,
                () = stop.cancelled() => return,
            };
            let Some(m) = m else { return };
            if !self.live(table) {
                continue;
            }
            let msg: Inbound = match serde_json::from_slice(&m.payload) {
                Ok(msg) => msg,
                Err(e) => {
                    warn!(%table, error = %e, "an input does not decode");
                    continue;
                }
            };
            let local = |conns: &HashMap<RemoteConn, (u64, _, _)>, c: &RemoteConn| conns.get(c).map(|(id, ..)| *id);
            let cmd = match msg {
                Inbound::Join { conn, player, session, name, request_id, watch } => {
                    debug!(%table, gw = %conn.gw, conn = conn.id, known = conns.contains_key(&conn), "a join");
                    let (id, outbox, kick) = conns
                        .entry(conn.clone())
                        .or_insert_with(|| {
                            let (outbox, rx) = crate::outbox::channel(self.app.config.outbound_queue);
                            let kick = CancellationToken::new();
                            outbound.add(Remote { conn, rx, kick: kick.clone(), kicked: false });
                            (self.app.players.next_conn_id(), outbox, kick)
                        })
                        .clone();
                    let session = Arc::new(Session::new(String::new(), player, session, name));
                    TableCmd::Join { conn: Conn { id, session, outbox, kick }, request_id, watch }
                }
                Inbound::Sit { conn, request_id, seat, buy_in } => match local(&conns, &conn) {
                    Some(conn_id) => TableCmd::Sit { conn_id, request_id, seat, buy_in },
                    None => continue,
                },
                Inbound::Act { conn, request_id, hand_id, seq, key, action } => match local(&conns, &conn) {
                    Some(conn_id) => {
                        let act = Act { hand_id, seq, key, action, received: tokio::time::Instant::now() };
                        TableCmd::Act { conn_id, request_id, act: Box::new(act) }
                    }
                    None => continue,
                },
                Inbound::SitOut { conn, request_id, out } => match local(&conns, &conn) {
                    Some(conn_id) => TableCmd::SitOut { conn_id, request_id, out },
                    None => continue,
                },
                Inbound::AutoMuck { conn, request_id, on } => match local(&conns, &conn) {
                    Some(conn_id) => TableCmd::AutoMuck { conn_id, request_id, on },
                    None => continue,
                },
                Inbound::Waitlist { conn, request_id, on } => match local(&conns, &conn) {
                    Some(conn_id) => TableCmd::Waitlist { conn_id, request_id, on },
                    None => continue,
                },
                Inbound::TopUp { conn, request_id, amount } => match local(&conns, &conn) {
                    Some(conn_id) => TableCmd::TopUp { conn_id, request_id, amount },
                    None => continue,
                },
                Inbound::Leave { conn, request_id } => match local(&conns, &conn) {
                    Some(conn_id) => TableCmd::Leave { conn_id, request_id },
                    None => continue,
                },
                Inbound::Resync { conn } => match local(&conns, &conn) {
                    Some(conn_id) => TableCmd::Resync { conn_id },
                    None => continue,
                },
                Inbound::Snapshot { conn, request_id } => match local(&conns, &conn) {
                    Some(conn_id) => TableCmd::Snapshot { conn_id, request_id },
                    None => continue,
                },
                Inbound::Chat { conn, request_id, text } => match local(&conns, &conn) {
                    Some(conn_id) => TableCmd::Chat { conn_id, request_id, text },
                    None => continue,
                },
                Inbound::Disconnect { conn } => match conns.remove(&conn) {
                    Some((conn_id, ..)) => TableCmd::Disconnect { conn_id },
                    None => continue,
                },
                Inbound::Update { spec } => {
                    let (reply, done) = oneshot::channel();
                    self.operator(&handle, TableCmd::Update { spec, reply }, done, m.reply, |()| {
                        OperatorReply::default()
                    });
                    continue;
                }
                Inbound::Pause { paused } => {
                    let (reply, done) = oneshot::channel();
                    self.operator(&handle, TableCmd::Pause { paused, reply }, done, m.reply, |()| {
                        OperatorReply::default()
                    });
                    continue;
                }
                Inbound::Close => {
                    let (reply, done) = oneshot::channel();
                    self.operator(&handle, TableCmd::Close { reply }, done, m.reply, |()| OperatorReply::default());
                    continue;
                }
                Inbound::Kick { player, now } => {
                    let (reply, done) = oneshot::channel();
                    self.operator(&handle, TableCmd::Kick { player, now, reply }, done, m.reply, |here| {
                        OperatorReply { here, ..OperatorReply::default() }
                    });
                    continue;
                }
                Inbound::Status => {
                    let (reply, done) = oneshot::channel();
                    self.operator(&handle, TableCmd::Status { reply }, done, m.reply, |s| OperatorReply {
                        hand: s.hand,
                        hands: s.hands,
                        seats: s.seats,
                        ..OperatorReply::default()
                    });
                    continue;
                }
                Inbound::TournamentSeat { who, seat, chips } => {
                    TableCmd::TournamentSeat { who: Box::new(who), seat, chips }
                }
                Inbound::TournamentChips { who, seat, chips } => {
                    TableCmd::TournamentChips { who: Box::new(who), seat, chips }
                }
                Inbound::TournamentUnseat { player } => TableCmd::TournamentUnseat { player },
                Inbound::Deal { config, level, players, deal } => {
                    TableCmd::Deal { config: Box::new(config), level, players, deal }
                }
                Inbound::TournamentState => {
                    let (reply, done) = oneshot::channel();
                    self.operator(&handle, TableCmd::TournamentState { reply }, done, m.reply, |state| OperatorReply {
                        tournament: Some(state),
                        ..OperatorReply::default()
                    });
                    continue;
                }
            };
            if handle.send(cmd).await.is_err() {
                return;
            }
        }
    }

    /// Sends an operator's command to the table and answers the request when it is done.
    fn operator<T: Send + 'static>(
        &self,
        handle: &TableHandle,
        cmd: TableCmd,
        done: oneshot::Receiver<T>,
        reply: Option<async_nats::Subject>,
        answer: impl FnOnce(T) -> OperatorReply + Send + 'static,
    ) {
        let (handle, client) = (handle.clone(), self.client.clone());
        tokio::spawn(async move {
            if handle.send(cmd).await.is_err() {
                return;
            }
            let Ok(value) = done.await else { return };
            if let Some(reply) = reply
                && let Ok(payload) = serde_json::to_vec(&answer(value))
            {
                let _ = client.publish(reply, Bytes::from(payload)).await;
            }
        });
    }

    /// The table's frames to the gateways, in the order the table made them, while this
    /// worker may still speak for the table (see [`super::outbound`]).
    async fn publish_frames(self: Arc<Self>, table: Uuid, outbound: Arc<Outbound>, stop: CancellationToken) {
        let table_header = table.to_string();
        loop {
            tokio::select! {
                biased;
                () = stop.cancelled() => return,
                () = outbound.ready.notified() => {}
            }
            let messages = outbound.take();
            if !self.live(table) {
                // Maybe another worker's table by now: nothing of it leaves here.
                continue;
            }
            for m in messages {
                let mut headers = async_nats::HeaderMap::new();
                headers.insert(wire::NODE, self.leases.node());
                headers.insert(wire::TABLE, table_header.as_str());
                headers.insert(wire::TO, wire::to_header(&m.conns).as_str());
                if m.kick {
                    headers.insert(wire::KICK, "1");
                }
                let payload = Bytes::copy_from_slice(m.frame.as_bytes());
                if let Err(e) = self.client.publish_with_headers(wire::output(&m.gateway), headers, payload).await {
                    debug!(%table, error = %e, "a frame not published");
                }
            }
        }
    }

    /// Stops every table (nothing is voided: the journal has every input) and gives the
    /// leases back so other workers take the tables at once.
    ///
    /// Bounded, NATS or not: the tables stop together within [`STOP_TABLES`] (a table still
    /// waiting for an append's acknowledgement then is aborted: an input is applied only once
    /// acknowledged, so nothing applied is lost), and the leases are released together within
    /// [`RELEASE_LEASES`] (those not released lapse by their TTL).
    pub(crate) async fn shutdown(&self) {
        use futures_util::StreamExt as _;
        let hosted: Vec<(Uuid, Hosted)> = self.hosted().drain().collect();
        let stops = futures_util::future::join_all(hosted.iter().map(|(_, h)| async move {
            let (reply, done) = oneshot::channel();
            if h.handle.send(TableCmd::Shutdown { reply }).await.is_ok() {
                let _ = done.await;
            }
        }));
        let stopped = tokio::time::timeout(STOP_TABLES, stops).await.is_ok();
        if !stopped {
            warn!("tables did not stop in time; stopping them where they are");
        }
        for (table, h) in hosted {
            h.stop.cancel();
            if !stopped {
                h.task.abort();
            }
            let _ = h.task.await;
            self.journal.release(table);
        }
        // The writes of the last inputs are in the store before another worker rebuilds.
        let _ = tokio::time::timeout(Duration::from_secs(30), self.app.writer.flush()).await;
        let leases: Vec<Lease> = self.held().drain().map(|(_, l)| l).collect();
        let releases = futures_util::stream::iter(leases).for_each_concurrent(64, |lease| async move {
            let _ = self.leases.release(&lease).await;
        });
        if tokio::time::timeout(RELEASE_LEASES, releases).await.is_err() {
            warn!("leases not released in time; they lapse by their TTL");
        }
    }
}

/// How long a stopping worker waits for its tables to stop.
const STOP_TABLES: Duration = Duration::from_secs(10);

/// How long a stopping worker spends giving its leases back.
const RELEASE_LEASES: Duration = Duration::from_secs(5);
/// Publishes `value` as JSON without waiting (the table task never waits for NATS).
fn publish_json(client: &async_nats::Client, subject: &'static str, value: &impl serde::Serialize) {
    let Ok(payload) = serde_json::to_vec(value) else { return };
    let client = client.clone();
    tokio::spawn(async move {
        let _ = client.publish(subject, Bytes::from(payload)).await;
    });
}

/// What a table on a worker uses: the worker's `App` (accounts, journal, writer), with the
/// lobby line and seats published to the gateways.
struct WorkerEnv {
    app: Arc<App>,
    client: async_nats::Client,
    directory: Arc<Mutex<Directory>>,
    outbound: Arc<Outbound>,
}

impl WorkerEnv {
    fn directory(&self) -> std::sync::MutexGuard<'_, Directory> {
        self.directory.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl TableEnv for WorkerEnv {
    fn metrics(&self) -> &crate::metrics::Metrics {
        &self.app.metrics
    }
    /// The balance lives in the shared store, not in this process: the chips are held there
    /// for input `n` (checked against the balance less every other hold, the account's row
    /// locked), and the input's `buy_in`/`top_up` entry settles the hold when the writer
    /// stores it. Another worker's buy-in of the same player therefore sees this one.
    fn withdraw(&self, table: Uuid, n: u64, player: Uuid, chips: Chips) -> BoxFuture<'static, Result<(), Debit>> {
        let store = self.app.store.clone();
        Box::pin(async move {
            match store.hold(table, n, player, chips).await {
                Ok(Ok(())) => Ok(()),
                Ok(Err(available)) => Err(Debit::Short(available)),
                Err(e) => {
                    warn!(%table, error = %e, "cannot hold a buy-in on the account");
                    Err(Debit::Unavailable)
                }
            }
        })
    }
    fn undo_withdraw(&self, table: Uuid, n: u64, _player: Uuid, _chips: Chips) {
        // Left behind if this fails: the next stored writes of the table release it.
        let store = self.app.store.clone();
        tokio::spawn(async move {
            if let Err(e) = store.release_hold(table, n).await {
                warn!(%table, error = %e, "cannot release a hold; the table's next writes will");
            }
        });
    }
    fn deposit(&self, _player: Uuid, _chips: Chips) {
        // A cash-out reaches the balance in the store through the writer (its ledger entry).
    }
    fn is_banned(&self, player: Uuid, table: Uuid) -> bool {
        self.app.access.is_banned(player, Some(table))
    }
    fn set_seated(&self, player: Uuid, table: Uuid, seated: bool) {
        self.app.players.set_seated(player, table, seated);
        {
            let mut dir = self.directory();
            let players = dir.seats.entry(table).or_default();
            if seated {
                players.insert(player);
            } else {
                players.remove(&player);
            }
        }
        publish_json(&self.client, wire::SEATED, &wire::Seated { player, table, seated });
    }
    fn publish(&self, summary: TableSummary) {
        publish_json(&self.client, wire::LOBBY, &summary);
        self.directory().lobby.insert(summary.id, summary);
    }
    fn table_stopped(&self, _table: Uuid) {}
    fn journal(&self, row: JournalRow) -> BoxFuture<'static, Result<(), JournalError>> {
        self.app.journal.append(row)
    }
    fn journal_reset<'a>(
        &'a self,
        table: Uuid,
        n: u64,
        snapshot: &'a str,
    ) -> BoxFuture<'a, Result<(), stud_store::StoreError>> {
        self.app.journal.reset(table, n, snapshot)
    }
    fn store(&self, writes: TableWrites) {
        self.app.store_write(stud_store::Write::Table(Arc::new(writes)));
    }
    fn backlogged(&self) -> bool {
        self.app.writer.backlogged()
    }
    fn sent(&self) {
        self.outbound.collect();
    }
    /// To the gateway directing the tournament (a report lost on the way is taken from the
    /// table again by the tournament's resync: the table keeps its last one).
    fn tournament_hand(&self, tournament: Uuid, table: Uuid, report: stud_table::LastReport) {
        let Ok(payload) = serde_json::to_vec(&wire::TournamentReport { table, report }) else { return };
        let client = self.client.clone();
        tokio::spawn(async move {
            let _ = client.publish(wire::treport(tournament), Bytes::from(payload)).await;
        });
    }
}
