//! Full 8-player stud hands with betting bots, single-threaded (issue: at least 250k hands/s).
#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use stud_engine::bot::Bot;
use stud_engine::sim::play_hand;
use stud_engine::{Event, NoEvents, Seat, Seed, TableConfig, Variant};

const BATCH: u64 = 10_000;

/// Plays `BATCH` hands, seeded from the counter `n`; the sum of their action counts.
fn batch(n: &mut u64, mut play: impl FnMut(Seed) -> usize) -> u64 {
    let mut sum = 0u64;
    for _ in 0..BATCH {
        *n += 1;
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&n.to_le_bytes());
        sum += play(Seed(seed)) as u64;
    }
    sum
}

fn hands(c: &mut Criterion) {
    let mut group = c.benchmark_group("hand");
    group.throughput(Throughput::Elements(BATCH));
    for variant in [Variant::Stud, Variant::Stud8, Variant::Razz] {
        let config = TableConfig::new(variant, 40, 50, 200, 400);
        let seats: Vec<(Seat, u64)> =
            (1..=8u8).filter_map(Seat::new).map(|s| (s, 2_000 + 700 * u64::from(s.number()))).collect();
        let mut bots: Vec<Bot> = (0..8).map(Bot::new).collect();
        let mut buffer: Vec<Event> = Vec::with_capacity(256);
        let mut n = 0u64;
        // As `stud sim` and replay play: state and record, no event list.
        group.bench_function(format!("{}_8_players_bots", variant.name()), |b| {
            b.iter(|| {
                black_box(batch(&mut n, |seed| {
                    play_hand(config, &seats, seed, &mut bots, &mut NoEvents).map_or(0, |(_, k)| k)
                }))
            })
        });
        // As the server plays: every event built too.
        group.bench_function(format!("{}_8_players_bots_with_events", variant.name()), |b| {
            b.iter(|| {
                black_box(batch(&mut n, |seed| {
                    buffer.clear();
                    play_hand(config, &seats, seed, &mut bots, &mut buffer).map_or(0, |(_, k)| k)
                }))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, hands);
criterion_main!(benches);
