//! The SQLite store: the embedded default. WAL journal, `synchronous = NORMAL` (a committed
//! batch survives a process crash; a power cut may lose the last batches, never half of one).
//! Batches go in as multi-row `INSERT … VALUES` statements.

use std::str::FromStr;
use std::time::Duration;

use futures_util::future::BoxFuture;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{QueryBuilder, Row, Sqlite};
use stud_engine::Chips;
use uuid::Uuid;

use crate::{
    AdminLogEntry, Backend, Ban, BanScope, Cols, HandQuery, HandSeat, LedgerTotals, NewSession, OpenStack, OperatorKey,
    Plan, Result, Store, StoredHand, StoredSession, StoredTable, Write, attach_seats, ban_row, chips_i64, encode_table,
    hand_row, key_row, log_row, ms_i64, seat_row, session_row, stack_row, table_row, to_u64, totals_row,
};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/sqlite");

/// Rows per multi-row INSERT: stays far below SQLite's 32766 bound parameters.
const CHUNK: usize = 1000;

/// The SQLite store.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: SqlitePool,
}

impl SqliteStore {
    /// Opens (creating the file if needed) and migrates.
    ///
    /// # Errors
    /// The file cannot be opened or a migration fails.
    pub async fn connect(url: &str) -> Result<SqliteStore> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10));
        // An in-memory database exists per connection: keep exactly one.
        let memory = url.contains(":memory:") || url.contains("mode=memory");
        let mut pool = SqlitePoolOptions::new().max_connections(4);
        if memory {
            // An in-memory database lives and dies with its one connection: keep exactly one,
            // for ever.
            pool = pool.max_connections(1).min_connections(1).idle_timeout(None).max_lifetime(None);
        }
        let pool = pool.connect_with(options).await?;
        MIGRATOR.run(&pool).await?;
        Ok(SqliteStore { pool })
    }
}

impl SqliteStore {
    /// The pool (tests and tools).
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }
}

impl Cols for SqliteRow {
    fn uuid(&self, column: &str) -> Result<Uuid> {
        Ok(self.try_get(column)?)
    }
    fn int(&self, column: &str) -> Result<i64> {
        Ok(self.try_get(column)?)
    }
    fn text(&self, column: &str) -> Result<String> {
        Ok(self.try_get(column)?)
    }
    fn opt_text(&self, column: &str) -> Result<Option<String>> {
        Ok(self.try_get(column)?)
    }
    fn flag(&self, column: &str) -> Result<bool> {
        Ok(self.try_get(column)?)
    }
}

impl SqliteStore {
    async fn with_seats(&self, rows: Vec<SqliteRow>) -> Result<Vec<StoredHand>> {
        let mut hands = rows.iter().map(hand_row).collect::<Result<Vec<_>>>()?;
        if hands.is_empty() {
            return Ok(hands);
        }
        let mut b: QueryBuilder<Sqlite> = QueryBuilder::new(
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

    async fn write(&self, batch: &[Write]) -> Result<()> {
        let p = Plan::new(batch)?;
        let mut tx = self.pool.begin().await?;
        for rows in (0..p.hand_id.len()).collect::<Vec<_>>().chunks(CHUNK) {
            let mut b: QueryBuilder<Sqlite> = QueryBuilder::new(
                "INSERT INTO hands (id, table_id, number, variant, started_at_ms, ended_at_ms, commitment, seed, record) ",
            );
            b.push_values(rows, |mut v, &i| {
                v.push_bind(p.hand_id[i])
                    .push_bind(p.hand_table[i])
                    .push_bind(p.hand_number[i])
                    .push_bind(p.hand_variant[i])
                    .push_bind(p.hand_started[i])
                    .push_bind(p.hand_ended[i])
                    .push_bind(p.hand_commitment[i].as_deref())
                    .push_bind(p.hand_seed[i].as_deref())
                    .push_bind(p.hand_record[i].as_str());
            });
            b.build().execute(&mut *tx).await?;
        }
        for rows in (0..p.seat_hand.len()).collect::<Vec<_>>().chunks(CHUNK) {
            let mut b: QueryBuilder<Sqlite> = QueryBuilder::new(
                "INSERT INTO hand_seats (hand_id, seat, player_id, session_id, name, net, showdown, ended_at_ms) ",
            );
            b.push_values(rows, |mut v, &i| {
                v.push_bind(p.seat_hand[i])
                    .push_bind(p.seat_no[i])
                    .push_bind(p.seat_player[i])
                    .push_bind(p.seat_session[i])
                    .push_bind(p.seat_name[i].as_str())
                    .push_bind(p.seat_net[i])
                    .push_bind(p.seat_showdown[i])
                    .push_bind(p.seat_ended[i]);
            });
            b.build().execute(&mut *tx).await?;
        }
        for rows in p.ledger.chunks(CHUNK) {
            let mut b: QueryBuilder<Sqlite> =
                QueryBuilder::new("INSERT INTO ledger (at_ms, player_id, table_id, kind, balance_delta, stack_delta) ");
            b.push_values(rows, |mut v, r| {
                v.push_bind(r.at_ms)
                    .push_bind(r.player_id)
                    .push_bind(r.table_id)
                    .push_bind(r.kind)
                    .push_bind(r.balance_delta)
                    .push_bind(r.stack_delta);
            });
            b.build().execute(&mut *tx).await?;
        }
        for rows in p.accounts.chunks(CHUNK) {
            let mut b: QueryBuilder<Sqlite> = QueryBuilder::new("INSERT INTO accounts (player_id, balance) ");
            b.push_values(rows, |mut v, (player, delta)| {
                v.push_bind(*player).push_bind(*delta);
            });
            b.push(" ON CONFLICT (player_id) DO UPDATE SET balance = balance + excluded.balance");
            b.build().execute(&mut *tx).await?;
        }
        for rows in p.stacks.chunks(CHUNK) {
            let mut b: QueryBuilder<Sqlite> =
                QueryBuilder::new("INSERT INTO table_stacks (table_id, player_id, stack) ");
            b.push_values(rows, |mut v, (table, player, delta)| {
                v.push_bind(*table).push_bind(*player).push_bind(*delta);
            });
            b.push(" ON CONFLICT (table_id, player_id) DO UPDATE SET stack = stack + excluded.stack");
            b.build().execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn new_session(&self, s: &NewSession) -> Result<()> {
        let now = ms_i64(s.created_at_ms);
        let amount = chips_i64(s.starting_balance);
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO players (id, name, created_at_ms) VALUES (?, ?, ?)")
            .bind(s.player_id)
            .bind(&s.name)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO sessions (id, player_id, token_hash, name, created_at_ms) VALUES (?, ?, ?, ?, ?)")
            .bind(s.session_id)
            .bind(s.player_id)
            .bind(&s.token_hash)
            .bind(&s.name)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO ledger (at_ms, player_id, kind, balance_delta, stack_delta) VALUES (?, ?, 'issue', ?, 0)",
        )
        .bind(now)
        .bind(s.player_id)
        .bind(amount)
        .execute(&mut *tx)
        .await?;
        sqlx::query("INSERT INTO accounts (player_id, balance) VALUES (?, ?)")
            .bind(s.player_id)
            .bind(amount)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn query_hands(&self, q: &HandQuery) -> Result<Vec<StoredHand>> {
        let mut b: QueryBuilder<Sqlite> = QueryBuilder::new(concat!("SELECT ", hand_columns!(), " FROM hands h"));
        if let Some(player) = q.player {
            b.push(" JOIN hand_seats s ON s.hand_id = h.id AND s.player_id = ").push_bind(player);
        }
        b.push(" WHERE 1 = 1");
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

impl Store for SqliteStore {
    fn backend(&self) -> Backend {
        Backend::Sqlite
    }

    fn write_batch<'a>(&'a self, batch: &'a [Write]) -> BoxFuture<'a, Result<()>> {
        Box::pin(self.write(batch))
    }

    fn create_session<'a>(&'a self, session: &'a NewSession) -> BoxFuture<'a, Result<()>> {
        Box::pin(self.new_session(session))
    }

    fn session_by_token<'a>(&'a self, token_hash: &'a str) -> BoxFuture<'a, Result<Option<StoredSession>>> {
        Box::pin(async move {
            let row = sqlx::query("SELECT id, player_id, name FROM sessions WHERE token_hash = ?")
                .bind(token_hash)
                .fetch_optional(&self.pool)
                .await?;
            row.as_ref().map(session_row).transpose()
        })
    }

    fn balance(&self, player: Uuid) -> BoxFuture<'_, Result<Chips>> {
        Box::pin(async move {
            let balance: Option<i64> = sqlx::query_scalar("SELECT balance FROM accounts WHERE player_id = ?")
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
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name, config = excluded.config,
                   min_buy_in = excluded.min_buy_in, max_buy_in = excluded.max_buy_in, closed = excluded.closed,
                   settings = excluded.settings",
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

    fn session_hands(&self, session: Uuid, limit: u32) -> BoxFuture<'_, Result<Vec<StoredHand>>> {
        Box::pin(async move {
            let rows = sqlx::query(concat!(
                "SELECT ",
                hand_columns!(),
                " FROM hand_seats s JOIN hands h ON h.id = s.hand_id
                 WHERE s.session_id = ? ORDER BY s.ended_at_ms DESC, s.hand_id DESC LIMIT ?"
            ))
            .bind(session)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
            self.with_seats(rows).await
        })
    }

    fn hand(&self, id: Uuid) -> BoxFuture<'_, Result<Option<StoredHand>>> {
        Box::pin(async move {
            let rows = sqlx::query(concat!("SELECT ", hand_columns!(), " FROM hands h WHERE h.id = ?"))
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
                "SELECT number FROM hands WHERE table_id = ? ORDER BY ended_at_ms DESC, id DESC LIMIT 1",
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

    fn totals(&self) -> BoxFuture<'_, Result<LedgerTotals>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT
                   (SELECT COALESCE(SUM(balance_delta), 0) FROM ledger WHERE kind = 'issue') AS issued,
                   (SELECT COALESCE(SUM(balance), 0) FROM accounts) AS balances,
                   (SELECT COALESCE(SUM(stack), 0) FROM table_stacks) AS on_tables,
                   (SELECT COALESCE(SUM(balance_delta + stack_delta), 0) FROM ledger)
                     + (SELECT COALESCE(SUM(net), 0) FROM hand_seats) AS ledger_sum",
            )
            .fetch_one(&self.pool)
            .await?;
            totals_row(&row)
        })
    }

    fn add_operator_key<'a>(&'a self, key: &'a OperatorKey) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO operator_keys (id, name, key_hash, created_at_ms, revoked) VALUES (?, ?, ?, ?, ?)",
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
            let row = sqlx::query("SELECT id, name, key_hash, created_at_ms, revoked FROM operator_keys WHERE key_hash = ? AND NOT revoked")
                .bind(key_hash)
                .fetch_optional(&self.pool)
                .await?;
            row.as_ref().map(key_row).transpose()
        })
    }

    fn log_admin<'a>(&'a self, e: &'a AdminLogEntry) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            sqlx::query("INSERT INTO admin_log (at_ms, operator, action, target, detail) VALUES (?, ?, ?, ?, ?)")
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
                sqlx::query("SELECT at_ms, operator, action, target, detail FROM admin_log ORDER BY id DESC LIMIT ?")
                    .bind(i64::from(limit))
                    .fetch_all(&self.pool)
                    .await?;
            rows.iter().map(log_row).collect()
        })
    }

    fn ban<'a>(&'a self, b: &'a Ban) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            sqlx::query("INSERT INTO bans (player_id, scope, at_ms, reason) VALUES (?, ?, ?, ?) ON CONFLICT (player_id, scope) DO UPDATE SET reason = excluded.reason")
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
            let done = sqlx::query("DELETE FROM bans WHERE player_id = ? AND scope = ?")
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
}
