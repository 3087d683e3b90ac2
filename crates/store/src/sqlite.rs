//! The SQLite store: the embedded default. WAL journal, `synchronous = NORMAL` (a committed
//! batch survives a process crash; a power cut may lose the last batches, never half of one),
//! except the tables' journal appends, which have a connection of their own synced at every
//! commit (`FULL`). The writer's batches and the journal's appends take turns through one async
//! lock, so neither waits in SQLite's sleeping busy handler for the other.
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
    AdminLogEntry, Backend, Ban, BanScope, Cols, HandQuery, HandSeat, JournalRow, LedgerLine, LedgerQuery,
    LedgerTotals, NewSession, OpenStack, OperatorKey, Plan, Result, Store, StoreError, StoredHand, StoredSession,
    StoredTable, TableJournal, Write, attach_seats, ban_row, chips_i64, encode_table, hand_row, key_row, ledger_row,
    log_row, ms_i64, seat_row, session_row, stack_row, table_row, to_u64, totals_row,
};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/sqlite");

/// Rows per multi-row INSERT: stays far below SQLite's 32766 bound parameters.
const CHUNK: usize = 1000;

/// The SQLite store.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: SqlitePool,
    /// the tables' journal appends only (the same pool for an in-memory database, which
    /// lives in its one connection)
    journal_pool: SqlitePool,
    /// Taken by the writer's batches and the journal's appends, the two steady writers: SQLite
    /// lets one connection write at a time, and one that finds the file locked waits in
    /// SQLite's busy handler, which sleeps up to 100 ms between tries. Queued here instead,
    /// an append starts the moment the batch before it commits.
    write_gate: std::sync::Arc<tokio::sync::Mutex<()>>,
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
        let pool = pool.connect_with(options.clone()).await?;
        MIGRATOR.run(&pool).await?;
        // The journal is synced at every commit (`FULL`): an input a client saw applied must
        // survive a power cut too, not only a crash of the process.
        let journal_pool = match memory {
            true => pool.clone(),
            false => SqlitePoolOptions::new()
                .max_connections(1)
                .connect_lazy_with(options.synchronous(SqliteSynchronous::Full)),
        };
        Ok(SqliteStore { pool, journal_pool, write_gate: std::sync::Arc::default() })
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
    fn opt_uuid(&self, column: &str) -> Result<Option<Uuid>> {
        Ok(self.try_get(column)?)
    }
    fn opt_int(&self, column: &str) -> Result<Option<i64>> {
        Ok(self.try_get(column)?)
    }
    fn flag(&self, column: &str) -> Result<bool> {
        Ok(self.try_get(column)?)
    }
}

impl SqliteStore {
    async fn write(&self, batch: &[Write]) -> Result<()> {
        let p = Plan::new(batch)?;
        let _gate = self.write_gate.lock().await;
        let mut tx = self.pool.begin().await?;
        for rows in (0..p.hand_id.len()).collect::<Vec<_>>().chunks(CHUNK) {
            let mut b: QueryBuilder<Sqlite> = QueryBuilder::new(
                "INSERT INTO hands (id, table_id, number, variant, started_at_ms, ended_at_ms, commitment, seed, record, \
                 tournament_id, tournament_level) ",
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
                    .push_bind(p.hand_record[i].as_str())
                    .push_bind(p.hand_tournament[i])
                    .push_bind(p.hand_level[i]);
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
        self.write_table_state(&mut tx, &p).await?;
        tx.commit().await?;
        Ok(())
    }
}

impl SqliteStore {
    async fn append_journal(&self, rows: &[JournalRow]) -> Result<()> {
        // A pool of its own: a table's every input waits for this, so it must not queue
        // behind a burst of logins or history reads.
        let _gate = self.write_gate.lock().await;
        let mut tx = self.journal_pool.begin().await?;
        for chunk in rows.chunks(1000) {
            let mut b: QueryBuilder<Sqlite> =
                QueryBuilder::new("INSERT INTO table_journal (table_id, n, at_ms, entry) ");
            b.push_values(chunk, |mut v, r| {
                v.push_bind(r.table_id).push_bind(ms_i64(r.n)).push_bind(ms_i64(r.at_ms)).push_bind(r.entry.as_str());
            });
            b.build().execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Moves each table's stored mark forward (never back).
    async fn write_marks(&self, tx: &mut sqlx::Transaction<'static, Sqlite>, marks: &[(Uuid, i64)]) -> Result<()> {
        for (table, n) in marks {
            sqlx::query("UPDATE table_state SET stored_n = MAX(stored_n, $2) WHERE table_id = $1")
                .bind(*table)
                .bind(*n)
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }
}

store_impl!(SqliteStore, Sqlite, Backend::Sqlite);
