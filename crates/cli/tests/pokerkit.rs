//! PokerKit's own hand histories, read verbatim (issue 31): `scripts/pokerkit_histories.py`
//! has PokerKit 0.7.7 play 200 hands of random legal stud, stud8 and razz (short stacks,
//! all-ins, side pots, its own showdown order) and write them as it writes them; `stud replay`
//! must read every one, saying per hand where PokerKit's rules differ from RULES.md. Runs when
//! `STUD_POKERKIT_PYTHON` names a Python with PokerKit (`.ci/run` sets it), else says it skipped.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a failed unwrap is a failed test

use std::process::Command;

#[test]
fn two_hundred_pokerkit_histories_replay_without_edits() {
    let Some(python) = std::env::var_os("STUD_POKERKIT_PYTHON") else {
        eprintln!("notice: STUD_POKERKIT_PYTHON is not set: PokerKit's histories are not generated or replayed");
        return;
    };
    let dir = std::env::temp_dir().join(format!("stud-pokerkit-{}", std::process::id()));
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/pokerkit_histories.py");
    let made = Command::new(python)
        .args([script, "--hands", "200", "--seed", "1", "--out"])
        .arg(&dir)
        .output()
        .expect("runs the generator");
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 200);
    let out = Command::new(env!("CARGO_BIN_EXE_stud")).arg("replay").args(&files).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let refused: Vec<&serde_json::Value> = lines.iter().filter(|l| l["ok"] != true).collect();
    let said = lines.iter().filter(|l| l["warnings"].as_array().is_some_and(|w| !w.is_empty())).count();
    eprintln!("PokerKit histories: {} read, {} refused, {said} with differences said", lines.len(), refused.len());
    assert_eq!(lines.len(), 200);
    assert!(refused.is_empty(), "{refused:#?}");
    assert!(out.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
