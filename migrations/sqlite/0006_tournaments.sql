-- Tournaments (issue 14). Like a table, a tournament is its journal: every input its core
-- (stud_tournament) accepts is stored in tournament_journal before it is applied, in the same
-- transaction as the ledger entries it causes (an entry fee, a refund); the snapshot plus the
-- entries after it rebuild the tournament exactly after a restart.
CREATE TABLE tournaments (
    id            BLOB PRIMARY KEY,
    created_at_ms INTEGER NOT NULL,
    -- the input number the snapshot includes (0: as created); entries up to it are pruned
    snapshot_n    INTEGER NOT NULL,
    -- the whole tournament as JSON (stud_tournament::Tournament::snapshot)
    snapshot      TEXT NOT NULL
);

CREATE TABLE tournament_journal (
    tournament_id BLOB NOT NULL,
    -- the tournament's input number, 1, 2, ...
    n             INTEGER NOT NULL,
    at_ms         INTEGER NOT NULL,
    -- the input as JSON (stud_tournament::Journaled)
    entry         TEXT NOT NULL,
    PRIMARY KEY (tournament_id, n)
);
