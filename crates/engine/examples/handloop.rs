//! Plays 8-player bot hands in a loop, for profilers:
//! `cargo run --release -p stud-engine --example handloop -- SECONDS [MAX_HANDS] [events]`
//! (with `events`, every event is built into a buffer as the server's tables do).
#![allow(missing_docs)]

use std::time::{Duration, Instant};
use stud_engine::bot::Bot;
use stud_engine::sim::play_hand;
use stud_engine::{Event, NoEvents, Seat, Seed, TableConfig, Variant};

fn main() {
    let seconds: f64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let config = TableConfig::new(Variant::Stud, 40, 50, 200, 400);
    let seats: Vec<(Seat, u64)> =
        (1..=8u8).filter_map(Seat::new).map(|s| (s, 2_000 + 700 * u64::from(s.number()))).collect();
    let mut bots: Vec<Bot> = (0..8).map(Bot::new).collect();
    let with_events = std::env::args().nth(3).is_some_and(|a| a == "events");
    let mut events: Vec<Event> = Vec::with_capacity(256);
    let start = Instant::now();
    let (mut played, mut actions) = (0u64, 0u64);
    let max_hands: u64 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(u64::MAX);
    while start.elapsed() < Duration::from_secs_f64(seconds) && played < max_hands {
        for _ in 0..1_000 {
            played += 1;
            let mut seed = [0u8; 32];
            seed[..8].copy_from_slice(&played.to_le_bytes());
            let played = if with_events {
                events.clear();
                play_hand(config, &seats, Seed(seed), &mut bots, &mut events)
            } else {
                play_hand(config, &seats, Seed(seed), &mut bots, &mut NoEvents)
            };
            actions += played.map_or(0, |(_, n)| n) as u64;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{:.0} hands/s, {:.1} actions/hand", played as f64 / secs, actions as f64 / played as f64);
}
