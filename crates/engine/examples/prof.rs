//! Where a bot hand's time goes (a rough split; the criterion benches are the reference).
#![allow(clippy::unwrap_used, missing_docs)]
use std::time::Instant;
use stud_engine::{Deck, Hand, Seat, Seed, TableConfig, Variant, bot::Bot, sim::play_hand};
fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let seed_of = |i: u64| {
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&i.to_le_bytes());
        Seed(seed)
    };
    let mut s = 0u64;
    let t = Instant::now();
    for i in 0..n {
        s += u64::from(Deck::shuffled(&seed_of(i)).order()[0].id());
    }
    println!("shuffle: {:.0} ns", t.elapsed().as_nanos() as f64 / n as f64);
    let config = TableConfig::new(Variant::Stud, 40, 50, 200, 400);
    let seats: Vec<(Seat, u64)> =
        (1..=8u8).filter_map(Seat::new).map(|x| (x, 2000 + 700 * u64::from(x.number()))).collect();
    let t = Instant::now();
    for i in 0..n {
        let (h, ev) = Hand::start(config, &seats, seed_of(i)).unwrap();
        s += ev.len() as u64 + h.street() as u64;
    }
    println!("start: {:.0} ns", t.elapsed().as_nanos() as f64 / n as f64);
    let mut bots: Vec<Bot> = (0..8).map(Bot::new).collect();
    let mut buf = Vec::new();
    let t = Instant::now();
    let mut acts = 0;
    for i in 0..n {
        buf.clear();
        acts += play_hand(config, &seats, seed_of(i), &mut bots, &mut buf).unwrap().1;
    }
    println!("hand: {:.0} ns, {:.1} actions/hand", t.elapsed().as_nanos() as f64 / n as f64, acts as f64 / n as f64);
    // Passive play: everyone checks or calls to showdown (no folds, no raises).
    let t = Instant::now();
    let mut passive_actions = 0u64;
    let mut events = Vec::with_capacity(256);
    for i in 0..n {
        events.clear();
        let Ok(mut hand) =
            Hand::start_into(config, &seats, Deck::shuffled(&seed_of(i)), Some(seed_of(i)), None, &mut events)
        else {
            continue;
        };
        while let Some(seat) = hand.to_act() {
            let legal = hand.legal_actions(seat);
            let a = [
                stud_engine::Action::Check,
                stud_engine::Action::Call,
                stud_engine::Action::BringIn,
                stud_engine::Action::Muck,
            ]
            .into_iter()
            .find(|a| legal.contains(a))
            .unwrap();
            events.clear();
            hand.apply_into(seat, a, &mut events).unwrap();
            passive_actions += 1;
        }
    }
    println!(
        "passive hand: {:.0} ns, {:.1} actions/hand",
        t.elapsed().as_nanos() as f64 / n as f64,
        passive_actions as f64 / n as f64
    );
    println!("{s}");
}
