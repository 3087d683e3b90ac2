//! Prometheus text metrics from atomics: no lock on any hot path.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

use stud_proto::ErrorCode;

/// Upper bounds (seconds) of the latency histograms' buckets.
const BUCKETS: [f64; 12] = [0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5];

/// A latency histogram (Prometheus cumulative buckets, [`BUCKETS`]), lock-free.
#[derive(Debug, Default)]
pub struct Histogram {
    buckets: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    sum_ns: AtomicU64,
}

impl Histogram {
    /// Counts one observation.
    pub fn observe(&self, d: Duration) {
        let secs = d.as_secs_f64();
        for (bound, bucket) in BUCKETS.iter().zip(&self.buckets) {
            if secs <= *bound {
                bucket.fetch_add(1, Relaxed);
            }
        }
        self.count.fetch_add(1, Relaxed);
        self.sum_ns.fetch_add(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX), Relaxed);
    }

    /// Writes the histogram `name` (in seconds) in the Prometheus text format.
    pub fn render(&self, out: &mut String, name: &str, help: &str) {
        self.read().render(out, name, help);
    }

    fn read(&self) -> HistogramCounts {
        HistogramCounts {
            buckets: self.buckets.iter().map(|b| b.load(Relaxed)).collect(),
            count: self.count.load(Relaxed),
            sum_ns: self.sum_ns.load(Relaxed),
        }
    }
}

/// A histogram's counts at one moment (what a cluster worker sends its gateways).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HistogramCounts {
    buckets: Vec<u64>,
    count: u64,
    sum_ns: u64,
}

impl HistogramCounts {
    fn add(&mut self, other: &HistogramCounts) {
        self.buckets.resize(BUCKETS.len(), 0);
        for (b, o) in self.buckets.iter_mut().zip(&other.buckets) {
            *b += o;
        }
        self.count += other.count;
        self.sum_ns += other.sum_ns;
    }

    fn render(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        for (i, bound) in BUCKETS.iter().enumerate() {
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {}", self.buckets.get(i).copied().unwrap_or(0));
        }
        let count = self.count;
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(out, "{name}_sum {}", self.sum_ns as f64 / 1e9);
        let _ = writeln!(out, "{name}_count {count}");
    }
}

/// The tables' counters of one process at one moment: what a cluster worker (whose tables'
/// counters are not on any gateway) sends the gateways, which add them to their own.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TableCounts {
    tables: i64,
    hands: u64,
    actions: u64,
    timeouts: u64,
    reconnects: u64,
    lagging: u64,
    frames: u64,
    store_waits: u64,
    /// by [`ERROR_CODES`] order
    errors: Vec<u64>,
    latency: HistogramCounts,
}

impl TableCounts {
    fn add(&mut self, o: &TableCounts) {
        self.tables += o.tables;
        self.hands += o.hands;
        self.actions += o.actions;
        self.timeouts += o.timeouts;
        self.reconnects += o.reconnects;
        self.lagging += o.lagging;
        self.frames += o.frames;
        self.store_waits += o.store_waits;
        self.errors.resize(ERROR_CODES.len(), 0);
        for (e, x) in self.errors.iter_mut().zip(&o.errors) {
            *e += x;
        }
        self.latency.add(&o.latency);
    }
}

const ERROR_CODES: [ErrorCode; 31] = [
    ErrorCode::Malformed,
    ErrorCode::UnknownType,
    ErrorCode::FrameTooLarge,
    ErrorCode::UnsupportedVersion,
    ErrorCode::NotAuthenticated,
    ErrorCode::UnknownTable,
    ErrorCode::UnknownHand,
    ErrorCode::SeatTaken,
    ErrorCode::TableFull,
    ErrorCode::AlreadySeated,
    ErrorCode::BuyInOutOfRange,
    ErrorCode::InsufficientBalance,
    ErrorCode::NotSeated,
    ErrorCode::NotNow,
    ErrorCode::NotYourTurn,
    ErrorCode::IllegalAction,
    ErrorCode::Stale,
    ErrorCode::RateLimited,
    ErrorCode::Internal,
    ErrorCode::Unavailable,
    ErrorCode::InviteRequired,
    ErrorCode::Forbidden,
    ErrorCode::AlreadyAuthenticated,
    ErrorCode::ChatOff,
    ErrorCode::TooLong,
    ErrorCode::UnknownTournament,
    ErrorCode::TournamentFull,
    ErrorCode::TournamentStarted,
    ErrorCode::RegistrationClosed,
    ErrorCode::AlreadyRegistered,
    ErrorCode::NotRegistered,
];

/// The server's counters.
#[derive(Default)]
pub struct Metrics {
    /// tables open
    pub tables: AtomicI64,
    /// WebSocket connections open
    pub connections: AtomicI64,
    /// hands finished
    pub hands: AtomicU64,
    /// actions applied (player and clock)
    pub actions: AtomicU64,
    /// actions the clock took
    pub timeouts: AtomicU64,
    /// sockets that took back a seated player's place
    pub reconnects: AtomicU64,
    /// clients dropped or resynchronised for being slow
    pub lagging: AtomicU64,
    /// frames queued to connections by tables (per-seat messages)
    pub frames: AtomicU64,
    /// writes the store writer could not take (only after it stopped)
    pub sink_dropped: AtomicU64,
    /// times a table waited to start a hand because the store writer was behind
    pub store_waits: AtomicU64,
    errors: [AtomicU64; ERROR_CODES.len()],
    latency: Histogram,
}

impl Metrics {
    /// Counts an error sent to a client.
    pub fn error(&self, code: ErrorCode) {
        if let Some(i) = ERROR_CODES.iter().position(|c| *c == code) {
            if let Some(c) = self.errors.get(i) {
                c.fetch_add(1, Relaxed);
            }
        }
    }

    /// Records how long the table took to apply an action and queue its updates.
    pub fn action_latency(&self, d: Duration) {
        self.latency.observe(d);
    }

    /// The tables' counters now.
    pub fn table_counts(&self) -> TableCounts {
        TableCounts {
            tables: self.tables.load(Relaxed),
            hands: self.hands.load(Relaxed),
            actions: self.actions.load(Relaxed),
            timeouts: self.timeouts.load(Relaxed),
            reconnects: self.reconnects.load(Relaxed),
            lagging: self.lagging.load(Relaxed),
            frames: self.frames.load(Relaxed),
            store_waits: self.store_waits.load(Relaxed),
            errors: self.errors.iter().map(|e| e.load(Relaxed)).collect(),
            latency: self.latency.read(),
        }
    }

    /// The Prometheus text exposition.
    pub fn render(&self, store: &stud_store::WriterStats) -> String {
        self.render_with(store, &[])
    }

    /// [`Metrics::render`] with other processes' table counters added (a cluster gateway
    /// shows its workers' tables).
    pub fn render_with(&self, store: &stud_store::WriterStats, others: &[TableCounts]) -> String {
        let mut t = self.table_counts();
        for o in others {
            t.add(o);
        }
        let mut out = String::with_capacity(2048);
        let mut gauge = |name: &str, help: &str, kind: &str, v: String| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}");
        };
        gauge("stud_tables", "Tables open.", "gauge", t.tables.to_string());
        gauge("stud_connections", "WebSocket connections open.", "gauge", self.connections.load(Relaxed).to_string());
        gauge("stud_hands_total", "Hands finished.", "counter", t.hands.to_string());
        gauge("stud_actions_total", "Actions applied.", "counter", t.actions.to_string());
        gauge("stud_timeouts_total", "Actions taken by the clock.", "counter", t.timeouts.to_string());
        gauge("stud_reconnects_total", "Seated players back on a new socket.", "counter", t.reconnects.to_string());
        gauge("stud_frames_total", "Frames queued to connections by tables.", "counter", t.frames.to_string());
        gauge("stud_lagging_total", "Slow clients resynchronised or dropped.", "counter", t.lagging.to_string());
        gauge(
            "stud_store_unqueued_total",
            "Writes the store writer could not take (it had stopped).",
            "counter",
            self.sink_dropped.load(Relaxed).to_string(),
        );
        gauge(
            "stud_store_waits_total",
            "Hand starts put off because the store writer was behind.",
            "counter",
            t.store_waits.to_string(),
        );
        gauge(
            "stud_store_backlog",
            "Writes queued for the database.",
            "gauge",
            store.backlog.load(Relaxed).to_string(),
        );
        gauge("stud_store_hands_total", "Hands stored.", "counter", store.hands.load(Relaxed).to_string());
        gauge(
            "stud_store_entries_total",
            "Ledger entries stored (buy-ins, top-ups, cash-outs).",
            "counter",
            store.entries.load(Relaxed).to_string(),
        );
        gauge(
            "stud_store_batches_total",
            "Store transactions committed.",
            "counter",
            store.batches.load(Relaxed).to_string(),
        );
        gauge(
            "stud_store_errors_total",
            "Failed store batches (retried).",
            "counter",
            store.errors.load(Relaxed).to_string(),
        );
        gauge(
            "stud_store_busy_seconds_total",
            "Time spent in committed store batches.",
            "counter",
            (store.busy_us.load(Relaxed) as f64 / 1e6).to_string(),
        );
        let _ = writeln!(
            out,
            "# HELP stud_errors_total Errors sent to clients, by code.\n# TYPE stud_errors_total counter"
        );
        for (i, code) in ERROR_CODES.iter().enumerate() {
            let name = serde_json::to_string(code).unwrap_or_default();
            let _ = writeln!(out, "stud_errors_total{{code={name}}} {}", t.errors.get(i).copied().unwrap_or(0));
        }
        t.latency.render(
            &mut out,
            "stud_action_seconds",
            "Time for a table to apply an action and queue every update.",
        );
        out
    }
}

/// This process's own figures, named as Prometheus' client libraries name them
/// (`process_cpu_seconds_total`, `process_resident_memory_bytes`, `process_virtual_memory_bytes`,
/// `process_open_fds`, `process_max_fds`, `process_start_time_seconds`), plus its peak resident
/// size (`stud_process_peak_resident_memory_bytes`, the kernel's VmHWM), so a load run reads
/// memory and CPU from here instead of `/proc` by hand. Read from `/proc/self`; on a system
/// without it, nothing is written.
pub fn render_process(out: &mut String) {
    let Some(p) = ProcessFigures::read() else { return };
    let mut line = |name: &str, help: &str, kind: &str, v: f64| {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}");
    };
    line("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", "counter", p.cpu_seconds);
    line("process_resident_memory_bytes", "Resident memory size in bytes.", "gauge", p.resident_bytes as f64);
    line(
        "stud_process_peak_resident_memory_bytes",
        "The largest resident memory size this process has had, in bytes (VmHWM).",
        "gauge",
        p.peak_resident_bytes as f64,
    );
    line("process_virtual_memory_bytes", "Virtual memory size in bytes.", "gauge", p.virtual_bytes as f64);
    if let Some(fds) = p.open_fds {
        line("process_open_fds", "Number of open file descriptors.", "gauge", fds as f64);
    }
    if let Some(max) = p.max_fds {
        line("process_max_fds", "Maximum number of open file descriptors.", "gauge", max as f64);
    }
    if let Some(start) = p.start_time_seconds {
        line("process_start_time_seconds", "Start time of the process since unix epoch in seconds.", "gauge", start);
    }
}

/// What [`render_process`] writes, read from `/proc/self`.
#[derive(Debug, Clone, PartialEq)]
pub struct ProcessFigures {
    pub cpu_seconds: f64,
    pub resident_bytes: u64,
    pub peak_resident_bytes: u64,
    pub virtual_bytes: u64,
    pub open_fds: Option<u64>,
    pub max_fds: Option<u64>,
    pub start_time_seconds: Option<f64>,
}

/// The kernel's unit for times in `/proc/PID/stat` (`USER_HZ`, 100 on every Linux ABI).
const USER_HZ: f64 = 100.0;

impl ProcessFigures {
    /// `None` where `/proc/self` cannot be read (not Linux).
    pub fn read() -> Option<ProcessFigures> {
        let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let mut figures = ProcessFigures::parse(&stat, &status)?;
        figures.open_fds = std::fs::read_dir("/proc/self/fd").ok().map(|d| d.count() as u64);
        figures.max_fds = std::fs::read_to_string("/proc/self/limits").ok().and_then(|l| max_open_files(&l));
        let boot = std::fs::read_to_string("/proc/stat").ok().and_then(|s| boot_time(&s));
        figures.start_time_seconds = boot.zip(start_ticks(&stat)).map(|(b, t)| b + t as f64 / USER_HZ);
        Some(figures)
    }

    /// Parses `/proc/PID/stat` (CPU times) and `/proc/PID/status` (memory, in kB).
    fn parse(stat: &str, status: &str) -> Option<ProcessFigures> {
        // utime and stime are fields 14 and 15.
        let cpu_seconds = (stat_field(stat, 14)? + stat_field(stat, 15)?) as f64 / USER_HZ;
        let kb = |key: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                .map(|v| v * 1024)
        };
        Some(ProcessFigures {
            cpu_seconds,
            resident_bytes: kb("VmRSS")?,
            peak_resident_bytes: kb("VmHWM")?,
            virtual_bytes: kb("VmSize")?,
            open_fds: None,
            max_fds: None,
            start_time_seconds: None,
        })
    }
}

/// Numeric field `n` (counted from 1, as `proc(5)` does) of `/proc/PID/stat`, `n` >= 3. The
/// command name (field 2) is in parentheses and may hold spaces: fields after it are counted
/// from the last ')'.
fn stat_field(stat: &str, n: usize) -> Option<u64> {
    let after = stat.get(stat.rfind(')')? + 1..)?;
    after.split_whitespace().nth(n.checked_sub(3)?)?.parse().ok()
}

/// Field 22 of `/proc/PID/stat`: when the process started, in ticks after boot.
fn start_ticks(stat: &str) -> Option<u64> {
    stat_field(stat, 22)
}

/// `btime` of `/proc/stat`: the boot time, seconds since the epoch.
fn boot_time(stat: &str) -> Option<f64> {
    stat.lines().find_map(|l| l.strip_prefix("btime "))?.trim().parse().ok()
}

/// The soft limit of "Max open files" in `/proc/PID/limits`.
fn max_open_files(limits: &str) -> Option<u64> {
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.trim_start_matches("Max open files").split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_processes_table_counts_are_added_to_the_exposition() {
        let (here, there) = (Metrics::default(), Metrics::default());
        here.hands.fetch_add(2, Relaxed);
        there.hands.fetch_add(5, Relaxed);
        there.tables.fetch_add(3, Relaxed);
        there.error(ErrorCode::Stale);
        there.action_latency(Duration::from_millis(3));
        // As a worker sends them: JSON.
        let sent = serde_json::to_string(&there.table_counts()).unwrap();
        let counts: TableCounts = serde_json::from_str(&sent).unwrap();
        let text = here.render_with(&stud_store::WriterStats::default(), &[counts.clone(), counts]);
        assert!(text.contains("\nstud_hands_total 12\n"), "{text}");
        assert!(text.contains("\nstud_tables 6\n"), "{text}");
        assert!(text.contains("stud_errors_total{code=\"stale\"} 2\n"), "{text}");
        assert!(text.contains("\nstud_action_seconds_count 2\n"), "{text}");
        assert!(text.contains("stud_action_seconds_bucket{le=\"0.005\"} 2\n"), "{text}");
        assert!(text.contains("stud_action_seconds_bucket{le=\"0.002\"} 0\n"), "{text}");
        assert_eq!(here.render(&stud_store::WriterStats::default()).matches("stud_hands_total 2\n").count(), 1);
    }

    #[test]
    fn process_figures_are_read_from_proc_text() {
        // A command name with a space and a parenthesis, as the kernel writes it.
        let stat = "4242 (stud (x) y) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 75 0 0 20 0 9 0 12345 \
                    268435456 3000 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
        let status = "Name:\tstud\nVmPeak:\t  300000 kB\nVmSize:\t  262144 kB\nVmHWM:\t   20480 kB\n\
                      VmRSS:\t   12000 kB\nThreads:\t9\n";
        let p = ProcessFigures::parse(stat, status).unwrap();
        assert_eq!(p.cpu_seconds, 3.25);
        assert_eq!(
            (p.resident_bytes, p.peak_resident_bytes, p.virtual_bytes),
            (12000 * 1024, 20480 * 1024, 262144 * 1024)
        );
        assert_eq!(start_ticks(stat), Some(12345));
        assert_eq!(boot_time("cpu  1 2 3\nbtime 1764900000\nprocesses 5\n"), Some(1_764_900_000.0));
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max open files            20000                524288               files\n";
        assert_eq!(max_open_files(limits), Some(20000));
        assert!(ProcessFigures::parse("garbage", status).is_none());
    }

    #[test]
    fn this_process_s_figures_are_rendered() {
        let mut out = String::new();
        render_process(&mut out);
        if cfg!(target_os = "linux") {
            for name in ["process_cpu_seconds_total ", "process_resident_memory_bytes ", "process_open_fds "] {
                assert!(out.contains(&format!("\n{name}")), "{name} missing from {out}");
            }
            let rss = ProcessFigures::read().unwrap();
            assert!(rss.resident_bytes > 0 && rss.peak_resident_bytes >= rss.resident_bytes);
        }
    }
}
