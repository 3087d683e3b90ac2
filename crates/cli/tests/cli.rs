//! The `stud` binary end to end: `stud sim | stud replay` for every variant, determinism, and
//! failures reported as the interface promises.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a failed unwrap is a failed test

use std::io::Write as _;
use std::process::{Command, Stdio};

mod serve;

fn stud(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stud"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn sim_then_replay_every_variant() {
    for variant in ["stud", "stud8", "razz"] {
        for players in ["2", "5", "8"] {
            let args = ["sim", "--variant", variant, "--players", players, "--hands", "150", "--seed", "ci"];
            let (code, phhs, err) = stud(&args, None);
            assert_eq!(code, 0, "{err}");
            let (code, lines, err) = stud(&["replay", "-"], Some(&phhs));
            assert_eq!(code, 0, "{variant} {players}: {err}\n{lines}");
            let parsed: Vec<serde_json::Value> = lines.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
            assert_eq!(parsed.len(), 150);
            assert!(parsed.iter().all(|v| v["ok"] == true));
            assert_eq!(parsed[0]["hand"], "1");
            assert_eq!(parsed[0]["finishing_stacks"].as_array().unwrap().len(), players.parse::<usize>().unwrap());
            // Same seed, same bytes.
            assert_eq!(stud(&args, None).1, phhs);
        }
    }
}

/// Issue 29: every game at every structure: `stud sim --variant V --betting B` writes hands
/// under the PHH code of that game and structure, `stud replay` reads them back and verifies
/// each, and the same seed gives the same bytes.
#[test]
fn sim_then_replay_every_game_and_structure() {
    for variant in stud_engine::config::ALL_VARIANTS {
        for betting in stud_engine::config::ALL_BETTINGS {
            let (v, b) = (variant.name(), betting.name());
            let args = ["sim", "--variant", v, "--betting", b, "--players", "5", "--hands", "12", "--seed", "all"];
            let (code, phhs, err) = stud(&args, None);
            assert_eq!(code, 0, "{v} {b}: {err}");
            let want = stud_engine::TableConfig::new(variant, 1, 1, 1, 1).with_betting(betting).phh_code();
            assert_eq!(phhs.matches(&format!("variant = \"{want}\"\n")).count(), 12, "{v} {b}");
            let (code, lines, err) = stud(&["replay", "-"], Some(&phhs));
            assert_eq!(code, 0, "{v} {b}: {err}\n{lines}");
            let parsed: Vec<serde_json::Value> = lines.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
            assert_eq!(parsed.len(), 12, "{v} {b}");
            assert!(parsed.iter().all(|r| r["ok"] == true), "{v} {b}: {lines}");
            assert_eq!(stud(&args, None).1, phhs, "{v} {b}: same seed, same bytes");
        }
    }
    // The declare game's declarations are in its histories.
    let (_, phhs, _) = stud(&["sim", "--variant", "stud8_declare", "--hands", "12", "--seed", "all"], None);
    assert!(phhs.contains(" dcl "), "{}", &phhs[..600.min(phhs.len())]);
}

/// `stud sim --betting` deals pot-limit and no-limit hands (RULES.md 10) that `stud replay`
/// reads back and verifies: the PHH names the structure (`P…`/`N…` variant codes), the sizes
/// vary, and an unknown structure is a typed error.
#[test]
fn sim_then_replay_big_bet_stud() {
    for (betting, code_prefix) in [("pot_limit", "P"), ("no_limit", "N")] {
        for variant in ["stud", "stud8", "razz"] {
            let args =
                ["sim", "--variant", variant, "--betting", betting, "--players", "6", "--hands", "60", "--seed", "bb"];
            let (code, phhs, err) = stud(&args, None);
            assert_eq!(code, 0, "{err}");
            assert!(
                phhs.contains(&format!("variant = \"{code_prefix}")),
                "{betting} {variant}: {}",
                &phhs[..300.min(phhs.len())]
            );
            let (code, lines, err) = stud(&["replay", "-"], Some(&phhs));
            assert_eq!(code, 0, "{betting} {variant}: {err}\n{lines}");
            let parsed: Vec<serde_json::Value> = lines.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
            assert_eq!(parsed.len(), 60);
            assert!(parsed.iter().all(|v| v["ok"] == true), "{lines}");
            assert_eq!(stud(&args, None).1, phhs, "same seed, same bytes");
            // Bets and raises of many sizes, not only the two ends of each range.
            let sizes: std::collections::BTreeSet<&str> = phhs
                .split(" cbr ")
                .skip(1)
                .filter_map(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
                .collect();
            assert!(sizes.len() > 20, "{betting} {variant}: {} sizes", sizes.len());
        }
    }
    let (code, _, err) = stud(&["sim", "--betting", "spread_limit"], None);
    assert_ne!(code, 0);
    assert!(err.contains("spread_limit"), "{err}");
}

#[test]
fn sims_produce_all_ins_side_pots_and_showdown_choices() {
    let (_, phhs, _) = stud(&["sim", "--variant", "stud8", "--players", "8", "--hands", "100", "--seed", "mix"], None);
    assert!(phhs.contains(" f\""), "folds");
    assert!(phhs.contains(" sm\""), "mucks at showdown");
    assert!(phhs.contains(" cbr "), "bets and raises");
    let (_, stud, _) = stud(&["sim", "--variant", "stud", "--players", "8", "--hands", "100", "--seed", "mix"], None);
    assert!(stud.contains("d db "), "a community card in 100 eight-handed hands");
}

#[test]
fn replay_reports_a_mismatch_with_exit_1() {
    let (_, phhs, _) = stud(&["sim", "--variant", "razz", "--players", "3", "--hands", "2", "--seed", "x"], None);
    let first = phhs.find("finishing_stacks = [").unwrap() + "finishing_stacks = [".len();
    let tampered = format!("{}9{}", &phhs[..first], &phhs[first..]);
    let (code, lines, _) = stud(&["replay", "-"], Some(&tampered));
    assert_eq!(code, 1);
    let first_line: serde_json::Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert_eq!(first_line["ok"], false);
    assert!(first_line["error"].as_str().unwrap().contains("finishing_stacks"));
    let second: serde_json::Value = serde_json::from_str(lines.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["ok"], true);

    // An illegal action carries its index.
    let bad = phhs.replacen(" pb\"", " cc\"", 1);
    let (code, lines, _) = stud(&["replay", "-"], Some(&bad));
    assert_eq!(code, 1);
    let first_line: serde_json::Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert!(first_line["action"].is_u64(), "{first_line}");
}

#[test]
fn bad_arguments_are_clear_errors() {
    let (code, _, err) = stud(&["sim", "--variant", "holdem"], None);
    assert_ne!(code, 0);
    assert!(err.contains("unknown variant"), "{err}");
    let (code, _, err) = stud(&["sim", "--bring-in", "0"], None);
    assert_ne!(code, 0);
    assert!(err.contains("bring_in"), "{err}");
}

#[test]
fn operator_create_key_prints_a_key_once_and_stores_only_its_hash() {
    let dir = std::env::temp_dir().join("stud-cli-test");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("keys-{}.db", std::process::id()));
    let url = format!("sqlite://{}", path.display());
    let (code, out, err) = stud(&["operator", "create-key", "--name", "club", "--database-url", &url], None);
    assert_eq!(code, 0, "{err}");
    let key = out.trim();
    assert!(key.starts_with("stud_") && key.len() == 69, "{key}");
    assert!(err.contains("shown only now"), "{err}");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let store = rt.block_on(stud_store::open(&url)).unwrap();
    let found = rt.block_on(store.operator_key(&stud_store::token_hash(key))).unwrap().expect("stored");
    assert_eq!(found.name, "club");
    assert_ne!(found.key_hash, key, "the key itself is not stored");
    let (code, _, err) = stud(&["operator", "create-key", "--name", "", "--database-url", &url], None);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_file(&path);
}

/// `stud serve` on a SQLite file of its own (`name`), fast hands, with `env`: the child, its
/// address and the file.
fn serve_on_sqlite(name: &str, env: &[(&str, &str)]) -> (std::process::Child, String, std::path::PathBuf) {
    let dir = std::env::temp_dir().join("stud-cli-test");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir_all(journal_of(&path));
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let addr = format!("127.0.0.1:{port}");
    let server = serve_sqlite_at(&path, &addr, env);
    (server, addr, path)
}

/// The journal directory the server uses beside the SQLite file `path` (its own rule,
/// `Config::journal_place`).
fn journal_of(path: &std::path::Path) -> std::path::PathBuf {
    let config = stud_server::Config { database_url: format!("sqlite://{}", path.display()), ..Default::default() };
    match config.journal_place() {
        stud_server::config::JournalPlace::Files(dir) => dir,
        other => panic!("a SQLite file's journal is in files, not {other:?}"),
    }
}

/// `stud serve` on the SQLite file `path` at `addr`, as [`serve_on_sqlite`] starts it.
fn serve_sqlite_at(path: &std::path::Path, addr: &str, env: &[(&str, &str)]) -> std::process::Child {
    let mut command = serve::serve();
    command
        .args(["--bind", addr, "--database-url", &format!("sqlite://{}", path.display())])
        .env("STUD_HAND_PAUSE_MS", "10")
        .env("STUD_SHOWDOWN_PAUSE_MS", "10")
        // `stud load`'s bots act with no think time, faster than a person's 20 messages a second.
        .env("STUD_MESSAGES_PER_SECOND", "0")
        .envs(env.iter().copied());
    let (server, ready) = serve::spawn(command, serve::LISTENING, |_| {});
    ready.expect("the server started");
    server
}

/// A child process killed (and waited for) when dropped: a failed assertion leaves no server.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `stud load --reconnect` through a `kill -9` of the server and its restart on the same
/// address and files: every bot comes back to its seat (the restarted server counts eight
/// seated players back) and the tables play hands again, with no error: a prompt seen again
/// after the reconnect is answered once, with the key and the action it was given.
#[test]
fn load_with_reconnect_comes_back_after_a_kill() {
    let (server, addr, path) = serve_on_sqlite("load-reconnect", &[]);
    let mut server = KillOnDrop(server);
    let url = format!("ws://{addr}");
    let args = [
        "load",
        "--url",
        &url,
        "--tables",
        "2",
        "--players-per-table",
        "4",
        "--duration",
        "14",
        "--warmup",
        "1",
        "--think-ms",
        "100",
        "--reconnect",
    ];
    let load = Command::new(env!("CARGO_BIN_EXE_stud"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(5));
    server.0.kill().unwrap();
    let _ = server.0.wait();
    let restarted = KillOnDrop(serve_sqlite_at(&path, &addr, &[]));
    let out = load.wait_with_output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    let line: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert_eq!(line["reconnects"].as_u64(), Some(8), "{line}");
    assert_eq!((line["errors"].as_u64(), line["disconnects"].as_u64()), (Some(0), Some(0)), "{line}");
    assert!(line["back_at_table_ms"]["p50"].as_f64().is_some_and(|ms| ms > 0.0), "{line}");
    assert!(line["resume_gap_ms"]["max"].as_f64().is_some_and(|ms| ms > 0.0), "{line}");
    // The restarted server's own counts (they start at zero): all eight back, hands played.
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (status, metrics) = rt.block_on(stud_client::http(&addr, "GET", "/metrics", None)).unwrap();
    assert_eq!(status, 200);
    let count =
        |name: &str| metrics.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse::<u64>().ok());
    assert_eq!(count("stud_reconnects_total"), Some(8), "{metrics}");
    assert!(count("stud_hands_total").is_some_and(|n| n >= 1), "{metrics}");
    drop(restarted);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir_all(journal_of(&path));
}

/// `stud load` at cash tables, with the server named twice (as a cluster's two gateways would
/// be): the bots play through both, the line reports hands and no error; a `--url` that names
/// no server is refused.
#[test]
fn load_plays_cash_tables_through_every_server_named() {
    let (mut server, addr, path) = serve_on_sqlite("load-cash", &[]);
    let urls = format!("ws://{addr}, ws://{addr}");
    let args =
        ["load", "--url", &urls, "--tables", "2", "--players-per-table", "4", "--duration", "3", "--warmup", "1"];
    let (code, out, err) = stud(&args, None);
    assert_eq!(code, 0, "{err}");
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert!(line["hands"].as_u64().unwrap() >= 1, "{line}");
    assert!(line["actions_per_s"].as_f64().unwrap() > 0.0, "{line}");
    assert_eq!((line["errors"].as_u64(), line["disconnects"].as_u64()), (Some(0), Some(0)), "{line}");
    let (code, _, err) = stud(&["load", "--url", " , "], None);
    assert_ne!(code, 0);
    assert!(err.contains("names no server"), "{err}");
    let pid = server.id().to_string();
    let _ = Command::new("kill").args(["-TERM", &pid]).status();
    let _ = server.wait();
    let _ = std::fs::remove_file(&path);
}

/// `stud load --tournament ID --players N --rebuy` (issue 30): the bots buy every rebuy and
/// add-on offered (a rebuy period of one 1-hand level, so the add-on is offered after the
/// first hand to everyone still in); the line's `rebuys` and `addons` are the tournament's,
/// and the payouts add up to every fee paid into the pool. Progressive bounties ride along:
/// `bounties_paid` is the bounty of every entry.
#[test]
fn load_with_rebuy_buys_what_is_offered_and_reports_the_counts() {
    const KEY: &str = "cli-load-rebuy-operator-key-0123456";
    let (mut server, addr, path) = serve_on_sqlite("load-rebuy", &[("STUD_OPERATOR_KEY", KEY)]);
    let levels = serve::doubling_levels(1);
    let body = format!(
        r#"{{"name": "Rebuy load", "variant": "stud", "kind": "sit_and_go", "min_entrants": 2, "max_entrants": 4,
            "seats_per_table": 4, "entry_fee": 1000, "house_fee": 100, "starting_chips": 100,
            "levels": [{}], "rebuy_until_level": 1, "rebuy_fee": 500, "addon_chips": 200, "addon_fee": 250,
            "bounty": 300, "progressive_bounty": true}}"#,
        levels.join(",")
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (status, text) =
        rt.block_on(stud_client::http_as(&addr, "POST", "/api/admin/tournaments", Some(&body), Some(KEY))).unwrap();
    assert_eq!(status, 201, "{text}");
    let id = serde_json::from_str::<serde_json::Value>(&text).unwrap()["id"].as_str().unwrap().to_owned();
    let url = format!("ws://{addr}");
    let (code, out, err) = stud(&["load", "--url", &url, "--tournament", &id, "--players", "4", "--rebuy"], None);
    assert_eq!(code, 0, "{err}");
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"));
    let (_, text) = rt.block_on(stud_client::http(&addr, "GET", &format!("/api/tournaments/{id}"), None)).unwrap();
    let d: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(d["status"], "finished", "{d}");
    assert_eq!(line["errors"], 0, "{line}");
    assert_eq!((&line["rebuys"], &line["addons"]), (&d["rebuys"]["rebuys"], &d["rebuys"]["addons"]), "{line} {d}");
    let (rebuys, addons) = (line["rebuys"].as_u64().unwrap(), line["addons"].as_u64().unwrap());
    assert!(addons >= 1, "the add-on is offered after the first hand to everyone still in: {line}");
    let paid: u64 = line["payouts"].as_array().unwrap().iter().map(|p| p["amount"].as_u64().unwrap()).sum();
    assert_eq!(paid, 4 * 1_000 + 500 * rebuys + 250 * addons, "{line}");
    // Progressive bounties beside the rebuys: every head is paid once, whatever was rebought.
    assert_eq!((line["bounties_paid"].as_u64(), d["bounties_paid"].as_u64()), (Some(4 * 300), Some(4 * 300)), "{line}");
    let won: u64 = d["results"].as_array().unwrap().iter().map(|r| r["bounties_won"].as_u64().unwrap()).sum();
    assert_eq!(won, 4 * 300, "{d}");
    let pid = server.id().to_string();
    let _ = Command::new("kill").args(["-TERM", &pid]).status();
    let _ = server.wait();
    let _ = std::fs::remove_file(&path);
}

/// `stud load --tournament ID --players N` (issue 14): a real server process, a sit-and-go
/// for 6 created over the admin API, six bots registered by `stud load`, played to the end;
/// the line's fields agree with the tournament's own results. The tournament (issue 29) is a
/// rotation of the new games every 2 hands, mixing pot limit, fixed limit and no limit, so
/// the bots play big-bet sizes and the declaration.
#[test]
fn load_plays_a_tournament_to_the_end_and_reports_it() {
    const KEY: &str = "cli-load-tournament-operator-key-0123";
    let (mut server, addr, path) = serve_on_sqlite("load-tournament", &[("STUD_OPERATOR_KEY", KEY)]);
    let levels = serve::doubling_levels(4);
    let body = format!(
        r#"{{"name": "Load SNG", "variant": "rotation", "kind": "sit_and_go", "min_entrants": 2, "max_entrants": 6,
            "seats_per_table": 6, "entry_fee": 1000, "house_fee": 100, "starting_chips": 800,
            "levels": [{}], "payouts": [70, 30], "betting": "pot_limit", "rotation_hands": 2,
            "rotation_games": [{{"variant": "london"}}, {{"variant": "stud8_declare", "betting": "fixed_limit"}},
                               {{"variant": "chicago", "betting": "no_limit"}}, {{"variant": "mississippi"}}]}}"#,
        levels.join(",")
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (status, text) =
        rt.block_on(stud_client::http_as(&addr, "POST", "/api/admin/tournaments", Some(&body), Some(KEY))).unwrap();
    assert_eq!(status, 201, "{text}");
    let id = serde_json::from_str::<serde_json::Value>(&text).unwrap()["id"].as_str().unwrap().to_owned();

    let url = format!("ws://{addr}");
    let (code, out, err) = stud(&["load", "--url", &url, "--tournament", &id, "--players", "6"], None);
    assert_eq!(code, 0, "{err}");
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"));
    let (status, text) = rt.block_on(stud_client::http(&addr, "GET", &format!("/api/tournaments/{id}"), None)).unwrap();
    assert_eq!(status, 200);
    let d: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(d["status"], "finished", "{d}");
    assert_eq!(d["betting"], "pot_limit", "{d}");
    let games: Vec<(&str, &str)> = d["rotation_games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["variant"].as_str().unwrap(), g["betting"].as_str().unwrap()))
        .collect();
    assert_eq!(
        games,
        [
            ("london", "pot_limit"),
            ("stud8_declare", "fixed_limit"),
            ("chicago", "no_limit"),
            ("mississippi", "pot_limit")
        ]
    );
    assert_eq!(line["entrants"], 6, "{line}");
    assert_eq!(line["errors"], 0, "{line}");
    assert!(line["hands"].as_u64().unwrap() >= 1, "{line}");
    assert!(line["duration_s"].as_f64().unwrap() > 0.0, "{line}");
    let winner = d["results"].as_array().unwrap().iter().find(|r| r["place"] == 1).unwrap();
    assert_eq!(line["winner"], winner["player_id"], "{line}");
    // The prize pool is the entry fees (house fees are not in it): 70% and 30% of 6,000.
    let payouts: Vec<(u64, u64)> = line["payouts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["place"].as_u64().unwrap(), p["amount"].as_u64().unwrap()))
        .collect();
    assert_eq!(payouts, [(1, 4_200), (2, 1_800)], "{line}");
    // A tournament that takes no more registrations is a clear error.
    let (code, _, err) = stud(&["load", "--url", &url, "--tournament", &id, "--players", "2"], None);
    assert_ne!(code, 0);
    assert!(err.contains("does not take registrations"), "{err}");
    let (code, _, err) = stud(&["load", "--url", &url, "--tournament", &id], None);
    assert_ne!(code, 0, "--tournament needs --players: {err}");
    let pid = server.id().to_string();
    let _ = Command::new("kill").args(["-TERM", &pid]).status();
    let _ = server.wait();
    let _ = std::fs::remove_file(&path);
}
