//! The store on SQLite: a writer thread that makes each group commit durable in the commit
//! log (one `write()`), and an archiver thread that owns the SQLite connection and files the
//! committed rows there off the commit path (see the module `store` for the design).
//!
//! `open` opens the files and files what a kill left in the commit log; `writer` is the commit
//! path; `queries` the store's calls, each run on the archiver's thread in queue order.

pub(super) mod open;
mod queries;
#[cfg(test)]
pub(super) mod test_support;
mod writer;

use super::archiver::Call;
use super::error::StoreError;
use super::group_commit::{Job, Sender};
use super::journal::Journal;
use rusqlite::Connection;
use std::sync::mpsc;
use std::thread::JoinHandle;
use tokio::sync::oneshot;
use writer::Other;

/// The store on SQLite (bundled), WAL mode, behind a commit log of its own.
pub struct SqliteStore {
    /// The writer's queue (`None` once dropped, to stop the writer).
    jobs: Option<mpsc::Sender<Job<Other>>>,
    /// The writer thread, joined on drop.
    writer: Option<JoinHandle<()>>,
    /// The archiver thread, joined on drop so the database is closed cleanly.
    archiver: Option<JoinHandle<()>>,
}

impl SqliteStore {
    /// Runs `f` on the archiver's thread, after everything queued before it, and waits for it
    /// (without holding a runtime worker: the answer comes back on a oneshot).
    pub(in crate::store) async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection, &mut Journal) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = oneshot::channel();
        let call: Call = Box::new(move |c, j| {
            let _ = tx.send(f(c, j));
        });
        self.tell(Other::Run(call))?;
        rx.await.map_err(|_| StoreError::Closed)?
    }

    /// Queues `job` for the writer.
    fn tell(&self, job: Other) -> Result<(), StoreError> {
        let jobs = self.jobs.as_ref().ok_or(StoreError::Closed)?;
        jobs.push(Job::Other(job))
    }
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
        if let Some(archiver) = self.archiver.take() {
            let _ = archiver.join();
        }
    }
}
