use std::io::Write as _;
use std::sync::Arc;

use stud_store::{JournalRow, Store};
use uuid::Uuid;

use super::{
    CRC, FileJournal, HEADER, decode, decode_with_end, encode, read_segment_kept, segment_holds, segment_path, segments,
};
use crate::journal::Journal;

fn row(table: Uuid, n: u64) -> JournalRow {
    JournalRow {
        table_id: table,
        n,
        at_ms: 1_700_000_000_000 + n,
        entry: format!("{{\"n\":{n},\"pad\":\"{}\"}}", "x".repeat(100)),
    }
}

async fn store() -> Arc<dyn Store> {
    stud_store::open("sqlite::memory:").await.unwrap()
}

fn temp_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("stud-file-journal-{}", Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Drops a journal and waits for its threads (the writer, and the segment it makes ahead).
async fn close(journal: Arc<FileJournal>, done: tokio::task::JoinHandle<()>) {
    drop(journal);
    let _ = done.await;
}

fn entries(journals: &[stud_store::TableJournal], table: Uuid) -> Vec<u64> {
    journals
        .iter()
        .find(|j| j.table_id == table)
        .map(|j| j.entries.iter().map(|(n, _)| *n).collect())
        .unwrap_or_default()
}

#[test]
fn records_read_back_and_a_torn_tail_stops_the_reading_at_the_last_whole_record() {
    let t = Uuid::new_v4();
    let mut bytes = Vec::new();
    for n in 1..=3 {
        encode(&row(t, n), &mut bytes);
    }
    let (rows, clean) = decode(&bytes);
    assert!(clean);
    assert_eq!(rows, vec![row(t, 1), row(t, 2), row(t, 3)]);
    let two = {
        let mut b = Vec::new();
        encode(&row(t, 1), &mut b);
        encode(&row(t, 2), &mut b);
        b.len()
    };
    // Cut anywhere inside the third record: the first two, and the cut is reported.
    for cut in two + 1..bytes.len() {
        let (rows, clean) = decode(&bytes[..cut]);
        assert_eq!(rows, vec![row(t, 1), row(t, 2)], "cut at {cut}");
        assert!(!clean, "cut at {cut}");
    }
    // A flipped bit in the second record's entry: only the first.
    let mut damaged = bytes.clone();
    damaged[two - 3] ^= 0x10;
    assert_eq!(decode(&damaged).0, vec![row(t, 1)]);
}

#[test]
fn a_segment_read_a_record_at_a_time_keeps_what_is_asked_up_to_a_torn_or_damaged_record() {
    let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
    let mut bytes = Vec::new();
    for n in 1..=40 {
        encode(&row(if n % 3 == 0 { a } else { b }, n), &mut bytes);
    }
    let path = temp_dir().join("segment");
    let keep = |r: &JournalRow| r.table_id == a || r.n > 35;
    let read = |bytes: &[u8]| {
        std::fs::write(&path, bytes).unwrap();
        let kept = read_segment_kept(&path, |table, n| table == a || n > 35).unwrap();
        // Whether the segment holds one is whether the same read finds one.
        assert_eq!(segment_holds(&path, |table, n| table == a || n > 35).unwrap(), !kept.is_empty());
        assert_eq!(
            segment_holds(&path, |table, _| table == b).unwrap(),
            decode(bytes).0.iter().any(|r| r.table_id == b)
        );
        kept
    };
    let whole: Vec<JournalRow> = decode(&bytes).0.into_iter().filter(|r| keep(r)).collect();
    assert_eq!(whole.len(), 13 + 3);
    assert_eq!(read(&bytes), whole);
    // Cut anywhere, or a flipped bit anywhere: the same as reading the file whole.
    for at in (0..bytes.len()).step_by(37) {
        let cut: Vec<JournalRow> = decode(&bytes[..at]).0.into_iter().filter(|r| keep(r)).collect();
        assert_eq!(read(&bytes[..at]), cut, "cut at {at}");
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x04;
        let expected: Vec<JournalRow> = decode(&damaged).0.into_iter().filter(|r| keep(r)).collect();
        assert_eq!(read(&damaged), expected, "bit flipped at {at}");
    }
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[tokio::test]
async fn appended_entries_survive_a_restart_after_the_snapshot_mark_and_a_torn_tail() {
    let (dir, store) = (temp_dir(), store().await);
    let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
    {
        let (journal, _done) = FileJournal::open(&dir, store.clone()).unwrap();
        journal.reset(a, 0, "snapshot a").await.unwrap();
        journal.reset(b, 0, "snapshot b").await.unwrap();
        for n in 1..=5 {
            journal.append(row(a, n)).await.unwrap();
            journal.append(row(b, n)).await.unwrap();
        }
        // b's snapshot at 3 makes 1..=3 obsolete.
        journal.reset(b, 3, "snapshot b at 3").await.unwrap();
    }
    // A crash in the middle of a write: half a record after the last whole one (in the
    // segment written to, not the one made ahead of it, all zeros).
    let (last, end) = segments(&dir)
        .unwrap()
        .into_iter()
        .rev()
        .find_map(|(_, p)| {
            let (rows, end) = decode_with_end(&std::fs::read(&p).unwrap());
            (!rows.is_empty()).then_some((p, end))
        })
        .unwrap();
    let mut half = Vec::new();
    encode(&row(a, 6), &mut half);
    half.truncate(half.len() / 2);
    let mut file = std::fs::OpenOptions::new().write(true).open(&last).unwrap();
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(end as u64)).unwrap();
    file.write_all(&half).unwrap();
    drop(file);

    let (journal, _done) = FileJournal::open(&dir, store.clone()).unwrap();
    let loaded = journal.load().await.unwrap();
    assert_eq!(entries(&loaded, a), vec![1, 2, 3, 4, 5], "the torn 6th was never acknowledged");
    assert_eq!(entries(&loaded, b), vec![4, 5]);
    let snapshot = loaded.iter().find(|j| j.table_id == b).unwrap().snapshot.clone();
    assert_eq!(snapshot, Some((3, "snapshot b at 3".to_owned())));
    // The next append goes to a new segment, never after the torn record.
    journal.append(row(a, 6)).await.unwrap();
    drop(journal);
    let (journal, done) = FileJournal::open(&dir, store).unwrap();
    assert_eq!(entries(&journal.load().await.unwrap(), a), vec![1, 2, 3, 4, 5, 6]);
    close(journal, done).await;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A segment made ahead is its full size in zeros; appends overwrite it from the start, and
/// its zero tail reads as a clean end: nothing is lost or made up across a restart. A start's
/// first segment is plain and left as soon as the one made ahead is ready.
#[tokio::test]
async fn segments_are_made_ahead_zero_filled_and_read_to_their_written_end() {
    use std::sync::atomic::Ordering::Relaxed;
    const SIZE: u64 = 64 << 10;
    let (dir, store) = (temp_dir(), store().await);
    let t = Uuid::new_v4();
    let (journal, done) = FileJournal::open_with(&dir, store.clone(), SIZE).unwrap();
    journal.reset(t, 0, "t").await.unwrap();
    // One at a time, slowly: segment 2 is ready long before the first could fill (about 450
    // of these records).
    let mut n = 0;
    while journal.current.load(Relaxed) < 2 && n < 2_000 {
        n += 1;
        journal.append(row(t, n)).await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    journal.append(row(t, n + 1)).await.unwrap();
    n += 1;
    // The first, plain, was left early (empty, it may be compacted away already).
    let first = std::fs::read(segment_path(&dir, 1)).unwrap_or_default();
    assert!((first.len() as u64) < SIZE, "the first segment was left only when full");
    let before = decode(&first).0.len() as u64;
    let second = std::fs::read(segment_path(&dir, 2)).unwrap();
    assert_eq!(second.len() as u64, SIZE);
    let (rows, clean) = decode(&second);
    assert!(clean, "a zero tail is a clean end");
    assert_eq!(rows, ((before + 1)..=n).map(|k| row(t, k)).collect::<Vec<_>>());
    // Zeros, then anything else, are damage.
    let mut damaged = second.clone();
    damaged[60_000] = 1;
    assert_eq!(decode(&damaged), (rows, false));
    // A full segment moves on to the next one made ahead.
    while journal.current.load(Relaxed) < 3 {
        let batch: Vec<_> = (n + 1..=n + 50).map(|k| journal.append(row(t, k))).collect();
        for appended in futures_util::future::join_all(batch).await {
            appended.unwrap();
        }
        n += 50;
    }
    assert_eq!(std::fs::read(segment_path(&dir, 3)).unwrap().len() as u64, SIZE);
    let spare = segment_path(&dir, 4);
    for _ in 0..2_000 {
        if spare.exists() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    assert!(spare.exists(), "segment 4 is made ahead while 3 fills");
    // A journal that stops removes the segment it made ahead and never wrote to.
    close(journal, done).await;
    assert!(!spare.exists(), "the unused segment made ahead is left behind");
    assert_eq!(segments(&dir).unwrap().last().map(|(seq, _)| *seq), Some(3));
    let (journal, done) = FileJournal::open_with(&dir, store, SIZE).unwrap();
    assert_eq!(entries(&journal.load().await.unwrap(), t), (1..=n).collect::<Vec<_>>());
    close(journal, done).await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn obsolete_segments_are_deleted_and_an_idle_tables_entries_are_carried_forward() {
    let (dir, store) = (temp_dir(), store().await);
    let (busy, idle) = (Uuid::new_v4(), Uuid::new_v4());
    // About 7 records a segment.
    let (journal, done) = FileJournal::open_with(&dir, store.clone(), 1_000).unwrap();
    journal.reset(busy, 0, "busy").await.unwrap();
    journal.reset(idle, 0, "idle").await.unwrap();
    journal.append(row(idle, 1)).await.unwrap();
    journal.append(row(idle, 2)).await.unwrap();
    for n in 1..=300 {
        journal.append(row(busy, n)).await.unwrap();
        if n % 20 == 0 {
            // The busy table's snapshot is stored every 20 inputs.
            journal.reset(busy, n, "busy").await.unwrap();
            journal.compact().await.unwrap();
        }
    }
    journal.compact().await.unwrap();
    // The kept closed ones, the one written to, the one made ahead, and one closed since.
    let left = segments(&dir).unwrap().len();
    assert!(left <= super::KEEP_SEGMENTS + 3, "{left} segments left of about 45 written");
    // Read as a start reads them: the last carry may be in the segment written to, which a
    // running journal's `load` leaves out.
    close(journal, done).await;
    let (journal, done) = FileJournal::open(&dir, store).unwrap();
    let loaded = journal.load().await.unwrap();
    assert_eq!(entries(&loaded, idle), vec![1, 2], "the idle table's entries were carried, not dropped");
    assert_eq!(entries(&loaded, busy), Vec::<u64>::new(), "everything of the busy table is in its snapshot");
    close(journal, done).await;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A record whose checksum holds but whose entry is not UTF-8 (no encoder of ours writes one)
/// ends a segment for the scan as it does for `decode`: the records after it are not read.
#[test]
fn a_record_that_is_not_utf8_ends_the_scan_as_it_ends_a_read() {
    let t = Uuid::new_v4();
    let mut bytes = Vec::new();
    encode(&row(t, 1), &mut bytes);
    let second = bytes.len();
    encode(&row(t, 2), &mut bytes);
    let third = bytes.len();
    encode(&row(t, 3), &mut bytes);
    // The second record's last entry byte made invalid UTF-8, its checksum made right again.
    bytes[third - 1] = 0xFF;
    let crc = CRC.checksum(&bytes[second + HEADER..third]);
    bytes[second + 4..second + HEADER].copy_from_slice(&crc.to_le_bytes());
    assert_eq!(decode(&bytes).0, vec![row(t, 1)]);
    let path = temp_dir().join("segment");
    std::fs::write(&path, &bytes).unwrap();
    // Not wanted itself, the bad record still ends the read.
    assert_eq!(read_segment_kept(&path, |_, n| n != 2).unwrap(), vec![row(t, 1)]);
    assert!(!segment_holds(&path, |_, n| n == 3).unwrap(), "a record past the bad one was read");
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// A segment listed and then gone when read (a journal stopped just before, in this process,
/// removing the one it made ahead) is passed over by `load` and by compaction, not an error
/// that would keep the server from starting.
#[tokio::test]
async fn a_segment_gone_after_it_was_listed_is_passed_over() {
    let (dir, store) = (temp_dir(), store().await);
    let t = Uuid::new_v4();
    let (journal, done) = FileJournal::open(&dir, store.clone()).unwrap();
    journal.reset(t, 0, "t").await.unwrap();
    journal.append(row(t, 1)).await.unwrap();
    close(journal, done).await;
    // Listed, but there is nothing to read: a link to no file.
    let last = segments(&dir).unwrap().last().unwrap().0;
    std::os::unix::fs::symlink(dir.join("nowhere"), segment_path(&dir, last + 1)).unwrap();
    let (journal, done) = FileJournal::open(&dir, store).unwrap();
    assert!(journal.current.load(std::sync::atomic::Ordering::Relaxed) > last + 1, "numbered past the listed one");
    assert_eq!(entries(&journal.load().await.unwrap(), t), vec![1]);
    journal.compact().await.unwrap();
    close(journal, done).await;
    std::fs::remove_dir_all(&dir).unwrap();
}
