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
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        for (bound, bucket) in BUCKETS.iter().zip(&self.buckets) {
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {}", bucket.load(Relaxed));
        }
        let count = self.count.load(Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(out, "{name}_sum {}", self.sum_ns.load(Relaxed) as f64 / 1e9);
        let _ = writeln!(out, "{name}_count {count}");
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

    /// The Prometheus text exposition.
    pub fn render(&self, store: &stud_store::WriterStats) -> String {
        let mut out = String::with_capacity(2048);
        let mut gauge = |name: &str, help: &str, kind: &str, v: String| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}");
        };
        gauge("stud_tables", "Tables open.", "gauge", self.tables.load(Relaxed).to_string());
        gauge("stud_connections", "WebSocket connections open.", "gauge", self.connections.load(Relaxed).to_string());
        gauge("stud_hands_total", "Hands finished.", "counter", self.hands.load(Relaxed).to_string());
        gauge("stud_actions_total", "Actions applied.", "counter", self.actions.load(Relaxed).to_string());
        gauge("stud_timeouts_total", "Actions taken by the clock.", "counter", self.timeouts.load(Relaxed).to_string());
        gauge(
            "stud_reconnects_total",
            "Seated players back on a new socket.",
            "counter",
            self.reconnects.load(Relaxed).to_string(),
        );
        gauge(
            "stud_frames_total",
            "Frames queued to connections by tables.",
            "counter",
            self.frames.load(Relaxed).to_string(),
        );
        gauge(
            "stud_lagging_total",
            "Slow clients resynchronised or dropped.",
            "counter",
            self.lagging.load(Relaxed).to_string(),
        );
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
            self.store_waits.load(Relaxed).to_string(),
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
        for (code, count) in ERROR_CODES.iter().zip(&self.errors) {
            let name = serde_json::to_string(code).unwrap_or_default();
            let _ = writeln!(out, "stud_errors_total{{code={name}}} {}", count.load(Relaxed));
        }
        self.latency.render(
            &mut out,
            "stud_action_seconds",
            "Time for a table to apply an action and queue every update.",
        );
        out
    }
}
