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
    /// The database: sqlite://FILE (default sqlite://stud.db) or postgres://... (also DATABASE_URL).
    #[arg(long)]
    database_url: Option<String>,
}

pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    let mut config = Config::load(args.config.as_deref()).context("loading the configuration")?;
    if let Some(bind) = args.bind {
        config.bind = bind;
    }
    if let Some(n) = args.tables_per_variant {
        config.tables_per_variant = n;
    }
    if let Some(url) = &args.database_url {
        config.database_url.clone_from(url);
    }
    config.validate().context("checking the configuration")?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
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
