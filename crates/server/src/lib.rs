//! The stud server: tokio runtime pieces around the engine.
//!
//! Owns table actors ([`table`]), the lobby and sessions ([`app`]), the WebSocket connection
//! handling ([`ws`]), the HTTP routes ([`http`]), engine-to-wire conversion ([`wire`]), the
//! configuration ([`config`]) and metrics. It holds no game rules: every rule is the engine's.
//! Key decision: one task per table owns all of that table's state; everything else talks to
//! it through a bounded channel, and the table never waits for a client or a store.

pub mod admin;
pub mod app;
pub mod config;
pub mod history;
pub mod http;
pub mod limits;
pub mod metrics;
pub mod table;
pub mod web;
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

use stud_store::{LedgerEntry, LedgerKind, Store, StoreError, Write, Writer, writer::WriterConfig};

use crate::table::{TableCmd, TableSpec};

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
}

/// Opens the store, recovers chips left on tables by a crash, opens the tables (those stored,
/// plus enough public ones to have `tables_per_variant` of each variant), binds and serves
/// until [`Server::shutdown`].
///
/// # Errors
/// [`StartError`]: the store cannot be opened or the address bound.
pub async fn start(config: Config) -> Result<Server, StartError> {
    let store = stud_store::open(&config.database_url).await?;
    start_with_store(config, store).await
}

/// [`start`] on a store the caller opened.
///
/// # Errors
/// [`StartError`].
pub async fn start_with_store(config: Config, store: Arc<dyn Store>) -> Result<Server, StartError> {
    recover(store.as_ref()).await?;
    let specs = open_tables(&config, store.as_ref()).await?;
    let listener = tokio::net::TcpListener::bind(config.bind).await?;
    let addr = listener.local_addr()?;
    let (writer, writer_task) = Writer::spawn(
        store.clone(),
        WriterConfig { max_batch: config.store_batch, backlog_limit: config.store_backlog },
    );
    let bans = store.bans().await?;
    let app = Arc::new(App::new(config, store, writer));
    app.load_bans(&bans);
    let mut tables = Vec::new();
    for spec in specs {
        tables.push(app.open_table(spec));
    }
    let shutdown = CancellationToken::new();
    let router = http::router(app.clone(), shutdown.clone());
    let stop = shutdown.clone();
    let http = tokio::spawn(async move {
        let serve = axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>())
            .with_graceful_shutdown(async move { stop.cancelled().await });
        if let Err(e) = serve.await {
            tracing::error!(error = %e, "HTTP server stopped");
        }
    });
    info!("listening on http://{addr}");
    Ok(Server { addr, app, shutdown, http, tables, writer_task })
}

/// After a crash: the hand that was being played was never stored, so the stacks the ledger
/// holds are those from before it. Every one of them is cashed out to its player's account,
/// in one transaction, before anything else happens. (A clean shutdown cashes everyone out
/// itself, so this finds nothing.)
async fn recover(store: &dyn Store) -> Result<(), StoreError> {
    let open = store.open_stacks().await?;
    if open.is_empty() {
        return Ok(());
    }
    let at_ms = stud_store::now_ms();
    let total: u64 = open.iter().map(|o| o.stack).sum();
    let writes: Vec<Write> = open
        .iter()
        .map(|o| {
            Write::Ledger(LedgerEntry {
                player_id: o.player_id,
                table_id: Some(o.table_id),
                kind: LedgerKind::CashOut,
                amount: o.stack,
                at_ms,
            })
        })
        .collect();
    store.write_batch(&writes).await?;
    tracing::warn!(stacks = open.len(), chips = total, "recovered chips left on tables by an unclean stop");
    Ok(())
}

/// The stored tables that are not closed, plus new public tables up to `tables_per_variant`
/// of each configured variant (stored before they open).
async fn open_tables(config: &Config, store: &dyn Store) -> Result<Vec<TableSpec>, StoreError> {
    let stored = store.tables().await?;
    let mut specs = Vec::new();
    for t in stored.iter().filter(|t| !t.closed) {
        let hands_before = store.last_hand_number(t.id).await?.unwrap_or(0);
        specs.push(TableSpec { hands_before, ..TableSpec::from_stored(t, config) });
    }
    for variant in config.variants.clone() {
        let have = specs.iter().filter(|s| s.config.variant == variant && !s.private).count();
        for k in have + 1..=config.tables_per_variant {
            let spec = TableSpec::public(
                Uuid::new_v4(),
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

fn table_name(v: Variant) -> &'static str {
    match v {
        Variant::Stud => "Stud",
        Variant::Stud8 => "Stud Hi/Lo",
        Variant::Razz => "Razz",
    }
}

/// The lobby line of a table that has not reported yet.
pub fn placeholder_summary(spec: &TableSpec) -> stud_proto::TableSummary {
    stud_proto::TableSummary {
        id: spec.id,
        name: spec.name.clone(),
        variant: spec.config.variant,
        config: spec.config,
        min_buy_in: spec.min_buy_in,
        max_buy_in: spec.max_buy_in,
        seats_taken: 0,
        seats: spec.seats,
        paused: spec.paused,
        private: spec.private,
        players: Vec::new(),
        hands_per_hour: 0.0,
    }
}

impl Server {
    /// Stops accepting, closes sockets, stops every table (cashing everyone out) and waits.
    pub async fn shutdown(self) {
        self.shutdown.cancel();
        // No table opens from here on (an operator's create waits for the lock, then refuses).
        let admin = self.app.admin_lock.lock().await;
        self.app.begin_shutdown();
        drop(admin);
        for handle in self.app.lobby.handles() {
            let (reply, done) = tokio::sync::oneshot::channel();
            if handle.send(TableCmd::Shutdown { reply }).await.is_ok() {
                let _ = done.await;
            }
        }
        let opened: Vec<JoinHandle<()>> =
            std::mem::take(&mut *self.app.tasks.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        for t in self.tables.into_iter().chain(opened) {
            let _ = t.await;
        }
        let _ = self.http.await;
        // Every table has cashed out; store it all before returning.
        let backlog = self.app.writer.stats().backlog.load(std::sync::atomic::Ordering::Relaxed);
        match tokio::time::timeout(SHUTDOWN_FLUSH, self.app.writer.flush()).await {
            Ok(true) => info!("store flushed"),
            _ => tracing::error!(
                backlog,
                "the store did not take every write before shutdown; the ledger recovers at the next start"
            ),
        }
        self.writer_task.abort();
    }

    /// Waits for the server to stop (it stops on [`Server::shutdown`]).
    pub fn token(&self) -> CancellationToken {
        self.shutdown.clone()
    }
}
