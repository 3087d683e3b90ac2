//! The table crate's layer table (ARCHITECTURE.md, `crates/table`): every module uses only
//! modules on lower layers, every file is placed, no circles. Test code is exempt. The core's
//! jobs are `impl TableCore` blocks in their own files, so calls of `TableCore`'s methods
//! (`self.prompt(..)`) count as uses too, not only imports.

use std::path::Path;

/// Lowest first. A new file fails this test until it has a row.
const LAYERS: &[(&str, u32)] = &[
    ("spec", 0),           // TableSpec: the table's settings
    ("input", 1),          // the journal's vocabulary: Input, Entry, Who, RestoreError
    ("core::types", 2),    // Command, Output, Decision, Due, the per-seat state, the hand in play
    ("core", 3),           // TableCore: fields, constructors, the reads every job shares
    ("core::snapshot", 4), // the durable state as text, and back
    ("core::view", 4),     // every frame: the only module that builds a ServerMsg
    ("core::clock", 5),    // deadlines, when a hand may start
    ("core::seats", 6),    // cash-outs, dropped watchers, pending settings, closing
    ("core::hand", 7),     // start, act, prompt, finish
    ("core::waitlist", 7), // the waiting list, its seat offers
    ("core::room", 8),     // applying a journaled input
    ("core::commands", 8), // checking a command
    ("wire", 9),           // frames for the server (re-exports the view's)
    ("crate", 9),          // lib.rs: the public API (re-exports)
];

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    if let Err(errors) = stud_tidy::check_with_methods(&src, LAYERS, "TableCore") {
        panic!("the table's layer table is broken:\n{}", errors.join("\n"));
    }
}
