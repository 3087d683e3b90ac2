//! Tournaments in the store (migration 0006): a snapshot per tournament and the journal of
//! inputs after it, each input stored in one transaction with the ledger entries it causes.

use uuid::Uuid;

use crate::model::LedgerEntry;

/// The "player" of a tournament's prize pool row in `table_stacks` (keyed by the tournament id).
pub(crate) const POOL: Uuid = Uuid::nil();

/// One journaled tournament input and what it moves in the ledger, stored together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentCommit {
    /// the tournament
    pub tournament_id: Uuid,
    /// the input's number (1, 2, ...)
    pub n: u64,
    /// ms since the Unix epoch
    pub at_ms: u64,
    /// the entry (the tournament core owns the format)
    pub entry: String,
    /// entry fees and refunds (`table_id` is the tournament)
    pub ledger: Vec<LedgerEntry>,
    /// the tournament after this input, to store as its snapshot (prunes the journal)
    pub snapshot: Option<String>,
    /// the epoch of the director committing it (a cluster gateway's lease; 0 in one process):
    /// refused when the tournament's is newer ([`crate::Store::tournament_fence`]), else it
    /// becomes the tournament's
    pub epoch: u64,
}

/// A stored tournament: where to resume from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTournament {
    /// the tournament
    pub id: Uuid,
    /// ms since the Unix epoch
    pub created_at_ms: u64,
    /// the last snapshot and the input number it includes
    pub snapshot: (u64, String),
    /// the entries after the snapshot, in order: (n, entry)
    pub entries: Vec<(u64, String)>,
}

/// The `Store` methods for tournaments, the same SQL for both backends (expanded inside
/// `store_impl!`).
macro_rules! tournament_methods {
    () => {
        fn tournament_create<'a>(&'a self, id: Uuid, at_ms: u64, snapshot: &'a str) -> BoxFuture<'a, Result<()>> {
            Box::pin(async move {
                sqlx::query("INSERT INTO tournaments (id, created_at_ms, snapshot_n, snapshot) VALUES ($1, $2, 0, $3)")
                    .bind(id)
                    .bind(ms_i64(at_ms))
                    .bind(snapshot)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            })
        }

        fn tournament_commit<'a>(&'a self, c: &'a crate::TournamentCommit) -> BoxFuture<'a, Result<()>> {
            Box::pin(async move {
                let n = ms_i64(c.n);
                let mut tx = self.pool.begin().await?;
                // The fence first: a former director (a lower epoch) stores nothing; a commit at a
                // newer epoch raises it (a new tournament's first director). The update holds the
                // row until the end, so a takeover's fence waits for this input or this input
                // sees the new epoch.
                let fenced =
                    sqlx::query("UPDATE tournaments SET director_epoch = $2 WHERE id = $1 AND director_epoch <= $2")
                        .bind(c.tournament_id)
                        .bind(ms_i64(c.epoch))
                        .execute(&mut *tx)
                        .await?;
                if fenced.rows_affected() == 0 {
                    return Err(crate::StoreError::Refused(format!(
                        "tournament {}: input {} from a director whose epoch {} is not the tournament's",
                        c.tournament_id, c.n, c.epoch
                    )));
                }
                sqlx::query("INSERT INTO tournament_journal (tournament_id, n, at_ms, entry) VALUES ($1, $2, $3, $4)")
                    .bind(c.tournament_id)
                    .bind(n)
                    .bind(ms_i64(c.at_ms))
                    .bind(c.entry.as_str())
                    .execute(&mut *tx)
                    .await?;
                for e in &c.ledger {
                    let (balance_delta, stack_delta) = e.deltas();
                    sqlx::query(
                        "INSERT INTO ledger (at_ms, player_id, table_id, kind, balance_delta, stack_delta)
                     VALUES ($1, $2, $3, $4, $5, $6)",
                    )
                    .bind(ms_i64(e.at_ms))
                    .bind(e.player_id)
                    .bind(e.table_id)
                    .bind(e.kind.as_str())
                    .bind(balance_delta)
                    .bind(stack_delta)
                    .execute(&mut *tx)
                    .await?;
                    // Accounts first, then stacks: the batch writer's order, so two writers
                    // never wait on each other in a cycle.
                    let updated = sqlx::query("UPDATE accounts SET balance = balance + $2 WHERE player_id = $1")
                        .bind(e.player_id)
                        .bind(balance_delta)
                        .execute(&mut *tx)
                        .await?;
                    if updated.rows_affected() == 0 {
                        sqlx::query("INSERT INTO accounts (player_id, balance) VALUES ($1, $2)")
                            .bind(e.player_id)
                            .bind(balance_delta)
                            .execute(&mut *tx)
                            .await?;
                    }
                    // The chips side is the tournament's prize pool, one row per tournament (the
                    // nil player): a winner's prize is more than their own entry, so rows per
                    // player would go negative, and a stack is never negative.
                    if let Some(t) = e.table_id {
                        let updated = sqlx::query(
                            "UPDATE table_stacks SET stack = stack + $3 WHERE table_id = $1 AND player_id = $2",
                        )
                        .bind(t)
                        .bind(crate::tournament::POOL)
                        .bind(stack_delta)
                        .execute(&mut *tx)
                        .await?;
                        if updated.rows_affected() == 0 {
                            sqlx::query("INSERT INTO table_stacks (table_id, player_id, stack) VALUES ($1, $2, $3)")
                                .bind(t)
                                .bind(crate::tournament::POOL)
                                .bind(stack_delta)
                                .execute(&mut *tx)
                                .await?;
                        }
                    }
                }
                if let Some(snapshot) = &c.snapshot {
                    sqlx::query(
                        "UPDATE tournaments SET snapshot_n = $2, snapshot = $3 WHERE id = $1 AND snapshot_n <= $2",
                    )
                    .bind(c.tournament_id)
                    .bind(n)
                    .bind(snapshot.as_str())
                    .execute(&mut *tx)
                    .await?;
                    sqlx::query("DELETE FROM tournament_journal WHERE tournament_id = $1 AND n <= $2")
                        .bind(c.tournament_id)
                        .bind(n)
                        .execute(&mut *tx)
                        .await?;
                }
                // A cluster director held the fee on the balance for this input: the movement is
                // stored, the hold goes with it.
                sqlx::query("DELETE FROM account_holds WHERE table_id = $1 AND n = $2")
                    .bind(c.tournament_id)
                    .bind(n)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(())
            })
        }

        fn tournament_fence(&self, id: Uuid, epoch: u64) -> BoxFuture<'_, Result<bool>> {
            Box::pin(async move {
                let raised =
                    sqlx::query("UPDATE tournaments SET director_epoch = $2 WHERE id = $1 AND director_epoch <= $2")
                        .bind(id)
                        .bind(ms_i64(epoch))
                        .execute(&self.pool)
                        .await?;
                Ok(raised.rows_affected() == 1)
            })
        }

        fn tournaments(&self) -> BoxFuture<'_, Result<Vec<crate::StoredTournament>>> {
            Box::pin(async move {
                use std::collections::BTreeMap;
                let mut by_id: BTreeMap<Uuid, crate::StoredTournament> = BTreeMap::new();
                let rows = sqlx::query("SELECT id, created_at_ms, snapshot_n, snapshot FROM tournaments")
                    .fetch_all(&self.pool)
                    .await?;
                for r in &rows {
                    let id = r.uuid("id")?;
                    let snapshot = (to_u64(r.int("snapshot_n")?, "snapshot_n")?, r.text("snapshot")?);
                    let created_at_ms = to_u64(r.int("created_at_ms")?, "created_at_ms")?;
                    by_id.insert(id, crate::StoredTournament { id, created_at_ms, snapshot, entries: Vec::new() });
                }
                let rows =
                    sqlx::query("SELECT tournament_id, n, entry FROM tournament_journal ORDER BY tournament_id, n")
                        .fetch_all(&self.pool)
                        .await?;
                for r in &rows {
                    let n = to_u64(r.int("n")?, "n")?;
                    if let Some(t) = by_id.get_mut(&r.uuid("tournament_id")?)
                        && n > t.snapshot.0
                    {
                        t.entries.push((n, r.text("entry")?));
                    }
                }
                let mut all: Vec<_> = by_id.into_values().collect();
                all.sort_by_key(|t| (t.created_at_ms, t.id));
                Ok(all)
            })
        }
    };
}
