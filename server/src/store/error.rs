//! What can go wrong in the store; a request it fails is refused with code `server`.

use thiserror::Error;

/// A store failure. The request that caused it is refused with code `server`.
#[derive(Debug, Error)]
pub enum StoreError {
    /// SQLite refused.
    #[error("store: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The writer thread has stopped (the server is shutting down).
    #[error("store: closed")]
    Closed,
    /// A stored row could not be read back.
    #[error("store: bad row: {0}")]
    Corrupt(String),
}
