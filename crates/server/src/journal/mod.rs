//! The tables' write-ahead journal: every input a table accepts is durable before the table
//! applies it (and so before any client sees its effects).
//!
//! [`Journal`] is the interface a table uses; [`StoreJournal`] keeps the journal in the
//! [`Store`] (SQLite or Postgres) and group-commits: one task takes every append queued
//! while the previous transaction ran (many tables' inputs) and stores them in one
//! transaction. A table's snapshot and its stored-writes mark travel with its writes through
//! the batching writer (`Write::Table`), so they are in the same transaction as the writes
//! they cover. [`file::FileJournal`] keeps it in segment files of its own instead (the default
//! next to a SQLite database file).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use stud_store::{Backend, JournalRow, Store, StoreError, TableJournal};
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use crate::metrics::Histogram;

pub mod file;

/// Appends per transaction at most.
const MAX_GROUP: usize = 2_000;

/// The journal could not take an entry (the database is down or refused it).
#[derive(Debug, thiserror::Error)]
#[error("the table journal is unavailable")]
pub struct JournalError;

/// A table's journal, as the table sees it.
pub trait Journal: Send + Sync + 'static {
    /// Appends one entry of `table`; resolves once it is durable.
    ///
    /// # Errors
    /// [`JournalError`]: not stored; the table must not apply the input.
    fn append(&self, row: JournalRow) -> BoxFuture<'static, Result<(), JournalError>>;

    /// Every table's journal (where to resume from).
    ///
    /// # Errors
    /// The backend cannot be read.
    fn load(&self) -> BoxFuture<'_, Result<Vec<TableJournal>, StoreError>>;

    /// Starts a table's journal at input `n` with `snapshot` (a new table, or a voided one).
    ///
    /// # Errors
    /// The backend refused.
    fn reset<'a>(&'a self, table: Uuid, n: u64, snapshot: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Counters.
    fn stats(&self) -> &JournalStats;
}

/// What the journal has done.
#[derive(Debug, Default)]
pub struct JournalStats {
    /// entries stored
    pub appends: AtomicU64,
    /// transactions committed
    pub groups: AtomicU64,
    /// the largest group so far
    pub max_group: AtomicU64,
    /// appends refused (database down)
    pub failures: AtomicU64,
    /// time spent committing, microseconds
    pub busy_us: AtomicU64,
    /// groups by size: 1, 2-3, 4-7, 8-15, ..., 512+ (powers of two)
    pub group_sizes: [AtomicU64; 11],
    /// how long each group's transaction took
    pub commit: Histogram,
    /// how long each append waited for its group's commit to start (the channel, the
    /// commits in flight before it)
    pub queue: Histogram,
    /// how long each append waited to be durable (queue, the commit before it, its own commit)
    pub wait: Histogram,
}

impl JournalStats {
    /// Counts one committed group of `size` entries that took `took`.
    pub(crate) fn record(&self, size: usize, took: Duration) {
        let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.commit.observe(took);
        self.appends.fetch_add(size as u64, Relaxed);
        self.groups.fetch_add(1, Relaxed);
        self.max_group.fetch_max(size as u64, Relaxed);
        self.busy_us.fetch_add(micros, Relaxed);
        let bucket = (usize::BITS - size.max(1).leading_zeros() - 1) as usize;
        if let Some(b) = self.group_sizes.get(bucket.min(10)) {
            b.fetch_add(1, Relaxed);
        }
    }
}

impl JournalStats {
    /// The journal's counters in the Prometheus text format.
    pub fn render(&self, out: &mut String) {
        use std::fmt::Write as _;
        let mut counter = |name: &str, help: &str, v: String| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {v}");
        };
        counter("stud_journal_appends_total", "Table inputs journaled.", self.appends.load(Relaxed).to_string());
        counter(
            "stud_journal_groups_total",
            "Journal transactions (group commits).",
            self.groups.load(Relaxed).to_string(),
        );
        counter(
            "stud_journal_failures_total",
            "Table inputs refused because the journal could not store them.",
            self.failures.load(Relaxed).to_string(),
        );
        counter(
            "stud_journal_busy_seconds_total",
            "Time spent committing journal groups.",
            (self.busy_us.load(Relaxed) as f64 / 1e6).to_string(),
        );
        let _ = writeln!(
            out,
            "# HELP stud_journal_group_size Inputs per journal transaction.\n# TYPE stud_journal_group_size histogram"
        );
        let mut total = 0;
        for (k, bucket) in self.group_sizes.iter().enumerate().take(10) {
            total += bucket.load(Relaxed);
            let _ = writeln!(out, "stud_journal_group_size_bucket{{le=\"{}\"}} {total}", (2u64 << k) - 1);
        }
        let groups = self.groups.load(Relaxed);
        let _ = writeln!(out, "stud_journal_group_size_bucket{{le=\"+Inf\"}} {groups}");
        let _ = writeln!(out, "stud_journal_group_size_sum {}", self.appends.load(Relaxed));
        let _ = writeln!(out, "stud_journal_group_size_count {groups}");
        self.commit.render(out, "stud_journal_commit_seconds", "Time to commit one journal group.");
        self.queue.render(
            out,
            "stud_journal_queue_seconds",
            "Time from a table's append to the start of its group's commit.",
        );
        self.wait.render(
            out,
            "stud_journal_wait_seconds",
            "Time from a table's append to its entry being durable (queue and commit).",
        );
    }
}

/// One table input on its way to a journal's committing task.
struct Append {
    row: JournalRow,
    queued: Instant,
    done: oneshot::Sender<bool>,
}

/// Queues `row` for the committing task behind `tx`; resolves when its group is durable.
fn send_append(tx: &mpsc::UnboundedSender<Append>, row: JournalRow) -> BoxFuture<'static, Result<(), JournalError>> {
    let (done, rx) = oneshot::channel();
    let sent = tx.send(Append { row, queued: Instant::now(), done });
    Box::pin(async move {
        sent.map_err(|_| JournalError)?;
        match rx.await {
            Ok(true) => Ok(()),
            _ => Err(JournalError),
        }
    })
}

/// The journal in the store, group-committed by one task.
pub struct StoreJournal {
    store: Arc<dyn Store>,
    tx: mpsc::UnboundedSender<Append>,
    stats: Arc<JournalStats>,
}

impl StoreJournal {
    /// Starts the committing task. `window` is how long it waits after the first append of a
    /// group for more (zero: it takes what queued while the last commit ran).
    pub fn spawn(store: Arc<dyn Store>, window: Duration) -> (Arc<StoreJournal>, tokio::task::JoinHandle<()>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let stats = Arc::new(JournalStats::default());
        let slots = in_flight(store.as_ref());
        let task = tokio::spawn(commit_loop(store.clone(), rx, stats.clone(), window, slots));
        (Arc::new(StoreJournal { store, tx, stats }), task)
    }
}

impl Journal for StoreJournal {
    fn append(&self, row: JournalRow) -> BoxFuture<'static, Result<(), JournalError>> {
        send_append(&self.tx, row)
    }

    fn load(&self) -> BoxFuture<'_, Result<Vec<TableJournal>, StoreError>> {
        self.store.journals()
    }

    fn reset<'a>(&'a self, table: Uuid, n: u64, snapshot: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        self.store.journal_reset(table, n, snapshot)
    }

    fn stats(&self) -> &JournalStats {
        &self.stats
    }
}

/// Group commits in flight at once: while one commits, the next ones form and commit beside
/// it, so an input waits for its own commit, not for one stalled before it. Postgres's journal
/// pool has [`stud_store::JOURNAL_CONNECTIONS`] connections; SQLite's commits take turns (one
/// writer), so there one commits while the next forms. A table has one append in flight at a
/// time, so its entries still commit in order.
fn in_flight(store: &dyn Store) -> usize {
    match store.backend() {
        Backend::Postgres => stud_store::JOURNAL_CONNECTIONS as usize,
        Backend::Sqlite => 2,
    }
}

async fn commit_loop(
    store: Arc<dyn Store>,
    mut rx: mpsc::UnboundedReceiver<Append>,
    stats: Arc<JournalStats>,
    window: Duration,
    in_flight: usize,
) {
    let slots = Arc::new(tokio::sync::Semaphore::new(in_flight));
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else { return };
        let Some(first) = rx.recv().await else { return };
        let mut group = vec![first];
        if !window.is_zero() {
            tokio::time::sleep(window).await;
        }
        while group.len() < MAX_GROUP {
            match rx.try_recv() {
                Ok(a) => group.push(a),
                Err(_) => break,
            }
        }
        let (store, stats) = (store.clone(), stats.clone());
        tokio::spawn(async move {
            let rows: Vec<JournalRow> = group.iter().map(|a| a.row.clone()).collect();
            let started = Instant::now();
            for a in &group {
                stats.queue.observe(started.saturating_duration_since(a.queued));
            }
            let ok = match store.journal_append(&rows).await {
                Ok(()) => {
                    stats.record(rows.len(), started.elapsed());
                    for a in &group {
                        stats.wait.observe(a.queued.elapsed());
                    }
                    true
                }
                Err(e) => {
                    stats.failures.fetch_add(rows.len() as u64, Relaxed);
                    tracing::warn!(error = %e, entries = rows.len(), "table journal: append failed; inputs refused");
                    false
                }
            };
            for a in group {
                let _ = a.done.send(ok);
            }
            drop(slot);
        });
    }
}

/// A journal in memory: for tests of the table task that are not about the database.
#[derive(Default)]
pub struct MemoryJournal {
    rows: std::sync::Mutex<Vec<JournalRow>>,
    stats: JournalStats,
}

impl MemoryJournal {
    /// The entries appended so far.
    pub fn rows(&self) -> Vec<JournalRow> {
        self.rows.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}

impl Journal for MemoryJournal {
    fn append(&self, row: JournalRow) -> BoxFuture<'static, Result<(), JournalError>> {
        self.stats.record(1, Duration::ZERO);
        self.rows.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(row);
        Box::pin(async { Ok(()) })
    }

    fn load(&self) -> BoxFuture<'_, Result<Vec<TableJournal>, StoreError>> {
        Box::pin(async { Ok(Vec::new()) })
    }

    fn reset<'a>(&'a self, _: Uuid, _: u64, _: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async { Ok(()) })
    }

    fn stats(&self) -> &JournalStats {
        &self.stats
    }
}
