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

mod director;
mod gateway;
mod journal;
mod lease;
mod nats;
mod outbound;
pub mod plan;
pub mod wire;
mod worker;

pub(crate) use director::Director;
pub use gateway::Gateway;
pub(crate) use gateway::{first_conn_id, refresh_tables, spawn as spawn_gateway};
pub use journal::JetStreamJournal;
pub use lease::{Held, Lease, LeaseError, Leases, spawn_heartbeat};
pub use nats::{ClusterConfig, ClusterError, Health, NatsAuth, connect, spawn_probe};
pub(crate) use worker::Worker;

/// A cluster node's running parts (see `crate::start_node`).
pub(crate) struct Node {
    /// stops the worker loop, the heartbeat and the gateway's listeners
    pub(crate) stop: tokio_util::sync::CancellationToken,
    /// the worker and its `App`, when this node hosts tables
    pub(crate) worker: Option<(std::sync::Arc<Worker>, std::sync::Arc<crate::app::App>)>,
    /// background tasks
    pub(crate) tasks: Vec<tokio::task::JoinHandle<()>>,
}
