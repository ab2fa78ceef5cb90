//! An append on its way to disk: the room waits on it before sending what it appended.

use super::error::StoreError;
use tokio::sync::oneshot;

/// An append on its way to disk: resolves once the transaction holding it has committed.
#[must_use = "an event may only be sent once its commit is awaited"]
pub struct Commit(Result<oneshot::Receiver<Result<(), StoreError>>, StoreError>);

impl Commit {
    /// An append the writer has queued: resolves when `rx` does.
    pub(super) fn pending(rx: oneshot::Receiver<Result<(), StoreError>>) -> Commit {
        Commit(Ok(rx))
    }

    /// An append that could not be queued.
    pub(super) fn failed(e: StoreError) -> Commit {
        Commit(Err(e))
    }

    /// An append that is already settled (a store that writes inline).
    pub fn done(result: Result<(), StoreError>) -> Commit {
        let (tx, rx) = oneshot::channel();
        let _ = tx.send(result);
        Commit(Ok(rx))
    }

    /// Waits until the append is durable, or says why it is not.
    pub async fn wait(self) -> Result<(), StoreError> {
        match self.0 {
            Ok(rx) => rx.await.unwrap_or(Err(StoreError::Closed)),
            Err(e) => Err(e),
        }
    }
}
