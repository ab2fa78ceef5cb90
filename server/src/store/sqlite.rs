//! The store on SQLite: a writer thread that makes each group commit durable in the commit
//! log (one `write()`), and an archiver thread that owns the SQLite connection and files the
//! committed rows there off the commit path (see the module `store` for the design).

use super::archiver::{Archiver, Call, Work};
use super::commit::Commit;
use super::commit_log::{self, CommitLog, Durability};
use super::error::StoreError;
use super::journal::{self, Journal, Pending, Row};
use super::lines::split_events;
use super::record::{
    ActionRecord, Append, ArchivedRoom, ArchivedSeat, GamesQuery, PlayerQuery, PlayerRecord,
    RoomRecord, SavedRoom,
};
use super::schema::{store_id, upgrade_log, SCHEMA};
use super::{Store, PRUNE_BATCH};
use crate::clock::Millis;
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::{HashMap, VecDeque};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// The store on SQLite (bundled), WAL mode, behind a commit log of its own.
pub struct SqliteStore {
    /// The writer's queue (`None` once dropped, to stop the writer).
    jobs: Option<mpsc::Sender<Job>>,
    /// The writer thread, joined on drop.
    writer: Option<JoinHandle<()>>,
    /// The archiver thread, joined on drop so the database is closed cleanly.
    archiver: Option<JoinHandle<()>>,
}

/// Most appends committed in one group commit.
const MAX_BATCH: usize = 1024;
/// Work items the writer may pass on before it waits for the archiver: the archiver may fall
/// this far behind (a long checkpoint, a slow disk, a saturated core) before a commit waits
/// for it. At 10,000 clicks/s that is seconds of work.
pub const ARCHIVE_QUEUE: usize = 65_536;
/// The most SQLite's WAL file keeps between checkpoints, in bytes.
const WAL_SIZE_LIMIT: i64 = 64 << 20;

/// What the writer thread is asked to do, in order.
enum Job {
    /// Part of the next group commit.
    Append(Append, oneshot::Sender<Result<(), StoreError>>),
    /// Anything else: passed on to the archiver between group commits.
    Run(Call),
    /// Rooms restored with their last append numbers: the order check holds for them.
    Resume(Vec<(Arc<str>, u64)>),
    /// A room that has ended: the order check forgets it.
    Forget(Arc<str>),
}

impl SqliteStore {
    /// Opens (or creates) the store at `path`; `:memory:` for a throwaway one.
    pub fn open(path: &str) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(path, Durability::Normal)
    }

    /// Opens the store at `path` with commits as durable as `durability` says. Whatever the
    /// commit log holds that SQLite does not (after a kill) is filed there first.
    pub fn open_with(path: &str, durability: Durability) -> Result<SqliteStore, StoreError> {
        let in_memory = path == ":memory:";
        let mut conn = if in_memory {
            Connection::open_in_memory()?
        } else {
            Connection::open(path)?
        };
        // SQLite is the archive, written off the commit path: its WAL is checkpointed by the
        // archiver (`wal_autocheckpoint` off), and `synchronous` only decides how soon after
        // a power cut the commit log may be needed to rebuild it.
        let sync = match durability {
            Durability::Normal => "NORMAL",
            Durability::Full => "FULL",
        };
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", sync)?;
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        conn.pragma_update(None, "journal_size_limit", WAL_SIZE_LIMIT)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        upgrade_log(&mut conn, SCHEMA)?;
        super::accounts_upgrade::sqlite(&mut conn)?;
        conn.execute_batch(journal::SCHEMA)?;
        let journal = Journal::open(&mut conn)?;
        let (log, segments) = if in_memory {
            (None, None)
        } else {
            let id = store_id(&conn)?;
            let prefix = commit_log::prefix_of(path);
            let next = refile(&mut conn, &prefix, id)?;
            let log = CommitLog::create(prefix.clone(), id, next, durability)?;
            (Some(log), Some(prefix))
        };
        // Unbounded in type, bounded in fact: a room has at most one append in flight (it
        // waits for its commit before it takes another command), so the queue never holds
        // more than one append per live room plus the few calls awaiting an answer.
        let (jobs, rx) = mpsc::channel();
        let (work, work_rx) = mpsc::sync_channel(ARCHIVE_QUEUE);
        let archiver = Archiver {
            conn,
            journal,
            work: work_rx,
            segments,
            sealed: VecDeque::new(),
        };
        let archiver = std::thread::Builder::new()
            .name("store-archiver".into())
            .spawn(move || archiver.run())
            .map_err(|e| StoreError::Corrupt(format!("cannot start the archiver: {e}")))?;
        let writer = Writer {
            log,
            last: HashMap::new(),
            jobs: rx,
            work,
            next_id: 0,
        };
        let writer = std::thread::Builder::new()
            .name("store-writer".into())
            .spawn(move || writer.run())
            .map_err(|e| StoreError::Corrupt(format!("cannot start the writer: {e}")))?;
        Ok(SqliteStore {
            jobs: Some(jobs),
            writer: Some(writer),
            archiver: Some(archiver),
        })
    }

    /// Runs `f` on the archiver's thread, after everything queued before it, and waits for it
    /// (without holding a runtime worker: the answer comes back on a oneshot).
    pub(super) async fn call<T: Send + 'static>(
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

    /// Queues `job` for the writer.
    fn tell(&self, job: Job) -> Result<(), StoreError> {
        let jobs = self.jobs.as_ref().ok_or(StoreError::Closed)?;
        jobs.send(job).map_err(|_| StoreError::Closed)
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

/// Files what the commit log's segments under `prefix` hold into `log` (one row per append,
/// skipping appends a chunk already holds and rooms that are gone), makes that durable, and
/// deletes the segments. Returns the number of the next segment.
fn refile(conn: &mut Connection, prefix: &std::path::Path, id: u64) -> Result<u64, StoreError> {
    let replay = commit_log::replay(prefix, id)?;
    if replay.rows.is_empty() && replay.segments.is_empty() {
        return Ok(replay.last_number + 1);
    }
    let tx = conn.transaction()?;
    {
        let mut stmt = tx.prepare(
            "INSERT OR IGNORE INTO log (room, n, last_n, seq, action, events)
             SELECT ?1, ?2, ?2, ?3, ?4, ?5
             WHERE EXISTS (SELECT 1 FROM rooms WHERE id = ?1)
               AND ?2 > COALESCE((SELECT last_n FROM log
                                  WHERE room = ?1 ORDER BY n DESC LIMIT 1), 0)",
        )?;
        for (room, r) in &replay.rows {
            stmt.execute(params![
                &**room,
                r.n as i64,
                r.seq as i64,
                r.action,
                r.events
            ])?;
        }
    }
    tx.commit()?;
    let (frames, copied) = super::archiver::passive_checkpoint(conn)?;
    if copied >= frames {
        for path in &replay.segments {
            std::fs::remove_file(path)?;
        }
    }
    tracing::info!(
        rows = replay.rows.len(),
        segments = replay.segments.len(),
        "store: the commit log's rows are filed in SQLite"
    );
    Ok(replay.last_number + 1)
}

/// The writer thread's state: the commit path.
struct Writer {
    /// Where commits are made durable (`None` in memory).
    log: Option<CommitLog>,
    /// Each live room's last append number (the order check); only this thread's.
    last: HashMap<Arc<str>, u64>,
    /// Its queue.
    jobs: mpsc::Receiver<Job>,
    /// The archiver's queue.
    work: mpsc::SyncSender<Work>,
    /// The last row id given.
    next_id: i64,
}

impl Writer {
    fn run(mut self) {
        super::scheduling::no_wakeup_preemption();
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
                        self.pass_on(Work::Run(f));
                    }
                    Job::Resume(rooms) => self.last.extend(rooms),
                    Job::Forget(room) => {
                        self.last.remove(&room);
                    }
                }
                if batch.len() < MAX_BATCH {
                    job = self.jobs.try_recv().ok();
                }
            }
            let appended = batch.len();
            let began = Instant::now();
            self.commit(batch);
            stats.add(appended, began);
        }
        if let Some(log) = &self.log {
            // The segment being written will not be again: the archiver may delete it.
            self.pass_on(Work::Sealed(log.current()));
        }
    }

    /// Hands `w` to the archiver (waiting only if it is [`ARCHIVE_QUEUE`] items behind).
    fn pass_on(&self, w: Work) {
        if self.work.send(w).is_err() {
            tracing::error!("store: the archiver has stopped");
        }
    }

    /// Makes `batch` durable with one write to the commit log, passes the rows on to the
    /// archiver, then tells each room. An append out of its room's order is refused alone;
    /// a failed write fails the whole batch and leaves nothing of it.
    fn commit(&mut self, batch: Vec<(Append, oneshot::Sender<Result<(), StoreError>>)>) {
        if batch.is_empty() {
            return;
        }
        let mut order: HashMap<Arc<str>, u64> = HashMap::new();
        let mut rows: Pending = Vec::with_capacity(batch.len());
        let mut waiting = Vec::with_capacity(batch.len());
        {
            for (a, done) in batch {
                let previous = order
                    .get(&a.room)
                    .copied()
                    .or_else(|| self.last.get(&a.room).copied());
                match previous {
                    Some(p) if a.n != p + 1 => {
                        let e = format!("room {} append {} after {p}", a.room, a.n);
                        let _ = done.send(Err(StoreError::Corrupt(e)));
                        continue;
                    }
                    _ => {}
                }
                order.insert(a.room.clone(), a.n);
                self.next_id += 1;
                rows.push((a.room.clone(), Row::of(&a, self.next_id)));
                waiting.push(done);
            }
        }
        if rows.is_empty() {
            return;
        }
        let sealed = match self.log.as_mut().map(|log| log.append(&rows)) {
            None => None,
            Some(Ok(sealed)) => sealed,
            Some(Err(e)) => {
                tracing::error!("store: a group commit failed: {e}");
                self.next_id -= rows.len() as i64;
                let e = Arc::new(e);
                for done in waiting {
                    let _ = done.send(Err(StoreError::Io(e.clone())));
                }
                return;
            }
        };
        self.last.extend(order);
        // Passed on before any room is told, so a read asked after a commit resolved sees it.
        self.pass_on(Work::Rows(rows));
        if let Some(s) = sealed {
            self.pass_on(Work::Sealed(s));
        }
        for done in waiting {
            let _ = done.send(Ok(()));
        }
    }
}

/// The writer's figures, logged once a second at debug level (`--log
/// orion_server::store=debug`): group commits and the rows in them, the biggest, the time
/// spent committing (writing the commit log), total and longest, in microseconds.
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
        let ended = status == "finished" || status == "closed";
        let id: Arc<str> = Arc::from(room.as_str());
        self.call(move |c, journal| {
            // An ended room appends no more game events: its rows go to `log` together.
            if ended {
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
        .await?;
        if ended {
            self.tell(Job::Forget(id))?;
        }
        Ok(())
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
        let rooms = self.call(read_unfinished).await?;
        // The order check holds for restored rooms too.
        let last = rooms
            .iter()
            .map(|r| (Arc::from(r.record.id.as_str()), r.appends))
            .collect();
        self.tell(Job::Resume(last))?;
        Ok(rooms)
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
            let (column, who) = match &query.player {
                PlayerQuery::Id(id) => ("player", id),
                PlayerQuery::Name(name) => ("name", name),
            };
            let rooms: Vec<String> = {
                let mut stmt = c.prepare_cached(&format!(
                    "SELECT DISTINCT room, ended_at FROM archive
                     WHERE {column} = ?1 AND (?2 IS NULL OR game = ?2)
                       AND (?3 IS NULL OR ended_at < ?3 OR (ended_at = ?3 AND room < ?4))
                     ORDER BY ended_at DESC, room DESC LIMIT ?5"
                ))?;
                let rows = stmt.query_map(
                    params![who, query.game, at, room, query.limit as i64],
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
    use super::super::commit_log;
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
    fn appends_are_in_the_commit_log_when_their_commit_resolves() {
        for durability in [Durability::Normal, Durability::Full] {
            let db = TempDb::new("store");
            let path = db.path();
            let s = SqliteStore::open_with(&path, durability).unwrap();
            for seq in 1..=300 {
                block_on(s.append(event("r", seq)).wait()).unwrap();
                // What another process reading the files (a restart after a kill) would see.
                let id = block_on(s.call(|c, _| store_id(c))).unwrap();
                if seq.is_multiple_of(100) {
                    let replay = commit_log::replay(&commit_log::prefix_of(&path), id).unwrap();
                    let ns: Vec<u64> = replay.rows.iter().map(|(_, r)| r.n).collect();
                    assert_eq!(ns, (1..=seq).collect::<Vec<_>>(), "{durability:?}");
                }
            }
            drop(s);
        }
    }

    /// A child process, `SIGKILL`ed and reaped when dropped.
    struct KillOnDrop(std::process::Child);

    impl Drop for KillOnDrop {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }

    /// Set in the child process of [`a_commit_that_resolved_survives_kill_9`]: the database
    /// it writes to.
    const KILL_CHILD_DB: &str = "ORION_STORE_KILL_CHILD_DB";
    /// Rooms the child appends to at once, and the size of each event.
    const KILL_ROOMS: u64 = 50;
    const KILL_EVENT: usize = 1_500;

    /// The child: continues (or creates) `KILL_ROOMS` rooms at `path` and appends to each in
    /// turn for ever, printing `room n` once each commit has resolved, until it is killed.
    fn kill_child(path: &str) -> ! {
        let s = SqliteStore::open(path).unwrap();
        let saved = block_on(s.unfinished()).unwrap();
        let mut next = vec![1u64; KILL_ROOMS as usize];
        for r in 0..KILL_ROOMS {
            let id = format!("k{r}");
            match saved.iter().find(|x| x.record.id == id) {
                Some(x) => next[r as usize] = x.appends + 1,
                None => block_on(s.create_room(&RoomRecord { id, ..room_r() })).unwrap(),
            }
        }
        let pad = "x".repeat(KILL_EVENT);
        block_on(async {
            loop {
                let commits: Vec<(u64, u64, Commit)> = (0..KILL_ROOMS)
                    .map(|r| {
                        let n = next[r as usize];
                        let ev = format!("{{\"n\":{n},\"pad\":\"{pad}\"}}");
                        let append = Append {
                            room: Arc::from(format!("k{r}").as_str()),
                            n,
                            action: Some(ActionRecord {
                                seat: "S".into(),
                                action: format!("click {n}"),
                                at: n,
                            }),
                            events: vec![(n, ev)],
                            seq: n,
                        };
                        (r, n, s.append(append))
                    })
                    .collect();
                for (r, n, c) in commits {
                    c.wait().await.unwrap();
                    println!("acked {r} {n}");
                    next[r as usize] = n + 1;
                }
            }
        })
    }

    /// A real `kill -9` of a process that appends as fast as it can, its archiver moving rows,
    /// checkpointing and deleting segments all along, at an instant that falls wherever it
    /// falls; twice, the second time on the store the first left. Every append whose commit
    /// had resolved is there after, once, in order, and the rooms carry on.
    #[test]
    fn a_commit_that_resolved_survives_kill_9() {
        if let Ok(path) = std::env::var(KILL_CHILD_DB) {
            kill_child(&path);
        }
        use std::io::BufRead;
        let db = TempDb::new("kill9");
        let mut acked = vec![0u64; KILL_ROOMS as usize];
        // Enough to fill and seal commit log segments (16 MB each) and have rows moved.
        for _round in 0..2 {
            let child = std::process::Command::new(std::env::current_exe().unwrap())
                .args([
                    "store::sqlite::tests::a_commit_that_resolved_survives_kill_9",
                    "--exact",
                    "--nocapture",
                    "--test-threads=1",
                ])
                .env(KILL_CHILD_DB, db.path())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            // Killed however this round ends, a failed assertion included.
            let mut child = KillOnDrop(child);
            let out = std::io::BufReader::new(child.0.stdout.take().unwrap());
            let mut seen = 0;
            for line in out.lines() {
                let line = line.unwrap();
                let mut words = line.split(' ').skip_while(|w| *w != "acked").skip(1);
                let (Some(r), Some(n)) = (words.next(), words.next()) else {
                    continue;
                };
                let (r, n): (usize, u64) = (r.parse().unwrap(), n.parse().unwrap());
                acked[r] = acked[r].max(n);
                seen += 1;
                if seen == 15_000 {
                    break;
                }
            }
            drop(child);
        }
        let s = SqliteStore::open(&db.path()).unwrap();
        let saved = block_on(s.unfinished()).unwrap();
        assert_eq!(saved.len(), KILL_ROOMS as usize);
        for room in &saved {
            let r: usize = room.record.id[1..].parse().unwrap();
            assert!(
                room.appends >= acked[r],
                "{}: {} < {}",
                room.record.id,
                room.appends,
                acked[r]
            );
            let seqs: Vec<u64> = room.events.iter().map(|e| e.0).collect();
            assert_eq!(
                seqs,
                (1..=room.appends).collect::<Vec<_>>(),
                "{}",
                room.record.id
            );
            assert_eq!(room.actions.len() as u64, room.appends);
            assert!(room
                .actions
                .iter()
                .enumerate()
                .all(|(i, a)| a.at == i as u64 + 1));
            // The room carries on where it stopped.
            let n = room.appends + 1;
            let append = Append {
                room: Arc::from(room.record.id.as_str()),
                ..event("x", n)
            };
            block_on(s.append(append).wait()).unwrap();
        }
        assert!(
            acked.iter().all(|&n| n > 100),
            "the child appended too little"
        );
    }
}
