//! What can go wrong in the store; a request it fails is refused with code `server`.

use std::sync::Arc;
use thiserror::Error;

/// A store failure. The request that caused it is refused with code `server`.
#[derive(Debug, Error)]
pub enum StoreError {
    /// SQLite refused.
    #[error("store: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL refused, or could not be reached. Shared, as one failed group commit fails
    /// every append in it.
    #[error("store: {0}")]
    Postgres(Arc<tokio_postgres::Error>),
    /// The commit log could not be written or read (shared: one failed group commit fails
    /// every append in it).
    #[error("store: commit log: {0}")]
    Io(Arc<std::io::Error>),
    /// The writer thread has stopped (the server is shutting down).
    #[error("store: closed")]
    Closed,
    /// A cluster node appended to a room whose lease another node has taken since (its
    /// fencing token is stale): nothing was stored, and the room is no longer this node's.
    #[error("room {0} has moved to another server: try again in a few seconds")]
    Fenced(String),
    /// A stored row could not be read back.
    #[error("store: bad row: {0}")]
    Corrupt(String),
}

impl From<std::io::Error> for StoreError {
    fn from(e: std::io::Error) -> StoreError {
        StoreError::Io(Arc::new(e))
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> StoreError {
        StoreError::Postgres(Arc::new(e))
    }
}
