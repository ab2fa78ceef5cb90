//! Which node owns which room: one row per live room in PostgreSQL's `room_leases`
//! (created by the store's migration 4), taken when a room starts on a node, renewed every
//! [`RENEW_EVERY`] while the node lives, and taken over by another node once it has been
//! expired for a moment ([`LEASE_TTL`] after the last renewal). Every change is one
//! statement, so two nodes can never both win the same room. Each take gives the lease a new
//! epoch (its fencing token, `store::Fences`), which every append of the room's task names.

use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio_postgres::{Client, NoTls};

/// How long a lease lasts unrenewed: a dead node's rooms are taken over this long (plus one
/// scan, [`RENEW_EVERY`]) after its last renewal.
pub const LEASE_TTL: Duration = Duration::from_secs(3);
/// How often a node renews its leases and looks for expired ones.
pub const RENEW_EVERY: Duration = Duration::from_secs(1);
/// How long before its lease could lapse a node stops serving a room it has not renewed:
/// it serves for `LEASE_TTL - SERVE_MARGIN` after sending its last renewal that succeeded
/// (the README's cluster section gives the timing argument).
pub const SERVE_MARGIN: Duration = Duration::from_millis(500);
/// Most expired leases one scan takes over.
const SCAN_BATCH: i64 = 64;

/// Lease errors: the database could not be reached or refused.
pub type LeaseError = tokio_postgres::Error;

/// This node's view of the lease table, on a connection of its own (reopened after the
/// database restarts).
pub struct Leases {
    /// The database URL, to reconnect.
    url: String,
    /// This node's name, as written in `room_leases.node`.
    node: Arc<str>,
    /// The connection (`None` until the first use, or after it broke). Cloned out of the
    /// lock before any await.
    client: Mutex<Option<Arc<Client>>>,
}

impl Leases {
    /// Leases for `node` in the database at `url` (connected on first use).
    pub fn new(url: &str, node: Arc<str>) -> Leases {
        Leases {
            url: url.to_owned(),
            node,
            client: Mutex::new(None),
        }
    }

    /// The connection, opened again if it broke.
    pub async fn client(&self) -> Result<Arc<Client>, LeaseError> {
        let current = self.client.lock().ok().and_then(|c| c.clone());
        if let Some(c) = current.filter(|c| !c.is_closed()) {
            return Ok(c);
        }
        let (client, connection) = tokio_postgres::connect(&self.url, NoTls).await?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::warn!("lease connection ended: {e}");
            }
        });
        let client = Arc::new(client);
        if let Ok(mut slot) = self.client.lock() {
            *slot = Some(client.clone());
        }
        Ok(client)
    }

    fn ttl_ms() -> f64 {
        LEASE_TTL.as_millis() as f64
    }

    /// Takes `room` for this node if nobody holds it, or its lease expired, or it is ours
    /// already; records its invite code. The lease's new epoch if this node now holds it.
    ///
    /// The row is first locked `FOR UPDATE`, the one lock that waits for the `FOR KEY SHARE`
    /// an append in flight holds on it (`store::postgres`): the new epoch is written after
    /// the old owner's last append committed, and the restored log holds it. A renewal's
    /// plain `UPDATE` takes no such lock, so renewals and appends never wait for each other.
    pub async fn take(&self, room: &str, code: Option<&str>) -> Result<Option<u64>, LeaseError> {
        let c = self.client().await?;
        let row = c
            .query_opt(
                "WITH locked AS (SELECT room FROM room_leases WHERE room = $1 FOR UPDATE)
                 INSERT INTO room_leases (room, node, code, expires_at, epoch)
                 SELECT $1, $2, $3, now() + $4::float8 * interval '1 millisecond', 1
                 FROM (SELECT count(*) FROM locked) AS waited
                 ON CONFLICT (room) DO UPDATE SET node = EXCLUDED.node,
                     code = COALESCE(EXCLUDED.code, room_leases.code),
                     expires_at = EXCLUDED.expires_at, epoch = room_leases.epoch + 1
                 WHERE room_leases.node = EXCLUDED.node OR room_leases.expires_at < now()
                 RETURNING epoch",
                &[&room, &&*self.node, &code, &Self::ttl_ms()],
            )
            .await?;
        Ok(row.map(|r| r.get::<_, i64>(0) as u64))
    }

    /// The node holding an unexpired lease on `room`, and the room's invite code.
    pub async fn owner(&self, room: &str) -> Result<Option<(String, Option<String>)>, LeaseError> {
        let c = self.client().await?;
        let row = c
            .query_opt(
                "SELECT node, code FROM room_leases WHERE room = $1 AND expires_at > now()",
                &[&room],
            )
            .await?;
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }

    /// The live private room with invite code `code`, and its owner.
    pub async fn by_code(&self, code: &str) -> Result<Option<(String, String)>, LeaseError> {
        let c = self.client().await?;
        let row = c
            .query_opt(
                "SELECT room, node FROM room_leases WHERE code = $1 AND expires_at > now()
                 ORDER BY expires_at DESC LIMIT 1",
                &[&code],
            )
            .await?;
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }

    /// Renews every lease this node holds; returns each room and its epoch (a room this
    /// node runs that is missing, or under another epoch, has been taken over).
    pub async fn renew(&self) -> Result<Vec<(String, u64)>, LeaseError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "UPDATE room_leases
                 SET expires_at = now() + $2::float8 * interval '1 millisecond'
                 WHERE node = $1 RETURNING room, epoch",
                &[&&*self.node, &Self::ttl_ms()],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get::<_, i64>(1) as u64))
            .collect())
    }

    /// Takes over up to a batch of expired leases (their nodes died or let them go), each
    /// under a new epoch; returns the rooms now this node's to restore. A lease an append is
    /// still fenced on (`FOR KEY SHARE`) is skipped until the next scan.
    pub async fn take_expired(&self) -> Result<Vec<String>, LeaseError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "UPDATE room_leases SET node = $1, epoch = epoch + 1,
                     expires_at = now() + $2::float8 * interval '1 millisecond'
                 WHERE room IN (SELECT room FROM room_leases WHERE expires_at < now()
                                ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                 RETURNING room",
                &[&&*self.node, &Self::ttl_ms(), &SCAN_BATCH],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Lets `room` go at once (its task, run under `epoch`, ended here): the next scan of
    /// any node takes it over if it is still unfinished, or forgets it.
    pub async fn release(&self, room: &str, epoch: u64) -> Result<(), LeaseError> {
        let c = self.client().await?;
        c.execute(
            "UPDATE room_leases SET expires_at = now() - interval '1 second'
             WHERE room = $1 AND node = $2 AND epoch = $3",
            &[&room, &&*self.node, &(epoch as i64)],
        )
        .await?;
        Ok(())
    }

    /// Lets this node's lease of `room` lapse now, whatever its epoch (taken, and the room
    /// could not be read to restore it): the next scan of any node takes it over. The lease
    /// is left to no node (`''`), as this node's renewals renew every lease it holds.
    pub async fn lapse(&self, room: &str) -> Result<(), LeaseError> {
        let c = self.client().await?;
        c.execute(
            "UPDATE room_leases SET node = '', expires_at = now() - interval '1 second'
             WHERE room = $1 AND node = $2",
            &[&room, &&*self.node],
        )
        .await?;
        Ok(())
    }

    /// Hands `room`, held by node `from` (this one, whose task of it has ended, or one that
    /// would not take it) under `epoch`, to node `to`: the lease is `to`'s under a new epoch,
    /// fresh for a whole [`LEASE_TTL`]. Locked `FOR UPDATE` first, as [`Leases::take`], after
    /// any append still in flight. The new epoch, or `None` if `from` no longer held the room
    /// under `epoch` (another node took it meanwhile).
    pub async fn hand(
        &self,
        room: &str,
        from: &str,
        epoch: u64,
        to: &str,
    ) -> Result<Option<u64>, LeaseError> {
        let c = self.client().await?;
        let row = c
            .query_opt(
                "WITH locked AS (SELECT room FROM room_leases WHERE room = $1 FOR UPDATE)
                 UPDATE room_leases SET node = $4, epoch = epoch + 1,
                     expires_at = now() + $5::float8 * interval '1 millisecond'
                 FROM (SELECT count(*) FROM locked) AS waited
                 WHERE room = $1 AND node = $2 AND epoch = $3
                 RETURNING epoch",
                &[&room, &from, &(epoch as i64), &to, &Self::ttl_ms()],
            )
            .await?;
        Ok(row.map(|r| r.get::<_, i64>(0) as u64))
    }

    /// Expires the lease of `room` held by node `node` under `epoch` (handed to it, and it
    /// did not take the room up): the next scan of any node takes the room over. A node that
    /// took it meanwhile has made a new epoch, which this leaves alone.
    pub async fn expire(&self, room: &str, node: &str, epoch: u64) -> Result<(), LeaseError> {
        let c = self.client().await?;
        c.execute(
            "UPDATE room_leases SET expires_at = now() - interval '1 second'
             WHERE room = $1 AND node = $2 AND epoch = $3",
            &[&room, &node, &(epoch as i64)],
        )
        .await?;
        Ok(())
    }

    /// Deletes this node's lease on `room` (it has ended for good).
    pub async fn forget(&self, room: &str) -> Result<(), LeaseError> {
        let c = self.client().await?;
        c.execute(
            "DELETE FROM room_leases WHERE room = $1 AND node = $2",
            &[&room, &&*self.node],
        )
        .await?;
        Ok(())
    }
}
