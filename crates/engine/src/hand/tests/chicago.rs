//! RULES.md 13: Chicago, where the highest spade in the hole wins half the pot.

use super::*;

const C: Variant = Variant::Chicago;

/// Ante 41, so that a pot with a folded third player is odd: 3 x 41 + 2 x 50 = 223.
fn config() -> TableConfig {
    TableConfig::new(C, 41, 50, 200, 400)
}

/// Seat 1 brings in with the 3s (an up spade: it does not count), seat 2 calls with
/// `seat2_hole` in the hole, seat 3 folds; checked down. Seat 1 ends with Kh Qh 3s Ac 5h 6h Jd
/// (ace-king high), seat 2 with its hole cards, 9d Ad 8c 4c and `seat2_seventh` (ace-ten high).
fn hand(seat2_hole: &str, seat2_seventh: &str) -> T {
    let mut t = start(
        config(),
        &[(1, 5000), (2, 5000), (3, 5000)],
        &["Kh Qh 3s", &format!("{seat2_hole} 9d"), "Jc Jh Kd"],
        &format!("Ac Ad 5h 8c 6h 4c Jd {seat2_seventh}"),
    );
    assert_eq!(t.to_act(), Some(1));
    t.act(1, Action::BringIn);
    t.act(2, Action::Call);
    t.act(3, Action::Fold);
    t.check_down();
    assert!(t.hand.is_over());
    t
}

#[test]
fn deal_bring_in_and_open_pair_are_those_of_stud() {
    // RULES.md 13.1.
    assert!(TableConfig::new(C, 40, 50, 200, 400).open_pair_big_bet);
    let t = start(cfg(C), &[(1, 1000), (2, 1000), (3, 1000)], &["2c 3c Kd", "4c 5c 2d", "6c 7c 2s"], "");
    assert_eq!(t.to_act(), Some(2), "the 2d brings in, clubs lowest");
}

#[test]
fn the_highest_spade_in_the_hole_wins_half_and_the_high_half_takes_the_odd_chip() {
    // RULES.md 13.2: seat 1 has the best high hand; seat 2 holds the 2s in the hole. Seat 1's
    // 3s is an up card and does not count.
    let t = hand("2s 7c", "Tc");
    assert_eq!(t.awards(), vec![(seat(1), Half::High, 112), (seat(2), Half::Spade, 111)]);
    let named = t.events.iter().find_map(|e| match e {
        Event::Award { half: Half::Spade, hand, .. } => hand.clone(),
        _ => None,
    });
    assert_eq!(named.as_deref(), Some("Spade in the hole, Two"));
}

#[test]
fn the_seventh_card_is_in_the_hole_too() {
    // RULES.md 13.2: the 7th card is a down card: a spade there counts.
    let t = hand("2d 7c", "Qs");
    assert_eq!(t.awards(), vec![(seat(1), Half::High, 112), (seat(2), Half::Spade, 111)]);
}

#[test]
fn no_spade_in_the_hole_the_high_hand_takes_the_pot() {
    // RULES.md 13.3.
    let t = hand("2d 7c", "Tc");
    assert_eq!(t.awards(), vec![(seat(1), Half::Whole, 223)]);
}

#[test]
fn the_community_card_never_counts_as_a_spade_in_the_hole() {
    // RULES.md 13.2: eight players reach 7th street, nobody holds a spade in the hole, and
    // the community card is the As: the high hand takes the whole pot.
    let mut order: Vec<Card> = Card::all().filter(|c| c.suit() != Suit::Spades).take(16).collect();
    let ace = Card::new(Rank::Ace, Suit::Spades);
    let rest: Vec<Card> = Card::all().filter(|c| !order.contains(c) && *c != ace).take(32).collect();
    order.extend(rest);
    order.push(ace);
    let seats: Vec<(Seat, Chips)> = (1..=8).map(|s| (seat(s), 5000)).collect();
    let (mut hand, mut events) = Hand::start_with_deck(cfg(C), &seats, &order).unwrap();
    play_passively(&mut hand, &mut events);
    assert!(events.contains(&Event::Community { card: ace }));
    let halves: Vec<Half> = events
        .iter()
        .filter_map(|e| match e {
            Event::Award { half, .. } => Some(*half),
            _ => None,
        })
        .collect();
    assert!(!halves.is_empty());
    assert!(halves.iter().all(|h| *h == Half::Whole), "{halves:?}");
}

#[test]
fn one_player_may_win_both_halves() {
    // RULES.md 13.4: seat 1 holds the As in the hole and the best hand (aces).
    let mut t = start(
        config(),
        &[(1, 5000), (2, 5000), (3, 5000)],
        &["Kh As 3s", "2s 7c 9d", "Jc Jh Kd"],
        "Ac Ad 5h 8c 6h 4c Jd Tc",
    );
    t.act(1, Action::BringIn);
    t.act(2, Action::Call);
    t.act(3, Action::Fold);
    t.check_down();
    assert_eq!(t.awards(), vec![(seat(1), Half::High, 112), (seat(1), Half::Spade, 111)]);
    assert_eq!(t.stack(1), 5000 - 41 - 50 + 223);
}

#[test]
fn tied_high_hands_share_the_high_half_and_the_spade_goes_whole() {
    // RULES.md 13.4: both make the ace-high straight; seat 2 has the As in the hole.
    let mut t = start(
        TableConfig::new(C, 41, 50, 200, 400),
        &[(1, 5000), (2, 5000)],
        &["Ah Kd 3c", "As Kc 4d"],
        "Qh Qc Jh Jd Td Th 2h 5c",
    );
    assert_eq!(t.to_act(), Some(1));
    t.act(1, Action::BringIn);
    t.act(2, Action::Call);
    t.check_down();
    // Pot 182: the high half of 91 is split 46 / 45 (odd chip from seat 1), the spade half 91.
    assert_eq!(t.awards(), vec![(seat(1), Half::High, 46), (seat(2), Half::High, 45), (seat(2), Half::Spade, 91)]);
}

#[test]
fn a_higher_spade_in_the_hole_is_shown_and_a_hand_that_wins_nothing_may_muck() {
    // RULES.md 13.5: seat 1 (the bring-in) shows first; seat 2 loses the high but holds the
    // only spade in the hole, so it is shown automatically.
    let t = hand("2s 7c", "Tc");
    assert_eq!(t.shown(), vec![(1, true), (2, true)]);
    // Without the spade, seat 2's hand wins nothing: it is offered show or muck.
    let mut t = start(
        config(),
        &[(1, 5000), (2, 5000), (3, 5000)],
        &["Kh Qh 3s", "2d 7c 9d", "Jc Jh Kd"],
        "Ac Ad 5h 8c 6h 4c Jd Tc",
    );
    t.act(1, Action::BringIn);
    t.act(2, Action::Call);
    t.act(3, Action::Fold);
    t.check_to_showdown();
    assert_eq!(t.hand.phase(), Phase::Showdown);
    assert_eq!(t.to_act(), Some(2));
    assert_eq!(t.legal(2), vec![Action::Show, Action::Muck]);
}
