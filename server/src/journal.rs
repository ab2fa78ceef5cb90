//! The journal: where every append lands first. Rows are keyed by one global id, so a group
//! commit of a thousand rooms writes the few pages at the journal's end instead of one page
//! per room (the cost that kept a durable server under 8,000 clicks/s, BENCHMARKS.md).
//!
//! The `log` table, keyed by room, is where rows live for good. A room's rows move there in
//! one go when it ends, or, for a long game, when its oldest row is about [`PIN_ROWS`]
//! behind the journal's end: a move writes a room's page once for many rows. Then the
//! journal's head, behind every row still needed, is deleted a slice at a time, so it stays a
//! few MB.
//!
//! Which journal rows belong to which room is kept here in memory; after a restart every
//! journal row is moved to `log` first ([`Journal::open`]), so nothing depends on an index
//! that was lost with the process.

use crate::store::{Append, StoreError};
use rusqlite::{params, Connection, Transaction};
use std::collections::{BTreeSet, HashMap};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// How far (in rows) a room's oldest journal row may fall behind the journal's end before
/// its rows move to `log`: at least this and up to half as much again, depending on the room
/// (see [`pin`]), about 4 s of a busy server.
pub const PIN_ROWS: i64 = 32_768;
/// Rows moved to `log` between two group commits, at least (one room's rows go together, so
/// one move may be longer): a fraction of a millisecond of work.
const MOVE_BUDGET: usize = 48;
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

/// One room's rows in the journal.
#[derive(Debug, Default)]
struct Rows {
    /// Journal ids in append order.
    ids: Vec<i64>,
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
}

/// Appends written in a transaction not yet committed: `(room, n, id)`.
pub type Pending = Vec<(Arc<str>, u64, i64)>;

/// How far behind the end `room`'s oldest row may fall: [`PIN_ROWS`] and up to half as much
/// again, fixed per room, so rooms that started together do not all move at the same commit.
pub fn pin(room: &str) -> i64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    room.hash(&mut h);
    PIN_ROWS + (h.finish() % (PIN_ROWS as u64 / 2)) as i64
}

impl Journal {
    /// Moves whatever an earlier process left in the journal to `log` and empties it.
    pub fn open(conn: &mut Connection) -> Result<Journal, StoreError> {
        let tx = conn.transaction()?;
        tx.execute(
            "INSERT OR IGNORE INTO log (room, n, seq, action, events)
             SELECT room, n, seq, action, events FROM journal ORDER BY id",
            [],
        )?;
        tx.execute("DELETE FROM journal", [])?;
        tx.commit()?;
        Ok(Journal::default())
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
    pub fn write(
        tx: &Transaction<'_>,
        a: &Append,
        pending: &mut Pending,
    ) -> Result<(), StoreError> {
        let action = a.action.map(|r| {
            format!(
                "{} {} {}",
                r.seat,
                r.at,
                crate::store::encode_action(&r.action)
            )
        });
        let mut events = String::with_capacity(a.events.iter().map(|e| e.1.len() + 1).sum());
        for (i, (_, ev)) in a.events.iter().enumerate() {
            if i > 0 {
                events.push('\n');
            }
            events.push_str(ev);
        }
        let mut stmt = tx.prepare_cached(
            "INSERT INTO journal (room, n, seq, action, events) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        stmt.execute(params![&*a.room, a.n as i64, a.seq as i64, action, events])?;
        pending.push((a.room.clone(), a.n, tx.last_insert_rowid()));
        Ok(())
    }

    /// Records appends whose transaction has committed.
    pub fn committed(&mut self, pending: Pending) {
        for (room, n, id) in pending {
            let rows = self.rooms.entry(room.clone()).or_default();
            if rows.ids.is_empty() {
                self.oldest.insert((id, room.clone()));
                self.due.insert((id + pin(&room), room));
            }
            rows.ids.push(id);
            rows.last_n = Some(n);
            self.head = self.head.max(id);
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

    /// Writes `room`'s journal rows into `log` in `tx` and returns how many; they count as
    /// moved once [`Journal::moved`] is told, after the commit.
    fn copy(&self, tx: &Transaction<'_>, room: &str) -> Result<usize, StoreError> {
        let Some(rows) = self.rooms.get(room) else {
            return Ok(0);
        };
        let mut stmt = tx.prepare_cached(
            "INSERT OR IGNORE INTO log (room, n, seq, action, events)
             SELECT room, n, seq, action, events FROM journal WHERE id = ?1",
        )?;
        for id in &rows.ids {
            stmt.execute([id])?;
        }
        Ok(rows.ids.len())
    }

    /// Forgets `room`'s journal rows: their copies in `log` have committed.
    fn moved(&mut self, room: &Arc<str>) {
        if let Some(rows) = self.rooms.get_mut(room) {
            if let Some(&first) = rows.ids.first() {
                self.oldest.remove(&(first, room.clone()));
                self.due.remove(&(first + pin(room), room.clone()));
            }
            rows.ids = Vec::new();
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

    /// Between group commits, after one of `appended` rows: moves the rows of rooms that are
    /// due (in one transaction), then deletes a slice of the head nobody needs. Each step is
    /// kept to a few times the commit's own rows, as every room waiting for the next commit
    /// waits for it too: rooms that fall due together move over several commits, and the
    /// journal runs a little longer meanwhile.
    pub fn maintain(&mut self, conn: &mut Connection, appended: usize) {
        if let Err(e) = self.move_due(conn, MOVE_BUDGET.max(2 * appended)) {
            tracing::warn!("moving journal rows to the log failed: {e}");
        }
        let needed = self
            .oldest
            .first()
            .map_or(self.head + 1, |(first, _)| *first);
        if needed - self.pruned < PRUNE_AT {
            return;
        }
        // The newest row always stays: SQLite numbers a new row one past the highest left,
        // and ids must keep growing for `oldest` to mean what it says.
        let budget = PRUNE_BUDGET.max(4 * appended as i64);
        let below = needed.min(self.pruned + budget).min(self.head);
        match conn.execute("DELETE FROM journal WHERE id < ?1", [below]) {
            Ok(_) => self.pruned = below,
            Err(e) => tracing::warn!("pruning the journal failed: {e}"),
        }
    }

    /// Moves the rooms that are due, soonest first, until `budget` rows have moved.
    fn move_due(&mut self, conn: &mut Connection, budget: usize) -> Result<(), StoreError> {
        let due = |(at, _): &&(i64, Arc<str>)| *at <= self.head;
        if self.due.first().filter(due).is_none() {
            return Ok(());
        }
        let tx = conn.transaction()?;
        let mut rooms = Vec::new();
        let mut moved = 0;
        for (_, room) in self.due.iter().take_while(due) {
            if moved >= budget {
                break;
            }
            moved += self.copy(&tx, room)?;
            rooms.push(room.clone());
        }
        tx.commit()?;
        for room in &rooms {
            self.moved(room);
        }
        Ok(())
    }

    /// `room`'s events still in the journal with `seq > since`, after those in `log`.
    pub fn events(
        &self,
        conn: &Connection,
        room: &str,
        since: u64,
        out: &mut Vec<(u64, String)>,
        limit: usize,
    ) -> Result<(), StoreError> {
        let Some(rows) = self.rooms.get(room) else {
            return Ok(());
        };
        let mut stmt = conn.prepare_cached("SELECT seq, events FROM journal WHERE id = ?1")?;
        for id in &rows.ids {
            if out.len() >= limit {
                break;
            }
            let (last, events) = stmt.query_row([id], |r| {
                Ok((r.get::<_, i64>(0)? as u64, r.get::<_, String>(1)?))
            })?;
            crate::store::split_events(last, &events, since, out, limit);
        }
        Ok(())
    }
}
