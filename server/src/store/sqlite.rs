//! The store on SQLite: one writer thread with group commit, the journal, and a checkpointer
//! thread (see the module `store` for the design).

use super::commit::Commit;
use super::error::StoreError;
use super::journal::{self, Journal, Pending, Upkeep};
use super::lines::split_events;
use super::record::{
    ActionRecord, Append, ArchivedRoom, ArchivedSeat, GamesQuery, PlayerRecord, RoomRecord,
    SavedRoom,
};
use super::schema::{upgrade_log, SCHEMA};
use super::{Store, PRUNE_BATCH};
use crate::clock::Millis;
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// The store on SQLite (bundled), WAL mode, behind one writer thread.
pub struct SqliteStore {
    /// The writer's queue (`None` once dropped, to stop the writer).
    jobs: Option<mpsc::Sender<Job>>,
    /// The writer thread, joined on drop so the database is closed cleanly.
    writer: Option<JoinHandle<()>>,
    /// The checkpointer thread (file stores only) and its stop flag.
    checkpointer: Option<(JoinHandle<()>, Arc<AtomicBool>)>,
}

/// Work run on the writer thread, given its connection and journal.
type Call = Box<dyn FnOnce(&mut Connection, &mut Journal) + Send>;

/// Most appends committed in one transaction.
const MAX_BATCH: usize = 1024;
/// The checkpointer's pause between passes: short passes over few new frames finish between
/// two commits often enough for the WAL to start over.
const CHECKPOINT_PAUSE: Duration = Duration::from_millis(20);
/// WAL frames past which the checkpointer asks the writer to copy the last few frames itself,
/// between two batches, so the next commit starts the WAL over (a passive checkpoint under
/// constant commits never sees the WAL still, so it could never reset it).
const WAL_RESET_AT: u64 = 48_000;
/// WAL frames past which the writer checkpoints on its own (if the checkpointer fell behind).
const WAL_LIMIT: u64 = 192_000;

/// What the writer thread is asked to do, in order.
enum Job {
    /// Part of the next group commit.
    Append(Append, oneshot::Sender<Result<(), StoreError>>),
    /// Anything else, run alone between group commits.
    Run(Call),
}

impl SqliteStore {
    /// Opens (or creates) the store at `path`; `:memory:` for a throwaway one.
    pub fn open(path: &str) -> Result<SqliteStore, StoreError> {
        let in_memory = path == ":memory:";
        let mut conn = if in_memory {
            Connection::open_in_memory()?
        } else {
            Connection::open(path)?
        };
        // WAL with synchronous=NORMAL: a commit survives the process being killed at any
        // instant (the spec's guarantee); only a power cut may lose the last commits.
        // Checkpoints are the checkpointer thread's (see `checkpoint_loop`), not each commit's.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        upgrade_log(&mut conn, SCHEMA)?;
        conn.execute_batch(journal::SCHEMA)?;
        let journal = Journal::open(&mut conn)?;
        let wal = Arc::new(AtomicU64::new(0));
        // Unbounded in type, bounded in fact: a room has at most one append in flight (it
        // waits for its commit before it takes another command), so the queue never holds
        // more than one append per live room plus the few calls awaiting an answer.
        let (jobs, rx) = mpsc::channel();
        let checkpointer = if in_memory {
            None
        } else {
            let other = Connection::open(path)?;
            other.pragma_update(None, "synchronous", "NORMAL")?;
            other.busy_timeout(Duration::from_secs(5))?;
            let stop = Arc::new(AtomicBool::new(false));
            let (flag, frames, queue) = (stop.clone(), wal.clone(), jobs.clone());
            let thread = std::thread::Builder::new()
                .name("store-checkpoint".into())
                .spawn(move || checkpoint_loop(other, &flag, &frames, &queue))
                .map_err(|e| StoreError::Corrupt(format!("cannot start the checkpointer: {e}")))?;
            Some((thread, stop))
        };
        let writer = Writer {
            conn,
            journal,
            jobs: rx,
            checkpoints: !in_memory,
            wal,
        };
        let writer = std::thread::Builder::new()
            .name("store-writer".into())
            .spawn(move || writer.run())
            .map_err(|e| StoreError::Corrupt(format!("cannot start the writer: {e}")))?;
        Ok(SqliteStore {
            jobs: Some(jobs),
            writer: Some(writer),
            checkpointer,
        })
    }

    /// Runs `f` on the writer thread, after everything queued before it, and waits for it
    /// (without holding a runtime worker: the answer comes back on a oneshot).
    async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection, &mut Journal) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = oneshot::channel();
        let job = Job::Run(Box::new(move |c, j| {
            let _ = tx.send(f(c, j));
        }));
        self.jobs
            .as_ref()
            .ok_or(StoreError::Closed)?
            .send(job)
            .map_err(|_| StoreError::Closed)?;
        rx.await.map_err(|_| StoreError::Closed)?
    }
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        if let Some((thread, stop)) = self.checkpointer.take() {
            stop.store(true, Ordering::Relaxed);
            let _ = thread.join();
        }
        self.jobs = None;
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

/// The writer thread's state.
struct Writer {
    /// The only connection.
    conn: Connection,
    /// Where the newest rows of each room are.
    journal: Journal,
    /// Its queue.
    jobs: mpsc::Receiver<Job>,
    /// Whether there is a WAL to checkpoint (not in memory).
    checkpoints: bool,
    /// Frames in the WAL, as the checkpointer last saw it.
    wal: Arc<AtomicU64>,
}

impl Writer {
    fn run(mut self) {
        let mut next = None;
        let mut stats = Stats::new();
        loop {
            let first = match next.take() {
                Some(job) => job,
                None => match self.jobs.recv() {
                    Ok(job) => job,
                    Err(_) => break,
                },
            };
            let mut batch = Vec::new();
            let mut job = Some(first);
            while let Some(j) = job.take() {
                match j {
                    Job::Append(a, done) => batch.push((a, done)),
                    Job::Run(f) => {
                        self.commit(std::mem::take(&mut batch));
                        f(&mut self.conn, &mut self.journal);
                    }
                }
                if batch.len() < MAX_BATCH {
                    job = self.jobs.try_recv().ok();
                }
            }
            let appended = batch.len();
            let began = Instant::now();
            self.commit(batch);
            stats.add(appended, began, &self.journal);
            if self.checkpoints && self.wal.load(Ordering::Relaxed) > WAL_LIMIT {
                checkpoint(&self.conn);
                self.wal.store(0, Ordering::Relaxed);
            }
        }
        if self.checkpoints {
            checkpoint(&self.conn);
        }
    }

    /// Commits `batch` in one transaction and tells each room; if that fails, each append is
    /// tried alone so one bad append cannot sink the others.
    fn commit(&mut self, batch: Vec<(Append, oneshot::Sender<Result<(), StoreError>>)>) {
        if batch.is_empty() {
            return;
        }
        // Out-of-order appends are refused before the transaction, in memory.
        let mut ok = Vec::with_capacity(batch.len());
        let mut order = HashMap::new();
        for (a, done) in batch {
            match self.journal.check(&a, &mut order) {
                Ok(()) => ok.push((a, done)),
                Err(e) => {
                    let _ = done.send(Err(e));
                }
            }
        }
        if self.transact(ok.iter().map(|(a, _)| a)).is_ok() {
            for (_, done) in ok {
                let _ = done.send(Ok(()));
            }
            return;
        }
        for (a, done) in ok {
            let result = self
                .journal
                .check(&a, &mut HashMap::new())
                .and_then(|()| self.transact([&a]));
            let _ = done.send(result);
        }
    }

    /// Writes `appends` in one transaction, with the journal's upkeep (in a savepoint of its
    /// own, so that its failure costs only itself).
    fn transact<'a>(
        &mut self,
        appends: impl IntoIterator<Item = &'a Append>,
    ) -> Result<(), StoreError> {
        let mut tx = self.conn.transaction()?;
        let mut pending = Pending::new();
        for a in appends {
            Journal::write(&tx, a, &mut pending)?;
        }
        let upkeep = {
            let savepoint = tx.savepoint()?;
            match self.journal.upkeep(&savepoint, pending.len()) {
                Ok(upkeep) => {
                    savepoint.commit()?;
                    upkeep
                }
                Err(e) => {
                    tracing::warn!("journal upkeep failed (it is tried again next commit): {e}");
                    Upkeep::default()
                }
            }
        };
        tx.commit()?;
        self.journal.upkept(upkeep);
        self.journal.committed(pending);
        Ok(())
    }
}

/// The writer's figures, logged once a second at debug level (`--log
/// orion_server::store=debug`): group commits and the rows in them, the biggest, the time
/// spent committing, total and longest, in microseconds, and the rows the journal moved to
/// `log` and deleted meanwhile.
struct Stats {
    since: Instant,
    commits: u64,
    rows: u64,
    largest: usize,
    commit_us: u128,
    longest_commit_us: u128,
    /// The journal's totals when this second began.
    journal: (u64, u64),
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
            journal: (0, 0),
        }
    }

    /// Counts a commit of `rows` that began at `began` and has just ended.
    fn add(&mut self, rows: usize, began: Instant, journal: &Journal) {
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
            let (moved, pruned) = journal.totals();
            tracing::debug!(
                commits = self.commits,
                rows = self.rows,
                largest = self.largest,
                commit_us = self.commit_us,
                longest_commit_us = self.longest_commit_us,
                moved = moved - self.journal.0,
                pruned = pruned - self.journal.1,
                "store writer, last second"
            );
            *self = Stats {
                journal: (moved, pruned),
                ..Stats::new()
            };
        }
    }
}

/// A passive checkpoint whose failure is only logged (the next one tries again).
fn checkpoint(conn: &Connection) {
    if let Err(e) = passive_checkpoint(conn) {
        tracing::warn!("WAL checkpoint failed: {e}");
    }
}

/// Runs a passive checkpoint: copies what it can of the WAL into the database without
/// blocking the writer. Returns the WAL's frames and how many are copied.
fn passive_checkpoint(conn: &Connection) -> Result<(u64, u64), rusqlite::Error> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
        Ok((
            r.get::<_, i64>(1)?.max(0) as u64,
            r.get::<_, i64>(2)?.max(0) as u64,
        ))
    })
}

/// The checkpointer thread: a passive checkpoint every [`CHECKPOINT_PAUSE`] until `stop`;
/// past [`WAL_RESET_AT`] frames, right after a pass, it queues the writer's own short
/// checkpoint of what was committed during the pass, which lets the WAL start over.
fn checkpoint_loop(conn: Connection, stop: &AtomicBool, wal: &AtomicU64, jobs: &mpsc::Sender<Job>) {
    let asked = Arc::new(AtomicBool::new(false));
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(CHECKPOINT_PAUSE);
        match passive_checkpoint(&conn) {
            Ok((frames, copied)) => {
                wal.store(frames, Ordering::Relaxed);
                if frames >= WAL_RESET_AT
                    && copied == frames
                    && !asked.swap(true, Ordering::Relaxed)
                {
                    let asked = asked.clone();
                    let job = Job::Run(Box::new(move |c, _| {
                        let began = Instant::now();
                        checkpoint(c);
                        tracing::debug!(took = ?began.elapsed(), "WAL reset");
                        asked.store(false, Ordering::Relaxed);
                    }));
                    if jobs.send(job).is_err() {
                        return;
                    }
                }
            }
            Err(e) => tracing::warn!("WAL checkpoint failed: {e}"),
        }
    }
}

#[async_trait::async_trait]
impl Store for SqliteStore {
    async fn create_room(&self, room: &RoomRecord) -> Result<(), StoreError> {
        let room = room.clone();
        self.call(move |c, _| {
            c.execute(
                "INSERT INTO rooms (id, game, options, seed, private, code, salt)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    room.id,
                    room.game,
                    room.options,
                    room.seed as i64,
                    room.private,
                    room.code,
                    room.salt
                ],
            )?;
            Ok(())
        })
        .await
    }

    fn append(&self, append: Append) -> Commit {
        let (tx, rx) = oneshot::channel();
        match &self.jobs {
            Some(jobs) if jobs.send(Job::Append(append, tx)).is_ok() => Commit::pending(rx),
            _ => Commit::failed(StoreError::Closed),
        }
    }

    async fn set_status(&self, room: &str, status: &str, at: Millis) -> Result<(), StoreError> {
        let (room, status) = (room.to_owned(), status.to_owned());
        self.call(move |c, journal| {
            // An ended room appends no more game events: its rows go to `log` together.
            if status == "finished" || status == "closed" {
                c.execute(
                    "UPDATE rooms SET status = ?2, ended_at = ?3 WHERE id = ?1",
                    params![room, status, at as i64],
                )?;
                journal.archive(c, &room)?;
            } else {
                c.execute(
                    "UPDATE rooms SET status = ?2 WHERE id = ?1",
                    params![room, status],
                )?;
            }
            Ok(())
        })
        .await
    }

    async fn events(
        &self,
        room: &str,
        since: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, StoreError> {
        let room = room.to_owned();
        self.call(move |c, j| read_events(c, j, &room, since, limit))
            .await
    }

    async fn room(&self, room: &str) -> Result<Option<(RoomRecord, String)>, StoreError> {
        let room = room.to_owned();
        self.call(move |c, _| read_room(c, &room)).await
    }

    async fn unfinished(&self) -> Result<Vec<SavedRoom>, StoreError> {
        self.call(read_unfinished).await
    }

    async fn put_player(
        &self,
        token: &str,
        player: &PlayerRecord,
        at: Millis,
    ) -> Result<(), StoreError> {
        let (token, player) = (token.to_owned(), player.clone());
        self.call(move |c, _| {
            c.execute(
                "INSERT INTO players (token, id, name, seen_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(token) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at",
                params![token, player.id, player.name, at as i64],
            )?;
            Ok(())
        })
        .await
    }

    async fn prune(&self, before: Millis) -> Result<(u64, u64), StoreError> {
        self.call(move |c, _| {
            let tx = c.transaction()?;
            let before = before as i64;
            let batch = PRUNE_BATCH as i64;
            tx.execute_batch(
                "CREATE TEMP TABLE IF NOT EXISTS pruned (id TEXT PRIMARY KEY);
                 DELETE FROM pruned;",
            )?;
            tx.execute(
                "INSERT INTO pruned SELECT id FROM rooms
                 WHERE status IN ('finished', 'closed') AND ended_at < ?1 LIMIT ?2",
                params![before, batch],
            )?;
            // Ended rooms' rows are all in `log` (set_status archived them from the journal).
            tx.execute("DELETE FROM log WHERE room IN (SELECT id FROM pruned)", [])?;
            tx.execute(
                "DELETE FROM archive WHERE room IN (SELECT id FROM pruned)",
                [],
            )?;
            let rooms = tx.execute("DELETE FROM rooms WHERE id IN (SELECT id FROM pruned)", [])?;
            let players = tx.execute(
                "DELETE FROM players WHERE token IN (SELECT token FROM players
                 WHERE seen_at IS NULL OR seen_at < ?1 LIMIT ?2)",
                params![before, batch],
            )?;
            tx.commit()?;
            Ok((rooms as u64, players as u64))
        })
        .await
    }

    async fn actions(&self, room: &str) -> Result<Vec<ActionRecord>, StoreError> {
        let room = room.to_owned();
        self.call(move |c, journal| {
            // A finished room's rows are all in `log`; an unfinished one's may not be yet.
            journal.flush(c, &room)?;
            Ok(read_actions(c, &room)?.0)
        })
        .await
    }

    async fn archive(&self, game: &ArchivedRoom) -> Result<(), StoreError> {
        let game = game.clone();
        self.call(move |c, _| {
            let tx = c.transaction()?;
            for seat in &game.seats {
                tx.execute(
                    "INSERT OR REPLACE INTO archive (room, game, ended_at, winner, seat, player, name)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![
                        game.room,
                        game.game,
                        game.ended_at as i64,
                        game.winner,
                        seat.seat,
                        seat.player,
                        seat.name
                    ],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn games(&self, query: &GamesQuery) -> Result<Option<Vec<ArchivedRoom>>, StoreError> {
        let query = query.clone();
        self.call(move |c, _| {
            // The cursor: the page before ended with this room, at this time.
            let cursor = match &query.before {
                None => None,
                Some(room) => {
                    let at: Option<i64> = c
                        .query_row(
                            "SELECT ended_at FROM archive WHERE room = ?1 LIMIT 1",
                            params![room],
                            |r| r.get(0),
                        )
                        .optional()?;
                    match at {
                        Some(at) => Some((at, room.clone())),
                        None => return Ok(None),
                    }
                }
            };
            let (at, room) = cursor.unzip();
            let rooms: Vec<String> = {
                let mut stmt = c.prepare_cached(
                    "SELECT DISTINCT room, ended_at FROM archive
                     WHERE (player = ?1 OR name = ?1) AND (?2 IS NULL OR game = ?2)
                       AND (?3 IS NULL OR ended_at < ?3 OR (ended_at = ?3 AND room < ?4))
                     ORDER BY ended_at DESC, room DESC LIMIT ?5",
                )?;
                let rows = stmt.query_map(
                    params![query.player, query.game, at, room, query.limit as i64],
                    |r| r.get::<_, String>(0),
                )?;
                rows.collect::<Result<_, _>>()?
            };
            let mut out = Vec::with_capacity(rooms.len());
            for room in rooms {
                out.extend(SqliteStore::archived_seats(c, &room)?);
            }
            Ok(Some(out))
        })
        .await
    }

    async fn player(&self, token: &str) -> Result<Option<PlayerRecord>, StoreError> {
        let token = token.to_owned();
        self.call(move |c, _| {
            Ok(c.query_row(
                "SELECT id, name FROM players WHERE token = ?1",
                params![token],
                |r| {
                    Ok(PlayerRecord {
                        id: r.get(0)?,
                        name: r.get(1)?,
                    })
                },
            )
            .optional()?)
        })
        .await
    }
}

impl SqliteStore {
    fn archived_seats(c: &Connection, room: &str) -> Result<Option<ArchivedRoom>, StoreError> {
        let mut stmt = c.prepare_cached(
            "SELECT game, ended_at, winner, seat, player, name FROM archive WHERE room = ?1",
        )?;
        let mut out: Option<ArchivedRoom> = None;
        let rows = stmt.query_map(params![room], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, Option<String>>(2)?,
                ArchivedSeat {
                    seat: r.get(3)?,
                    player: r.get(4)?,
                    name: r.get(5)?,
                },
            ))
        })?;
        for row in rows {
            let (game, ended_at, winner, seat) = row?;
            out.get_or_insert_with(|| ArchivedRoom {
                room: room.to_string(),
                game,
                ended_at: ended_at as Millis,
                winner,
                seats: Vec::new(),
            })
            .seats
            .push(seat);
        }
        Ok(out)
    }
}

/// `room`'s events with `seq > since`, up to `limit`: those in `log`, then the journal's.
fn read_events(
    c: &mut Connection,
    journal: &Journal,
    room: &str,
    since: u64,
    limit: usize,
) -> Result<Vec<(u64, String)>, StoreError> {
    let mut out = Vec::new();
    {
        let mut stmt = c.prepare_cached(
            "SELECT seq, events FROM log WHERE room = ?1 AND seq > ?2 AND events <> '' ORDER BY n",
        )?;
        let since_i = i64::try_from(since).unwrap_or(i64::MAX);
        let rows = stmt.query_map(params![room, since_i], |r| {
            Ok((r.get::<_, i64>(0)? as u64, r.get::<_, String>(1)?))
        })?;
        for row in rows {
            if out.len() >= limit {
                return Ok(out);
            }
            let (last, events) = row?;
            split_events(last, &events, since, &mut out, limit);
        }
    }
    journal.events(room, since, &mut out, limit);
    Ok(out)
}

fn read_room(c: &mut Connection, room: &str) -> Result<Option<(RoomRecord, String)>, StoreError> {
    Ok(c.query_row(
        "SELECT id, game, options, seed, private, code, status, salt FROM rooms WHERE id = ?1",
        params![room],
        |r| {
            Ok((
                RoomRecord {
                    id: r.get(0)?,
                    game: r.get(1)?,
                    options: r.get(2)?,
                    seed: r.get::<_, i64>(3)? as u64,
                    private: r.get(4)?,
                    code: r.get(5)?,
                    salt: r.get(7)?,
                },
                r.get::<_, String>(6)?,
            ))
        },
    )
    .optional()?)
}

/// A room's accepted actions in order, and how many appends it has.
fn read_actions(c: &mut Connection, room: &str) -> Result<(Vec<ActionRecord>, u64), StoreError> {
    let mut stmt = c.prepare("SELECT last_n, action FROM log WHERE room = ?1 ORDER BY n")?;
    let rows = stmt.query_map(params![room], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, Option<String>>(1)?))
    })?;
    let mut actions = Vec::new();
    let mut appends = 0;
    for row in rows {
        let (last_n, text) = row?;
        appends = last_n as u64;
        for line in text.iter().flat_map(|t| t.split('\n')) {
            let bad = || StoreError::Corrupt(format!("action {line}"));
            let mut words = line.splitn(3, ' ');
            let seat = words.next().ok_or_else(bad)?.to_string();
            let at = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
            let action = words.next().ok_or_else(bad)?.to_string();
            actions.push(ActionRecord { seat, action, at });
        }
    }
    Ok((actions, appends))
}

/// Every waiting or playing room, rebuilt from `log` (actions are read from there only, so
/// the journal's rows are moved there first).
fn read_unfinished(
    c: &mut Connection,
    journal: &mut Journal,
) -> Result<Vec<SavedRoom>, StoreError> {
    journal.flush_all(c)?;
    let ids: Vec<String> = {
        let mut stmt = c.prepare(
            "SELECT id FROM rooms WHERE status IN ('waiting', 'playing') ORDER BY rowid",
        )?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
        rows.collect::<Result<Vec<_>, _>>()?
    };
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let Some((record, _)) = read_room(c, &id)? else {
            continue;
        };
        let events = read_events(c, journal, &id, 0, usize::MAX)?;
        let (actions, appends) = read_actions(c, &id)?;
        journal.resume(&id, appends);
        out.push(SavedRoom {
            record,
            events,
            actions,
            appends,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_come_back_in_order_after_since() {
        let s = SqliteStore::open(":memory:").unwrap();
        let rec = room_r();
        block_on(s.create_room(&rec)).unwrap();
        let events: Vec<(u64, String)> = (1..=5).map(|i| (i, format!("{{\"n\":{i}}}"))).collect();
        let append = Append {
            room: Arc::from("r"),
            n: 1,
            action: None,
            seq: 5,
            events,
        };
        block_on(s.append(append).wait()).unwrap();
        let got = block_on(s.events("r", 2, 10)).unwrap();
        assert_eq!(got.iter().map(|e| e.0).collect::<Vec<_>>(), vec![3, 4, 5]);
        assert_eq!(block_on(s.unfinished()).unwrap().len(), 1);
        block_on(s.set_status("r", "finished", 0)).unwrap();
        assert!(block_on(s.unfinished()).unwrap().is_empty());
    }

    #[test]
    fn prune_deletes_rooms_that_ended_before_the_cut_and_players_not_seen_since() {
        let s = SqliteStore::open(":memory:").unwrap();
        let old = RoomRecord {
            id: "old".into(),
            ..room_r()
        };
        let live = RoomRecord {
            id: "live".into(),
            ..room_r()
        };
        let recent = RoomRecord {
            id: "recent".into(),
            ..room_r()
        };
        for r in [&old, &live, &recent] {
            block_on(s.create_room(r)).unwrap();
            let chat = r#"{"kind":"chat","seat":"S","name":"ann","text":"hi"}"#;
            block_on(
                s.append(Append {
                    room: Arc::from(r.id.as_str()),
                    n: 1,
                    action: None,
                    events: vec![(1, chat.into())],
                    seq: 1,
                })
                .wait(),
            )
            .unwrap();
        }
        block_on(s.set_status("old", "finished", 1_000)).unwrap();
        block_on(s.set_status("recent", "finished", 5_000)).unwrap();
        let player = |id: &str| PlayerRecord {
            id: id.into(),
            name: id.into(),
        };
        block_on(s.put_player("t-old", &player("p1"), 1_000)).unwrap();
        block_on(s.put_player("t-new", &player("p2"), 5_000)).unwrap();

        assert_eq!(block_on(s.prune(2_000)).unwrap(), (1, 1));
        assert!(block_on(s.room("old")).unwrap().is_none());
        assert!(block_on(s.events("old", 0, 10)).unwrap().is_empty());
        assert_eq!(block_on(s.events("recent", 0, 10)).unwrap().len(), 1);
        assert_eq!(
            block_on(s.events("live", 0, 10)).unwrap().len(),
            1,
            "a live room is kept"
        );
        assert!(block_on(s.player("t-old")).unwrap().is_none());
        assert!(block_on(s.player("t-new")).unwrap().is_some());
        assert_eq!(block_on(s.unfinished()).unwrap().len(), 1);
    }

    /// A Hydra room `r`, as the tests create it.
    fn room_r() -> RoomRecord {
        RoomRecord {
            id: "r".into(),
            game: "hydra-2".into(),
            options: "{}".into(),
            seed: 7,
            private: false,
            code: None,
            salt: Some("00ff".into()),
        }
    }

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f)
    }

    fn event(room: &str, seq: u64) -> Append {
        Append {
            room: Arc::from(room),
            n: seq,
            action: None,
            events: vec![(seq, format!("{{\"seq\":{seq}}}"))],
            seq,
        }
    }

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
        let count = |sql: &'static str| {
            block_on(s.call(move |c, _| Ok(c.query_row(sql, [], |r| r.get::<_, i64>(0))?))).unwrap()
        };
        assert_eq!(count("SELECT COUNT(*) FROM log WHERE room = 'a'"), 1);
        assert!(count("SELECT COUNT(*) FROM journal") < journal::pin("b") + 4_000);
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

    /// A file store in a fresh directory, removed on drop.
    struct TempDb(std::path::PathBuf);

    impl TempDb {
        fn new(name: &str) -> TempDb {
            let dir = std::env::temp_dir().join(format!("orion-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            TempDb(dir)
        }

        fn path(&self) -> String {
            self.0.join("s.db").to_str().unwrap().to_owned()
        }
    }

    impl Drop for TempDb {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn click(room: &str, n: u64) -> Append {
        Append {
            action: Some(ActionRecord {
                seat: "N".into(),
                action: format!("click C{}R", n % 5 + 1),
                at: n * 10,
            }),
            ..event(room, n)
        }
    }

    #[test]
    fn a_restart_after_rows_move_keeps_every_action_once() {
        let db = TempDb::new("chunks");
        let rec = room_r();
        {
            let s = SqliteStore::open(&db.path()).unwrap();
            block_on(s.create_room(&rec)).unwrap();
            for n in 1..=6 {
                block_on(s.append(click("r", n)).wait()).unwrap();
            }
            // Reading the unfinished rooms moves the journal's rows to `log` as one chunk;
            // they also stay in the journal until its head is pruned.
            let saved = block_on(s.unfinished()).unwrap();
            assert_eq!(saved[0].actions.len(), 6);
            // Then more appends, with and without an action, that the process dies holding
            // in the journal only.
            for n in 7..=9 {
                block_on(s.append(click("r", n)).wait()).unwrap();
            }
            block_on(s.append(event("r", 10)).wait()).unwrap();
        }
        let s = SqliteStore::open(&db.path()).unwrap();
        let saved = block_on(s.unfinished()).unwrap();
        assert_eq!(saved.len(), 1);
        let room = &saved[0];
        assert_eq!(room.appends, 10);
        let ats: Vec<u64> = room.actions.iter().map(|a| a.at).collect();
        assert_eq!(ats, (1..=9).map(|n| n * 10).collect::<Vec<_>>());
        assert_eq!(room.actions[2], click("r", 3).action.unwrap());
        let seqs: Vec<u64> = room.events.iter().map(|e| e.0).collect();
        assert_eq!(seqs, (1..=10).collect::<Vec<_>>());
        assert_eq!(
            block_on(s.events("r", 8, 10)).unwrap(),
            vec![(9, "{\"seq\":9}".into()), (10, "{\"seq\":10}".into())]
        );
        // The order check holds after the restart too.
        assert!(block_on(s.append(click("r", 10)).wait()).is_err());
        block_on(s.append(click("r", 11)).wait()).unwrap();
    }

    #[test]
    fn a_log_from_before_chunks_is_read_as_it_was() {
        let db = TempDb::new("old-log");
        {
            let c = Connection::open(db.path()).unwrap();
            c.execute_batch(
                "CREATE TABLE rooms (id TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,
                     seed INTEGER NOT NULL, private INTEGER NOT NULL, code TEXT,
                     status TEXT NOT NULL DEFAULT 'waiting');
                 CREATE TABLE log (room TEXT NOT NULL, n INTEGER NOT NULL, seq INTEGER NOT NULL,
                     action TEXT, events TEXT NOT NULL, PRIMARY KEY (room, n)) WITHOUT ROWID;
                 INSERT INTO rooms (id, game, options, seed, private, status)
                     VALUES ('r', 'hydra-2', '{}', 7, 0, 'playing');
                 INSERT INTO log VALUES ('r', 1, 2, 'N 5 click C1R', '{\"a\":1}\n{\"a\":2}');
                 INSERT INTO log VALUES ('r', 2, 3, 'S 9 end', '{\"a\":3}');",
            )
            .unwrap();
        }
        let s = SqliteStore::open(&db.path()).unwrap();
        block_on(s.append(click("r", 3)).wait()).unwrap();
        let saved = block_on(s.unfinished()).unwrap();
        assert_eq!(saved[0].appends, 3);
        assert_eq!(saved[0].actions.len(), 3);
        assert_eq!(saved[0].actions[1].action, "end");
        assert_eq!(saved[0].events.len(), 4);
    }

    #[test]
    fn appends_are_on_disk_when_their_commit_resolves() {
        let db = TempDb::new("store");
        let path = db.path();
        let s = SqliteStore::open(&path).unwrap();
        for seq in 1..=300 {
            block_on(s.append(event("r", seq)).wait()).unwrap();
        }
        // Another connection (another process, as after a crash) sees every committed event.
        let other = Connection::open(&path).unwrap();
        let n: i64 = other
            .query_row(
                "SELECT COUNT(*) FROM (SELECT n FROM log WHERE room = 'r'
                                       UNION SELECT n FROM journal WHERE room = 'r')",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(n, 300);
        drop(s);
        drop(other);
    }
}
