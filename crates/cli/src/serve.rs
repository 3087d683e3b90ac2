//! `stud serve`: the server, until Ctrl-C or SIGTERM.

use anyhow::Context as _;
use clap::Args;
use stud_server::Config;

#[derive(Args, Default)]
pub struct ServeArgs {
    /// Address to listen on (also STUD_BIND); port 0 picks a free port.
    #[arg(long)]
    bind: Option<std::net::SocketAddr>,
    /// A TOML config file (also STUD_CONFIG).
    #[arg(long)]
    config: Option<String>,
    /// Public tables per variant (also STUD_TABLES_PER_VARIANT).
    #[arg(long)]
    tables_per_variant: Option<usize>,
    /// Do not open the house sit-and-go at the first start (also STUD_HOUSE_SIT_AND_GO=false).
    #[arg(long)]
    no_house_sit_and_go: bool,
    /// The database: sqlite://FILE (default sqlite://stud.db) or postgres://... (also DATABASE_URL).
    #[arg(long)]
    database_url: Option<String>,
    /// Run as a node of a cluster: its NATS server, nats://HOST:PORT (also STUD_CLUSTER).
    #[arg(long)]
    cluster: Option<String>,
    /// The node's part in the cluster: gateway, worker or all (also STUD_ROLE; default all).
    #[arg(long)]
    role: Option<stud_server::config::Role>,
    /// The node's name in the cluster (also STUD_NODE).
    #[arg(long)]
    node: Option<String>,
}

pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    let mut config = Config::load(args.config.as_deref()).context("loading the configuration")?;
    if let Some(bind) = args.bind {
        config.bind = bind;
    }
    if let Some(n) = args.tables_per_variant {
        config.tables_per_variant = n;
    }
    if args.no_house_sit_and_go {
        config.house_sit_and_go = false;
    }
    if let Some(url) = &args.database_url {
        config.database_url.clone_from(url);
    }
    if let Some(url) = &args.cluster {
        config.cluster = Some(url.clone());
    }
    if let Some(role) = args.role {
        config.role = Some(role);
    }
    if let Some(node) = &args.node {
        config.node = Some(node.clone());
    }
    config.validate().context("checking the configuration")?;
    raise_open_file_limit();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_park(crate::allocator::collect_when_idle)
        .build()
        .context("starting the runtime")?;
    runtime.block_on(async move {
        let server = stud_server::start(config).await.context("starting the server")?;
        wait_for_signal().await;
        tracing::info!("shutting down: finishing up and cashing everyone out");
        server.shutdown().await;
        anyhow::Ok(())
    })
}

async fn wait_for_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => {
                let _ = ctrl_c.await;
                return;
            }
        };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}

/// Every player holds a socket, and the soft open-file limit is often 1,024 (the hard one is
/// usually far higher): raise the soft one to the hard one, so the per-address caps, not the
/// process's descriptors, are what a crowd from one place meets. Under systemd set
/// `LimitNOFILE=` (README "Running in production").
fn raise_open_file_limit() {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::info!(limit, "open files allowed"),
        Err(e) => tracing::warn!(error = %e, "could not raise the open-file limit"),
    }
}
