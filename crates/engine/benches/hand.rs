//! Full 8-player stud hands with betting bots, single-threaded (issue: at least 250k hands/s).
#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use stud_engine::bot::Bot;
use stud_engine::sim::play_hand;
use stud_engine::{Seat, TableConfig, Variant};

fn hands(c: &mut Criterion) {
    let mut group = c.benchmark_group("hand");
    const BATCH: u64 = 10_000;
    group.throughput(Throughput::Elements(BATCH));
    for variant in [Variant::Stud, Variant::Stud8, Variant::Razz] {
        let config = TableConfig::new(variant, 40, 50, 200, 400);
        let seats: Vec<(Seat, u64)> =
            (1..=8u8).filter_map(Seat::new).map(|s| (s, 2_000 + 700 * u64::from(s.number()))).collect();
        let mut bots: Vec<Bot> = (0..8).map(Bot::new).collect();
        let mut buffer = Vec::with_capacity(256);
        let mut n = 0u64;
        group.bench_function(format!("{}_8_players_bots", variant.name()), |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for _ in 0..BATCH {
                    n += 1;
                    let mut seed = [0u8; 32];
                    seed[..8].copy_from_slice(&n.to_le_bytes());
                    sum += play_hand(config, &seats, stud_engine::Seed(seed), &mut bots, &mut buffer) as u64;
                }
                black_box(sum)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, hands);
criterion_main!(benches);
