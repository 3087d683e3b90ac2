//! The batching writer: one task that takes [`Write`]s in order and stores them in batches,
//! one transaction per batch.
//!
//! Pushing never waits, so a table never waits for the database. The writer takes everything
//! queued since its last batch (up to `max_batch`), so batches grow with the load: one hand
//! per transaction when it is quiet, hundreds when it is busy. When a batch fails (database
//! down or slow), it is kept at the head of the queue and retried with backoff; nothing is
//! dropped. The queue's length is published ([`WriterStats::backlog`]) and
//! [`Writer::backlogged`] tells the tables to stop starting hands while it is over the limit,
//! which is what bounds it.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::model::Write;
use crate::store::Store;

/// Writer settings.
#[derive(Clone, Copy, Debug)]
pub struct WriterConfig {
    /// most writes per transaction
    pub max_batch: usize,
    /// queued writes past which [`Writer::backlogged`] is true
    pub backlog_limit: usize,
}

impl Default for WriterConfig {
    fn default() -> WriterConfig {
        WriterConfig { max_batch: 1000, backlog_limit: 50_000 }
    }
}

/// What the writer has done, for metrics and tests.
#[derive(Debug, Default)]
pub struct WriterStats {
    /// writes queued and not yet stored
    pub backlog: AtomicUsize,
    /// hands stored
    pub hands: AtomicU64,
    /// ledger entries stored (buy-ins, top-ups, cash-outs)
    pub entries: AtomicU64,
    /// transactions committed
    pub batches: AtomicU64,
    /// failed attempts (each is retried)
    pub errors: AtomicU64,
    /// time spent in committed batches, microseconds
    pub busy_us: AtomicU64,
    /// whether the last attempt failed
    pub failing: AtomicBool,
}

enum Msg {
    Write(Write),
    Flush(oneshot::Sender<()>),
}

/// The way to the writer task. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Writer {
    tx: mpsc::UnboundedSender<Msg>,
    stats: Arc<WriterStats>,
    limit: usize,
}

impl std::fmt::Debug for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Msg::Write(w) => f.debug_tuple("Write").field(w).finish(),
            Msg::Flush(_) => f.write_str("Flush"),
        }
    }
}

/// The writer could not take the write: its task has stopped.
#[derive(Debug, thiserror::Error)]
#[error("the store writer has stopped")]
pub struct WriterGone;

impl Writer {
    /// Starts the writer task on `store`.
    pub fn spawn(store: Arc<dyn Store>, config: WriterConfig) -> (Writer, JoinHandle<()>) {
        let (writer, task) = Writer::new(config);
        (writer, tokio::spawn(task.run(store)))
    }

    /// A writer and the loop that will serve it, not yet running: writes queue until
    /// [`WriterTask::run`] is awaited (tests that must not touch a database use this).
    pub fn new(config: WriterConfig) -> (Writer, WriterTask) {
        let (tx, rx) = mpsc::unbounded_channel();
        let stats = Arc::new(WriterStats::default());
        let task = WriterTask { rx, stats: stats.clone(), max_batch: config.max_batch.max(1) };
        (Writer { tx, stats, limit: config.backlog_limit }, task)
    }

    /// Queues a write; never waits.
    ///
    /// # Errors
    /// [`WriterGone`] when the writer task has stopped (the caller must not lose the write
    /// silently: log it).
    pub fn push(&self, write: Write) -> Result<(), WriterGone> {
        self.stats.backlog.fetch_add(1, Relaxed);
        self.tx.send(Msg::Write(write)).map_err(|_| WriterGone)
    }

    /// Waits until every write pushed before this call is stored. Returns false if the writer
    /// stopped first.
    pub async fn flush(&self) -> bool {
        let (tx, rx) = oneshot::channel();
        if self.tx.send(Msg::Flush(tx)).is_err() {
            return false;
        }
        rx.await.is_ok()
    }

    /// Whether more writes are queued than the limit: tables should not start new hands.
    pub fn backlogged(&self) -> bool {
        self.stats.backlog.load(Relaxed) >= self.limit
    }

    /// Counters.
    pub fn stats(&self) -> &WriterStats {
        &self.stats
    }
}

/// The writer's loop, before it runs.
#[derive(Debug)]
pub struct WriterTask {
    rx: mpsc::UnboundedReceiver<Msg>,
    stats: Arc<WriterStats>,
    max_batch: usize,
}

impl WriterTask {
    /// Serves the writer until every [`Writer`] is dropped and the queue is stored.
    pub async fn run(self, store: Arc<dyn Store>) {
        run(store, self.rx, self.stats, self.max_batch).await;
    }
}

const RETRY_MIN: Duration = Duration::from_millis(50);
const RETRY_MAX: Duration = Duration::from_secs(2);

async fn run(store: Arc<dyn Store>, mut rx: mpsc::UnboundedReceiver<Msg>, stats: Arc<WriterStats>, max_batch: usize) {
    let mut queue: VecDeque<Msg> = VecDeque::new();
    let mut retry = RETRY_MIN;
    loop {
        if queue.is_empty() {
            match rx.recv().await {
                Some(m) => queue.push_back(m),
                None => return,
            }
        }
        while let Ok(m) = rx.try_recv() {
            queue.push_back(m);
        }
        while let Some(Msg::Flush(_)) = queue.front() {
            if let Some(Msg::Flush(done)) = queue.pop_front() {
                let _ = done.send(());
            }
        }
        let batch: Vec<Write> = queue
            .iter()
            .take(max_batch)
            .map_while(|m| match m {
                Msg::Write(w) => Some(w.clone()),
                Msg::Flush(_) => None,
            })
            .collect();
        if batch.is_empty() {
            continue;
        }
        let started = Instant::now();
        match store.write_batch(&batch).await {
            Ok(()) => {
                queue.drain(..batch.len());
                let (hands, entries) = count(&batch);
                stats.hands.fetch_add(hands, Relaxed);
                stats.entries.fetch_add(entries, Relaxed);
                stats.batches.fetch_add(1, Relaxed);
                stats.busy_us.fetch_add(u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX), Relaxed);
                stats.backlog.fetch_sub(batch.len(), Relaxed);
                if stats.failing.swap(false, Relaxed) {
                    tracing::info!("store writer: writing again");
                }
                retry = RETRY_MIN;
            }
            Err(e) => {
                stats.errors.fetch_add(1, Relaxed);
                stats.failing.store(true, Relaxed);
                tracing::warn!(error = %e, queued = queue.len(), retry_ms = retry.as_millis() as u64,
                    "store writer: batch failed, keeping it and retrying");
                tokio::time::sleep(retry).await;
                retry = (retry * 2).min(RETRY_MAX);
            }
        }
    }
}

/// (hands, ledger entries) in a batch, those of table groups included.
fn count(batch: &[Write]) -> (u64, u64) {
    let mut n = (0, 0);
    for w in batch {
        match w {
            Write::Hand(_) => n.0 += 1,
            Write::Ledger(_) => n.1 += 1,
            Write::Table(t) => {
                let (h, e) = count(&t.writes);
                n = (n.0 + h, n.1 + e);
            }
        }
    }
    n
}
