//! RULES.md 12: Seven Card Stud Hi/Lo with a declaration before the showdown.

use super::*;
use crate::action::Declaration::{self, Both, High, Low};

const D: Variant = Variant::Stud8Declare;

fn declare(d: Declaration) -> Action {
    Action::Declare { declaration: d }
}

/// Seat 1 ends with Ac 2d 3h 4s 6c Kh Qd (a 6-4 low, ace-king high), seat 2 with
/// Jc Jd 9h Js 9c 8h Th (jacks full, no low). Seat 1 brings in (3h), seat 2 calls, and the hand
/// is checked to the declaration.
fn two() -> T {
    let mut t = start(cfg(D), &[(1, 5000), (2, 5000)], &["Ac 2d 3h", "Jc Jd 9h"], "4s Js 6c 9c Kh 8h Qd Th");
    assert_eq!(t.to_act(), Some(1));
    t.act(1, Action::BringIn);
    t.act(2, Action::Call);
    t.check_to_showdown();
    assert_eq!(t.hand.phase(), Phase::Declare);
    t
}

/// [`two`], then the declarations, in seat order.
fn declared(d1: Declaration, d2: Declaration) -> T {
    let mut t = two();
    t.act(1, declare(d1));
    t.act(2, declare(d2));
    assert!(t.hand.is_over());
    t
}

#[test]
fn deal_bring_in_and_betting_are_those_of_stud8() {
    // RULES.md 12.1: the lowest door card brings in, the open pair applies.
    assert!(TableConfig::new(D, 40, 50, 200, 400).open_pair_big_bet);
    let t = start(cfg(D), &[(1, 1000), (2, 1000), (3, 1000)], &["2c 3c Kd", "4c 5c 2d", "6c 7c 2s"], "");
    assert_eq!(t.to_act(), Some(2));
    assert_eq!(t.legal(2), vec![Action::BringIn, Action::Complete { to: 200 }]);
}

#[test]
fn everyone_in_declares_in_seat_order_secretly_and_all_are_revealed_together() {
    // RULES.md 12.2: three players, seat 3 all-in on 3rd street; all three declare.
    let mut t = start(
        cfg(D),
        &[(1, 5000), (2, 5000), (3, 90)],
        &["Ac 2d 3h", "Jc Jd 9h", "Qc Qs 7d"],
        "4s Js 2c 6c 9c 3c Kh 8h 5d Qd Th Ad",
    );
    t.act(1, Action::BringIn);
    t.act(2, Action::Call);
    t.act(3, Action::Call);
    t.check_to_showdown();
    assert_eq!(t.hand.phase(), Phase::Declare);
    let order = t.events.iter().find_map(|e| match e {
        Event::DeclarationStarted { order } => Some(order.iter().map(|s| s.number()).collect::<Vec<_>>()),
        _ => None,
    });
    assert_eq!(order, Some(vec![1, 2, 3]));
    assert_eq!(t.to_act(), Some(1));
    assert_eq!(t.legal(1), vec![declare(High), declare(Low), declare(Both)]);
    // Nothing else is legal, from anyone else.
    assert!(matches!(t.refuse(1, Action::Check), ActionError::Illegal { .. }));
    assert!(matches!(t.refuse(2, declare(High)), ActionError::NotYourTurn { .. }));
    // The clock's default is high.
    assert_eq!(t.hand.timeout_action(), Some((seat(1), declare(High))));

    let ev = t.act(1, declare(Low));
    let made = Event::Declared { seat: seat(1), declaration: Some(Low) };
    assert_eq!(ev, vec![made.clone()]);
    // Only seat 1 sees what seat 1 declared; the others see that it declared.
    assert_eq!(made.for_viewer(Viewer::Seat(seat(1))), made);
    assert_eq!(made.for_viewer(Viewer::Seat(seat(2))), Event::Declared { seat: seat(1), declaration: None });
    assert_eq!(made.for_viewer(Viewer::Observer), Event::Declared { seat: seat(1), declaration: None });
    assert!(made.leaks_to(Viewer::Observer) && !made.leaks_to(Viewer::Seat(seat(1))));
    let seen = |t: &T, viewer: Viewer| {
        let view = t.hand.view_for(viewer);
        let s = view.seats.iter().find(|s| s.seat == seat(1)).unwrap().clone();
        (s.declared, s.declaration)
    };
    assert_eq!(seen(&t, Viewer::Seat(seat(1))), (true, Some(Low)));
    assert_eq!(seen(&t, Viewer::Seat(seat(2))), (true, None));
    assert_eq!(seen(&t, Viewer::Observer), (true, None));

    t.act(2, declare(High));
    let last = t.act(3, declare(Low));
    assert_eq!(
        last.first(),
        Some(&Event::Declared { seat: seat(3), declaration: Some(Low) }),
        "the last declaration comes before the reveal"
    );
    assert!(last.contains(&Event::DeclarationsRevealed {
        declarations: vec![(seat(1), Low), (seat(2), High), (seat(3), Low)]
    }));
    assert_eq!(seen(&t, Viewer::Seat(seat(2))), (true, Some(Low)));
    assert_eq!(seen(&t, Viewer::Observer), (true, Some(Low)));
    // RULES.md 12.3: every declared hand is shown, nobody is asked to muck.
    assert!(t.hand.is_over());
    let shown = t.shown();
    assert_eq!(shown.len(), 3);
    assert!(shown.iter().all(|s| s.1));
    // High to seat 2's full house; the low to seat 1's 6-4 over seat 3's 7-5: 270 split.
    assert_eq!(t.awards(), vec![(seat(2), Half::High, 135), (seat(1), Half::Low, 135)]);
    // LAST HAND shows everyone's declaration (they were revealed), to observers too.
    let last = t.hand.last_hand_events(&t.events, Viewer::Observer);
    assert!(last.contains(&Event::Declared { seat: seat(1), declaration: Some(Low) }));
    assert!(last.contains(&Event::Declared { seat: seat(2), declaration: Some(High) }));
}

#[test]
fn a_high_and_a_low_declaration_each_win_their_half() {
    // RULES.md 12.4.2.
    let t = declared(Low, High);
    assert_eq!(t.awards(), vec![(seat(2), Half::High, 90), (seat(1), Half::Low, 90)]);
}

#[test]
fn both_ways_must_win_both_ways_or_is_out_of_the_pot() {
    // RULES.md 12.4.1: seat 1 declares both, wins the low but loses the high: it is out, and
    // seat 2, the only one left, takes the pot (12.4.3).
    let t = declared(Both, High);
    assert_eq!(t.awards(), vec![(seat(2), Half::Whole, 180)]);
}

#[test]
fn both_ways_that_wins_both_scoops() {
    // Seat 1 makes the wheel (a straight and the best low); seat 2 two pair.
    let mut t = start(cfg(D), &[(1, 5000), (2, 5000)], &["Ac 2d 3h", "Jc Jd 9h"], "4s Ts 5c 9c Kh 8h Qd 2h");
    t.act(1, Action::BringIn);
    t.act(2, Action::Call);
    t.check_to_showdown();
    t.act(1, declare(Both));
    t.act(2, declare(High));
    assert_eq!(t.awards(), vec![(seat(1), Half::High, 90), (seat(1), Half::Low, 90)]);
}

#[test]
fn a_half_nobody_declared_for_goes_to_the_other() {
    // RULES.md 12.4.3: both declare high: the best high takes the whole pot, although seat 1
    // holds the only qualifying low.
    let t = declared(High, High);
    assert_eq!(t.awards(), vec![(seat(2), Half::Whole, 180)]);
}

#[test]
fn a_low_without_a_qualifying_hand_wins_nothing() {
    // RULES.md 12.4.2: both declare low; seat 2 has no 8-or-better low.
    let t = declared(Low, Low);
    assert_eq!(t.awards(), vec![(seat(1), Half::Whole, 180)]);
}

#[test]
fn when_every_contender_declared_both_and_failed_cards_speak() {
    // RULES.md 12.4.3: seat 1 loses the high, seat 2 has no low: both are out, and the pot is
    // split as in stud8.
    let t = declared(Both, Both);
    assert_eq!(t.awards(), vec![(seat(2), Half::High, 90), (seat(1), Half::Low, 90)]);
}

#[test]
fn an_uncontested_hand_has_no_declaration() {
    // RULES.md 12.5.
    let mut t = start(cfg(D), &[(1, 5000), (2, 5000)], &["Ac 2d 3h", "Jc Jd 9h"], "");
    t.act(1, Action::BringIn);
    t.act(2, Action::Complete { to: 200 });
    t.act(1, Action::Fold);
    assert!(t.hand.is_over());
    assert!(!t.events.iter().any(|e| matches!(e, Event::DeclarationStarted { .. } | Event::Declared { .. })));
    assert_eq!(t.awards(), vec![(seat(2), Half::Whole, 180)]);
}

#[test]
fn declarations_replay_and_round_trip_through_phh() {
    // Histories carry the declarations (docs/PHH.md `pN dcl`): the record replays exactly.
    let t = declared(Low, High);
    let record = t.hand.record();
    let (replayed, events) = record.replay().unwrap();
    assert_eq!(replayed.record(), record);
    assert_eq!(events, t.events);
    let text = crate::phh::write_hand(&record, &crate::phh::PhhContext::default()).unwrap();
    assert!(text.contains("\"p1 dcl low\"") && text.contains("\"p2 dcl high\""), "{text}");
    assert!(text.contains("variant = \"F7S/8D\""));
    let back = crate::phh::read(&text).unwrap().into_iter().next().unwrap().1.unwrap();
    assert_eq!(back.record, record);
}
