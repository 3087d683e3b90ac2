//! What a client needs to draw a hand comes from the server: the pots with every event that
//! changes them, the amounts of a call and of the bring-in on the prompt, the time bank on
//! everyone's turn frames, and in a snapshot the hand so far (redacted for the viewer).

use stud_engine::{Action, Event, Pot, Variant};
use stud_proto::{ClientMsg, ServerMsg};

use crate::{Player, passive, spawn_app, table_of};

fn total(pots: &[Pot]) -> u64 {
    pots.iter().map(|p| p.amount).sum()
}

#[tokio::test]
async fn pots_amounts_and_the_hand_so_far_come_from_the_server() {
    let (server, addr) = spawn_app(|c| c.time_bank_ms = 5_000).await;
    let table = table_of(&addr, Variant::Stud).await;
    let mut a = Player::new(&addr, "Ann").await;
    let mut b = Player::new(&addr, "Bob").await;
    let mut w = Player::new(&addr, "Wes").await;
    w.send(ClientMsg::JoinTable { request_id: None, table_id: table.id, invite_code: None }).await;
    a.sit(&table, 1).await;
    b.sit(&table, 2).await;

    // The players answer passively and check that each call or bring-in costs what their
    // prompt said; the watcher follows the hand's events and pots.
    let tasks: Vec<_> = [a, b]
        .into_iter()
        .map(|mut p| {
            tokio::spawn(async move {
                let (mut hands, mut checked, mut want) = (0, 0, None);
                while hands < 4 {
                    match p.recv().await {
                        ServerMsg::YourTurn {
                            table_id,
                            seq,
                            hand_id,
                            legal,
                            to_call,
                            bring_in_amount,
                            hand_strength,
                            ..
                        } => {
                            assert_eq!(legal.contains(&Action::Call), to_call.is_some());
                            assert_eq!(legal.contains(&Action::BringIn), bring_in_amount.is_some());
                            assert!(hand_strength.is_some());
                            let action = passive(&legal);
                            want = match action {
                                Action::Call => to_call,
                                Action::BringIn => bring_in_amount,
                                _ => None,
                            };
                            let idempotency_key = format!("{seq}");
                            p.send(ClientMsg::Act {
                                request_id: None,
                                table_id,
                                hand_id,
                                seq,
                                idempotency_key,
                                action,
                            })
                            .await;
                        }
                        ServerMsg::Event {
                            event: Event::Call { seat, amount, .. } | Event::BringIn { seat, amount, .. },
                            ..
                        } if Some(seat.number()) == p.seat => {
                            assert_eq!(Some(amount), want.take(), "the call or bring-in cost what the prompt said");
                            checked += 1;
                        }
                        ServerMsg::HandResult { .. } => hands += 1,
                        _ => {}
                    }
                }
                (p, checked)
            })
        })
        .collect();
    let mut watched: Vec<Event> = Vec::new();
    let mut pots: Vec<Pot> = Vec::new();
    // the last pots before the award: the ones awarded
    let mut awarded: Vec<Pot> = Vec::new();
    let mut after_hand_checked = 0;
    let mut hand = None;
    let mut turns_with_bank = 0;
    let mut snapshots_checked = 0;
    let mut hands = 0;
    while hands < 3 {
        let msg = w.recv().await;
        match &msg {
            ServerMsg::HandStarted { hand_id, .. } => {
                hand = Some(*hand_id);
                watched.clear();
                pots.clear();
            }
            ServerMsg::Event { hand_id, event, pots: p, .. } if Some(*hand_id) == hand => {
                watched.push(event.clone());
                if let Some(p) = p {
                    pots = p.clone();
                    if !p.is_empty() {
                        awarded = p.clone();
                    }
                }
                if matches!(event, Event::Ante { .. } | Event::Call { .. } | Event::BringIn { .. }) {
                    assert!(p.is_some(), "{event:?} moved chips: its frame has the pots");
                }
                if let Event::HandEnded { .. } = event {
                    assert!(pots.is_empty(), "awarded: no pots left");
                    hands += 1;
                }
            }
            ServerMsg::Turn { time_bank_ms, hand_id, .. } if Some(*hand_id) == hand => {
                turns_with_bank += usize::from(*time_bank_ms > 0);
                // Mid-hand, the watcher asks for a snapshot.
                w.send(ClientMsg::Snapshot { request_id: None, table_id: table.id }).await;
            }
            // Every snapshot of the hand in play has the events the watcher saw, and the pots.
            ServerMsg::Snapshot { table: state, .. } => {
                if let Some(h) = state.hand.as_ref().filter(|h| Some(h.hand_id) == hand && !watched.is_empty()) {
                    assert_eq!(h.events, watched, "the snapshot's events are the ones the watcher saw");
                    if h.view.phase == stud_engine::Phase::Over {
                        // After the hand: the pots as awarded and each seat's total for the hand.
                        assert_eq!(h.pots, awarded, "a finished hand's snapshot keeps the pots awarded");
                        assert_eq!(h.view.pots, awarded);
                        let committed: u64 = h.view.seats.iter().map(|s| s.committed).sum();
                        let won: u64 = h.view.seats.iter().map(|s| s.won).sum();
                        assert_eq!((committed, won), (total(&awarded), total(&awarded)), "{:?}", h.view.seats);
                        after_hand_checked += 1;
                        continue;
                    }
                    assert_eq!(h.pots, pots, "the snapshot's pots are the last ones sent");
                    if !pots.is_empty() {
                        let committed: u64 = h.view.seats.iter().map(|s| s.committed).sum();
                        assert_eq!(total(&h.pots), committed);
                    }
                    snapshots_checked += 1;
                }
            }
            _ => {}
        }
    }
    let mut players = Vec::new();
    let mut calls_checked = 0;
    for t in tasks {
        let (p, checked) = t.await.unwrap();
        calls_checked += checked;
        players.push(p);
    }
    assert!(snapshots_checked >= 3 && calls_checked >= 3, "{snapshots_checked} snapshots, {calls_checked} calls");
    assert!(after_hand_checked >= 2, "{after_hand_checked} snapshots after a hand");
    assert!(turns_with_bank > 0, "turn frames carry the time bank");
    for p in players.iter().chain([&w]) {
        assert!(p.leaks.is_empty(), "{:?}", p.leaks);
    }
    server.shutdown().await;
}
