//! The store on PostgreSQL (`--store postgres://…`), for servers that outgrow one machine's
//! SQLite file. One thread runs its own current-thread runtime with one writer task that owns
//! the connection: appends from every room queue on a channel while a group commit is in
//! flight and go into the next one together, as one `INSERT … SELECT FROM UNNEST(…)`
//! statement (its own transaction, committed with `synchronous_commit = on` before any room
//! hears back). Everything else runs on the same task between two group commits, so the
//! server's async workers only ever wait on a channel, never on the network.

use super::commit::Commit;
use super::error::StoreError;
use super::fence::Fences;
use super::group_commit::{self, Committer, Job, Sender};
use super::lines::{join_line, split_events};
use super::pg_schema::migrate;
use super::record::{
    ActionRecord, Append, ArchivedRoom, ArchivedSeat, GamesQuery, PlayerQuery, PlayerRecord,
    RoomRecord, SavedRoom,
};
use super::{Store, PRUNE_BATCH};
use crate::clock::Millis;
use futures::future::LocalBoxFuture;
use std::collections::HashMap;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::{Client, Config, IsolationLevel, NoTls, Statement};

/// How long connecting may take when the URL says nothing (`connect_timeout=` in it wins).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The store on PostgreSQL, behind one writer task on a thread of its own.
pub struct PostgresStore {
    /// The writer's queue (`None` once dropped, to stop the writer).
    jobs: Option<mpsc::UnboundedSender<Job<Call>>>,
    /// The writer's thread, joined on drop so the connection closes cleanly.
    thread: Option<JoinHandle<()>>,
}

/// Work run on the writer task between two group commits, given the database.
type Call = Box<dyn for<'a> FnOnce(&'a mut Db) -> LocalBoxFuture<'a, ()> + Send>;

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://user[:password]@host:port/db`), creates
    /// or migrates its schema, and starts the writer. Fails if the database cannot be reached
    /// or its schema is newer than this server's.
    pub fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        PostgresStore::connect_fenced(url, None)
    }

    /// [`PostgresStore::connect`] for a cluster node: every append names its room's fencing
    /// token from `fences` and is stored only if the room's lease still has it (in the same
    /// statement, under a share lock on the lease row, so a takeover waits for an append in
    /// flight and an append after a takeover is refused with [`StoreError::Fenced`]).
    pub fn connect_fenced(
        url: &str,
        fences: Option<Arc<Fences>>,
    ) -> Result<PostgresStore, StoreError> {
        let mut config: Config = url.parse()?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        // Unbounded in type, bounded in fact, as for SQLite: a room has at most one append in
        // flight, and every other call waits for its answer.
        let (jobs, rx) = mpsc::unbounded_channel();
        let (ready_tx, ready_rx) = std::sync::mpsc::sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("store-postgres".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        let e = StoreError::Corrupt(format!("cannot start the writer: {e}"));
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                runtime.block_on(async move {
                    match Db::connect(config, true, fences).await {
                        Ok(mut db) => {
                            let _ = ready_tx.send(Ok(()));
                            let mut jobs = rx;
                            group_commit::run(&mut db, &mut jobs).await;
                        }
                        Err(e) => {
                            let _ = ready_tx.send(Err(e));
                        }
                    }
                });
            })
            .map_err(|e| StoreError::Corrupt(format!("cannot start the writer: {e}")))?;
        let ready = ready_rx.recv().unwrap_or(Err(StoreError::Closed));
        let store = PostgresStore {
            jobs: Some(jobs),
            thread: Some(thread),
        };
        ready.map(|()| store)
    }

    /// Runs `f` on the writer task, after everything queued before it, and waits for it
    /// (the answer comes back on a oneshot).
    pub(super) async fn call<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: for<'a> FnOnce(&'a mut Db) -> LocalBoxFuture<'a, Result<T, StoreError>> + Send + 'static,
    {
        let (tx, rx) = oneshot::channel();
        let call: Call = Box::new(move |db| {
            Box::pin(async move {
                let result = match db.reopen().await {
                    Ok(()) => f(db).await,
                    Err(e) => Err(e),
                };
                let _ = tx.send(result);
            })
        });
        let jobs = self.jobs.as_ref().ok_or(StoreError::Closed)?;
        jobs.push(Job::Other(call))?;
        rx.await.map_err(|_| StoreError::Closed)?
    }
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The prepared statements of a connection.
struct Statements {
    /// Writes a group commit's appends, given as parallel arrays.
    append: Statement,
    /// The same, for a cluster node: only the rows whose fencing token is their lease's.
    fenced_append: Statement,
    /// The last append number of each of a list of rooms that have any.
    last_n: Statement,
    /// A room's events after a seq.
    events: Statement,
}

/// The connection, its statements, and each room's last append number.
pub(super) struct Db {
    /// Where to reconnect to.
    config: Config,
    /// The connection (its driver runs as a task of the writer's runtime).
    pub(super) client: Client,
    /// Prepared once per connection: a statement prepared per call costs a round trip.
    statements: Statements,
    /// The last append number of each room appended to or restored since start, to refuse
    /// an append out of order before it reaches the database (where the key would refuse a
    /// duplicate, but not a gap). Rooms not in it are looked up; ended rooms are forgotten.
    last_n: HashMap<Arc<str>, u64>,
    /// A cluster node's fencing tokens (`None`: a single server, which fences nothing).
    fences: Option<Arc<Fences>>,
}

impl Db {
    /// Connects, makes every commit wait for the disk, and (on the first connection) migrates
    /// the schema.
    async fn connect(
        config: Config,
        migrating: bool,
        fences: Option<Arc<Fences>>,
    ) -> Result<Db, StoreError> {
        let (mut client, connection) = config.connect(NoTls).await?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::warn!("store: the PostgreSQL connection ended: {e}");
            }
        });
        // A commit must be on disk before its events are sent, whatever the server's default.
        client
            .batch_execute("SET synchronous_commit = on; SET application_name = 'orion-server'")
            .await?;
        if migrating {
            migrate(&mut client).await?;
        }
        let statements = Statements {
            append: client
                .prepare(
                    "INSERT INTO log (room, n, seq, seat, acted_at, action, events)
                     SELECT * FROM UNNEST($1::text[], $2::int8[], $3::int8[], $4::text[],
                                          $5::int8[], $6::text[], $7::text[])",
                )
                .await?,
            // `FOR KEY SHARE` on the lease row: a takeover (which locks the row `FOR UPDATE`
            // first, `cluster::lease`) waits until this commits and then restores a log that
            // holds it; an append after one sees the new epoch. A renewal's plain `UPDATE`
            // does not conflict with it: the once-a-second renewal of every lease row never
            // holds appends up, nor they it.
            fenced_append: client
                .prepare(
                    "WITH fenced AS (
                         SELECT u.room, u.n, u.seq, u.seat, u.acted_at, u.action, u.events
                         FROM UNNEST($1::text[], $2::int8[], $3::int8[], $4::text[],
                                     $5::int8[], $6::text[], $7::text[], $8::int8[])
                             AS u(room, n, seq, seat, acted_at, action, events, epoch)
                         JOIN room_leases l
                           ON l.room = u.room AND l.node = $9 AND l.epoch = u.epoch
                         FOR KEY SHARE OF l
                     )
                     INSERT INTO log (room, n, seq, seat, acted_at, action, events)
                     SELECT * FROM fenced RETURNING room, n",
                )
                .await?,
            last_n: client
                .prepare("SELECT room, MAX(n) FROM log WHERE room = ANY($1::text[]) GROUP BY room")
                .await?,
            events: client
                .prepare(
                    "SELECT seq, events FROM log
                     WHERE room = $1 AND seq > $2 AND events <> '' ORDER BY n LIMIT $3",
                )
                .await?,
        };
        Ok(Db {
            config,
            client,
            statements,
            last_n: HashMap::new(),
            fences,
        })
    }

    /// Connects again if the connection has ended (PostgreSQL restarted, a network cut);
    /// what was learnt of the rooms is forgotten, as another writer may have come meanwhile.
    async fn reopen(&mut self) -> Result<(), StoreError> {
        if !self.client.is_closed() {
            return Ok(());
        }
        let fresh = Db::connect(self.config.clone(), false, self.fences.clone()).await?;
        *self = fresh;
        tracing::info!("store: reconnected to PostgreSQL");
        Ok(())
    }
}

impl Committer for Db {
    type Other = Call;

    /// Commits `batch` in one statement; appends out of order are refused first, alone, and
    /// if the statement fails each append is tried alone so one bad append cannot sink the
    /// others.
    async fn commit(&mut self, batch: &[Append]) -> Vec<Result<(), StoreError>> {
        if let Err(e) = self.reopen().await {
            return batch.iter().map(|_| Err(clone_error(&e))).collect();
        }
        if let Err(e) = self.learn(batch.iter().map(|a| &a.room)).await {
            return batch.iter().map(|_| Err(clone_error(&e))).collect();
        }
        let mut order = HashMap::new();
        let mut outcomes: Vec<Result<(), StoreError>> =
            batch.iter().map(|a| self.check(a, &mut order)).collect();
        let ok: Vec<usize> = (0..batch.len()).filter(|&i| outcomes[i].is_ok()).collect();
        if let Ok(stored) = self.insert(ok.iter().map(|&i| &batch[i])).await {
            for (&i, stored) in ok.iter().zip(stored) {
                outcomes[i] = self.stored(&batch[i], stored);
            }
            return outcomes;
        }
        for (a, outcome) in batch.iter().zip(&mut outcomes) {
            if outcome.is_err() {
                continue;
            }
            let result = match self.learn([&a.room]).await {
                Ok(()) => match self.check(a, &mut HashMap::new()) {
                    Ok(()) => match self.insert([a]).await {
                        Ok(stored) => self.stored(a, stored.first().copied().unwrap_or(false)),
                        Err(e) => Err(e),
                    },
                    Err(e) => Err(e),
                },
                Err(e) => Err(e),
            };
            match &result {
                Ok(()) => {
                    self.last_n.insert(a.room.clone(), a.n);
                }
                // Whatever the database holds now is looked up again next time.
                Err(_) => {
                    self.last_n.remove(&a.room);
                }
            }
            *outcome = result;
        }
        outcomes
    }

    async fn other(&mut self, call: Call) {
        call(self).await;
    }
}

impl Db {
    /// Settles one append of a statement that ran: stored, or refused by its fence.
    fn stored(&mut self, a: &Append, stored: bool) -> Result<(), StoreError> {
        if stored {
            self.last_n.insert(a.room.clone(), a.n);
            Ok(())
        } else {
            self.last_n.remove(&a.room);
            Err(StoreError::Fenced(a.room.to_string()))
        }
    }

    /// Looks up the last append number of those `rooms` not known yet (0: none).
    async fn learn<'a>(
        &mut self,
        rooms: impl IntoIterator<Item = &'a Arc<str>>,
    ) -> Result<(), StoreError> {
        let mut unknown: Vec<&Arc<str>> = rooms
            .into_iter()
            .filter(|r| !self.last_n.contains_key(*r))
            .collect();
        if unknown.is_empty() {
            return Ok(());
        }
        unknown.sort();
        unknown.dedup();
        let names: Vec<&str> = unknown.iter().map(|r| &***r).collect();
        let rows = self
            .client
            .query(&self.statements.last_n, &[&names])
            .await?;
        for room in unknown {
            self.last_n.insert(room.clone(), 0);
        }
        for row in rows {
            let room: &str = row.get(0);
            let n: i64 = row.get(1);
            if let Some(last) = self.last_n.get_mut(room) {
                *last = n as u64;
            }
        }
        Ok(())
    }

    /// Refuses an append that does not follow its room's last one (in the database, or
    /// earlier in `batch`).
    fn check(&self, a: &Append, batch: &mut HashMap<Arc<str>, u64>) -> Result<(), StoreError> {
        let last = batch
            .get(&a.room)
            .or_else(|| self.last_n.get(&a.room))
            .copied()
            .unwrap_or(0);
        if a.n != last + 1 {
            return Err(StoreError::Corrupt(format!(
                "room {} append {} after {last}",
                a.room, a.n
            )));
        }
        batch.insert(a.room.clone(), a.n);
        Ok(())
    }

    /// Writes `appends` in one statement, which is one transaction: all of them or none
    /// (on a cluster node, all of them whose fencing token is their lease's). Returns, for
    /// each, whether it was stored.
    async fn insert<'a>(
        &mut self,
        appends: impl IntoIterator<Item = &'a Append>,
    ) -> Result<Vec<bool>, StoreError> {
        let mut epochs = Vec::new();
        let mut fenced = Vec::new();
        let mut rooms = Vec::new();
        let mut ns = Vec::new();
        let mut seqs = Vec::new();
        let mut seats = Vec::new();
        let mut ats = Vec::new();
        let mut actions = Vec::new();
        let mut events = Vec::new();
        for a in appends {
            let epoch = match &self.fences {
                None => Some(0),
                Some(f) => f.epoch(&a.room),
            };
            // A room this node does not hold is refused without asking the database.
            fenced.push(epoch.is_none());
            let Some(epoch) = epoch else { continue };
            epochs.push(epoch as i64);
            rooms.push(&*a.room);
            ns.push(a.n as i64);
            seqs.push(a.seq as i64);
            seats.push(a.action.as_ref().map(|r| r.seat.as_str()));
            ats.push(a.action.as_ref().map(|r| r.at as i64));
            actions.push(a.action.as_ref().map(|r| r.action.as_str()));
            let mut text = String::with_capacity(a.events.iter().map(|e| e.1.len() + 1).sum());
            for (_, ev) in &a.events {
                join_line(&mut text, ev);
            }
            events.push(text);
        }
        if rooms.is_empty() {
            return Ok(fenced.into_iter().map(|_| false).collect());
        }
        let Some(fences) = &self.fences else {
            self.client
                .execute(
                    &self.statements.append,
                    &[&rooms, &ns, &seqs, &seats, &ats, &actions, &events],
                )
                .await?;
            return Ok(fenced.into_iter().map(|_| true).collect());
        };
        let rows = self
            .client
            .query(
                &self.statements.fenced_append,
                &[
                    &rooms,
                    &ns,
                    &seqs,
                    &seats,
                    &ats,
                    &actions,
                    &events,
                    &epochs,
                    &&*fences.node,
                ],
            )
            .await?;
        let stored: std::collections::HashSet<(&str, i64)> =
            rows.iter().map(|r| (r.get(0), r.get(1))).collect();
        let mut asked = rooms.iter().zip(&ns);
        Ok(fenced
            .into_iter()
            .map(|refused| {
                !refused
                    && asked
                        .next()
                        .is_some_and(|(room, n)| stored.contains(&(*room, *n)))
            })
            .collect())
    }

    async fn create_room(&mut self, room: &RoomRecord) -> Result<(), StoreError> {
        self.client
            .execute(
                "INSERT INTO rooms (id, game, options, seed, private, code, salt)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[
                    &room.id,
                    &room.game,
                    &room.options,
                    &(room.seed as i64),
                    &room.private,
                    &room.code,
                    &room.salt,
                ],
            )
            .await?;
        self.last_n.insert(Arc::from(room.id.as_str()), 0);
        Ok(())
    }

    async fn set_status(&mut self, room: &str, status: &str, at: Millis) -> Result<(), StoreError> {
        let ended = status == "finished" || status == "closed";
        self.client
            .execute(
                "UPDATE rooms SET status = $2,
                     ended_at = CASE WHEN $3 THEN $4 ELSE ended_at END
                 WHERE id = $1",
                &[&room, &status, &ended, &(at as i64)],
            )
            .await?;
        if ended {
            // An ended room rarely appends again; if it does, its last number is looked up.
            self.last_n.remove(room);
        }
        Ok(())
    }

    async fn events(
        &mut self,
        room: &str,
        since: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, StoreError> {
        let since_i = i64::try_from(since).unwrap_or(i64::MAX);
        // Every row read holds at least one event after `since` (its last), so `limit` rows
        // are enough.
        let rows_limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self
            .client
            .query(&self.statements.events, &[&room, &since_i, &rows_limit])
            .await?;
        let mut out = Vec::new();
        for row in rows {
            if out.len() >= limit {
                break;
            }
            let last: i64 = row.get(0);
            split_events(last as u64, row.get(1), since, &mut out, limit);
        }
        Ok(out)
    }

    async fn room(&mut self, room: &str) -> Result<Option<(RoomRecord, String)>, StoreError> {
        let row = self
            .client
            .query_opt(
                "SELECT id, game, options, seed, private, code, salt, status
                 FROM rooms WHERE id = $1",
                &[&room],
            )
            .await?;
        Ok(row.map(|r| (room_record(&r), r.get(7))))
    }

    /// Every waiting or playing room with its events and actions, read in one snapshot.
    async fn unfinished(&mut self) -> Result<Vec<SavedRoom>, StoreError> {
        self.load_unfinished(None).await
    }

    /// The ids of every waiting or playing room, in the order they were created.
    async fn unfinished_ids(&mut self) -> Result<Vec<String>, StoreError> {
        let rows = self
            .client
            .query(
                "SELECT id FROM rooms WHERE status IN ('waiting', 'playing') ORDER BY ord",
                &[],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// One unfinished room (a node taking it over reads it alone, not every room).
    async fn saved(&mut self, room: &str) -> Result<Option<SavedRoom>, StoreError> {
        Ok(self.load_unfinished(Some(room)).await?.pop())
    }

    /// Every unfinished room, or only `only` (if it is unfinished), with its log.
    async fn load_unfinished(&mut self, only: Option<&str>) -> Result<Vec<SavedRoom>, StoreError> {
        // Two statements each way (not `$1 IS NULL OR …`, which a generic plan reads as a scan).
        let (rooms_sql, log_sql) = match only {
            None => (
                "SELECT id, game, options, seed, private, code, salt FROM rooms
                 WHERE status IN ('waiting', 'playing') ORDER BY ord",
                "SELECT l.room, l.n, l.seq, l.seat, l.acted_at, l.action, l.events
                 FROM log l JOIN rooms r ON r.id = l.room
                 WHERE r.status IN ('waiting', 'playing') ORDER BY l.room, l.n",
            ),
            Some(_) => (
                "SELECT id, game, options, seed, private, code, salt FROM rooms
                 WHERE status IN ('waiting', 'playing') AND id = $1",
                "SELECT l.room, l.n, l.seq, l.seat, l.acted_at, l.action, l.events
                 FROM log l JOIN rooms r ON r.id = l.room
                 WHERE r.status IN ('waiting', 'playing') AND l.room = $1 ORDER BY l.n",
            ),
        };
        let params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = match &only {
            None => Vec::new(),
            Some(room) => vec![room],
        };
        let tx = self
            .client
            .build_transaction()
            .isolation_level(IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .await?;
        let rooms = tx.query(rooms_sql, &params).await?;
        let mut out: Vec<SavedRoom> = rooms
            .iter()
            .map(|r| SavedRoom {
                record: room_record(r),
                events: Vec::new(),
                actions: Vec::new(),
                appends: 0,
            })
            .collect();
        let index: HashMap<String, usize> = out
            .iter()
            .enumerate()
            .map(|(i, s)| (s.record.id.clone(), i))
            .collect();
        let rows = tx.query(log_sql, &params).await?;
        tx.commit().await?;
        for row in rows {
            let room: &str = row.get(0);
            let Some(saved) = index.get(room).map(|&i| &mut out[i]) else {
                continue;
            };
            saved.appends = row.get::<_, i64>(1) as u64;
            let seat: Option<String> = row.get(3);
            let at: Option<i64> = row.get(4);
            let action: Option<String> = row.get(5);
            match (seat, at, action) {
                (Some(seat), Some(at), Some(action)) => saved.actions.push(ActionRecord {
                    seat,
                    action,
                    at: at as u64,
                }),
                (None, None, None) => {}
                _ => return Err(StoreError::Corrupt(format!("room {room}: half an action"))),
            }
            let last = row.get::<_, i64>(2) as u64;
            split_events(last, row.get(6), 0, &mut saved.events, usize::MAX);
        }
        for saved in &out {
            self.last_n
                .insert(Arc::from(saved.record.id.as_str()), saved.appends);
        }
        Ok(out)
    }

    async fn put_player(
        &mut self,
        token: &str,
        player: &PlayerRecord,
        at: Millis,
    ) -> Result<(), StoreError> {
        self.client
            .execute(
                "INSERT INTO players (token, id, name, seen_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (token) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at",
                &[&token, &player.id, &player.name, &(at as i64)],
            )
            .await?;
        Ok(())
    }

    async fn player(&mut self, token: &str) -> Result<Option<PlayerRecord>, StoreError> {
        let row = self
            .client
            .query_opt("SELECT id, name FROM players WHERE token = $1", &[&token])
            .await?;
        Ok(row.map(|r| PlayerRecord {
            id: r.get(0),
            name: r.get(1),
        }))
    }

    /// One statement, so one transaction: the rooms that ended before `before` with their
    /// rows, and the players not seen since, [`PRUNE_BATCH`] of each at most.
    async fn prune(&mut self, before: Millis) -> Result<(u64, u64), StoreError> {
        let before = i64::try_from(before).unwrap_or(i64::MAX);
        let batch = PRUNE_BATCH as i64;
        let row = self
            .client
            .query_one(
                "WITH pruned AS (
                     SELECT id FROM rooms
                     WHERE status IN ('finished', 'closed') AND ended_at < $1 LIMIT $2
                 ), gone_log AS (
                     DELETE FROM log WHERE room IN (SELECT id FROM pruned)
                 ), gone_archive AS (
                     DELETE FROM archive WHERE room IN (SELECT id FROM pruned)
                 ), gone_records AS (
                     DELETE FROM records WHERE room IN (SELECT id FROM pruned)
                 ), gone_rated AS (
                     DELETE FROM rated_players WHERE room IN (SELECT id FROM pruned)
                 ), gone_rooms AS (
                     DELETE FROM rooms WHERE id IN (SELECT id FROM pruned) RETURNING 1
                 ), gone_players AS (
                     DELETE FROM players WHERE token IN (
                         SELECT token FROM players WHERE seen_at IS NULL OR seen_at < $1
                         LIMIT $2)
                     RETURNING 1
                 )
                 SELECT (SELECT COUNT(*) FROM gone_rooms), (SELECT COUNT(*) FROM gone_players)",
                &[&before, &batch],
            )
            .await?;
        Ok((row.get::<_, i64>(0) as u64, row.get::<_, i64>(1) as u64))
    }
}

impl Db {
    async fn actions(&mut self, room: &str) -> Result<Vec<ActionRecord>, StoreError> {
        let rows = self
            .client
            .query(
                "SELECT seat, acted_at, action FROM log
                 WHERE room = $1 AND action IS NOT NULL ORDER BY n",
                &[&room],
            )
            .await?;
        rows.iter()
            .map(|row| {
                let seat: Option<String> = row.get(0);
                let at: Option<i64> = row.get(1);
                match (seat, at) {
                    (Some(seat), Some(at)) => Ok(ActionRecord {
                        seat,
                        action: row.get(2),
                        at: at as u64,
                    }),
                    _ => Err(StoreError::Corrupt(format!("room {room}: half an action"))),
                }
            })
            .collect()
    }

    async fn archive(&mut self, game: &ArchivedRoom) -> Result<(), StoreError> {
        let tx = self.client.transaction().await?;
        for seat in &game.seats {
            tx.execute(
                "INSERT INTO archive (room, game, ended_at, winner, seat, player, name)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (room, seat) DO UPDATE SET player = excluded.player,
                     name = excluded.name, winner = excluded.winner, ended_at = excluded.ended_at",
                &[
                    &game.room,
                    &game.game,
                    &(game.ended_at as i64),
                    &game.winner,
                    &seat.seat,
                    &seat.player,
                    &seat.name,
                ],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn games(&mut self, query: &GamesQuery) -> Result<Option<Vec<ArchivedRoom>>, StoreError> {
        let cursor = match &query.before {
            None => None,
            Some(room) => {
                let row = self
                    .client
                    .query_opt(
                        "SELECT ended_at FROM archive WHERE room = $1 LIMIT 1",
                        &[room],
                    )
                    .await?;
                match row {
                    Some(row) => Some((row.get::<_, i64>(0), room.clone())),
                    None => return Ok(None),
                }
            }
        };
        let (at, room) = cursor.unzip();
        let limit = query.limit as i64;
        let (column, who) = match &query.player {
            PlayerQuery::Id(id) => ("player", id),
            PlayerQuery::Name(name) => ("name", name),
        };
        let sql = format!(
            "SELECT a.room, a.game, a.ended_at, a.winner, a.seat, a.player, a.name
             FROM archive a JOIN (
                 SELECT DISTINCT room, ended_at FROM archive
                 WHERE {column} = $1 AND ($2::TEXT IS NULL OR game = $2)
                   AND ($3::BIGINT IS NULL OR ended_at < $3
                        OR (ended_at = $3 AND room < $4))
                 ORDER BY ended_at DESC, room DESC LIMIT $5
             ) page ON page.room = a.room
             ORDER BY a.ended_at DESC, a.room DESC"
        );
        let rows = self
            .client
            .query(&sql, &[who, &query.game, &at, &room, &limit])
            .await?;
        let mut out: Vec<ArchivedRoom> = Vec::new();
        for row in rows {
            let id: String = row.get(0);
            if out.last().is_none_or(|g| g.room != id) {
                out.push(ArchivedRoom {
                    room: id,
                    game: row.get(1),
                    ended_at: row.get::<_, i64>(2) as Millis,
                    winner: row.get(3),
                    seats: Vec::new(),
                });
            }
            if let Some(game) = out.last_mut() {
                game.seats.push(ArchivedSeat {
                    seat: row.get(4),
                    player: row.get(5),
                    name: row.get(6),
                });
            }
        }
        Ok(Some(out))
    }
}

/// A room's record from the first seven columns of `row` (id, game, options, seed, private,
/// code, salt).
fn room_record(row: &tokio_postgres::Row) -> RoomRecord {
    RoomRecord {
        id: row.get(0),
        game: row.get(1),
        options: row.get(2),
        seed: row.get::<_, i64>(3) as u64,
        private: row.get(4),
        code: row.get(5),
        salt: row.get(6),
    }
}

/// The same failure again, for each append of a batch that failed as a whole.
fn clone_error(e: &StoreError) -> StoreError {
    match e {
        StoreError::Postgres(e) => StoreError::Postgres(e.clone()),
        StoreError::Closed => StoreError::Closed,
        StoreError::Fenced(room) => StoreError::Fenced(room.clone()),
        other => StoreError::Corrupt(other.to_string()),
    }
}

#[async_trait::async_trait]
impl Store for PostgresStore {
    async fn create_room(&self, room: &RoomRecord) -> Result<(), StoreError> {
        let room = room.clone();
        self.call(move |db| Box::pin(async move { db.create_room(&room).await }))
            .await
    }

    fn append(&self, append: Append) -> Commit {
        group_commit::append(self.jobs.as_ref(), append)
    }

    async fn set_status(&self, room: &str, status: &str, at: Millis) -> Result<(), StoreError> {
        let (room, status) = (room.to_owned(), status.to_owned());
        self.call(move |db| Box::pin(async move { db.set_status(&room, &status, at).await }))
            .await
    }

    async fn events(
        &self,
        room: &str,
        since: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, StoreError> {
        let room = room.to_owned();
        self.call(move |db| Box::pin(async move { db.events(&room, since, limit).await }))
            .await
    }

    async fn room(&self, room: &str) -> Result<Option<(RoomRecord, String)>, StoreError> {
        let room = room.to_owned();
        self.call(move |db| Box::pin(async move { db.room(&room).await }))
            .await
    }

    async fn unfinished(&self) -> Result<Vec<SavedRoom>, StoreError> {
        self.call(|db| Box::pin(db.unfinished())).await
    }

    async fn unfinished_ids(&self) -> Result<Vec<String>, StoreError> {
        self.call(|db| Box::pin(db.unfinished_ids())).await
    }

    async fn saved(&self, room: &str) -> Result<Option<SavedRoom>, StoreError> {
        let room = room.to_owned();
        self.call(move |db| Box::pin(async move { db.saved(&room).await }))
            .await
    }

    async fn put_player(
        &self,
        token: &str,
        player: &PlayerRecord,
        at: Millis,
    ) -> Result<(), StoreError> {
        let (token, player) = (token.to_owned(), player.clone());
        self.call(move |db| Box::pin(async move { db.put_player(&token, &player, at).await }))
            .await
    }

    async fn player(&self, token: &str) -> Result<Option<PlayerRecord>, StoreError> {
        let token = token.to_owned();
        self.call(move |db| Box::pin(async move { db.player(&token).await }))
            .await
    }

    async fn prune(&self, before: Millis) -> Result<(u64, u64), StoreError> {
        self.call(move |db| Box::pin(db.prune(before))).await
    }

    async fn actions(&self, room: &str) -> Result<Vec<ActionRecord>, StoreError> {
        let room = room.to_owned();
        self.call(move |db| Box::pin(async move { db.actions(&room).await }))
            .await
    }

    async fn archive(&self, game: &ArchivedRoom) -> Result<(), StoreError> {
        let game = game.clone();
        self.call(move |db| Box::pin(async move { db.archive(&game).await }))
            .await
    }

    async fn games(&self, query: &GamesQuery) -> Result<Option<Vec<ArchivedRoom>>, StoreError> {
        let query = query.clone();
        self.call(move |db| Box::pin(async move { db.games(&query).await }))
            .await
    }

    async fn record(&self, room: &str) -> Result<Option<String>, StoreError> {
        let room = room.to_owned();
        self.call(move |db| {
            Box::pin(async move {
                let row = (db.client)
                    .query_opt("SELECT text FROM records WHERE room = $1", &[&room])
                    .await?;
                Ok(row.map(|r| r.get(0)))
            })
        })
        .await
    }

    async fn keep_record(&self, room: &str, text: &str) -> Result<(), StoreError> {
        let (room, text) = (room.to_owned(), text.to_owned());
        self.call(move |db| {
            Box::pin(async move {
                (db.client)
                    .execute(
                        "INSERT INTO records (room, text) VALUES ($1, $2)
                         ON CONFLICT (room) DO NOTHING",
                        &[&room, &text],
                    )
                    .await?;
                Ok(())
            })
        })
        .await
    }
}
