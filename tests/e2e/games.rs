//! The four games of RULES.md 11 to 14 over the real API and real sockets: an operator opens a
//! table of each (and the declare game in pot limit too), players play full hands, every frame
//! is audited for leaked cards and declarations, the chips and the ledger hold, and the stored
//! hands come back from the history API as PHH with the game's code.

use stud_client::{http_as, tables};
use stud_engine::{Betting, Variant};
use stud_proto::{AdminTable, TableSettings};

use crate::play::{leave_and_check_chips, play};
use crate::{Player, spawn_app};

const KEY: &str = "operator-key-for-e2e-0123456789";

#[tokio::test]
async fn every_new_game_is_played_over_sockets_with_nothing_leaked_and_chips_conserved() {
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let games = [
        (Variant::London, Betting::FixedLimit),
        (Variant::Stud8Declare, Betting::FixedLimit),
        (Variant::Stud8Declare, Betting::PotLimit),
        (Variant::Chicago, Betting::FixedLimit),
        (Variant::Mississippi, Betting::NoLimit),
    ];
    for (k, (variant, betting)) in games.into_iter().enumerate() {
        let settings = TableSettings { variant, betting, ..crate::stud_table_settings(&format!("{variant} {k}")) };
        let body = serde_json::to_string(&settings).unwrap();
        let (status, text) = http_as(&addr, "POST", "/api/admin/tables", Some(&body), Some(KEY)).await.unwrap();
        assert_eq!(status, 201, "{variant}: {text}");
        let created: AdminTable = serde_json::from_str(&text).unwrap();
        // The lobby line names the game and the structure.
        let table = tables(&addr).await.unwrap().into_iter().find(|t| t.id == created.id).expect("listed");
        assert_eq!((table.config.variant, table.config.betting), (variant, betting));
        let mut players = Vec::new();
        for seat in 1..=3 {
            let mut p = Player::new(&addr, &format!("g{k}{seat}")).await;
            p.sit(&table, seat).await;
            players.push(p);
        }
        let mut players = play(players, 6, 40 + k as u64).await;
        for p in &players {
            assert!(p.leaks.is_empty(), "{variant}: {:?}", p.leaks);
            assert!(p.frames > 50, "{variant}: only {} frames", p.frames);
        }
        leave_and_check_chips(&server, &mut players, table.id).await;
        // Stored, and read back as PHH with the game's code.
        let path = format!("/api/hands?table={}&limit=100&format=phh", table.id);
        let (status, text) = http_as(&addr, "GET", &path, None, Some(KEY)).await.unwrap();
        assert_eq!(status, 200, "{variant}: {text:.300}");
        let code = stud_engine::TableConfig::new(variant, 1, 2, 4, 8).with_betting(betting).phh_code();
        assert!(text.contains(&format!("variant = \"{code}\"")), "{variant}: {text:.300}");
        // Every stored hand replays through the reader, as `stud replay` would.
        let hands = stud_engine::phh::read(&text).unwrap();
        assert!(hands.len() >= 5, "{variant}: {} hands stored", hands.len());
        for (name, hand) in hands {
            assert!(hand.is_ok(), "{variant} hand {name:?}: {:?}", hand.err());
        }
    }
    server.shutdown().await;
}

#[tokio::test]
async fn declarations_reach_only_their_player_until_the_reveal() {
    // RULES.md 12.2 at the wire: every `declared` frame carries the choice only to its own
    // seat, and every hand that gets to the declaration reveals them all.
    let (server, addr) = spawn_app(|c| c.operator_key = Some(KEY.into())).await;
    let settings = TableSettings { variant: Variant::Stud8Declare, ..crate::stud_table_settings("Declare") };
    let body = serde_json::to_string(&settings).unwrap();
    let (status, text) = http_as(&addr, "POST", "/api/admin/tables", Some(&body), Some(KEY)).await.unwrap();
    assert_eq!(status, 201, "{text}");
    let created: AdminTable = serde_json::from_str(&text).unwrap();
    let table = tables(&addr).await.unwrap().into_iter().find(|t| t.id == created.id).expect("listed");
    let mut players = Vec::new();
    for seat in 1..=2 {
        let mut p = Player::new(&addr, &format!("d{seat}")).await;
        p.sit(&table, seat).await;
        players.push(p);
    }
    // Heads-up and passive: most hands reach the declaration.
    let mut players = play(players, 6, 7).await;
    for p in &players {
        assert!(p.leaks.is_empty(), "{:?}", p.leaks);
    }
    leave_and_check_chips(&server, &mut players, table.id).await;
    // Each player's socket was audited (`Player::audit` flags any `declared` frame that
    // carries another seat's choice); the stored hands hold the declarations.
    let path = format!("/api/hands?table={}&limit=100&format=phh", table.id);
    let (status, text) = http_as(&addr, "GET", &path, None, Some(KEY)).await.unwrap();
    assert_eq!(status, 200, "{text:.300}");
    assert!(text.contains(" dcl "), "no declaration stored: {text:.500}");
    server.shutdown().await;
}
