//! RULES.md 14: Mississippi, the seed's game (6th and 7th cards dealt together, one betting
//! round fewer).

use super::*;

const M: Variant = Variant::Mississippi;

/// The streets whose betting started, in order.
fn streets_started(t: &T) -> Vec<Street> {
    t.events
        .iter()
        .filter_map(|e| match e {
            Event::StreetStarted { street, .. } => Some(*street),
            _ => None,
        })
        .collect()
}

/// The cards dealt after 5th street's betting ended: (seat, up, street).
fn dealt_after_fifth(t: &T) -> Vec<(u8, bool, Street)> {
    let from = t.events.iter().position(|e| matches!(e, Event::StreetEnded { street: Street::Fifth })).unwrap();
    t.events[from..]
        .iter()
        .filter_map(|e| match e {
            Event::Dealt { seat, up, street, .. } => Some((seat.number(), *up, *street)),
            _ => None,
        })
        .collect()
}

/// Three players, seat 1 bringing in: boards after 5th are seat 1 2c-4d-7h, seat 2 Kd-Qs-Jd,
/// seat 3 9s-9h-3c; the 6th cards (up) are 8c, 2s, 9d, the 7th (down) Th, 5c, Ad.
fn three() -> T {
    start(
        cfg(M),
        &[(1, 5000), (2, 5000), (3, 5000)],
        &["Ac Ah 2c", "Kc Ks Kd", "Qc Qh 9s"],
        "4d Qs 9h 7h Jd 3c 8c 2s 9d Th 5c Ad",
    )
}

#[test]
fn third_fourth_and_fifth_street_are_bet_as_in_stud() {
    // RULES.md 14.1: the lowest door card brings in, the small bet on 3rd and 4th, the big
    // bet from 5th; the best board acts first.
    let mut t = three();
    assert_eq!(t.to_act(), Some(1));
    assert_eq!(t.legal(1), vec![Action::BringIn, Action::Complete { to: 200 }]);
    t.act(1, Action::BringIn);
    t.finish_street(Street::Third, Action::Call);
    // 4th street boards: 2c 4d, Kd Qs, 9s 9h: the open nines act first, small or big bet.
    assert_eq!(t.to_act(), Some(3));
    assert_eq!(t.legal(3), vec![Action::Check, Action::Bet { to: 200 }, Action::Bet { to: 400 }]);
    t.finish_street(Street::Fourth, Action::Check);
    assert_eq!(t.hand.street(), Street::Fifth);
    assert_eq!(t.legal(3), vec![Action::Check, Action::Bet { to: 400 }]);
}

#[test]
fn sixth_and_seventh_cards_are_dealt_together_and_sixth_street_is_not_bet() {
    // RULES.md 14.2: after 5th street the up card goes to every player, then the down card;
    // one betting round follows, recorded as 7th street.
    let mut t = three();
    t.act(1, Action::BringIn);
    t.check_down();
    assert_eq!(streets_started(&t), vec![Street::Third, Street::Fourth, Street::Fifth, Street::Seventh]);
    assert_eq!(
        dealt_after_fifth(&t),
        vec![
            (1, true, Street::Seventh),
            (2, true, Street::Seventh),
            (3, true, Street::Seventh),
            (1, false, Street::Seventh),
            (2, false, Street::Seventh),
            (3, false, Street::Seventh),
        ]
    );
    // Every player holds seven cards, the 6th up and the 7th down.
    let view = t.hand.view_for(Viewer::Observer);
    for s in &view.seats {
        let ups: Vec<bool> = s.cards.iter().map(|c| c.up).collect();
        assert_eq!(ups, vec![false, false, true, true, true, true, false]);
    }
}

#[test]
fn the_last_round_is_at_the_big_bet_and_the_best_four_card_board_acts_first() {
    // RULES.md 14.2: boards after the 6th card: seat 1 2c 4d 7h 8c, seat 2 Kd Qs Jd 2s, seat 3
    // 9s 9h 3c 9d (trips): seat 3 acts first, at the big bet.
    let mut t = three();
    t.act(1, Action::BringIn);
    t.finish_street(Street::Third, Action::Call);
    t.finish_street(Street::Fourth, Action::Check);
    t.finish_street(Street::Fifth, Action::Check);
    assert_eq!(t.hand.street(), Street::Seventh);
    assert_eq!(t.hand.phase(), Phase::Betting);
    assert_eq!(t.to_act(), Some(3));
    assert_eq!(t.legal(3), vec![Action::Check, Action::Bet { to: 400 }]);
    t.act(3, Action::Bet { to: 400 });
    t.act(1, Action::Fold);
    t.act(2, Action::Raise { to: 800 });
    t.act(3, Action::Call);
    // RULES.md 14.4: the last aggressor of the last round (7th street) shows first.
    let order = t.events.iter().find_map(|e| match e {
        Event::Showdown { order } => Some(order.iter().map(|s| s.number()).collect::<Vec<_>>()),
        _ => None,
    });
    assert_eq!(order, Some(vec![2, 3]));
    assert!(t.hand.is_over());
    // Seat 3's nines full of queens (Qc Qh 9s 9h 9d) beat seat 2's three kings: the pot is
    // the antes, three bring-ins' worth and 2 x 800.
    assert_eq!(t.stack(3), 5000 - 40 - 50 - 800 + 1870);
}

#[test]
fn community_card_when_eight_players_reach_the_last_round() {
    // RULES.md 14.3: 8 x 6 = 48 cards are dealt with the 6th; the four left cannot give eight
    // 7th cards, so one community card is dealt face up instead.
    let seats: Vec<(Seat, Chips)> = (1..=8).map(|s| (seat(s), 5000)).collect();
    let (mut hand, mut events) = Hand::start(cfg(M), &seats, Seed([9; 32])).unwrap();
    play_passively(&mut hand, &mut events);
    let community: Vec<_> = events.iter().filter(|e| matches!(e, Event::Community { .. })).collect();
    assert_eq!(community.len(), 1);
    let sixth_up =
        events.iter().filter(|e| matches!(e, Event::Dealt { street: Street::Seventh, up: true, .. })).count();
    let seventh_down =
        events.iter().filter(|e| matches!(e, Event::Dealt { street: Street::Seventh, up: false, .. })).count();
    assert_eq!((sixth_up, seventh_down), (8, 0));
    for e in &events {
        if let Event::Shown { cards, .. } = e {
            assert_eq!(cards.len(), 6);
        }
    }
}

#[test]
fn mississippi_in_big_bet_has_the_same_streets() {
    // RULES.md 14 with section 10: the structure changes the sizes, not the streets.
    for betting in [Betting::PotLimit, Betting::NoLimit] {
        let mut t = start(
            cfg(M).with_betting(betting),
            &[(1, 5000), (2, 5000), (3, 5000)],
            &["Ac Ah 2c", "Kc Ks Kd", "Qc Qh 9s"],
            "4d Qs 9h 7h Jd 3c 8c 2s 9d Th 5c Ad",
        );
        t.act(1, Action::BringIn);
        t.check_down();
        assert!(t.hand.is_over());
        assert_eq!(streets_started(&t), vec![Street::Third, Street::Fourth, Street::Fifth, Street::Seventh]);
    }
}
