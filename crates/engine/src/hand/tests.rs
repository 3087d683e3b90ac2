//! Scenario tests: one per rule of RULES.md, each with a chosen deal, run over every variant
//! where the rule applies.

mod big_bet;
mod chicago;
mod declare;
mod london;
mod mississippi;

use super::*;
use crate::card::parse_cards;
use crate::event::Viewer;

/// The games whose rules are those of sections 3 to 5 street for street: the three of the
/// seeds and london, which is razz under its own name (RULES.md 11.1). The other games have
/// their own modules (chicago, declare, mississippi).
const ALL: [Variant; 4] = [Variant::Stud, Variant::Stud8, Variant::Razz, Variant::London];
const HIGH: [Variant; 2] = [Variant::Stud, Variant::Stud8];
/// Played for the low only, ace to five (razz and london).
const LOWS: [Variant; 2] = [Variant::Razz, Variant::London];

fn seat(n: u8) -> Seat {
    Seat::new(n).unwrap()
}

fn cards(s: &str) -> Vec<Card> {
    parse_cards(&s.replace(' ', "")).unwrap()
}

/// A table under test: the hand, every event so far, and the chips it started with.
struct T {
    hand: Hand,
    events: Vec<Event>,
    chips: Chips,
}

/// $2/$4 in cents, as in the seeds: ante 40, bring-in 50, small bet 200, big bet 400.
fn cfg(variant: Variant) -> TableConfig {
    TableConfig::new(variant, 40, 50, 200, 400)
}

/// Deals `third[i]` ("down down up") to the i-th seat listed, round by round as the engine
/// deals, then `later` in order (one card per live player per street, seat order).
fn start(config: TableConfig, seats: &[(u8, Chips)], third: &[&str], later: &str) -> T {
    let per: Vec<Vec<Card>> = third.iter().map(|s| cards(s)).collect();
    let mut order: Vec<Card> = (0..3).flat_map(|r| per.iter().map(move |v| v[r])).collect();
    order.extend(cards(later));
    let seats: Vec<(Seat, Chips)> = seats.iter().map(|&(s, c)| (seat(s), c)).collect();
    let chips = seats.iter().map(|s| s.1).sum();
    let (hand, events) = Hand::start_with_deck(config, &seats, &order).unwrap();
    T { hand, events, chips }
}

impl T {
    fn act(&mut self, s: u8, action: Action) -> Vec<Event> {
        let ev = self.hand.apply(seat(s), action).unwrap_or_else(|e| panic!("seat {s} {action:?}: {e}"));
        self.events.extend(ev.clone());
        self.check_conservation();
        ev
    }
    fn refuse(&mut self, s: u8, action: Action) -> ActionError {
        let before = self.hand.internals();
        let err = self.hand.apply(seat(s), action).unwrap_err();
        assert_eq!(before, self.hand.internals(), "a refused action changed the hand");
        err
    }
    fn legal(&self, s: u8) -> Vec<Action> {
        self.hand.legal_actions(seat(s)).to_vec()
    }
    fn to_act(&self) -> Option<u8> {
        self.hand.to_act().map(Seat::number)
    }
    fn stack(&self, s: u8) -> Chips {
        self.hand.stacks().iter().find(|x| x.seat == seat(s)).unwrap().chips
    }
    fn check_conservation(&self) {
        let stacks: Chips = self.hand.stacks().iter().map(|s| s.chips).sum();
        assert_eq!(stacks + self.hand.pot_total(), self.chips, "chips not conserved");
    }
    fn awards(&self) -> Vec<(Seat, Half, Chips)> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Award { seat, half, amount, .. } => Some((*seat, *half, *amount)),
                _ => None,
            })
            .collect()
    }
    /// The hands shown so far, in order: (seat, shown automatically).
    fn shown(&self) -> Vec<(u8, bool)> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Shown { seat, automatic, .. } => Some((seat.number(), *automatic)),
                _ => None,
            })
            .collect()
    }
    /// Every player to act on `street` does `action` until the street is over.
    fn finish_street(&mut self, street: Street, action: Action) {
        while self.hand.street() == street && self.hand.phase() == Phase::Betting {
            let s = self.to_act().unwrap();
            self.act(s, action);
        }
    }
    /// Checks every remaining street (nobody bets) up to the showdown.
    fn check_to_showdown(&mut self) {
        while self.hand.phase() == Phase::Betting {
            let s = self.to_act().unwrap();
            self.act(s, Action::Check);
        }
    }
    /// Plays checks (or calls) until the hand is over or someone must choose at showdown.
    fn check_down(&mut self) {
        while let Some(s) = self.to_act() {
            let legal = self.legal(s);
            let a = [Action::Check, Action::Call, Action::BringIn, Action::Show]
                .into_iter()
                .find(|a| legal.contains(a))
                .unwrap();
            self.act(s, a);
        }
    }
}

/// Plays `hand` to its end with the passive action for everyone (check, call, bring in, muck),
/// collecting the events.
fn play_passively(hand: &mut Hand, events: &mut Vec<Event>) {
    while let Some(s) = hand.to_act() {
        let legal = hand.legal_actions(s);
        let a = [Action::Check, Action::Call, Action::BringIn, Action::Muck]
            .into_iter()
            .find(|a| legal.contains(a))
            .unwrap();
        events.extend(hand.apply(s, a).unwrap());
    }
}

// ---- RULES.md 3: the deal ----------------------------------------------------------------

#[test]
fn antes_then_two_down_and_the_door_card_from_seat_one() {
    for v in ALL {
        let t = start(cfg(v), &[(2, 1000), (5, 1000), (7, 1000)], &["2c 3c Kd", "4c 5c Qd", "6c 7c Jd"], "");
        let antes: Vec<_> = t.events.iter().filter(|e| matches!(e, Event::Ante { amount: 40, .. })).collect();
        assert_eq!(antes.len(), 3);
        let dealt: Vec<(u8, bool)> = t
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Dealt { seat, up, .. } => Some((seat.number(), *up)),
                _ => None,
            })
            .collect();
        assert_eq!(
            dealt,
            vec![
                (2, false),
                (5, false),
                (7, false),
                (2, false),
                (5, false),
                (7, false),
                (2, true),
                (5, true),
                (7, true)
            ]
        );
        assert_eq!(t.hand.pot_total(), 120);
    }
}

#[test]
fn folded_players_get_no_more_cards_and_all_in_players_do() {
    for v in ALL {
        // Seat 3 is all-in from the ante; seat 2 folds on 3rd street.
        let mut t = start(cfg(v), &[(1, 1000), (2, 1000), (3, 40)], &["Ac Ad 9s", "Kc Kd 9h", "Qc Qd 9d"], "");
        let bring_in = t.to_act().unwrap();
        t.act(bring_in, Action::BringIn);
        let other = if bring_in == 1 { 2 } else { 1 };
        t.act(other, Action::Fold);
        let fourth: Vec<u8> = t
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Dealt { seat, street: Street::Fourth, .. } => Some(seat.number()),
                _ => None,
            })
            .collect();
        let mut expected = vec![bring_in, 3];
        expected.sort_unstable();
        assert_eq!(fourth, expected, "{v}");
    }
}

#[test]
fn community_card_when_the_deck_runs_short_with_eight_players() {
    for v in ALL {
        let seats: Vec<(u8, Chips)> = (1..=8).map(|s| (s, 5000)).collect();
        let (mut hand, _) =
            Hand::start(cfg(v), &seats.iter().map(|&(s, c)| (seat(s), c)).collect::<Vec<_>>(), Seed([3; 32])).unwrap();
        let mut events = Vec::new();
        while let Some(s) = hand.to_act() {
            let legal = hand.legal_actions(s);
            let a = [Action::Check, Action::Call, Action::BringIn, Action::Muck]
                .into_iter()
                .find(|a| legal.contains(a))
                .unwrap();
            if hand.street() == Street::Seventh && hand.phase() == Phase::Betting && hand.community().is_none() {
                panic!("8 players on 7th street must share a community card");
            }
            // RULES.md 8: 8 x 6 = 48 cards reach 6th street without exhausting the deck.
            if hand.street() == Street::Sixth {
                assert_eq!(hand.deck.remaining(), 4);
            }
            events.extend(hand.apply(s, a).unwrap());
        }
        let community: Vec<_> = events.iter().filter(|e| matches!(e, Event::Community { .. })).collect();
        assert_eq!(community.len(), 1, "{v}");
        assert!(!events.iter().any(|e| matches!(e, Event::Dealt { street: Street::Seventh, .. })));
        // Every showing player shows six own cards; the community card is the seventh.
        for e in &events {
            if let Event::Shown { cards, .. } = e {
                assert_eq!(cards.len(), 6);
            }
        }
    }
}

#[test]
fn no_community_card_when_enough_cards_remain() {
    for v in ALL {
        let seats: Vec<(Seat, Chips)> = (1..=8).map(|s| (seat(s), 5000)).collect();
        let (mut hand, _) = Hand::start(cfg(v), &seats, Seed([4; 32])).unwrap();
        let mut events = Vec::new();
        let mut folded = false;
        while let Some(s) = hand.to_act() {
            let legal = hand.legal_actions(s);
            // One player folds on 3rd street: 24 + 7 * 4 = 52 cards suffice for 7th.
            let a = if !folded && legal.contains(&Action::Fold) {
                folded = true;
                Action::Fold
            } else {
                [Action::Check, Action::Call, Action::BringIn, Action::Muck]
                    .into_iter()
                    .find(|a| legal.contains(a))
                    .unwrap()
            };
            events.extend(hand.apply(s, a).unwrap());
        }
        assert!(folded);
        assert!(!events.iter().any(|e| matches!(e, Event::Community { .. })), "{v}");
        assert_eq!(events.iter().filter(|e| matches!(e, Event::Dealt { street: Street::Seventh, .. })).count(), 7);
    }
}

// ---- RULES.md 4: 3rd street -----------------------------------------------------------------

#[test]
fn seed_example_two_of_diamonds_brings_in() {
    // Seed 000: door cards 2♠ 2♥ 2♦ — the 2♦ brings in.
    for v in HIGH {
        let t = start(cfg(v), &[(1, 1000), (2, 1000), (3, 1000)], &["Ac Kc 2s", "Ad Kd 2h", "Ah Kh 2d"], "");
        assert_eq!(t.to_act(), Some(3), "{v}");
    }
}

#[test]
fn lowest_door_card_brings_in_with_aces_high() {
    for v in HIGH {
        let t = start(cfg(v), &[(1, 1000), (2, 1000), (3, 1000)], &["2c 3c Ac", "4c 5c 3d", "6c 7c Kh"], "");
        assert_eq!(t.to_act(), Some(2), "{v}");
    }
}

#[test]
fn razz_highest_door_card_brings_in_king_high_ace_low_spades_first() {
    for v in LOWS {
        let t = start(cfg(v), &[(1, 1000), (2, 1000), (3, 1000)], &["2c 3c Kd", "4c 5c Ks", "6c 7c Qh"], "");
        assert_eq!(t.to_act(), Some(2));
        // The ace is the lowest card in razz: a king beats it to the bring-in.
        let t = start(cfg(v), &[(1, 1000), (2, 1000)], &["2c 3c As", "4c 5c Kc"], "");
        assert_eq!(t.to_act(), Some(2));
    }
}

#[test]
fn bring_in_player_may_only_bring_in_or_complete() {
    for v in ALL {
        let mut t = start(cfg(v), &[(1, 1000), (2, 1000)], &["Ac Ad 5s", "Kc Kd 5h"], "");
        let b = t.to_act().unwrap();
        assert_eq!(t.legal(b), vec![Action::BringIn, Action::Complete { to: 200 }]);
        assert!(matches!(t.refuse(b, Action::Fold), ActionError::Illegal { .. }));
        assert!(matches!(t.refuse(b, Action::Check), ActionError::Illegal { .. }));
        t.act(b, Action::BringIn);
        let o = t.to_act().unwrap();
        assert_eq!(t.legal(o), vec![Action::Fold, Action::Call, Action::Complete { to: 200 }]);
    }
}

#[test]
fn seed_example_bring_in_and_completion_are_one_bet_and_the_cap_is_three_raises() {
    // Seed 000: bring-in 0.50, completed to 2, raised twice (6): one more raise (8) caps.
    for v in ALL {
        let seats: Vec<(u8, Chips)> = (1..=5).map(|s| (s, 10_000)).collect();
        let mut t = start(cfg(v), &seats, &["Ac Ad 9s", "Kc Kd 9h", "Qc Qd 8c", "Jc Jd Th", "Tc Td Js"], "");
        let order: Vec<u8> = {
            let b = t.to_act().unwrap();
            (0..5).map(|k| (b - 1 + k) % 5 + 1).collect()
        };
        t.act(order[0], Action::BringIn);
        t.act(order[1], Action::Complete { to: 200 });
        t.act(order[2], Action::Raise { to: 400 });
        t.act(order[3], Action::Raise { to: 600 });
        assert!(t.legal(order[4]).contains(&Action::Raise { to: 800 }));
        t.act(order[4], Action::Raise { to: 800 });
        // Capped: the bring-in may only fold or call.
        assert_eq!(t.legal(order[0]), vec![Action::Fold, Action::Call], "{v}");
        assert!(matches!(t.refuse(order[0], Action::Raise { to: 1000 }), ActionError::Illegal { .. }));
    }
}

#[test]
fn everyone_folds_to_the_bring_in() {
    for v in ALL {
        let mut t = start(cfg(v), &[(1, 1000), (2, 1000), (3, 1000)], &["Ac Ad 9s", "Kc Kd 9h", "Qc Qd 9d"], "");
        let b = t.to_act().unwrap();
        t.act(b, Action::BringIn);
        while let Some(s) = t.to_act() {
            t.act(s, Action::Fold);
        }
        assert!(t.hand.is_over());
        // The bring-in wins the antes and gets its own bring-in back: +80 net.
        assert_eq!(t.stack(b), 1000 + 80, "{v}");
        assert!(!t.events.iter().any(|e| matches!(e, Event::Dealt { street: Street::Fourth, .. })));
        assert!(!t.events.iter().any(|e| matches!(e, Event::Shown { .. })));
    }
}

#[test]
fn all_in_from_the_ante_passes_the_bring_in_clockwise() {
    for v in ALL {
        // Seat 2 holds the bring-in card but has only the ante: seat 3 brings in.
        let door =
            if v.is_razz_like() { ["Ac Ad 2s", "Kc Kd Kh", "Qc Qd 8c"] } else { ["Ac Ad Ks", "Kc Kd 2h", "Qc Qd 8c"] };
        let t = start(cfg(v), &[(1, 1000), (2, 40), (3, 1000)], &door, "");
        assert_eq!(t.to_act(), Some(3), "{v}");
    }
}

#[test]
fn short_bring_in_posts_all_in_and_action_continues() {
    for v in ALL {
        let door = if v.is_razz_like() { ["Ac Ad 2s", "Kc Kd Kh"] } else { ["Ac Ad Ks", "Kc Kd 2h"] };
        let mut t = start(cfg(v), &[(1, 1000), (2, 70)], &door, "");
        assert_eq!(t.to_act(), Some(2));
        assert_eq!(t.legal(2), vec![Action::BringIn]);
        let ev = t.act(2, Action::BringIn);
        assert!(ev.contains(&Event::BringIn { seat: seat(2), amount: 30, all_in: true }));
        assert_eq!(t.to_act(), Some(1));
        t.act(1, Action::Call);
        // Nobody else can bet: the cards are dealt out to a showdown.
        t.check_down();
        assert!(t.hand.is_over());
        assert_eq!(t.stack(1) + t.stack(2), 1070);
    }
}

#[test]
fn bring_in_equal_to_the_small_bet_is_the_first_bet_of_the_street() {
    // RULES.md 4.2 (a choice the seeds leave open): nothing to complete, the next players
    // raise it, and it is the bet of "one bet and three raises".
    for v in ALL {
        let config = TableConfig::new(v, 40, 200, 200, 400);
        let deal = ["Ac Ad 9s", "Kc Kd 9h", "Qc Qd 2c"];
        let mut t = start(config, &[(1, 10_000), (2, 10_000), (3, 10_000)], &deal, "");
        let b = t.to_act().unwrap();
        let order: Vec<u8> = (0..3).map(|k| (b - 1 + k) % 3 + 1).collect();
        assert_eq!(t.legal(b), vec![Action::BringIn], "{v}");
        t.act(b, Action::BringIn);
        assert_eq!(t.legal(order[1]), vec![Action::Fold, Action::Call, Action::Raise { to: 400 }], "{v}");
        t.act(order[1], Action::Raise { to: 400 });
        t.act(order[2], Action::Raise { to: 600 });
        // The bring-in was a bet: its player may raise again, and that raise caps the street.
        assert_eq!(t.legal(b), vec![Action::Fold, Action::Call, Action::Raise { to: 800 }], "{v}");
        t.act(b, Action::Raise { to: 800 });
        assert_eq!(t.legal(order[1]), vec![Action::Fold, Action::Call], "{v}");
        // Calls all round end the street without the bring-in acting again.
        let mut t = start(config, &[(1, 10_000), (2, 10_000), (3, 10_000)], &deal, "");
        t.act(b, Action::BringIn);
        t.act(order[1], Action::Call);
        t.act(order[2], Action::Call);
        assert_eq!(t.hand.street(), Street::Fourth, "{v}");
        assert_eq!(t.hand.pot_total(), 3 * 40 + 3 * 200);
    }
}

#[test]
fn short_bring_in_is_an_all_in_bet_for_less_others_call_it_or_complete() {
    // RULES.md 4.2 (a choice the seeds leave open): seat 2 has 30 after its ante and the
    // bring-in is 50. It posts 30 all-in; the next players owe 30, not 50 (the bring-in is a
    // bet, not a blind: Robert's Rules' short all-in bet), and may complete to the small bet.
    for v in ALL {
        let door =
            if v.is_razz_like() { ["Ac Ad 2s", "Kc Kd Kh", "Qc Qd 8c"] } else { ["Ac Ad Ks", "Kc Kd 2h", "Qc Qd 8c"] };
        let mut t = start(cfg(v), &[(1, 1000), (2, 70), (3, 1000)], &door, "");
        assert_eq!(t.to_act(), Some(2), "{v}");
        assert_eq!(t.legal(2), vec![Action::BringIn]);
        let ev = t.act(2, Action::BringIn);
        assert!(ev.contains(&Event::BringIn { seat: seat(2), amount: 30, all_in: true }));
        assert_eq!(t.legal(3), vec![Action::Fold, Action::Call, Action::Complete { to: 200 }], "{v}");
        let ev = t.act(3, Action::Call);
        assert!(ev.contains(&Event::Call { seat: seat(3), amount: 30, all_in: false }), "{v}");
        t.act(1, Action::Complete { to: 200 });
        // The completion is the street's first full bet: seat 3 may raise it.
        assert_eq!(t.legal(3), vec![Action::Fold, Action::Call, Action::Raise { to: 400 }], "{v}");
        t.act(3, Action::Call);
        assert_eq!(t.hand.street(), Street::Fourth, "{v}");
        // Main pot: three antes and three times 30; the side pot is seats 1 and 3's 170 each.
        let pots = t.hand.pots();
        assert_eq!(pots.len(), 2, "{v}");
        assert_eq!((pots[0].amount, pots[0].eligible.len()), (3 * 40 + 3 * 30, 3));
        assert_eq!((pots[1].amount, pots[1].eligible.clone()), (2 * 170, vec![seat(1), seat(3)]));
    }
}

#[test]
fn ante_larger_than_a_stack_is_all_in_and_wins_only_what_it_matched() {
    for v in ALL {
        // Seat 1 (best hand in every variant: a wheel-ish low and trips high? use chosen cards)
        let third = match v {
            Variant::Razz | Variant::London => ["Ac 2c 3c", "Kc Kd Kh", "Qc Qd Qh"],
            _ => ["Ac As Ad", "2c 7d 9h", "3c 8d Th"],
        };
        let later = match v {
            Variant::Razz | Variant::London => "4c Jc Js 5c Tc Ts 6d 9c 9s 7h 8c 8s",
            _ => "Ah 4s 5h 2d Jc 6h 2s Qc 7h 3d Ks 4d",
        };
        let mut t = start(cfg(v), &[(1, 25), (2, 1000), (3, 1000)], &third, later);
        assert!(t.events.contains(&Event::Ante { seat: seat(1), amount: 25, all_in: true }));
        t.check_down();
        assert!(t.hand.is_over(), "{v}");
        // Seat 1 wins 25 from each player (75); the rest of the antes go to the side pot.
        // In stud8 seat 3 makes the only low, so seat 1 takes the high half (odd chip: 38).
        let expected = if v == Variant::Stud8 { 38 } else { 75 };
        assert_eq!(t.stack(1), expected, "{v}: {:?}", t.awards());
        assert_eq!(t.stack(1) + t.stack(2) + t.stack(3), 2025);
    }
}

// ---- RULES.md 4: later streets -----------------------------------------------------------------

#[test]
fn best_board_acts_first_and_ties_go_to_the_lowest_seat() {
    for v in HIGH {
        // 4th street boards: seat 1 9s-2c, seat 2 Ks-3d, seat 3 Kh-3h (tie with seat 2).
        let mut t =
            start(cfg(v), &[(1, 1000), (2, 1000), (3, 1000)], &["Ac Ad 9s", "Qc Qd Ks", "Jc Jd Kh"], "2c 3d 3h");
        let b = t.to_act().unwrap();
        assert_eq!(b, 1);
        t.act(1, Action::BringIn);
        t.act(2, Action::Call);
        t.act(3, Action::Call);
        assert_eq!(t.hand.street(), Street::Fourth);
        assert_eq!(t.to_act(), Some(2), "{v}");
    }
}

#[test]
fn razz_lowest_board_acts_first() {
    for v in LOWS {
        let mut t =
            start(cfg(v), &[(1, 1000), (2, 1000), (3, 1000)], &["Kc Kd 3s", "Qc Qd Ks", "Jc Jd As"], "5c 9d 2h");
        assert_eq!(t.to_act(), Some(2)); // king brings in
        t.act(2, Action::BringIn);
        t.act(3, Action::Call);
        t.act(1, Action::Call);
        // Boards: 3-5, K-9, A-2: the A-2 is lowest.
        assert_eq!(t.to_act(), Some(3), "{v}");
    }
}

#[test]
fn boards_ignore_straights_and_flushes() {
    // Seat 1 shows 5h 6h (a straight flush draw): seat 2's A-2 offsuit is the better board.
    let mut t = start(cfg(Variant::Stud), &[(1, 1000), (2, 1000)], &["Kc Kd 5h", "Qc Qd Ac"], "6h 2d");
    t.act(1, Action::BringIn);
    t.act(2, Action::Call);
    assert_eq!(t.to_act(), Some(2));
}

#[test]
fn first_player_checks_or_bets_and_fold_needs_a_bet() {
    for v in ALL {
        let mut t = start(cfg(v), &[(1, 1000), (2, 1000)], &["Kc Kd 5h", "Qc Qd 9c"], "6d 7s");
        let b = t.to_act().unwrap();
        t.act(b, Action::BringIn);
        let o = t.to_act().unwrap();
        t.act(o, Action::Call);
        let f = t.to_act().unwrap();
        assert_eq!(t.legal(f), vec![Action::Check, Action::Bet { to: 200 }], "{v}");
        assert!(matches!(t.refuse(f, Action::Fold), ActionError::Illegal { .. }));
    }
}

#[test]
fn check_raise_is_allowed() {
    for v in ALL {
        let mut t = start(cfg(v), &[(1, 1000), (2, 1000)], &["Kc Kd 5h", "Qc Qd 9c"], "6d 7s");
        let b = t.to_act().unwrap();
        t.act(b, Action::BringIn);
        t.act(3 - b, Action::Call);
        let first = t.to_act().unwrap();
        let second = 3 - first;
        t.act(first, Action::Check);
        t.act(second, Action::Bet { to: 200 });
        assert_eq!(t.legal(first), vec![Action::Fold, Action::Call, Action::Raise { to: 400 }], "{v}");
        t.act(first, Action::Raise { to: 400 });
        t.act(second, Action::Call);
        assert_eq!(t.hand.street(), Street::Fifth);
    }
}

#[test]
fn everyone_checks_and_the_street_ends() {
    for v in ALL {
        let mut t = start(cfg(v), &[(1, 1000), (2, 1000)], &["Kc Kd 5h", "Qc Qd 9c"], "6d 7s 8d 2s");
        let b = t.to_act().unwrap();
        t.act(b, Action::BringIn);
        t.act(3 - b, Action::Call);
        let f = t.to_act().unwrap();
        t.act(f, Action::Check);
        t.act(3 - f, Action::Check);
        assert_eq!(t.hand.street(), Street::Fifth, "{v}");
    }
}

#[test]
fn big_bets_from_fifth_street() {
    for v in ALL {
        let mut t = start(cfg(v), &[(1, 5000), (2, 5000)], &["Kc Kd 5h", "Qc Qd 9c"], "6d 7s 8d 2s");
        let b = t.to_act().unwrap();
        t.act(b, Action::BringIn);
        t.act(3 - b, Action::Call);
        let f = t.to_act().unwrap();
        t.act(f, Action::Check);
        t.act(3 - f, Action::Check);
        let f = t.to_act().unwrap();
        assert_eq!(t.legal(f), vec![Action::Check, Action::Bet { to: 400 }], "{v}");
        t.act(f, Action::Bet { to: 400 });
        assert_eq!(t.legal(3 - f), vec![Action::Fold, Action::Call, Action::Raise { to: 800 }]);
    }
}

#[test]
fn seed_example_open_pair_on_fourth_street() {
    // Seed 000: with an open pair a player may bet $2 or $4; after $2, others may call, raise $2
    // or raise $4; once $4 is bet or raised, raises are $4: you cannot re-raise $2.
    for v in HIGH {
        let mut t =
            start(cfg(v), &[(1, 9000), (2, 9000), (3, 9000)], &["Ac Ad 9s", "Kc Kd 9h", "Qc Qd 2c"], "9d 3h 4h");
        t.act(3, Action::BringIn);
        t.act(1, Action::Call);
        t.act(2, Action::Call);
        // Seat 1 shows 9s 9d: the open pair acts first.
        assert_eq!(t.to_act(), Some(1));
        assert_eq!(t.legal(1), vec![Action::Check, Action::Bet { to: 200 }, Action::Bet { to: 400 }], "{v}");
        t.act(1, Action::Bet { to: 200 });
        assert_eq!(t.legal(2), vec![Action::Fold, Action::Call, Action::Raise { to: 400 }, Action::Raise { to: 600 }]);
        t.act(2, Action::Raise { to: 600 });
        // After the $4 raise only $4 raises: to 1000, never 800.
        assert_eq!(t.legal(3), vec![Action::Fold, Action::Call, Action::Raise { to: 1000 }]);
        assert!(matches!(t.refuse(3, Action::Raise { to: 800 }), ActionError::Illegal { .. }));
    }
}

#[test]
fn open_pair_all_in_between_the_small_and_the_big_bet_is_a_full_small_bet() {
    // RULES.md 4.9 (a choice the seeds leave open): an all-in that passes the small bet but
    // not the big one reaches a bet size, so it is a full bet, of the small size: it does not
    // make the big bet. The next raise is a full increment of either size on top of it.
    for v in HIGH {
        for big_raise in [false, true] {
            let deal = ["Ac Ad 9s", "Kc Kd 9h", "Qc Qd 2c"];
            // Seat 1 keeps 300 for 4th street: 40 ante + 50 bring-in call + 300.
            let mut t = start(cfg(v), &[(1, 390), (2, 9000), (3, 9000)], &deal, "9d 3h 4h");
            t.act(3, Action::BringIn);
            t.act(1, Action::Call);
            t.act(2, Action::Call);
            assert_eq!(t.hand.street(), Street::Fourth);
            assert_eq!(t.to_act(), Some(1), "{v}: the open pair of nines acts first");
            assert_eq!(t.legal(1), vec![Action::Check, Action::Bet { to: 200 }, Action::Bet { to: 300 }], "{v}");
            t.act(1, Action::Bet { to: 300 });
            assert_eq!(
                t.legal(2),
                vec![Action::Fold, Action::Call, Action::Raise { to: 500 }, Action::Raise { to: 700 }],
                "{v}"
            );
            if big_raise {
                // A big raise on top makes the big bet: from then on only big raises.
                t.act(2, Action::Raise { to: 700 });
                assert_eq!(t.legal(3), vec![Action::Fold, Action::Call, Action::Raise { to: 1100 }], "{v}");
            } else {
                t.act(2, Action::Raise { to: 500 });
                assert_eq!(
                    t.legal(3),
                    vec![Action::Fold, Action::Call, Action::Raise { to: 700 }, Action::Raise { to: 900 }],
                    "{v}"
                );
            }
            // The all-in bet counted towards the cap: bet, raise, and two more raises.
            let (a, b) = if big_raise { (1100, 1500) } else { (700, 900) };
            t.act(3, Action::Raise { to: a });
            t.act(2, Action::Raise { to: b });
            assert_eq!(t.legal(3), vec![Action::Fold, Action::Call], "{v}");
        }
    }
}

#[test]
fn open_pair_option_is_a_table_setting_and_never_razz() {
    let deal = (["Ac Ad 9s", "Kc Kd 9h", "Qc Qd Kh"], "9d 3h 4h");
    let mut off = cfg(Variant::Stud);
    off.open_pair_big_bet = false;
    let mut t = start(off, &[(1, 9000), (2, 9000), (3, 9000)], &deal.0, deal.1);
    t.act(2, Action::BringIn);
    t.act(3, Action::Call);
    t.act(1, Action::Call);
    assert_eq!(t.legal(1), vec![Action::Check, Action::Bet { to: 200 }]);
    // Razz and london: the paired board is the worst; whoever acts has only the small bet.
    for v in LOWS {
        let mut t = start(cfg(v), &[(1, 9000), (2, 9000), (3, 9000)], &deal.0, deal.1);
        let b = t.to_act().unwrap();
        t.act(b, Action::BringIn);
        t.finish_street(Street::Third, Action::Call);
        let f = t.to_act().unwrap();
        assert_eq!(t.legal(f), vec![Action::Check, Action::Bet { to: 200 }], "{v}");
    }
}

#[test]
fn heads_up_cap_applies_unless_uncapped() {
    for v in ALL {
        for uncapped in [false, true] {
            let mut config = cfg(v);
            config.uncapped_heads_up = uncapped;
            let mut t = start(config, &[(1, 100_000), (2, 100_000)], &["Kc Kd 5h", "Qc Qd 9c"], "");
            let b = t.to_act().unwrap();
            let o = 3 - b;
            t.act(b, Action::BringIn);
            t.act(o, Action::Complete { to: 200 });
            t.act(b, Action::Raise { to: 400 });
            t.act(o, Action::Raise { to: 600 });
            t.act(b, Action::Raise { to: 800 });
            let can_raise = t.legal(o).contains(&Action::Raise { to: 1000 });
            assert_eq!(can_raise, uncapped, "{v} uncapped={uncapped}");
        }
    }
}

/// Three players; seat 1 holds the bring-in card in every variant, seat 3 has `short` chips.
fn three_with_seat_one_bringing_in(v: Variant, uncapped: bool, short: Chips) -> T {
    let mut config = cfg(v);
    config.uncapped_heads_up = uncapped;
    let third = match v {
        Variant::Razz | Variant::London => ["Ac Ad Ks", "2c 3c 2d", "4c 5c 3d"],
        _ => ["Ac Ad 2c", "Kc Kh Kd", "Qc Qh Qd"],
    };
    let t = start(config, &[(1, 100_000), (2, 100_000), (3, short)], &third, "");
    assert_eq!(t.to_act(), Some(1), "{v}");
    t
}

#[test]
fn uncapped_heads_up_a_fold_after_the_cap_does_not_lift_it() {
    // Robert's Rules: raising is unlimited heads-up only if the action became heads-up before
    // the betting was capped; a later fold that leaves two players does not uncap it.
    for v in ALL {
        let mut t = three_with_seat_one_bringing_in(v, true, 100_000);
        t.act(1, Action::BringIn);
        t.act(2, Action::Complete { to: 200 });
        t.act(3, Action::Raise { to: 400 });
        t.act(1, Action::Raise { to: 600 });
        t.act(2, Action::Raise { to: 800 });
        // Capped three-handed; seat 3 folds and two remain.
        t.act(3, Action::Fold);
        assert_eq!(t.legal(1), vec![Action::Fold, Action::Call], "{v}");
        assert!(matches!(t.refuse(1, Action::Raise { to: 1000 }), ActionError::Illegal { .. }));
        t.act(1, Action::Call);
        assert_eq!(t.hand.street(), Street::Fourth, "{v}");
    }
}

#[test]
fn uncapped_heads_up_an_all_in_call_after_the_cap_does_not_lift_it() {
    for v in ALL {
        // Seat 3 has 800 behind its ante: it calls the capping raise all-in.
        let mut t = three_with_seat_one_bringing_in(v, true, 840);
        t.act(1, Action::BringIn);
        t.act(2, Action::Complete { to: 200 });
        t.act(3, Action::Raise { to: 400 });
        t.act(1, Action::Raise { to: 600 });
        t.act(2, Action::Raise { to: 800 });
        let ev = t.act(3, Action::Call);
        assert!(ev.contains(&Event::Call { seat: seat(3), amount: 400, all_in: true }), "{v}");
        assert_eq!(t.legal(1), vec![Action::Fold, Action::Call], "{v}");
    }
}

#[test]
fn uncapped_heads_up_when_the_fold_comes_before_the_cap() {
    for v in ALL {
        for uncapped in [false, true] {
            let mut t = three_with_seat_one_bringing_in(v, uncapped, 100_000);
            t.act(1, Action::BringIn);
            t.act(2, Action::Complete { to: 200 });
            t.act(3, Action::Fold);
            t.act(1, Action::Raise { to: 400 });
            t.act(2, Action::Raise { to: 600 });
            t.act(1, Action::Raise { to: 800 });
            // The cap is reached heads-up: lifted only when the table says so.
            assert_eq!(t.legal(2).contains(&Action::Raise { to: 1000 }), uncapped, "{v} uncapped={uncapped}");
            if uncapped {
                t.act(2, Action::Raise { to: 1000 });
                t.act(1, Action::Raise { to: 1200 });
                assert_eq!(t.legal(2), vec![Action::Fold, Action::Call, Action::Raise { to: 1400 }]);
            }
        }
    }
}

#[test]
fn uncapped_heads_up_counts_only_players_who_can_still_bet() {
    // Seat 1 is all-in from the ante: three players are in the hand but only two can bet, and
    // that is heads-up (Robert's Rules count the players still betting).
    for v in ALL {
        for uncapped in [false, true] {
            let mut config = cfg(v);
            config.uncapped_heads_up = uncapped;
            let third = match v {
                Variant::Razz | Variant::London => ["Ac Ad Ks", "2c 3c Qd", "4c 5c 3d"],
                _ => ["Ac Ad 2c", "Kc Kh 3d", "Qc Qh Qd"],
            };
            let mut t = start(config, &[(1, 40), (2, 100_000), (3, 100_000)], &third, "");
            assert_eq!(t.stack(1), 0);
            // The bring-in passes to seat 2.
            assert_eq!(t.to_act(), Some(2), "{v}");
            t.act(2, Action::BringIn);
            t.act(3, Action::Complete { to: 200 });
            t.act(2, Action::Raise { to: 400 });
            t.act(3, Action::Raise { to: 600 });
            t.act(2, Action::Raise { to: 800 });
            assert_eq!(t.legal(3).contains(&Action::Raise { to: 1000 }), uncapped, "{v} uncapped={uncapped}");
        }
    }
}

// ---- RULES.md 4: all-in and side pots -------------------------------------------------------------

/// 3 to 5 players at 10/20 (ante 0, bring-in 5, no open-pair option) with `stacks`, brought
/// to 5th street by calling the bring-in and checking 4th; seat 1 shows the best board on 5th
/// in every variant (high: A-K-Q; razz: A-2-3) and acts first.
fn to_fifth(v: Variant, stacks: &[Chips]) -> T {
    let mut config = TableConfig::new(v, 0, 5, 10, 20);
    config.open_pair_big_bet = false;
    let (third, fourth, fifth): (&[&str], &[&str], &[&str]) = match v {
        Variant::Razz | Variant::London => (
            &["Kc Kd As", "Qc Qd 9h", "Jc Jd Th", "9c 9d 8h", "7c 7d 6c"],
            &["2s", "Jh", "Js", "Ts", "6s"],
            &["3s", "Qh", "Qs", "8s", "6d"],
        ),
        _ => (
            &["2c 2d Ad", "3c 3d 4h", "5c 5d 6h", "7c 7s 6s", "8c 8s 9c"],
            &["Ks", "7d", "8d", "4s", "3h"],
            &["Qs", "9d", "Ts", "5h", "2s"],
        ),
    };
    let n = stacks.len();
    let later = format!("{} {}", fourth[..n].join(" "), fifth[..n].join(" "));
    let seats: Vec<(u8, Chips)> = (1..).zip(stacks.iter().copied()).collect();
    let mut t = start(config, &seats, &third[..n], &later);
    let b = t.to_act().unwrap();
    t.act(b, Action::BringIn);
    t.finish_street(Street::Third, Action::Call);
    t.finish_street(Street::Fourth, Action::Check);
    assert_eq!(t.hand.street(), Street::Fifth);
    assert_eq!(t.to_act(), Some(1), "{v}");
    t
}

/// Three players with seat 1 holding `short` chips on 5th street.
fn fifth_street_with_short_stack(v: Variant, short: Chips) -> T {
    let t = to_fifth(v, &[5 + short, 1000, 1000]);
    assert_eq!(t.stack(1), short);
    t
}

#[test]
fn half_bet_rule_all_in_of_half_a_bet_is_a_full_bet() {
    // RULES.md 4: raising a 15 all-in on a 20 round goes to 35.
    for v in ALL {
        let mut t = fifth_street_with_short_stack(v, 15);
        t.act(1, Action::Bet { to: 15 });
        assert_eq!(t.legal(2), vec![Action::Fold, Action::Call, Action::Raise { to: 35 }], "{v}");
        t.act(2, Action::Raise { to: 35 });
        // It counted towards the cap: bet (15), raise (35), two more raises.
        t.act(3, Action::Raise { to: 55 });
        t.act(2, Action::Raise { to: 75 });
        assert_eq!(t.legal(3), vec![Action::Fold, Action::Call]);
    }
}

#[test]
fn half_bet_rule_short_all_in_can_be_completed_and_does_not_reopen() {
    for v in ALL {
        let mut t = fifth_street_with_short_stack(v, 9);
        // Seat 1 all-in bets 9 (< half of 20): seat 2 may fold, call 9 or complete to 20.
        t.act(1, Action::Bet { to: 9 });
        assert_eq!(t.legal(2), vec![Action::Fold, Action::Call, Action::Complete { to: 20 }], "{v}");
        t.act(2, Action::Call);
        t.act(3, Action::Complete { to: 20 });
        // Seat 2 acted and was in for all previous bets: the completion is a full bet, so it
        // reopens the betting for seat 2.
        assert_eq!(t.legal(2), vec![Action::Fold, Action::Call, Action::Raise { to: 40 }]);
    }
}

#[test]
fn short_all_in_does_not_reopen_for_a_player_who_already_acted() {
    // Seat 1 bets 20, seat 2 calls, seat 3 (25 left) raises all-in to 25: seats 1 and 2 already
    // acted and are in for the 20: they may only call 5 or fold.
    for v in ALL {
        let mut t = to_fifth(v, &[1000, 1000, 30]);
        assert_eq!(t.stack(3), 25);
        t.act(1, Action::Bet { to: 20 });
        t.act(2, Action::Call);
        assert_eq!(t.legal(3), vec![Action::Fold, Action::Call, Action::Raise { to: 25 }], "{v}");
        t.act(3, Action::Raise { to: 25 });
        assert_eq!(t.legal(1), vec![Action::Fold, Action::Call], "{v}");
        t.act(1, Action::Call);
        assert_eq!(t.legal(2), vec![Action::Fold, Action::Call]);
        t.act(2, Action::Call);
        assert_eq!(t.hand.street(), Street::Sixth);
    }
}

#[test]
fn short_all_ins_that_together_make_a_full_raise_reopen_the_betting() {
    for v in ALL {
        // 20 -> 29 -> 38: two short all-ins (9 each), together 18 < a full raise of 20.
        let mut t = to_fifth(v, &[1000, 34, 43, 1000]);
        assert_eq!((t.stack(2), t.stack(3)), (29, 38), "{v}");
        t.act(1, Action::Bet { to: 20 });
        t.act(2, Action::Raise { to: 29 });
        t.act(3, Action::Raise { to: 38 });
        t.act(4, Action::Call);
        assert_eq!(t.legal(1), vec![Action::Fold, Action::Call], "{v}: 18 < a full raise of 20");
        t.act(1, Action::Call);
        assert_eq!(t.hand.street(), Street::Sixth);
    }
    for v in ALL {
        // 20 -> 28 -> 36 -> 40: three short all-ins that together make a full raise of 20.
        let mut t = to_fifth(v, &[1000, 33, 41, 45, 1000]);
        t.act(1, Action::Bet { to: 20 });
        t.act(2, Action::Raise { to: 28 });
        t.act(3, Action::Raise { to: 36 });
        t.act(4, Action::Raise { to: 40 });
        t.act(5, Action::Call);
        assert_eq!(t.legal(1), vec![Action::Fold, Action::Call, Action::Raise { to: 60 }], "{v}");
    }
}

#[test]
fn side_pots_and_uncalled_bets() {
    for v in ALL {
        // Seat 1 best hand, all-in for little; seat 2 second best, seat 3 worst with most chips.
        let (third, later) = match v {
            Variant::Razz | Variant::London => {
                (["Ac 2c 3h", "Ad 2d 9h", "Kc Kd Qh"], "4c 4d Jc 5c 5d Js 6c 6d Ts 7c 8c 9s")
            }
            _ => (["Ac As Ad", "Kc Ks 2d", "7c 8d 3h"], "Ah Kd 9c 2s 4d Jc 3s 6h Qh 4s 5h 2h"),
        };
        let mut t = start(cfg(v), &[(1, 300), (2, 1000), (3, 5000)], &third, later);
        let b = t.to_act().unwrap();
        t.act(b, Action::BringIn);
        // Everyone puts everything in on 3rd street, seat 3 covering.
        while let Some(s) = t.to_act() {
            if t.hand.phase() != Phase::Betting {
                t.act(s, Action::Muck);
                continue;
            }
            let legal = t.legal(s);
            let a = legal.iter().rev().find(|a| a.to().is_some()).copied().unwrap_or(Action::Call);
            t.act(s, a);
        }
        assert!(t.hand.is_over());
        assert_eq!(t.stack(3), 4000, "{v}: seat 3 loses exactly what the others matched");
        // Seat 1 wins the main pot (3 x 300), seat 2 the side pot (2 x 700). In stud8 nobody
        // has a qualifying low, so the high hands take whole pots.
        let won = |s: u8| -> Chips { t.awards().iter().filter(|a| a.0 == seat(s)).map(|a| a.2).sum() };
        assert_eq!(won(1), 900, "{v}: {:?}", t.awards());
        assert_eq!(won(2), 1400, "{v}: {:?}", t.awards());
        let pots: Vec<u32> = t
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Award { pot, .. } => Some(*pot),
                _ => None,
            })
            .collect();
        assert_eq!(pots, vec![0, 1]);
        assert_eq!(t.stack(1) + t.stack(2) + t.stack(3), 6300);
    }
}

#[test]
fn bet_not_called_is_returned_and_nothing_is_shown() {
    for v in ALL {
        let mut t = start(cfg(v), &[(1, 1000), (2, 1000)], &["Kc Kd 5h", "Qc Qd 9c"], "6d 7s");
        let b = t.to_act().unwrap();
        t.act(b, Action::BringIn);
        t.act(3 - b, Action::Call);
        let f = t.to_act().unwrap();
        t.act(f, Action::Bet { to: 200 });
        let ev = t.act(3 - f, Action::Fold);
        assert!(ev.contains(&Event::Uncalled { seat: seat(f), amount: 200 }), "{v}");
        assert!(
            !t.events.iter().any(|e| matches!(e, Event::Shown { .. } | Event::Dealt { street: Street::Fifth, .. }))
        );
        assert_eq!(t.stack(f), 1000 + 90);
    }
}

#[test]
fn no_betting_when_at_most_one_player_has_chips() {
    for v in ALL {
        let mut t = start(cfg(v), &[(1, 240), (2, 5000)], &["Kc Kd 5h", "Qc Qd 9c"], "6d 7s 8d 2s Td 3s 4d 5s");
        let b = t.to_act().unwrap();
        if b == 1 {
            t.act(1, Action::Complete { to: 200 });
            t.act(2, Action::Call);
        } else {
            t.act(2, Action::Complete { to: 200 });
            t.act(1, Action::Call);
        }
        // Seat 1 is all-in: the rest is dealt out with no betting.
        assert_eq!(t.stack(1), 0);
        let started: Vec<_> =
            t.events.iter().filter(|e| matches!(e, Event::StreetStarted { first: None, .. })).collect();
        assert_eq!(started.len(), 4, "{v}");
        assert_ne!(t.hand.phase(), Phase::Betting, "{v}: no betting round is left");
        t.check_down();
        assert!(t.hand.is_over());
    }
}

// ---- RULES.md 5: showdown -----------------------------------------------------------------------

#[test]
fn last_aggressor_shows_first_then_clockwise() {
    for v in ALL {
        let mut t = start(
            cfg(v),
            &[(1, 5000), (2, 5000), (3, 5000)],
            &["Kc Kd 5h", "Qc Qd 9c", "Jc Jd Th"],
            "6d 7s 8d 2s Td 3s 4d 5s 6s 2h 3h 4h",
        );
        let b = t.to_act().unwrap();
        t.act(b, Action::BringIn);
        t.finish_street(Street::Third, Action::Call);
        // 4th street: the second player to act bets; later streets are checked through.
        let first = t.to_act().unwrap();
        t.act(first, Action::Check);
        let bettor = t.to_act().unwrap();
        t.act(bettor, Action::Bet { to: 200 });
        t.finish_street(Street::Fourth, Action::Call);
        t.check_to_showdown();
        let order = t.events.iter().find_map(|e| match e {
            Event::Showdown { order } => Some(order.iter().map(|s| s.number()).collect::<Vec<_>>()),
            _ => None,
        });
        let expected: Vec<u8> = (0..3).map(|k| (bettor - 1 + k) % 3 + 1).collect();
        assert_eq!(order, Some(expected), "{v}");
    }
}

#[test]
fn bring_in_shows_first_when_nobody_bet() {
    for v in ALL {
        let mut t = start(
            cfg(v),
            &[(1, 5000), (2, 5000), (3, 5000)],
            &["Kc Kd 5h", "Qc Qd 9c", "Jc Jd Th"],
            "6d 7s 8d 2s Td 3s 4d 5s 6s 2h 3h 4h",
        );
        let b = t.to_act().unwrap();
        t.act(b, Action::BringIn);
        t.check_down();
        let first = t.events.iter().find_map(|e| match e {
            Event::Showdown { order } => order.first().copied(),
            _ => None,
        });
        assert_eq!(first, Some(seat(b)), "{v}");
    }
}

#[test]
fn losing_hands_choose_and_mucking_never_forfeits_a_winner() {
    // Seat 1 shows first with the worse hand; seat 2's better hand is shown automatically.
    // Then with the order reversed, the loser is offered the choice and mucks.
    let mut t =
        start(cfg(Variant::Stud), &[(1, 5000), (2, 5000)], &["2c 3d 7h", "Ac Ad Kh"], "9s Qs 4d Js 5c 8s Tc 6h");
    // seat 1 brings in (7h < Kh), completes? just bring in and check down.
    assert_eq!(t.to_act(), Some(1));
    t.act(1, Action::BringIn);
    t.act(2, Action::Call);
    t.check_down();
    let shows: Vec<(u8, bool)> = t
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Shown { seat, automatic, .. } => Some((seat.number(), *automatic)),
            _ => None,
        })
        .collect();
    assert_eq!(shows, vec![(1, true), (2, true)]);
    assert_eq!(t.stack(2), 5000 + 90);

    // Seat 1 (winner) completes this time and so shows first; seat 2 must choose.
    let mut t =
        start(cfg(Variant::Stud), &[(1, 5000), (2, 5000)], &["Ac Ad Kh", "2c 3d 7h"], "9s Qs 4d Js 5c 8s Tc 6h");
    t.act(2, Action::BringIn);
    t.act(1, Action::Complete { to: 200 });
    t.act(2, Action::Call);
    t.check_to_showdown();
    assert_eq!(t.hand.phase(), Phase::Showdown);
    assert_eq!(t.to_act(), Some(2));
    assert_eq!(t.legal(2), vec![Action::Show, Action::Muck]);
    assert_eq!(t.hand.timeout_action(), Some((seat(2), Action::Muck)));
    t.act(2, Action::Muck);
    assert!(t.hand.is_over());
    assert_eq!(t.stack(1), 5000 + 240);
}

#[test]
fn cards_speak_a_mucked_winner_still_wins() {
    // Seat 1 bets last and shows a weak hand; seat 2 "beats" it and is auto-shown; nobody can
    // muck a winning hand away because winners are always shown or awarded by the server.
    // Here: seat 2 shows first (bring-in) with the weaker hand, seat 1 holds the best hand and
    // is shown automatically.
    for v in LOWS {
        let mut t = start(cfg(v), &[(1, 5000), (2, 5000)], &["Ac 2d 3h", "9c 9d Kh"], "4s Qs 5d Js 6c Ts 7c 8s Tc 6h");
        assert_eq!(t.to_act(), Some(2));
        t.act(2, Action::BringIn);
        t.act(1, Action::Call);
        t.check_down();
        assert!(t.events.iter().any(|e| matches!(e, Event::Shown { seat: s, automatic: true, .. } if *s == seat(1))));
        assert_eq!(t.stack(1), 5000 + 90, "{v}");
    }
}

#[test]
fn stud8_split_scoop_and_no_low() {
    // Seat 1: wheel straight (high and the best low: scoops). Seat 2: kings.
    let mut t =
        start(cfg(Variant::Stud8), &[(1, 5000), (2, 5000)], &["Ac 2d 3h", "Kc Kd 9h"], "4s Qs 5d 2s 9c 7s 9s 7h");
    assert_eq!(t.to_act(), Some(1)); // 3h brings in
    t.act(1, Action::BringIn);
    t.act(2, Action::Call);
    t.check_down();
    let halves: Vec<(u8, Half)> = t.awards().iter().map(|a| (a.0.number(), a.1)).collect();
    assert_eq!(halves, vec![(1, Half::High), (1, Half::Low)], "scoop with a wheel");
    assert_eq!(t.stack(1), 5000 + 90);

    // Seat 1 has a low, seat 2 trips: split 180 -> 90 / 90.
    let mut t =
        start(cfg(Variant::Stud8), &[(1, 5000), (2, 5000)], &["Ac 2d 3h", "Kc Kd 9h"], "4s Ks 6d Js 9c Ts Qc 8s");
    t.act(1, Action::BringIn);
    t.act(2, Action::Call);
    t.check_down();
    let aw = t.awards();
    assert!(aw.contains(&(seat(2), Half::High, 90)), "{aw:?}");
    assert!(aw.contains(&(seat(1), Half::Low, 90)), "{aw:?}");

    // No qualifying low: the high hand takes the whole pot.
    let mut t =
        start(cfg(Variant::Stud8), &[(1, 5000), (2, 5000)], &["Ac Td 9h", "Kc Kd Qh"], "9s Ks Jd Js 9c Ts Qc 8s");
    t.act(1, Action::BringIn);
    t.act(2, Action::Call);
    t.check_down();
    assert_eq!(t.awards(), vec![(seat(2), Half::Whole, 180)]);
}

#[test]
fn stud8_odd_chip_goes_to_the_high_half() {
    let mut config = cfg(Variant::Stud8);
    config.ante = 5; // pot 10 + bring-in 50 x 2 = 110? use an odd total below
    let mut t = start(
        config,
        &[(1, 5000), (2, 5000), (3, 5000)],
        &["Ac 2d 3h", "Kc Kd 9h", "Qc Jd Th"],
        "4s Ks 6d Js 9c Ts 8s Qh",
    );
    let b = t.to_act().unwrap();
    t.act(b, Action::BringIn);
    while t.hand.street() == Street::Third {
        let s = t.to_act().unwrap();
        if s == 3 {
            t.act(s, Action::Fold)
        } else {
            t.act(s, Action::Call)
        };
    }
    t.check_down();
    // Pot: 15 antes + 50 + 50 = 115: high 58, low 57.
    let aw = t.awards();
    let high: Chips = aw.iter().filter(|a| a.1 == Half::High).map(|a| a.2).sum();
    let low: Chips = aw.iter().filter(|a| a.1 == Half::Low).map(|a| a.2).sum();
    assert_eq!((high, low), (58, 57), "{aw:?}");
}

#[test]
fn tied_hands_split_with_odd_chips_from_seat_one() {
    // Seats 2 and 3 play the same straight on the board; the odd chip goes to seat 2.
    let mut config = cfg(Variant::Stud);
    config.ante = 1;
    let mut t = start(
        config,
        &[(1, 5000), (2, 5000), (3, 5000)],
        &["2c 2d 3h", "Tc Jd 9h", "Th Js 9d"],
        "4c Qh Qd 5c Kh Kd 7c 8h 8d 8c 4h 4s",
    );
    t.act(1, Action::BringIn);
    t.act(2, Action::Call);
    t.act(3, Action::Call);
    // seat 1 folds to a bet on 4th street
    let f = t.to_act().unwrap();
    t.act(f, Action::Bet { to: 200 });
    while t.hand.street() == Street::Fourth {
        let s = t.to_act().unwrap();
        if s == 1 {
            t.act(1, Action::Fold)
        } else {
            t.act(s, Action::Call)
        };
    }
    t.check_down();
    // Pot: 3 antes + 3 x 50 + 2 x 200 = 553: 277 to seat 2, 276 to seat 3.
    let aw = t.awards();
    assert_eq!(aw, vec![(seat(2), Half::Whole, 277), (seat(3), Half::Whole, 276)]);
}

// ---- errors, clock, views ---------------------------------------------------------------------------

#[test]
fn refused_actions_are_typed_and_change_nothing() {
    let mut t = start(cfg(Variant::Stud), &[(1, 1000), (2, 1000)], &["Kc Kd 5h", "Qc Qd 9c"], "");
    assert_eq!(t.to_act(), Some(1));
    assert!(matches!(t.refuse(2, Action::Call), ActionError::NotYourTurn { .. }));
    assert!(matches!(t.refuse(4, Action::Call), ActionError::NotInHand(_)));
    assert!(matches!(t.refuse(1, Action::Complete { to: 300 }), ActionError::Illegal { .. }));
    t.act(1, Action::BringIn);
    t.act(2, Action::Fold);
    assert!(matches!(t.refuse(1, Action::Check), ActionError::HandOver));
}

#[test]
fn timeout_checks_if_free_folds_otherwise_and_posts_the_bring_in() {
    let mut t = start(cfg(Variant::Stud), &[(1, 1000), (2, 1000)], &["Kc Kd 5h", "Qc Qd 9c"], "6d 7s");
    assert_eq!(t.hand.timeout_action(), Some((seat(1), Action::BringIn)));
    t.act(1, Action::BringIn);
    assert_eq!(t.hand.timeout_action(), Some((seat(2), Action::Fold)));
    t.act(2, Action::Call);
    let f = t.to_act().unwrap();
    assert_eq!(t.hand.timeout_action(), Some((seat(f), Action::Check)));
}

#[test]
fn views_hide_down_cards_until_shown_and_last_hand_reveals_the_showdown() {
    let mut t = start(
        cfg(Variant::Stud),
        &[(1, 5000), (2, 5000), (3, 5000)],
        &["Ac Ad Kh", "2c 3d 7h", "Qs Js 8c"],
        "9s Qs2 4d Jc 5c 8s Tc 6h 2h 3h".replace("Qs2", "Qh").as_str(),
    );
    let view = t.hand.view_for(Viewer::Seat(seat(2)));
    assert!(view.visible_down_cards_of_others().is_empty());
    let own = &view.seats.iter().find(|s| s.seat == seat(2)).unwrap().cards;
    assert!(own.iter().all(|c| c.card.is_some()));
    let observer = t.hand.view_for(Viewer::Observer);
    assert!(observer.seats.iter().all(|s| s.cards.iter().all(|c| c.up == c.card.is_some())));
    // Seat 3 folds on 3rd street; seat 1 (aces) and seat 2 go to showdown where seat 2 mucks.
    assert_eq!(t.to_act(), Some(2));
    t.act(2, Action::BringIn);
    t.act(3, Action::Call);
    t.act(1, Action::Complete { to: 200 });
    t.act(2, Action::Call);
    t.act(3, Action::Fold);
    t.check_to_showdown();
    assert_eq!(t.to_act(), Some(2));
    t.act(2, Action::Muck);
    assert!(t.hand.is_over());
    // Live view after the hand: seat 2's mucked cards stay hidden from seat 3.
    let v3 = t.hand.view_for(Viewer::Seat(seat(3)));
    assert!(v3.seats[1].cards.iter().filter(|c| !c.up).all(|c| c.card.is_none()));
    // LAST HAND: the mucked hand is revealed; folded seat 3's down cards are not (to seat 1).
    let last = t.hand.last_hand_view(Viewer::Seat(seat(1)));
    assert!(last.seats[1].cards.iter().all(|c| c.card.is_some()));
    assert!(last.seats[2].cards.iter().filter(|c| !c.up).all(|c| c.card.is_none()));
    // ... but seat 3 sees its own.
    let own = t.hand.last_hand_view(Viewer::Seat(seat(3)));
    assert!(own.seats[2].cards.iter().all(|c| c.card.is_some()));
}

#[test]
fn debug_of_a_hand_shows_no_card_no_deck_and_no_seed() {
    // ARCHITECTURE.md: a `Hand` may reach a log or a panic message; its `{:?}` must not leak.
    let seed = Seed([0xA7; 32]);
    let seats: Vec<(Seat, Chips)> = (1..=4).map(|s| (seat(s), 5000)).collect();
    let (mut hand, _) = Hand::start(cfg(Variant::Stud), &seats, seed).unwrap();
    // Play to 5th street: every player then holds two down cards and three up cards.
    while hand.street() < Street::Fifth {
        let s = hand.to_act().unwrap();
        let legal = hand.legal_actions(s);
        let a = [Action::BringIn, Action::Check, Action::Call].into_iter().find(|a| legal.contains(a)).unwrap();
        hand.apply(s, a).unwrap();
    }
    assert_eq!(hand.phase(), Phase::Betting);
    let down: Vec<Card> = hand.players.iter().flat_map(|p| [p.cards[0], p.cards[1]]).collect();
    assert_eq!(down.len(), 8);
    let all_cards: Vec<Card> = Card::all().collect();
    assert_eq!(all_cards.len(), 52);
    for text in [format!("{hand:?}"), format!("{hand:#?}")] {
        // The state that is public is there ...
        assert!(text.contains("Fifth") && text.contains("pot") && text.contains("to_act"), "{text}");
        // ... and no card at all: none of the down cards, nor any other (deck included).
        for c in &down {
            assert!(!text.contains(&c.to_string()), "down card {c} in {text}");
        }
        for c in &all_cards {
            assert!(!text.contains(&c.to_string()) && !text.contains(&format!("{c:?}")), "card {c} in {text}");
        }
        // No seed, in hex or as bytes.
        assert!(!text.contains(&seed.to_hex()), "{text}");
        assert!(!text.contains(&format!("{:?}", seed.0)), "{text}");
    }
    // The engine's other holders of secrets are redacted too: the deck and the seed.
    assert_eq!(format!("{seed:?}"), "Seed(<redacted>)");
    let deck_text = format!("{:?} {:#?}", hand.deck, hand.deck);
    assert!(all_cards.iter().all(|c| !deck_text.contains(&c.to_string())), "{deck_text}");
    // The test-only dump does see the cards (so `refuse` compares everything).
    assert!(down.iter().all(|c| hand.internals().contains(&format!("{c:?}"))));
}

#[test]
fn events_for_a_viewer_hide_other_down_cards() {
    let t = start(cfg(Variant::Stud), &[(1, 5000), (2, 5000)], &["Ac Ad Kh", "2c 3d 7h"], "");
    for e in &t.events {
        let seen = e.for_viewer(Viewer::Seat(seat(1)));
        assert!(!seen.leaks_to(Viewer::Seat(seat(1))));
        if let Event::Dealt { seat: s, up: false, .. } = e {
            let own = *s == seat(1);
            assert_eq!(matches!(seen, Event::Dealt { card: Some(_), .. }), own);
        }
    }
}

#[test]
fn setup_errors_are_typed() {
    let c = cfg(Variant::Stud);
    assert!(matches!(Hand::start(c, &[(seat(1), 100)], Seed([0; 32])), Err(SetupError::PlayerCount(1))));
    assert!(matches!(
        Hand::start(c, &[(seat(1), 100), (seat(1), 100)], Seed([0; 32])),
        Err(SetupError::DuplicateSeat(_))
    ));
    assert!(matches!(Hand::start(c, &[(seat(1), 100), (seat(2), 0)], Seed([0; 32])), Err(SetupError::BadStack { .. })));
    let bad = TableConfig { bring_in: 0, ..c };
    assert!(matches!(Hand::start(bad, &[(seat(1), 100), (seat(2), 100)], Seed([0; 32])), Err(SetupError::Config(_))));
}

#[test]
fn record_replays_exactly() {
    for v in ALL {
        let seats: Vec<(Seat, Chips)> = (1..=6).map(|s| (seat(s), 300 + 500 * Chips::from(s))).collect();
        let mut bots: Vec<crate::bot::Bot> = (0..6).map(crate::bot::Bot::new).collect();
        let mut buf = Vec::new();
        for k in 0..50u8 {
            let seed = Seed([k; 32]);
            buf.clear();
            let (played, _) = crate::sim::play_hand(cfg(v), &seats, seed, &mut bots, &mut buf).unwrap();
            let record = played.record();
            assert!(record.result.is_some());
            assert_eq!(record.verify().unwrap().record(), record);
            let (mut hand, _) = Hand::start(cfg(v), &seats, seed).unwrap();
            while let Some((s, _)) = hand.timeout_action() {
                let legal = hand.legal_actions(s);
                let a = bots[0].choose(&legal);
                hand.apply(s, a).unwrap();
            }
            let record = hand.record();
            assert!(record.result.is_some());
            let replayed = record.verify().unwrap();
            assert_eq!(replayed.record(), record);
        }
    }
}

#[test]
fn third_street_all_in_completion_follows_the_half_bet_rule() {
    for v in ALL {
        // Bring-in 50, small bet 200. Seat 2 (not the bring-in) completes all-in for 120 (at
        // least half the small bet): a full completion, so the next raise goes to 320.
        let door =
            if v.is_razz_like() { ["Ac Ad Ks", "Kc Kd 5h", "Qc Qd 7c"] } else { ["Ac Ad 2s", "Kc Kd 9h", "Qc Qd Tc"] };
        let mut t = start(cfg(v), &[(1, 5000), (2, 160), (3, 5000)], &door, "");
        assert_eq!(t.to_act(), Some(1), "{v}");
        t.act(1, Action::BringIn);
        assert_eq!(t.legal(2), vec![Action::Fold, Action::Call, Action::Complete { to: 120 }]);
        t.act(2, Action::Complete { to: 120 });
        assert_eq!(t.legal(3), vec![Action::Fold, Action::Call, Action::Raise { to: 320 }], "{v}");

        // All-in for 90 (less than half): not a completion; seat 3 may still complete to 200.
        let mut t = start(cfg(v), &[(1, 5000), (2, 130), (3, 5000)], &door, "");
        t.act(1, Action::BringIn);
        t.act(2, Action::Complete { to: 90 });
        assert_eq!(t.legal(3), vec![Action::Fold, Action::Call, Action::Complete { to: 200 }], "{v}");
    }
}

#[test]
fn stud8_a_hand_that_wins_only_the_low_half_is_shown_automatically() {
    // Seat 2 completes and shows first with kings; seat 1 has a worse high but a low: it beats
    // the low half, so it is shown without asking.
    let mut t =
        start(cfg(Variant::Stud8), &[(1, 5000), (2, 5000)], &["Ac 2d 3h", "Kc Kd 9h"], "4s Ks 6d Js 9c Ts 8s Qh");
    t.act(1, Action::BringIn);
    t.act(2, Action::Complete { to: 200 });
    t.act(1, Action::Call);
    t.check_down();
    let shows: Vec<(u8, bool)> = t
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Shown { seat, automatic, .. } => Some((seat.number(), *automatic)),
            _ => None,
        })
        .collect();
    assert_eq!(shows, vec![(2, true), (1, true)]);
    assert!(t.hand.is_over());
}

#[test]
fn all_in_players_take_part_in_the_showdown_in_order() {
    for v in ALL {
        // Seat 2 is all-in on 3rd street; seats 1 and 3 check it down. Seat 2 is in the order.
        let door =
            if v.is_razz_like() { ["Ac Ad Ks", "Kc Kd 5h", "Qc Qd 7c"] } else { ["Ac Ad 2s", "Kc Kd 9h", "Qc Qd Tc"] };
        let mut t = start(cfg(v), &[(1, 5000), (2, 90), (3, 5000)], &door, "");
        t.act(1, Action::BringIn);
        t.act(2, Action::Call);
        t.act(3, Action::Call);
        while let Some(s) = t.to_act() {
            let a = if t.hand.phase() == Phase::Showdown { Action::Show } else { Action::Check };
            t.act(s, a);
        }
        let order = t.events.iter().find_map(|e| match e {
            Event::Showdown { order } => Some(order.iter().map(|s| s.number()).collect::<Vec<_>>()),
            _ => None,
        });
        assert_eq!(order, Some(vec![1, 2, 3]), "{v}");
        assert_eq!(t.events.iter().filter(|e| matches!(e, Event::Shown { .. })).count(), 3);
    }
}

#[test]
fn regression_no_raise_offered_when_no_opponent_can_call_it() {
    // Found by the PokerKit cross-check: seat 2 completes all-in; seat 1 may only fold or call.
    for v in ALL {
        let config = TableConfig::new(v, 1, 2, 5, 10);
        let door = if v.is_razz_like() { ["9s As 2d", "6h Kc Qd"] } else { ["9s As Qd", "6h Kc 4d"] };
        let mut t = start(config, &[(1, 37), (2, 6)], &door, "");
        assert_eq!(t.to_act(), Some(2), "{v}");
        t.act(2, Action::Complete { to: 5 });
        assert_eq!(t.legal(1), vec![Action::Fold, Action::Call], "{v}");
        // An opponent with chips but no more than the call cannot answer a raise either.
        let mut t = start(config, &[(1, 37), (2, 12)], &door, "");
        t.act(2, Action::Complete { to: 5 });
        t.act(1, Action::Raise { to: 10 });
        assert_eq!(t.stack(2), 6);
        assert!(t.legal(2).contains(&Action::Raise { to: 11 }), "{v}: seat 1 has chips to answer");
    }
}

#[test]
fn regression_razz_two_pair_board_acts_before_trips() {
    // Found by the PokerKit cross-check (a temporary evaluator scored trips like two pair):
    // RULES.md 4: trips are worse than two pair, so the two-pair razz board is lower.
    for v in LOWS {
        let mut t = start(cfg(v), &[(1, 9000), (2, 9000)], &["Ts 2h Ad", "8c 5c 2c"], "Ac 2s 9s 7d As 7h");
        assert_eq!(t.to_act(), Some(2));
        t.act(2, Action::BringIn);
        t.act(1, Action::Call);
        for _ in 0..2 {
            let s = t.to_act().unwrap();
            t.act(s, Action::Check);
            t.act(3 - s, Action::Check);
        }
        // 6th street boards: seat 1 Ad Ac 9s As (trips), seat 2 2c 2s 7d 7h (two pair).
        assert_eq!(t.hand.street(), Street::Sixth);
        assert_eq!(t.to_act(), Some(2), "{v}");
    }
}

/// The compact legal set answers exactly as its list, and a bot picks the same action from
/// either; a hand played without events ends exactly as one that collects them.
#[test]
fn legal_set_matches_its_list_and_bots_agree() {
    use crate::bot::Bot;
    use crate::event::NoEvents;
    for v in ALL {
        let seats: Vec<(Seat, Chips)> = (1..=8).map(|s| (seat(s), 150 + 400 * Chips::from(s))).collect();
        for k in 0..60u8 {
            let seed = Seed([k.wrapping_mul(7); 32]);
            let (mut hand, _) = Hand::start(cfg(v), &seats, seed).unwrap();
            let (mut a, mut b) = (Bot::new(u64::from(k)), Bot::new(u64::from(k)));
            while let Some(s) = hand.to_act() {
                let legal = hand.legal();
                let list = hand.legal_actions(s);
                assert_eq!(*legal.list(), *list);
                assert_eq!(Legal::from_list(&list), *legal);
                assert!(!legal.is_empty());
                let wagers: Vec<Action> = legal.wagers().collect();
                assert_eq!(wagers.len(), legal.wager_count());
                let expected: Vec<Action> = list
                    .iter()
                    .copied()
                    .filter(|a| matches!(a, Action::Complete { .. } | Action::Bet { .. } | Action::Raise { .. }))
                    .collect();
                assert_eq!(wagers, expected);
                assert_eq!(legal.can_fold(), list.contains(&Action::Fold));
                assert_eq!(legal.is_show_or_muck(), list.contains(&Action::Show));
                let passive =
                    list.iter().copied().find(|a| matches!(a, Action::BringIn | Action::Call | Action::Check));
                assert_eq!(legal.passive(), passive);
                // every listed action is allowed; a few that are not listed are refused
                for &x in list.iter() {
                    assert!(legal.allows(x));
                }
                for x in [Action::Fold, Action::Check, Action::Call, Action::Show, Action::Raise { to: 1 }] {
                    assert_eq!(legal.allows(x), list.contains(&x), "{x:?}");
                }
                let pick = a.choose(&list);
                assert_eq!(b.choose_legal(legal), pick);
                hand.apply(s, pick).unwrap();
            }
            assert_eq!(*hand.legal(), Legal::NONE);
            assert!(hand.legal_actions(seat(1)).is_empty());
        }
        // With and without events, the same hands end the same way.
        let mut bots: Vec<Bot> = (0..8).map(Bot::new).collect();
        let mut quiet_bots = bots.clone();
        let mut events = Vec::new();
        for k in 0..40u8 {
            let seed = Seed([k; 32]);
            events.clear();
            let (loud, n) = crate::sim::play_hand(cfg(v), &seats, seed, &mut bots, &mut events).unwrap();
            let (quiet, m) = crate::sim::play_hand(cfg(v), &seats, seed, &mut quiet_bots, &mut NoEvents).unwrap();
            assert_eq!((loud.record(), n), (quiet.record(), m));
            assert!(matches!(events.last(), Some(Event::HandEnded { .. })));
            assert_eq!(loud.record().replay().unwrap().1, events);
        }
    }
}

/// The pots followed from the events (what a client is sent) add up to the chips in, at
/// every step, and when the betting is over they are the pots the engine awards.
#[test]
fn pots_followed_from_events_match_the_engine() {
    use crate::view::PotTracker;
    for v in ALL {
        // Unequal stacks, so that hands go all in and make side pots.
        let seats: Vec<(Seat, Chips)> = (1..=6).map(|s| (seat(s), 40 + 90 * Chips::from(s))).collect();
        let mut side_pots = 0;
        for k in 0..80u8 {
            let seed = Seed([k.wrapping_mul(13); 32]);
            let (mut hand, events) = Hand::start(cfg(v), &seats, seed).unwrap();
            let mut tracker = PotTracker::default();
            let mut follow = |hand: &Hand, events: &[Event], tracker: &mut PotTracker| {
                for e in events {
                    if matches!(e, Event::Award { .. }) && !tracker.pots().is_empty() {
                        // The betting is over: the pots are the engine's, amount for amount.
                        let pots = tracker.pots();
                        for (i, pot) in pots.iter().enumerate() {
                            let awarded: Chips = events
                                .iter()
                                .filter_map(|e| match e {
                                    Event::Award { pot, amount, .. } if *pot as usize == i => Some(*amount),
                                    _ => None,
                                })
                                .sum();
                            assert_eq!(awarded, pot.amount, "{v:?} hand {k}: pot {i} of {pots:?}");
                        }
                        side_pots += pots.len() - 1;
                    }
                    tracker.apply(e);
                }
                if !hand.is_over() {
                    let total: Chips = tracker.pots().iter().map(|p| p.amount).sum();
                    assert_eq!(total, hand.pot_total(), "{v:?} hand {k}");
                } else {
                    // After the hand: event frames carry no pots, snapshots the pots awarded,
                    // which are the engine's own (and its views', with each seat's total).
                    assert!(tracker.pots().is_empty());
                    assert_eq!(tracker.hand_pots(), hand.pots(), "{v:?} hand {k}");
                    let awarded: Chips = tracker.hand_pots().iter().map(|p| p.amount).sum();
                    let view = hand.last_hand_view(Viewer::Observer);
                    let committed: Chips = view.seats.iter().map(|s| s.committed).sum();
                    let won: Chips = view.seats.iter().map(|s| s.won).sum();
                    assert!(awarded > 0, "{v:?} hand {k}");
                    assert_eq!((committed, won), (awarded, awarded), "{v:?} hand {k}");
                    assert_eq!(view.pots, hand.pots(), "{v:?} hand {k}");
                }
            };
            follow(&hand, &events, &mut tracker);
            let mut bot = crate::bot::Bot::new(u64::from(k));
            while let Some(s) = hand.to_act() {
                let a = bot.choose(&hand.legal_actions(s));
                let events = hand.apply(s, a).unwrap();
                follow(&hand, &events, &mut tracker);
            }
        }
        assert!(side_pots > 0, "{v:?}: some hands had side pots");
    }
}

#[test]
fn hand_strength_codes_name_the_hand() {
    use crate::eval::HandCategory;
    use crate::view::{HandCode, HandStrength};
    let cards = |s: &str| s.split(' ').map(|c| c.parse::<Card>().unwrap()).collect::<Vec<_>>();
    let code = |category, ranks: &str| Some(HandCode { category, ranks: ranks.into() });
    let s = HandStrength::of(Variant::Stud, &cards("Kh Ks 5c 5d 9s 2c 3h")).unwrap();
    assert_eq!(s, HandStrength { high: code(HandCategory::TwoPair, "K59"), low: None });
    let s = HandStrength::of(Variant::Stud, &cards("Kh Ks 9s")).unwrap();
    assert_eq!(s.high, code(HandCategory::OnePair, "K9"));
    let s = HandStrength::of(Variant::Razz, &cards("Ah 4s 7d 7c")).unwrap();
    assert_eq!(s, HandStrength { high: None, low: code(HandCategory::OnePair, "74A") });
    let s = HandStrength::of(Variant::Stud8, &cards("Ah 2s 4d 6c 8h Kd Ks")).unwrap();
    assert_eq!(s.high, code(HandCategory::OnePair, "KA86"));
    assert_eq!(s.low, code(HandCategory::HighCard, "8642A"));
    let s = HandStrength::of(Variant::Stud, &cards("Ah Kh Qh Jh Th 2c 3c")).unwrap();
    assert_eq!(s.high, code(HandCategory::StraightFlush, "A"));
}
