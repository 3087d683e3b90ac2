//! Big-bet stud over the real API and real sockets (RULES.md 10): an operator opens a pot-limit
//! table (`betting` in the table's settings), players' prompts carry each wager's range
//! (`your_turn.wagers`), sizes anywhere in it are taken, and the chips and the ledger hold.

use stud_client::{http_as, tables};
use stud_engine::bot::Bot;
use stud_engine::{Action, Betting};
use stud_proto::{AdminTable, ClientMsg, ServerMsg, TableSettings};

use crate::play::leave_and_check_chips;
use crate::{Player, spawn_app};

const KEY: &str = "operator-key-for-e2e-0123456789";

#[tokio::test]
async fn a_pot_limit_table_is_opened_played_at_any_size_and_keeps_the_chips() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let settings = TableSettings { betting: Betting::PotLimit, ..crate::stud_table_settings("Pot limit") };
    let body = serde_json::to_string(&settings).unwrap();
    let (status, text) = http_as(&addr, "POST", "/api/admin/tables", Some(&body), Some(KEY)).await.unwrap();
    assert_eq!(status, 201, "{text}");
    let created: AdminTable = serde_json::from_str(&text).unwrap();
    assert_eq!(created.settings.betting, Betting::PotLimit);
    // The lobby line says the structure.
    let table = tables(&addr).await.unwrap().into_iter().find(|t| t.id == created.id).expect("listed");
    assert_eq!(table.config.betting, Betting::PotLimit);

    let mut players = Vec::new();
    for seat in 1..=3 {
        let mut p = Player::new(&addr, &format!("b{seat}")).await;
        p.sit(&table, seat).await;
        players.push(p);
    }
    let mut tasks = Vec::new();
    for (k, mut p) in players.into_iter().enumerate() {
        tasks.push(tokio::spawn(async move {
            let mut bot = Bot::new(90 + k as u64);
            let (mut results, mut ranged, mut between, mut key) = (0, 0, 0, 0u64);
            while results < 4 {
                match p.recv().await {
                    ServerMsg::HandResult { stacks, .. } => {
                        results += 1;
                        // Pot limit can bust two of the three in one hand: no hand can follow.
                        if stacks.iter().filter(|(_, chips)| *chips > 0).count() < 2 {
                            break;
                        }
                    }
                    ServerMsg::YourTurn { table_id, seq, hand_id, legal, wagers, .. } => {
                        ranged += usize::from(!wagers.is_empty());
                        let action = bot.choose_sized(&legal, &wagers);
                        // A size strictly inside a range: something fixed limit never sends.
                        let inside = |to| {
                            wagers.iter().any(|w| w.min_to.is_some_and(|m| m < to) && w.max_to.is_some_and(|m| to < m))
                        };
                        if let Action::Bet { to } | Action::Raise { to } | Action::Complete { to } = action {
                            between += usize::from(inside(to));
                        }
                        key += 1;
                        let request_id = Some(format!("a{key}"));
                        p.send(ClientMsg::Act {
                            request_id: request_id.clone(),
                            table_id,
                            hand_id,
                            seq,
                            idempotency_key: format!("{k}-{key}"),
                            action,
                        })
                        .await;
                    }
                    ServerMsg::Error { code, message, .. } => panic!("refused {code:?}: {message}"),
                    _ => {}
                }
            }
            (p, ranged, between)
        }));
    }
    let (mut players, mut ranged, mut between) = (Vec::new(), 0, 0);
    for t in tasks {
        let (p, r, b) = t.await.unwrap();
        assert!(p.leaks.is_empty(), "{:?}", p.leaks);
        players.push(p);
        ranged += r;
        between += b;
    }
    assert!(ranged > 5, "{ranged} prompts with ranges");
    assert!(between > 0, "no size inside a range was sent");
    leave_and_check_chips(&server, &mut players, table.id).await;
    // The stored hands name the structure (PHH code P7S).
    assert!(server.app.writer.flush().await);
    let hands = server.app.store.session_hands(players[0].session_id, players[0].player_id, 10).await.unwrap();
    assert!(!hands.is_empty());
    assert!(hands.iter().all(|h| h.record.config.betting == Betting::PotLimit && h.record.config.phh_code() == "P7S"));
    // An operator changes the structure like any setting; a structure that does not exist is a 400.
    let path = format!("/api/admin/tables/{}", table.id);
    let (status, text) = http_as(&addr, "PATCH", &path, Some(r#"{"betting":"no_limit"}"#), Some(KEY)).await.unwrap();
    assert_eq!(status, 200, "{text}");
    let changed: AdminTable = serde_json::from_str(&text).unwrap();
    assert_eq!(changed.settings.betting, Betting::NoLimit);
    let (status, text) =
        http_as(&addr, "PATCH", &path, Some(r#"{"betting":"spread_limit"}"#), Some(KEY)).await.unwrap();
    assert_eq!(status, 400, "{text}");
    server.shutdown().await;
}

/// Issue 29, a rotation may mix games and structures: an operator opens a table that rotates
/// London Lowball at pot limit, the declare game at fixed limit, Mississippi at no limit and
/// Chicago (the table's pot limit), one hand each; the lobby line names the next game and its
/// structure; players call down (declarations included); each stored hand is the game and structure
/// its number calls for, and the chips hold. A list without the table's game is a 400.
#[tokio::test]
async fn a_rotation_mixes_games_and_structures_over_the_api() {
    use stud_engine::Variant;
    use stud_proto::RotationGame;
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let games = [
        (Variant::London, Betting::PotLimit),
        (Variant::Stud8Declare, Betting::FixedLimit),
        (Variant::Mississippi, Betting::NoLimit),
        (Variant::Chicago, Betting::PotLimit),
    ];
    let settings = TableSettings {
        variant: Variant::London,
        betting: Betting::PotLimit,
        rotation_hands: Some(1),
        rotation_games: Some(vec![
            RotationGame { variant: Variant::London, betting: None },
            RotationGame { variant: Variant::Stud8Declare, betting: Some(Betting::FixedLimit) },
            RotationGame { variant: Variant::Mississippi, betting: Some(Betting::NoLimit) },
            RotationGame { variant: Variant::Chicago, betting: None },
        ]),
        ..crate::stud_table_settings("Mixed")
    };
    let bad = TableSettings { variant: Variant::Stud, ..settings.clone() };
    let body = serde_json::to_string(&bad).unwrap();
    let (status, text) = http_as(&addr, "POST", "/api/admin/tables", Some(&body), Some(KEY)).await.unwrap();
    assert_eq!(status, 400, "{text}");
    let body = serde_json::to_string(&settings).unwrap();
    let (status, text) = http_as(&addr, "POST", "/api/admin/tables", Some(&body), Some(KEY)).await.unwrap();
    assert_eq!(status, 201, "{text}");
    let created: AdminTable = serde_json::from_str(&text).unwrap();
    assert_eq!(created.settings.rotation_games, settings.rotation_games);
    let table = tables(&addr).await.unwrap().into_iter().find(|t| t.id == created.id).expect("listed");
    assert_eq!((table.variant, table.config.betting), games[0]);
    assert_eq!((table.next_variant, table.next_betting), (Some(games[1].0), Some(games[1].1)));
    assert_eq!(table.hands_to_next_variant, Some(1));

    let mut players = Vec::new();
    for seat in 1..=3 {
        let mut p = Player::new(&addr, &format!("m{seat}")).await;
        p.sit(&table, seat).await;
        players.push(p);
    }
    let mut tasks = Vec::new();
    for (k, mut p) in players.into_iter().enumerate() {
        tasks.push(tokio::spawn(async move {
            let mut bot = Bot::new(190 + k as u64);
            let (mut results, mut key) = (0, 0u64);
            // Until 6 results, or no message for 8 s (a table short of players deals no more):
            // the stored hands are checked below.
            while results < 6 {
                let Ok(msg) = tokio::time::timeout(std::time::Duration::from_secs(8), p.recv()).await else { break };
                match msg {
                    ServerMsg::HandResult { .. } => results += 1,
                    ServerMsg::YourTurn { table_id, seq, hand_id, legal, wagers, .. } => {
                        key += 1;
                        // Calls and checks (nobody busts, every hand reaches the showdown);
                        // the bot declares.
                        let declare = legal.iter().any(|a| matches!(a, Action::Declare { .. }));
                        let action = if declare { bot.choose_sized(&legal, &wagers) } else { crate::passive(&legal) };
                        let request_id = Some(format!("m{key}"));
                        let idempotency_key = format!("{k}-{key}");
                        p.send(ClientMsg::Act { request_id, table_id, hand_id, seq, idempotency_key, action }).await;
                    }
                    ServerMsg::Error { code, message, .. } => panic!("refused {code:?}: {message}"),
                    _ => {}
                }
            }
            p
        }));
    }
    let mut players = Vec::new();
    for t in tasks {
        let p = t.await.unwrap();
        assert!(p.leaks.is_empty(), "{:?}", p.leaks);
        players.push(p);
    }
    leave_and_check_chips(&server, &mut players, table.id).await;
    assert!(server.app.writer.flush().await);
    // Every player's hands (a player may bust and sit out), each hand once.
    let mut by_number = std::collections::BTreeMap::new();
    for p in &players {
        for h in server.app.store.session_hands(p.session_id, p.player_id, 20).await.unwrap() {
            by_number.insert(h.number, h);
        }
    }
    let hands: Vec<_> = by_number.into_values().collect();
    let dealt: Vec<(u64, Variant, Betting)> =
        hands.iter().map(|h| (h.number, h.record.config.variant, h.record.config.betting)).collect();
    assert!(hands.len() >= 4, "{dealt:?}");
    for h in &hands {
        let want = games[((h.number - 1) % 4) as usize];
        assert_eq!((h.record.config.variant, h.record.config.betting), want, "hand {}", h.number);
        assert_eq!(h.record.config.open_pair_big_bet, !want.0.is_razz_like(), "hand {}", h.number);
    }
    let seen: std::collections::BTreeSet<u64> = hands.iter().map(|h| (h.number - 1) % 4).collect();
    assert_eq!(seen.len(), 4, "every game of the rotation was dealt: {dealt:?}");
    server.shutdown().await;
}

/// Issue 30 item 8: an operator changes a mixed table's rotation over the API. Before its
/// first hand the new rotation starts at once; a list that leaves the table's game out starts
/// at its own first game; the lobby line follows; the settings read back; a body of the wrong
/// type is refused with the field named.
#[tokio::test]
async fn an_operator_changes_a_rotation_over_the_api() {
    use stud_engine::Variant;
    use stud_proto::RotationGame;
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let settings =
        TableSettings { variant: Variant::Razz, rotation_hands: Some(8), ..crate::stud_table_settings("Mixed") };
    let body = serde_json::to_string(&settings).unwrap();
    let (status, text) = http_as(&addr, "POST", "/api/admin/tables", Some(&body), Some(KEY)).await.unwrap();
    assert_eq!(status, 201, "{text}");
    let created: AdminTable = serde_json::from_str(&text).unwrap();
    let path = format!("/api/admin/tables/{}", created.id);
    let patch = r#"{"rotation_hands": 1, "rotation_games": [{"variant": "stud8"}, {"variant": "stud", "betting": "fixed_limit"}]}"#;
    let (status, text) = http_as(&addr, "PATCH", &path, Some(patch), Some(KEY)).await.unwrap();
    assert_eq!(status, 200, "{text}");
    let changed: AdminTable = serde_json::from_str(&text).unwrap();
    assert_eq!((changed.settings.variant, changed.settings.rotation_hands), (Variant::Stud8, Some(1)));
    assert_eq!(
        changed.settings.rotation_games,
        Some(vec![
            RotationGame { variant: Variant::Stud8, betting: None },
            RotationGame { variant: Variant::Stud, betting: Some(Betting::FixedLimit) }
        ])
    );
    let table = tables(&addr).await.unwrap().into_iter().find(|t| t.id == created.id).expect("listed");
    assert_eq!(
        (table.variant, table.next_variant, table.hands_to_next_variant),
        (Variant::Stud8, Some(Variant::Stud), Some(1))
    );
    // A list that leaves out a stud game for razz and london: razz has no open-pair option,
    // so the table's stud setting does not go with it.
    let patch = r#"{"rotation_games": [{"variant": "razz"}, {"variant": "london"}]}"#;
    let (status, text) = http_as(&addr, "PATCH", &path, Some(patch), Some(KEY)).await.unwrap();
    assert_eq!(status, 200, "{text}");
    let changed: AdminTable = serde_json::from_str(&text).unwrap();
    assert_eq!((changed.settings.variant, changed.settings.open_pair_big_bet), (Variant::Razz, Some(false)));
    // The wrong type: 400 naming the field.
    let (status, text) = http_as(&addr, "PATCH", &path, Some(r#"{"rotation_hands": "two"}"#), Some(KEY)).await.unwrap();
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("rotation_hands: invalid type: string"), "{text}");
    let (status, text) =
        http_as(&addr, "PATCH", &path, Some(r#"{"rotation_games": [{"variant": "stud", "betting": 3}]}"#), Some(KEY))
            .await
            .unwrap();
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("rotation_games[0].betting: invalid type: integer"), "{text}");
    server.shutdown().await;
}
