//! A tournament's tables: table tasks like cash tables, around the table core in tournament
//! mode (`TableSpec::tournament`): seats and tournament chips come from the tournament (no
//! buy-in, no ledger), a hand is dealt only when the tournament sends `Deal` (with its level's
//! stakes), away players are dealt in and folded by the clock, a player out of chips loses the
//! seat, and each finished hand is reported to the tournament's task. They are journaled like
//! every table, so a restart resumes them (and the hand in play).
//!
//! Decisions:
//! - A table's id is derived from the tournament's id and its number (the last four bytes
//!   XORed with the number, the version nibble set to 8, "custom"), so a restarted tournament
//!   finds its tables without storing a map, and no table id can equal a random (v4) one.
//! - Tournament tables are private in the lobby (not in `GET /api/tables`, no invite code):
//!   only the players seated there can join them; nobody can sit with a buy-in.

use stud_engine::Chips;
use stud_proto::MoneyDisplay;
use stud_table::TableSpec;
use stud_tournament::{TableNo, Tournament};
use uuid::Uuid;

/// The id of table `no` of tournament `tournament`.
pub fn table_id(tournament: Uuid, no: TableNo) -> Uuid {
    let mut bytes = tournament.into_bytes();
    for (b, n) in bytes[12..16].iter_mut().zip(no.to_be_bytes()) {
        *b ^= n;
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x80;
    Uuid::from_bytes(bytes)
}

/// The spec of table `no` of `t`, with the current level's stakes (each hand gets its own
/// with `Deal`).
pub fn table_spec(t: &Tournament, no: TableNo, clock: (u64, u64)) -> TableSpec {
    let spec = t.spec();
    let first = || spec.config(0, 0);
    let config = t
        .next_config(no)
        .or_else(first)
        .unwrap_or_else(|| stud_engine::TableConfig::new(stud_engine::Variant::Stud, 0, 1, 2, 4));
    let chips: Chips = spec.starting_chips;
    let mut table = TableSpec::public(
        table_id(t.id(), no),
        format!("{} - table {no}", spec.name.chars().take(28).collect::<String>()),
        config,
        (chips, chips),
        clock,
    );
    table.seats = spec.seats_per_table;
    table.private = true;
    table.invite_code = None;
    table.display = MoneyDisplay::Chips;
    table.tournament = Some(t.id());
    table
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn table_ids_differ_by_number_and_are_never_random_ones() {
        let t = Uuid::new_v4();
        let ids: std::collections::HashSet<Uuid> = (1..=200).map(|n| table_id(t, n)).collect();
        assert_eq!(ids.len(), 200);
        assert!(!ids.contains(&t));
        assert!(ids.iter().all(|id| id.get_version_num() == 8));
        assert_eq!(table_id(t, 7), table_id(t, 7));
    }
}
