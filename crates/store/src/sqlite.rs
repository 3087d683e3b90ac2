//! The SQLite store: the embedded default. WAL journal, `synchronous = NORMAL` (a committed
//! batch survives a process crash; a power cut may lose the last batches, never half of one).
//! Batches go in as multi-row `INSERT … VALUES` statements.
//!
//! The tables' journal lives in a file of its own next to the database
//! ([`SqliteStore::journal_file`]), synced at every commit (`FULL`): SQLite lets one writer at a
//! time into a file, and a table's every input waits for its append, so the appends must not
//! queue behind the batching writer's transactions and checkpoints in the main file. The
//! snapshot that makes journal entries obsolete is stored in the main file with the writes it
//! covers; the entries are pruned from the journal file after that commit (entries at or
//! below a table's snapshot are ignored by a load, so a prune that never happened costs only
//! space). An in-memory database keeps everything in its one connection.

use std::str::FromStr;
use std::time::Duration;

use futures_util::future::BoxFuture;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{QueryBuilder, Row, Sqlite};
use stud_engine::Chips;
use uuid::Uuid;

use crate::error::{Result, StoreError};
use crate::model::{
    AdminLogEntry, Backend, Ban, BanScope, HandQuery, HandSeat, JournalRow, LedgerLine, LedgerQuery, LedgerTotals,
    NewSession, OpenStack, OperatorKey, PoolSettings, StoredHand, StoredSession, StoredTable, TableJournal,
    WarmSession, Write, chips_i64, ms_i64, to_u64,
};
use crate::plan::Plan;
use crate::rows::{
    Cols, attach_seats, ban_row, encode_table, hand_row, key_row, ledger_row, log_row, seat_row, session_row,
    stack_row, table_row, totals_row,
};
use crate::store::Store;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/sqlite");

/// Rows per multi-row INSERT: stays far below SQLite's 32766 bound parameters.
const CHUNK: usize = 1000;

/// The SQLite store.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: SqlitePool,
    /// the tables' journal appends: the journal file, one connection synced at every commit
    /// (the main pool for an in-memory database, which lives in its one connection)
    journal_pool: SqlitePool,
    /// prunes of the journal file (one connection, `synchronous = NORMAL`: a prune lost to a
    /// power cut costs nothing); `None` for an in-memory database, whose journal is pruned in
    /// the batch's own transaction
    journal_prune: Option<SqlitePool>,
    /// Taken by the main file's steady writers, the writer's batches and the balance holds
    /// (see `journal_gate`).
    write_gate: std::sync::Arc<tokio::sync::Mutex<()>>,
    /// Taken by the journal file's two writers, appends and prunes: one that finds the file
    /// locked would wait in SQLite's busy handler, which sleeps up to 100 ms between tries.
    /// Queued here instead, an append starts the moment the prune before it commits.
    journal_gate: std::sync::Arc<tokio::sync::Mutex<()>>,
}

/// The journal file's one table (the same as the main file's `table_journal` of migration
/// 0003, which an in-memory database uses and a file database no longer writes).
const JOURNAL_SCHEMA: &str = "CREATE TABLE IF NOT EXISTS table_journal (
    table_id BLOB NOT NULL,
    n        INTEGER NOT NULL,
    at_ms    INTEGER NOT NULL,
    entry    TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
)";

impl SqliteStore {
    /// Opens (creating the files if needed) and migrates.
    ///
    /// # Errors
    /// A file cannot be opened or a migration fails.
    pub async fn connect(url: &str) -> Result<SqliteStore> {
        SqliteStore::connect_pooled(url, PoolSettings::default()).await
    }

    /// [`SqliteStore::connect`], with the pools' settings (an in-memory database keeps its one
    /// connection whatever they say).
    ///
    /// # Errors
    /// As [`SqliteStore::connect`].
    pub async fn connect_pooled(url: &str, pools: PoolSettings) -> Result<SqliteStore> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10));
        let memory = url.contains(":memory:") || url.contains("mode=memory");
        let mut pool = SqlitePoolOptions::new().max_connections(4).idle_timeout(pools.idle_timeout);
        if memory {
            // An in-memory database lives and dies with its one connection: keep exactly one,
            // for ever.
            pool = pool.max_connections(1).min_connections(1).idle_timeout(None).max_lifetime(None);
        }
        let pool = pool.connect_with(options.clone()).await?;
        MIGRATOR.run(&pool).await?;
        if memory {
            let gate = std::sync::Arc::default();
            return Ok(SqliteStore {
                journal_pool: pool.clone(),
                pool,
                journal_prune: None,
                write_gate: std::sync::Arc::default(),
                journal_gate: gate,
            });
        }
        // The journal is synced at every commit (`FULL`): an input a client saw applied must
        // survive a power cut too, not only a crash of the process.
        let journal = options.clone().filename(SqliteStore::journal_file(options.get_filename()));
        let journal_pool = SqlitePoolOptions::new()
            .max_connections(1)
            .idle_timeout(pools.idle_timeout)
            .connect_with(journal.clone().synchronous(SqliteSynchronous::Full))
            .await?;
        sqlx::query(JOURNAL_SCHEMA).execute(&journal_pool).await?;
        let journal_prune =
            SqlitePoolOptions::new().max_connections(1).idle_timeout(pools.idle_timeout).connect_lazy_with(journal);
        let store = SqliteStore {
            pool,
            journal_pool,
            journal_prune: Some(journal_prune),
            write_gate: std::sync::Arc::default(),
            journal_gate: std::sync::Arc::default(),
        };
        store.move_old_journal().await?;
        Ok(store)
    }

    /// The file that holds the tables' journal of the database file `db`: `stud.db` →
    /// `stud.db.table-journal` (with its own `-wal` and `-shm` beside it). A backup of a
    /// database file must take it too.
    pub fn journal_file(db: &std::path::Path) -> std::path::PathBuf {
        let mut name = db.as_os_str().to_owned();
        name.push(".table-journal");
        name.into()
    }

    /// Entries a version that kept the journal in the main file left there (a server stopped
    /// mid-hand before the upgrade) move to the journal file, so that hand resumes. Copied
    /// first, deleted after: a crash in between copies them again, and the copy skips what is
    /// there already.
    async fn move_old_journal(&self) -> Result<()> {
        let old = sqlx::query("SELECT table_id, n, at_ms, entry FROM table_journal").fetch_all(&self.pool).await?;
        if old.is_empty() {
            return Ok(());
        }
        let mut rows = Vec::with_capacity(old.len());
        for r in &old {
            rows.push(JournalRow {
                table_id: r.uuid("table_id")?,
                n: to_u64(r.int("n")?, "n")?,
                at_ms: to_u64(r.int("at_ms")?, "at_ms")?,
                entry: r.text("entry")?,
            });
        }
        self.insert_journal(&rows, " ON CONFLICT (table_id, n) DO NOTHING").await?;
        sqlx::query("DELETE FROM table_journal").execute(&self.pool).await?;
        tracing::info!(entries = rows.len(), "table journal: moved to its own file");
        Ok(())
    }
}

impl SqliteStore {
    /// The pool (tests and tools).
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Nothing to wait for: SQLite runs inside this process, so no transaction of an earlier
    /// process can still commit (see `PgStore::settle_writers`).
    #[allow(clippy::unused_async)]
    pub(crate) async fn settle_writers(&self) -> Result<()> {
        Ok(())
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
    /// SQLite locks the whole database for a write: nothing to add to [`Self::fence`]'s read.
    const LOCK_ROWS: &'static str = "";

    /// A transaction that reads before it writes takes the write lock at its start. Begun
    /// deferred, its first write fails at once (`SQLITE_BUSY_SNAPSHOT`, 517, or `SQLITE_BUSY`)
    /// whenever another connection wrote after its read, without waiting in the busy handler:
    /// a 1,000-player tournament on SQLite made the writer's batches fail and retry 276 times
    /// that way (BENCHMARKS.md). Immediate, it waits its turn like any other writer.
    const BEGIN_WRITE: &'static str = "BEGIN IMMEDIATE";

    /// A hold takes its turn with the writer's batches at the main file's write lock.
    async fn hold_gate(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        Some(self.write_gate.lock().await)
    }

    async fn write(&self, batch: &[Write]) -> Result<()> {
        let _gate = self.write_gate.lock().await;
        let mut tx = self.pool.begin_with(Self::BEGIN_WRITE).await?;
        let batch = self.fence(&mut tx, batch).await?;
        let p = Plan::new(&batch)?;
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
        // The batch is stored: an error now must not make the writer store it again.
        let done: Vec<(Uuid, i64)> = p.snapshots.iter().map(|(t, n, _)| (*t, *n)).collect();
        if let Err(e) = self.prune_after_commit(&done).await {
            tracing::warn!(error = %e, "table journal: prune failed; the entries stay until the next snapshot");
        }
        Ok(())
    }
}

impl SqliteStore {
    async fn append_journal(&self, rows: &[JournalRow]) -> Result<()> {
        self.insert_journal(rows, "").await
    }

    async fn insert_journal(&self, rows: &[JournalRow], on_conflict: &str) -> Result<()> {
        let _gate = self.journal_gate.lock().await;
        let mut tx = self.journal_pool.begin().await?;
        for chunk in rows.chunks(CHUNK) {
            let mut b: QueryBuilder<Sqlite> =
                QueryBuilder::new("INSERT INTO table_journal (table_id, n, at_ms, entry) ");
            b.push_values(chunk, |mut v, r| {
                v.push_bind(r.table_id).push_bind(ms_i64(r.n)).push_bind(ms_i64(r.at_ms)).push_bind(r.entry.as_str());
            });
            b.push(on_conflict);
            b.build().execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// In memory the journal is in the batch's own file and transaction.
    async fn prune_in_tx(&self, tx: &mut sqlx::Transaction<'static, Sqlite>, table: Uuid, n: i64) -> Result<()> {
        if self.journal_prune.is_none() {
            sqlx::query("DELETE FROM table_journal WHERE table_id = $1 AND n <= $2")
                .bind(table)
                .bind(n)
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }

    /// Drops the journal file's entries at or below each table's stored snapshot.
    async fn prune_after_commit(&self, done: &[(Uuid, i64)]) -> Result<()> {
        let Some(prune) = &self.journal_prune else { return Ok(()) };
        if done.is_empty() {
            return Ok(());
        }
        let _gate = self.journal_gate.lock().await;
        let mut tx = prune.begin().await?;
        for (table, n) in done {
            sqlx::query("DELETE FROM table_journal WHERE table_id = $1 AND n <= $2")
                .bind(*table)
                .bind(*n)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    fn journal_reader(&self) -> &SqlitePool {
        &self.journal_pool
    }

    /// Moves each table's stored mark forward (never back).
    async fn write_marks(&self, tx: &mut sqlx::Transaction<'static, Sqlite>, marks: &[(Uuid, i64)]) -> Result<()> {
        for (table, n) in marks {
            sqlx::query("UPDATE table_state SET stored_n = MAX(stored_n, $2) WHERE table_id = $1")
                .bind(*table)
                .bind(*n)
                .execute(&mut **tx)
                .await?;
            // The holds these inputs' movements settle (see `Store::hold`).
            sqlx::query("DELETE FROM account_holds WHERE table_id = $1 AND n <= $2")
                .bind(*table)
                .bind(*n)
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }
}

store_impl!(SqliteStore, Sqlite, Backend::Sqlite);
