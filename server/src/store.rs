//! The durable event log. Every room's seed, options and accepted actions are stored with
//! the events they caused, each batch committed before any of it is sent. On start the server
//! replays the actions of every unfinished room through a fresh game (the engine is
//! deterministic) and carries on from the last stored event. `Store` is a small trait so the
//! log can move to another database without touching the rooms.

use orion_engine::{parse_click, parse_piece, parse_slot, Action, Millis, Seat};
use rusqlite::{params, Connection, OptionalExtension};
use std::sync::Mutex;
use thiserror::Error;

/// A store failure. The request that caused it is refused with code `server`.
#[derive(Debug, Error)]
pub enum StoreError {
    /// SQLite refused.
    #[error("store: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// Another thread panicked while holding the connection.
    #[error("store: connection poisoned")]
    Poisoned,
    /// A stored row could not be read back.
    #[error("store: bad row: {0}")]
    Corrupt(String),
}

/// What a room is created with: enough to rebuild its game from scratch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomRecord {
    /// Room id.
    pub id: String,
    /// Game id (`hydra-2`).
    pub game: String,
    /// Room options as JSON (server and engine options).
    pub options: String,
    /// Seed of the game's random source.
    pub seed: u64,
    /// Unlisted room.
    pub private: bool,
    /// Invite code, for private rooms.
    pub code: Option<String>,
}

/// One accepted action, in the order the room accepted it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionRecord {
    /// Who acted.
    pub seat: Seat,
    /// What they did.
    pub action: Action,
    /// The server clock when the room accepted it (claims depend on it).
    pub at: Millis,
}

/// An unfinished room as stored: its record, events and actions.
#[derive(Clone, Debug)]
pub struct SavedRoom {
    /// How it was created.
    pub record: RoomRecord,
    /// Its events in `seq` order, as `(seq, ev JSON)`.
    pub events: Vec<(u64, String)>,
    /// Its accepted game actions in order.
    pub actions: Vec<ActionRecord>,
}

/// A player identity: who a token stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRecord {
    /// Stable public id.
    pub id: String,
    /// Last name used.
    pub name: String,
}

/// The event log and the player tokens.
pub trait Store: Send + Sync + 'static {
    /// Records a new room.
    fn create_room(&self, room: &RoomRecord) -> Result<(), StoreError>;
    /// Appends `events` (`(seq, ev JSON)`) and the action that caused them, atomically and
    /// durably, before they are sent.
    fn append(
        &self,
        room: &str,
        action: Option<&ActionRecord>,
        events: &[(u64, String)],
    ) -> Result<(), StoreError>;
    /// Sets a room's status (`waiting`, `playing`, `finished`, `closed`).
    fn set_status(&self, room: &str, status: &str) -> Result<(), StoreError>;
    /// Up to `limit` events of `room` with `seq > since`, in order.
    fn events(
        &self,
        room: &str,
        since: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, StoreError>;
    /// A room's record and status, if it exists.
    fn room(&self, room: &str) -> Result<Option<(RoomRecord, String)>, StoreError>;
    /// Every room that is waiting or playing, to continue after a restart.
    fn unfinished(&self) -> Result<Vec<SavedRoom>, StoreError>;
    /// Records (or renames) a player.
    fn put_player(&self, token: &str, player: &PlayerRecord) -> Result<(), StoreError>;
    /// The player a token stands for.
    fn player(&self, token: &str) -> Result<Option<PlayerRecord>, StoreError>;
}

/// The store on SQLite (bundled), WAL mode. One connection behind a mutex: each call is a
/// short synchronous transaction and no lock is held across an await.
pub struct SqliteStore {
    /// The connection.
    conn: Mutex<Connection>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    private INTEGER NOT NULL,
    code TEXT,
    status TEXT NOT NULL DEFAULT 'waiting'
);
CREATE TABLE IF NOT EXISTS events (
    room TEXT NOT NULL,
    seq INTEGER NOT NULL,
    ev TEXT NOT NULL,
    PRIMARY KEY (room, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL,
    n INTEGER NOT NULL,
    seat TEXT NOT NULL,
    action TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (room, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS players (
    token TEXT PRIMARY KEY,
    id TEXT NOT NULL,
    name TEXT NOT NULL
);
";

impl SqliteStore {
    /// Opens (or creates) the store at `path`; `:memory:` for a throwaway one.
    pub fn open(path: &str) -> Result<SqliteStore, StoreError> {
        let conn = if path == ":memory:" {
            Connection::open_in_memory()?
        } else {
            Connection::open(path)?
        };
        // WAL with synchronous=NORMAL: a commit survives the process being killed at any
        // instant (the spec's guarantee); only a power cut may lose the last commits.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        Ok(SqliteStore {
            conn: Mutex::new(conn),
        })
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut conn = self.conn.lock().map_err(|_| StoreError::Poisoned)?;
        f(&mut conn)
    }
}

impl Store for SqliteStore {
    fn create_room(&self, room: &RoomRecord) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO rooms (id, game, options, seed, private, code) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![room.id, room.game, room.options, room.seed as i64, room.private, room.code],
            )?;
            Ok(())
        })
    }

    fn append(
        &self,
        room: &str,
        action: Option<&ActionRecord>,
        events: &[(u64, String)],
    ) -> Result<(), StoreError> {
        self.with(|c| {
            let tx = c.transaction()?;
            if let Some(a) = action {
                tx.execute(
                    "INSERT INTO actions (room, n, seat, action, at)
                     VALUES (?1, (SELECT COALESCE(MAX(n), 0) + 1 FROM actions WHERE room = ?1), ?2, ?3, ?4)",
                    params![room, a.seat.to_string(), encode_action(&a.action), a.at as i64],
                )?;
            }
            {
                let mut stmt =
                    tx.prepare_cached("INSERT INTO events (room, seq, ev) VALUES (?1, ?2, ?3)")?;
                for (seq, ev) in events {
                    stmt.execute(params![room, *seq as i64, ev])?;
                }
            }
            tx.commit()?;
            Ok(())
        })
    }

    fn set_status(&self, room: &str, status: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "UPDATE rooms SET status = ?2 WHERE id = ?1",
                params![room, status],
            )?;
            Ok(())
        })
    }

    fn events(
        &self,
        room: &str,
        since: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT seq, ev FROM events WHERE room = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
            )?;
            let since = i64::try_from(since).unwrap_or(i64::MAX);
            let limit = i64::try_from(limit).unwrap_or(i64::MAX);
            let rows = stmt.query_map(params![room, since, limit], |r| {
                Ok((r.get::<_, i64>(0)? as u64, r.get::<_, String>(1)?))
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    fn room(&self, room: &str) -> Result<Option<(RoomRecord, String)>, StoreError> {
        self.with(|c| {
            Ok(c.query_row(
                "SELECT id, game, options, seed, private, code, status FROM rooms WHERE id = ?1",
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
                        },
                        r.get::<_, String>(6)?,
                    ))
                },
            )
            .optional()?)
        })
    }

    fn unfinished(&self) -> Result<Vec<SavedRoom>, StoreError> {
        let ids: Vec<String> = self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT id FROM rooms WHERE status IN ('waiting', 'playing') ORDER BY rowid",
            )?;
            let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let Some((record, _)) = self.room(&id)? else {
                continue;
            };
            let events = self.events(&id, 0, usize::MAX)?;
            let actions = self.with(|c| {
                let mut stmt =
                    c.prepare("SELECT seat, action, at FROM actions WHERE room = ?1 ORDER BY n")?;
                let rows = stmt.query_map(params![id], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, i64>(2)?,
                    ))
                })?;
                let mut actions = Vec::new();
                for row in rows {
                    let (seat, action, at) = row?;
                    let seat = Seat::parse(&seat)
                        .ok_or_else(|| StoreError::Corrupt(format!("seat {seat}")))?;
                    let action = decode_action(&action)
                        .ok_or_else(|| StoreError::Corrupt(format!("action {action}")))?;
                    actions.push(ActionRecord {
                        seat,
                        action,
                        at: at as u64,
                    });
                }
                Ok(actions)
            })?;
            out.push(SavedRoom {
                record,
                events,
                actions,
            });
        }
        Ok(out)
    }

    fn put_player(&self, token: &str, player: &PlayerRecord) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO players (token, id, name) VALUES (?1, ?2, ?3)
                 ON CONFLICT(token) DO UPDATE SET name = excluded.name",
                params![token, player.id, player.name],
            )?;
            Ok(())
        })
    }

    fn player(&self, token: &str) -> Result<Option<PlayerRecord>, StoreError> {
        self.with(|c| {
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
    }
}

/// Runs a store call from async code. On a multi-threaded runtime (the binary's) the worker
/// hands its other tasks to the rest of the pool while SQLite commits; on a current-thread
/// runtime (tests) the call simply runs, as it is short.
pub fn blocking<T>(f: impl FnOnce() -> T) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(f),
        _ => f(),
    }
}

/// An action as one line of text: `click C4R R7`, `place C1s A1e`, `end`, `roll`, …
pub fn encode_action(action: &Action) -> String {
    match action {
        Action::Click { click, piece } => match piece {
            Some(p) => format!("click {click} {p}"),
            None => format!("click {click}"),
        },
        Action::Place { slot, from } => match from {
            Some(f) => format!("place {slot} {f}"),
            None => format!("place {slot}"),
        },
        Action::EndTurn => "end".into(),
        Action::Roll => "roll".into(),
        Action::Three => "three".into(),
        Action::Claim => "claim".into(),
        Action::Timeout => "timeout".into(),
        Action::Secret { piece } => format!("secret {piece}"),
        Action::Challenge { piece } => format!("challenge {piece}"),
    }
}

/// Reads back [`encode_action`].
pub fn decode_action(text: &str) -> Option<Action> {
    let mut words = text.split_whitespace();
    let action = match words.next()? {
        "click" => Action::Click {
            click: parse_click(words.next()?).ok()?,
            piece: match words.next() {
                Some(p) => Some(parse_piece(p).ok()?),
                None => None,
            },
        },
        "place" => Action::Place {
            slot: parse_slot(words.next()?).ok()?,
            from: match words.next() {
                Some(s) => Some(parse_slot(s).ok()?),
                None => None,
            },
        },
        "end" => Action::EndTurn,
        "roll" => Action::Roll,
        "three" => Action::Three,
        "claim" => Action::Claim,
        "timeout" => Action::Timeout,
        "secret" => Action::Secret {
            piece: parse_piece(words.next()?).ok()?,
        },
        "challenge" => Action::Challenge {
            piece: parse_piece(words.next()?).ok()?,
        },
        _ => return None,
    };
    Some(action)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_round_trip_through_text() {
        for text in [
            "click C4R",
            "click C4L R7",
            "place C1s",
            "place C1s A1e",
            "end",
            "claim",
        ] {
            let a = decode_action(text).unwrap();
            assert_eq!(encode_action(&a), text);
        }
        assert_eq!(decode_action("dance"), None);
    }

    #[test]
    fn events_come_back_in_order_after_since() {
        let s = SqliteStore::open(":memory:").unwrap();
        let rec = RoomRecord {
            id: "r".into(),
            game: "hydra-2".into(),
            options: "{}".into(),
            seed: 7,
            private: false,
            code: None,
        };
        s.create_room(&rec).unwrap();
        let evs: Vec<(u64, String)> = (1..=5).map(|i| (i, format!("{{\"n\":{i}}}"))).collect();
        s.append("r", None, &evs).unwrap();
        let got = s.events("r", 2, 10).unwrap();
        assert_eq!(got.iter().map(|e| e.0).collect::<Vec<_>>(), vec![3, 4, 5]);
        assert_eq!(s.unfinished().unwrap().len(), 1);
        s.set_status("r", "finished").unwrap();
        assert!(s.unfinished().unwrap().is_empty());
    }
}
