-- A table is its journal (README, "Crash recovery"). Every input a table accepts is stored
-- here before any of its effects is seen; replaying a table's entries after its snapshot
-- rebuilds it exactly, the hand in progress included.
CREATE TABLE table_journal (
    table_id BLOB NOT NULL,
    -- the table's input number, 1, 2, ...
    n        INTEGER NOT NULL,
    at_ms    INTEGER NOT NULL,
    -- the input as JSON (stud_table::Entry)
    entry    TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);

-- Per table: the last snapshot (taken between hands; entries up to snapshot_n are pruned when
-- it is stored) and stored_n, the last input whose writes (hands, ledger) are stored, so a
-- replay does not write them twice. Both are written by the batching writer, in the same
-- transaction as the writes they cover.
CREATE TABLE table_state (
    table_id   BLOB PRIMARY KEY,
    snapshot_n INTEGER NOT NULL,
    snapshot   TEXT NOT NULL,
    stored_n   INTEGER NOT NULL
);
