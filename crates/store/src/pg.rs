//! The Postgres store. Batches go in as one `INSERT … SELECT FROM UNNEST(arrays)` per table,
//! so a batch of any size is a handful of statements.

use std::str::FromStr;
use std::time::Duration;

use futures_util::future::BoxFuture;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions, PgRow};
use sqlx::{Postgres, QueryBuilder, Row};
use stud_engine::Chips;
use uuid::Uuid;

use crate::{
    AdminLogEntry, Backend, Ban, BanScope, Cols, HandQuery, HandSeat, LedgerTotals, NewSession, OpenStack, OperatorKey,
    Plan, Result, Store, StoredHand, StoredSession, StoredTable, Write, attach_seats, ban_row, chips_i64, encode_table,
    hand_row, key_row, log_row, ms_i64, seat_row, session_row, stack_row, table_row, to_u64, totals_row,
};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/postgres");

/// The Postgres store.
#[derive(Clone, Debug)]
pub struct PgStore {
    pool: PgPool,
}

impl PgStore {
    /// Connects and migrates.
    ///
    /// # Errors
    /// The database cannot be reached or a migration fails.
    pub async fn connect(url: &str) -> Result<PgStore> {
        let options = PgConnectOptions::from_str(url)?;
        PgStore::connect_with(options).await
    }

    /// Connects with explicit options (tests use a schema of their own) and migrates.
    ///
    /// # Errors
    /// The database cannot be reached or a migration fails.
    pub async fn connect_with(options: PgConnectOptions) -> Result<PgStore> {
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(Duration::from_secs(5))
            .connect_with(options)
            .await?;
        MIGRATOR.run(&pool).await?;
        Ok(PgStore { pool })
    }

    /// The pool (tests and tools).
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }
}

impl Cols for PgRow {
    fn uuid(&self, column: &str) -> Result<Uuid> {
        Ok(self.try_get(column)?)
    }
    fn int(&self, column: &str) -> Result<i64> {
        // `seat` is a SMALLINT; everything else is a BIGINT.
        match self.try_get::<i64, _>(column) {
            Ok(v) => Ok(v),
            Err(_) => Ok(i64::from(self.try_get::<i16, _>(column)?)),
        }
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

impl PgStore {
    async fn with_seats(&self, rows: Vec<PgRow>) -> Result<Vec<StoredHand>> {
        let mut hands = rows.iter().map(hand_row).collect::<Result<Vec<_>>>()?;
        if hands.is_empty() {
            return Ok(hands);
        }
        let ids: Vec<Uuid> = hands.iter().map(|h| h.hand_id).collect();
        let rows = sqlx::query(
            "SELECT hand_id, seat, player_id, session_id, name, net, showdown FROM hand_seats WHERE hand_id = ANY($1)",
        )
        .bind(&ids)
        .fetch_all(&self.pool)
        .await?;
        let seats = rows.iter().map(seat_row).collect::<Result<Vec<(Uuid, HandSeat)>>>()?;
        attach_seats(&mut hands, seats);
        Ok(hands)
    }

    async fn write(&self, batch: &[Write]) -> Result<()> {
        let p = Plan::new(batch)?;
        let mut tx = self.pool.begin().await?;
        if !p.hand_id.is_empty() {
            sqlx::query(
                "INSERT INTO hands (id, table_id, number, variant, started_at_ms, ended_at_ms, commitment, seed, record)
                 SELECT * FROM UNNEST($1::uuid[], $2::uuid[], $3::int8[], $4::text[], $5::int8[], $6::int8[],
                                      $7::text[], $8::text[], $9::text[])",
            )
            .bind(&p.hand_id)
            .bind(&p.hand_table)
            .bind(&p.hand_number)
            .bind(&p.hand_variant)
            .bind(&p.hand_started)
            .bind(&p.hand_ended)
            .bind(&p.hand_commitment)
            .bind(&p.hand_seed)
            .bind(&p.hand_record)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO hand_seats (hand_id, seat, player_id, session_id, name, net, showdown, ended_at_ms)
                 SELECT * FROM UNNEST($1::uuid[], $2::int2[], $3::uuid[], $4::uuid[], $5::text[], $6::int8[],
                                      $7::bool[], $8::int8[])",
            )
            .bind(&p.seat_hand)
            .bind(&p.seat_no)
            .bind(&p.seat_player)
            .bind(&p.seat_session)
            .bind(&p.seat_name)
            .bind(&p.seat_net)
            .bind(&p.seat_showdown)
            .bind(&p.seat_ended)
            .execute(&mut *tx)
            .await?;
        }
        if !p.ledger.is_empty() {
            let col = |f: fn(&crate::LedgerRow) -> i64| p.ledger.iter().map(f).collect::<Vec<i64>>();
            let players: Vec<Uuid> = p.ledger.iter().map(|r| r.player_id).collect();
            let tables: Vec<Option<Uuid>> = p.ledger.iter().map(|r| r.table_id).collect();
            let kinds: Vec<&str> = p.ledger.iter().map(|r| r.kind).collect();
            sqlx::query(
                "INSERT INTO ledger (at_ms, player_id, table_id, kind, balance_delta, stack_delta)
                 SELECT * FROM UNNEST($1::int8[], $2::uuid[], $3::uuid[], $4::text[], $5::int8[], $6::int8[])",
            )
            .bind(col(|r| r.at_ms))
            .bind(&players)
            .bind(&tables)
            .bind(&kinds)
            .bind(col(|r| r.balance_delta))
            .bind(col(|r| r.stack_delta))
            .execute(&mut *tx)
            .await?;
        }
        if !p.accounts.is_empty() {
            let (players, deltas): (Vec<Uuid>, Vec<i64>) = p.accounts.iter().copied().unzip();
            sqlx::query(
                "INSERT INTO accounts (player_id, balance) SELECT * FROM UNNEST($1::uuid[], $2::int8[])
                 ON CONFLICT (player_id) DO UPDATE SET balance = accounts.balance + EXCLUDED.balance",
            )
            .bind(&players)
            .bind(&deltas)
            .execute(&mut *tx)
            .await?;
        }
        if !p.stacks.is_empty() {
            let tables: Vec<Uuid> = p.stacks.iter().map(|s| s.0).collect();
            let players: Vec<Uuid> = p.stacks.iter().map(|s| s.1).collect();
            let deltas: Vec<i64> = p.stacks.iter().map(|s| s.2).collect();
            sqlx::query(
                "INSERT INTO table_stacks (table_id, player_id, stack)
                 SELECT * FROM UNNEST($1::uuid[], $2::uuid[], $3::int8[])
                 ON CONFLICT (table_id, player_id) DO UPDATE SET stack = table_stacks.stack + EXCLUDED.stack",
            )
            .bind(&tables)
            .bind(&players)
            .bind(&deltas)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
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
            "INSERT INTO sessions (id, player_id, token_hash, name, created_at_ms) VALUES ($1, $2, $3, $4, $5)",
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

    async fn query_hands(&self, q: &HandQuery) -> Result<Vec<StoredHand>> {
        let mut b: QueryBuilder<Postgres> = QueryBuilder::new(concat!("SELECT ", hand_columns!(), " FROM hands h"));
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

impl Store for PgStore {
    fn backend(&self) -> Backend {
        Backend::Postgres
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

    fn session_hands(&self, session: Uuid, limit: u32) -> BoxFuture<'_, Result<Vec<StoredHand>>> {
        Box::pin(async move {
            let rows = sqlx::query(concat!(
                "SELECT ",
                hand_columns!(),
                " FROM hand_seats s JOIN hands h ON h.id = s.hand_id
                     WHERE s.session_id = $1 ORDER BY s.ended_at_ms DESC, s.hand_id DESC LIMIT $2"
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

    fn totals(&self) -> BoxFuture<'_, Result<LedgerTotals>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT
                   (SELECT COALESCE(SUM(balance_delta), 0)::int8 FROM ledger WHERE kind = 'issue') AS issued,
                   (SELECT COALESCE(SUM(balance), 0)::int8 FROM accounts) AS balances,
                   (SELECT COALESCE(SUM(stack), 0)::int8 FROM table_stacks) AS on_tables,
                   (SELECT COALESCE(SUM(balance_delta + stack_delta), 0)::int8 FROM ledger)
                     + (SELECT COALESCE(SUM(net), 0)::int8 FROM hand_seats) AS ledger_sum",
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
}
