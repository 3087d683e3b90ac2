//! `stud serve` as a child process (shared by the cli, crash, cluster and soak test binaries).
#![allow(dead_code)] // each test binary uses a part

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// `stud serve` logging at `info` without colours (what [`spawn`] reads); the caller adds
/// the bind address, the database and its settings. `STUD_TEST_BIN` names another `stud`
/// binary to run (a release build, for the figures in BENCHMARKS.md); the default is the one
/// cargo built for the tests.
pub fn serve() -> Command {
    let bin = std::env::var_os("STUD_TEST_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_stud").into());
    let mut command = Command::new(bin);
    command.arg("serve").env("RUST_LOG", "info").env("NO_COLOR", "1");
    command
}

/// Spawns `command` (stdout dropped), hands every line of its stderr to `on_line` on a thread
/// of its own, and waits up to 60 s for a line containing one of `ready`. Returns the child
/// and, once ready, the address of its `listening on http://ADDR` line ("" when the ready line
/// was another one); `None` if it never got ready.
pub fn spawn(
    mut command: Command,
    ready: &'static [&'static str],
    mut on_line: impl FnMut(&str) + Send + 'static,
) -> (Child, Option<String>) {
    let mut child = command.stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if ready.iter().any(|r| line.contains(r)) {
                let addr = line.split(LISTENING_ON).nth(1).unwrap_or_default();
                let _ = tx.send(addr.trim().trim_end_matches('"').to_owned());
            }
            on_line(&line);
        }
    });
    let addr = rx.recv_timeout(Duration::from_secs(60)).ok();
    (child, addr)
}

/// What a server that listens logs, followed by its address.
pub const LISTENING_ON: &str = "listening on http://";

/// The ready line of a server that listens.
pub const LISTENING: &[&str] = &[LISTENING_ON];

/// A test tournament's levels: ten levels of `hands` hands each, the stakes doubling every level.
pub fn doubling_levels(hands: u32) -> Vec<String> {
    (0..10u64)
        .map(|k| {
            let m = 1u64 << k;
            format!(
                r#"{{"ante": {}, "bring_in": {}, "small_bet": {}, "big_bet": {}, "hands": {hands}}}"#,
                5 * m,
                10 * m,
                20 * m,
                40 * m
            )
        })
        .collect()
}
