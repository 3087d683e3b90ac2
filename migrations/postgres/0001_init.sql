-- The stud server's schema (Postgres). Chips are BIGINT; times are milliseconds since the Unix epoch.

CREATE TABLE players (
    id            UUID PRIMARY KEY,
    name          TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL
);

CREATE TABLE sessions (
    id            UUID PRIMARY KEY,
    player_id     UUID NOT NULL REFERENCES players (id),
    -- sha256 of the bearer token (hex); the token itself is never stored
    token_hash    TEXT NOT NULL UNIQUE,
    name          TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL
);

-- Tables and their rules, so they survive a restart.
CREATE TABLE tables (
    id            UUID PRIMARY KEY,
    name          TEXT NOT NULL,
    config        TEXT NOT NULL,
    min_buy_in    BIGINT NOT NULL,
    max_buy_in    BIGINT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    closed        BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE TABLE hands (
    id            UUID PRIMARY KEY,
    table_id      UUID NOT NULL,
    number        BIGINT NOT NULL,
    variant       TEXT NOT NULL,
    started_at_ms BIGINT NOT NULL,
    ended_at_ms   BIGINT NOT NULL,
    commitment    TEXT,
    seed          TEXT,
    -- the full HandRecord as JSON: PHH and text histories are rendered from it
    record        TEXT NOT NULL
);
-- lz4 is much cheaper than the default pglz for the records; keep the default where the
-- server was built without it.
DO $$ BEGIN
    ALTER TABLE hands ALTER COLUMN record SET COMPRESSION lz4;
EXCEPTION WHEN OTHERS THEN NULL;
END $$;
CREATE INDEX hands_by_time ON hands (ended_at_ms DESC, id DESC);
CREATE INDEX hands_by_table ON hands (table_id, ended_at_ms DESC, id DESC);

CREATE TABLE hand_seats (
    hand_id     UUID NOT NULL REFERENCES hands (id),
    seat        SMALLINT NOT NULL,
    player_id   UUID NOT NULL,
    session_id  UUID NOT NULL,
    -- the player's name at the time
    name        TEXT NOT NULL,
    net         BIGINT NOT NULL,
    showdown    BOOLEAN NOT NULL,
    ended_at_ms BIGINT NOT NULL,
    PRIMARY KEY (hand_id, seat)
);
-- "the last 50 hands of session S" is one range scan of this index
CREATE INDEX hand_seats_by_session ON hand_seats (session_id, ended_at_ms DESC, hand_id DESC);
CREATE INDEX hand_seats_by_player ON hand_seats (player_id, ended_at_ms DESC, hand_id DESC);

-- Every chip movement. balance_delta moves chips in or out of the player's account,
-- stack_delta in or out of their stack at table_id. Kinds:
--   issue     balance +x           (new play money)
--   buy_in    balance -x, stack +x
--   top_up    balance -x, stack +x
--   cash_out  balance +x, stack -x (leave, table closed, shutdown, recovery after a crash)
-- A hand's results are ledger entries too (stack +net; the nets of a hand sum to zero): they
-- are the hand_seats rows, written in the same transaction as the hand. The view ledger_all
-- shows both kinds as one ledger.
CREATE TABLE ledger (
    id            BIGSERIAL PRIMARY KEY,
    at_ms         BIGINT NOT NULL,
    player_id     UUID NOT NULL,
    table_id      UUID,
    hand_id       UUID,
    kind          TEXT NOT NULL,
    balance_delta BIGINT NOT NULL,
    stack_delta   BIGINT NOT NULL
);
CREATE INDEX ledger_by_player ON ledger (player_id, id);

-- Running sums of the ledger, kept in the same transaction as the entries.
CREATE TABLE accounts (
    player_id UUID PRIMARY KEY,
    balance   BIGINT NOT NULL
);

CREATE TABLE table_stacks (
    table_id  UUID NOT NULL,
    player_id UUID NOT NULL,
    stack     BIGINT NOT NULL,
    PRIMARY KEY (table_id, player_id)
);

CREATE VIEW ledger_all AS
    SELECT at_ms, player_id, table_id, hand_id, kind, balance_delta, stack_delta FROM ledger
    UNION ALL
    SELECT s.ended_at_ms, s.player_id, h.table_id, s.hand_id, 'hand', 0, s.net
    FROM hand_seats s JOIN hands h ON h.id = s.hand_id;
