//! Persistence for the stud server, behind one trait ([`Store`]) with two implementations
//! through sqlx: Postgres (production) and SQLite (the embedded default, so `cargo run`
//! needs nothing).
//!
//! What is stored: players and their guest sessions, tables (so they survive a restart),
//! every finished hand (its full [`HandRecord`]; PHH and text histories are rendered from it),
//! each seat's part in a hand, and the chip ledger with its running sums.
//!
//! Key decision: every chip movement is a [`Write`] that goes through one FIFO, the
//! [`writer`], and each batch is one transaction. The database therefore always holds a
//! prefix of the server's chip movements, each of them balanced, so after a crash it is
//! consistent: a hand whose result was not stored never happened, and the stacks stored are
//! those the players had before it (see [`Store::open_stacks`]).
//!
//! [`HandRecord`]: stud_engine::HandRecord

mod error;
mod model;
#[macro_use]
mod rows;
mod plan;
#[macro_use]
mod tournament;
mod store;
#[macro_use]
mod common;
mod pg;
mod sqlite;
pub mod writer;

use std::str::FromStr;
use std::sync::Arc;

pub use error::{Result, StoreError};
pub use model::{
    AdminLogEntry, Backend, Ban, BanScope, Cursor, HandQuery, HandSeat, HandTournament, JournalRow, LedgerCursor,
    LedgerEntry, LedgerKind, LedgerLine, LedgerQuery, LedgerTotals, NewSession, OpenStack, OperatorKey, PoolSettings,
    StoredHand, StoredSession, StoredTable, TableJournal, TableWrites, WarmSession, Write, now_ms, token_hash,
};
pub use pg::{JOURNAL_CONNECTIONS, PgStore};
pub use sqlite::SqliteStore;
pub use store::Store;
pub use tournament::{StoredTournament, TournamentCommit};
pub use writer::{Writer, WriterConfig, WriterStats, WriterTask};

/// Opens the store a URL names (`postgres://…`, `postgresql://…`, `sqlite://…`,
/// `sqlite::memory:`) and brings its schema up to date.
///
/// # Errors
/// [`StoreError`] when the URL is not one of those, the database cannot be reached, or a
/// migration fails.
pub async fn open(url: &str) -> Result<Arc<dyn Store>> {
    open_with(url, PoolSettings::default()).await
}

/// [`open`], with the pools' settings.
///
/// # Errors
/// As [`open`].
pub async fn open_with(url: &str, pools: PoolSettings) -> Result<Arc<dyn Store>> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let options = sqlx::postgres::PgConnectOptions::from_str(url)?;
        Ok(Arc::new(PgStore::connect_pooled(options, pools).await?))
    } else if url.starts_with("sqlite:") {
        Ok(Arc::new(SqliteStore::connect_pooled(url, pools).await?))
    } else {
        Err(StoreError::BadUrl(url.to_owned()))
    }
}
