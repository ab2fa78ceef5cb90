//! SQLite's writer thread, the commit path: it runs the group commit loop (`group_commit`),
//! making each group durable with one write to the commit log, then hands the rows to the
//! archiver before any room is told. It also keeps each live room's last append number, to
//! refuse an append out of order, and passes every other call on to the archiver in order.

use super::super::archiver::{Call, Work};
use super::super::commit_log::CommitLog;
use super::super::error::StoreError;
use super::super::group_commit::{self, Committer, Job};
use super::super::journal::{Pending, Row};
use super::super::record::Append;
use std::collections::HashMap;
use std::sync::mpsc;
use std::sync::Arc;

/// Work items the writer may pass on before it waits for the archiver: the archiver may fall
/// this far behind (a long checkpoint, a slow disk, a saturated core) before a commit waits
/// for it. At 10,000 clicks/s that is seconds of work.
pub const ARCHIVE_QUEUE: usize = 65_536;

/// What the writer does between group commits, in order.
pub enum Other {
    /// A store call: passed on to the archiver.
    Run(Call),
    /// Rooms restored with their last append numbers: the order check holds for them.
    Resume(Vec<(Arc<str>, u64)>),
    /// A room that has ended: the order check forgets it.
    Forget(Arc<str>),
}

/// The writer thread's state: the commit path.
pub struct Writer {
    /// Where commits are made durable (`None` in memory).
    pub log: Option<CommitLog>,
    /// Each live room's last append number (the order check); only this thread's.
    pub last: HashMap<Arc<str>, u64>,
    /// The archiver's queue.
    pub work: mpsc::SyncSender<Work>,
    /// The last row id given.
    pub next_id: i64,
}

impl Writer {
    /// The thread's body: group commits until the store is dropped, then the segment being
    /// written is sealed for the archiver.
    pub fn run(mut self, mut jobs: mpsc::Receiver<Job<Other>>) {
        crate::scheduling::no_wakeup_preemption();
        // Every future of the loop is ready when polled (the queue blocks the thread).
        futures::executor::block_on(group_commit::run(&mut self, &mut jobs));
        if let Some(log) = &self.log {
            // The segment being written will not be again: the archiver may delete it.
            self.pass_on(Work::Sealed(log.current()));
        }
    }

    /// Hands `w` to the archiver (waiting only if it is [`ARCHIVE_QUEUE`] items
    /// behind).
    fn pass_on(&self, w: Work) {
        if self.work.send(w).is_err() {
            tracing::error!("store: the archiver has stopped");
        }
    }
}

impl Committer for Writer {
    type Other = Other;

    /// Makes `batch` durable with one write to the commit log and passes the rows on to the
    /// archiver. An append out of its room's order is refused alone; a failed write fails
    /// the whole batch and leaves nothing of it.
    async fn commit(&mut self, batch: &[Append]) -> Vec<Result<(), StoreError>> {
        let mut order: HashMap<Arc<str>, u64> = HashMap::new();
        let mut rows: Pending = Vec::with_capacity(batch.len());
        let mut outcomes = Vec::with_capacity(batch.len());
        for a in batch {
            let previous = order
                .get(&a.room)
                .copied()
                .or_else(|| self.last.get(&a.room).copied());
            match previous {
                Some(p) if a.n != p + 1 => {
                    let e = format!("room {} append {} after {p}", a.room, a.n);
                    outcomes.push(Err(StoreError::Corrupt(e)));
                    continue;
                }
                _ => {}
            }
            order.insert(a.room.clone(), a.n);
            self.next_id += 1;
            rows.push((a.room.clone(), Row::of(a, self.next_id)));
            outcomes.push(Ok(()));
        }
        if rows.is_empty() {
            return outcomes;
        }
        let sealed = match self.log.as_mut().map(|log| log.append(&rows)) {
            None => None,
            Some(Ok(sealed)) => sealed,
            Some(Err(e)) => {
                tracing::error!("store: a group commit failed: {e}");
                self.next_id -= rows.len() as i64;
                let e = Arc::new(e);
                for outcome in outcomes.iter_mut().filter(|o| o.is_ok()) {
                    *outcome = Err(StoreError::Io(e.clone()));
                }
                return outcomes;
            }
        };
        self.last.extend(order);
        // Passed on before any room is told, so a read asked after a commit resolved sees it.
        self.pass_on(Work::Rows(rows));
        if let Some(s) = sealed {
            self.pass_on(Work::Sealed(s));
        }
        outcomes
    }

    async fn other(&mut self, job: Other) {
        match job {
            Other::Run(f) => self.pass_on(Work::Run(f)),
            Other::Resume(rooms) => self.last.extend(rooms),
            Other::Forget(room) => {
                self.last.remove(&room);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{block_on, event};
    use super::super::SqliteStore;
    use crate::store::Store;

    #[test]
    fn a_bad_append_fails_alone_in_its_group_commit() {
        let s = SqliteStore::open(":memory:").unwrap();
        // Queued back to back, these land in one group commit; the duplicate `seq` 1 of room
        // a must be refused without losing room b's events queued around it.
        let commits = vec![
            s.append(event("a", 1)),
            s.append(event("b", 1)),
            s.append(event("a", 1)),
            s.append(event("b", 2)),
        ];
        let results: Vec<bool> = block_on(async {
            let mut out = Vec::new();
            for c in commits {
                out.push(c.wait().await.is_ok());
            }
            out
        });
        assert_eq!(results, vec![true, true, false, true]);
        let b: Vec<u64> = block_on(s.events("b", 0, 10))
            .unwrap()
            .iter()
            .map(|e| e.0)
            .collect();
        assert_eq!(b, vec![1, 2]);
        assert_eq!(block_on(s.events("a", 0, 10)).unwrap().len(), 1);
    }
}
