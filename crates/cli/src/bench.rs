//! `stud bench`: evaluations per second on the same random 7-card hands (raw card ids), and
//! full 8-player stud hands per second with betting bots, single-threaded.

use std::hint::black_box;
use std::time::{Duration, Instant};

use stud_engine::bot::Bot;
use stud_engine::eval::{eval_high_ids, eval_hilo8_ids, eval_low_a5_ids};
use stud_engine::sim::play_hand;
use stud_engine::{Event, NoEvents, Seat, Seed, TableConfig, Variant};

/// `n` random 7-card hands of distinct cards, as raw ids, from a fixed seed.
pub fn random_hands(n: usize, seed: u64) -> Vec<[u8; 7]> {
    let mut rng = Bot::new(seed);
    let mut hands = Vec::with_capacity(n);
    for _ in 0..n {
        let mut used = 0u64;
        let mut hand = [0u8; 7];
        for slot in &mut hand {
            loop {
                let c = (rng.next_u64() % 52) as u8;
                if used & (1 << c) == 0 {
                    used |= 1 << c;
                    *slot = c;
                    break;
                }
            }
        }
        hands.push(hand);
    }
    hands
}

fn rate(n: usize, f: impl FnOnce() -> u64) -> f64 {
    let start = Instant::now();
    black_box(f());
    n as f64 / start.elapsed().as_secs_f64()
}

/// Full 8-player hands per second for `budget`: `play` plays the hand of a seed with the
/// given bots and returns its number of actions.
fn hand_rate(budget: Duration, mut play: impl FnMut(Seed, &mut [Bot]) -> usize) -> f64 {
    let mut bots: Vec<Bot> = (0..8).map(Bot::new).collect();
    let start = Instant::now();
    let mut played = 0u64;
    let mut actions = 0u64;
    while start.elapsed() < budget {
        for _ in 0..1_000 {
            played += 1;
            let mut seed = [0u8; 32];
            seed[..8].copy_from_slice(&played.to_le_bytes());
            actions += play(Seed(seed), &mut bots) as u64;
        }
    }
    black_box(actions);
    played as f64 / start.elapsed().as_secs_f64()
}

pub fn run(evals: usize, hand_seconds: f64) -> anyhow::Result<()> {
    let hands = random_hands(evals, 42);
    // Build the evaluator's lookup tables before timing (a one-off ~30 ms at first use).
    if let Some(h) = hands.first() {
        black_box((eval_high_ids(h), eval_low_a5_ids(h), eval_hilo8_ids(h)));
    }
    let high = rate(hands.len(), || hands.iter().map(|h| u64::from(eval_high_ids(h).value())).sum());
    let razz = rate(hands.len(), || hands.iter().map(|h| u64::from(eval_low_a5_ids(h).value())).sum());
    let hilo = rate(hands.len(), || {
        hands
            .iter()
            .map(|h| {
                let (hi, lo) = eval_hilo8_ids(h);
                u64::from(hi.value()) + lo.map_or(0, |l| u64::from(l.value()))
            })
            .sum()
    });

    let config = TableConfig::new(Variant::Stud, 40, 50, 200, 400);
    let seats: Vec<(Seat, u64)> =
        (1..=8u8).filter_map(Seat::new).map(|s| (s, 2_000 + 700 * u64::from(s.number()))).collect();
    let budget = Duration::from_secs_f64(hand_seconds.max(0.1));
    // As `stud sim` and record replay play them: the hand's state and record, no event list.
    let hands_per_s =
        hand_rate(budget, |seed, bots| play_hand(config, &seats, seed, bots, &mut NoEvents).map_or(0, |(_, n)| n));
    // As the server plays them: every event built into a reused buffer as well.
    let mut events: Vec<Event> = Vec::with_capacity(256);
    let hands_with_events_per_s = hand_rate(budget, |seed, bots| {
        events.clear();
        play_hand(config, &seats, seed, bots, &mut events).map_or(0, |(_, n)| n)
    });
    println!(
        "{}",
        serde_json::json!({
            "eval_high_per_s": high.round(),
            "eval_razz_per_s": razz.round(),
            "eval_hilo8_per_s": hilo.round(),
            "hands_per_s": hands_per_s.round(),
            "hands_with_events_per_s": hands_with_events_per_s.round(),
        })
    );
    Ok(())
}
