//! Running tables on a cluster over NATS JetStream (`stud serve --cluster`): a table journal
//! in a JetStream stream ([`JetStreamJournal`]), table leases in a JetStream KV bucket
//! ([`Leases`]), the pure choice of which tables a worker claims ([`plan`]), the worker that
//! hosts tables ([`worker`]) and the gateway that routes sockets to them ([`gateway`]), over
//! the subjects of [`wire`]. Without cluster settings none of this runs: the single-process
//! server (SQLite or Postgres, no NATS) does not use it.
//!
//! Fencing, in one paragraph: a worker may append to a table's journal only after
//! [`JetStreamJournal::acquire`] with the lease it holds. Acquiring publishes a claim marker
//! on the table's subject, conditioned on the subject's last sequence, and every later append
//! is conditioned on the sequence of the worker's own last message there
//! (`Nats-Expected-Last-Subject-Sequence`). A new owner's claim marker therefore moves the
//! subject on, and the old owner's next append is refused by JetStream itself, however long
//! it was cut off. Every message carries the lease's epoch (the KV revision at which the
//! lease was claimed, which only grows), and a claim with an epoch older than the last one on
//! the subject is refused.

mod gateway;
mod journal;
mod lease;
mod outbound;
pub mod plan;
pub mod wire;
mod worker;

use std::time::Duration;

pub use gateway::Gateway;
pub(crate) use gateway::{refresh_tables, spawn as spawn_gateway};
pub use journal::JetStreamJournal;
pub use lease::{Held, Lease, LeaseError, Leases, spawn_heartbeat};
pub(crate) use worker::Worker;

/// A cluster node's running parts (see `crate::start_node`).
pub(crate) struct Node {
    /// stops the worker loop, the heartbeat and the gateway's listeners
    pub(crate) stop: tokio_util::sync::CancellationToken,
    /// the worker and its `App`, when this node hosts tables
    pub(crate) worker: Option<(std::sync::Arc<Worker>, std::sync::Arc<crate::App>)>,
    /// background tasks
    pub(crate) tasks: Vec<tokio::task::JoinHandle<()>>,
}

/// Where the cluster's JetStream state lives and how it is kept.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// the NATS server(s), e.g. `nats://127.0.0.1:4222` (several: comma separated)
    pub url: String,
    /// the journal stream's name
    pub journal_stream: String,
    /// the journal's subject prefix: a table's entries go to `PREFIX.<table id>`
    pub journal_prefix: String,
    /// the KV bucket of tables' snapshots
    pub snapshot_bucket: String,
    /// the KV bucket of table leases
    pub lease_bucket: String,
    /// JetStream replicas of each stream and bucket (1 on one server, 3 in production)
    pub replicas: usize,
    /// a lease lapses this long after its last renewal
    pub lease_ttl: Duration,
    /// how long a JetStream request (a publish's acknowledgement included) may take
    pub timeout: Duration,
}

impl ClusterConfig {
    /// The defaults for a NATS server at `url`.
    pub fn new(url: impl Into<String>) -> Self {
        ClusterConfig {
            url: url.into(),
            journal_stream: "STUD_JOURNAL".into(),
            journal_prefix: "stud.journal".into(),
            snapshot_bucket: "stud_snapshots".into(),
            lease_bucket: "stud_leases".into(),
            replicas: 1,
            lease_ttl: Duration::from_secs(3),
            timeout: Duration::from_secs(2),
        }
    }
}

/// A cluster operation that did not happen.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// NATS could not be reached, or did not answer in time.
    #[error("NATS is unavailable: {0}")]
    Unavailable(String),
    /// The table's journal is held by another worker (or by nobody here): nothing was written.
    #[error("table {0}: this worker does not hold its journal")]
    Fenced(uuid::Uuid),
    /// A stored value does not decode.
    #[error("stored cluster data does not decode: {0}")]
    Corrupt(String),
}

impl ClusterError {
    fn nats(e: impl std::fmt::Display) -> Self {
        ClusterError::Unavailable(e.to_string())
    }
}

impl From<ClusterError> for stud_store::StoreError {
    fn from(e: ClusterError) -> Self {
        match e {
            ClusterError::Corrupt(s) => stud_store::StoreError::Corrupt(s),
            other => stud_store::StoreError::Db(std::io::Error::other(other.to_string()).into()),
        }
    }
}

/// Connects to NATS with the cluster's timeouts; the client reconnects by itself after.
///
/// # Errors
/// The first connection failed.
pub async fn connect(
    config: &ClusterConfig,
) -> Result<(async_nats::Client, async_nats::jetstream::Context), ClusterError> {
    let client = async_nats::ConnectOptions::new()
        .connection_timeout(config.timeout)
        .request_timeout(Some(config.timeout))
        // Back soon after NATS is: a table refuses its inputs while it is away.
        .reconnect_delay_callback(|attempts| Duration::from_millis((attempts as u64).saturating_mul(100).min(1_000)))
        // Several servers of one NATS cluster: comma separated.
        .connect(config.url.split(',').map(str::trim).filter(|u| !u.is_empty()).collect::<Vec<_>>())
        .await
        .map_err(ClusterError::nats)?;
    let mut js = async_nats::jetstream::new(client.clone());
    js.set_timeout(config.timeout);
    Ok((client, js))
}
