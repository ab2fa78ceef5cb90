//! The group commit, one loop for both stores: appends from every room queue on the writer's
//! channel while a commit is being made and go into the next one together; the store makes
//! them durable as one ([`Committer::commit`]), and each room hears how its own append went.
//! Other work runs between two group commits, in queue order, so a read asked after a commit
//! resolved sees it.
//!
//! SQLite's writer is a thread of its own: it drives [`run`] with `block_on`, waiting on a std
//! channel. PostgreSQL's is a task on a runtime of its own, waiting on tokio's.

use super::commit::Commit;
use super::error::StoreError;
use super::record::Append;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// Most appends committed in one group commit.
pub const MAX_BATCH: usize = 1024;

/// Where an append's outcome goes: the room awaiting its [`Commit`].
pub type Done = oneshot::Sender<Result<(), StoreError>>;

/// What a store's writer is asked to do, in order.
pub enum Job<O> {
    /// Part of the next group commit.
    Append(Append, Done),
    /// Anything else (the store's own): run between two group commits.
    Other(O),
}

/// A store's side of the group commit.
// The futures are polled on the writer's own thread (never sent): no `Send` bound is needed.
#[allow(async_fn_in_trait)]
pub trait Committer {
    /// The store's other work, run between two group commits.
    type Other;

    /// Makes `appends` (never empty) durable together and says how each went, in order, one
    /// outcome per append: an append out of its room's order fails alone; a failed write
    /// fails the appends it held. Whatever a read asked later must see is in place before it
    /// returns (the rooms are told after).
    async fn commit(&mut self, appends: &[Append]) -> Vec<Result<(), StoreError>>;

    /// Runs one item of other work.
    async fn other(&mut self, job: Self::Other);
}

/// The receiving end of a writer's queue.
#[allow(async_fn_in_trait)]
pub trait Queue<T> {
    /// The next job, waiting for one; `None` once every sender is gone.
    async fn recv(&mut self) -> Option<T>;
    /// The next job if one is queued already.
    fn try_recv(&mut self) -> Option<T>;
}

/// A writer thread's queue: `recv` blocks the thread, which has nothing else to do (it is
/// driven by `block_on`, the only future on it).
impl<T> Queue<T> for std::sync::mpsc::Receiver<T> {
    async fn recv(&mut self) -> Option<T> {
        std::sync::mpsc::Receiver::recv(self).ok()
    }

    fn try_recv(&mut self) -> Option<T> {
        std::sync::mpsc::Receiver::try_recv(self).ok()
    }
}

/// A writer task's queue.
impl<T> Queue<T> for tokio::sync::mpsc::UnboundedReceiver<T> {
    async fn recv(&mut self) -> Option<T> {
        tokio::sync::mpsc::UnboundedReceiver::recv(self).await
    }

    fn try_recv(&mut self) -> Option<T> {
        tokio::sync::mpsc::UnboundedReceiver::try_recv(self).ok()
    }
}

/// The sending end of a writer's queue.
pub trait Sender<T> {
    /// Queues `job`; fails once the writer has stopped.
    fn push(&self, job: T) -> Result<(), StoreError>;
}

impl<T> Sender<T> for std::sync::mpsc::Sender<T> {
    fn push(&self, job: T) -> Result<(), StoreError> {
        std::sync::mpsc::Sender::send(self, job).map_err(|_| StoreError::Closed)
    }
}

impl<T> Sender<T> for tokio::sync::mpsc::UnboundedSender<T> {
    fn push(&self, job: T) -> Result<(), StoreError> {
        tokio::sync::mpsc::UnboundedSender::send(self, job).map_err(|_| StoreError::Closed)
    }
}

/// Queues `append` on `jobs` (`None`: the store is closing) for the next group commit.
pub fn append<O>(jobs: Option<&impl Sender<Job<O>>>, append: Append) -> Commit {
    let (tx, rx) = oneshot::channel();
    match jobs.map(|jobs| jobs.push(Job::Append(append, tx))) {
        Some(Ok(())) => Commit::pending(rx),
        _ => Commit::failed(StoreError::Closed),
    }
}

/// The writer's loop, until every sender is gone: takes the first job waiting, then whatever
/// else is queued without waiting (up to [`MAX_BATCH`] appends), commits the appends as one
/// and tells each room; other work commits the appends taken before it first, then runs.
pub async fn run<C: Committer>(committer: &mut C, jobs: &mut impl Queue<Job<C::Other>>) {
    let mut stats = Stats::new();
    let mut batch = Batch::default();
    while let Some(first) = jobs.recv().await {
        let mut job = Some(first);
        while let Some(j) = job.take() {
            match j {
                Job::Append(a, done) => {
                    batch.appends.push(a);
                    batch.waiting.push(done);
                }
                Job::Other(o) => {
                    batch.commit(committer, &mut stats).await;
                    committer.other(o).await;
                }
            }
            if batch.appends.len() < MAX_BATCH {
                job = jobs.try_recv();
            }
        }
        batch.commit(committer, &mut stats).await;
    }
}

/// The appends taken for the next group commit, and the rooms waiting on them.
#[derive(Default)]
struct Batch {
    /// The appends, in queue order.
    appends: Vec<Append>,
    /// Where each one's outcome goes, in the same order.
    waiting: Vec<Done>,
}

impl Batch {
    /// Commits the appends (if any), tells each room, and leaves the batch empty.
    async fn commit<C: Committer>(&mut self, committer: &mut C, stats: &mut Stats) {
        if self.appends.is_empty() {
            return;
        }
        let began = Instant::now();
        let outcomes = committer.commit(&self.appends).await;
        debug_assert_eq!(outcomes.len(), self.appends.len());
        stats.add(self.appends.len(), began);
        // An append left without an outcome (a store's bug) is told the store closed.
        for (done, outcome) in self.waiting.drain(..).zip(outcomes) {
            let _ = done.send(outcome);
        }
        self.appends.clear();
    }
}

/// The writer's figures, logged once a second at debug level (`--log
/// orion_server::store=debug`): group commits and the rows in them, the biggest, the time
/// spent committing (writing the commit log, or PostgreSQL's statement), total and longest,
/// in microseconds.
struct Stats {
    since: Instant,
    commits: u64,
    rows: u64,
    largest: usize,
    commit_us: u128,
    longest_commit_us: u128,
}

impl Stats {
    fn new() -> Stats {
        Stats {
            since: Instant::now(),
            commits: 0,
            rows: 0,
            largest: 0,
            commit_us: 0,
            longest_commit_us: 0,
        }
    }

    /// Counts a commit of `rows` that began at `began` and has just ended.
    fn add(&mut self, rows: usize, began: Instant) {
        if !tracing::enabled!(tracing::Level::DEBUG) {
            return;
        }
        let now = Instant::now();
        let took = (now - began).as_micros();
        self.commits += 1;
        self.rows += rows as u64;
        self.largest = self.largest.max(rows);
        self.commit_us += took;
        self.longest_commit_us = self.longest_commit_us.max(took);
        if now - self.since >= Duration::from_secs(1) {
            tracing::debug!(
                commits = self.commits,
                rows = self.rows,
                largest = self.largest,
                commit_us = self.commit_us,
                longest_commit_us = self.longest_commit_us,
                "store writer, last second"
            );
            *self = Stats::new();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A store that writes nothing and notes what the loop asked of it, in order; it refuses
    /// appends numbered 0.
    #[derive(Default)]
    struct Notes(Vec<String>);

    impl Committer for Notes {
        type Other = &'static str;

        async fn commit(&mut self, appends: &[Append]) -> Vec<Result<(), StoreError>> {
            self.0.push(format!("commit {}", appends.len()));
            let outcome = |a: &Append| match a.n {
                0 => Err(StoreError::Corrupt("append 0".into())),
                _ => Ok(()),
            };
            appends.iter().map(outcome).collect()
        }

        async fn other(&mut self, job: &'static str) {
            self.0.push(job.into());
        }
    }

    fn numbered(n: u64) -> Append {
        Append {
            room: Arc::from("r"),
            n,
            action: None,
            events: Vec::new(),
            seq: n,
        }
    }

    #[test]
    fn what_is_queued_together_is_committed_together_and_a_call_comes_after_it() {
        let (jobs, mut queue) = std::sync::mpsc::channel();
        let mut commits: Vec<Commit> = [1, 0, 2].map(|n| append(Some(&jobs), numbered(n))).into();
        jobs.push(Job::Other("read")).unwrap();
        commits.extend((3..MAX_BATCH as u64 + 5).map(|n| append(Some(&jobs), numbered(n))));
        drop(jobs);
        let mut notes = Notes::default();
        futures::executor::block_on(run(&mut notes, &mut queue));
        let batch = format!("commit {MAX_BATCH}");
        assert_eq!(notes.0, ["commit 3", "read", &batch, "commit 2"]);
        let outcomes: Vec<bool> = futures::executor::block_on(async {
            let mut out = Vec::new();
            for c in commits {
                out.push(c.wait().await.is_ok());
            }
            out
        });
        assert_eq!(outcomes.iter().filter(|ok| !**ok).count(), 1);
        assert!(!outcomes[1], "append 0 is refused alone");
    }
}
