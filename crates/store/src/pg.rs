//! The Postgres store. Batches go in as one `INSERT … SELECT FROM UNNEST(arrays)` per table,
//! so a batch of any size is a handful of statements.

use std::str::FromStr;
use std::time::Duration;

use futures_util::future::BoxFuture;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions, PgRow};
use sqlx::{Postgres, QueryBuilder, Row};
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

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/postgres");

/// How long reading the journals at start waits for other sessions' writes to end, seconds.
const SETTLE_WAIT_S: u64 = 10;

/// Connections for the tables' journal appends: as many group commits run at once. With two,
/// a commit that stalls behind the write-ahead log's flush held up every append after it
/// (1.6 % of appends waited over 5 ms); four cut that to 0.5-0.8 %, eight did no better
/// (BENCHMARKS.md).
pub const JOURNAL_CONNECTIONS: u32 = 4;

/// The Postgres store.
#[derive(Clone, Debug)]
pub struct PgStore {
    pool: PgPool,
    /// the tables' journal appends only (group commits, [`JOURNAL_CONNECTIONS`] at once)
    journal_pool: PgPool,
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
        PgStore::connect_pooled(options, PoolSettings::default()).await
    }

    /// [`PgStore::connect_with`], with the pools' settings.
    ///
    /// # Errors
    /// As [`PgStore::connect_with`].
    pub async fn connect_pooled(options: PgConnectOptions, pools: PoolSettings) -> Result<PgStore> {
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(Duration::from_secs(5))
            .idle_timeout(pools.idle_timeout)
            .connect_with(options.clone())
            .await?;
        MIGRATOR.run(&pool).await?;
        let journal_pool = PgPoolOptions::new()
            .max_connections(JOURNAL_CONNECTIONS)
            .acquire_timeout(Duration::from_secs(5))
            .idle_timeout(pools.idle_timeout)
            .connect_lazy_with(options);
        Ok(PgStore { pool, journal_pool })
    }

    /// Waits until every transaction writing the journal or the tables' state when it is
    /// called has ended. A process killed mid-commit leaves its backend running: its last
    /// append can still commit after the next process started, and if that process read the
    /// journal first, it would journal the same input number again (a duplicate key, refused
    /// as `unavailable`). `SHARE` conflicts with the writers' `ROW EXCLUSIVE`, so taking it
    /// waits for them; it is let go at once. A transaction that stays open longer than
    /// [`SETTLE_WAIT_S`] (a session left in a transaction by hand, say) is logged and not
    /// waited for: the server starts.
    pub(crate) async fn settle_writers(&self) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        match wait_for_writers(&mut tx, "table_journal, table_state").await {
            Ok(()) => tx.commit().await?,
            // 55P03: lock_not_available (the timeout).
            Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("55P03") => {
                tracing::warn!(
                    wait_s = SETTLE_WAIT_S,
                    "another session has been writing the table journal for too long; reading it without waiting"
                );
                tx.rollback().await?;
            }
            Err(e) => return Err(e.into()),
        }
        Ok(())
    }

    /// The pool (tests and tools).
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }
}

/// Takes `SHARE` on `tables` in `tx`: waits for every transaction writing them when it is
/// asked (`SHARE` conflicts with their `ROW EXCLUSIVE`), at most [`SETTLE_WAIT_S`] (then
/// `lock_not_available`, 55P03).
async fn wait_for_writers(tx: &mut sqlx::Transaction<'static, Postgres>, tables: &str) -> Result<(), sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!("SET LOCAL lock_timeout = '{SETTLE_WAIT_S}s'"))).execute(&mut **tx).await?;
    sqlx::query(sqlx::AssertSqlSafe(format!("LOCK TABLE {tables} IN SHARE MODE"))).execute(&mut **tx).await?;
    Ok(())
}

/// The longest wait between two reads of an unclear append.
const RESOLVE_RETRY: Duration = Duration::from_secs(1);

/// Whether a failed statement (on a connection already had) certainly did not commit: the
/// server answered with the statement's error (its own transaction is then rolled back), or
/// it could not be sent. Anything else (the connection lost or ended mid-way) may have committed.
fn outcome_known(e: &sqlx::Error) -> bool {
    if let sqlx::Error::Database(db) = e {
        // The server's own end of the connection (57: an operator or a shutdown ended it; 08:
        // connection; XX: internal) may come after the commit; any other error is the
        // statement's, which then did not commit.
        let class = db.code().map(|c| c.chars().take(2).collect::<String>());
        return !matches!(class.as_deref(), Some("57" | "08" | "XX"));
    }
    matches!(e, sqlx::Error::Configuration(_) | sqlx::Error::InvalidArgument(_) | sqlx::Error::Encode(_))
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

impl PgStore {
    /// How [`Self::fence`] locks the marks it reads.
    const LOCK_ROWS: &'static str = " FOR UPDATE";

    /// A transaction that reads before it writes: Postgres locks the rows it writes, a plain
    /// `BEGIN` is enough (see the SQLite store's).
    const BEGIN_WRITE: &'static str = "BEGIN";

    /// Nothing to queue behind: Postgres locks the account's row.
    #[allow(clippy::unused_async)]
    async fn hold_gate(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        None
    }

    async fn write(&self, batch: &[Write]) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        let batch = self.fence(&mut tx, batch).await?;
        let p = Plan::new(&batch)?;
        if !p.hand_id.is_empty() {
            sqlx::query(
                "INSERT INTO hands (id, table_id, number, variant, started_at_ms, ended_at_ms, commitment, seed, record,
                                    tournament_id, tournament_level)
                 SELECT * FROM UNNEST($1::uuid[], $2::uuid[], $3::int8[], $4::text[], $5::int8[], $6::int8[],
                                      $7::text[], $8::text[], $9::text[], $10::uuid[], $11::int8[])",
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
            .bind(&p.hand_tournament)
            .bind(&p.hand_level)
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
            let col = |f: fn(&crate::plan::LedgerRow) -> i64| p.ledger.iter().map(f).collect::<Vec<i64>>();
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
        self.write_table_state(&mut tx, &p).await?;
        tx.commit().await?;
        Ok(())
    }
}

impl PgStore {
    async fn append_journal(&self, rows: &[JournalRow]) -> Result<()> {
        // A pool of its own: a table's every input waits for this, so it must not queue
        // behind a burst of logins or history reads. One statement text for any group size
        // (arrays), so it is prepared once per connection.
        let Some(first) = rows.first() else { return Ok(()) };
        let tables: Vec<Uuid> = rows.iter().map(|r| r.table_id).collect();
        let ns: Vec<i64> = rows.iter().map(|r| ms_i64(r.n)).collect();
        let ats: Vec<i64> = rows.iter().map(|r| ms_i64(r.at_ms)).collect();
        let entries: Vec<&str> = rows.iter().map(|r| r.entry.as_str()).collect();
        // No connection: nothing was sent (refused at once, as when the database is down).
        let mut conn = self.journal_pool.acquire().await?;
        let sent = sqlx::query(
            "INSERT INTO table_journal (table_id, n, at_ms, entry)
             SELECT * FROM UNNEST($1::uuid[], $2::int8[], $3::int8[], $4::text[])",
        )
        .bind(&tables)
        .bind(&ns)
        .bind(&ats)
        .bind(&entries)
        .execute(&mut *conn)
        .await;
        drop(conn);
        match sent {
            Ok(_) => Ok(()),
            Err(e) if outcome_known(&e) => Err(e.into()),
            Err(e) => {
                // The connection failed after the statement may have been sent: it may have
                // committed. Refusing the inputs then would let a restart replay an input its
                // player was told failed (and the table's next input would meet its number
                // taken), so the outcome is read back. One statement: all its rows or none.
                tracing::warn!(error = %e, entries = rows.len(), "table journal: an append's outcome is unclear; reading it back");
                if self.resolve_append(first).await { Ok(()) } else { Err(e.into()) }
            }
        }
    }

    /// Whether `row` is in the journal, as written: asked until the database answers (every
    /// [`RESOLVE_RETRY`] at most), since an append's fate must be known before its table goes on.
    async fn resolve_append(&self, row: &JournalRow) -> bool {
        let mut wait = Duration::from_millis(10);
        loop {
            match self.read_back(row).await {
                Ok(stored) => {
                    tracing::info!(stored, table = %row.table_id, n = row.n, "table journal: an unclear append read back");
                    return stored;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "table journal: cannot read an unclear append back yet; trying again");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(RESOLVE_RETRY);
                }
            }
        }
    }

    /// One read of an unclear append. The backend that ran it may still be running it (a lost
    /// connection is noticed by the server only when it next writes to it; a commit can be
    /// waiting for its WAL flush): the read waits for every writer of the journal in progress,
    /// as [`PgStore::settle_writers`] does, so it sees its outcome.
    async fn read_back(&self, row: &JournalRow) -> Result<bool> {
        let mut tx = self.journal_pool.begin().await?;
        wait_for_writers(&mut tx, "table_journal").await?;
        let found = sqlx::query("SELECT entry = $3 AS ours FROM table_journal WHERE table_id = $1 AND n = $2")
            .bind(row.table_id)
            .bind(ms_i64(row.n))
            .bind(row.entry.as_str())
            .fetch_optional(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(match found {
            Some(r) => r.try_get::<bool, _>("ours")?,
            None => false,
        })
    }

    /// Moves each table's stored mark forward (never back), in one statement.
    async fn write_marks(&self, tx: &mut sqlx::Transaction<'static, Postgres>, marks: &[(Uuid, i64)]) -> Result<()> {
        if marks.is_empty() {
            return Ok(());
        }
        let (tables, ns): (Vec<Uuid>, Vec<i64>) = marks.iter().copied().unzip();
        sqlx::query(
            "UPDATE table_state t SET stored_n = GREATEST(t.stored_n, x.n)
             FROM UNNEST($1::uuid[], $2::int8[]) AS x(table_id, n) WHERE t.table_id = x.table_id",
        )
        .bind(&tables)
        .bind(&ns)
        .execute(&mut **tx)
        .await?;
        // The holds these inputs' movements settle (see `Store::hold`).
        sqlx::query(
            "DELETE FROM account_holds h USING UNNEST($1::uuid[], $2::int8[]) AS x(table_id, n)
             WHERE h.table_id = x.table_id AND h.n <= x.n",
        )
        .bind(&tables)
        .bind(&ns)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

impl PgStore {
    /// The journal is in the same database: pruned in the transaction that stores the snapshot.
    async fn prune_in_tx(&self, tx: &mut sqlx::Transaction<'static, Postgres>, table: Uuid, n: i64) -> Result<()> {
        sqlx::query("DELETE FROM table_journal WHERE table_id = $1 AND n <= $2")
            .bind(table)
            .bind(n)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    #[allow(clippy::unused_async)] // the SQLite store's counterpart awaits
    async fn prune_after_commit(&self, _done: &[(Uuid, i64)]) -> Result<()> {
        Ok(())
    }

    fn journal_reader(&self) -> &PgPool {
        &self.pool
    }
}

store_impl!(PgStore, Postgres, Backend::Postgres);
