//! RULES.md 10: big-bet stud (pot limit, no limit), over every game.

use super::*;

const BIG: [Betting; 2] = [Betting::PotLimit, Betting::NoLimit];

/// BARGE's game: ante 100, bring-in 150, minimum bet 150.
fn barge(v: Variant, betting: Betting) -> TableConfig {
    TableConfig::new(v, 100, 150, 150, 300).with_betting(betting)
}

/// Eight players with 10,000 each; returns the table and the seats in acting order from the
/// bring-in.
fn eight(config: TableConfig) -> (T, Vec<u8>) {
    let seats: Vec<(u8, Chips)> = (1..=8).map(|s| (s, 10_000)).collect();
    let third = ["Ac Ad 2c", "Kc Kd 9h", "Qc Qd 8c", "Jc Jd Th", "Tc Td Js", "9c 9d 7h", "8d 8h 6s", "7c 7d 5d"];
    let t = start(config, &seats, &third, "");
    let b = t.to_act().unwrap();
    let order = (0..8).map(|k| (b - 1 + k) % 8 + 1).collect();
    (t, order)
}

fn entry(t: &T, s: u8) -> Vec<LegalEntry> {
    t.hand.legal_entries(seat(s))
}

fn ranged(action: Action, min_to: Chips, max_to: Chips) -> LegalEntry {
    LegalEntry { action, min_to: Some(min_to), max_to: Some(max_to) }
}

fn plain(action: Action) -> LegalEntry {
    LegalEntry { action, min_to: None, max_to: None }
}

#[test]
fn pot_limit_barge_example() {
    for v in ALL {
        let (mut t, order) = eight(barge(v, Betting::PotLimit));
        t.act(order[0], Action::BringIn);
        assert_eq!(t.hand.pot_total(), 950);
        // Call 150 (pot 1100), raise 1100: up to 1250; at least the bring-in again: 300.
        let next = order[1];
        assert_eq!(
            entry(&t, next),
            vec![plain(Action::Fold), plain(Action::Call), ranged(Action::Raise { to: 300 }, 300, 1250)],
            "{v}"
        );
        assert!(matches!(t.refuse(next, Action::Raise { to: 299 }), ActionError::Illegal { .. }));
        assert!(matches!(t.refuse(next, Action::Raise { to: 1251 }), ActionError::Illegal { .. }));
        assert!(matches!(t.refuse(next, Action::Complete { to: 300 }), ActionError::Illegal { .. }));
        t.act(next, Action::Raise { to: 650 });
        // Pot 1600; call 650 (2250), raise 2250: up to 2900; at least 650 + 500 = 1150.
        let third = order[2];
        assert_eq!(entry(&t, third)[2], ranged(Action::Raise { to: 1150 }, 1150, 2900), "{v}");
        assert!(matches!(t.refuse(third, Action::Raise { to: 1149 }), ActionError::Illegal { .. }));
        assert!(matches!(t.refuse(third, Action::Raise { to: 2901 }), ActionError::Illegal { .. }));
        t.act(third, Action::Raise { to: 2900 });
        assert_eq!(t.hand.pot_total(), 950 + 650 + 2900);
    }
}

#[test]
fn no_limit_raises_go_up_to_the_stack_and_are_unlimited() {
    for v in ALL {
        let (mut t, order) = eight(barge(v, Betting::NoLimit));
        t.act(order[0], Action::BringIn);
        // 10,000 less the ante: 9,900 is all a player may put in.
        assert_eq!(entry(&t, order[1])[2], ranged(Action::Raise { to: 300 }, 300, 9_900), "{v}");
        // Six minimum raises, more than fixed limit's one bet and three raises.
        for (k, &s) in order.iter().enumerate().skip(1).take(6) {
            let to = 150 * (k as Chips + 1);
            assert_eq!(t.hand.legal().range().map(|r| r.1), Some(to), "{v}");
            t.act(s, Action::Raise { to });
        }
        assert!(t.hand.legal().range().is_some(), "{v}: no cap in big-bet stud");
    }
}

#[test]
fn big_bet_bring_in_player_may_open_for_more() {
    for v in ALL {
        let (mut t, order) = eight(barge(v, Betting::PotLimit));
        let b = order[0];
        // As bringing in and raising one's own bring-in: 300 to 150 + 950.
        assert_eq!(entry(&t, b), vec![plain(Action::BringIn), ranged(Action::Bet { to: 300 }, 300, 1100)], "{v}");
        assert!(matches!(t.refuse(b, Action::Fold), ActionError::Illegal { .. }));
        assert!(matches!(t.refuse(b, Action::Bet { to: 1101 }), ActionError::Illegal { .. }));
        t.act(b, Action::Bet { to: 1100 });
        // The raise over the bring-in was 950: the next raise is at least that; pot limit:
        // call 1100 (pot 3000), then 3000 more.
        assert_eq!(entry(&t, order[1])[2], ranged(Action::Raise { to: 2050 }, 2050, 4100), "{v}");
        // No limit: the same opening, up to the stack.
        let (t, order) = eight(barge(v, Betting::NoLimit));
        assert_eq!(entry(&t, order[0])[1], ranged(Action::Bet { to: 300 }, 300, 9_900), "{v}");
    }
}

#[test]
fn big_bet_minimum_raise_is_at_least_the_small_bet() {
    for v in ALL {
        for betting in BIG {
            // Bring-in 50, minimum bet 200: facing the bring-in, the raise is at least 200.
            let config = cfg(v).with_betting(betting);
            let mut t = start(config, &[(1, 5000), (2, 5000), (3, 5000)], &["Ac Ad 9s", "Kc Kd 9h", "Qc Qd 9d"], "");
            let b = t.to_act().unwrap();
            assert_eq!(t.hand.legal().range().map(|r| r.1), Some(250), "{v} {betting}");
            t.act(b, Action::BringIn);
            let n = t.to_act().unwrap();
            assert_eq!(t.hand.legal().range().map(|r| r.1), Some(250), "{v} {betting}");
            t.act(n, Action::Call);
            t.finish_street(Street::Third, Action::Call);
            // 4th street: the first player checks or bets 200 up to the pot (270) or the stack.
            let f = t.to_act().unwrap();
            let max = if betting == Betting::PotLimit { 270 } else { 5000 - 90 };
            assert_eq!(entry(&t, f), vec![plain(Action::Check), ranged(Action::Bet { to: 200 }, 200, max)]);
            assert!(matches!(t.refuse(f, Action::Bet { to: 199 }), ActionError::Illegal { .. }));
            t.act(f, Action::Bet { to: 200 });
            let g = t.to_act().unwrap();
            assert_eq!(t.hand.legal().range().map(|r| r.1), Some(400), "{v} {betting}");
            t.act(g, Action::Raise { to: 400 });
        }
    }
}

/// Three players past 3rd street (bring-in called twice), stacks given after the antes and the
/// bring-in round; 4th street boards chosen so that the players act in seat order 1, 2, 3.
fn fourth_in_seat_order(v: Variant, betting: Betting, stacks: [Chips; 3]) -> T {
    let config = cfg(v).with_betting(betting);
    let seats = [(1, stacks[0] + 90), (2, stacks[1] + 90), (3, stacks[2] + 90)];
    let mut t = start(config, &seats, &["Ac Ad 9s", "Kc Kd 9h", "Qc Qd 9d"], "");
    let b = t.to_act().unwrap();
    t.act(b, Action::BringIn);
    t.finish_street(Street::Third, Action::Call);
    assert_eq!(t.hand.street(), Street::Fourth);
    // Whoever acts first, rotate the check round so seat 1 opens: check to seat 1.
    while t.to_act() != Some(1) {
        let s = t.to_act().unwrap();
        t.act(s, Action::Check);
    }
    t
}

#[test]
fn big_bet_short_all_in_does_not_reopen() {
    for v in ALL {
        for betting in BIG {
            // Seat 1 bets 200; seat 2 (300 behind) raises all-in to 300, short of a full raise.
            let mut t = fourth_in_seat_order(v, betting, [5000, 300, 5000]);
            let first = t.hand.street();
            t.act(1, Action::Bet { to: 200 });
            assert_eq!(entry(&t, 2)[2], ranged(Action::Raise { to: 300 }, 300, 300), "{v} {betting}");
            t.act(2, Action::Raise { to: 300 });
            // Seat 3 has not acted: it may raise, by the last full increment on top: 500.
            let r = t.hand.legal().range().unwrap();
            assert_eq!(r.1, 500, "{v} {betting}");
            t.act(3, Action::Call);
            // Seat 1 has acted and faces only a short raise: call or fold. (Players who checked
            // before seat 1's bet are in the same position.)
            assert_eq!(t.to_act(), Some(1));
            assert_eq!(t.legal(1), vec![Action::Fold, Action::Call], "{v} {betting}");
            assert!(matches!(t.refuse(1, Action::Raise { to: 500 }), ActionError::Illegal { .. }));
            t.act(1, Action::Call);
            assert_ne!(t.hand.street(), first, "{v} {betting}");
        }
    }
}

#[test]
fn big_bet_short_all_ins_that_together_make_a_full_raise_reopen() {
    for v in ALL {
        // 200 -> 300 -> 400: two short all-ins adding 200 together, a full raise.
        let config = cfg(v).with_betting(Betting::NoLimit);
        let seats = [(1, 5090), (2, 390), (3, 490), (4, 5090)];
        let mut t = start(config, &seats, &["Ac Ad 9s", "Kc Kd 9h", "Qc Qd 9d", "Jc Jd 9c"], "");
        let b = t.to_act().unwrap();
        t.act(b, Action::BringIn);
        t.finish_street(Street::Third, Action::Call);
        while t.to_act() != Some(1) {
            let s = t.to_act().unwrap();
            t.act(s, Action::Check);
        }
        t.act(1, Action::Bet { to: 200 });
        t.act(2, Action::Raise { to: 300 });
        t.act(3, Action::Raise { to: 400 });
        t.act(4, Action::Call);
        // Reopened: seat 1 may raise, by at least the 200 the two made together.
        assert_eq!(t.hand.legal().range().map(|r| r.1), Some(600), "{v}");
        assert_eq!(t.legal(1)[..2], [Action::Fold, Action::Call]);
    }
}

#[test]
fn big_bet_all_in_below_the_minimum_bet_is_called_or_raised_by_the_minimum() {
    for v in ALL {
        let mut t = fourth_in_seat_order(v, Betting::PotLimit, [60, 5000, 5000]);
        // Seat 1 has 60: its only bet is all-in for 60.
        assert_eq!(entry(&t, 1), vec![plain(Action::Check), ranged(Action::Bet { to: 60 }, 60, 60)], "{v}");
        t.act(1, Action::Bet { to: 60 });
        // Seat 2 may call 60 or raise to 60 + 200.
        assert_eq!(t.hand.legal().range().map(|r| r.1), Some(260), "{v}");
        t.act(2, Action::Raise { to: 260 });
        t.act(3, Action::Call);
        // Uncalled nothing: seat 1's 60 is matched; the side pot is 2 x 200.
        let pots = t.hand.pots();
        assert_eq!(pots.len(), 2, "{v}");
        assert_eq!(pots[1].amount, 400, "{v}");
    }
}

#[test]
fn big_bet_uncalled_part_of_an_all_in_goes_back() {
    for v in ALL {
        let mut t = fourth_in_seat_order(v, Betting::NoLimit, [5000, 700, 0]);
        // Seat 3 has nothing left: only seats 1 and 2 bet.
        t.act(1, Action::Bet { to: 5000 });
        t.act(2, Action::Call);
        let returned: Chips = t
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Uncalled { seat: s, amount } if *s == seat(1) => Some(*amount),
                _ => None,
            })
            .sum();
        assert_eq!(returned, 4300, "{v}");
        t.check_down();
        assert!(t.hand.is_over());
    }
}

#[test]
fn big_bet_has_no_open_pair_option_and_no_completion() {
    // Fixed limit on a 4th street with an open pair offers both sizes; big-bet stud offers one
    // range from the minimum bet.
    for v in HIGH {
        let config = cfg(v).with_betting(Betting::PotLimit);
        let mut t = start(config, &[(1, 5000), (2, 5000)], &["Ac Kd 9s", "Kc Qd 2h"], "9h 3c");
        let b = t.to_act().unwrap();
        assert!(!t.legal(b).iter().any(|a| matches!(a, Action::Complete { .. })));
        t.act(b, Action::BringIn);
        t.finish_street(Street::Third, Action::Call);
        assert_eq!(t.hand.street(), Street::Fourth);
        let f = t.to_act().unwrap();
        assert_eq!(f, 1, "the open nines act first");
        // The pot (180) is below the minimum bet: the minimum stands, and is the whole range.
        assert_eq!(t.hand.legal().range().map(|r| (r.1, r.2)), Some((200, 200)), "{v}");
        assert_eq!(t.legal(f), vec![Action::Check, Action::Bet { to: 200 }], "{v}");
    }
}

#[test]
fn big_bet_timeout_and_bots_stay_legal() {
    for v in ALL {
        for betting in BIG {
            let mut inside = 0;
            for k in 0..20u64 {
                let config = cfg(v).with_betting(betting);
                let seats: Vec<(Seat, Chips)> = (1..=5).map(|s| (seat(s), 300 + 700 * Chips::from(s))).collect();
                let mut bots: Vec<crate::bot::Bot> = (0..5).map(|i| crate::bot::Bot::new(k * 8 + i)).collect();
                let (mut hand, _) = Hand::start(config, &seats, Seed([k as u8; 32])).unwrap();
                while let Some(s) = hand.to_act() {
                    let legal = hand.legal();
                    let pick = bots[usize::from(s.number() - 1)].choose_legal(legal);
                    if let (Some((_, min, max)), Some(to)) = (legal.range(), pick.to()) {
                        inside += usize::from(min < to && to < max);
                    }
                    hand.apply(s, pick).unwrap();
                }
            }
            // Bots pick sizes inside the range, not only its ends.
            assert!(inside > 0, "{v} {betting}");
            let (t, order) = eight(barge(v, betting));
            assert_eq!(t.hand.timeout_action(), Some((seat(order[0]), Action::BringIn)));
        }
    }
}

#[test]
fn big_bet_a_raise_over_a_short_all_in_bet_is_measured_from_it() {
    // RULES.md 10.5, 10.6: seat 1 bets 30 all-in (short of the 50 minimum), seat 2 raises to
    // 80 (30 + 50), and the next raise is at least 80 + 50 = 130: the raise was 50 over the
    // bet it raised, not 80 over nothing. Found by the PokerKit cross-check
    // (scripts/pokerkit_check.py --stud), which allows 130 as the rule book does.
    for v in HIGH {
        for betting in BIG {
            let config = TableConfig::new(v, 10, 25, 50, 100).with_betting(betting);
            let mut t = start(
                config,
                &[(1, 65), (2, 1000), (3, 1000)],
                &["7s 8s Ah", "9d 9c Kd", "Jc Qc 2c"],
                "As 3d 4c 5h 6h 7h Th Jh Qh 2d 3s 4s",
            );
            t.act(3, Action::BringIn);
            t.act(1, Action::Call);
            t.act(2, Action::Call);
            assert_eq!(t.to_act(), Some(1), "{v} {betting}: the open aces act first");
            t.act(1, Action::Bet { to: 30 });
            assert_eq!(t.hand.legal().range().map(|r| r.1), Some(80), "{v} {betting}");
            t.act(2, Action::Raise { to: 80 });
            assert_eq!(t.hand.legal().range().map(|r| r.1), Some(130), "{v} {betting}");
            t.act(3, Action::Raise { to: 130 });
            // The raise to 130 was full: seat 2 may raise again, by at least 50.
            assert_eq!(t.hand.legal().range().map(|r| r.1), Some(180), "{v} {betting}");
            t.act(2, Action::Call);
            assert_eq!(t.hand.street(), Street::Fifth, "{v} {betting}");
        }
    }
}

#[test]
fn big_bet_short_all_ins_reopen_only_for_players_facing_a_full_raise_since_they_acted() {
    // RULES.md 10.6 (TDA): seat 1 bets 200; seat 2 goes all-in to 300 (short); seat 3 calls
    // 300; seat 4 goes all-in to 400: together 200 over seat 1's bet, a full raise for seat 1,
    // but only 100 over what seat 3 matched: seat 1 may raise, seat 3 may only call or fold.
    // Found by the PokerKit cross-check (docs/PHH.md), which agrees.
    for v in ALL {
        let config = cfg(v).with_betting(Betting::NoLimit);
        let seats = [(1, 5090), (2, 390), (3, 5090), (4, 490)];
        let mut t = start(config, &seats, &["Ac Ad 9s", "Kc Kd 9h", "Qc Qd 9d", "Jc Jd 9c"], "");
        let b = t.to_act().unwrap();
        t.act(b, Action::BringIn);
        t.finish_street(Street::Third, Action::Call);
        while t.to_act() != Some(1) {
            let s = t.to_act().unwrap();
            t.act(s, Action::Check);
        }
        t.act(1, Action::Bet { to: 200 });
        t.act(2, Action::Raise { to: 300 });
        t.act(3, Action::Call);
        t.act(4, Action::Raise { to: 400 });
        assert_eq!(t.to_act(), Some(1), "{v}");
        assert!(t.legal(1).iter().any(|a| matches!(a, Action::Raise { .. })), "{v}: seat 1 faces a full raise");
        t.act(1, Action::Call);
        assert_eq!(t.to_act(), Some(3), "{v}");
        assert_eq!(t.legal(3), vec![Action::Fold, Action::Call], "{v}: seat 3 faces only 100 more");
    }
}
