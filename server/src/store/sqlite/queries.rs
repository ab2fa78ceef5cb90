//! The store's calls on SQLite (rooms, statuses, events, players, the archive of finished
//! games): each runs on the archiver's thread, after every commit queued before it, and reads
//! a room's newest rows from the journal, the rest from `log`.

use super::super::commit::Commit;
use super::super::error::StoreError;
use super::super::group_commit;
use super::super::journal::Journal;
use super::super::lines::split_events;
use super::super::record::{
    ActionRecord, Append, ArchivedRoom, ArchivedSeat, GamesQuery, PlayerQuery, PlayerRecord,
    RoomRecord, SavedRoom,
};
use super::super::{Store, PRUNE_BATCH};
use super::writer::Other;
use super::SqliteStore;
use crate::clock::Millis;
use rusqlite::{params, Connection, OptionalExtension};
use std::sync::Arc;

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
        group_commit::append(self.jobs.as_ref(), append)
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
            self.tell(Other::Forget(id))?;
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
        self.tell(Other::Resume(last))?;
        Ok(rooms)
    }

    async fn unfinished_ids(&self) -> Result<Vec<String>, StoreError> {
        self.call(|c, _| read_unfinished_ids(c)).await
    }

    async fn saved(&self, room: &str) -> Result<Option<SavedRoom>, StoreError> {
        let id = room.to_owned();
        let Some(saved) = self.call(move |c, j| read_saved(c, j, &id)).await? else {
            return Ok(None);
        };
        // The order check holds for a restored room too: told before the room runs, so
        // before any append of its own.
        self.tell(Other::Resume(vec![(Arc::from(room), saved.appends)]))?;
        Ok(Some(saved))
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
            tx.execute(
                "DELETE FROM records WHERE room IN (SELECT id FROM pruned)",
                [],
            )?;
            tx.execute(
                "DELETE FROM rated_players WHERE room IN (SELECT id FROM pruned)",
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

    async fn record(&self, room: &str) -> Result<Option<String>, StoreError> {
        let room = room.to_owned();
        self.call(move |c, _| {
            let text = c
                .query_row(
                    "SELECT text FROM records WHERE room = ?1",
                    params![room],
                    |r| r.get(0),
                )
                .optional()?;
            Ok(text)
        })
        .await
    }

    async fn keep_record(&self, room: &str, text: &str) -> Result<(), StoreError> {
        let (room, text) = (room.to_owned(), text.to_owned());
        self.call(move |c, _| {
            c.execute(
                "INSERT INTO records (room, text) VALUES (?1, ?2) ON CONFLICT (room) DO NOTHING",
                params![room, text],
            )?;
            Ok(())
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

/// Every waiting or playing room, rebuilt from `log` (see [`read_saved`]).
fn read_unfinished(
    c: &mut Connection,
    journal: &mut Journal,
) -> Result<Vec<SavedRoom>, StoreError> {
    let ids = read_unfinished_ids(c)?;
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        out.extend(read_saved(c, journal, &id)?);
    }
    Ok(out)
}

/// The ids of every waiting or playing room, in the order they were created.
fn read_unfinished_ids(c: &mut Connection) -> Result<Vec<String>, StoreError> {
    let mut stmt = c.prepare_cached(
        "SELECT id FROM rooms WHERE status IN ('waiting', 'playing') ORDER BY rowid",
    )?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Room `id` if it is waiting or playing, rebuilt from `log` (actions are read from there
/// only, so its journal rows are moved there first).
fn read_saved(
    c: &mut Connection,
    journal: &mut Journal,
    id: &str,
) -> Result<Option<SavedRoom>, StoreError> {
    let Some((record, status)) = read_room(c, id)? else {
        return Ok(None);
    };
    if status != "waiting" && status != "playing" {
        return Ok(None);
    }
    journal.flush(c, id)?;
    let events = read_events(c, journal, id, 0, usize::MAX)?;
    let (actions, appends) = read_actions(c, id)?;
    Ok(Some(SavedRoom {
        record,
        events,
        actions,
        appends,
    }))
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{block_on, click, room_r};
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
    fn a_restart_lists_the_waiting_and_playing_rooms_and_reads_each_alone() {
        let s = SqliteStore::open(":memory:").unwrap();
        // Created in this order, which is not the ids' order.
        for id in ["r", "done", "w", "other"] {
            let rec = RoomRecord {
                id: id.into(),
                ..room_r()
            };
            block_on(s.create_room(&rec)).unwrap();
        }
        for id in ["r", "done", "other"] {
            block_on(s.set_status(id, "playing", 0)).unwrap();
        }
        for n in 1..=3 {
            block_on(s.append(click("r", n)).wait()).unwrap();
        }
        // An append of two events and no action (a chat line and a join, say).
        let two = Append {
            room: Arc::from("r"),
            n: 4,
            action: None,
            events: vec![(4, "{\"x\":4}".into()), (5, "{\"x\":5}".into())],
            seq: 5,
        };
        block_on(s.append(two).wait()).unwrap();
        block_on(s.append(click("other", 1)).wait()).unwrap();
        block_on(s.append(click("done", 1)).wait()).unwrap();
        block_on(s.set_status("done", "finished", 0)).unwrap();

        assert_eq!(
            block_on(s.unfinished_ids()).unwrap(),
            vec!["r", "w", "other"],
            "the waiting and playing rooms, in the order they were created"
        );
        // Its rows are still in the journal: `saved` reads them all the same.
        let r = block_on(s.saved("r")).unwrap().expect("r is playing");
        assert_eq!(r.record, room_r());
        assert_eq!(r.appends, 4);
        let seqs: Vec<u64> = r.events.iter().map(|e| e.0).collect();
        assert_eq!(seqs, vec![1, 2, 3, 4, 5]);
        assert_eq!(r.events[4].1, "{\"x\":5}");
        let actions: Vec<ActionRecord> = (1..=3).map(|n| click("r", n).action.unwrap()).collect();
        assert_eq!(r.actions, actions);
        let other = block_on(s.saved("other"))
            .unwrap()
            .expect("other is playing");
        assert_eq!(other.record.id, "other");
        assert_eq!((other.appends, other.events.len()), (1, 1));
        assert_eq!(other.actions, vec![click("other", 1).action.unwrap()]);
        let w = block_on(s.saved("w")).unwrap().expect("w is waiting");
        assert_eq!((w.appends, w.events.len(), w.actions.len()), (0, 0, 0));
        assert!(block_on(s.saved("done")).unwrap().is_none(), "finished");
        assert!(block_on(s.saved("never")).unwrap().is_none(), "unknown");
        // Read again after more appends, the room has them too.
        block_on(s.append(click("r", 5)).wait()).unwrap();
        let r = block_on(s.saved("r")).unwrap().expect("r is playing");
        assert_eq!((r.appends, r.events.len(), r.actions.len()), (5, 6, 4));
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
}
