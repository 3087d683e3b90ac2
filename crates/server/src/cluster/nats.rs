//! The cluster's connection to NATS and what every part of it shares: where its JetStream state
//! lives ([`ClusterConfig`]), how an operation fails ([`ClusterError`]), connecting, and
//! opening a KV bucket.

use std::time::Duration;

use async_nats::jetstream::{self, kv};

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
    pub(super) fn nats(e: impl std::fmt::Display) -> Self {
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

/// The bucket if it exists, else a new one with `config`.
pub(super) async fn open_bucket(js: &jetstream::Context, config: kv::Config) -> Result<kv::Store, ClusterError> {
    match js.get_key_value(config.bucket.as_str()).await {
        Ok(store) => Ok(store),
        Err(_) => js.create_key_value(config).await.map_err(ClusterError::nats),
    }
}
