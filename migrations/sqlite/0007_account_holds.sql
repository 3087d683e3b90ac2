-- Holds on account balances (issue 13: balances across a cluster). A cluster worker about to
-- journal a buy-in or top-up as input `n` of a table first holds the chips here, in a
-- transaction that locks the player's account row and checks that the balance less what is
-- already held covers them; so two workers can never spend the same chips. The hold is not a
-- chip movement (the ledger's totals ignore it): the input's `buy_in`/`top_up` ledger entry is
-- the movement, and the batch that stores it deletes the holds of its table up to its mark.
CREATE TABLE account_holds (
    table_id  BLOB NOT NULL,
    -- the table's input number the hold is for
    n         INTEGER NOT NULL,
    player_id BLOB NOT NULL,
    amount    INTEGER NOT NULL,
    at_ms     INTEGER NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE INDEX account_holds_player ON account_holds (player_id);
