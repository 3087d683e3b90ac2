//! Table leases: a KV bucket (`ClusterConfig::lease_bucket`) with one key per table whose
//! value is the owning worker's node name. The bucket's `max_age` is the lease TTL and it keeps
//! one revision per key, so a lease that is not renewed disappears TTL after its last renewal
//! and the table is free to claim again.
//!
//! Every write is conditional on the key's revision: claiming creates the key (refused when
//! it exists), renewing updates it from the revision the holder last wrote (refused when the
//! lease lapsed or changed hands), releasing deletes it at that revision. The revision at which
//! a lease was claimed is its epoch: it only grows, and the journal fences with it
//! ([`super::JetStreamJournal::acquire`]).

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use async_nats::jetstream::kv;
use async_nats::jetstream::{self, stream::StorageType};
use bytes::Bytes;
use futures_util::StreamExt as _;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use super::nats::{ClusterConfig, ClusterError};

/// A table lease this worker holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    /// the table
    pub table: Uuid,
    /// the KV revision at which it was claimed (the journal's fencing token)
    pub epoch: u64,
    /// the KV revision of its last renewal
    pub revision: u64,
    /// when it was last renewed (or claimed), on this worker's clock
    pub renewed: Instant,
}

impl Lease {
    /// Whether it may still be valid: renewed less than `ttl` ago. A worker plays a table only
    /// while this holds, even when NATS cannot be asked.
    pub fn live(&self, ttl: Duration) -> bool {
        self.renewed.elapsed() < ttl
    }
}

/// A lease that could not be renewed or released.
#[derive(Debug, thiserror::Error)]
pub enum LeaseError {
    /// The lease lapsed or another worker holds it now.
    #[error("table {0}: the lease is lost")]
    Lost(Uuid),
    /// NATS did not answer.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
}

/// The lease bucket, as one worker (`node`) uses it.
#[derive(Clone)]
pub struct Leases {
    kv: kv::Store,
    node: String,
    ttl: Duration,
}

impl Leases {
    /// Opens (creating when missing) the lease bucket for worker `node`.
    ///
    /// # Errors
    /// NATS is unreachable or refused to create it.
    pub async fn open(js: &jetstream::Context, config: &ClusterConfig, node: &str) -> Result<Leases, ClusterError> {
        let kv = super::nats::open_bucket(
            js,
            kv::Config {
                bucket: config.lease_bucket.clone(),
                history: 1,
                max_age: config.lease_ttl,
                num_replicas: config.replicas,
                storage: StorageType::File,
                ..Default::default()
            },
        )
        .await?;
        // A bucket made earlier keeps its own max_age: a lease lasts the shorter of the two
        // here (playing on past the bucket's expiry could overlap another worker's claim).
        let ttl = match kv.status().await {
            Ok(status) if !status.max_age().is_zero() => config.lease_ttl.min(status.max_age()),
            _ => config.lease_ttl,
        };
        Ok(Leases { kv, node: node.to_owned(), ttl })
    }

    /// This worker's name.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// How long a lease lasts without renewal.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Claims an unowned table; `None` when another worker holds it.
    ///
    /// # Errors
    /// NATS did not answer.
    pub async fn claim(&self, table: Uuid) -> Result<Option<Lease>, ClusterError> {
        let renewed = Instant::now();
        match self.kv.create(table.to_string(), Bytes::from(self.node.clone())).await {
            Ok(revision) => Ok(Some(Lease { table, epoch: revision, revision, renewed })),
            Err(e) if e.kind() == kv::CreateErrorKind::AlreadyExists => Ok(None),
            Err(e) => Err(ClusterError::nats(e)),
        }
    }

    /// Renews a lease from the revision this worker last wrote.
    ///
    /// # Errors
    /// [`LeaseError::Lost`]: it lapsed or changed hands; stop the table.
    pub async fn renew(&self, lease: &mut Lease) -> Result<(), LeaseError> {
        let started = Instant::now();
        match self.kv.update(lease.table.to_string(), Bytes::from(self.node.clone()), lease.revision).await {
            Ok(revision) => {
                lease.revision = revision;
                lease.renewed = started;
                Ok(())
            }
            Err(e) if e.kind() == kv::UpdateErrorKind::WrongLastRevision => Err(LeaseError::Lost(lease.table)),
            Err(e) => Err(ClusterError::nats(e).into()),
        }
    }

    /// Gives a table up (between hands, or at shutdown) so another worker can claim it at
    /// once rather than after the TTL.
    ///
    /// # Errors
    /// [`LeaseError::Lost`]: it was not ours any more.
    pub async fn release(&self, lease: &Lease) -> Result<(), LeaseError> {
        match self.kv.delete_expect_revision(lease.table.to_string(), Some(lease.revision)).await {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == kv::DeleteErrorKind::WrongLastRevision => Err(LeaseError::Lost(lease.table)),
            Err(e) => Err(ClusterError::nats(e).into()),
        }
    }

    /// Says this worker is alive (a `worker.<node>` key in the bucket, which lapses like a
    /// lease: call it more often than the TTL). Workers divide the tables among those alive.
    ///
    /// # Errors
    /// NATS did not answer.
    pub async fn announce(&self) -> Result<(), ClusterError> {
        self.kv.put(format!("worker.{}", self.node), Bytes::new()).await.map_err(ClusterError::nats)?;
        Ok(())
    }

    /// What the bucket holds now, from one listing of its keys: the tables leased (by any
    /// worker) and the workers alive (announced within the TTL), this one included.
    ///
    /// One listing a round and no read per key: the keys are delivered once each, and whose a
    /// lease is does not matter to the plan but for this worker's own, which it knows
    /// ([`Held`]). Reading every owner's name (a direct get per table) and listing the keys
    /// twice (leases, then workers) was most of what NATS carried in a cluster (BENCHMARKS.md).
    ///
    /// # Errors
    /// NATS did not answer.
    pub async fn list(&self) -> Result<(BTreeSet<Uuid>, BTreeSet<String>), ClusterError> {
        let mut tables = BTreeSet::new();
        let mut workers = BTreeSet::new();
        workers.insert(self.node.clone());
        let mut stream = self.kv.keys().await.map_err(ClusterError::nats)?;
        while let Some(k) = stream.next().await {
            let key = k.map_err(ClusterError::nats)?;
            if let Some(name) = key.strip_prefix("worker.") {
                workers.insert(name.to_owned());
            } else if let Ok(table) = Uuid::parse_str(&key) {
                tables.insert(table);
            }
        }
        Ok((tables, workers))
    }
}

/// The leases a worker holds, shared between its heartbeat and whoever claims tables.
pub type Held = Arc<Mutex<HashMap<Uuid, Lease>>>;

/// Lease renewals of one heartbeat in flight at once.
const RENEWALS_IN_FLIGHT: usize = 64;

/// Renews every lease in `held` three times per TTL until `stop`. A lease that is lost, or
/// that could not be renewed for a whole TTL (NATS away), leaves `held` and its table is sent
/// on `lost`: the worker must stop playing it.
pub fn spawn_heartbeat(
    leases: Leases,
    held: Held,
    lost: mpsc::UnboundedSender<Uuid>,
    stop: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        use futures_util::StreamExt as _;
        // Every lease renewed every third of the TTL, the renewals of one round in flight
        // together: one after the other, a worker holding 500 tables spent longer than the TTL
        // on a round under load, and its leases lapsed.
        let mut every = tokio::time::interval(leases.ttl() / 3);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        every.tick().await;
        loop {
            tokio::select! {
                () = stop.cancelled() => return,
                _ = every.tick() => {}
            }
            let current: Vec<Lease> = held.lock().unwrap_or_else(PoisonError::into_inner).values().cloned().collect();
            let mut renewals = futures_util::stream::iter(current)
                .map(|mut lease| {
                    let leases = &leases;
                    async move {
                        let result = leases.renew(&mut lease).await;
                        (lease, result)
                    }
                })
                .buffer_unordered(RENEWALS_IN_FLIGHT);
            while let Some((lease, result)) = renewals.next().await {
                let gone = match result {
                    Ok(()) => false,
                    Err(LeaseError::Lost(_)) => true,
                    Err(LeaseError::Cluster(e)) => {
                        tracing::warn!(table = %lease.table, error = %e, "lease renewal failed");
                        !lease.live(leases.ttl())
                    }
                };
                let mut map = held.lock().unwrap_or_else(PoisonError::into_inner);
                if gone {
                    if map.remove(&lease.table).is_some() {
                        let _ = lost.send(lease.table);
                    }
                } else if let Some(l) = map.get_mut(&lease.table).filter(|l| l.epoch == lease.epoch) {
                    *l = lease;
                }
            }
        }
    })
}
