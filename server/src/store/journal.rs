//! The journal: where every append lands first. Rows are keyed by one global id, so a group
//! commit of a thousand rooms writes the few pages at the journal's end instead of one page
//! per room (the cost that kept a durable server under 8,000 clicks/s, BENCHMARKS.md).
//!
//! The `log` table, keyed by room, is where rows live for good. A room's rows move there
//! together, as one row (a chunk), when it ends or, for a long game, when its oldest row is
//! about [`PIN_ROWS`] behind the journal's end. Then the journal's head, behind every row
//! still needed, is deleted a slice at a time, so it stays a few MB.
//!
//! The rows not yet moved are also kept here in memory, by room: a move or a read never looks
//! in the journal table (reading rows back one by one cost more than writing them). That
//! table is only read after a restart, when [`Journal::open`] moves every row in it to `log`
//! first, so nothing depends on what was lost with the process.

use super::error::StoreError;
use super::lines::{join_line, split_events};
use super::record::Append;
use rusqlite::{params, Connection};
use std::collections::{BTreeSet, HashMap};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// How far (in rows) a room's oldest journal row may fall behind the journal's end before
/// its rows move to `log`: at least this and up to half as much again, depending on the room
/// (see [`pin`]); a few seconds of a busy server, and a few MB of rows held in memory.
pub const PIN_ROWS: i64 = 8_192;
/// Rows moved to `log` between two group commits, at least (one room's rows go together, so
/// one move may be longer): a fraction of a millisecond of work.
const MOVE_BUDGET: usize = 64;
/// Rows deleted from the journal's head between two group commits, at least (about 1 µs
/// each).
const PRUNE_BUDGET: i64 = 512;
/// Dead rows at the journal's head worth a delete.
const PRUNE_AT: i64 = 256;

/// The journal's table; `log` is in the store's schema.
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
#[derive(Debug)]
pub struct Row {
    /// Its journal id.
    id: i64,
    /// Its room's append number.
    n: u64,
    /// The seq of its last event (the room's seq, if it has none).
    seq: u64,
    /// The action, as `SEAT AT ACTION`.
    action: Option<String>,
    /// The events, as JSON lines.
    events: String,
}

/// One room's rows in the journal.
#[derive(Debug, Default)]
struct Rows {
    /// Rows not yet moved, in append order.
    rows: Vec<Row>,
    /// The room's last append number seen since start (`None` before its first).
    last_n: Option<u64>,
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
    /// Highest id written.
    head: i64,
    /// Every id below this has been deleted.
    pruned: i64,
    /// Rows moved to `log` since start.
    moved_rows: u64,
    /// Rows deleted from the head since start.
    pruned_rows: u64,
}

/// Appends written in a transaction not yet committed.
pub type Pending = Vec<(Arc<str>, Row)>;

/// What [`Journal::upkeep`] did in a transaction not yet committed.
#[derive(Debug, Default)]
pub struct Upkeep {
    /// Rooms whose rows were copied to `log`.
    moved: Vec<Arc<str>>,
    /// How many rows they had.
    moved_rows: usize,
    /// The journal's rows below this were deleted.
    pruned: Option<i64>,
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

    /// Records that `room`'s last stored append is `n` (read back after a restart), so the
    /// order check holds for it too.
    pub fn resume(&mut self, room: &str, n: u64) {
        self.rooms.entry(Arc::from(room)).or_default().last_n = Some(n);
    }

    /// Refuses an append out of its room's order (a second append with the same number);
    /// `batch` holds the last number of each room accepted earlier in the same commit.
    pub fn check(&self, a: &Append, batch: &mut HashMap<Arc<str>, u64>) -> Result<(), StoreError> {
        let last = batch
            .get(&a.room)
            .copied()
            .or_else(|| self.rooms.get(&a.room).and_then(|r| r.last_n));
        match last {
            Some(last) if a.n != last + 1 => Err(StoreError::Corrupt(format!(
                "room {} append {} after {last}",
                a.room, a.n
            ))),
            _ => {
                batch.insert(a.room.clone(), a.n);
                Ok(())
            }
        }
    }

    /// Writes one append in `tx`; it counts once [`Journal::committed`] is told.
    pub fn write(tx: &Connection, a: &Append, pending: &mut Pending) -> Result<(), StoreError> {
        let action = a
            .action
            .as_ref()
            .map(|r| format!("{} {} {}", r.seat, r.at, r.action));
        let mut events = String::with_capacity(a.events.iter().map(|e| e.1.len() + 1).sum());
        for (_, ev) in &a.events {
            join_line(&mut events, ev);
        }
        let mut stmt = tx.prepare_cached(
            "INSERT INTO journal (room, n, seq, action, events) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        stmt.execute(params![&*a.room, a.n as i64, a.seq as i64, action, events])?;
        let row = Row {
            id: tx.last_insert_rowid(),
            n: a.n,
            seq: a.seq,
            action,
            events,
        };
        pending.push((a.room.clone(), row));
        Ok(())
    }

    /// Records appends whose transaction has committed.
    pub fn committed(&mut self, pending: Pending) {
        for (room, row) in pending {
            let rows = self.rooms.entry(room.clone()).or_default();
            if rows.rows.is_empty() {
                self.oldest.insert((row.id, room.clone()));
                self.due.insert((row.id + pin(&room), room));
            }
            rows.last_n = Some(row.n);
            self.head = self.head.max(row.id);
            rows.rows.push(row);
        }
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
            rows.rows = Vec::new();
        }
    }

    /// Moves `room`'s rows to `log` and forgets it: the room has ended.
    pub fn archive(&mut self, conn: &mut Connection, room: &str) -> Result<(), StoreError> {
        self.flush(conn, room)?;
        self.rooms.remove(room);
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

    /// Inside the transaction of a group commit of `appended` rows: moves the rooms that are
    /// due, soonest first, then deletes a slice of the head nobody needs. Both ride on the
    /// commit rather than taking one of their own, and each is kept to a few times the
    /// commit's own rows, as the rooms in it wait for them too: rooms that fall due together
    /// move over several commits, and the journal runs a little longer meanwhile. What was
    /// done counts once [`Journal::upkept`] is told, after the commit.
    pub fn upkeep(&self, conn: &Connection, appended: usize) -> Result<Upkeep, StoreError> {
        let mut upkeep = Upkeep::default();
        let budget = MOVE_BUDGET.max(2 * appended);
        for (at, room) in &self.due {
            if *at > self.head || upkeep.moved_rows >= budget {
                break;
            }
            upkeep.moved_rows += self.copy(conn, room)?;
            upkeep.moved.push(room.clone());
        }
        let needed = self
            .oldest
            .iter()
            .find(|(_, room)| !upkeep.moved.contains(room))
            .map_or(self.head + 1, |(first, _)| *first);
        if needed - self.pruned >= PRUNE_AT {
            // The newest row always stays: SQLite numbers a new row one past the highest
            // left, and ids must keep growing for `oldest` to mean what it says.
            let budget = PRUNE_BUDGET.max(4 * appended as i64);
            let below = needed.min(self.pruned + budget).min(self.head);
            conn.execute("DELETE FROM journal WHERE id < ?1", [below])?;
            upkeep.pruned = Some(below);
        }
        Ok(upkeep)
    }

    /// Applies an [`Upkeep`] whose transaction has committed. Before [`Journal::committed`]
    /// for the same transaction: a room's new rows must not be taken for moved ones.
    pub fn upkept(&mut self, upkeep: Upkeep) {
        for room in &upkeep.moved {
            self.moved(room);
        }
        self.moved_rows += upkeep.moved_rows as u64;
        if let Some(below) = upkeep.pruned {
            self.pruned_rows += (below - self.pruned) as u64;
            self.pruned = below;
        }
    }

    /// Rows moved to `log` and rows deleted from the journal's head since start.
    pub fn totals(&self) -> (u64, u64) {
        (self.moved_rows, self.pruned_rows)
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

/// Adds `line` (which may hold several lines) to the lines in `text`.
#[cfg(test)]
mod tests {
    use super::*;

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
        for n in 1..=rows {
            let tx = conn.transaction().unwrap();
            let mut pending = Pending::new();
            for r in 0..rooms {
                Journal::write(&tx, &append(&format!("room-{r}"), n), &mut pending).unwrap();
            }
            tx.commit().unwrap();
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
    fn one_commit_moves_only_its_share_of_the_rooms_that_are_due() {
        // 400 rooms of 60 rows: 24,000 rows, so every room is past its pin.
        let (mut conn, mut journal) = journal_with(400, 60);
        let due = journal
            .due
            .iter()
            .filter(|(at, _)| *at <= journal.head)
            .count();
        assert!(due > 100, "{due} rooms due");
        let tx = conn.transaction().unwrap();
        let upkeep = journal.upkeep(&tx, 8).unwrap();
        tx.commit().unwrap();
        // A commit of 8 rows moves at least MOVE_BUDGET rows, and no more than one room's
        // rows past it; the rest wait for the next commits.
        assert!(upkeep.moved_rows >= MOVE_BUDGET);
        assert!(
            upkeep.moved_rows < MOVE_BUDGET + 60,
            "{} rows",
            upkeep.moved_rows
        );
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
        // Commit after commit, every room that was due moves.
        for _ in 0..200 {
            let tx = conn.transaction().unwrap();
            let upkeep = journal.upkeep(&tx, 8).unwrap();
            tx.commit().unwrap();
            journal.upkept(upkeep);
        }
        assert!(journal.due.iter().all(|(at, _)| *at > journal.head));
    }
}
