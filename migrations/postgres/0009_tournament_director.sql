-- Tournaments on a cluster (issue 30): the epoch of the gateway directing a tournament (its
-- lease's KV revision, which only grows). A gateway that takes a tournament over raises it
-- before it rebuilds the tournament (`tournament_fence`), and every input is committed only
-- at the epoch of the one committing it (`tournament_commit`): a former director whose lease
-- lapsed while it was writing can no longer store an input, even one whose number the new
-- director's snapshot has pruned from the journal. One process never fences: 0 throughout.
ALTER TABLE tournaments ADD COLUMN director_epoch BIGINT NOT NULL DEFAULT 0;
