//! `stud`: the command line of the stud server.
//!
//! `serve` (the default) runs the server, `load` drives one with bot clients, `sim` plays
//! seeded bot hands and writes PHH, `replay` checks PHH files against the engine, `verify` checks stored hands against their seeds, `bench` is a
//! quick built-in benchmark. Only this crate installs the tracing subscriber.

mod allocator;
mod bench;
mod bench_store;
mod load;
mod load_tournament;
mod operator;
mod serve;
mod sim;
mod verify;

use std::io::Read as _;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "stud",
    version,
    about = "Seven Card Stud: serve tables, load-test, simulate, replay, verify, benchmark"
)]
struct Cli {
    /// Log as JSON lines (also STUD_LOG_FORMAT=json); filter with RUST_LOG.
    #[arg(long, global = true)]
    log_json: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve tables over WebSocket and HTTP (the default command).
    Serve(serve::ServeArgs),
    /// Drive a running server with WebSocket bot clients; print one JSON line of results.
    Load(load::LoadArgs),
    /// Play hands with seeded random-but-legal bots and print them as one PHH (.phhs) document.
    Sim(sim::SimArgs),
    /// Replay PHH files (.phh or .phhs; `-` for stdin) through the engine: one JSON line per hand.
    Replay {
        /// Files to replay; none or `-` reads standard input.
        files: Vec<String>,
    },
    /// Operator API keys.
    #[command(subcommand)]
    Operator(operator::OperatorCommand),
    /// Hands stored per second through the batching writer vs one transaction per hand.
    BenchStore(bench_store::StoreBenchArgs),
    /// Verify stored hands: the seed matches the commitment, the deck it derives dealt every card
    /// recorded, the actions replay to the recorded result. One JSON line per hand.
    Verify(verify::VerifyArgs),
    /// A short built-in benchmark (under 30 s): one JSON line of evaluations and hands per second.
    Bench {
        /// Random 7-card hands per evaluator.
        #[arg(long, default_value_t = 10_000_000)]
        evals: usize,
        /// Seconds to spend playing full 8-player hands, in each of the two hand loops (without
        /// and with events).
        #[arg(long, default_value_t = 3.0)]
        hand_seconds: f64,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_tracing(cli.log_json);
    // A `dhat-heap` build's profile, written when this guard drops as `main` returns.
    let _heap_profile = allocator::profile();
    let result = match cli.command.unwrap_or_else(|| Command::Serve(serve::ServeArgs::default())) {
        Command::Serve(args) => serve::run(&args).map(|()| true),
        Command::Load(args) => load::run(&args).map(|()| true),
        Command::Sim(args) => sim::run(&args).map(|()| true),
        Command::Replay { files } => replay(&files),
        Command::Verify(args) => verify::run(&args),
        Command::BenchStore(args) => bench_store::run(&args).map(|()| true),
        Command::Operator(cmd) => operator::run(&cmd).map(|()| true),
        Command::Bench { evals, hand_seconds } => bench::run(evals, hand_seconds).map(|()| true),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("stud: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn init_tracing(json: bool) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let json = json || std::env::var("STUD_LOG_FORMAT").is_ok_and(|v| v == "json");
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    if json {
        builder.json().init();
    } else {
        builder.init();
    }
}

/// Replays every hand of every file; prints one JSON line per hand. Returns whether all passed.
fn replay(files: &[String]) -> anyhow::Result<bool> {
    let stdin = vec!["-".to_owned()];
    let files = if files.is_empty() { &stdin } else { files };
    let mut all_ok = true;
    for file in files {
        let text = if file == "-" {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s).context("reading standard input")?;
            s
        } else {
            std::fs::read_to_string(file).with_context(|| format!("reading {file}"))?
        };
        let hands = match stud_engine::phh::read(&text) {
            Ok(hands) => hands,
            Err(e) => {
                all_ok = false;
                println!(
                    "{}",
                    serde_json::json!({"hand": file, "ok": false, "finishing_stacks": [], "error": e.to_string()})
                );
                continue;
            }
        };
        for (name, outcome) in hands {
            let hand = name.unwrap_or_else(|| file.clone());
            let line = match outcome {
                Ok(h) => {
                    // What was read under the rule book where the file's writer differs
                    // (another tool's order of showing, a raise size, a result): said per hand.
                    let warnings: Vec<String> = h.warnings.iter().map(ToString::to_string).collect();
                    serde_json::json!({
                        "hand": hand,
                        "ok": true,
                        "finishing_stacks": h.finishing_stacks,
                        "error": null,
                        "warnings": warnings,
                    })
                }
                Err(e) => {
                    all_ok = false;
                    serde_json::json!({
                        "hand": hand,
                        "ok": false,
                        "finishing_stacks": [],
                        "error": e.to_string(),
                        "action": e.action_index(),
                    })
                }
            };
            println!("{line}");
        }
    }
    Ok(all_ok)
}
