-- Tournament hands (issue 14): a hand played at a tournament's table carries the tournament
-- and the level it was dealt at (both NULL for a cash hand). Its seats' nets are tournament
-- chips, not money: they are no lines of the money ledger (ledger_all leaves them out, as the
-- ledger API does), and LAST HAND finds them by player (a tournament seat belongs to the
-- player, who may have had no socket, so no session, when a hand was dealt).
ALTER TABLE hands ADD COLUMN tournament_id BLOB;
ALTER TABLE hands ADD COLUMN tournament_level INTEGER;

DROP VIEW ledger_all;
CREATE VIEW ledger_all AS
    SELECT at_ms, player_id, table_id, hand_id, kind, balance_delta, stack_delta FROM ledger
    UNION ALL
    SELECT s.ended_at_ms, s.player_id, h.table_id, s.hand_id, 'hand', 0, s.net
    FROM hand_seats s JOIN hands h ON h.id = s.hand_id
    WHERE h.tournament_id IS NULL;
