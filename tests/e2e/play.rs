//! Whole hands over real sockets: every variant, 2 to 8 players; chips conserved; reconnect
//! mid-hand; the clock; a client that stops reading; LAST HAND.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::time::{Duration, Instant};

use stud_engine::{Action, Event, Variant};
use stud_proto::{ClientMsg, ErrorCode, ServerMsg};
use stud_server::Server;
use uuid::Uuid;

use crate::{Player, WAIT, passive, spawn_app, table_of};

/// Plays `hands` hands, from the first one any of the players saw dealt, until every player
/// knows them over; picks random legal actions. A player whose queue overflowed misses frames
/// (a hand's start or result among them) and catches up from a snapshot, so hands are counted
/// by number: a result, a snapshot or the next deal says which hands are over.
pub async fn play(players: Vec<Player>, hands: u64, seed: u64) -> Vec<Player> {
    // the number of the first hand played, as the earliest of the players saw it
    let start = Arc::new(AtomicU64::new(u64::MAX));
    let mut tasks = Vec::new();
    for (k, mut p) in players.into_iter().enumerate() {
        let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(k as u64 + 1) | 1;
        let start = start.clone();
        tasks.push(tokio::spawn(async move {
            // the highest hand number known over, and the numbers of the hands seen
            let mut over = 0u64;
            let mut numbers = HashMap::new();
            let mut key = 0u64;
            // a snapshot came during play: a prompt may have come twice (before the player
            // lagged, and with the snapshot), so one action may be refused as stale
            let mut caught_up = false;
            while over < start.load(SeqCst).saturating_add(hands - 1) {
                match p.recv().await {
                    ServerMsg::HandStarted { hand_id, number, .. } => {
                        start.fetch_min(number, SeqCst);
                        numbers.insert(hand_id, number);
                        over = over.max(number.saturating_sub(1));
                    }
                    ServerMsg::Snapshot { table, .. } => {
                        caught_up = true;
                        if let Some(h) = table.hand {
                            numbers.insert(h.hand_id, h.number);
                            if h.events.iter().any(|e| matches!(e, Event::HandEnded { .. })) {
                                over = over.max(h.number);
                                start.fetch_min(h.number + 1, SeqCst);
                            } else {
                                over = over.max(h.number.saturating_sub(1));
                                start.fetch_min(h.number, SeqCst);
                            }
                        }
                    }
                    ServerMsg::HandResult { hand_id, .. } => {
                        if let Some(n) = numbers.get(&hand_id) {
                            over = over.max(*n);
                        }
                    }
                    ServerMsg::Error { code: ErrorCode::Stale, .. } if caught_up => {}
                    ServerMsg::YourTurn { table_id, seq, hand_id, legal, .. } => {
                        rng ^= rng << 13;
                        rng ^= rng >> 7;
                        rng ^= rng << 17;
                        // Mostly passive so hands reach showdown; some aggression and folds.
                        let roll = rng % 10;
                        let action = if roll < 2 {
                            legal.iter().copied().find(|a| a.to().is_some())
                        } else if roll < 3 {
                            legal.iter().copied().find(|a| *a == Action::Fold || *a == Action::Muck)
                        } else {
                            None
                        }
                        .unwrap_or_else(|| passive(&legal));
                        key += 1;
                        p.send(ClientMsg::Act {
                            request_id: None,
                            table_id,
                            hand_id,
                            seq,
                            idempotency_key: format!("{k}-{key}"),
                            action,
                        })
                        .await;
                    }
                    ServerMsg::Error { code, message, .. } => panic!("unexpected error {code:?}: {message}"),
                    _ => {}
                }
            }
            p
        }));
    }
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.unwrap());
    }
    out
}

/// Everyone leaves; then every chip ever issued is back in the balances, in memory and in the
/// database's ledger.
pub async fn leave_and_check_chips(server: &Server, players: &mut [Player], table_id: Uuid) {
    for p in players.iter_mut() {
        p.send(ClientMsg::Leave { request_id: None, table_id }).await;
    }
    let bank = &server.app.bank;
    let deadline = Instant::now() + WAIT;
    while bank.total_balances() != bank.issued() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(bank.total_balances(), bank.issued(), "chips lost or created");
    assert!(server.app.writer.flush().await);
    let totals = server.app.store.totals().await.unwrap();
    assert!(totals.conserved(), "ledger: {totals:?}");
    assert_eq!(totals.on_tables, 0, "ledger: {totals:?}");
}

#[tokio::test]
async fn every_variant_two_to_eight_players_full_hands_no_leaks_chips_conserved() {
    let (server, addr) = spawn_app(|_| {}).await;
    for (variant, n) in [(Variant::Stud, 8), (Variant::Stud8, 5), (Variant::Razz, 2), (Variant::Stud, 3)] {
        let table = table_of(&addr, variant).await;
        let mut players = Vec::new();
        for seat in 1..=n {
            let mut p = Player::new(&addr, &format!("p{seat}")).await;
            p.sit(&table, seat).await;
            players.push(p);
        }
        let mut players = play(players, 6, u64::from(n)).await;
        for p in &players {
            assert!(p.leaks.is_empty(), "{:?}", p.leaks);
            assert!(p.frames > 50, "{variant:?}: only {} frames", p.frames);
        }
        leave_and_check_chips(&server, &mut players, table.id).await;
    }
    // The hands were counted (24 hand results were seen above).
    assert!(server.app.metrics.hands.load(std::sync::atomic::Ordering::Relaxed) >= 24);
    server.shutdown().await;
}

#[tokio::test]
async fn observers_see_up_cards_only() {
    let (server, addr) = spawn_app(|_| {}).await;
    let table = table_of(&addr, Variant::Stud8).await;
    let mut watcher = Player::new(&addr, "watcher").await;
    watcher.send(ClientMsg::JoinTable { request_id: None, table_id: table.id, invite_code: None }).await;
    watcher.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
    let mut players = Vec::new();
    for seat in [2, 6] {
        let mut p = Player::new(&addr, "p").await;
        p.sit(&table, seat).await;
        players.push(p);
    }
    let watch = tokio::spawn(async move {
        let mut downs = 0;
        let mut results = 0;
        while results < 3 {
            match watcher.recv().await {
                ServerMsg::Event { event: Event::Dealt { up: false, card, .. }, .. } => {
                    assert!(card.is_none(), "an observer saw a down card");
                    downs += 1;
                }
                ServerMsg::HandResult { .. } => results += 1,
                _ => {}
            }
        }
        assert!(watcher.leaks.is_empty());
        downs
    });
    let mut players = play(players, 3, 9).await;
    assert!(watch.await.unwrap() >= 12);
    leave_and_check_chips(&server, &mut players, table.id).await;
    server.shutdown().await;
}

#[tokio::test]
async fn reconnect_mid_hand_gets_the_seat_back_and_can_act_at_once() {
    let (server, addr) = spawn_app(|c| c.action_timeout_ms = 10_000).await;
    let table = table_of(&addr, Variant::Stud).await;
    let mut a = Player::new(&addr, "a").await;
    let mut b = Player::new(&addr, "b").await;
    a.sit(&table, 1).await;
    b.sit(&table, 2).await;
    // Whoever is prompted first drops the connection instead of acting.
    // Each player gets exactly one of `your_turn` / `turn` for the first prompt: no race.
    let first = a.until(|m| matches!(m, ServerMsg::YourTurn { .. } | ServerMsg::Turn { .. })).await;
    let (gone, mut other) = match first {
        ServerMsg::YourTurn { .. } => (a, b),
        _ => (b, a),
    };
    let token = gone.token.clone();
    let (seat, session_id, player_id) = (gone.seat, gone.session_id, gone.player_id);
    gone.client.close().await;
    // The other player is not affected.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (client, _) = stud_client::Client::connect(&addr, &token).await.unwrap();
    let mut back = Player { client, token, session_id, player_id, seat, frames: 0, leaks: Vec::new(), last_seq: 0 };
    // A snapshot with the own down cards, then the prompt again.
    let snap = back.until(|m| matches!(m, ServerMsg::Snapshot { .. })).await;
    let ServerMsg::Snapshot { table: state, .. } = snap else { unreachable!() };
    assert_eq!(state.your_seat, seat);
    let hand = state.hand.expect("a hand in play");
    let me = hand.view.seats.iter().find(|s| Some(s.seat.number()) == seat).unwrap();
    assert!(me.cards.iter().all(|c| c.card.is_some()), "own cards visible after reconnect");
    let prompt = back.until(|m| matches!(m, ServerMsg::YourTurn { .. })).await;
    let ServerMsg::YourTurn { seq, hand_id, legal, .. } = prompt else { unreachable!() };
    let action = legal[0];
    back.send(ClientMsg::Act {
        request_id: None,
        table_id: table.id,
        hand_id,
        seq,
        idempotency_key: "r1".into(),
        action,
    })
    .await;
    // The action shows up for the other player.
    other
        .until(|m| matches!(m, ServerMsg::Event { event, .. } if matches!(event, Event::BringIn { .. } | Event::Complete { .. } | Event::Call { .. } | Event::Fold { .. } | Event::Check { .. } | Event::Bet { .. } | Event::Raise { .. })))
        .await;
    assert!(server.app.metrics.render(server.app.writer.stats()).contains("stud_reconnects_total 1"));
    let mut players = vec![back, other];
    leave_and_check_chips(&server, &mut players, table.id).await;
    server.shutdown().await;
}

#[tokio::test]
async fn the_clock_acts_for_a_silent_player_and_sits_them_out_after_a_fold() {
    let (server, addr) = spawn_app(|c| {
        c.action_timeout_ms = 300;
        c.time_bank_ms = 0;
    })
    .await;
    let table = table_of(&addr, Variant::Razz).await;
    let mut silent = Player::new(&addr, "silent").await;
    let mut active = Player::new(&addr, "active").await;
    silent.sit(&table, 3).await;
    active.sit(&table, 4).await;
    // `active` always acts aggressively when it can so `silent` faces bets and is folded.
    let run = tokio::spawn(async move {
        let mut folded_by_clock = false;
        let deadline = Instant::now() + WAIT;
        while !folded_by_clock && Instant::now() < deadline {
            match active.recv().await {
                ServerMsg::YourTurn { table_id, seq, hand_id, legal, .. } => {
                    let action = legal.iter().copied().find(|a| a.to().is_some()).unwrap_or(legal[0]);
                    active
                        .send(ClientMsg::Act {
                            request_id: None,
                            table_id,
                            hand_id,
                            seq,
                            idempotency_key: format!("{seq}"),
                            action,
                        })
                        .await;
                }
                ServerMsg::Event { event: Event::Fold { seat }, .. } if seat.number() == 3 => folded_by_clock = true,
                _ => {}
            }
        }
        (active, folded_by_clock)
    });
    let (mut active, folded) = run.await.unwrap();
    assert!(folded, "the clock never folded the silent player");
    // After the hand the silent player is sitting out.
    let snap = active
        .until(|m| matches!(m, ServerMsg::Snapshot { table, .. } if table.seats.iter().any(|s| s.seat == 3 && s.sitting_out)))
        .await;
    assert!(matches!(snap, ServerMsg::Snapshot { .. }));
    assert!(!server.app.metrics.render(server.app.writer.stats()).contains("stud_timeouts_total 0"));
    let mut players = vec![silent, active];
    leave_and_check_chips(&server, &mut players, table.id).await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_client_that_stops_reading_does_not_stop_the_table() {
    let (server, addr) = spawn_app(|c| c.outbound_queue = 8).await;
    let table = table_of(&addr, Variant::Stud).await;
    let mut players = Vec::new();
    for seat in 1..=3 {
        let mut p = Player::new(&addr, "p").await;
        p.sit(&table, seat).await;
        players.push(p);
    }
    // A fourth client watches and never reads again.
    let mut slow = Player::new(&addr, "slow").await;
    slow.send(ClientMsg::JoinTable { request_id: None, table_id: table.id, invite_code: None }).await;
    let mut players = play(players, 8, 77).await;
    for p in &players {
        assert!(p.leaks.is_empty());
    }
    leave_and_check_chips(&server, &mut players, table.id).await;
    drop(slow);
    server.shutdown().await;
}

#[tokio::test]
async fn last_hand_reports_the_session_hands_with_showdown_cards() {
    let (server, addr) = spawn_app(|_| {}).await;
    let table = table_of(&addr, Variant::Stud).await;
    let mut players = Vec::new();
    for seat in [1, 2, 3] {
        let mut p = Player::new(&addr, "p").await;
        p.sit(&table, seat).await;
        players.push(p);
    }
    let mut players = play(players, 5, 3).await;
    let p = &mut players[0];
    p.send(ClientMsg::LastHands { request_id: Some("lh".into()) }).await;
    let list = p.until(|m| matches!(m, ServerMsg::LastHands { .. })).await;
    let ServerMsg::LastHands { hands, .. } = list else { unreachable!() };
    assert!(hands.len() >= 5, "{}", hands.len());
    assert!(hands.windows(2).all(|w| w[0].number > w[1].number), "newest first");
    let mut saw_showdown = false;
    for h in &hands {
        p.send(ClientMsg::LastHand { request_id: None, hand_id: h.hand_id }).await;
        let ServerMsg::LastHand { report, .. } = p.until(|m| matches!(m, ServerMsg::LastHand { .. })).await else {
            unreachable!()
        };
        // The seed would reveal the folded players' cards: players get the commitment only.
        assert!(report.seed.is_none() && report.commitment.is_some(), "commitment only");
        // The hand's totals: what each seat put in, the pots as awarded, what was won.
        let committed: u64 = report.view.seats.iter().map(|s| s.committed).sum();
        let won: u64 = report.view.seats.iter().map(|s| s.won).sum();
        let pots: u64 = report.view.pots.iter().map(|p| p.amount).sum();
        assert!(committed > 0 && committed == pots && won == pots, "{:?} {:?}", report.view.seats, report.view.pots);
        let me = report.view.seats.iter().find(|s| Some(s.seat.number()) == p.seat).unwrap();
        assert_eq!(
            i64::try_from(me.won).unwrap() - i64::try_from(me.committed).unwrap(),
            h.net,
            "net = won - committed"
        );
        for s in &report.view.seats {
            let visible_down = s.cards.iter().filter(|c| !c.up && c.card.is_some()).count();
            let live_at_showdown =
                report.events.iter().any(|e| matches!(e, Event::Showdown { order } if order.contains(&s.seat)));
            if live_at_showdown {
                saw_showdown = true;
                assert_eq!(visible_down, s.cards.iter().filter(|c| !c.up).count(), "showdown cards are all shown");
            } else if Some(s.seat.number()) != p.seat {
                assert_eq!(visible_down, 0, "a folded player's down cards are hidden");
            }
        }
    }
    assert!(saw_showdown, "no showdown in 5 passive hands");
    p.send(ClientMsg::LastHand { request_id: Some("x".into()), hand_id: Uuid::new_v4() }).await;
    let err = p.until(|m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(matches!(err, ServerMsg::Error { code: stud_proto::ErrorCode::UnknownHand, .. }));
    leave_and_check_chips(&server, &mut players, table.id).await;
    server.shutdown().await;
}

/// A heads-up hand played to the end; broadcast sequence numbers have no gaps for either
/// player. With `PRINT_FRAMES=1` it prints every frame (the source of proto/PROTOCOL.md).
#[tokio::test]
async fn sequence_numbers_are_contiguous_through_a_hand() {
    let (server, addr) = spawn_app(|_| {}).await;
    let table = table_of(&addr, Variant::Stud).await;
    let mut a = Player::new(&addr, "Ann").await;
    let mut b = Player::new(&addr, "Bob").await;
    a.sit(&table, 1).await;
    b.sit(&table, 2).await;
    let print = std::env::var_os("PRINT_FRAMES").is_some();
    let mut tasks = Vec::new();
    for (k, mut p) in [a, b].into_iter().enumerate() {
        tasks.push(tokio::spawn(async move {
            let mut last: Option<u64> = None;
            let mut results = 0;
            while results < 2 {
                let msg = p.recv().await;
                if print {
                    println!("seat {} <- {}", k + 1, serde_json::to_string(&msg).unwrap());
                }
                let seq = match &msg {
                    ServerMsg::Event { seq, .. }
                    | ServerMsg::HandStarted { seq, .. }
                    | ServerMsg::YourTurn { seq, .. }
                    | ServerMsg::Turn { seq, .. }
                    | ServerMsg::HandResult { seq, .. } => Some(*seq),
                    ServerMsg::Snapshot { seq, .. } => {
                        last = Some(*seq);
                        None
                    }
                    _ => None,
                };
                if let Some(seq) = seq {
                    if let Some(l) = last {
                        assert_eq!(seq, l + 1, "gap in broadcasts");
                    }
                    last = Some(seq);
                }
                match msg {
                    ServerMsg::YourTurn { table_id, seq, hand_id, legal, .. } => {
                        let action = passive(&legal);
                        let act = ClientMsg::Act {
                            request_id: Some(format!("r{seq}")),
                            table_id,
                            hand_id,
                            seq,
                            idempotency_key: format!("{k}-{seq}"),
                            action,
                        };
                        if print {
                            println!("seat {} -> {}", k + 1, serde_json::to_string(&act).unwrap());
                        }
                        p.send(act).await;
                    }
                    ServerMsg::HandResult { .. } => results += 1,
                    _ => {}
                }
            }
            p
        }));
    }
    let mut players = Vec::new();
    for t in tasks {
        players.push(t.await.unwrap());
    }
    leave_and_check_chips(&server, &mut players, table.id).await;
    server.shutdown().await;
}
