//! Quick match across nodes: one queue for the whole cluster, in PostgreSQL's `quick_queue`
//! (migration 5). A node queues its player there, then tries to take a full group under a
//! per-queue advisory lock (so two nodes queueing the last two players at once cannot both
//! miss the group); the node that takes it makes the room, with its own players' outboxes and
//! relay outboxes (`host`) for players on other nodes. A node refreshes its rows' `seen_at`
//! with its leases, and only rows seen in the last [`LEASE_TTL`] are grouped; before a group
//! is taken, every other node in it is pinged over the bus (a killed node's ping fails at once,
//! a paused one's after [`PING_TIMEOUT`](super::bus::PING_TIMEOUT)) and a node that does not
//! answer has its rows dropped, so the players of a node that died are never matched. The
//! rows of a node gone silent are dropped too ([`ClusterMatchmaker::drop_node`]).

use super::bus::Bus;
use super::host::Host;
use super::lease::{Leases, LEASE_TTL};
use crate::lobby::{Matchmaker, Queued};
use crate::outbox::Outbox;
use crate::player::Player;
use crate::protocol::ReplyTo;
use dashmap::DashMap;
use orion_protocol::Waiting;
use std::sync::Arc;

/// The cluster's quick-match queue, as one node reaches it.
pub struct ClusterMatchmaker {
    /// This node's name.
    node: Arc<str>,
    /// The leases' connection, for single statements.
    db: Arc<Leases>,
    /// The database URL, for `conn`.
    url: String,
    /// A connection of its own for the grouping transaction (a transaction needs a
    /// connection nobody else uses meanwhile; quick requests are few, so they take turns).
    conn: tokio::sync::Mutex<Option<tokio_postgres::Client>>,
    /// Relay outboxes for players on other nodes.
    host: Arc<Host>,
    /// This node's players waiting, by connection id.
    waiting: DashMap<u64, Queued>,
    /// Where this node's waiting connections' relayed frames are delivered.
    members: Arc<super::fanout::Members>,
    /// The bus, to ping the nodes of a group before taking it.
    bus: Bus,
}

impl ClusterMatchmaker {
    /// The queue for `node`.
    pub fn new(
        node: Arc<str>,
        db: Arc<Leases>,
        url: &str,
        host: Arc<Host>,
        members: Arc<super::fanout::Members>,
        bus: Bus,
    ) -> ClusterMatchmaker {
        ClusterMatchmaker {
            node,
            db,
            url: url.to_owned(),
            conn: tokio::sync::Mutex::new(None),
            host,
            waiting: DashMap::new(),
            members,
            bus,
        }
    }

    /// Drops every quick-match entry of `node` (it went silent or restarted).
    pub async fn drop_node(&self, node: &str) -> Result<(), tokio_postgres::Error> {
        let c = self.db.client().await?;
        let n = c
            .execute("DELETE FROM quick_queue WHERE node = $1", &[&node])
            .await?;
        if n > 0 {
            tracing::info!(%node, entries = n, "dropped a gone node's quick-match entries");
        }
        Ok(())
    }

    /// Marks this node's waiting players alive (called with each lease renewal).
    pub async fn refresh(&self) -> Result<(), tokio_postgres::Error> {
        let c = self.db.client().await?;
        c.execute(
            "UPDATE quick_queue SET seen_at = now() WHERE node = $1",
            &[&&*self.node],
        )
        .await?;
        Ok(())
    }

    /// Queues one row and tries to take a full group: `None` if the player is queued
    /// already, else the group's rows, oldest first (empty: not enough players yet).
    async fn queue_and_group(
        &self,
        game: &str,
        players: u8,
        conn: u64,
        player: &Player,
        re: &ReplyTo,
    ) -> Result<Option<Vec<Row>>, tokio_postgres::Error> {
        let mut slot = self.conn.lock().await;
        if slot.as_ref().is_none_or(|c| c.is_closed()) {
            let (client, connection) =
                tokio_postgres::connect(&self.url, tokio_postgres::NoTls).await?;
            tokio::spawn(async move {
                if let Err(e) = connection.await {
                    tracing::warn!("quick-match connection ended: {e}");
                }
            });
            *slot = Some(client);
        }
        let Some(c) = slot.as_mut() else {
            return Ok(None);
        };
        let re = serde_json::to_string(re).unwrap_or_else(|_| "null".into());
        let n = players as i16;
        let tx = c.transaction().await?;
        let inserted = tx
            .execute(
                "INSERT INTO quick_queue (game, players, node, conn, player, name, re)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (player) DO NOTHING",
                &[
                    &game,
                    &n,
                    &&*self.node,
                    &(conn as i64),
                    &&*player.id,
                    &&*player.name,
                    &re,
                ],
            )
            .await?;
        if inserted == 0 {
            tx.rollback().await?;
            return Ok(None);
        }
        tx.commit().await?;
        let tx = c.transaction().await?;
        tx.execute(
            "SELECT pg_advisory_xact_lock(hashtext($1), $2)",
            &[&game, &(n as i32)],
        )
        .await?;
        let mut rows;
        loop {
            rows = tx
                .query(
                    "SELECT id, node, conn, player, name, re FROM quick_queue
                     WHERE game = $1 AND players = $2
                       AND seen_at > now() - $3::float8 * interval '1 millisecond'
                     ORDER BY id LIMIT $4",
                    &[&game, &n, &(LEASE_TTL.as_millis() as f64), &(n as i64)],
                )
                .await?;
            if rows.len() < players as usize {
                break;
            }
            // Every other node in the group must answer now: one killed a moment ago has not
            // gone silent for long enough to be known dead.
            let mut others: Vec<String> = (rows.iter())
                .map(|r| r.get::<_, String>(1))
                .filter(|node| **node != *self.node)
                .collect();
            others.sort();
            others.dedup();
            let mut dead = Vec::new();
            for other in others {
                if !self.bus.alive(&other).await {
                    dead.push(other);
                }
            }
            if dead.is_empty() {
                break;
            }
            tracing::info!(
                ?dead,
                "dropping the quick-match entries of nodes that do not answer"
            );
            tx.execute("DELETE FROM quick_queue WHERE node = ANY($1)", &[&dead])
                .await?;
        }
        if rows.len() < players as usize {
            tx.commit().await?;
            return Ok(Some(Vec::new()));
        }
        let ids: Vec<i64> = rows.iter().map(|r| r.get(0)).collect();
        tx.execute("DELETE FROM quick_queue WHERE id = ANY($1)", &[&ids])
            .await?;
        tx.commit().await?;
        Ok(Some(
            rows.iter()
                .map(|r| Row {
                    node: r.get(1),
                    conn: r.get::<_, i64>(2) as u64,
                    player: Player {
                        id: Arc::from(r.get::<_, String>(3)),
                        name: Arc::from(r.get::<_, String>(4)),
                    },
                    re: serde_json::from_str(r.get::<_, &str>(5)).unwrap_or(None),
                })
                .collect(),
        ))
    }
}

/// A queued player as the database has him.
struct Row {
    /// His node.
    node: String,
    /// His connection there.
    conn: u64,
    /// Who.
    player: Player,
    /// His `quick` request's id.
    re: ReplyTo,
}

#[async_trait::async_trait]
impl Matchmaker for ClusterMatchmaker {
    async fn enqueue(
        &self,
        game: &'static str,
        players: u8,
        entry: Queued,
    ) -> Result<Option<Vec<Queued>>, Queued> {
        let conn = entry.outbox.id;
        let (player, re) = (entry.player.clone(), entry.re.clone());
        // Waiting here before the database has it, so a group taken at once finds it.
        self.members.register(&entry.outbox);
        let stale = self.waiting.insert(conn, entry);
        let rows = match self
            .queue_and_group(game, players, conn, &player, &re)
            .await
        {
            Ok(Some(rows)) => rows,
            failed => {
                if let Err(e) = failed {
                    tracing::warn!("quick-match queue: {e}");
                }
                let entry = match stale {
                    Some(old) => self.waiting.insert(conn, old),
                    None => self.waiting.remove(&conn).map(|(_, q)| q),
                };
                return match entry {
                    Some(entry) => Err(entry),
                    None => Ok(None),
                };
            }
        };
        if rows.is_empty() {
            return Ok(None);
        }
        let group = rows
            .into_iter()
            .filter_map(|row| {
                if *row.node == *self.node {
                    self.waiting.remove(&row.conn).map(|(_, q)| q)
                } else {
                    let outbox: Outbox = self.host.relay((row.node, row.conn));
                    Some(Queued {
                        player: row.player,
                        outbox,
                        re: row.re,
                    })
                }
            })
            .collect();
        Ok(Some(group))
    }

    async fn unqueue(&self, conn: u64) -> bool {
        if self.waiting.remove(&conn).is_none() {
            return false;
        }
        let gone = async {
            let c = self.db.client().await?;
            c.execute(
                "DELETE FROM quick_queue WHERE node = $1 AND conn = $2",
                &[&&*self.node, &(conn as i64)],
            )
            .await
        };
        match gone.await {
            // No row: another node has just taken him into a group (its `joined` is on the
            // way); he is no longer waiting either way.
            Ok(n) => n > 0,
            Err(e) => {
                tracing::warn!(
                    "could not take connection {conn} out of the quick-match queue: {e}"
                );
                true
            }
        }
    }

    async fn waiting(&self) -> Vec<Waiting> {
        let counted = async {
            let c = self.db.client().await?;
            c.query(
                "SELECT game, players, count(*) FROM quick_queue
                 WHERE seen_at > now() - $1::float8 * interval '1 millisecond'
                 GROUP BY game, players ORDER BY game, players",
                &[&(LEASE_TTL.as_millis() as f64)],
            )
            .await
        };
        match counted.await {
            Ok(rows) => (rows.iter())
                .map(|r| Waiting {
                    game: r.get(0),
                    players: u8::try_from(r.get::<_, i16>(1)).unwrap_or(0),
                    count: u32::try_from(r.get::<_, i64>(2)).unwrap_or(u32::MAX),
                })
                .collect(),
            Err(e) => {
                tracing::warn!("could not count the quick-match queue: {e}");
                Vec::new()
            }
        }
    }
}
