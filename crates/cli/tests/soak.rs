//! Memory stays bounded: `stud serve` runs as a child process; N guest sessions are created
//! and abandoned; they expire (a short `STUD_SESSION_IDLE_DAYS`), the sweep empties the session
//! cache and the bank, and the server's RSS (`VmRSS` of /proc/PID/status) comes back to within
//! 10% of what it was before the sessions (after a first wave of the same size that expires
//! too, so pools, caches and buffers that live for the process exist already).
//!
//! Always 5,000 sessions; `RUN_SLOW_TESTS=1` makes it 100,000 (BENCHMARKS.md has the figures).
//! On Postgres (`TEST_DATABASE_URL`) only; skipped with a notice otherwise.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a failed unwrap is a failed test

use std::process::Child;
use std::time::{Duration, Instant};

mod serve;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader as AsyncBufReader};
use tokio::net::TcpStream;

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn start(db: &str, idle_s: f64) -> (Child, String) {
    let mut command = serve::serve();
    command
        .args(["--bind", "127.0.0.1:0", "--database-url", db])
        .env("STUD_TABLES_PER_VARIANT", "1")
        .env("STUD_SESSIONS_PER_MINUTE_PER_IP", "0")
        .env("STUD_SESSION_IDLE_DAYS", format!("{}", idle_s / 86_400.0));
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

/// Waits until the sweep has emptied the session cache and the bank, then long enough that
/// every idle worker has collected its freed pages once (`COLLECT_EVERY` in
/// `src/allocator.rs`, 5 s).
async fn drained(addr: &str) -> Duration {
    let began = Instant::now();
    while metric(addr, "stud_sessions_cached").await > 0 || metric(addr, "stud_accounts_held").await > 0 {
        assert!(began.elapsed() < Duration::from_secs(120), "sessions never left memory");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tokio::time::sleep(Duration::from_secs(6)).await;
    began.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn abandoned_sessions_give_their_memory_back() {
    let slow = std::env::var_os("RUN_SLOW_TESTS").is_some();
    let n = if slow { 100_000 } else { 5_000 };
    // Long enough that every session of a wave is alive at its end (a wave of 100,000 takes
    // about 40 s here).
    let idle_s = if slow { 90.0 } else { 3.0 };
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
    let boot = rss_kib(pid);
    // A first wave of the same size, expired: what stays after it (pool connections and their
    // statement caches, hyper's and tokio's buffers, pages the allocator keeps for reuse) is
    // paid once.
    let warm_peak = wave(&addr, pid, n).await;
    drained(&addr).await;
    let before = rss_kib(pid);
    let began = Instant::now();
    let peak = wave(&addr, pid, n).await;
    let created_in = began.elapsed();
    let peak_cached = metric(&addr, "stud_sessions_cached").await;
    let wait = drained(&addr).await;
    let after = rss_kib(pid);
    let expired = metric(&addr, "stud_sessions_expired_total").await;
    eprintln!(
        "soak (postgres): {n} sessions in {:.1} s ({} cached at the end of creation); RSS KiB: boot {boot}, \
         first wave's peak {warm_peak}, after it {before}, peak {peak}, after expiry {after} ({:+.1}% of before, {:+.1}% of boot), drained {:.1} s after; \
         {expired} expired",
        created_in.as_secs_f64(),
        peak_cached,
        (after as f64 - before as f64) * 100.0 / before as f64,
        (after as f64 - boot as f64) * 100.0 / boot as f64,
        wait.as_secs_f64(),
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(expired >= n as u64, "{expired} of {n} expired");
    // The first wave is where the sessions show: the second one may reuse what the allocator
    // still holds from it (its peak can equal "before").
    assert!(warm_peak > boot, "the sessions took no memory: the test measures nothing");
    assert!(after * 10 <= before * 11, "RSS {after} KiB after expiry, {before} KiB before: over 10% more");
}
