//! The archiver: the thread that owns the SQLite connection, off the commit path. It takes the
//! rows the writer has made durable in the commit log (`commit_log.rs`), keeps them in the
//! journal (memory) for reads, moves each room's rows into SQLite's `log` in its own
//! transactions, checkpoints SQLite's WAL, and deletes a commit log segment once every row in
//! it is in SQLite's main file and that file is synced. It also runs every other store call
//! (rooms, statuses, players, reads), in the order the writer passed them on, so a read sees
//! every commit that resolved before it was asked.
//!
//! Nothing here holds a commit: a slow transaction, a checkpoint's fsync or a WAL reset only
//! delay the archiver's own queue (bounded: the writer's `ARCHIVE_QUEUE`). It shares no
//! lock with the writer but the queue's, and it runs at the server's own priority (a lower
//! one would let any other process hold up a lock the server needs, the allocator's first):
//! its CPU work comes in slices of a millisecond or two, and it yields the core after each.

use super::commit_log::{self, Sealed};
use super::journal::{Journal, Pending};
use rusqlite::Connection;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

/// Work run on the archiver's thread, given its connection and journal.
pub type Call = Box<dyn FnOnce(&mut Connection, &mut Journal) + Send>;

/// What the writer passes on, in commit order.
pub enum Work {
    /// Rows the commit log holds, in commit order.
    Rows(Pending),
    /// A commit log segment that will not be written again.
    Sealed(Sealed),
    /// A store call.
    Run(Call),
}

/// Rows moved to `log` in one transaction, about: a millisecond or two of work.
const MOVE_BUDGET: usize = 256;
/// How often the WAL is checkpointed (and sealed segments deleted) while there is work.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);
/// How long the archiver sleeps when nothing is due.
const TICK: Duration = Duration::from_millis(50);
/// Work items taken between two moves (so a flood of rows cannot starve the moves).
const TAKE_AT_ONCE: usize = 4_096;

/// The archiver's state.
pub struct Archiver {
    /// The only connection.
    pub conn: Connection,
    /// Committed rows not yet in `log`.
    pub journal: Journal,
    /// What the writer passes on.
    pub work: mpsc::Receiver<Work>,
    /// The commit log's segment files (`None` in memory).
    pub segments: Option<PathBuf>,
    /// Sealed segments not yet deleted, oldest first.
    pub sealed: VecDeque<Sealed>,
}

impl Archiver {
    /// Runs until the writer is gone, then moves everything, checkpoints and deletes the
    /// segments it can.
    pub fn run(mut self) {
        crate::scheduling::no_wakeup_preemption();
        let mut stats = Stats::new();
        let mut last_checkpoint = Instant::now();
        let mut written = false;
        'run: loop {
            let wait = if self.journal.due() {
                Duration::ZERO
            } else {
                TICK
            };
            match self.work.recv_timeout(wait) {
                Ok(w) => written |= self.take(w),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break 'run,
            }
            for _ in 0..TAKE_AT_ONCE {
                match self.work.try_recv() {
                    Ok(w) => written |= self.take(w),
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => break 'run,
                }
            }
            if self.journal.due() {
                let began = Instant::now();
                let moved = self.upkeep();
                stats.moved(moved, began);
                written = true;
                // Let a room that woke meanwhile have the core (under a real-time policy a
                // thread of the same priority would otherwise wait for this one to block).
                std::thread::yield_now();
            }
            let pending = written || !self.sealed.is_empty();
            if pending && last_checkpoint.elapsed() >= CHECKPOINT_EVERY {
                let began = Instant::now();
                if self.checkpoint() {
                    written = false;
                }
                stats.checkpointed(began, &self.journal);
                last_checkpoint = Instant::now();
                std::thread::yield_now();
            }
        }
        if let Err(e) = self.journal.flush_all(&mut self.conn) {
            tracing::warn!("store: moving the journal to `log` on close failed: {e}");
        }
        self.checkpoint();
    }

    /// Takes one item of work; says whether it may have written to SQLite.
    fn take(&mut self, w: Work) -> bool {
        match w {
            Work::Rows(rows) => {
                self.journal.committed(rows);
                false
            }
            Work::Sealed(s) => {
                self.sealed.push_back(s);
                false
            }
            Work::Run(f) => {
                f(&mut self.conn, &mut self.journal);
                true
            }
        }
    }

    /// Moves the rooms that are due, about [`MOVE_BUDGET`] rows, in one transaction; a
    /// failure is logged and tried again next time. Returns the rows moved.
    fn upkeep(&mut self) -> usize {
        let result = (|| {
            let tx = self.conn.transaction()?;
            let upkeep = self.journal.upkeep(&tx, MOVE_BUDGET)?;
            tx.commit()?;
            Ok::<_, super::StoreError>(upkeep)
        })();
        match result {
            Ok(upkeep) => {
                let before = self.journal.total_moved();
                self.journal.upkept(upkeep);
                (self.journal.total_moved() - before) as usize
            }
            Err(e) => {
                tracing::warn!("store: moving rows to `log` failed (tried again): {e}");
                std::thread::sleep(TICK);
                0
            }
        }
    }

    /// Checkpoints the WAL; once it is all in the main file (synced), deletes the sealed
    /// segments whose rows are all in `log`. Says whether the checkpoint was complete.
    fn checkpoint(&mut self) -> bool {
        let Some(prefix) = &self.segments else {
            return true;
        };
        // Every row below `needed` was in `log` before the checkpoint began.
        let needed = self.journal.needed();
        match passive_checkpoint(&self.conn) {
            Ok((frames, copied)) if copied >= frames => {
                while let Some(s) = self.sealed.front().copied() {
                    if s.last_id >= needed {
                        break;
                    }
                    match commit_log::remove(prefix, s.number) {
                        Ok(()) => {}
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                        Err(e) => {
                            tracing::warn!("store: cannot delete commit log segment: {e}");
                            break;
                        }
                    }
                    self.sealed.pop_front();
                }
                true
            }
            Ok(_) => false,
            Err(e) => {
                tracing::warn!("store: WAL checkpoint failed (tried again): {e}");
                false
            }
        }
    }
}

/// Runs a passive checkpoint: copies what it can of the WAL into the database, then syncs it.
/// Returns the WAL's frames and how many are copied.
pub fn passive_checkpoint(conn: &Connection) -> Result<(u64, u64), rusqlite::Error> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
        Ok((
            r.get::<_, i64>(1)?.max(0) as u64,
            r.get::<_, i64>(2)?.max(0) as u64,
        ))
    })
}

/// The archiver's figures, logged once a second at debug level (`--log
/// orion_server::store=debug`).
struct Stats {
    since: Instant,
    moved: usize,
    move_us: u128,
    longest_move_us: u128,
    checkpoints: u64,
    longest_checkpoint_us: u128,
}

impl Stats {
    fn new() -> Stats {
        Stats {
            since: Instant::now(),
            moved: 0,
            move_us: 0,
            longest_move_us: 0,
            checkpoints: 0,
            longest_checkpoint_us: 0,
        }
    }

    fn moved(&mut self, rows: usize, began: Instant) {
        let took = began.elapsed().as_micros();
        self.moved += rows;
        self.move_us += took;
        self.longest_move_us = self.longest_move_us.max(took);
    }

    fn checkpointed(&mut self, began: Instant, journal: &Journal) {
        self.checkpoints += 1;
        self.longest_checkpoint_us = self.longest_checkpoint_us.max(began.elapsed().as_micros());
        if self.since.elapsed() >= Duration::from_secs(1) {
            tracing::debug!(
                moved = self.moved,
                move_us = self.move_us,
                longest_move_us = self.longest_move_us,
                checkpoints = self.checkpoints,
                longest_checkpoint_us = self.longest_checkpoint_us,
                held = journal.held(),
                "store archiver, last second or so"
            );
            *self = Stats::new();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::journal;
    use super::super::sqlite::test_support::{block_on, event};
    use super::super::{Commit, SqliteStore, Store};
    use std::time::{Duration, Instant};

    #[test]
    fn a_long_game_moves_to_the_log_and_the_journal_stays_short() {
        let s = SqliteStore::open(":memory:").unwrap();
        // Room a appends once, then room b appends far more than the journal keeps behind
        // its end: a's row must move to `log`, the head be deleted, and nothing be lost.
        block_on(s.append(event("a", 1)).wait()).unwrap();
        let total = 58_000;
        assert!(total > journal::pin("a") as u64 + 8_000);
        for start in (1..=total).step_by(1000) {
            let commits: Vec<Commit> = (start..start + 1000)
                .map(|seq| s.append(event("b", seq)))
                .collect();
            block_on(async {
                for c in commits {
                    c.wait().await.unwrap();
                }
            });
        }
        // The archiver moves rows at its own pace, off the commit path: wait for it.
        let moved = || {
            block_on(s.call(move |c, j| {
                let a: i64 = c.query_row("SELECT COUNT(*) FROM log WHERE room = 'a'", [], |r| {
                    r.get(0)
                })?;
                Ok(a == 1 && (j.held() as i64) < journal::pin("b") + 4_000)
            }))
            .unwrap()
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while !moved() {
            assert!(Instant::now() < deadline, "the archiver did not catch up");
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(
            block_on(s.events("a", 0, 10)).unwrap(),
            vec![(1, "{\"seq\":1}".to_string())]
        );
        let b = block_on(s.events("b", 0, usize::MAX)).unwrap();
        assert_eq!(b.len() as u64, total);
        assert!(b.iter().enumerate().all(|(i, e)| e.0 == i as u64 + 1));
        // The order check still holds for a room whose rows have moved.
        assert!(block_on(s.append(event("a", 1)).wait()).is_err());
        block_on(s.append(event("a", 2)).wait()).unwrap();
        assert_eq!(block_on(s.events("a", 0, 10)).unwrap().len(), 2);
    }
}
