//! What the two backends share: everything but connecting and the batch write. The SQL is
//! written once with `$1`-style placeholders, which sqlx takes on SQLite too.

/// The inherent helpers and the whole `Store` impl of a backend whose `pool` is a
/// `sqlx::Pool<$db>` and which has `async fn write(&self, &[Write]) -> Result<()>`.
macro_rules! store_impl {
    ($store:ty, $db:ty, $backend:expr) => {
impl $store {
    async fn with_seats(&self, rows: Vec<<$db as sqlx::Database>::Row>) -> Result<Vec<StoredHand>> {
        let mut hands = rows.iter().map(hand_row).collect::<Result<Vec<_>>>()?;
        if hands.is_empty() {
            return Ok(hands);
        }
        let mut b: QueryBuilder<$db> = QueryBuilder::new(
            "SELECT hand_id, seat, player_id, session_id, name, net, showdown FROM hand_seats WHERE hand_id IN (",
        );
        let mut list = b.separated(", ");
        for h in &hands {
            list.push_bind(h.hand_id);
        }
        b.push(")");
        let rows = b.build().fetch_all(&self.pool).await?;
        let seats = rows.iter().map(seat_row).collect::<Result<Vec<(Uuid, HandSeat)>>>()?;
        attach_seats(&mut hands, seats);
        Ok(hands)
    }

    async fn new_session(&self, s: &NewSession) -> Result<()> {
        let now = ms_i64(s.created_at_ms);
        let amount = chips_i64(s.starting_balance);
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO players (id, name, created_at_ms) VALUES ($1, $2, $3)")
            .bind(s.player_id)
            .bind(&s.name)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO sessions (id, player_id, token_hash, name, created_at_ms, last_used_at_ms)
             VALUES ($1, $2, $3, $4, $5, $5)",
        )
        .bind(s.session_id)
        .bind(s.player_id)
        .bind(&s.token_hash)
        .bind(&s.name)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO ledger (at_ms, player_id, kind, balance_delta, stack_delta) VALUES ($1, $2, 'issue', $3, 0)",
        )
        .bind(now)
        .bind(s.player_id)
        .bind(amount)
        .execute(&mut *tx)
        .await?;
        sqlx::query("INSERT INTO accounts (player_id, balance) VALUES ($1, $2)")
            .bind(s.player_id)
            .bind(amount)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The writes of `batch` not stored yet ([`crate::plan::unstored`]), its tables' marks read
    /// inside the batch's transaction with their rows locked (`Self::LOCK_ROWS`), so two
    /// writers storing the same table's inputs take turns and the second sees the first's mark.
    async fn fence(&self, tx: &mut sqlx::Transaction<'static, $db>, batch: &[Write]) -> Result<Vec<Write>> {
        let tables = crate::plan::batch_tables(batch);
        if tables.is_empty() {
            return Ok(batch.to_vec());
        }
        let mut b: QueryBuilder<$db> = QueryBuilder::new("SELECT table_id, stored_n FROM table_state WHERE table_id IN (");
        let mut list = b.separated(", ");
        for t in &tables {
            list.push_bind(*t);
        }
        b.push(") ORDER BY table_id").push(Self::LOCK_ROWS);
        let rows = b.build().fetch_all(&mut **tx).await?;
        let mut stored = std::collections::HashMap::new();
        for r in &rows {
            stored.insert(r.uuid("table_id")?, r.int("stored_n")?);
        }
        let (kept, skipped) = crate::plan::unstored(batch, &stored);
        if skipped > 0 {
            tracing::warn!(skipped, "store: writes of table inputs stored already are left out (a table that moved)");
        }
        Ok(kept)
    }

    async fn hold_chips(&self, table: Uuid, n: u64, player: Uuid, amount: Chips) -> Result<Result<(), Chips>> {
        let _gate = self.hold_gate().await;
        let mut tx = self.pool.begin().await?;
        // An UPDATE locks the account row (and on SQLite takes the write lock at once): a
        // second hold of the same player waits here, then sees this one.
        let balance: Option<i64> =
            sqlx::query_scalar("UPDATE accounts SET balance = balance WHERE player_id = $1 RETURNING balance")
                .bind(player)
                .fetch_optional(&mut *tx)
                .await?;
        let held: i64 = sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM account_holds
             WHERE player_id = $1 AND NOT (table_id = $2 AND n = $3)",
        )
        .bind(player)
        .bind(table)
        .bind(ms_i64(n))
        .fetch_one(&mut *tx)
        .await?;
        let available = balance.unwrap_or(0).saturating_sub(held);
        if available < chips_i64(amount) {
            tx.rollback().await?;
            return Ok(Err(u64::try_from(available).unwrap_or(0)));
        }
        sqlx::query(
            "INSERT INTO account_holds (table_id, n, player_id, amount, at_ms) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (table_id, n) DO UPDATE SET player_id = EXCLUDED.player_id, amount = EXCLUDED.amount,
               at_ms = EXCLUDED.at_ms",
        )
        .bind(table)
        .bind(ms_i64(n))
        .bind(player)
        .bind(chips_i64(amount))
        .bind(ms_i64(crate::model::now_ms()))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Ok(()))
    }

    /// The tables' marks and snapshots of a batch, inside its transaction; `write_marks`
    /// also releases the holds its inputs' movements settle (after the accounts' rows were
    /// written: the same lock order as a hold's).
    async fn write_table_state(&self, tx: &mut sqlx::Transaction<'static, $db>, p: &Plan) -> Result<()> {
        self.write_marks(tx, &p.marks).await?;
        for (table, n, snapshot) in &p.snapshots {
            sqlx::query("UPDATE table_state SET snapshot_n = $2, snapshot = $3 WHERE table_id = $1 AND snapshot_n <= $2")
                .bind(*table)
                .bind(*n)
                .bind(snapshot.as_str())
                .execute(&mut **tx)
                .await?;
            self.prune_in_tx(tx, *table, *n).await?;
        }
        Ok(())
    }

    async fn load_journals(&self) -> Result<Vec<TableJournal>> {
        use std::collections::BTreeMap;
        let mut by_table: BTreeMap<Uuid, TableJournal> = BTreeMap::new();
        self.settle_writers().await?;
        let rows = sqlx::query("SELECT table_id, snapshot_n, snapshot, stored_n FROM table_state")
            .fetch_all(&self.pool)
            .await?;
        for r in &rows {
            let table_id = r.uuid("table_id")?;
            let snapshot = (to_u64(r.int("snapshot_n")?, "snapshot_n")?, r.text("snapshot")?);
            let stored_n = to_u64(r.int("stored_n")?, "stored_n")?;
            by_table.insert(table_id, TableJournal { table_id, snapshot: Some(snapshot), stored_n, entries: Vec::new() });
        }
        let rows = sqlx::query("SELECT table_id, n, entry FROM table_journal ORDER BY table_id, n")
            .fetch_all(self.journal_reader())
            .await?;
        for r in &rows {
            let table_id = r.uuid("table_id")?;
            let j = by_table.entry(table_id).or_insert_with(|| TableJournal { table_id, ..TableJournal::default() });
            let n = to_u64(r.int("n")?, "n")?;
            if j.snapshot.as_ref().is_none_or(|(s, _)| n > *s) {
                j.entries.push((n, r.text("entry")?));
            }
        }
        Ok(by_table.into_values().collect())
    }

    async fn reset_journal(&self, table: Uuid, n: u64, snapshot: &str) -> Result<()> {
        let n = ms_i64(n);
        let mut tx = self.pool.begin().await?;
        let mark: Option<i64> = sqlx::query_scalar("DELETE FROM table_state WHERE table_id = $1 RETURNING stored_n")
            .bind(table)
            .fetch_optional(&mut *tx)
            .await?;
        if let Some(mark) = mark.filter(|m| *m > n) {
            tx.rollback().await?;
            return Err(StoreError::Refused(format!(
                "table {table}: a journal reset at input {n} would lower its stored mark {mark}"
            )));
        }
        // A table starting afresh: no input of the old journal is still to be journaled.
        sqlx::query("DELETE FROM account_holds WHERE table_id = $1").bind(table).execute(&mut *tx).await?;
        sqlx::query("INSERT INTO table_state (table_id, snapshot_n, snapshot, stored_n) VALUES ($1, $2, $3, $2)")
            .bind(table)
            .bind(n)
            .bind(snapshot)
            .execute(&mut *tx)
            .await?;
        self.prune_in_tx(&mut tx, table, n).await?;
        tx.commit().await?;
        self.prune_after_commit(&[(table, n)]).await
    }

    async fn query_hands(&self, q: &HandQuery) -> Result<Vec<StoredHand>> {
        let mut b: QueryBuilder<$db> = QueryBuilder::new(concat!("SELECT ", hand_columns!(), " FROM hands h"));
        if let Some(player) = q.player {
            b.push(" JOIN hand_seats s ON s.hand_id = h.id AND s.player_id = ").push_bind(player);
        }
        b.push(" WHERE TRUE");
        if let Some(table) = q.table {
            b.push(" AND h.table_id = ").push_bind(table);
        }
        if let Some(since) = q.since_ms {
            b.push(" AND h.ended_at_ms >= ").push_bind(ms_i64(since));
        }
        if let Some(c) = q.before {
            b.push(" AND (h.ended_at_ms, h.id) < (").push_bind(ms_i64(c.ended_at_ms));
            b.push(", ").push_bind(c.hand_id).push(")");
        }
        b.push(" ORDER BY h.ended_at_ms DESC, h.id DESC LIMIT ").push_bind(i64::from(q.limit));
        let rows = b.build().fetch_all(&self.pool).await?;
        self.with_seats(rows).await
    }
}

impl Store for $store {
    fn backend(&self) -> Backend {
        $backend
    }

    fn write_batch<'a>(&'a self, batch: &'a [Write]) -> BoxFuture<'a, Result<()>> {
        Box::pin(self.write(batch))
    }

    fn create_session<'a>(&'a self, session: &'a NewSession) -> BoxFuture<'a, Result<()>> {
        Box::pin(self.new_session(session))
    }

    fn session_by_token<'a>(&'a self, token_hash: &'a str) -> BoxFuture<'a, Result<Option<StoredSession>>> {
        Box::pin(async move {
            let row = sqlx::query("SELECT id, player_id, name FROM sessions WHERE token_hash = $1")
                .bind(token_hash)
                .fetch_optional(&self.pool)
                .await?;
            row.as_ref().map(session_row).transpose()
        })
    }

    fn balance(&self, player: Uuid) -> BoxFuture<'_, Result<Chips>> {
        Box::pin(async move {
            let balance: Option<i64> = sqlx::query_scalar("SELECT balance FROM accounts WHERE player_id = $1")
                .bind(player)
                .fetch_optional(&self.pool)
                .await?;
            to_u64(balance.unwrap_or(0), "balance")
        })
    }

    fn save_table<'a>(&'a self, t: &'a StoredTable) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO tables (id, name, config, min_buy_in, max_buy_in, created_at_ms, closed, settings)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                 ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, config = EXCLUDED.config,
                   min_buy_in = EXCLUDED.min_buy_in, max_buy_in = EXCLUDED.max_buy_in, closed = EXCLUDED.closed,
                   settings = EXCLUDED.settings",
            )
            .bind(t.id)
            .bind(&t.name)
            .bind(encode_table(t)?)
            .bind(chips_i64(t.min_buy_in))
            .bind(chips_i64(t.max_buy_in))
            .bind(ms_i64(t.created_at_ms))
            .bind(t.closed)
            .bind(&t.settings)
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn tables(&self) -> BoxFuture<'_, Result<Vec<StoredTable>>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT id, name, config, min_buy_in, max_buy_in, created_at_ms, closed, settings FROM tables
                 ORDER BY created_at_ms, name",
            )
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(table_row).collect()
        })
    }

    fn session_hands(&self, session: Uuid, player: Uuid, limit: u32) -> BoxFuture<'_, Result<Vec<StoredHand>>> {
        Box::pin(async move {
            // The session's hands, and the player's tournament hands (a tournament seat is the
            // player's: dealt while they had no socket, it has no session). Each half is one
            // range scan of its index.
            let rows = sqlx::query(concat!(
                "SELECT ",
                hand_columns!(),
                " FROM hands h WHERE h.id IN (
                     SELECT hand_id FROM (SELECT s.hand_id FROM hand_seats s WHERE s.session_id = $1
                                          ORDER BY s.ended_at_ms DESC, s.hand_id DESC LIMIT $3) mine
                     UNION
                     SELECT hand_id FROM (SELECT s.hand_id FROM hand_seats s JOIN hands t ON t.id = s.hand_id
                                          WHERE s.player_id = $2 AND t.tournament_id IS NOT NULL
                                          ORDER BY s.ended_at_ms DESC, s.hand_id DESC LIMIT $4) played)
                   ORDER BY h.ended_at_ms DESC, h.id DESC LIMIT $5"
            ))
            .bind(session)
            .bind(player)
            .bind(i64::from(limit))
            .bind(i64::from(limit))
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
            self.with_seats(rows).await
        })
    }

    fn hand(&self, id: Uuid) -> BoxFuture<'_, Result<Option<StoredHand>>> {
        Box::pin(async move {
            let rows = sqlx::query(concat!("SELECT ", hand_columns!(), " FROM hands h WHERE h.id = $1"))
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
            Ok(self.with_seats(rows).await?.pop())
        })
    }

    fn hands<'a>(&'a self, query: &'a HandQuery) -> BoxFuture<'a, Result<Vec<StoredHand>>> {
        Box::pin(self.query_hands(query))
    }

    fn last_hand_number(&self, table: Uuid) -> BoxFuture<'_, Result<Option<u64>>> {
        Box::pin(async move {
            let n: Option<i64> = sqlx::query_scalar(
                "SELECT number FROM hands WHERE table_id = $1 ORDER BY ended_at_ms DESC, id DESC LIMIT 1",
            )
            .bind(table)
            .fetch_optional(&self.pool)
            .await?;
            n.map(|n| to_u64(n, "hand number")).transpose()
        })
    }

    fn open_stacks(&self) -> BoxFuture<'_, Result<Vec<OpenStack>>> {
        Box::pin(async move {
            let rows = sqlx::query("SELECT table_id, player_id, stack FROM table_stacks WHERE stack <> 0")
                .fetch_all(&self.pool)
                .await?;
            rows.iter().map(stack_row).collect()
        })
    }

    fn closing_tables(&self) -> BoxFuture<'_, Result<Vec<Uuid>>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT DISTINCT s.table_id FROM table_stacks s JOIN tables t ON t.id = s.table_id
                 WHERE t.closed AND s.stack <> 0",
            )
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(|r| r.uuid("table_id")).collect()
        })
    }

    fn totals(&self) -> BoxFuture<'_, Result<LedgerTotals>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT
                   (SELECT CAST(COALESCE(SUM(balance_delta), 0) AS BIGINT) FROM ledger WHERE kind = 'issue') AS issued,
                   (SELECT CAST(COALESCE(SUM(balance), 0) AS BIGINT) FROM accounts) AS balances,
                   (SELECT CAST(COALESCE(SUM(stack), 0) AS BIGINT) FROM table_stacks) AS on_tables,
                   (SELECT CAST(COALESCE(SUM(balance_delta + stack_delta), 0) AS BIGINT) FROM ledger)
                     + (SELECT CAST(COALESCE(SUM(net), 0) AS BIGINT) FROM hand_seats) AS ledger_sum",
            )
            .fetch_one(&self.pool)
            .await?;
            totals_row(&row)
        })
    }

    fn add_operator_key<'a>(&'a self, key: &'a OperatorKey) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO operator_keys (id, name, key_hash, created_at_ms, revoked) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(key.id)
            .bind(&key.name)
            .bind(&key.key_hash)
            .bind(ms_i64(key.created_at_ms))
            .bind(key.revoked)
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn operator_key<'a>(&'a self, key_hash: &'a str) -> BoxFuture<'a, Result<Option<OperatorKey>>> {
        Box::pin(async move {
            let row = sqlx::query("SELECT id, name, key_hash, created_at_ms, revoked FROM operator_keys WHERE key_hash = $1 AND NOT revoked")
                .bind(key_hash)
                .fetch_optional(&self.pool)
                .await?;
            row.as_ref().map(key_row).transpose()
        })
    }

    fn log_admin<'a>(&'a self, e: &'a AdminLogEntry) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            sqlx::query("INSERT INTO admin_log (at_ms, operator, action, target, detail) VALUES ($1, $2, $3, $4, $5)")
                .bind(ms_i64(e.at_ms))
                .bind(&e.operator)
                .bind(&e.action)
                .bind(e.target.as_deref())
                .bind(&e.detail)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn admin_log(&self, limit: u32) -> BoxFuture<'_, Result<Vec<AdminLogEntry>>> {
        Box::pin(async move {
            let rows =
                sqlx::query("SELECT at_ms, operator, action, target, detail FROM admin_log ORDER BY id DESC LIMIT $1")
                    .bind(i64::from(limit))
                    .fetch_all(&self.pool)
                    .await?;
            rows.iter().map(log_row).collect()
        })
    }

    fn ban<'a>(&'a self, b: &'a Ban) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            sqlx::query("INSERT INTO bans (player_id, scope, at_ms, reason) VALUES ($1, $2, $3, $4) ON CONFLICT (player_id, scope) DO UPDATE SET reason = EXCLUDED.reason")
                .bind(b.player_id)
                .bind(b.scope.encode())
                .bind(ms_i64(b.at_ms))
                .bind(&b.reason)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn unban(&self, player: Uuid, scope: BanScope) -> BoxFuture<'_, Result<bool>> {
        Box::pin(async move {
            let done = sqlx::query("DELETE FROM bans WHERE player_id = $1 AND scope = $2")
                .bind(player)
                .bind(scope.encode())
                .execute(&self.pool)
                .await?;
            Ok(done.rows_affected() > 0)
        })
    }

    fn bans(&self) -> BoxFuture<'_, Result<Vec<Ban>>> {
        Box::pin(async move {
            let rows = sqlx::query("SELECT player_id, scope, at_ms, reason FROM bans").fetch_all(&self.pool).await?;
            rows.iter().map(ban_row).collect()
        })
    }

    fn journal_append<'a>(&'a self, rows: &'a [JournalRow]) -> BoxFuture<'a, Result<()>> {
        Box::pin(self.append_journal(rows))
    }

    fn journals(&self) -> BoxFuture<'_, Result<Vec<TableJournal>>> {
        Box::pin(self.load_journals())
    }

    fn journal_marks(&self) -> BoxFuture<'_, Result<Vec<(Uuid, u64)>>> {
        Box::pin(async move {
            let rows = sqlx::query("SELECT table_id, snapshot_n FROM table_state").fetch_all(&self.pool).await?;
            rows.iter().map(|r| Ok((r.uuid("table_id")?, to_u64(r.int("snapshot_n")?, "snapshot_n")?))).collect()
        })
    }

    fn journal_reset<'a>(&'a self, table: Uuid, n: u64, snapshot: &'a str) -> BoxFuture<'a, Result<()>> {
        Box::pin(self.reset_journal(table, n, snapshot))
    }

    fn ledger<'a>(&'a self, q: &'a LedgerQuery) -> BoxFuture<'a, Result<Vec<LedgerLine>>> {
        Box::pin(async move {
            // Movements and cash hands' results as one list (the view ledger_all, with a key to page
            // on), each half filtered before the union so it can use its by-player index. At the
            // same millisecond a movement counts as the newer: the table cashes out or tops up
            // right after the hand it follows, in the same turn. A tournament hand's nets are
            // tournament chips, not money: no line.
            let nil = Uuid::nil();
            let mut b: QueryBuilder<$db> = QueryBuilder::new(
                "SELECT at_ms, src, n, hand_id, player_id, table_id, kind, balance_delta, stack_delta FROM (
                   SELECT l.at_ms AS at_ms, CAST(1 AS BIGINT) AS src, l.id AS n, ",
            );
            b.push_bind(nil).push(" AS hand_id, l.player_id AS player_id, COALESCE(l.table_id, ").push_bind(nil);
            b.push(") AS table_id, l.kind AS kind, l.balance_delta AS balance_delta, l.stack_delta AS stack_delta
                   FROM ledger l WHERE TRUE");
            if let Some(player) = q.player {
                b.push(" AND l.player_id = ").push_bind(player);
            }
            if let Some(table) = q.table {
                b.push(" AND l.table_id = ").push_bind(table);
            }
            if let Some(since) = q.since_ms {
                b.push(" AND l.at_ms >= ").push_bind(ms_i64(since));
            }
            b.push(" UNION ALL
                   SELECT s.ended_at_ms, CAST(0 AS BIGINT), CAST(s.seat AS BIGINT), s.hand_id, s.player_id, h.table_id,
                          'hand', CAST(0 AS BIGINT), s.net
                   FROM hand_seats s JOIN hands h ON h.id = s.hand_id WHERE h.tournament_id IS NULL");
            if let Some(player) = q.player {
                b.push(" AND s.player_id = ").push_bind(player);
            }
            if let Some(table) = q.table {
                b.push(" AND h.table_id = ").push_bind(table);
            }
            if let Some(since) = q.since_ms {
                b.push(" AND s.ended_at_ms >= ").push_bind(ms_i64(since));
            }
            b.push(") x WHERE TRUE");
            if let Some(c) = q.before {
                b.push(" AND (at_ms, src, hand_id, n) < (").push_bind(ms_i64(c.at_ms));
                b.push(", ").push_bind(c.source).push(", ").push_bind(c.hand_id).push(", ").push_bind(c.n).push(")");
            }
            b.push(" ORDER BY at_ms DESC, src DESC, hand_id DESC, n DESC LIMIT ").push_bind(i64::from(q.limit));
            let rows = b.build().fetch_all(&self.pool).await?;
            rows.iter().map(ledger_row).collect()
        })
    }

    fn live_session<'a>(
        &'a self,
        token_hash: &'a str,
        used_since_ms: u64,
    ) -> BoxFuture<'a, Result<Option<StoredSession>>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT id, player_id, name FROM sessions WHERE token_hash = $1 AND last_used_at_ms >= $2",
            )
            .bind(token_hash)
            .bind(ms_i64(used_since_ms))
            .fetch_optional(&self.pool)
            .await?;
            row.as_ref().map(session_row).transpose()
        })
    }

    fn live_sessions_of<'a>(
        &'a self,
        players: &'a [Uuid],
        used_since_ms: u64,
    ) -> BoxFuture<'a, Result<Vec<WarmSession>>> {
        Box::pin(async move {
            let mut warm = Vec::new();
            // Bounded statements: SQLite binds at most 32,766 parameters.
            for chunk in players.chunks(1_000) {
                let mut b: QueryBuilder<$db> = QueryBuilder::new(
                    "SELECT s.id, s.player_id, s.name, s.token_hash, COALESCE(a.balance, 0) AS balance
                     FROM sessions s LEFT JOIN accounts a ON a.player_id = s.player_id
                     WHERE s.last_used_at_ms >= ",
                );
                b.push_bind(ms_i64(used_since_ms)).push(" AND s.player_id IN (");
                let mut list = b.separated(", ");
                for p in chunk {
                    list.push_bind(*p);
                }
                b.push(")");
                for r in &b.build().fetch_all(&self.pool).await? {
                    warm.push(WarmSession {
                        token_hash: r.text("token_hash")?,
                        session: session_row(r)?,
                        balance: to_u64(r.int("balance")?, "balance")?,
                    });
                }
            }
            Ok(warm)
        })
    }

    fn touch_session(&self, session: Uuid, at_ms: u64) -> BoxFuture<'_, Result<()>> {
        Box::pin(async move {
            sqlx::query("UPDATE sessions SET last_used_at_ms = $2 WHERE id = $1 AND last_used_at_ms < $2")
                .bind(session)
                .bind(ms_i64(at_ms))
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn expire_sessions(&self, before_ms: u64) -> BoxFuture<'_, Result<u64>> {
        Box::pin(async move {
            let done = sqlx::query("DELETE FROM sessions WHERE last_used_at_ms < $1")
                .bind(ms_i64(before_ms))
                .execute(&self.pool)
                .await?;
            Ok(done.rows_affected())
        })
    }

    fn delete_session(&self, session: Uuid) -> BoxFuture<'_, Result<bool>> {
        Box::pin(async move {
            let done = sqlx::query("DELETE FROM sessions WHERE id = $1").bind(session).execute(&self.pool).await?;
            Ok(done.rows_affected() > 0)
        })
    }

    fn identity_session<'a>(&'a self, subject: &'a str, s: &'a NewSession) -> BoxFuture<'a, Result<Uuid>> {
        Box::pin(async move {
            let now = ms_i64(s.created_at_ms);
            // Two first sign-ins of one subject at once: one inserts the mapping, the other's
            // insert conflicts and is rolled back; its second pass finds the mapping.
            for _ in 0..2 {
                let mut tx = self.pool.begin_with(Self::BEGIN_WRITE).await?;
                let known: Option<Uuid> = sqlx::query_scalar("SELECT player_id FROM identities WHERE subject = $1")
                    .bind(subject)
                    .fetch_optional(&mut *tx)
                    .await?;
                let player = match known {
                    Some(player) => player,
                    None => {
                        sqlx::query("INSERT INTO players (id, name, created_at_ms) VALUES ($1, $2, $3)")
                            .bind(s.player_id)
                            .bind(&s.name)
                            .bind(now)
                            .execute(&mut *tx)
                            .await?;
                        let mapped = sqlx::query(
                            "INSERT INTO identities (subject, player_id, created_at_ms) VALUES ($1, $2, $3)
                             ON CONFLICT (subject) DO NOTHING",
                        )
                        .bind(subject)
                        .bind(s.player_id)
                        .bind(now)
                        .execute(&mut *tx)
                        .await?;
                        if mapped.rows_affected() == 0 {
                            tx.rollback().await?;
                            continue;
                        }
                        sqlx::query(
                            "INSERT INTO ledger (at_ms, player_id, kind, balance_delta, stack_delta)
                             VALUES ($1, $2, 'issue', $3, 0)",
                        )
                        .bind(now)
                        .bind(s.player_id)
                        .bind(chips_i64(s.starting_balance))
                        .execute(&mut *tx)
                        .await?;
                        sqlx::query("INSERT INTO accounts (player_id, balance) VALUES ($1, $2)")
                            .bind(s.player_id)
                            .bind(chips_i64(s.starting_balance))
                            .execute(&mut *tx)
                            .await?;
                        s.player_id
                    }
                };
                sqlx::query(
                    "INSERT INTO sessions (id, player_id, token_hash, name, created_at_ms, last_used_at_ms)
                     VALUES ($1, $2, $3, $4, $5, $5)",
                )
                .bind(s.session_id)
                .bind(player)
                .bind(&s.token_hash)
                .bind(&s.name)
                .bind(now)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                return Ok(player);
            }
            Err(StoreError::Corrupt(format!("identity {subject:?} neither stored nor found")))
        })
    }

    fn hold(&self, table: Uuid, n: u64, player: Uuid, amount: Chips) -> BoxFuture<'_, Result<Result<(), Chips>>> {
        Box::pin(self.hold_chips(table, n, player, amount))
    }

    fn release_hold(&self, table: Uuid, n: u64) -> BoxFuture<'_, Result<()>> {
        Box::pin(async move {
            sqlx::query("DELETE FROM account_holds WHERE table_id = $1 AND n = $2")
                .bind(table)
                .bind(ms_i64(n))
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn release_holds_after(&self, table: Uuid, n: u64) -> BoxFuture<'_, Result<()>> {
        Box::pin(async move {
            let released = sqlx::query("DELETE FROM account_holds WHERE table_id = $1 AND n > $2")
                .bind(table)
                .bind(ms_i64(n))
                .execute(&self.pool)
                .await?
                .rows_affected();
            if released > 0 {
                tracing::warn!(%table, released, "store: holds of inputs never journaled are released");
            }
            Ok(())
        })
    }

    fn held(&self, player: Uuid) -> BoxFuture<'_, Result<Chips>> {
        Box::pin(async move {
            let held: i64 = sqlx::query_scalar(
                "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM account_holds WHERE player_id = $1",
            )
            .bind(player)
            .fetch_one(&self.pool)
            .await?;
            to_u64(held, "held chips")
        })
    }

    tournament_methods!();
}
    };
}
