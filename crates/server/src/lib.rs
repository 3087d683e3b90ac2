//! The stud server: tokio runtime pieces around the engine.
//!
//! Owns table actors ([`table`]), the shared state ([`app`]: its parts [`bank`], [`lobby`],
//! [`session`], [`players`], [`access`]), the WebSocket connection handling ([`ws`]), the HTTP
//! routes ([`http`]), engine-to-wire conversion ([`wire`]), the configuration ([`config`]),
//! metrics and the cluster ([`cluster`]). It holds no game rules: every rule is the engine's.
//! Key decision: one task per table owns all of that table's state; everything else talks to
//! it through a bounded channel, and the table never waits for a client or a store. The
//! modules are in layers (`tests/layers.rs`); this file is the composition root: it starts and
//! stops the parts, and nothing imports it.

pub mod access;
pub mod app;
pub mod auth;
pub mod bank;
pub mod cluster;
pub mod config;
pub mod http;
pub mod journal;
pub mod limits;
pub mod lobby;
pub mod metrics;
pub mod outbox;
pub mod players;
mod resume;
pub mod session;
pub mod table;
pub mod tournament;
pub mod wire;
pub mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

use stud_engine::Variant;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tracing::info;
use uuid::Uuid;

pub use app::App;
pub use config::Config;
pub use stud_store::StoredHand;

use std::collections::{HashMap, HashSet};

use stud_store::{Store, StoreError, TableJournal, Writer, writer::WriterConfig};

use crate::journal::StoreJournal;
use crate::table::{SpecExt, Start, TableCmd, TableSpec};

/// How long shutdown waits for the store to take the last writes.
const SHUTDOWN_FLUSH: std::time::Duration = std::time::Duration::from_secs(30);

/// A running server.
pub struct Server {
    /// the address it listens on
    pub addr: SocketAddr,
    /// shared state (tests read balances and metrics from it)
    pub app: Arc<App>,
    shutdown: CancellationToken,
    http: JoinHandle<()>,
    tables: Vec<JoinHandle<()>>,
    writer_task: JoinHandle<()>,
    journal_task: JoinHandle<()>,
    /// a cluster node's parts (`None`: the single process)
    cluster: Option<cluster::Node>,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The address cannot be bound.
    #[error("cannot listen: {0}")]
    Io(#[from] std::io::Error),
    /// The database cannot be opened, migrated or recovered.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The JWT keys the configuration names cannot be used (a JWKS file unreadable or
    /// without an RS256/ES256 key).
    #[error("{0}")]
    Jwt(String),
    /// The cluster's NATS cannot be reached or refused its streams and buckets.
    #[error("cluster: {0}")]
    Cluster(#[from] cluster::ClusterError),
    /// The journal's directory cannot be created or written.
    #[error("table journal: {0}")]
    Journal(String),
}

/// Opens the store, recovers chips left on tables by a crash, opens the tables (those stored,
/// plus enough public ones to have `tables_per_variant` of each variant), binds and serves
/// until [`Server::shutdown`].
///
/// # Errors
/// [`StartError`]: the store cannot be opened or the address bound.
pub async fn start(config: Config) -> Result<Server, StartError> {
    // The tables' replays evaluate hands: the evaluator's tables are built meanwhile.
    std::thread::spawn(stud_engine::eval::prepare);
    let store = stud_store::open_with(&config.database_url, config.pool_settings()).await?;
    match config.cluster_role() {
        None => start_with_store(config, store).await,
        Some(role) => start_node(config, role, store).await,
    }
}

/// A cluster node (`--cluster`): a gateway (HTTP and WebSockets; tables on workers), a worker
/// (tables claimed through leases), or both. Nothing is recovered or rebuilt here at start:
/// a worker rebuilds each table when it claims it.
///
/// # Errors
/// [`StartError`]: the store, NATS, or the address.
pub async fn start_node(config: Config, role: config::Role, store: Arc<dyn Store>) -> Result<Server, StartError> {
    let jwt = match role.gateway() {
        true => auth::jwt::Verifier::from_config(&config).map_err(StartError::Jwt)?,
        false => None,
    };
    let url = config.cluster.clone().unwrap_or_default();
    let node_name = config.node.clone().unwrap_or_default();
    let mut cc = cluster::ClusterConfig::new(url);
    cc.replicas = config.cluster_replicas;
    cc.node.clone_from(&node_name);
    cc.auth = cluster::NatsAuth {
        creds_file: config.nats_creds.clone().map(Into::into),
        nkey_seed_file: config.nats_nkey_file.clone().map(Into::into),
        tls_ca: config.nats_tls_ca.clone().map(Into::into),
        tls_client: config.nats_tls_cert.clone().zip(config.nats_tls_key.clone()).map(|(c, k)| (c.into(), k.into())),
    };
    let (client, js) = cluster::connect(&cc).await?;
    let stop = CancellationToken::new();
    let mut node = cluster::Node { stop: stop.clone(), worker: None, tasks: Vec::new() };
    let health = cluster::Health::new();
    node.tasks.push(cluster::spawn_probe(client.clone(), &node_name, health.clone(), stop.clone()));
    let writer_config = WriterConfig { max_batch: config.store_batch, backlog_limit: config.store_backlog };
    let mut worker_parts = None;
    if role.worker() {
        let (writer, writer_task) = Writer::spawn(store.clone(), writer_config);
        let journal = cluster::JetStreamJournal::open(client.clone(), js.clone(), &cc, None).await?;
        // A worker serves no HTTP: no JWTs.
        let app = Arc::new(App::new(config.clone(), store.clone(), writer, Arc::new(journal.clone()), None));
        app.access.load_bans(&store.bans().await?);
        let leases = cluster::Leases::open(&js, &cc, &node_name).await?;
        let held = cluster::Held::default();
        let (lost_tx, lost_rx) = tokio::sync::mpsc::unbounded_channel();
        node.tasks.push(cluster::spawn_heartbeat(leases.clone(), held.clone(), lost_tx, stop.clone()));
        let worker = cluster::Worker::new(app.clone(), client.clone(), journal, leases, held);
        node.tasks.push(tokio::spawn(worker.clone().run(lost_rx, stop.clone())));
        node.worker = Some((worker, app.clone()));
        info!(node = %node_name, "worker running");
        worker_parts = Some((app, writer_task));
    }
    if !role.gateway() {
        let Some((app, writer_task)) = worker_parts else {
            return Err(StartError::Cluster(cluster::ClusterError::Unavailable("no role".into())));
        };
        let http = tokio::spawn(async {});
        let journal_task = tokio::spawn(async {});
        return Ok(Server {
            addr: app.config.bind,
            app,
            shutdown: stop,
            http,
            tables: Vec::new(),
            writer_task,
            journal_task,
            cluster: Some(node),
        });
    }
    if let Some((_, writer_task)) = worker_parts {
        node.tasks.push(writer_task);
    }
    // The gateway: the public tables are made (stored) here; workers host them.
    let stored = store.tables().await?;
    open_tables(&config, store.as_ref(), &stored, &HashMap::new()).await?;
    let (writer, writer_task) = Writer::spawn(store.clone(), writer_config);
    let (journal, journal_task) = StoreJournal::spawn(store.clone(), std::time::Duration::ZERO);
    let bans = store.bans().await?;
    let app = Arc::new(App::new(config, store, writer, journal, jwt));
    app.access.load_bans(&bans);
    app.players.number_conns_from(cluster::first_conn_id(stud_store::now_ms()));
    let gw = cluster::Gateway::new(client.clone(), health, node_name.clone(), cc.timeout);
    let _ = app.gateway.set(gw.clone());
    // Tournaments: each directed by the gateway holding its lease (cluster::Director).
    let mut tc = cc.clone();
    tc.lease_bucket = format!("{}_tournaments", cc.lease_bucket);
    let tournament_leases = cluster::Leases::open(&js, &tc, &node_name).await?;
    let tournament_held = cluster::Held::default();
    let (lost_tx, lost_rx) = tokio::sync::mpsc::unbounded_channel();
    node.tasks.push(cluster::spawn_heartbeat(
        tournament_leases.clone(),
        tournament_held.clone(),
        lost_tx,
        stop.clone(),
    ));
    let director = cluster::Director::new(app.clone(), client.clone(), tournament_leases, tournament_held, cc.timeout);
    let _ = app.director.set(director.clone() as Arc<dyn tournament::Directing>);
    node.tasks.push(tokio::spawn(director.run(lost_rx, stop.clone())));
    cluster::refresh_tables(&app, &gw).await;
    node.tasks.extend(
        cluster::spawn_gateway(app.clone(), gw, stop.clone())
            .await
            .map_err(|e| cluster::ClusterError::Unavailable(e.to_string()))?,
    );
    let listener = listen(app.config.bind)?;
    let addr = listener.local_addr()?;
    let shutdown = CancellationToken::new();
    let router = http::router(app.clone(), shutdown.clone());
    tokio::spawn(app::sweep_sessions(app.clone(), shutdown.clone()));
    let http = tokio::spawn(http::serve(listener, app.clone(), router, shutdown.clone()));
    info!(node = %node_name, "gateway listening on http://{addr}");
    info!("listening on http://{addr}");
    Ok(Server { addr, app, shutdown, http, tables: Vec::new(), writer_task, journal_task, cluster: Some(node) })
}

/// The tables' journal where the config puts it ([`Config::journal_place`]).
fn open_journal(
    config: &Config,
    store: &Arc<dyn Store>,
) -> Result<(Arc<dyn journal::Journal>, JoinHandle<()>), StartError> {
    Ok(match config.journal_place() {
        config::JournalPlace::Database => {
            let (journal, task) = StoreJournal::spawn(store.clone(), std::time::Duration::ZERO);
            (journal, task)
        }
        config::JournalPlace::Files(dir) => {
            let (journal, task) = journal::file::FileJournal::open(&dir, store.clone())
                .map_err(|e| StartError::Journal(format!("{}: {e}", dir.display())))?;
            info!(dir = %dir.display(), "table journal in segment files");
            (journal, task)
        }
    })
}

/// [`start`] on a store the caller opened.
///
/// # Errors
/// [`StartError`].
pub async fn start_with_store(config: Config, store: Arc<dyn Store>) -> Result<Server, StartError> {
    let jwt = auth::jwt::Verifier::from_config(&config).map_err(StartError::Jwt)?;
    let rebuild_started = std::time::Instant::now();
    let (journal, journal_task) = open_journal(&config, &store)?;
    let stored = store.tables().await?;
    let open: HashSet<Uuid> = stored.iter().filter(|t| !t.closed).map(|t| t.id).collect();
    // Closed by an operator while a hand was in play, and stopped (a crash, SIGTERM) before
    // it ended: chips are still on the table. It resumes like any table, finishes its hand
    // and then closes (a close is an input like any other), rather than voiding the hand.
    let closing: HashSet<Uuid> = store.closing_tables().await?.into_iter().collect();
    let journals: HashMap<Uuid, TableJournal> = journal
        .load()
        .await?
        .into_iter()
        .filter(|j| j.snapshot.is_some() && (open.contains(&j.table_id) || closing.contains(&j.table_id)))
        .map(|j| (j.table_id, j))
        .collect();
    let read_ms = elapsed_ms(rebuild_started);
    let stored_tournaments = store.tournaments().await?;
    let tournament_ids: HashSet<Uuid> = stored_tournaments.iter().map(|t| t.id).collect();
    recover(store.as_ref(), &journals, &tournament_ids).await?;
    let specs = open_tables(&config, store.as_ref(), &stored, &journals).await?;
    let (writer, writer_task) = Writer::spawn(
        store.clone(),
        WriterConfig { max_batch: config.store_batch, backlog_limit: config.store_backlog },
    );
    let bans = store.bans().await?;
    let app = Arc::new(App::new(config, store, writer, journal, jwt));
    app.access.load_bans(&bans);
    let mut tables = Vec::new();
    let (mut resumed, mut voided) = (0usize, 0usize);
    let replay_started = std::time::Instant::now();
    for spec in specs {
        // Who may come in follows the stored spec: a journal's table may not have applied an
        // operator's change yet (it waits for the hand in play to end).
        app.access.set_table(&spec);
        let Some(journal) = journals.get(&spec.id) else {
            // Its journal starts before anyone can connect.
            let core = stud_table::TableCore::new(app.timing(), spec, stud_store::now_ms());
            app.journal.reset(core.spec().id, core.applied(), &core.snapshot()).await?;
            tables.push(app.open_core(core, Start::Started));
            continue;
        };
        match resume::rebuild(&app, journal) {
            Ok(core) => {
                resumed += 1;
                tables.push(app.open_core(core, Start::Resumed));
            }
            Err(e) => {
                voided += 1;
                let core = resume::void(&app, spec, journal, &e).await?;
                app.journal.reset(core.spec().id, core.applied(), &core.snapshot()).await?;
                tables.push(app.open_core(core, Start::Started));
            }
        }
    }
    let shutdown = CancellationToken::new();
    for t in stored.iter().filter(|t| closing.contains(&t.id)) {
        let Some(journal) = journals.get(&t.id) else { continue };
        let core = match resume::rebuild(&app, journal) {
            Ok(core) => core,
            Err(e) => {
                voided += 1;
                let core = resume::void(&app, TableSpec::from_stored(t, &app.config), journal, &e).await?;
                app.journal.reset(core.spec().id, core.applied(), &core.snapshot()).await?;
                core
            }
        };
        resumed += 1;
        let (handle, task) = app.spawn_table(core, Start::Resumed);
        tables.push(task);
        let (reply, done) = tokio::sync::oneshot::channel();
        let table_id = t.id;
        if handle.send(TableCmd::Close { reply }).await.is_ok() {
            info!(table = %table_id, "a table closed mid-hand resumes to finish its hand, then closes");
            // The handle lives until the table closed: a table whose handles are all dropped
            // stops (this one is in no lobby).
            let stop = shutdown.clone();
            tokio::spawn(async move {
                tokio::select! {
                    closed = done => if closed.is_ok() {
                        info!(table = %table_id, "closed after its last hand");
                    },
                    // The server stops first: so does the table (it is in no lobby), and the
                    // next start resumes it again.
                    () = stop.cancelled() => {
                        let (reply, stopped) = tokio::sync::oneshot::channel();
                        if handle.send(TableCmd::Shutdown { reply }).await.is_ok() {
                            let _ = stopped.await;
                        }
                    }
                }
            });
        }
    }
    let replay_ms = elapsed_ms(replay_started);
    // What the replays wrote again (inputs whose writes had not reached the database) is
    // stored before anyone can connect, so balances read from the store are current.
    let flush_started = std::time::Instant::now();
    if !app.writer.flush().await {
        tracing::error!("the store writer stopped while tables were resuming");
    }
    // Where a restart's time goes: reading the stored tables and journals, replaying them
    // (and whatever else precedes the listener), writing again what the replays wrote.
    info!(
        resumed,
        voided,
        ms = elapsed_ms(rebuild_started),
        read_ms,
        replay_ms,
        flush_ms = elapsed_ms(flush_started),
        "tables rebuilt from their journals"
    );
    for stored in &stored_tournaments {
        match tournament::rebuild(stored) {
            Ok(core) => tables.push(tournament::actor::open(&app, core)),
            // Left as stored (its entry fees stay with it) for an operator to look at.
            Err(e) => tracing::error!(tournament_id = %stored.id, error = %e, "a tournament could not be rebuilt"),
        }
    }
    // A repeating tournament that started (or was cancelled) just before a stop whose next
    // one was not scheduled yet: it is now (its id is derived, so none is scheduled twice).
    for handle in app.tournaments.handles() {
        tournament::actor::schedule_next(app.clone(), handle.now()).await;
    }
    if app.config.house_sit_and_go {
        tournament::actor::open_house_sit_and_go(&app, &tournament_ids).await;
    }
    // Before anyone can connect: the resumed tables' players reconnect all at once, and each
    // `hello` would read its session and balance from the store.
    let warm_started = std::time::Instant::now();
    match app.warm_sessions(true).await {
        Ok(sessions) => info!(sessions, ms = elapsed_ms(warm_started), "sessions of seated players read ahead"),
        Err(e) => tracing::warn!(error = %e, "the seated players' sessions were not read ahead"),
    }
    // Bound only now: while the tables rebuild, clients that come back get a refusal at once
    // and retry, instead of filling an accept queue nobody drains (the kernel then drops their
    // SYNs, and they wait out TCP's retransmission timeouts: 1, 3, 7 s...).
    let listener = listen(app.config.bind)?;
    let addr = listener.local_addr()?;
    let router = http::router(app.clone(), shutdown.clone());
    tokio::spawn(app::sweep_sessions(app.clone(), shutdown.clone()));
    let http = tokio::spawn(http::serve(listener, app.clone(), router, shutdown.clone()));
    info!("listening on http://{addr}");
    Ok(Server { addr, app, shutdown, http, tables, writer_task, journal_task, cluster: None })
}

/// Milliseconds since `at`, for the start's log lines.
fn elapsed_ms(at: std::time::Instant) -> u64 {
    u64::try_from(at.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// How many connections may wait to be accepted: after a restart every player of every table
/// reconnects at once (the kernel caps this at `net.core.somaxconn`).
const ACCEPT_BACKLOG: u32 = 8_192;

/// A listening socket on `addr` with room for a reconnect storm in its accept queue.
fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = match addr {
        SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    // A restarted server takes its port back at once, as `TcpListener::bind` does.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(ACCEPT_BACKLOG)
}

/// Tables without a journal to resume from (a database from before journals, or a table
/// closed while a write was pending): the stacks the ledger holds there are cashed out to
/// their players' accounts, in one transaction, before anything else happens. Tables that
/// resume keep their stacks.
async fn recover(
    store: &dyn Store,
    resuming: &HashMap<Uuid, TableJournal>,
    tournaments: &HashSet<Uuid>,
) -> Result<(), StoreError> {
    // What tournaments hold (entry fees) stays with them: they resume.
    let open: Vec<_> = store
        .open_stacks()
        .await?
        .into_iter()
        .filter(|o| !resuming.contains_key(&o.table_id) && !tournaments.contains(&o.table_id))
        .collect();
    if open.is_empty() {
        return Ok(());
    }
    let at_ms = stud_store::now_ms();
    let total: u64 = open.iter().map(|o| o.stack).sum();
    let writes = resume::cash_outs(&open, at_ms);
    store.write_batch(&writes).await?;
    tracing::warn!(stacks = open.len(), chips = total, "cashed out chips left on tables that have no journal");
    Ok(())
}

/// The stored tables that are not closed, plus new public tables up to `tables_per_variant`
/// of each configured variant (stored before they open).
async fn open_tables(
    config: &Config,
    store: &dyn Store,
    stored: &[stud_store::StoredTable],
    journals: &HashMap<Uuid, TableJournal>,
) -> Result<Vec<TableSpec>, StoreError> {
    let mut specs = Vec::new();
    for t in stored.iter().filter(|t| !t.closed) {
        // A resumed table's own snapshot knows its hand count; a new one asks the store.
        let hands_before = match journals.contains_key(&t.id) {
            true => 0,
            false => store.last_hand_number(t.id).await?.unwrap_or(0),
        };
        specs.push(TableSpec { hands_before, ..TableSpec::from_stored(t, config) });
    }
    let known: HashSet<Uuid> = stored.iter().map(|t| t.id).collect();
    // Every public table ever made (closed ones too), by variant.
    let public: Vec<Variant> = stored
        .iter()
        .map(|t| TableSpec::from_stored(t, config))
        .filter(|s| !s.private)
        .map(|s| s.config.variant)
        .collect();
    for variant in config.variants.clone() {
        let have = specs.iter().filter(|s| s.config.variant == variant && !s.private).count();
        // New ones are numbered after every public table of the variant, with ids that follow
        // from the variant and the number, so two gateways starting at once on one database
        // store the same tables, not twice as many.
        let made = public.iter().filter(|v| **v == variant).count();
        let numbers = (made + 1..).filter(|k| !known.contains(&public_table_id(variant, *k)));
        for k in numbers.take(config.tables_per_variant.saturating_sub(have)) {
            let spec = TableSpec::public_with(
                public_table_id(variant, k),
                format!("{} {k}", table_name(variant)),
                config.table_config(variant),
                (config.stakes.min_buy_in, config.stakes.max_buy_in),
                config,
            );
            store.save_table(&spec.stored(stud_store::now_ms(), false)).await?;
            specs.push(spec);
        }
    }
    Ok(specs)
}

/// The id of the `k`th public table of a variant that a server makes by itself (a UUID of
/// version 8: never one of the random ids operators' tables get).
fn public_table_id(v: Variant, k: usize) -> Uuid {
    let mut bytes = [0u8; 16];
    bytes[..4].copy_from_slice(b"stud");
    bytes[7] = match v {
        Variant::Stud => 1,
        Variant::Stud8 => 2,
        Variant::Razz => 3,
        Variant::London => 4,
        Variant::Stud8Declare => 5,
        Variant::Chicago => 6,
        Variant::Mississippi => 7,
    };
    bytes[8..].copy_from_slice(&(k as u64).to_be_bytes());
    uuid::Builder::from_custom_bytes(bytes).into_uuid()
}

fn table_name(v: Variant) -> &'static str {
    match v {
        Variant::Stud => "Stud",
        Variant::Stud8 => "Stud Hi/Lo",
        Variant::Razz => "Razz",
        Variant::London => "London Lowball",
        Variant::Stud8Declare => "Stud Hi/Lo Declare",
        Variant::Chicago => "Chicago",
        Variant::Mississippi => "Mississippi",
    }
}

impl Server {
    /// Stops accepting, closes sockets, stops every table and waits. Nothing is voided and
    /// nobody is cashed out: every input a table applied is in its journal, and the next
    /// start resumes each table (the hand in progress included) from there.
    pub async fn shutdown(self) {
        if let Some(node) = &self.cluster {
            // A worker's tables stop and their leases go back first: other workers take them.
            node.stop.cancel();
            if let Some((worker, _)) = &node.worker {
                worker.shutdown().await;
            }
        }
        self.shutdown.cancel();
        // No table opens from here on (an operator's create waits for the lock, then refuses).
        let admin = self.app.admin_lock.lock().await;
        self.app.begin_shutdown();
        drop(admin);
        for handle in self.app.tournaments.handles() {
            handle.shutdown().await;
        }
        for handle in self.app.lobby.handles() {
            let (reply, done) = tokio::sync::oneshot::channel();
            if handle.send(TableCmd::Shutdown { reply }).await.is_ok() {
                let _ = done.await;
            }
        }
        for t in self.tables {
            let _ = t.await;
        }
        self.app.tasks.close();
        self.app.tasks.wait().await;
        let _ = self.http.await;
        // Store the writes the tables queued (hands, ledger, snapshots) before returning.
        let backlog = self.app.writer.stats().backlog.load(std::sync::atomic::Ordering::Relaxed);
        match tokio::time::timeout(SHUTDOWN_FLUSH, self.app.writer.flush()).await {
            Ok(true) => info!("store flushed"),
            _ => tracing::error!(
                backlog,
                "the store did not take every write before shutdown; the journals replay them at the next start"
            ),
        }
        self.writer_task.abort();
        self.journal_task.abort();
        if let Some(node) = self.cluster {
            for t in node.tasks {
                t.abort();
            }
        }
    }

    /// The tables this process hosts as a cluster's worker (none otherwise).
    pub fn hosted_tables(&self) -> Vec<Uuid> {
        self.cluster.as_ref().and_then(|n| n.worker.as_ref()).map(|(w, _)| w.tables()).unwrap_or_default()
    }

    /// Waits for the server to stop (it stops on [`Server::shutdown`]).
    pub fn token(&self) -> CancellationToken {
        self.shutdown.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two gateways start at once on an empty database: both read no table, both store the
    /// public tables; there are still exactly `tables_per_variant` of each variant. A closed
    /// public table is not reopened: a new one is numbered after it.
    #[tokio::test]
    async fn public_tables_made_twice_at_once_are_stored_once() {
        let store = stud_store::open("sqlite::memory:").await.unwrap();
        let config = Config { tables_per_variant: 2, ..Config::default() };
        let empty = store.tables().await.unwrap();
        let first = open_tables(&config, store.as_ref(), &empty, &HashMap::new()).await.unwrap();
        let second = open_tables(&config, store.as_ref(), &empty, &HashMap::new()).await.unwrap();
        let ids = |specs: &[TableSpec]| specs.iter().map(|s| s.id).collect::<HashSet<_>>();
        assert_eq!(ids(&first), ids(&second));
        let stored = store.tables().await.unwrap();
        assert_eq!(stored.len(), 6, "{:?}", stored.iter().map(|t| &t.name).collect::<Vec<_>>());
        // An operator closes "Stud 1": the next start makes "Stud 3", and "Stud 1" stays closed.
        let mut closed = stored.iter().find(|t| t.name == "Stud 1").unwrap().clone();
        closed.closed = true;
        store.save_table(&closed).await.unwrap();
        let now = store.tables().await.unwrap();
        let specs = open_tables(&config, store.as_ref(), &now, &HashMap::new()).await.unwrap();
        assert!(specs.iter().all(|s| s.id != closed.id));
        assert!(specs.iter().any(|s| s.name == "Stud 3"), "{:?}", specs.iter().map(|s| &s.name).collect::<Vec<_>>());
        let after = store.tables().await.unwrap();
        assert_eq!(after.len(), 7);
        assert!(after.iter().find(|t| t.id == closed.id).unwrap().closed, "a closed table stays closed");
    }
}
