//! The stud server: tokio runtime pieces around the engine.
//!
//! Owns table actors ([`table`]), the lobby and sessions ([`app`]), the WebSocket connection
//! handling ([`ws`]), the HTTP routes ([`http`]), engine-to-wire conversion ([`wire`]), the
//! configuration ([`config`]) and metrics. It holds no game rules: every rule is the engine's.
//! Key decision: one task per table owns all of that table's state; everything else talks to
//! it through a bounded channel, and the table never waits for a client or a store.

pub mod app;
pub mod config;
pub mod http;
pub mod metrics;
pub mod table;
pub mod wire;
pub mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

use stud_engine::Variant;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tracing::info;
use uuid::Uuid;

pub use app::{App, FinishedHand};
pub use config::Config;

use crate::table::{TableCmd, TableSpec, spawn_table};

/// A running server.
pub struct Server {
    /// the address it listens on
    pub addr: SocketAddr,
    /// shared state (tests read balances and metrics from it)
    pub app: Arc<App>,
    shutdown: CancellationToken,
    http: JoinHandle<()>,
    tables: Vec<JoinHandle<()>>,
}

/// Binds, opens the public tables and serves until [`Server::shutdown`].
///
/// # Errors
/// The address cannot be bound.
pub async fn start(config: Config) -> std::io::Result<Server> {
    // The hand sink: the storage layer will consume it; for now finished hands are kept in
    // memory per session (LAST HAND) and the sink is drained.
    let (sink, mut hands) = mpsc::channel::<Arc<FinishedHand>>(4096);
    tokio::spawn(async move { while hands.recv().await.is_some() {} });
    start_with_sink(config, sink).await
}

/// [`start`] with a caller's hand sink.
///
/// # Errors
/// The address cannot be bound.
pub async fn start_with_sink(config: Config, sink: mpsc::Sender<Arc<FinishedHand>>) -> std::io::Result<Server> {
    let listener = tokio::net::TcpListener::bind(config.bind).await?;
    let addr = listener.local_addr()?;
    let app = Arc::new(App::new(config, sink));
    let mut tables = Vec::new();
    for variant in app.config.variants.clone() {
        for k in 1..=app.config.tables_per_variant {
            let spec = TableSpec {
                id: Uuid::new_v4(),
                name: format!("{} {k}", table_name(variant)),
                config: app.config.table_config(variant),
                min_buy_in: app.config.stakes.min_buy_in,
                max_buy_in: app.config.stakes.max_buy_in,
            };
            let (handle, task) = spawn_table(app.clone(), spec.clone());
            app.lobby.add(spec.id, handle, placeholder_summary(&spec));
            tables.push(task);
        }
    }
    let shutdown = CancellationToken::new();
    let router = http::router(app.clone(), shutdown.clone());
    let stop = shutdown.clone();
    let http = tokio::spawn(async move {
        let serve = axum::serve(listener, router).with_graceful_shutdown(async move { stop.cancelled().await });
        if let Err(e) = serve.await {
            tracing::error!(error = %e, "HTTP server stopped");
        }
    });
    info!("listening on http://{addr}");
    Ok(Server { addr, app, shutdown, http, tables })
}

fn table_name(v: Variant) -> &'static str {
    match v {
        Variant::Stud => "Stud",
        Variant::Stud8 => "Stud Hi/Lo",
        Variant::Razz => "Razz",
    }
}

fn placeholder_summary(spec: &TableSpec) -> stud_proto::TableSummary {
    stud_proto::TableSummary {
        id: spec.id,
        name: spec.name.clone(),
        variant: spec.config.variant,
        config: spec.config,
        min_buy_in: spec.min_buy_in,
        max_buy_in: spec.max_buy_in,
        seats_taken: 0,
        players: Vec::new(),
        hands_per_hour: 0.0,
    }
}

impl Server {
    /// Stops accepting, closes sockets, stops every table (cashing everyone out) and waits.
    pub async fn shutdown(self) {
        self.shutdown.cancel();
        for handle in self.app.lobby.handles() {
            let (reply, done) = tokio::sync::oneshot::channel();
            if handle.send(TableCmd::Shutdown { reply }).await.is_ok() {
                let _ = done.await;
            }
        }
        for t in self.tables {
            let _ = t.await;
        }
        let _ = self.http.await;
    }

    /// Waits for the server to stop (it stops on [`Server::shutdown`]).
    pub fn token(&self) -> CancellationToken {
        self.shutdown.clone()
    }
}
