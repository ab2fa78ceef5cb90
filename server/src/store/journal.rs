//! The journal: every committed row not yet moved to `log`, kept in memory by room. Rows are
//! made durable by the commit log (`commit_log.rs`), numbered by one global id as they are
//! committed; this is the archiver's index of them.
//!
//! The `log` table, keyed by room, is where rows live for good. A room's rows move there
//! together, as one row (a chunk), when it ends or, for a long game, when its oldest row is
//! about [`PIN_ROWS`] behind the journal's end: the archiver does that off the commit path, and
//! a commit log segment may go once every row in it has moved ([`Journal::needed`]).
//!
//! A read or a move never looks anywhere else for a room's newest rows. The `journal` table of
//! earlier builds (which wrote every commit into SQLite) is only read on open, when
//! [`Journal::open`] moves whatever it holds to `log`.

use super::error::StoreError;
use super::lines::{join_line, split_events};
use rusqlite::{params, Connection};
use std::collections::{BTreeSet, HashMap};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// How far (in rows) a room's oldest journal row may fall behind the journal's end before
/// its rows move to `log`: at least this and up to half as much again, depending on the room
/// (see [`pin`]); a few seconds of a busy server, and a few MB of rows held in memory.
pub const PIN_ROWS: i64 = 8_192;

/// The table earlier builds appended every commit to; `log` is in the store's schema.
pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS journal (
    id INTEGER PRIMARY KEY,
    room TEXT NOT NULL,
    n INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT,
    events TEXT NOT NULL
);
";

/// A journal row not yet moved to `log`, as written.
#[derive(Clone, Debug)]
pub struct Row {
    /// Its id: rows are numbered from 1 in commit order, over all rooms.
    pub id: i64,
    /// Its room's append number.
    pub n: u64,
    /// The seq of its last event (the room's seq, if it has none).
    pub seq: u64,
    /// The action, as `SEAT AT ACTION`.
    pub action: Option<String>,
    /// The events, as JSON lines.
    pub events: String,
}

impl Row {
    /// The row `a` is stored as, numbered `id`.
    pub fn of(a: &super::record::Append, id: i64) -> Row {
        let action = a
            .action
            .as_ref()
            .map(|r| format!("{} {} {}", r.seat, r.at, r.action));
        let mut events = String::with_capacity(a.events.iter().map(|e| e.1.len() + 1).sum());
        for (_, ev) in &a.events {
            join_line(&mut events, ev);
        }
        Row {
            id,
            n: a.n,
            seq: a.seq,
            action,
            events,
        }
    }
}

/// One room's rows in the journal.
#[derive(Debug, Default)]
struct Rows {
    /// Rows not yet moved, in append order.
    rows: Vec<Row>,
}

/// Where each room's newest rows are, and what of the journal may go.
#[derive(Debug, Default)]
pub struct Journal {
    /// Rooms with rows in the journal, or appended to since start.
    rooms: HashMap<Arc<str>, Rows>,
    /// `(first id, room)` of every room with rows: the first of these pins the journal.
    oldest: BTreeSet<(i64, Arc<str>)>,
    /// `(first id + pin, room)` of every room with rows: the order rooms move in.
    due: BTreeSet<(i64, Arc<str>)>,
    /// Highest id committed.
    head: i64,
    /// Rows moved to `log` since start.
    moved_rows: u64,
    /// Rows held (committed, not yet moved).
    held: usize,
}

/// Committed rows, in commit order, with their rooms.
pub type Pending = Vec<(Arc<str>, Row)>;

/// What [`Journal::upkeep`] did in a transaction not yet committed.
#[derive(Debug, Default)]
pub struct Upkeep {
    /// Rooms whose rows were copied to `log`.
    moved: Vec<Arc<str>>,
    /// How many rows they had.
    moved_rows: usize,
}

/// How far behind the end `room`'s oldest row may fall: [`PIN_ROWS`] and up to half as much
/// again, fixed per room, so rooms that started together do not all move at the same commit.
pub fn pin(room: &str) -> i64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    room.hash(&mut h);
    PIN_ROWS + (h.finish() % (PIN_ROWS as u64 / 2)) as i64
}

impl Journal {
    /// Moves whatever an earlier process left in the journal to `log`, one row per append,
    /// skipping rows a chunk already holds (a room's rows stay in the journal for a while
    /// after they move), and empties it.
    pub fn open(conn: &mut Connection) -> Result<Journal, StoreError> {
        let tx = conn.transaction()?;
        tx.execute(
            "INSERT OR IGNORE INTO log (room, n, last_n, seq, action, events)
             SELECT room, n, n, seq, action, events FROM journal AS j
             WHERE n > COALESCE((SELECT last_n FROM log
                                 WHERE room = j.room ORDER BY n DESC LIMIT 1), 0)
             ORDER BY id",
            [],
        )?;
        tx.execute("DELETE FROM journal", [])?;
        tx.commit()?;
        Ok(Journal::default())
    }

    /// Records rows the commit log has made durable, in commit order.
    pub fn committed(&mut self, pending: Pending) {
        for (room, row) in pending {
            let rows = self.rooms.entry(room.clone()).or_default();
            if rows.rows.is_empty() {
                self.oldest.insert((row.id, room.clone()));
                self.due.insert((row.id + pin(&room), room));
            }
            self.head = self.head.max(row.id);
            self.held += 1;
            rows.rows.push(row);
        }
    }

    /// The lowest row id not yet moved to `log` (one past the head if none): every row below
    /// it is in `log`.
    pub fn needed(&self) -> i64 {
        self.oldest
            .first()
            .map_or(self.head + 1, |(first, _)| *first)
    }

    /// Rows committed and not yet moved.
    pub fn held(&self) -> usize {
        self.held
    }

    /// Whether some room's rows are due to move.
    pub fn due(&self) -> bool {
        self.due.first().is_some_and(|(at, _)| *at <= self.head)
    }

    /// Moves `room`'s journal rows to `log`; the room stays known (for order checks).
    pub fn flush(&mut self, conn: &mut Connection, room: &str) -> Result<(), StoreError> {
        let Some(room) = self.rooms.get_key_value(room).map(|(k, _)| k.clone()) else {
            return Ok(());
        };
        let tx = conn.transaction()?;
        self.copy(&tx, &room)?;
        tx.commit()?;
        self.moved(&room);
        Ok(())
    }

    /// Writes `room`'s journal rows into `log` through `conn`, as one chunk, and returns how many;
    /// they count as moved once [`Journal::moved`] is told, after the commit.
    fn copy(&self, conn: &Connection, room: &str) -> Result<usize, StoreError> {
        let Some(rows) = self.rooms.get(room) else {
            return Ok(0);
        };
        let (Some(first), Some(last)) = (rows.rows.first(), rows.rows.last()) else {
            return Ok(0);
        };
        let mut actions = String::new();
        let mut events = String::new();
        for r in &rows.rows {
            if let Some(a) = &r.action {
                join_line(&mut actions, a);
            }
            if !r.events.is_empty() {
                join_line(&mut events, &r.events);
            }
        }
        let mut stmt = conn.prepare_cached(
            "INSERT OR IGNORE INTO log (room, n, last_n, seq, action, events)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        stmt.execute(params![
            room,
            first.n as i64,
            last.n as i64,
            last.seq as i64,
            (!actions.is_empty()).then_some(actions),
            events
        ])?;
        Ok(rows.rows.len())
    }

    /// Forgets `room`'s journal rows: their copies in `log` have committed.
    fn moved(&mut self, room: &Arc<str>) {
        if let Some(rows) = self.rooms.get_mut(room) {
            if let Some(first) = rows.rows.first() {
                self.oldest.remove(&(first.id, room.clone()));
                self.due.remove(&(first.id + pin(room), room.clone()));
            }
            self.held -= rows.rows.len();
            rows.rows = Vec::new();
        }
    }

    /// Moves `room`'s rows to `log` and forgets it: the room has ended.
    pub fn archive(&mut self, conn: &mut Connection, room: &str) -> Result<(), StoreError> {
        self.flush(conn, room)?;
        if self.rooms.get(room).is_some_and(|r| r.rows.is_empty()) {
            self.rooms.remove(room);
        }
        Ok(())
    }

    /// Moves every room's rows to `log`.
    pub fn flush_all(&mut self, conn: &mut Connection) -> Result<(), StoreError> {
        let rooms: Vec<Arc<str>> = self.oldest.iter().map(|(_, r)| r.clone()).collect();
        for room in rooms {
            self.flush(conn, &room)?;
        }
        Ok(())
    }

    /// Inside a transaction of the archiver's: moves the rooms that are due, soonest first,
    /// about `budget` rows (one room's rows go together, so one move may be longer). What was
    /// done counts once [`Journal::upkept`] is told, after the commit.
    pub fn upkeep(&self, conn: &Connection, budget: usize) -> Result<Upkeep, StoreError> {
        let mut upkeep = Upkeep::default();
        for (at, room) in &self.due {
            if *at > self.head || upkeep.moved_rows >= budget {
                break;
            }
            upkeep.moved_rows += self.copy(conn, room)?;
            upkeep.moved.push(room.clone());
        }
        Ok(upkeep)
    }

    /// Applies an [`Upkeep`] whose transaction has committed.
    pub fn upkept(&mut self, upkeep: Upkeep) {
        for room in &upkeep.moved {
            self.moved(room);
        }
        self.moved_rows += upkeep.moved_rows as u64;
    }

    /// Rows moved to `log` since start.
    pub fn total_moved(&self) -> u64 {
        self.moved_rows
    }

    /// `room`'s events still in the journal with `seq > since`, after those in `log`.
    pub fn events(&self, room: &str, since: u64, out: &mut Vec<(u64, String)>, limit: usize) {
        let Some(rows) = self.rooms.get(room) else {
            return;
        };
        for r in &rows.rows {
            if out.len() >= limit {
                break;
            }
            split_events(r.seq, &r.events, since, out, limit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Append;

    fn append(room: &str, n: u64) -> Append {
        Append {
            room: Arc::from(room),
            n,
            action: None,
            events: vec![(n, format!("{{\"n\":{n}}}"))],
            seq: n,
        }
    }

    /// A store's tables in memory and a journal holding `rooms` rooms of `rows` rows each,
    /// appended round-robin as a busy server would.
    fn journal_with(rooms: usize, rows: u64) -> (Connection, Journal) {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(crate::store::schema::SCHEMA).unwrap();
        conn.execute_batch(SCHEMA).unwrap();
        let mut journal = Journal::open(&mut conn).unwrap();
        let mut id = 0;
        for n in 1..=rows {
            let mut pending = Pending::new();
            for r in 0..rooms {
                id += 1;
                let room = format!("room-{r}");
                pending.push((Arc::from(room.as_str()), Row::of(&append(&room, n), id)));
            }
            journal.committed(pending);
        }
        (conn, journal)
    }

    #[test]
    fn rooms_that_start_together_fall_due_apart() {
        let pins: Vec<i64> = (0..1000).map(|r| pin(&format!("room-{r}"))).collect();
        assert!(pins
            .iter()
            .all(|p| (PIN_ROWS..PIN_ROWS * 3 / 2).contains(p)));
        // Spread over the whole range, not bunched: 1,000 rooms that started together fall
        // due over thousands of rows, never many in the same stretch of 64.
        let spread = pins.iter().max().unwrap() - pins.iter().min().unwrap();
        assert!(
            spread > PIN_ROWS * 2 / 5,
            "pins spread over {spread} rows only"
        );
        let fair = 1000 * 64 / (PIN_ROWS / 2) as usize;
        let busiest = pins
            .iter()
            .map(|&p| pins.iter().filter(|&&q| (p..p + 64).contains(&q)).count())
            .max()
            .unwrap();
        assert!(busiest <= 3 * fair, "{busiest} rooms due within 64 rows");
    }

    #[test]
    fn one_upkeep_moves_about_its_budget_and_the_rest_follow() {
        // 400 rooms of 60 rows: 24,000 rows, so every room is past its pin.
        let (mut conn, mut journal) = journal_with(400, 60);
        let first = journal.needed();
        assert_eq!(first, 1);
        assert_eq!(journal.held(), 24_000);
        let due = journal
            .due
            .iter()
            .filter(|(at, _)| *at <= journal.head)
            .count();
        assert!(due > 100, "{due} rooms due");
        let tx = conn.transaction().unwrap();
        let upkeep = journal.upkeep(&tx, 512).unwrap();
        tx.commit().unwrap();
        // At least the budget, and no more than one room's rows past it; the rest wait for
        // the next upkeep.
        assert!(upkeep.moved_rows >= 512);
        assert!(upkeep.moved_rows < 512 + 60, "{} rows", upkeep.moved_rows);
        let moved = upkeep.moved.clone();
        journal.upkept(upkeep);
        let stored: i64 = conn
            .query_row("SELECT COUNT(*) FROM log", [], |r| r.get(0))
            .unwrap();
        assert_eq!(stored as usize, moved.len(), "one chunk row per room moved");
        for room in &moved {
            let mut out = Vec::new();
            journal.events(room, 0, &mut out, usize::MAX);
            assert!(out.is_empty(), "{room} still holds its moved rows");
        }
        // Room r's first row is r + 1: the lowest row still needed is the first of the
        // lowest room that did not move.
        let lowest = (0..400)
            .find(|r| !moved.iter().any(|m| **m == *format!("room-{r}")))
            .unwrap();
        assert_eq!(journal.needed(), first + lowest as i64);
        assert_eq!(journal.held(), 24_000 - 60 * moved.len());
        // Upkeep after upkeep, every room that was due moves.
        while journal.due() {
            let tx = conn.transaction().unwrap();
            let upkeep = journal.upkeep(&tx, 512).unwrap();
            tx.commit().unwrap();
            journal.upkept(upkeep);
        }
        assert!(journal.due.iter().all(|(at, _)| *at > journal.head));
    }
}
