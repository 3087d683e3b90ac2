//! The store crate's layer table (ARCHITECTURE.md, `crates/store`): every module uses only
//! modules on lower layers, every file is placed, no circles. Test code is exempt. The SQL the
//! two backends share is written once as `macro_rules!` (`store_impl!` in common.rs,
//! `tournament_methods!` in tournament.rs, `hand_columns!` in rows.rs) and expanded in pg.rs and
//! sqlite.rs, so those macros' modules sit below the backends and are declared before them in
//! lib.rs (textual macro scope).

use std::path::Path;

/// Lowest first. A new file fails this test until it has a row.
const LAYERS: &[(&str, u32)] = &[
    ("error", 0),      // StoreError and Result
    ("model", 1),      // the plain values (Write, hands, ledger, journals, queries...) and now_ms, token_hash
    ("tournament", 2), // StoredTournament, TournamentCommit, the prize pool's row, tournament_methods!
    ("plan", 2),       // batch planning: the fence (unstored, batch_tables) and a batch in columns (Plan)
    ("rows", 2),       // reading rows: the Cols trait, hand_columns!, the *_row decoders, attach_seats
    ("store", 3),      // the Store trait (names the model's and the tournament's types)
    ("writer", 4),     // the batching writer: Writer, WriterConfig, WriterStats, WriterTask
    ("common", 4),     // store_impl!: the SQL both backends share (the whole Store impl)
    ("pg", 5),         // PgStore: connecting, migrating, the UNNEST batch write
    ("sqlite", 5),     // SqliteStore: connecting, migrating, the journal file, multi-row batch write
    ("crate", 6),      // lib.rs: the public API (re-exports), open/open_with choose a backend
];

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    if let Err(errors) = stud_tidy::check(&src, LAYERS) {
        panic!("the store's layer table is broken:\n{}", errors.join("\n"));
    }
}
