//! The `stud` binary end to end: `stud sim | stud replay` for every variant, determinism, and
//! failures reported as the interface promises.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a failed unwrap is a failed test

use std::io::Write as _;
use std::process::{Command, Stdio};

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
