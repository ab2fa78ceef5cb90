//! Quick-match queues: players waiting for a game with a given number of players, grouped in
//! arrival order once there are enough. A small async trait, so that a cluster can keep one
//! queue for every node (`cluster::matchmaker`); [`LocalMatchmaker`] keeps it in memory.

use crate::outbox::Outbox;
use crate::player::Player;
use crate::protocol::ReplyTo;
use std::collections::HashMap;
use std::sync::Mutex;

/// One player waiting for a quick match.
#[derive(Debug)]
pub struct Queued {
    /// Who.
    pub player: Player,
    /// Where to send `joined` and the room's events.
    pub outbox: Outbox,
    /// The `id` of the `quick` request, echoed in `joined`.
    pub re: ReplyTo,
}

/// The quick-match queues.
#[async_trait::async_trait]
pub trait Matchmaker: Send + Sync + 'static {
    /// Queues a player for a quick match of `game` with `players` players. Returns a full
    /// group, in queue order, once there are enough (the caller makes its room); `Err` if he
    /// is already queued.
    async fn enqueue(
        &self,
        game: &'static str,
        players: u8,
        entry: Queued,
    ) -> Result<Option<Vec<Queued>>, Queued>;

    /// Takes a connection out of every queue (it went away).
    async fn unqueue(&self, conn: u64);
}

/// The queues of this process.
#[derive(Debug, Default)]
pub struct LocalMatchmaker {
    /// Players waiting, by game id and player count.
    queues: Mutex<HashMap<(&'static str, u8), Vec<Queued>>>,
}

#[async_trait::async_trait]
impl Matchmaker for LocalMatchmaker {
    async fn enqueue(
        &self,
        game: &'static str,
        players: u8,
        entry: Queued,
    ) -> Result<Option<Vec<Queued>>, Queued> {
        let Ok(mut queues) = self.queues.lock() else {
            return Err(entry);
        };
        if queues
            .values()
            .flatten()
            .any(|q| q.player.id == entry.player.id)
        {
            return Err(entry);
        }
        let queue = queues.entry((game, players)).or_default();
        queue.retain(|q| !q.outbox.is_closed());
        queue.push(entry);
        if queue.len() >= players as usize {
            let group: Vec<Queued> = queue.drain(..players as usize).collect();
            return Ok(Some(group));
        }
        Ok(None)
    }

    async fn unqueue(&self, conn: u64) {
        if let Ok(mut queues) = self.queues.lock() {
            for q in queues.values_mut() {
                q.retain(|e| e.outbox.id != conn);
            }
        }
    }
}
