//! Hand evaluator throughput against `aya_poker` on the same 1,000,000 random 7-card hands.
//!
//! Groups: `high` (best high hand), `razz` (best ace-to-five low), `hilo8` (high hand and
//! 8-or-better low together). Each iteration evaluates every hand once; the throughput is in
//! hands per second. aya's cards are converted up front; its `Hand` is built inside the loop
//! (with `insert_unchecked`, its fastest path), as ours is built from the raw ids. For
//! reference, `aya_prebuilt` also times aya's lookup alone, on `Hand`s built before timing
//! (that skips the per-card work both evaluators otherwise do).
//!
//! Run: `cargo bench -p stud-engine --bench eval -- --warm-up-time 1 --measurement-time 3`
#![allow(missing_docs)]

use aya_poker::base::{CARDS, Card as AyaCard, Hand as AyaHand};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use stud_engine::eval::{eval_high_ids, eval_hilo8_ids, eval_low_a5_ids};

const HANDS: usize = 1_000_000;

/// SplitMix64, seeded: the same hands on every run.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `HANDS` random hands of 7 distinct card ids (`rank * 4 + suit`).
fn random_hands() -> Vec<[u8; 7]> {
    let mut state = 0x5EED_u64;
    (0..HANDS)
        .map(|_| {
            let mut hand = [0u8; 7];
            let mut used = 0u64;
            for slot in &mut hand {
                *slot = loop {
                    let id = (next(&mut state) % 52) as u8;
                    if used & (1 << id) == 0 {
                        used |= 1 << id;
                        break id;
                    }
                };
            }
            hand
        })
        .collect()
}

/// The same card in aya's representation (its card order is also rank-major, clubs to spades).
fn aya_card(id: u8) -> AyaCard {
    CARDS[usize::from(id)]
}

#[inline(always)]
fn aya_hand(cards: &[AyaCard; 7]) -> AyaHand {
    let mut hand = AyaHand::new();
    for card in cards {
        hand.insert_unchecked(card);
    }
    hand
}

fn evaluators(c: &mut Criterion) {
    let hands = random_hands();
    let aya: Vec<[AyaCard; 7]> = hands.iter().map(|h| h.map(aya_card)).collect();
    let aya_prebuilt: Vec<AyaHand> = aya.iter().map(aya_hand).collect();
    // Build our tables before timing.
    black_box(eval_high_ids(&hands[0]));

    let mut group = c.benchmark_group("high");
    group.throughput(Throughput::Elements(HANDS as u64));
    group.sample_size(20);
    group.bench_function("ours", |b| {
        b.iter(|| black_box(&hands).iter().map(|h| u64::from(eval_high_ids(h).value())).sum::<u64>())
    });
    group.bench_function("aya", |b| {
        b.iter(|| black_box(&aya).iter().map(|h| u64::from(aya_poker::poker_rank(&aya_hand(h)).0)).sum::<u64>())
    });
    group.bench_function("aya_prebuilt", |b| {
        b.iter(|| black_box(&aya_prebuilt).iter().map(|h| u64::from(aya_poker::poker_rank(h).0)).sum::<u64>())
    });
    group.finish();

    let mut group = c.benchmark_group("razz");
    group.throughput(Throughput::Elements(HANDS as u64));
    group.sample_size(20);
    group.bench_function("ours", |b| {
        b.iter(|| black_box(&hands).iter().map(|h| u64::from(eval_low_a5_ids(h).value())).sum::<u64>())
    });
    group.bench_function("aya", |b| {
        b.iter(|| black_box(&aya).iter().map(|h| u64::from(aya_poker::ace_five_rank(&aya_hand(h)).0)).sum::<u64>())
    });
    group.bench_function("aya_prebuilt", |b| {
        b.iter(|| black_box(&aya_prebuilt).iter().map(|h| u64::from(aya_poker::ace_five_rank(h).0)).sum::<u64>())
    });
    group.finish();

    let mut group = c.benchmark_group("hilo8");
    group.throughput(Throughput::Elements(HANDS as u64));
    group.sample_size(20);
    group.bench_function("ours", |b| {
        b.iter(|| {
            black_box(&hands)
                .iter()
                .map(|h| {
                    let (high, low) = eval_hilo8_ids(h);
                    u64::from(high.value()) + low.map_or(0, |l| u64::from(l.value()))
                })
                .sum::<u64>()
        })
    });
    group.bench_function("aya", |b| {
        b.iter(|| {
            black_box(&aya)
                .iter()
                .map(|h| {
                    let hand = aya_hand(h);
                    let high = aya_poker::poker_rank(&hand);
                    let low = aya_poker::ace_five_rank(&hand).to_lo_8_rank();
                    u64::from(high.0) + u64::from(low.0)
                })
                .sum::<u64>()
        })
    });
    group.bench_function("aya_prebuilt", |b| {
        b.iter(|| {
            black_box(&aya_prebuilt)
                .iter()
                .map(|hand| {
                    let high = aya_poker::poker_rank(hand);
                    let low = aya_poker::ace_five_rank(hand).to_lo_8_rank();
                    u64::from(high.0) + u64::from(low.0)
                })
                .sum::<u64>()
        })
    });
    group.finish();
}

criterion_group!(benches, evaluators);
criterion_main!(benches);
