//! Properties over random hands and random legal actions (proptest): chips are conserved, no
//! card is dealt twice, every hand terminates, `apply` accepts exactly `legal_actions`, no view
//! or event leaks an unshown down card, records replay exactly, PHH round-trips.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a failed unwrap is a failed test

use std::collections::HashSet;

use proptest::prelude::*;
use stud_engine::phh::{self, PhhContext};
use stud_engine::{
    Action, Betting, Card, Chips, Declaration, Event, Hand, LegalEntry, Phase, Seat, Seed, TableConfig, Variant, Viewer,
};

/// Every game of RULES.md 1.4.
fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(stud_engine::config::ALL_VARIANTS.to_vec())
}

fn betting() -> impl Strategy<Value = Betting> {
    prop_oneof![Just(Betting::FixedLimit), Just(Betting::PotLimit), Just(Betting::NoLimit)]
}

/// A table: variant, stakes (some odd ones), 2..=8 players on random seats with random stacks
/// (often short, so all-ins and side pots are common).
fn table() -> impl Strategy<Value = (TableConfig, Vec<(Seat, Chips)>)> {
    (
        variant(),
        0u64..30,
        1u64..20,
        prop::collection::btree_set(1u8..=8, 2..=8),
        prop::collection::vec(1u64..3_000, 8),
        any::<bool>(),
        any::<bool>(),
        (0u8..5, betting()),
    )
        .prop_map(|(v, ante, bring_in, seats, stacks, open_pair, uncapped, (max_raises, betting))| {
            let small = bring_in * 2 + 4;
            let mut config = TableConfig::new(v, ante, bring_in, small, small * 2).with_betting(betting);
            config.open_pair_big_bet = open_pair && !v.is_razz_like();
            config.uncapped_heads_up = uncapped;
            config.max_raises = max_raises;
            let seats = seats.into_iter().zip(stacks).filter_map(|(s, c)| Seat::new(s).map(|s| (s, c))).collect();
            (config, seats)
        })
}

/// Is `a` one of the legal entries: an exact action, or a wager inside a big-bet range?
fn in_entries(entries: &[LegalEntry], a: Action) -> bool {
    entries.iter().any(|e| match (e.min_to, e.max_to, a.to()) {
        (Some(min), Some(max), Some(to)) => {
            std::mem::discriminant(&e.action) == std::mem::discriminant(&a) && (min..=max).contains(&to)
        }
        _ => e.action == a,
    })
}

/// Every action the engine could be offered now: the legal ones and near misses.
fn candidates(hand: &Hand, seat: Seat) -> Vec<Action> {
    let mut out = vec![Action::BringIn, Action::Call, Action::Check, Action::Fold, Action::Show, Action::Muck];
    out.extend(Declaration::ALL.map(|declaration| Action::Declare { declaration }));
    let c = hand.config();
    let mut amounts: HashSet<Chips> = [0, 1, c.bring_in, c.small_bet, c.big_bet, c.small_bet * 2, c.big_bet * 2].into();
    for a in hand.legal_actions(seat).iter() {
        if let Some(to) = a.to() {
            amounts.extend([to.saturating_sub(1), to, to + 1, to + c.small_bet]);
        }
    }
    for e in hand.legal_entries(seat) {
        if let (Some(min), Some(max)) = (e.min_to, e.max_to) {
            amounts.extend([min.saturating_sub(1), min, (min + max) / 2, max, max + 1]);
        }
    }
    for to in amounts {
        out.extend([Action::Complete { to }, Action::Bet { to }, Action::Raise { to }]);
    }
    out
}

fn dealt_cards(events: &[Event]) -> Vec<Card> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Dealt { card, .. } => *card,
            Event::Community { card } => Some(*card),
            _ => None,
        })
        .collect()
}

fn check_views(hand: &Hand, events: &[Event]) -> Result<(), TestCaseError> {
    let shown: HashSet<Seat> = events
        .iter()
        .filter_map(|e| match e {
            Event::Shown { seat, .. } => Some(*seat),
            _ => None,
        })
        .collect();
    let seats: Vec<Seat> = hand.seats().collect();
    let viewers = seats.iter().map(|&s| Viewer::Seat(s)).chain([Viewer::Observer]);
    let revealed = events.iter().any(|e| matches!(e, Event::DeclarationsRevealed { .. }));
    for viewer in viewers {
        let view = hand.view_for(viewer);
        for s in &view.seats {
            let own = viewer == Viewer::Seat(s.seat);
            // RULES.md 12.2: a declaration is secret from the others until all are revealed.
            if !own && !revealed {
                prop_assert!(s.declaration.is_none(), "view for {viewer:?} shows seat {}'s declaration", s.seat);
            }
            for c in &s.cards {
                if !c.up && !own && !shown.contains(&s.seat) {
                    prop_assert!(c.card.is_none(), "view for {viewer:?} shows a down card of seat {}", s.seat);
                }
            }
            // A hand's code (as its name) only for its own player or once shown, and then the
            // code of its cards; never for a folded seat.
            if !own && !shown.contains(&s.seat) {
                prop_assert!(s.hand_code.is_none(), "view for {viewer:?} codes seat {}'s hidden hand", s.seat);
            }
            prop_assert_eq!(s.hand_code.is_some(), s.hand.is_some(), "seat {}: a name without its code", s.seat);
            if s.hand_code.is_some() {
                prop_assert_eq!(&s.hand_code, &hand.strength_of(s.seat));
            }
        }
        for e in events {
            prop_assert!(!e.for_viewer(viewer).leaks_to(viewer));
        }
        let json = serde_json::to_string(&view).unwrap();
        prop_assert!(!json.contains("seed"), "a view mentions the seed");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn random_hands_keep_every_invariant(
        (config, seats) in table(),
        seed in any::<[u8; 32]>(),
        choices in prop::collection::vec(any::<u16>(), 200),
    ) {
        let total: Chips = seats.iter().map(|s| s.1).sum();
        let (mut hand, mut events) = Hand::start(config, &seats, Seed(seed)).unwrap();
        let mut steps = 0;
        while let Some(seat) = hand.to_act() {
            // Fixed limit caps every street; big-bet raises each add at least the minimum bet,
            // so the chips on the table bound them.
            let bound = 200 + 8 * (total / config.small_bet) as usize;
            prop_assert!(steps < bound, "the hand did not terminate");
            let legal = hand.legal_actions(seat).to_vec();
            let entries = hand.legal_entries(seat);
            prop_assert!(!legal.is_empty());
            // The listed actions are all legal entries; ranges only in big-bet stud.
            prop_assert!(legal.iter().all(|&a| in_entries(&entries, a)));
            prop_assert_eq!(entries.iter().any(|e| e.min_to.is_some()), config.betting.is_big_bet() && legal.iter().any(|a| a.to().is_some()));
            // apply accepts exactly the legal actions (checked on clones), from the right seat only
            for a in candidates(&hand, seat) {
                let mut probe = hand.clone();
                prop_assert_eq!(probe.apply(seat, a).is_ok(), in_entries(&entries, a), "{:?} legal={:?}", a, entries);
            }
            for other in hand.seats().filter(|&s| s != seat) {
                let mut probe = hand.clone();
                prop_assert!(probe.apply(other, legal[0]).is_err());
            }
            let choice = choices[steps % choices.len()];
            let mut pick = legal[usize::from(choice) % legal.len()];
            // In a big-bet range, any total: the roll's high bits pick it.
            if let (Some(to), Some(e)) = (pick.to(), entries.iter().find(|e| e.min_to.is_some())) {
                if let (Some(min), Some(max)) = (e.min_to, e.max_to) {
                    let to = if choice & 1 == 0 { to } else { min + Chips::from(choice >> 1) % (max - min + 1) };
                    pick = hand.legal().wager_at(to).unwrap();
                }
            }
            events.extend(hand.apply(seat, pick).unwrap());
            steps += 1;
            let stacks: Chips = hand.stacks().iter().map(|s| s.chips).sum();
            prop_assert_eq!(stacks + hand.pot_total(), total, "chips not conserved");
            if hand.phase() != Phase::Over && steps % 3 == 0 {
                check_views(&hand, &events)?;
            }
        }
        prop_assert!(hand.is_over());
        let stacks: Chips = hand.stacks().iter().map(|s| s.chips).sum();
        prop_assert_eq!(stacks, total);
        let awarded: Chips = events.iter().filter_map(|e| match e { Event::Award { amount, .. } => Some(*amount), _ => None }).sum();
        let dealt = dealt_cards(&events);
        let distinct: HashSet<Card> = dealt.iter().copied().collect();
        prop_assert_eq!(distinct.len(), dealt.len(), "a card was dealt twice");
        prop_assert!(awarded > 0 || config.ante == 0);
        check_views(&hand, &events)?;

        // The record replays to the same record and the same events.
        let record = hand.record();
        let (replayed, replay_events) = record.replay().unwrap();
        prop_assert_eq!(replayed.record(), record.clone());
        prop_assert_eq!(replay_events, events);
        prop_assert!(record.verify().is_ok());

        // PHH: write, read back, replay: the same record.
        let text = phh::write_hand(&record, &PhhContext::default()).unwrap();
        let read = phh::read(&text).unwrap();
        prop_assert_eq!(read.len(), 1);
        let back = read.into_iter().next().unwrap().1.unwrap();
        prop_assert_eq!(back.record, record);
    }
}
