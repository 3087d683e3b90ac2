-- Sessions expire when idle (config `session_idle_days`): the server refreshes last_used_at_ms
-- at most about once a minute per session, refuses a token whose session has been idle longer,
-- and deletes such rows. Sessions from before this migration count as used when created.
ALTER TABLE sessions ADD COLUMN last_used_at_ms INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET last_used_at_ms = created_at_ms;
CREATE INDEX sessions_by_last_use ON sessions (last_used_at_ms);

-- Players who sign in with an operator's JWT: the token's `sub` (the operator's user id) maps
-- to one player for good, so the same user has the same balance and history on every device.
CREATE TABLE identities (
    subject       TEXT PRIMARY KEY,
    player_id     BLOB NOT NULL UNIQUE REFERENCES players (id),
    created_at_ms INTEGER NOT NULL
);
