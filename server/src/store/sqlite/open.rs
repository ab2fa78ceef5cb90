//! Opening the store on SQLite: the database's settings and schema, the commit log, the
//! writer and archiver threads; and recovery: whatever the commit log holds that SQLite does
//! not (the process was killed before the archiver filed it) is filed there first.

use super::super::archiver::{passive_checkpoint, Archiver};
use super::super::commit_log::{self, CommitLog, Durability};
use super::super::error::StoreError;
use super::super::journal::{self, Journal};
use super::super::schema::{store_id, upgrade_log, SCHEMA};
use super::writer::{Writer, ARCHIVE_QUEUE};
use super::SqliteStore;
use rusqlite::{params, Connection};
use std::collections::{HashMap, VecDeque};
use std::sync::mpsc;
use std::time::Duration;

/// The most SQLite's WAL file keeps between checkpoints, in bytes.
const WAL_SIZE_LIMIT: i64 = 64 << 20;

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
        super::super::accounts_upgrade::sqlite(&mut conn)?;
        conn.execute_batch(journal::SCHEMA)?;
        conn.execute_batch(super::super::moderation_schema::SQLITE)?;
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
            work,
            next_id: 0,
        };
        let writer = std::thread::Builder::new()
            .name("store-writer".into())
            .spawn(move || writer.run(rx))
            .map_err(|e| StoreError::Corrupt(format!("cannot start the writer: {e}")))?;
        Ok(SqliteStore {
            jobs: Some(jobs),
            writer: Some(writer),
            archiver: Some(archiver),
        })
    }
}

/// Files commit log rows into `log`, in one transaction: one row (a chunk of one) per append,
/// skipping appends a chunk already holds and rooms that are gone; so filing the same rows
/// twice, or rows SQLite already holds, changes nothing.
pub(in crate::store) fn file_rows(
    conn: &mut Connection,
    rows: &[(std::sync::Arc<str>, super::super::journal::Row)],
) -> Result<(), StoreError> {
    let tx = conn.transaction()?;
    {
        let mut stmt = tx.prepare(
            "INSERT OR IGNORE INTO log (room, n, last_n, seq, action, events)
             SELECT ?1, ?2, ?2, ?3, ?4, ?5
             WHERE EXISTS (SELECT 1 FROM rooms WHERE id = ?1)
               AND ?2 > COALESCE((SELECT last_n FROM log
                                  WHERE room = ?1 ORDER BY n DESC LIMIT 1), 0)",
        )?;
        for (room, r) in rows {
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
    Ok(())
}

/// Files what the commit log's segments under `prefix` hold into `log` (one row per append,
/// skipping appends a chunk already holds and rooms that are gone), makes that durable, and
/// deletes the segments. Returns the number of the next segment.
fn refile(conn: &mut Connection, prefix: &std::path::Path, id: u64) -> Result<u64, StoreError> {
    let replay = commit_log::replay(prefix, id)?;
    if replay.rows.is_empty() && replay.segments.is_empty() {
        return Ok(replay.last_number + 1);
    }
    file_rows(conn, &replay.rows)?;
    let (frames, copied) = passive_checkpoint(conn)?;
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

#[cfg(test)]
mod tests {
    use super::super::super::commit_log;
    use super::super::test_support::{block_on, click, event, room_r};
    use super::*;
    use crate::store::record::{ActionRecord, Append, RoomRecord};
    use crate::store::{Commit, Store};
    use std::sync::Arc;

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
    fn a_room_read_alone_after_a_restart_has_every_action_and_keeps_its_order() {
        let db = TempDb::new("saved");
        {
            let s = SqliteStore::open(&db.path()).unwrap();
            for id in ["r", "other"] {
                let rec = RoomRecord {
                    id: id.into(),
                    ..room_r()
                };
                block_on(s.create_room(&rec)).unwrap();
            }
            for n in 1..=4 {
                block_on(s.append(click("r", n)).wait()).unwrap();
                block_on(s.append(click("other", n)).wait()).unwrap();
            }
            // Some of r's rows in `log`, the rest only in the commit log when the process
            // stops.
            assert_eq!(block_on(s.saved("r")).unwrap().unwrap().actions.len(), 4);
            for n in 5..=6 {
                block_on(s.append(click("r", n)).wait()).unwrap();
            }
        }
        let s = SqliteStore::open(&db.path()).unwrap();
        assert_eq!(block_on(s.unfinished_ids()).unwrap(), vec!["r", "other"]);
        let r = block_on(s.saved("r")).unwrap().expect("r is unfinished");
        assert_eq!(r.appends, 6);
        let ats: Vec<u64> = r.actions.iter().map(|a| a.at).collect();
        assert_eq!(ats, (1..=6).map(|n| n * 10).collect::<Vec<_>>());
        let seqs: Vec<u64> = r.events.iter().map(|e| e.0).collect();
        assert_eq!(seqs, (1..=6).collect::<Vec<_>>());
        // The order check holds for the room read: it carries on from its count only.
        assert!(block_on(s.append(click("r", 6)).wait()).is_err());
        block_on(s.append(click("r", 7)).wait()).unwrap();
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
        // This test's name as the harness knows it (the module path less the crate's name).
        let module = module_path!().split_once("::").map_or("", |(_, m)| m);
        let this_test = format!("{module}::a_commit_that_resolved_survives_kill_9");
        // Enough to fill and seal commit log segments (16 MB each) and have rows moved.
        for _round in 0..2 {
            let child = std::process::Command::new(std::env::current_exe().unwrap())
                .args([
                    this_test.as_str(),
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
