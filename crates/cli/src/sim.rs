//! `stud sim`: seeded bot hands written as one `.phhs` document. Same seed, same bytes.

use std::io::Write as _;

use anyhow::{Context as _, bail};
use clap::Args;
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use stud_engine::bot::Bot;
use stud_engine::phh::{self, PhhContext};
use stud_engine::sim::play_hand;
use stud_engine::{Betting, Chips, NoEvents, Seat, Seed, TableConfig, Variant};

#[derive(Args)]
pub struct SimArgs {
    /// stud, stud8, razz, london, stud8_declare, chicago or mississippi.
    #[arg(long, default_value = "stud")]
    variant: String,
    /// fixed_limit, pot_limit or no_limit (RULES.md 10).
    #[arg(long, default_value = "fixed_limit")]
    betting: String,
    /// Players per hand (2..=8), seated 1..=N.
    #[arg(long, default_value_t = 8)]
    players: u8,
    /// Number of hands.
    #[arg(long, default_value_t = 10)]
    hands: u64,
    /// Any text; the same seed gives the same output, byte for byte.
    #[arg(long, default_value = "0")]
    seed: String,
    /// Smallest starting stack (short stacks make all-ins and side pots common).
    #[arg(long, default_value_t = 100)]
    min_stack: Chips,
    /// Largest starting stack.
    #[arg(long, default_value_t = 6_000)]
    max_stack: Chips,
    /// Ante.
    #[arg(long, default_value_t = 40)]
    ante: Chips,
    /// Bring-in.
    #[arg(long, default_value_t = 50)]
    bring_in: Chips,
    /// Small bet.
    #[arg(long, default_value_t = 200)]
    small_bet: Chips,
    /// Big bet.
    #[arg(long, default_value_t = 400)]
    big_bet: Chips,
}

pub fn run(args: &SimArgs) -> anyhow::Result<()> {
    let variant: Variant = args.variant.parse()?;
    let betting: Betting = args.betting.parse()?;
    let config =
        TableConfig::new(variant, args.ante, args.bring_in, args.small_bet, args.big_bet).with_betting(betting);
    config.validate().context("invalid stakes")?;
    if !(2..=8).contains(&args.players) {
        bail!("--players must be 2..=8, got {}", args.players);
    }
    if args.min_stack == 0 || args.min_stack > args.max_stack {
        bail!("need 0 < --min-stack <= --max-stack");
    }
    let master = Seed(stud_engine::deck::sha256(args.seed.as_bytes()));
    let mut rng = ChaCha20Rng::from_seed(master.0);
    let out = std::io::stdout();
    let mut out = out.lock();
    for k in 1..=args.hands {
        let mut seed = [0u8; 32];
        rng.fill_bytes(&mut seed);
        let span = args.max_stack - args.min_stack + 1;
        let seats: Vec<(Seat, Chips)> =
            (1..=args.players).filter_map(Seat::new).map(|s| (s, args.min_stack + rng.next_u64() % span)).collect();
        let mut bots: Vec<Bot> = seats.iter().map(|_| Bot::new(rng.next_u64())).collect();
        // Only the record is written: the hand is played without building its events.
        let (hand, _) = play_hand(config, &seats, Seed(seed), &mut bots, &mut NoEvents)?;
        let text = phh::write_hand(&hand.record(), &PhhContext { hand: Some(k), ..PhhContext::default() })?;
        if k > 1 {
            writeln!(out)?;
        }
        writeln!(out, "[{k}]")?;
        out.write_all(text.as_bytes())?;
    }
    out.flush()?;
    Ok(())
}
