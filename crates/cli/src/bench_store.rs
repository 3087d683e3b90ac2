//! `stud bench-store`: hands persisted per second through the batching writer, against the
//! same database one transaction per hand, in one run.

use std::sync::Arc;
use std::time::Instant;

use anyhow::Context as _;
use clap::Args;
use stud_engine::bot::Bot;
use stud_engine::sim::play_hand;
use stud_engine::{NoEvents, Seat, Seed, TableConfig, Variant};
use stud_store::{HandSeat, Store, StoredHand, Write, Writer, WriterConfig};
use uuid::Uuid;

#[derive(Args)]
pub struct StoreBenchArgs {
    /// The database (sqlite://FILE or postgres://...); its schema is migrated, hands are added.
    #[arg(long)]
    database_url: String,
    /// Hands to write through the batching writer.
    #[arg(long, default_value_t = 20_000)]
    hands: usize,
    /// Most hands per transaction.
    #[arg(long, default_value_t = 1_000)]
    batch: usize,
    /// Hands to write one transaction each (the baseline).
    #[arg(long, default_value_t = 2_000)]
    single: usize,
}

/// Real 6-handed stud hands played by bots, spread over 100 tables and 600 players.
fn hands(n: usize) -> Vec<StoredHand> {
    let config = TableConfig::new(Variant::Stud, 40, 50, 200, 400);
    let tables: Vec<Uuid> = (0..100).map(|_| Uuid::new_v4()).collect();
    let players: Vec<(Uuid, Uuid)> = (0..600).map(|_| (Uuid::new_v4(), Uuid::new_v4())).collect();
    let mut bots: Vec<Bot> = (0..8).map(Bot::new).collect();
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        let seats: Vec<(Seat, u64)> = (1..=6).filter_map(Seat::new).map(|s| (s, 20_000)).collect();
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&(k as u64).to_le_bytes());
        let Ok((hand, _)) = play_hand(config, &seats, Seed(seed), &mut bots, &mut NoEvents) else { continue };
        let record = hand.record();
        let Some(result) = record.result.clone() else { continue };
        let base = (k % 100) * 6;
        let seats = result
            .finishing_stacks
            .iter()
            .enumerate()
            .map(|(i, s)| HandSeat {
                seat: s.seat,
                player_id: players[base + i].0,
                session_id: players[base + i].1,
                name: format!("bot {}", base + i),
                net: s.chips as i64 - 20_000,
                showdown: result.showdown.iter().any(|x| x.seat == s.seat),
            })
            .collect();
        out.push(StoredHand {
            hand_id: Uuid::new_v4(),
            table_id: tables[k % 100],
            number: k as u64,
            started_at_ms: stud_store::now_ms(),
            ended_at_ms: stud_store::now_ms(),
            record,
            seats,
            tournament: None,
        });
    }
    out
}

async fn through_writer(store: Arc<dyn Store>, hands: Vec<StoredHand>, batch: usize) -> anyhow::Result<f64> {
    let n = hands.len();
    let (writer, task) = Writer::spawn(store, WriterConfig { max_batch: batch, backlog_limit: usize::MAX });
    let start = Instant::now();
    for h in hands {
        writer.push(Write::Hand(Arc::new(h))).context("the writer stopped")?;
    }
    anyhow::ensure!(writer.flush().await, "the writer stopped");
    let rate = n as f64 / start.elapsed().as_secs_f64();
    let errors = writer.stats().errors.load(std::sync::atomic::Ordering::Relaxed);
    anyhow::ensure!(errors == 0, "{errors} failed batches");
    drop(writer);
    task.await.context("the writer task")?;
    Ok(rate)
}

pub fn run(args: &StoreBenchArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    runtime.block_on(async {
        let store =
            stud_store::open(&args.database_url).await.with_context(|| format!("opening {}", args.database_url))?;
        let batched = hands(args.hands);
        let single = hands(args.single);
        let bytes: usize = batched.iter().map(|h| serde_json::to_string(&h.record).map_or(0, |s| s.len())).sum();
        let batched_rate = through_writer(store.clone(), batched, args.batch).await?;
        let single_rate = through_writer(store.clone(), single, 1).await?;
        let line = serde_json::json!({
            "backend": format!("{:?}", store.backend()),
            "hands": args.hands,
            "batch": args.batch,
            "record_bytes_avg": bytes / args.hands.max(1),
            "batched_hands_per_s": batched_rate.round(),
            "one_transaction_per_hand_hands_per_s": single_rate.round(),
        });
        println!("{line}");
        anyhow::Ok(())
    })
}
