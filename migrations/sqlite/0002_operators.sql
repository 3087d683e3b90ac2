-- Operators: API keys (hashed), the log of what they did, table settings, bans.

CREATE TABLE operator_keys (
    id            BLOB PRIMARY KEY,
    name          TEXT NOT NULL,
    -- sha256 of the key (hex); the key itself is shown once, when it is created
    key_hash      TEXT NOT NULL UNIQUE,
    created_at_ms INTEGER NOT NULL,
    revoked       INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE admin_log (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    at_ms    INTEGER NOT NULL,
    -- the key's name ("config" for STUD_OPERATOR_KEY)
    operator TEXT NOT NULL,
    action   TEXT NOT NULL,
    target   TEXT,
    detail   TEXT NOT NULL
);

-- The server's table settings (seats, clock, buy-ins, privacy, invite code) as JSON.
ALTER TABLE tables ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';

-- scope: 'server' or a table id
CREATE TABLE bans (
    player_id BLOB NOT NULL,
    scope     TEXT NOT NULL,
    at_ms     INTEGER NOT NULL,
    reason    TEXT NOT NULL,
    PRIMARY KEY (player_id, scope)
);
