//! PHH known answers: a hand that PokerKit replays (from PHH.md) replays here to the same
//! stacks, and broken histories are refused with the offending action.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a failed unwrap is a failed test

use stud_engine::phh;

const WORKED: &str = include_str!("data/phh_md_worked_hand.phh");

#[test]
fn the_worked_hand_of_phh_md_replays_to_pokerkits_stacks() {
    let hands = phh::read(WORKED).unwrap();
    assert_eq!(hands.len(), 1);
    let hand = hands.into_iter().next().unwrap().1.unwrap();
    assert_eq!(hand.finishing_stacks, vec![81, 99, 59, 91]);
    // p4's straight wins the main pot, p1's aces up the side pot.
    let result = hand.record.result.clone().unwrap();
    let won: Vec<(u8, u64)> = result.awards.iter().map(|a| (a.seat.number(), a.amount)).collect();
    assert_eq!(won, vec![(4, 91), (1, 22)]);
    // Written back out, it reads again to the same record.
    let text = phh::write_hand(&hand.record, &phh::PhhContext::default()).unwrap();
    let again = phh::read(&text).unwrap().into_iter().next().unwrap().1.unwrap();
    assert_eq!(again.record, hand.record);
}

#[test]
fn a_wrong_finishing_stack_is_reported() {
    let tampered = WORKED.replace("finishing_stacks = [81, 99, 59, 91]", "finishing_stacks = [81, 99, 60, 90]");
    let err = phh::read(&tampered).unwrap().into_iter().next().unwrap().1.unwrap_err();
    assert!(matches!(err, phh::PhhError::FinishingStacks { .. }), "{err}");
}

#[test]
fn an_illegal_action_is_reported_with_its_index() {
    // p2 may not check facing the completion.
    let tampered = WORKED.replace("\"p2 f\"", "\"p2 cbr 7\"");
    let err = phh::read(&tampered).unwrap().into_iter().next().unwrap().1.unwrap_err();
    assert_eq!(err.action_index(), Some(6), "{err}");
    // A card dealt twice.
    let tampered = WORKED.replace("\"d dh p3 Kc\"", "\"d dh p3 Ad\"");
    assert!(phh::read(&tampered).unwrap().into_iter().next().unwrap().1.is_err());
    // Not TOML at all.
    assert!(matches!(phh::read("variant = "), Err(phh::PhhError::Toml(_))));
}

#[test]
fn several_hands_in_one_phhs_in_numeric_order() {
    let doc = format!("[2]\n{WORKED}\n[10]\n{WORKED}\n[1]\n{WORKED}");
    let names: Vec<String> = phh::read(&doc)
        .unwrap()
        .into_iter()
        .map(|(n, r)| {
            assert!(r.is_ok());
            n.unwrap()
        })
        .collect();
    assert_eq!(names, vec!["1", "2", "10"]);
}

#[test]
fn a_seeded_history_with_a_changed_card_is_refused() {
    use stud_engine::bot::Bot;
    use stud_engine::{Hand, Seat, Seed, TableConfig, Variant};
    let seats: Vec<(Seat, u64)> = (1..=4).filter_map(Seat::new).map(|s| (s, 5_000)).collect();
    let (mut hand, _) = Hand::start(TableConfig::new(Variant::Stud, 40, 50, 200, 400), &seats, Seed([9; 32])).unwrap();
    let mut bot = Bot::new(1);
    while let Some(s) = hand.to_act() {
        let a = bot.choose(&hand.legal_actions(s));
        hand.apply(s, a).unwrap();
    }
    let text = phh::write_hand(&hand.record(), &phh::PhhContext::default()).unwrap();
    assert!(phh::read(&text).unwrap()[0].1.is_ok());
    // Swap the first two cards of p1's 3rd street: the seed no longer produces that deal.
    let line = text.lines().find(|l| l.contains("d dh p1 ")).unwrap().to_owned();
    let cards = line.trim().trim_start_matches("\"d dh p1 ").trim_end_matches("\",").to_owned();
    let swapped = format!("{}{}{}", &cards[2..4], &cards[0..2], &cards[4..]);
    let tampered = text.replace(&line, &line.replace(&cards, &swapped));
    assert_ne!(tampered, text);
    let err = phh::read(&tampered).unwrap()[0].1.clone().unwrap_err();
    assert!(err.action_index() == Some(0), "{err}");
}
