//! Memory stays bounded: `stud serve` runs as a child process; N guest sessions are created
//! and abandoned; they expire (a short `STUD_SESSION_IDLE_DAYS`), the sweep empties the session
//! cache and the bank, the database connections the wave opened go idle and close (a short
//! `STUD_DATABASE_IDLE_SECS`), and the server's RSS (`VmRSS` of /proc/PID/status) comes back:
//! at least three quarters of what the wave took, and with `RUN_SLOW_TESTS=1` (100,000
//! sessions, the issue's soak) to within 10% of what it was at boot.
//!
//! 20,000 sessions, or 100,000 with `RUN_SLOW_TESTS=1` (BENCHMARKS.md has the figures; set
//! `STUD_TEST_BIN` to run a release build). On Postgres (`TEST_DATABASE_URL`) only; skipped
//! with a notice otherwise.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a failed unwrap is a failed test

use std::process::Child;
use std::time::{Duration, Instant};

mod serve;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader as AsyncBufReader};
use tokio::net::TcpStream;

/// A line of /proc/PID/status, KiB.
fn status_kib(pid: u32, key: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with(key)).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn rss_kib(pid: u32) -> u64 {
    status_kib(pid, "VmRSS:")
}

/// The names of the process's threads.
fn threads(pid: u32) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(format!("/proc/{pid}/task"))
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .map(|n| n.trim().to_owned())
        .collect();
    names.sort();
    names
}

/// The RSS as (anonymous, file-backed), KiB: the heap and stacks, and the binary's pages.
fn rss_split(pid: u32) -> (u64, u64) {
    (status_kib(pid, "RssAnon:"), status_kib(pid, "RssFile:"))
}

fn start(db: &str, idle_s: f64) -> (Child, String) {
    let mut command = serve::serve();
    command
        .args(["--bind", "127.0.0.1:0", "--database-url", db])
        .env("STUD_TABLES_PER_VARIANT", "1")
        .env("STUD_SESSIONS_PER_MINUTE_PER_IP", "0")
        .env("STUD_SESSION_IDLE_DAYS", format!("{}", idle_s / 86_400.0))
        .env("STUD_DATABASE_IDLE_SECS", POOL_IDLE_S.to_string());
    let (child, addr) = serve::spawn(command, serve::LISTENING, |line| {
        if line.contains("panicked") || line.contains("ERROR") {
            eprintln!("server: {line}");
        }
    });
    let addr = addr.expect("the server did not start");
    (child, addr)
}

/// Creates `n` guest sessions over one keep-alive connection and forgets their tokens.
async fn create(addr: String, n: usize) {
    let mut stream = AsyncBufReader::new(TcpStream::connect(&addr).await.unwrap());
    let body = r#"{"name":"soak"}"#;
    let request = format!(
        "POST /api/sessions HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    for _ in 0..n {
        stream.get_mut().write_all(request.as_bytes()).await.unwrap();
        let mut status = String::new();
        stream.read_line(&mut status).await.unwrap();
        assert!(status.contains(" 201 "), "{status}: {:?}", {
            let mut rest = vec![0; 300];
            let n = stream.read(&mut rest).await.unwrap_or(0);
            String::from_utf8_lossy(&rest[..n]).into_owned()
        });
        let mut length = 0usize;
        loop {
            let mut line = String::new();
            stream.read_line(&mut line).await.unwrap();
            if line == "\r\n" {
                break;
            }
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap();
            }
        }
        let mut reply = vec![0; length];
        stream.read_exact(&mut reply).await.unwrap();
    }
}

async fn metric(addr: &str, name: &str) -> u64 {
    let (_, text) = stud_client::http(addr, "GET", "/metrics", None).await.unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|v| v.strip_prefix(' ')))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in /metrics"))
}

/// Creates `n` sessions from 8 connections; returns the largest RSS seen meanwhile.
async fn wave(addr: &str, pid: u32, n: usize) -> u64 {
    let tasks: Vec<_> = (0..8).map(|_| tokio::spawn(create(addr.to_owned(), n / 8))).collect();
    let mut peak = rss_kib(pid);
    while !tasks.iter().all(tokio::task::JoinHandle::is_finished) {
        peak = peak.max(rss_kib(pid));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for t in tasks {
        t.await.unwrap();
    }
    peak.max(rss_kib(pid))
}

/// The server closes a database connection unused this long, seconds.
const POOL_IDLE_S: u64 = 2;

/// Waits until the sweep has emptied the session cache and the bank, then long enough that
/// every idle worker has collected its freed pages once (`COLLECT_EVERY` in
/// `src/allocator.rs`, 5 s) and the pool has closed the connections the wave opened (idle for
/// `POOL_IDLE_S`, found by a reaper that runs as often).
async fn drained(addr: &str) -> Duration {
    let began = Instant::now();
    while metric(addr, "stud_sessions_cached").await > 0 || metric(addr, "stud_accounts_held").await > 0 {
        assert!(began.elapsed() < Duration::from_secs(120), "sessions never left memory");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tokio::time::sleep(Duration::from_secs(6).max(Duration::from_secs(3 * POOL_IDLE_S))).await;
    began.elapsed()
}

/// The RSS once the wave's memory is back: read each second for up to 20 s, with requests
/// each time. A worker collects its freed pages when it parks, at most every `COLLECT_EVERY`
/// (5 s): one that parked just after a collect keeps its pages until it next wakes, so the
/// requests wake the workers until each has parked past its 5 s. Returns the first reading
/// within the bound the test asserts (a quarter of what the wave took), else the last.
async fn given_back(addr: &str, pid: u32, boot: u64, peak: u64) -> u64 {
    let mut after = rss_kib(pid);
    for _ in 0..20 {
        if after.saturating_sub(boot) * 4 <= peak.saturating_sub(boot) {
            break;
        }
        // Several at once, so that every worker (not only the one that accepts) wakes.
        let wake = (0..8).map(|_| metric(addr, "stud_sessions_cached"));
        futures_util::future::join_all(wake).await;
        tokio::time::sleep(Duration::from_secs(1)).await;
        after = rss_kib(pid);
    }
    after
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn abandoned_sessions_give_their_memory_back() {
    let slow = std::env::var_os("RUN_SLOW_TESTS").is_some();
    let n = if slow { 100_000 } else { 20_000 };
    // Long enough that every session of a wave is alive at its end (a wave of 20,000 takes
    // 6-10 s here, one of 100,000 40-70 s): sessions expiring while the next ones are still
    // being created interleave frees and long-lived allocations, and the allocator keeps more
    // pages (5,000 sessions expiring after 3 s: +12-18% of boot; after 30 s: +4-5% in most runs).
    let idle_s = if slow { 90.0 } else { 30.0 };
    // On SQLite the database lives in the server's process and allocates through glibc, not
    // the server's allocator: its page caches and the expiry's large DELETE move the RSS by
    // 5-18% from run to run (BENCHMARKS.md), so the figure would say nothing about the
    // server's own memory. The test runs where the database is another process.
    if std::env::var_os("TEST_DATABASE_URL").is_none() {
        assert!(
            std::env::var_os("STUD_REQUIRE_POSTGRES").is_none(),
            "STUD_REQUIRE_POSTGRES is set but TEST_DATABASE_URL is not: the soak test would be skipped"
        );
        eprintln!("notice: TEST_DATABASE_URL is not set: the session soak test (Postgres) is skipped");
        return;
    }
    // The database is another process: the RSS is the server's own.
    let url = std::env::var("TEST_DATABASE_URL").unwrap();
    let name = format!("soak_{}", std::process::id());
    let admin = sqlx::PgPool::connect(&url).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name}"))).execute(&admin).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}"))).execute(&admin).await.unwrap();
    let (base, _) = url.rsplit_once('/').unwrap();
    let db = format!("{base}/{name}");
    let (mut child, addr) = start(&db, idle_s);
    let pid = child.id();
    // The server as it stands once started, ready (it has answered its readiness probe, as a
    // container's health check would ask it) and idle. Before that first request the HTTP
    // stack has not run once; against that figure the rise is 0.4-0.9 MiB more
    // (BENCHMARKS.md).
    let (status, _) = stud_client::http(&addr, "GET", "/healthz", None).await.unwrap();
    assert_eq!(status, 200);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let boot = rss_kib(pid);
    let boot_split = rss_split(pid);
    let boot_threads = threads(pid);
    let began = Instant::now();
    let peak = wave(&addr, pid, n).await;
    let created_in = began.elapsed();
    let peak_cached = metric(&addr, "stud_sessions_cached").await;
    let wait = drained(&addr).await;
    let after = given_back(&addr, pid, boot, peak).await;
    let after_split = rss_split(pid);
    let after_threads = threads(pid);
    let connections: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = '{name}'"
    )))
    .fetch_one(&admin)
    .await
    .unwrap();
    let expired = metric(&addr, "stud_sessions_expired_total").await;
    eprintln!(
        "soak (postgres): {n} sessions in {:.1} s ({} cached at the end of creation); RSS KiB: boot {boot}, \
         peak {peak}, after expiry {after} ({:+.1}% of boot; anonymous {:+}, file-backed {:+}), read {:.1} s after the sweep began; {expired} expired; \
         threads at boot {boot_threads:?}, after {after_threads:?}; {connections} database connections open after",
        created_in.as_secs_f64(),
        peak_cached,
        (after as f64 - boot as f64) * 100.0 / boot as f64,
        after_split.0 as i64 - boot_split.0 as i64,
        after_split.1 as i64 - boot_split.1 as i64,
        wait.as_secs_f64(),
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(expired >= n as u64, "{expired} of {n} expired");
    assert!(peak > boot, "the sessions took no memory: the test measures nothing");
    // What the wave took is given back: at least three quarters of it, whatever the size.
    assert!(
        (after.saturating_sub(boot)) * 4 <= peak - boot,
        "RSS {after} KiB after expiry, {boot} KiB at boot, {peak} KiB at the peak: less than 3/4 given back"
    );
    // The issue's figure, on the run of 100,000: within 10% of boot. The allocator keeps
    // 0.2-1.7 MiB of pages that still hold a few long-lived objects made during the wave (the
    // live heap itself is back at its boot size: BENCHMARKS.md); at 5,000 sessions on the
    // dev build (about 16 MiB at boot) that put one run in six over 10%, at 100,000 on the
    // release build none (+6.7%, +8.1%).
    if slow {
        assert!(after * 10 <= boot * 11, "RSS {after} KiB after expiry, {boot} KiB at boot: over 10% more");
    }
}
