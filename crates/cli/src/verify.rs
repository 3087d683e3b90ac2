//! `stud verify FILE|HAND_ID`: checks that a finished hand was dealt from the deck its seed
//! derives, that the seed is the one committed to at the start, and that the actions replay to
//! the recorded result.
//!
//! Takes a PHH file (`.phh`/`.phhs`, with the `_seed` and `_commitment` user fields the
//! server writes for operators), an operator JSON export (`GET /api/hands/{id}`,
//! `GET /api/hands`), a bare `HandRecord`, or a hand id looked up in the database.
//! Prints one JSON line per hand; fails (exit 1) on any mismatch.

use anyhow::Context as _;
use clap::Args;
use stud_engine::HandRecord;
use stud_proto::{HandDetail, HandPage};
use uuid::Uuid;

#[derive(Args)]
pub struct VerifyArgs {
    /// A PHH or JSON file (`-` for stdin), or a hand id to read from the database.
    target: String,
    /// The database for a hand id (also DATABASE_URL; default sqlite://stud.db).
    #[arg(long)]
    database_url: Option<String>,
}

/// One hand's verdict.
fn line(hand: &str, result: Result<(), String>) -> bool {
    let ok = result.is_ok();
    println!("{}", serde_json::json!({"hand": hand, "ok": ok, "error": result.err()}));
    ok
}

/// The checks on a record: the seed is there and matches the commitment, the deck it derives
/// deals what the record says, and the actions reproduce the result.
pub fn check_record(record: &HandRecord) -> Result<(), String> {
    if record.seed.is_none() {
        return Err("no seed in this record: only an operator's export can be verified".into());
    }
    if record.commitment.is_none() {
        return Err("no commitment in this record".into());
    }
    // Replays from the seed (checking sha256(seed) against the commitment) and compares the
    // result, showdown cards and community card included.
    record.verify().map_err(|e| e.to_string())?;
    Ok(())
}

/// The checks on PHH text: every `d` line is the card the seed's deck deals there.
fn check_phh(text: &str, file: &str) -> anyhow::Result<bool> {
    let hands = stud_engine::phh::read(text).with_context(|| format!("reading {file} as PHH"))?;
    let mut all = true;
    for (name, outcome) in hands {
        let hand = name.map_or_else(|| file.to_owned(), |n| format!("{file}#{n}"));
        let result = match outcome {
            Ok(h) => check_record(&h.record),
            Err(e) => Err(e.to_string()),
        };
        all &= line(&hand, result);
    }
    Ok(all)
}

fn check_json(text: &str, file: &str) -> anyhow::Result<bool> {
    let records: Vec<(String, HandRecord)> = if let Ok(d) = serde_json::from_str::<HandDetail>(text) {
        vec![(d.hand_id.to_string(), d.record)]
    } else if let Ok(list) = serde_json::from_str::<Vec<HandDetail>>(text) {
        list.into_iter().map(|d| (d.hand_id.to_string(), d.record)).collect()
    } else if let Ok(page) = serde_json::from_str::<HandPage>(text) {
        page.hands.into_iter().map(|d| (d.hand_id.to_string(), d.record)).collect()
    } else {
        let r: HandRecord = serde_json::from_str(text)
            .with_context(|| format!("{file} is not a hand export (HandDetail, HandPage) or a HandRecord"))?;
        vec![(file.to_owned(), r)]
    };
    let mut all = true;
    for (hand, record) in records {
        all &= line(&hand, check_record(&record));
    }
    Ok(all)
}

pub fn run(args: &VerifyArgs) -> anyhow::Result<bool> {
    let target = args.target.as_str();
    if let (Ok(id), false) = (Uuid::try_parse(target), std::path::Path::new(target).exists()) {
        return from_database(id, args.database_url.clone());
    }
    let text = if target == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).context("reading standard input")?;
        s
    } else {
        std::fs::read_to_string(target).with_context(|| format!("reading {target}"))?
    };
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') && !trimmed.starts_with("[1]") {
        check_json(&text, target)
    } else {
        check_phh(&text, target)
    }
}

/// `--database-url`, else `DATABASE_URL`, else `STUD_DATABASE_URL`, else the server's default.
pub fn database_url(flag: Option<String>) -> String {
    flag.or_else(|| std::env::var("DATABASE_URL").ok())
        .or_else(|| std::env::var("STUD_DATABASE_URL").ok())
        .unwrap_or_else(|| "sqlite://stud.db".to_owned())
}

fn from_database(id: Uuid, url: Option<String>) -> anyhow::Result<bool> {
    let url = database_url(url);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().context("starting the runtime")?;
    runtime.block_on(async move {
        let store = stud_store::open(&url).await.with_context(|| format!("opening {url}"))?;
        let hand = store.hand(id).await.context("reading the hand")?;
        let Some(hand) = hand else {
            return Ok(line(&id.to_string(), Err(format!("no hand {id} in {url}"))));
        };
        // Also through PHH: every card dealt, checked against the seed's deck.
        let result = check_record(&hand.record).and_then(|()| {
            let text = stud_engine::phh::write_hand(&hand.record, &stud_engine::phh::PhhContext::default())
                .map_err(|e| e.to_string())?;
            match stud_engine::phh::read(&text).map_err(|e| e.to_string())?.pop() {
                Some((_, Ok(h))) if h.record == hand.record => Ok(()),
                Some((_, Ok(_))) => Err("the PHH of the hand replays to a different record".into()),
                Some((_, Err(e))) => Err(e.to_string()),
                None => Err("the PHH of the hand is empty".into()),
            }
        });
        Ok(line(&id.to_string(), result))
    })
}
