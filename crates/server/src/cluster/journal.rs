//! The table journal in JetStream.
//!
//! One stream (`ClusterConfig::journal_stream`) holds every table's journal, a subject per
//! table (`PREFIX.<table id>`). A message is one entry (the payload is the entry's text; the
//! headers carry its input number, time and the writer's lease epoch) or a marker: a claim
//! (a worker took the table) or a reset (the journal starts again). Markers fence: they move
//! the subject's last sequence on, and every append names the last sequence its writer saw.
//! So a table has one append in flight at a time (as its task does): a second one at once
//! would be refused as if the table had been taken.
//!
//! Snapshots are kept in a KV bucket (`ClusterConfig::snapshot_bucket`), one key per table
//! holding its latest snapshot and that snapshot's input number, and only ever moved forward
//! (compare-and-set on the key's revision). Why a KV entry rather than a rollup message on the
//! journal subject: a snapshot of input `n` may only count once the writes of every input up
//! to `n` (hands, ledger) are in Postgres, or a rebuild from it would lose them; so it is
//! stored after the store's commit, while the table has already journaled later inputs. A
//! rollup would delete those later entries; a KV entry beside the journal does not, and load
//! simply skips entries at or below the snapshot. After storing a snapshot the journal
//! purges the table's entries below entry `n` (kept: entry `n` itself, so the subject is never
//! emptied under the fence), so a rebuild replays at most one hand.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use async_nats::HeaderMap;
use async_nats::jetstream::context::PublishErrorKind;
use async_nats::jetstream::kv::{self, Operation};
use async_nats::jetstream::message::PublishMessage;
use async_nats::jetstream::stream::{self, LastRawMessageErrorKind, StorageType};
use async_nats::jetstream::{self, consumer};
use bytes::Bytes;
use futures_util::StreamExt as _;
use futures_util::future::BoxFuture;
use stud_store::{JournalRow, Store, StoreError, TableJournal};
use uuid::Uuid;

use super::lease::Lease;
use super::nats::{ClusterConfig, ClusterError, open_bucket};
use crate::journal::{Journal, JournalError, JournalStats};

const KIND: &str = "Stud-Kind";
const N: &str = "Stud-N";
const AT: &str = "Stud-At";
const EPOCH: &str = "Stud-Epoch";
const ENTRY: &str = "entry";
const CLAIM: &str = "claim";
const RESET: &str = "reset";

/// How often a conditional write is tried again when another writer moved first.
const RETRIES: usize = 5;

/// What this worker knows of a table it holds.
#[derive(Clone, Debug, Default)]
struct Fence {
    /// the lease's epoch
    epoch: u64,
    /// the stream sequence of our last message on the table's subject
    last_seq: u64,
    /// an append failed without an answer: it may or may not be stored
    unsure: bool,
    /// entries appended since the last snapshot: input number -> stream sequence
    recent: BTreeMap<u64, u64>,
}

struct Inner {
    client: async_nats::Client,
    js: jetstream::Context,
    stream: stream::Stream,
    snapshots: kv::Store,
    prefix: String,
    fences: Mutex<HashMap<Uuid, Fence>>,
    stats: JournalStats,
    marks: Option<Arc<dyn Store>>,
}

/// The table journal on JetStream; see the module's documentation. Cheap to clone.
#[derive(Clone)]
pub struct JetStreamJournal {
    inner: Arc<Inner>,
}

impl JetStreamJournal {
    /// Opens (creating when missing) the journal stream and the snapshot bucket.
    ///
    /// `marks`: where [`Journal::load`] takes each table's stored-writes mark
    /// (`TableJournal::stored_n`) from, the shared store; without it a table's mark is its
    /// snapshot's input number (every entry after the snapshot counts as not yet stored).
    ///
    /// # Errors
    /// NATS is unreachable or refused to create them.
    pub async fn open(
        client: async_nats::Client,
        js: jetstream::Context,
        config: &ClusterConfig,
        marks: Option<Arc<dyn Store>>,
    ) -> Result<JetStreamJournal, ClusterError> {
        let stream = js
            .get_or_create_stream(stream::Config {
                name: config.journal_stream.clone(),
                subjects: vec![format!("{}.>", config.journal_prefix)],
                num_replicas: config.replicas,
                storage: StorageType::File,
                ..Default::default()
            })
            .await
            .map_err(ClusterError::nats)?;
        let snapshots = open_bucket(
            &js,
            kv::Config {
                bucket: config.snapshot_bucket.clone(),
                history: 1,
                num_replicas: config.replicas,
                storage: StorageType::File,
                ..Default::default()
            },
        )
        .await?;
        Ok(JetStreamJournal {
            inner: Arc::new(Inner {
                client,
                js,
                stream,
                snapshots,
                prefix: config.journal_prefix.clone(),
                fences: Mutex::new(HashMap::new()),
                stats: JournalStats::default(),
                marks,
            }),
        })
    }

    /// Takes the table's journal for `lease` (which this worker holds): publishes a claim
    /// marker conditioned on the subject's last message, so that any earlier holder's next
    /// append is refused. Call before loading the table to play it.
    ///
    /// # Errors
    /// [`ClusterError::Fenced`]: the journal was claimed with a newer lease (ours is stale);
    /// [`ClusterError::Unavailable`]: NATS did not answer.
    pub async fn acquire(&self, lease: &Lease) -> Result<(), ClusterError> {
        self.inner.acquire(lease.table, lease.epoch).await
    }

    /// Forgets a table (its lease was released or lost): appends to it are refused here.
    pub fn release(&self, table: Uuid) {
        self.inner.lock().remove(&table);
    }

    /// Whether this worker holds the table's journal (acquired, and not fenced off since).
    pub fn holds(&self, table: Uuid) -> bool {
        self.inner.lock().contains_key(&table)
    }

    /// Stores the table's snapshot after input `n` (call it once the writes of inputs up to
    /// `n` are stored), unless a newer one is there already; then purges the journal's
    /// entries below entry `n`. Returns whether this snapshot was stored.
    ///
    /// # Errors
    /// NATS did not answer, or a stored snapshot does not decode.
    pub async fn snapshot(&self, table: Uuid, n: u64, snapshot: &str) -> Result<bool, ClusterError> {
        self.inner.snapshot(table, n, snapshot).await
    }

    /// One table's journal (snapshot and later entries), or `None` when it has neither.
    ///
    /// # Errors
    /// NATS did not answer, or a stored value does not decode.
    pub async fn load_table(&self, table: Uuid) -> Result<Option<TableJournal>, ClusterError> {
        let mut all = self.inner.load(Some(table)).await?;
        Ok(all.pop())
    }
}

impl Journal for JetStreamJournal {
    fn append(&self, row: JournalRow) -> BoxFuture<'static, Result<(), JournalError>> {
        let inner = self.inner.clone();
        Box::pin(async move {
            let started = Instant::now();
            let table = row.table_id;
            match inner.append(row).await {
                Ok(()) => {
                    // One entry per publish: its acknowledgement is its commit and its wait.
                    inner.stats.record(1, started.elapsed());
                    inner.stats.wait.observe(started.elapsed());
                    Ok(())
                }
                Err(e) => {
                    inner.stats.failures.fetch_add(1, Relaxed);
                    tracing::warn!(%table, error = %e, "JetStream journal: append refused; input not applied");
                    Err(JournalError)
                }
            }
        })
    }

    fn load(&self) -> BoxFuture<'_, Result<Vec<TableJournal>, StoreError>> {
        Box::pin(async move { Ok(self.inner.load(None).await?) })
    }

    /// Stores the snapshot at `n` (whatever was there) and, on a table this worker holds,
    /// drops every earlier message of its journal behind a reset marker. (The store keeps
    /// entries after `n`; callers reset at the table's last input, where both agree.) A table
    /// with a journal that this worker does not hold is refused.
    fn reset<'a>(&'a self, table: Uuid, n: u64, snapshot: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move { Ok(self.inner.reset(table, n, snapshot).await?) })
    }

    fn stats(&self) -> &JournalStats {
        &self.inner.stats
    }
}

impl Inner {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, Fence>> {
        self.fences.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn subject(&self, table: Uuid) -> String {
        format!("{}.{table}", self.prefix)
    }

    fn connected(&self) -> Result<(), ClusterError> {
        // Refuse at once rather than queue: the client would send a queued publish after it
        // reconnects, long after the table was told its input was refused.
        match self.client.connection_state() {
            async_nats::connection::State::Connected => Ok(()),
            _ => Err(ClusterError::Unavailable("not connected".into())),
        }
    }

    /// The subject's last message: its sequence and the lease epoch it was written under.
    async fn last(&self, table: Uuid) -> Result<Option<(u64, u64)>, ClusterError> {
        match self.stream.get_last_raw_message_by_subject(&self.subject(table)).await {
            Ok(m) => Ok(Some((m.sequence, header_u64(&m.headers, EPOCH).unwrap_or(0)))),
            Err(e) if e.kind() == LastRawMessageErrorKind::NoMessageFound => Ok(None),
            Err(e) => Err(ClusterError::nats(e)),
        }
    }

    /// Publishes on the table's subject if its last sequence is still `expected`; the new
    /// message's sequence, or `Fenced` when another writer moved first.
    async fn publish(
        &self,
        table: Uuid,
        expected: u64,
        headers: HeaderMap,
        payload: Bytes,
    ) -> Result<u64, ClusterError> {
        self.connected()?;
        let msg = PublishMessage::build().headers(headers).payload(payload).expected_last_subject_sequence(expected);
        let ack = self.js.send_publish(self.subject(table), msg).await.map_err(ClusterError::nats)?;
        match ack.await {
            Ok(ack) => Ok(ack.sequence),
            Err(e) if e.kind() == PublishErrorKind::WrongLastSequence => Err(ClusterError::Fenced(table)),
            Err(e) => Err(ClusterError::nats(e)),
        }
    }

    async fn acquire(&self, table: Uuid, epoch: u64) -> Result<(), ClusterError> {
        for _ in 0..RETRIES {
            let last = self.last(table).await?;
            if last.is_some_and(|(_, theirs)| theirs > epoch) {
                return Err(ClusterError::Fenced(table));
            }
            let mut h = HeaderMap::new();
            h.insert(KIND, CLAIM);
            h.insert(EPOCH, epoch.to_string());
            match self.publish(table, last.map_or(0, |(seq, _)| seq), h, Bytes::new()).await {
                Ok(seq) => {
                    self.lock().insert(table, Fence { epoch, last_seq: seq, ..Fence::default() });
                    return Ok(());
                }
                // The earlier holder appended in between: look again (our marker goes after).
                Err(ClusterError::Fenced(_)) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(ClusterError::Unavailable(format!("table {table}: the journal kept moving under the claim")))
    }

    async fn append(&self, row: JournalRow) -> Result<(), ClusterError> {
        let table = row.table_id;
        let Some(fence) = self.lock().get(&table).map(|f| (f.epoch, f.last_seq, f.unsure)) else {
            return Err(ClusterError::Fenced(table));
        };
        let (epoch, mut expected, unsure) = fence;
        self.connected()?;
        if unsure {
            // The last append got no answer. If the subject's last message is ours, it was
            // stored (the table did not apply it and sends the same input number again; load
            // keeps the later one); anyone else's means the table was taken.
            match self.last(table).await? {
                Some((seq, e)) if e == epoch => expected = seq,
                _ => {
                    self.lock().remove(&table);
                    return Err(ClusterError::Fenced(table));
                }
            }
        }
        let mut h = HeaderMap::new();
        h.insert(KIND, ENTRY);
        h.insert(N, row.n.to_string());
        h.insert(AT, row.at_ms.to_string());
        h.insert(EPOCH, epoch.to_string());
        let result = self.publish(table, expected, h, Bytes::from(row.entry)).await;
        let mut fences = self.lock();
        match result {
            Ok(seq) => {
                if let Some(f) = fences.get_mut(&table).filter(|f| f.epoch == epoch) {
                    f.last_seq = seq;
                    f.unsure = false;
                    f.recent.insert(row.n, seq);
                }
                Ok(())
            }
            Err(ClusterError::Fenced(t)) => {
                fences.remove(&table);
                Err(ClusterError::Fenced(t))
            }
            Err(e) => {
                if let Some(f) = fences.get_mut(&table).filter(|f| f.epoch == epoch) {
                    f.unsure = true;
                }
                Err(e)
            }
        }
    }

    async fn snapshot(&self, table: Uuid, n: u64, snapshot: &str) -> Result<bool, ClusterError> {
        let key = table.to_string();
        let value = Bytes::from(format!("{n}\n{snapshot}"));
        let mut stored = false;
        for _ in 0..RETRIES {
            let current = self.snapshots.entry(key.as_str()).await.map_err(ClusterError::nats)?;
            let written = match current {
                Some(e) if e.operation == Operation::Put => {
                    if decode_snapshot(&e.value)?.0 >= n {
                        break;
                    }
                    self.snapshots
                        .update(key.as_str(), value.clone(), e.revision)
                        .await
                        .map(|_| ())
                        .map_err(|e| (e.kind() == kv::UpdateErrorKind::WrongLastRevision, ClusterError::nats(e)))
                }
                _ => self
                    .snapshots
                    .create(key.as_str(), value.clone())
                    .await
                    .map(|_| ())
                    .map_err(|e| (e.kind() == kv::CreateErrorKind::AlreadyExists, ClusterError::nats(e))),
            };
            match written {
                Ok(()) => {
                    stored = true;
                    break;
                }
                Err((true, _)) => continue,
                Err((false, e)) => return Err(e),
            }
        }
        // Entries below entry n are covered by a snapshot at n or later: drop them.
        let below = {
            let mut fences = self.lock();
            fences.get_mut(&table).and_then(|f| {
                let seq = f.recent.get(&n).copied();
                f.recent = f.recent.split_off(&n.saturating_add(1));
                seq
            })
        };
        if let Some(seq) = below {
            self.stream.purge().filter(self.subject(table)).sequence(seq).await.map_err(ClusterError::nats)?;
        }
        Ok(stored)
    }

    async fn reset(&self, table: Uuid, n: u64, snapshot: &str) -> Result<(), ClusterError> {
        let held = self.lock().get(&table).map(|f| (f.epoch, f.last_seq));
        let marker = match held {
            Some((epoch, last_seq)) => {
                let mut h = HeaderMap::new();
                h.insert(KIND, RESET);
                h.insert(N, n.to_string());
                h.insert(EPOCH, epoch.to_string());
                let result = self.publish(table, last_seq, h, Bytes::new()).await;
                match result {
                    Ok(seq) => {
                        if let Some(f) = self.lock().get_mut(&table).filter(|f| f.epoch == epoch) {
                            f.last_seq = seq;
                            f.recent.clear();
                        }
                        Some(seq)
                    }
                    Err(e) => {
                        if matches!(e, ClusterError::Fenced(_)) {
                            self.lock().remove(&table);
                        }
                        return Err(e);
                    }
                }
            }
            // A table nobody has journaled yet may start without a lease; one with a journal
            // needs its holder.
            None if self.last(table).await?.is_none() => None,
            None => return Err(ClusterError::Fenced(table)),
        };
        self.snapshots
            .put(table.to_string(), Bytes::from(format!("{n}\n{snapshot}")))
            .await
            .map_err(ClusterError::nats)?;
        if let Some(seq) = marker {
            self.stream.purge().filter(self.subject(table)).sequence(seq).await.map_err(ClusterError::nats)?;
        }
        Ok(())
    }

    /// Every table's journal (`only`: one table's), in table id order like the store's.
    async fn load(&self, only: Option<Uuid>) -> Result<Vec<TableJournal>, ClusterError> {
        // A snapshot stored (and the entries below it purged) between reading the bucket and
        // reading the stream would leave a gap: read again then.
        let mut tables = BTreeMap::new();
        for _ in 0..RETRIES {
            tables = self.read(only).await?;
            let gap = tables.values().any(|j: &TableJournal| match (&j.snapshot, j.entries.first()) {
                (Some((s, _)), Some((first, _))) => *first != s + 1,
                _ => false,
            });
            if !gap {
                break;
            }
        }
        if let Some(store) = &self.marks {
            for stored in store.journals().await.map_err(|e| ClusterError::Unavailable(e.to_string()))? {
                if let Some(j) = tables.get_mut(&stored.table_id) {
                    j.stored_n = j.stored_n.max(stored.stored_n);
                }
            }
        }
        Ok(tables.into_values().collect())
    }

    async fn read(&self, only: Option<Uuid>) -> Result<BTreeMap<Uuid, TableJournal>, ClusterError> {
        let mut tables: BTreeMap<Uuid, TableJournal> = BTreeMap::new();
        let mut keys: Vec<String> = match only {
            Some(t) => vec![t.to_string()],
            None => {
                let mut keys = Vec::new();
                let mut stream = self.snapshots.keys().await.map_err(ClusterError::nats)?;
                while let Some(k) = stream.next().await {
                    keys.push(k.map_err(ClusterError::nats)?);
                }
                keys
            }
        };
        keys.sort();
        for key in keys {
            let table = Uuid::parse_str(&key).map_err(|_| ClusterError::Corrupt(format!("snapshot key {key:?}")))?;
            let entry = self.snapshots.entry(key.as_str()).await.map_err(ClusterError::nats)?;
            if let Some(e) = entry.filter(|e| e.operation == Operation::Put) {
                let (n, text) = decode_snapshot(&e.value)?;
                tables.insert(
                    table,
                    TableJournal { table_id: table, snapshot: Some((n, text)), stored_n: n, entries: Vec::new() },
                );
            }
        }
        let filter = match only {
            Some(t) => self.subject(t),
            None => format!("{}.>", self.prefix),
        };
        let consumer = self
            .stream
            .create_consumer(consumer::pull::OrderedConfig {
                filter_subject: filter,
                deliver_policy: consumer::DeliverPolicy::All,
                ..Default::default()
            })
            .await
            .map_err(ClusterError::nats)?;
        // Ordered consumers lapse 30 s after their last use: a worker that takes hundreds of
        // tables over would hold hundreds at once and meet the server's limit on consumers
        // ("maximum consumers limit reached"), so each goes as soon as it is read.
        let name = consumer.cached_info().name.clone();
        let read = self.read_entries(consumer, &mut tables).await;
        if let Err(e) = self.stream.delete_consumer(&name).await {
            tracing::debug!(error = %e, consumer = %name, "JetStream journal: a read's consumer was not deleted (it lapses)");
        }
        read.map(|()| tables)
    }

    /// The journal entries a read's consumer delivers, into `tables`.
    async fn read_entries(
        &self,
        consumer: consumer::Consumer<consumer::pull::OrderedConfig>,
        tables: &mut BTreeMap<Uuid, TableJournal>,
    ) -> Result<(), ClusterError> {
        if consumer.cached_info().num_pending == 0 {
            return Ok(());
        }
        let mut messages = consumer.messages().await.map_err(ClusterError::nats)?;
        while let Some(m) = messages.next().await {
            let m = m.map_err(ClusterError::nats)?;
            let pending = m.info().map_err(ClusterError::nats)?.pending;
            let headers = m.headers.clone().unwrap_or_default();
            if headers.get(KIND).map(|v| v.as_str()) == Some(ENTRY) {
                let id = m.subject.as_str().rsplit('.').next().unwrap_or_default();
                let table =
                    Uuid::parse_str(id).map_err(|_| ClusterError::Corrupt(format!("journal subject {id:?}")))?;
                let n = header_u64(&headers, N)
                    .ok_or_else(|| ClusterError::Corrupt(format!("table {table}: an entry without its number")))?;
                let entry = String::from_utf8(m.payload.to_vec())
                    .map_err(|_| ClusterError::Corrupt(format!("table {table}: entry {n} is not text")))?;
                let j =
                    tables.entry(table).or_insert_with(|| TableJournal { table_id: table, ..TableJournal::default() });
                if j.snapshot.as_ref().is_none_or(|(s, _)| n > *s) {
                    // An entry sent again after an unanswered append replaces the first one.
                    j.entries.retain(|(k, _)| *k < n);
                    j.entries.push((n, entry));
                }
            }
            if pending == 0 {
                break;
            }
        }
        Ok(())
    }
}

fn header_u64(headers: &HeaderMap, name: &str) -> Option<u64> {
    headers.get(name).and_then(|v| v.as_str().parse().ok())
}

fn decode_snapshot(value: &[u8]) -> Result<(u64, String), ClusterError> {
    let text = std::str::from_utf8(value).map_err(|_| ClusterError::Corrupt("a snapshot is not text".into()))?;
    let (n, snapshot) =
        text.split_once('\n').ok_or_else(|| ClusterError::Corrupt("a snapshot without its number".into()))?;
    let n = n.parse().map_err(|_| ClusterError::Corrupt(format!("a snapshot numbered {n:?}")))?;
    Ok((n, snapshot.to_owned()))
}
