//! The store's error and result types: what every other module returns.

/// A store error.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The URL names no backend we have.
    #[error("unsupported database URL {0:?}: use postgres://... or sqlite://...")]
    BadUrl(String),
    /// The database refused or could not be reached.
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    /// The schema could not be brought up to date.
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored value does not decode.
    #[error("stored data does not decode: {0}")]
    Corrupt(String),
    /// A change the records forbid (nothing was written).
    #[error("refused: {0}")]
    Refused(String),
    /// A file kept beside the database (the tables' journal segments) cannot be read or written.
    #[error("file error: {0}")]
    Io(#[from] std::io::Error),
}

/// Store results.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;
