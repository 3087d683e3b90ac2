//! The cluster's JetStream journal and table leases against real `nats-server -js` processes
//! (see `nats_server.rs`: skipped with a notice when no 2.10+ binary is installed, failed
//! instead under `STUD_REQUIRE_NATS=1`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a failed unwrap is a failed test

mod nats_server;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nats_server::NatsServer;
use stud_server::cluster::{self, ClusterConfig, JetStreamJournal, LeaseError, Leases};
use stud_server::journal::{Journal, StoreJournal};
use stud_store::{JournalRow, SqliteStore, Store, TableJournal, TableWrites, Write};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

fn config(nats: &NatsServer, ttl: Duration) -> ClusterConfig {
    let mut c = ClusterConfig::new(nats.url());
    c.lease_ttl = ttl;
    c
}

/// One worker's view: its own connection, journal and leases.
async fn worker(config: &ClusterConfig, node: &str) -> (JetStreamJournal, Leases) {
    let (client, js) = cluster::connect(config).await.unwrap();
    let journal = JetStreamJournal::open(client, js.clone(), config, None).await.unwrap();
    let leases = Leases::open(&js, config, node).await.unwrap();
    (journal, leases)
}

fn row(table: Uuid, n: u64, text: &str) -> JournalRow {
    JournalRow { table_id: table, n, at_ms: 1_700_000_000_000 + n, entry: format!("{{\"n\":{n},\"x\":\"{text}\"}}") }
}

/// The same calls on the SQLite journal and on the JetStream one load the same journals:
/// two tables, a snapshot through the store's path (the writes of input 4 with the table's
/// state) or the cluster's (`JetStreamJournal::snapshot`), a reset after entries.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn round_trip_equals_the_sqlite_journal() {
    let Some(nats) = NatsServer::start() else { return };
    let cfg = config(&nats, Duration::from_secs(30));
    let (js_journal, leases) = worker(&cfg, "w1").await;
    let store: Arc<dyn Store> = Arc::new(SqliteStore::connect("sqlite::memory:").await.unwrap());
    let (sql_journal, _task) = StoreJournal::spawn(store.clone(), Duration::ZERO);

    let (t1, t2, t3) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
    for t in [t1, t2, t3] {
        let lease = leases.claim(t).await.unwrap().expect("unowned");
        js_journal.acquire(&lease).await.unwrap();
    }
    let journals: [&dyn Journal; 2] = [&*sql_journal, &js_journal];
    for j in journals {
        j.reset(t1, 0, "t1 at 0").await.unwrap();
        j.reset(t2, 0, "t2 at 0").await.unwrap();
        // t3 has entries and no snapshot.
        for n in 1..=6 {
            j.append(row(t1, n, "a")).await.unwrap();
            if n <= 3 {
                j.append(row(t2, n, "b")).await.unwrap();
                j.append(row(t3, n, "c")).await.unwrap();
            }
        }
        j.reset(t2, 3, "t2 at 3").await.unwrap();
        j.append(row(t2, 4, "b")).await.unwrap();
    }
    store
        .write_batch(&[Write::Table(Arc::new(TableWrites {
            table_id: t1,
            n: 4,
            writes: Vec::new(),
            snapshot: Some("t1 at 4".into()),
        }))])
        .await
        .unwrap();
    assert_eq!(messages_on(&cfg, t1).await, 7, "a reset marker and six entries");
    assert!(js_journal.snapshot(t1, 4, "t1 at 4").await.unwrap());
    assert_eq!(messages_on(&cfg, t1).await, 3, "the snapshot purged what is below entry 4");
    // An older snapshot never replaces a newer one.
    assert!(!js_journal.snapshot(t1, 2, "t1 at 2").await.unwrap());
    assert_eq!(messages_on(&cfg, t2).await, 2, "the second reset's marker and entry 4");

    let from_sql = sql_journal.load().await.unwrap();
    let from_js = js_journal.load().await.unwrap();
    assert_eq!(from_js, from_sql);
    let by_id: BTreeMap<Uuid, TableJournal> = from_js.into_iter().map(|j| (j.table_id, j)).collect();
    let t1j = &by_id[&t1];
    assert_eq!(t1j.snapshot, Some((4, "t1 at 4".to_owned())));
    assert_eq!(t1j.stored_n, 4);
    assert_eq!(t1j.entries, vec![(5, row(t1, 5, "a").entry), (6, row(t1, 6, "a").entry)]);
    assert_eq!(by_id[&t2].snapshot, Some((3, "t2 at 3".to_owned())));
    assert_eq!(by_id[&t2].entries, vec![(4, row(t2, 4, "b").entry)]);
    assert_eq!(by_id[&t3].snapshot, None);
    assert_eq!(by_id[&t3].entries.len(), 3);
    assert_eq!(js_journal.load_table(t1).await.unwrap().as_ref(), Some(t1j));
    assert_eq!(js_journal.load_table(Uuid::new_v4()).await.unwrap(), None);
    assert_eq!(js_journal.stats().appends.load(std::sync::atomic::Ordering::Relaxed), 13);
    // Every read's consumer is gone once it is read: a worker taking 1,000 tables over must
    // not hold 1,000 consumers (the server refuses new ones past its limit).
    for _ in 0..50 {
        js_journal.load_table(t1).await.unwrap();
    }
    assert_eq!(consumers(&cfg).await, 0, "reads left their consumers behind");
}

/// The journal stream's consumers.
async fn consumers(cfg: &ClusterConfig) -> usize {
    let (_, js) = cluster::connect(cfg).await.unwrap();
    let mut stream = js.get_stream(&cfg.journal_stream).await.unwrap();
    stream.info().await.unwrap().state.consumer_count
}

/// With the shared store given, a table's stored-writes mark is the store's when it is past
/// the snapshot (the writer stored inputs after it); without, it is the snapshot's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_marks_come_from_the_shared_store() {
    let Some(nats) = NatsServer::start() else { return };
    let cfg = config(&nats, Duration::from_secs(30));
    let store: Arc<dyn Store> = Arc::new(SqliteStore::connect("sqlite::memory:").await.unwrap());
    let (client, js) = cluster::connect(&cfg).await.unwrap();
    let with_marks = JetStreamJournal::open(client, js.clone(), &cfg, Some(store.clone())).await.unwrap();
    let (plain, leases) = worker(&cfg, "w1").await;
    let table = Uuid::new_v4();

    let lease = leases.claim(table).await.unwrap().expect("unowned");
    with_marks.acquire(&lease).await.unwrap();
    with_marks.reset(table, 0, "at 0").await.unwrap();
    for n in 1..=6 {
        with_marks.append(row(table, n, "x")).await.unwrap();
    }
    assert!(with_marks.snapshot(table, 3, "at 3").await.unwrap());
    store.journal_reset(table, 0, "at 0").await.unwrap();
    let writes = TableWrites { table_id: table, n: 5, writes: Vec::new(), snapshot: None };
    store.write_batch(&[Write::Table(Arc::new(writes))]).await.unwrap();

    let marked = with_marks.load().await.unwrap();
    assert_eq!(marked.len(), 1);
    assert_eq!(marked[0].stored_n, 5);
    assert_eq!(marked[0].snapshot, Some((3, "at 3".to_owned())));
    assert_eq!(marked[0].entries.iter().map(|e| e.0).collect::<Vec<_>>(), vec![4, 5, 6]);
    let unmarked = plain.load().await.unwrap();
    assert_eq!(unmarked[0].stored_n, 3);
    assert_eq!(unmarked[0].entries, marked[0].entries);
    // `plain` never acquired the table: it cannot write to it.
    assert!(plain.append(row(table, 7, "y")).await.is_err());
}

/// Messages on a table's journal subject, as the server counts them.
async fn messages_on(cfg: &ClusterConfig, table: Uuid) -> u64 {
    use futures_util::TryStreamExt as _;
    let (_, js) = cluster::connect(cfg).await.unwrap();
    let stream = js.get_stream(&cfg.journal_stream).await.unwrap();
    let mut subjects = stream.info_with_subjects(format!("{}.{table}", cfg.journal_prefix)).await.unwrap();
    let mut total = 0;
    while let Some((_, count)) = subjects.try_next().await.unwrap() {
        total += count as u64;
    }
    total
}

/// A worker whose lease lapsed and was taken can never append to the table again: JetStream
/// refuses its append (the new owner's claim moved the subject on), and it cannot take the
/// journal back with its old lease.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_append_after_the_lease_moved_is_refused() {
    let Some(nats) = NatsServer::start() else { return };
    let cfg = config(&nats, Duration::from_secs(1));
    let (journal_a, leases_a) = worker(&cfg, "a").await;
    let (journal_b, leases_b) = worker(&cfg, "b").await;
    let table = Uuid::new_v4();

    let mut lease_a = leases_a.claim(table).await.unwrap().expect("unowned");
    journal_a.acquire(&lease_a).await.unwrap();
    journal_a.reset(table, 0, "at 0").await.unwrap();
    journal_a.append(row(table, 1, "a")).await.unwrap();
    journal_a.append(row(table, 2, "a")).await.unwrap();
    assert_eq!(leases_b.claim(table).await.unwrap(), None, "a live lease cannot be claimed");
    // B may not write to a journal it has not acquired.
    assert!(journal_b.append(row(table, 3, "b")).await.is_err());

    // A stops renewing (cut off); its lease lapses and B takes the table.
    let started = Instant::now();
    let lease_b = loop {
        if let Some(l) = leases_b.claim(table).await.unwrap() {
            break l;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "the lease never lapsed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(lease_b.epoch > lease_a.epoch);
    journal_b.acquire(&lease_b).await.unwrap();
    let loaded = journal_b.load_table(table).await.unwrap().unwrap();
    assert_eq!(loaded.entries.iter().map(|e| e.0).collect::<Vec<_>>(), vec![1, 2]);

    // A, still believing it plays the table, appends: refused, and it lets the table go.
    assert!(journal_a.holds(table));
    assert!(journal_a.append(row(table, 3, "a")).await.is_err());
    assert!(!journal_a.holds(table));
    assert!(matches!(leases_a.renew(&mut lease_a).await, Err(LeaseError::Lost(_))));
    // Nor can it take the journal back with its old lease.
    assert!(matches!(journal_a.acquire(&lease_a).await, Err(cluster::ClusterError::Fenced(_))));
    assert!(journal_a.append(row(table, 3, "a")).await.is_err());

    journal_b.append(row(table, 3, "b")).await.unwrap();
    let loaded = journal_b.load_table(table).await.unwrap().unwrap();
    assert_eq!(
        loaded.entries,
        vec![(1, row(table, 1, "a").entry), (2, row(table, 2, "a").entry), (3, row(table, 3, "b").entry)]
    );
}

/// Claim, renew, release, and who holds what.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claim_renew_release() {
    let Some(nats) = NatsServer::start() else { return };
    let cfg = config(&nats, Duration::from_secs(30));
    let (_, a) = worker(&cfg, "a").await;
    let (_, b) = worker(&cfg, "b").await;
    let (t1, t2) = (Uuid::new_v4(), Uuid::new_v4());

    let mut l1 = a.claim(t1).await.unwrap().expect("unowned");
    assert_eq!(l1.epoch, l1.revision);
    assert_eq!(b.claim(t1).await.unwrap(), None);
    let l2 = b.claim(t2).await.unwrap().expect("unowned");
    let before = l1.revision;
    a.renew(&mut l1).await.unwrap();
    assert!(l1.revision > before);
    assert_eq!(l1.epoch, before, "renewing keeps the epoch");
    a.announce().await.unwrap();
    let (leased, workers) = b.list().await.unwrap();
    assert_eq!(leased, [t1, t2].into_iter().collect());
    assert_eq!(workers, ["a".to_owned(), "b".to_owned()].into_iter().collect(), "b itself and a, announced");

    // A stale revision cannot renew or release.
    let mut stale = l1.clone();
    stale.revision = before;
    assert!(matches!(a.renew(&mut stale).await, Err(LeaseError::Lost(_))));
    assert!(matches!(a.release(&stale).await, Err(LeaseError::Lost(_))));

    a.release(&l1).await.unwrap();
    assert!(!a.list().await.unwrap().0.contains(&t1));
    let taken = b.claim(t1).await.unwrap().expect("released");
    assert!(taken.epoch > l1.epoch);
    assert!(matches!(a.renew(&mut l1).await, Err(LeaseError::Lost(_))));
    assert!(b.list().await.unwrap().0.contains(&t1));
    b.release(&l2).await.unwrap();
    assert_eq!(b.list().await.unwrap().0.into_iter().collect::<Vec<_>>(), vec![t1]);
}

/// A lease bucket made earlier keeps its own expiry: a worker configured with a longer TTL
/// plays a table only as long as the bucket keeps its lease (never past the time another
/// worker may claim it); one configured shorter keeps its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lease_lasts_no_longer_than_the_bucket_keeps_it() {
    let Some(nats) = NatsServer::start() else { return };
    let (_, first) = worker(&config(&nats, Duration::from_secs(4)), "first").await;
    assert_eq!(first.ttl(), Duration::from_secs(4));
    let (_, longer) = worker(&config(&nats, Duration::from_secs(10)), "longer").await;
    assert_eq!(longer.ttl(), Duration::from_secs(4), "the bucket's 4 s, not the configured 10 s");
    let (_, shorter) = worker(&config(&nats, Duration::from_secs(2)), "shorter").await;
    assert_eq!(shorter.ttl(), Duration::from_secs(2));
}

/// The heartbeat keeps a lease while it runs; once it stops, the lease lapses within the TTL
/// of its last renewal (and not before), and another worker claims the table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lease_lapses_within_its_ttl_when_renewals_stop() {
    let Some(nats) = NatsServer::start() else { return };
    let ttl = Duration::from_secs(2);
    let cfg = config(&nats, ttl);
    let (_, a) = worker(&cfg, "a").await;
    let (_, b) = worker(&cfg, "b").await;
    let table = Uuid::new_v4();

    let lease = a.claim(table).await.unwrap().expect("unowned");
    let held = Arc::new(Mutex::new([(table, lease)].into_iter().collect()));
    let (lost_tx, mut lost_rx) = tokio::sync::mpsc::unbounded_channel();
    let stop = CancellationToken::new();
    let beat = cluster::spawn_heartbeat(a.clone(), held.clone(), lost_tx, stop.clone());

    // Two TTLs of heartbeats: the lease stays.
    let until = Instant::now() + ttl * 2;
    while Instant::now() < until {
        assert_eq!(b.claim(table).await.unwrap(), None, "claimed a lease that is being renewed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(lost_rx.try_recv().is_err());
    stop.cancel();
    beat.await.unwrap();
    let last = held.lock().unwrap()[&table].clone();
    assert!(last.revision > last.epoch, "the heartbeat renewed it");

    let taken = loop {
        if b.claim(table).await.unwrap().is_some() {
            break last.renewed.elapsed();
        }
        assert!(last.renewed.elapsed() < ttl * 3, "the lease never lapsed");
        tokio::time::sleep(Duration::from_millis(25)).await;
    };
    eprintln!("lease with a {ttl:?} TTL claimed by another worker {taken:?} after its last renewal");
    assert!(taken >= ttl, "lapsed early: {taken:?}");
    assert!(taken < ttl + Duration::from_millis(1_500), "lapsed late: {taken:?}");
}

/// NATS down: appends are refused (an error, not a hang); NATS back: they are taken again,
/// and the journal holds exactly the accepted ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nats_down_refuses_appends_and_back_accepts_them() {
    let Some(mut nats) = NatsServer::start() else { return };
    let cfg = config(&nats, Duration::from_secs(60));
    let (journal, leases) = worker(&cfg, "a").await;
    let table = Uuid::new_v4();
    let lease = leases.claim(table).await.unwrap().expect("unowned");
    journal.acquire(&lease).await.unwrap();
    journal.reset(table, 0, "at 0").await.unwrap();
    journal.append(row(table, 1, "up")).await.unwrap();

    nats.stop();
    let started = Instant::now();
    assert!(journal.append(row(table, 2, "down")).await.is_err());
    assert!(started.elapsed() < cfg.timeout + Duration::from_secs(1), "refusing took {:?}", started.elapsed());
    assert!(journal.load().await.is_err());
    assert!(journal.holds(table), "an outage is not a lost table");

    nats.restart();
    let started = Instant::now();
    loop {
        match journal.append(row(table, 2, "back")).await {
            Ok(()) => break,
            Err(_) => {
                assert!(started.elapsed() < Duration::from_secs(20), "appends still refused 20 s after NATS came back")
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("appends accepted again {:?} after NATS restarted", started.elapsed());
    journal.append(row(table, 3, "back")).await.unwrap();
    let loaded = journal.load_table(table).await.unwrap().unwrap();
    assert_eq!(loaded.snapshot, Some((0, "at 0".to_owned())));
    assert_eq!(
        loaded.entries,
        vec![(1, row(table, 1, "up").entry), (2, row(table, 2, "back").entry), (3, row(table, 3, "back").entry)]
    );
}

/// A worker process killed with SIGKILL while its heartbeat runs: its lease lapses within the
/// TTL of its last renewal, and another worker claims the table. The worker is this test
/// binary again, running `lease_holder_child` (which does nothing unless told to).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_holders_lease_lapses_within_its_ttl() {
    use std::io::BufRead as _;
    let Some(nats) = NatsServer::start() else { return };
    let ttl = Duration::from_secs(2);
    let cfg = config(&nats, ttl);
    let (_, b) = worker(&cfg, "b").await;
    let table = Uuid::new_v4();

    let mut child = KillOnDrop(
        std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "lease_holder_child", "--ignored", "--nocapture", "--test-threads=1"])
            .env("STUD_TEST_LEASE_HOLDER", format!("{} {table}", nats.url()))
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let stdout = child.0.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.starts_with("renewed") {
                let _ = tx.send(Instant::now());
            }
        }
    });
    // Wait for a renewal or two: the child holds the lease and keeps it past one TTL.
    let first = rx.recv_timeout(Duration::from_secs(20)).expect("the child claims and renews");
    assert!(b.list().await.unwrap().0.contains(&table), "the child's lease is listed");
    while first.elapsed() < ttl + Duration::from_millis(500) {
        assert_eq!(b.claim(table).await.unwrap(), None, "claimed a lease its holder renews");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    child.0.kill().unwrap(); // SIGKILL
    child.0.wait().unwrap();
    let killed = Instant::now();
    let last_renewal = rx.try_iter().last().unwrap_or(first);
    loop {
        if b.claim(table).await.unwrap().is_some() {
            break;
        }
        assert!(killed.elapsed() < ttl * 3, "the dead holder's lease never lapsed");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let (since_kill, since_renewal) = (killed.elapsed(), last_renewal.elapsed());
    eprintln!(
        "killed holder's lease ({ttl:?} TTL) claimed {since_kill:?} after SIGKILL, {since_renewal:?} after its last renewal"
    );
    assert!(since_kill <= ttl + Duration::from_millis(1_500), "lapsed late: {since_kill:?}");
    assert!(
        since_renewal < ttl + Duration::from_millis(1_500),
        "lapsed late after the last renewal: {since_renewal:?}"
    );
}

/// A child process that does not outlive a failed test.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The lease holder of `a_killed_holders_lease_lapses_within_its_ttl`, run as a child process;
/// without `STUD_TEST_LEASE_HOLDER` it returns at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a child process of a_killed_holders_lease_lapses_within_its_ttl"]
async fn lease_holder_child() {
    let Ok(spec) = std::env::var("STUD_TEST_LEASE_HOLDER") else { return };
    let (url, table) = spec.split_once(' ').unwrap();
    let table = Uuid::parse_str(table).unwrap();
    let mut cfg = ClusterConfig::new(url);
    cfg.lease_ttl = Duration::from_secs(2);
    let (_, leases) = worker(&cfg, "child").await;
    let lease = leases.claim(table).await.unwrap().expect("unowned");
    let held: cluster::Held = Arc::new(Mutex::new([(table, lease)].into_iter().collect()));
    let (lost_tx, _lost_rx) = tokio::sync::mpsc::unbounded_channel();
    let _beat = cluster::spawn_heartbeat(leases, held.clone(), lost_tx, CancellationToken::new());
    let mut revision = 0;
    let started = Instant::now();
    // Killed by the parent long before; the bound only keeps an orphan from running on.
    while started.elapsed() < Duration::from_secs(60) {
        let now = held.lock().unwrap().get(&table).map(|l| l.revision);
        match now {
            Some(r) if r != revision => {
                revision = r;
                println!("renewed {r}");
            }
            Some(_) => {}
            None => panic!("the child lost its lease"),
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A raw client signed in as `node` and the errors its server sends it (permission violations).
async fn client_noting_errors(nats: &NatsServer, node: &str) -> (async_nats::Client, Arc<Mutex<Vec<String>>>) {
    let password =
        if node.starts_with("gateway") { nats_server::GATEWAY_PASSWORD } else { nats_server::WORKER_PASSWORD };
    let errors = Arc::new(Mutex::new(Vec::new()));
    let noted = errors.clone();
    let client = async_nats::ConnectOptions::new()
        .user_and_password(node.into(), password.into())
        .custom_inbox_prefix(format!("_INBOX.{node}"))
        .event_callback(move |event| {
            let noted = noted.clone();
            async move {
                if let async_nats::Event::ServerError(e) = event {
                    noted.lock().unwrap().push(e.to_string());
                }
            }
        })
        .connect(nats.url())
        .await
        .unwrap();
    (client, errors)
}

/// Waits until `errors` holds one naming `subject`, for at most 5 s.
async fn refused(errors: &Mutex<Vec<String>>, what: &str, subject: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let found = errors.lock().unwrap().iter().any(|e| e.contains(what) && e.contains(subject));
        if found {
            return;
        }
        assert!(Instant::now() < deadline, "NATS did not refuse {what} {subject:?}: {:?}", errors.lock().unwrap());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// `deploy/nats-auth.conf`, the bus of the compose cluster: nobody connects without a user;
/// a worker signed in with the password in its URL keeps a journal and leases; a gateway
/// reads its own frames and replies only, and cannot publish a frame; a worker cannot publish
/// an input. What NATS refuses never arrives (the subscribers below would see it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bus_admits_only_the_nodes_each_to_what_its_role_needs() {
    use futures_util::StreamExt as _;
    let Some(nats) = NatsServer::start_secured() else { return };
    // No user, a wrong password, a user that does not exist: refused.
    let anonymous = cluster::connect(&ClusterConfig::new(nats.url())).await.map(|_| ()).unwrap_err().to_string();
    assert!(anonymous.to_lowercase().contains("authorization"), "{anonymous}");
    let wrong = nats.url_as("worker1").replace(nats_server::WORKER_PASSWORD, "guess");
    assert!(cluster::connect(&ClusterConfig::new(wrong)).await.is_err());
    let other_role = nats.url_as("gateway1").replace("gateway1", "worker1");
    assert!(cluster::connect(&ClusterConfig::new(other_role)).await.is_err(), "a gateway's password is not a worker's");

    // A worker at work: the journal stream, the buckets, a lease, an append.
    let mut wcfg = ClusterConfig::new(nats.url_as("worker1"));
    wcfg.node = "worker1".into();
    let (journal, leases) = worker(&wcfg, "worker1").await;
    let table = Uuid::new_v4();
    let lease = leases.claim(table).await.unwrap().expect("unowned");
    journal.acquire(&lease).await.unwrap();
    Journal::append(&journal, row(table, 1, "a")).await.unwrap();
    assert_eq!(journal.load_table(table).await.unwrap().unwrap().entries.len(), 1);

    let (gateway, gw_errors) = client_noting_errors(&nats, "gateway1").await;
    let (worker_client, wk_errors) = client_noting_errors(&nats, "worker1").await;
    let (worker2, _) = client_noting_errors(&nats, "worker2").await;
    let mut frames = gateway.subscribe("stud.out.gateway1").await.unwrap();
    let mut inputs = worker2.subscribe("stud.in.*").await.unwrap();
    gateway.flush().await.unwrap();
    worker2.flush().await.unwrap();

    // Refused: a gateway forging a frame, reading inputs, another gateway's frames, a worker's
    // replies, JetStream; a worker forging an input.
    gateway.publish("stud.out.gateway1", "forged by a gateway".into()).await.unwrap();
    gateway.flush().await.unwrap();
    refused(&gw_errors, "Publish", "stud.out.gateway1").await;
    for subject in ["stud.in.>", "stud.out.gateway2", "_INBOX.worker1.>", "stud.journal.>"] {
        let _sub = gateway.subscribe(subject).await.unwrap();
        gateway.flush().await.unwrap();
        refused(&gw_errors, "Subscription", subject).await;
    }
    gateway.publish("$JS.API.STREAM.DELETE.STUD_JOURNAL", "".into()).await.unwrap();
    gateway.flush().await.unwrap();
    refused(&gw_errors, "Publish", "$JS.API.STREAM.DELETE.STUD_JOURNAL").await;
    let forged = format!("stud.in.{table}");
    worker_client.publish(forged.clone(), "forged by a worker".into()).await.unwrap();
    worker_client.flush().await.unwrap();
    refused(&wk_errors, "Publish", &forged).await;

    // Allowed: a worker's frame reaches the gateway, a gateway's input reaches the worker, and
    // nothing refused arrived before them (each subject keeps its order).
    worker_client.publish("stud.out.gateway1", "a frame".into()).await.unwrap();
    gateway.publish(forged.clone(), "an input".into()).await.unwrap();
    let frame = tokio::time::timeout(Duration::from_secs(5), frames.next()).await.unwrap().unwrap();
    assert_eq!(&frame.payload[..], b"a frame");
    let input = tokio::time::timeout(Duration::from_secs(5), inputs.next()).await.unwrap().unwrap();
    assert_eq!(&input.payload[..], b"an input");
    // The journal is whole: the gateway's delete never happened.
    assert_eq!(journal.load_table(table).await.unwrap().unwrap().entries.len(), 1);
}

/// A node signs in with a token in its URL or with an nkey seed file (`STUD_NATS_NKEY_FILE`),
/// and keeps a journal and leases; without them NATS refuses it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_signs_in_with_a_token_or_an_nkey() {
    let Some(nats) = NatsServer::start_with("authorization { token: \"t0ken-s3cret\" }") else { return };
    assert!(cluster::connect(&ClusterConfig::new(nats.url())).await.is_err(), "no token");
    let url = nats.url().replace("nats://", "nats://t0ken-s3cret@");
    let (journal, leases) = worker(&ClusterConfig::new(url), "w1").await;
    let table = Uuid::new_v4();
    journal.acquire(&leases.claim(table).await.unwrap().expect("unowned")).await.unwrap();
    Journal::append(&journal, row(table, 1, "t")).await.unwrap();
    drop(nats);

    let user = nkeys::KeyPair::new_user();
    let conf = format!("authorization {{ users = [ {{ nkey: {} }} ] }}", user.public_key());
    let Some(nats) = NatsServer::start_with(&conf) else { return };
    assert!(cluster::connect(&ClusterConfig::new(nats.url())).await.is_err(), "no nkey");
    let seed = std::env::temp_dir().join(format!("stud-test-{}.nk", Uuid::new_v4().simple()));
    std::fs::write(&seed, format!("{}\n", user.seed().unwrap())).unwrap();
    let mut cfg = ClusterConfig::new(nats.url());
    cfg.auth.nkey_seed_file = Some(seed.clone());
    let (journal, leases) = worker(&cfg, "w1").await;
    journal.acquire(&leases.claim(table).await.unwrap().expect("unowned")).await.unwrap();
    Journal::append(&journal, row(table, 1, "n")).await.unwrap();
    assert_eq!(journal.load_table(table).await.unwrap().unwrap().entries.len(), 1);
    let _ = std::fs::remove_file(seed);
    // A seed that is not one is a clear error, not a hang.
    let bad = std::env::temp_dir().join(format!("stud-test-{}.nk", Uuid::new_v4().simple()));
    std::fs::write(&bad, "not a seed").unwrap();
    cfg.auth.nkey_seed_file = Some(bad.clone());
    assert!(cluster::connect(&cfg).await.is_err());
    let _ = std::fs::remove_file(bad);
}

/// `openssl` (the CLI) at work in `dir`; panics with its output if it fails.
fn openssl(dir: &std::path::Path, args: &[&str]) {
    let out = std::process::Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the openssl command line tool (Debian: apt install openssl) makes the TLS test's certificates");
    assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A CA, and a certificate it signed for `name` (files `<name>.pem`, `<name>.key`) valid for
/// 127.0.0.1 and localhost.
fn signed_certificate(dir: &std::path::Path, name: &str) {
    let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    let key = format!("{name}.key");
    let csr = format!("{name}.csr");
    let pem = format!("{name}.pem");
    openssl(dir, &[&["req"][..], &ec, &["-keyout", &key, "-out", &csr, "-subj", &format!("/CN={name}")]].concat());
    std::fs::write(dir.join(format!("{name}.ext")), "subjectAltName=IP:127.0.0.1,DNS:localhost\n").unwrap();
    let ext = format!("{name}.ext");
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            &csr,
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            &pem,
            "-days",
            "2",
            "-extfile",
            &ext,
        ],
    );
}

/// NATS over TLS that verifies its clients: a node with the CA and a client certificate
/// (`STUD_NATS_TLS_CA`, `STUD_NATS_TLS_CERT`, `STUD_NATS_TLS_KEY`) keeps a journal; without
/// the client certificate, or without the CA (the server is not trusted), it does not connect.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_speaks_tls_to_nats_with_a_client_certificate() {
    let dir = std::env::temp_dir().join(format!("stud-tls-{}", Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    openssl(
        &dir,
        &[
            &["req", "-x509"][..],
            &ec,
            &["-keyout", "ca.key", "-out", "ca.pem", "-subj", "/CN=stud-test-ca", "-days", "2"],
        ]
        .concat(),
    );
    signed_certificate(&dir, "server");
    signed_certificate(&dir, "node");
    let path = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let conf = format!(
        "tls {{ cert_file: \"{}\", key_file: \"{}\", ca_file: \"{}\", verify: true, timeout: 2 }}",
        path("server.pem"),
        path("server.key"),
        path("ca.pem")
    );
    let Some(nats) = NatsServer::start_with(&conf) else { return };
    let url = nats.url().replace("nats://", "tls://");
    let mut cfg = ClusterConfig::new(url);
    cfg.auth.tls_ca = Some(dir.join("ca.pem"));
    cfg.auth.tls_client = Some((dir.join("node.pem"), dir.join("node.key")));
    let (journal, leases) = worker(&cfg, "w1").await;
    let table = Uuid::new_v4();
    journal.acquire(&leases.claim(table).await.unwrap().expect("unowned")).await.unwrap();
    Journal::append(&journal, row(table, 1, "tls")).await.unwrap();
    assert_eq!(journal.load_table(table).await.unwrap().unwrap().entries.len(), 1);

    let mut no_cert = cfg.clone();
    no_cert.auth.tls_client = None;
    let refused = cluster::connect(&no_cert).await.map(|_| ()).unwrap_err().to_string();
    assert!(refused.contains("CertificateRequired"), "{refused}");
    let mut no_ca = cfg.clone();
    no_ca.auth.tls_ca = None;
    let refused = cluster::connect(&no_ca).await.map(|_| ()).unwrap_err().to_string();
    assert!(refused.contains("certificate") || refused.contains("UnknownIssuer"), "{refused}");
    drop(nats);
    let _ = std::fs::remove_dir_all(dir);
}
