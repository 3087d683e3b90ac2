//! The tables' journal as append-only segment files: the default next to a SQLite database.
//!
//! One thread owns the file it appends to. It takes every append queued while its last sync
//! ran, writes them as one `write` and makes them durable with one `fdatasync`, then answers
//! each table. Nothing else touches that file, so an append waits for nothing but the syncs
//! before it: no lock shared with the hand-history writer, no checkpoint, no SQL.
//!
//! A record is `len: u32 | crc32c: u32 | table id (16) | n: u64 | at_ms: u64 | entry`, little
//! endian, the checksum over everything after it. Reading stops at the first record that is
//! short or fails its checksum: a write torn by a crash was never acknowledged, and nothing
//! after it was written (the next group waits for this one's sync), so nothing acknowledged is
//! lost. Each start (and each failed write) begins a new segment, so no append ever follows a
//! torn record.
//!
//! Segments are made ahead, zero-filled to their full size and synced, by a helper thread while
//! the one before fills: an append then overwrites blocks the file already has, and its
//! `fdatasync` writes the data alone, where growing the file also commits the filesystem's own
//! journal (BENCHMARKS.md). A start's first segment is plain, so appends need not wait for one
//! to be made, and is left as soon as the one made ahead is ready. A segment's unwritten tail
//! is zeros, read as its clean end.
//!
//! Snapshots and stored marks stay in the database (`table_state`, written with the writes
//! they cover); a segment is deleted once every entry in it is at or below its table's mark.
//! A closed segment that still holds live entries when [`KEEP_SEGMENTS`] newer ones are closed
//! has them appended again (into the newest segment), then is deleted: a table idle for hours
//! holds a few entries, never the disk.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use futures_util::future::BoxFuture;
use stud_store::{JournalRow, Store, StoreError, TableJournal};
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use super::{Append, Journal, JournalError, JournalStats, MAX_GROUP};

/// A segment is closed once it holds this many bytes.
pub const SEGMENT_BYTES: u64 = 8 << 20;
/// Closed segments kept as they are before their live entries are appended again.
pub const KEEP_SEGMENTS: usize = 4;
/// Bytes before a record's body: its length and checksum.
const HEADER: usize = 8;
/// The body's fixed part: table id, input number, time.
const FIXED: usize = 32;
/// No entry is near this; a larger length is damage.
const MAX_BODY: usize = 64 << 20;
static CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);

/// The journal in segment files, synced by one thread.
pub struct FileJournal {
    dir: PathBuf,
    store: Arc<dyn Store>,
    tx: mpsc::UnboundedSender<Append>,
    /// the segment being appended to
    current: Arc<AtomicU64>,
    stats: Arc<JournalStats>,
    /// one compaction at a time, and none while the journal is being loaded
    compacting: tokio::sync::Mutex<()>,
    /// asks for a compaction (the first comes from `load`: none may run before the journal
    /// is read, or the entries it carries into the current segment would not be)
    compact_tx: mpsc::UnboundedSender<u64>,
}

impl FileJournal {
    /// Opens (creating) the journal in `dir` and starts its writing thread in a new segment,
    /// and the task that deletes obsolete segments (`store` has the marks). The handle
    /// finishes when the journal is dropped and its last group is synced.
    ///
    /// # Errors
    /// The directory or the new segment cannot be created.
    pub fn open(dir: &Path, store: Arc<dyn Store>) -> std::io::Result<(Arc<FileJournal>, tokio::task::JoinHandle<()>)> {
        FileJournal::open_with(dir, store, SEGMENT_BYTES)
    }

    /// [`FileJournal::open`] with segments closed at `segment_bytes` (tests use small ones).
    ///
    /// # Errors
    /// The directory or the new segment cannot be created.
    pub fn open_with(
        dir: &Path,
        store: Arc<dyn Store>,
        segment_bytes: u64,
    ) -> std::io::Result<(Arc<FileJournal>, tokio::task::JoinHandle<()>)> {
        std::fs::create_dir_all(dir)?;
        let mut seq = segments(dir)?.last().map_or(1, |(s, _)| s + 1);
        // A journal just closed in this process may still be making its next segment ahead
        // (or removing it, unused: `load` and `compact` pass over a listed segment that is
        // gone): that number is then taken, and the one after it is ours.
        let mut tries = 0;
        let segment = loop {
            tries += 1;
            match Segment::create(dir, seq) {
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < 3 => seq += 1,
                made => break made?,
            }
        };
        let spare = Segment::make_ahead(dir, seq + 1, segment_bytes);
        let (tx, rx) = mpsc::unbounded_channel();
        let (rotated_tx, rotated_rx) = mpsc::unbounded_channel();
        let stats = Arc::new(JournalStats::default());
        let current = Arc::new(AtomicU64::new(seq));
        let (stopped_tx, stopped_rx) = oneshot::channel();
        let writer = Writer {
            dir: dir.to_owned(),
            segment: Some(segment),
            spare,
            segment_bytes,
            current: current.clone(),
            stats: stats.clone(),
            rotated: rotated_tx.clone(),
        };
        std::thread::Builder::new().name("stud-journal".into()).spawn(move || {
            writer.run(rx);
            let _ = stopped_tx.send(());
        })?;
        let journal = Arc::new(FileJournal {
            dir: dir.to_owned(),
            store,
            tx,
            current,
            stats,
            compacting: tokio::sync::Mutex::new(()),
            compact_tx: rotated_tx,
        });
        tokio::spawn(compact_loop(Arc::downgrade(&journal), rotated_rx));
        let done = tokio::spawn(async move {
            let _ = stopped_rx.await;
        });
        Ok((journal, done))
    }

    /// Deletes the closed segments whose every entry is at or below its table's mark, and
    /// appends again the live entries of those older than the newest [`KEEP_SEGMENTS`] closed
    /// ones. Returns how many segments were deleted.
    ///
    /// # Errors
    /// The marks cannot be read, or a segment cannot be read or deleted (nothing is lost:
    /// a segment is deleted only after its live entries are durable again).
    pub async fn compact(&self) -> Result<usize, StoreError> {
        let _one = self.compacting.lock().await;
        let current = self.current.load(Relaxed);
        let closed: Vec<(u64, PathBuf)> = segments(&self.dir)?.into_iter().filter(|(s, _)| *s < current).collect();
        if closed.is_empty() {
            return Ok(0);
        }
        let marks: Arc<HashMap<Uuid, u64>> = Arc::new(self.store.journal_marks().await?.into_iter().collect());
        let carry_before = closed.len().saturating_sub(KEEP_SEGMENTS);
        let mut deleted = 0;
        for (k, (_, path)) in closed.iter().enumerate() {
            // A table with no state row is closed or was never started: nothing of it resumes.
            // Read off the runtime's threads (up to 8 MiB of file a segment). A segment among
            // the newest closed ones stays whole while any of its entries is live: only whether
            // one is is read, not the entries (they were most of the process's peak memory).
            let (path_owned, marks) = (path.clone(), marks.clone());
            let carry = k < carry_before;
            // `None`: kept whole; else the live entries to append again before it goes.
            let scanned = tokio::task::spawn_blocking(move || -> std::io::Result<Option<Vec<JournalRow>>> {
                let live = |table: Uuid, n: u64| marks.get(&table).is_some_and(|m| n > *m);
                let scanned = if carry {
                    read_segment_kept(&path_owned, live).map(Some)
                } else {
                    segment_holds(&path_owned, live).map(|holds| (!holds).then(Vec::new))
                };
                match scanned {
                    // Gone since it was listed (as in `load`): nothing in it to keep.
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Some(Vec::new())),
                    scanned => scanned,
                }
            })
            .await
            .map_err(|e| StoreError::Refused(format!("reading a journal segment: {e}")))??;
            let Some(live) = scanned else { continue };
            if !live.is_empty() {
                let carried = futures_util::future::join_all(live.into_iter().map(|r| self.append(r))).await;
                if carried.iter().any(Result::is_err) {
                    return Err(StoreError::Refused("the journal could not append the entries it carries".into()));
                }
            }
            match std::fs::remove_file(path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
                _ => deleted += 1,
            }
        }
        if deleted > 0 {
            sync_dir(&self.dir)?;
        }
        Ok(deleted)
    }
}

impl Journal for FileJournal {
    fn append(&self, row: JournalRow) -> BoxFuture<'static, Result<(), JournalError>> {
        super::send_append(&self.tx, row)
    }

    fn load(&self) -> BoxFuture<'_, Result<Vec<TableJournal>, StoreError>> {
        Box::pin(async move {
            let _no_compaction = self.compacting.lock().await;
            // The database has the snapshots and marks (and the entries of a version that kept
            // the journal there: a server stopped mid-hand before the upgrade).
            let mut by_table: BTreeMap<Uuid, TableJournal> =
                self.store.journals().await?.into_iter().map(|j| (j.table_id, j)).collect();
            let current = self.current.load(Relaxed);
            for (seq, path) in segments(&self.dir)? {
                if seq >= current {
                    continue;
                }
                let (rows, clean) = match read_segment(&path) {
                    // Listed, then gone: the unused segment a journal stopped just before this
                    // one (in this process) made ahead, removed as it stopped; never written.
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                    read => read?,
                };
                if !clean {
                    tracing::warn!(segment = %path.display(), entries = rows.len(), "table journal: a segment ends in a torn or damaged record; read up to it");
                }
                for r in rows {
                    let j = by_table
                        .entry(r.table_id)
                        .or_insert_with(|| TableJournal { table_id: r.table_id, ..TableJournal::default() });
                    if j.snapshot.as_ref().is_none_or(|(s, _)| r.n > *s) {
                        j.entries.push((r.n, r.entry));
                    }
                }
            }
            for j in by_table.values_mut() {
                // Carried entries come again after newer ones; a carry interrupted by a
                // crash leaves two copies.
                j.entries.sort_by_key(|(n, _)| *n);
                j.entries.dedup_by_key(|(n, _)| *n);
            }
            // Read: the segments before this start may now be compacted.
            let _ = self.compact_tx.send(current);
            Ok(by_table.into_values().collect())
        })
    }

    fn reset<'a>(&'a self, table: Uuid, n: u64, snapshot: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        // The new mark makes every entry up to `n` obsolete.
        self.store.journal_reset(table, n, snapshot)
    }

    fn stats(&self) -> &JournalStats {
        &self.stats
    }
}

/// Deletes obsolete segments each time the writer closes one (and once the journal is loaded).
async fn compact_loop(journal: std::sync::Weak<FileJournal>, mut rotated: mpsc::UnboundedReceiver<u64>) {
    while rotated.recv().await.is_some() {
        let Some(journal) = journal.upgrade() else { return };
        match journal.compact().await {
            Ok(0) => {}
            Ok(deleted) => tracing::debug!(deleted, "table journal: obsolete segments deleted"),
            Err(e) => tracing::warn!(error = %e, "table journal: segments not compacted; tried again at the next"),
        }
    }
}

/// The appending thread's state.
struct Writer {
    dir: PathBuf,
    /// `None` after a failed write whose next segment could not be created yet
    segment: Option<Segment>,
    /// the next segment, being made ahead ([`Segment::make_ahead`])
    spare: Option<MadeAhead>,
    segment_bytes: u64,
    current: Arc<AtomicU64>,
    stats: Arc<JournalStats>,
    rotated: mpsc::UnboundedSender<u64>,
}

impl Writer {
    fn run(mut self, mut rx: mpsc::UnboundedReceiver<Append>) {
        let mut buf = Vec::with_capacity(64 << 10);
        while let Some(first) = rx.blocking_recv() {
            let mut group = vec![first];
            while group.len() < MAX_GROUP {
                match rx.try_recv() {
                    Ok(a) => group.push(a),
                    Err(_) => break,
                }
            }
            let started = Instant::now();
            buf.clear();
            for a in &group {
                self.stats.queue.observe(started.saturating_duration_since(a.queued));
                encode(&a.row, &mut buf);
            }
            let ok = match self.write(&buf) {
                Ok(()) => {
                    self.stats.record(group.len(), started.elapsed());
                    true
                }
                Err(e) => {
                    self.stats.failures.fetch_add(group.len() as u64, Relaxed);
                    tracing::warn!(error = %e, entries = group.len(), "table journal: append failed; inputs refused");
                    // What the failed write left in the file may be torn: never append after it.
                    self.segment = None;
                    false
                }
            };
            for a in group {
                if ok {
                    self.stats.wait.observe(a.queued.elapsed());
                }
                let _ = a.done.send(ok);
            }
            if buf.capacity() > 1 << 20 {
                buf = Vec::with_capacity(64 << 10);
            }
        }
        // Stopped: the segment being made ahead is finished, then removed. Nothing was ever
        // written to it (it is the newest segment, and only the file its own `create_new`
        // made is removed), and the next start would only read its zeros.
        if let Some(Ok(Ok(spare))) = self.spare.take().map(std::thread::JoinHandle::join) {
            let seq = spare.seq;
            drop(spare);
            if let Err(e) = std::fs::remove_file(segment_path(&self.dir, seq)) {
                tracing::debug!(error = %e, seq, "table journal: the unused segment made ahead was left");
            }
        }
    }

    /// Moves on to the next segment: `ahead` if it was made, else a plain one made here; and
    /// starts making the one after it.
    fn rotate(&mut self, ahead: Option<Segment>) -> std::io::Result<()> {
        // Numbered on even if the creation fails: a file it may have left (created, its
        // directory entry not synced) is never opened again, and goes as an empty one.
        let seq = self.current.load(Relaxed) + 1;
        self.current.store(seq, Relaxed);
        let _ = self.rotated.send(seq);
        // The full segment is closed first: if a plain one cannot be created, the writer is
        // left with none, and the next write tries again.
        self.segment = None;
        let next = match ahead {
            Some(s) if s.seq == seq => s,
            _ => Segment::create(&self.dir, seq)?,
        };
        self.segment = Some(next);
        self.spare = Segment::make_ahead(&self.dir, seq + 1, self.segment_bytes);
        Ok(())
    }

    /// Writes and syncs `bytes` in the current segment (a new one when it is full or after a
    /// failure).
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let full = self.segment.as_ref().is_some_and(|s| s.len >= self.segment_bytes);
        // A plain segment (a start's first, or one made after a failure) is left as soon as
        // the one made ahead is ready.
        let early = !full
            && self.segment.as_ref().is_some_and(|s| !s.ahead)
            && self.spare.as_ref().is_some_and(std::thread::JoinHandle::is_finished);
        if full || early || self.segment.is_none() {
            // The one made ahead (usually long ready).
            let ahead = self.spare.take().and_then(|h| h.join().ok()).and_then(Result::ok);
            // If it could not be made, a plain segment goes on until it is full.
            if !early || ahead.is_some() {
                self.rotate(ahead)?;
            }
        }
        let Some(segment) = self.segment.as_mut() else {
            return Err(std::io::Error::other("no segment"));
        };
        segment.file.write_all(bytes)?;
        segment.file.sync_data()?;
        segment.len += bytes.len() as u64;
        Ok(())
    }
}

/// A segment being made ahead, on its thread.
type MadeAhead = std::thread::JoinHandle<std::io::Result<Segment>>;

struct Segment {
    seq: u64,
    file: File,
    /// bytes written (the file's position): a segment made ahead is longer, its tail zeros
    len: u64,
    /// made ahead ([`Segment::make_ahead`]), not plain ([`Segment::create`])
    ahead: bool,
}

impl Segment {
    /// A new, empty segment whose name is durable in the directory.
    fn create(dir: &Path, seq: u64) -> std::io::Result<Segment> {
        let file = OpenOptions::new().create_new(true).write(true).open(segment_path(dir, seq))?;
        sync_dir(dir)?;
        Ok(Segment { seq, file, len: 0, ahead: false })
    }

    /// Starts making segment `seq` on a thread of its own: `size` bytes of zeros, synced with
    /// its size and its name, so appends overwrite blocks it has. A segment it could not make
    /// whole is removed, and without a thread none is made: the writer then makes a plain one.
    fn make_ahead(dir: &Path, seq: u64, size: u64) -> Option<MadeAhead> {
        let dir = dir.to_owned();
        let spawned = std::thread::Builder::new().name("stud-journal-ahead".into()).spawn(move || {
            let segment = Segment::create(&dir, seq)?;
            let made = segment.zero_fill(size);
            if made.is_err() {
                let _ = std::fs::remove_file(segment_path(&dir, seq));
            }
            made
        });
        match spawned {
            Ok(thread) => Some(thread),
            Err(e) => {
                tracing::warn!(error = %e, "table journal: no thread to make the next segment ahead");
                None
            }
        }
    }

    fn zero_fill(mut self, size: u64) -> std::io::Result<Segment> {
        use std::io::{Seek as _, SeekFrom};
        let segment = &mut self;
        let zeros = vec![0u8; 1 << 20];
        let mut left = size;
        while left > 0 {
            let n = usize::try_from(left).unwrap_or(usize::MAX).min(zeros.len());
            segment.file.write_all(zeros.get(..n).unwrap_or_default())?;
            left -= n as u64;
        }
        segment.file.sync_all()?;
        segment.file.seek(SeekFrom::Start(0))?;
        Ok(Segment { ahead: true, ..self })
    }
}

fn segment_path(dir: &Path, seq: u64) -> PathBuf {
    dir.join(format!("{seq:020}.seg"))
}

/// The segments in `dir`, oldest first.
fn segments(dir: &Path) -> std::io::Result<Vec<(u64, PathBuf)>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let seq = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".seg"))
            .and_then(|n| n.parse::<u64>().ok());
        if let Some(seq) = seq {
            found.push((seq, path));
        }
    }
    found.sort();
    Ok(found)
}

fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Appends one record of `row` to `out`.
pub fn encode(row: &JournalRow, out: &mut Vec<u8>) {
    let start = out.len();
    let body = FIXED + row.entry.len();
    out.extend_from_slice(&u32::try_from(body).unwrap_or(u32::MAX).to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(row.table_id.as_bytes());
    out.extend_from_slice(&row.n.to_le_bytes());
    out.extend_from_slice(&row.at_ms.to_le_bytes());
    out.extend_from_slice(row.entry.as_bytes());
    let crc = CRC.checksum(out.get(start + HEADER..).unwrap_or_default());
    if let Some(slot) = out.get_mut(start + 4..start + HEADER) {
        slot.copy_from_slice(&crc.to_le_bytes());
    }
}

/// The records of `bytes` up to the first short or damaged one, and whether there was none (a
/// tail of zeros is a segment's unwritten part: its clean end).
pub fn decode(bytes: &[u8]) -> (Vec<JournalRow>, bool) {
    let (rows, end) = decode_with_end(bytes);
    (rows, bytes.get(end..).unwrap_or_default().iter().all(|b| *b == 0))
}

/// The records of `bytes` up to the first short or damaged one, and where they end (where the
/// writer's next record would go).
pub fn decode_with_end(bytes: &[u8]) -> (Vec<JournalRow>, usize) {
    let mut rows = Vec::new();
    let mut end = 0;
    while let Some(row) = bytes.get(end..).and_then(decode_one) {
        end += HEADER + FIXED + row.entry.len();
        rows.push(row);
    }
    (rows, end)
}

fn decode_one(bytes: &[u8]) -> Option<JournalRow> {
    let body_len = usize::try_from(u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?)).ok()?;
    if !(FIXED..=MAX_BODY).contains(&body_len) {
        return None;
    }
    Checked::of(bytes.get(..HEADER + body_len)?).map(|c| c.row())
}

/// A whole record, read in place: its checksum holds and its entry is UTF-8 (what [`decode`]
/// needs of a record to read on past it). Nothing is allocated until [`Checked::row`].
struct Checked<'a> {
    table_id: Uuid,
    n: u64,
    at_ms: u64,
    entry: &'a str,
}

impl<'a> Checked<'a> {
    fn of(record: &'a [u8]) -> Option<Checked<'a>> {
        let crc = u32::from_le_bytes(record.get(4..HEADER)?.try_into().ok()?);
        let body = record.get(HEADER..)?;
        if CRC.checksum(body) != crc {
            return None;
        }
        Some(Checked {
            table_id: Uuid::from_slice(body.get(..16)?).ok()?,
            n: u64::from_le_bytes(body.get(16..24)?.try_into().ok()?),
            at_ms: u64::from_le_bytes(body.get(24..FIXED)?.try_into().ok()?),
            entry: std::str::from_utf8(body.get(FIXED..)?).ok()?,
        })
    }

    fn row(&self) -> JournalRow {
        JournalRow { table_id: self.table_id, n: self.n, at_ms: self.at_ms, entry: self.entry.to_owned() }
    }
}

fn read_segment(path: &Path) -> std::io::Result<(Vec<JournalRow>, bool)> {
    Ok(decode(&std::fs::read(path)?))
}

/// The records of a segment whose table and input number `keep` wants, as [`decode`] reads
/// them (up to the first torn or damaged record), read one at a time: a compacted segment (up
/// to 8 MiB) is nearly all dead entries, and reading it whole put its size and its decoded
/// rows on the process's peak memory. A record not wanted is checked, never decoded.
pub fn read_segment_kept(path: &Path, keep: impl Fn(Uuid, u64) -> bool) -> std::io::Result<Vec<JournalRow>> {
    let mut kept = Vec::new();
    scan_segment(path, keep, |row| {
        kept.push(row);
        true
    })?;
    Ok(kept)
}

/// Whether a segment holds a record (before any torn or damaged one) whose table and input
/// number `keep` wants: read up to the first, nothing kept.
pub fn segment_holds(path: &Path, keep: impl Fn(Uuid, u64) -> bool) -> std::io::Result<bool> {
    let mut found = false;
    scan_segment(path, keep, |_| {
        found = true;
        false
    })?;
    Ok(found)
}

/// Reads a segment a record at a time, up to the first torn or damaged record, and gives
/// `each` the records `keep` wants until it says stop (`false`).
fn scan_segment(
    path: &Path,
    keep: impl Fn(Uuid, u64) -> bool,
    mut each: impl FnMut(JournalRow) -> bool,
) -> std::io::Result<()> {
    use std::io::Read as _;
    let file = std::fs::File::open(path)?;
    // What is left to read: a damaged length larger than that is a torn end, found without
    // allocating it.
    let mut left = file.metadata()?.len();
    let mut file = std::io::BufReader::with_capacity(64 << 10, file);
    let mut record = Vec::new();
    loop {
        record.clear();
        record.resize(HEADER, 0);
        match file.read_exact(&mut record) {
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            r => r?,
        }
        left = left.saturating_sub(HEADER as u64);
        let len = record.get(..4).and_then(|w| <[u8; 4]>::try_from(w).ok()).map(u32::from_le_bytes);
        let Some(body_len) = len
            .filter(|&l| u64::from(l) <= left)
            .and_then(|l| usize::try_from(l).ok())
            .filter(|l| (FIXED..=MAX_BODY).contains(l))
        else {
            break;
        };
        left -= body_len as u64;
        record.resize(HEADER + body_len, 0);
        match file.read_exact(&mut record[HEADER..]) {
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            r => r?,
        }
        let Some(checked) = Checked::of(&record) else { break };
        if keep(checked.table_id, checked.n) && !each(checked.row()) {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
