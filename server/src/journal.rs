//! The journal: where every append lands first. Rows are keyed by one global id, so a group
//! commit of a thousand rooms writes the few pages at the journal's end instead of one page
//! per room (the cost that kept a durable server under 8,000 clicks/s, BENCHMARKS.md).
//!
//! The `log` table, keyed by room, is where rows live for good. A room's rows move there in
//! one go when it ends, or, for a long game, when its oldest row is [`PIN_ROWS`] behind the
//! journal's end: a move writes a room's page once for many rows. Then the journal's head,
//! behind every row still needed, is deleted a slice at a time, so it stays a few MB.
//!
//! Which journal rows belong to which room is kept here in memory; after a restart every
//! journal row is moved to `log` first ([`Journal::open`]), so nothing depends on an index
//! that was lost with the process.

use crate::store::{Append, StoreError};
use rusqlite::{params, Connection, Transaction};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// How far (in rows) a room's oldest journal row may fall behind the journal's end before
/// its rows move to `log`: about 4 s of a busy server.
pub const PIN_ROWS: i64 = 32_768;
/// Rows moved to `log` for long rooms between two group commits, at most (one room's
/// rows go together, so one move may be longer).
const MOVE_BUDGET: usize = 512;
/// Rows deleted from the journal's head between two group commits, at most.
const PRUNE_BUDGET: i64 = 2_048;
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
    /// Highest id written.
    head: i64,
    /// Every id below this has been deleted.
    pruned: i64,
}

/// Appends written in a transaction not yet committed: `(room, n, id)`.
pub type Pending = Vec<(Arc<str>, u64, i64)>;

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
                self.oldest.insert((id, room));
            }
            rows.ids.push(id);
            rows.last_n = Some(n);
            self.head = self.head.max(id);
        }
    }

    /// Moves `room`'s journal rows to `log`; the room stays known (for order checks).
    pub fn flush(&mut self, conn: &mut Connection, room: &str) -> Result<(), StoreError> {
        let Some((key, rows)) = self.rooms.get_key_value(room) else {
            return Ok(());
        };
        let Some(&first) = rows.ids.first() else {
            return Ok(());
        };
        let tx = conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT OR IGNORE INTO log (room, n, seq, action, events)
                 SELECT room, n, seq, action, events FROM journal WHERE id = ?1",
            )?;
            for id in &rows.ids {
                stmt.execute([id])?;
            }
        }
        tx.commit()?;
        let key = key.clone();
        self.oldest.remove(&(first, key.clone()));
        if let Some(rows) = self.rooms.get_mut(&key) {
            rows.ids.clear();
        }
        Ok(())
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

    /// Between group commits: moves the rows of rooms that pin the journal's head (within
    /// a budget), then deletes a slice of the head nobody needs.
    pub fn maintain(&mut self, conn: &mut Connection) {
        let mut moved = 0;
        while moved < MOVE_BUDGET {
            let Some((first, room)) = self.oldest.first().cloned() else {
                break;
            };
            if self.head - first < PIN_ROWS {
                break;
            }
            moved += self.rooms.get(&room).map_or(0, |r| r.ids.len());
            if let Err(e) = self.flush(conn, &room) {
                tracing::warn!(%room, "moving journal rows to the log failed: {e}");
                break;
            }
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
        let below = needed.min(self.pruned + PRUNE_BUDGET).min(self.head);
        match conn.execute("DELETE FROM journal WHERE id < ?1", [below]) {
            Ok(_) => self.pruned = below,
            Err(e) => tracing::warn!("pruning the journal failed: {e}"),
        }
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
