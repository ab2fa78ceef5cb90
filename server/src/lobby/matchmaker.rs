//! Quick-match queues: players waiting for a game with a given number of players, grouped in
//! arrival order once there are enough.

use super::Lobby;
use crate::outbox::Outbox;
use crate::player::Player;
use crate::protocol::ReplyTo;

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

impl Lobby {
    /// Queues a player for a quick match of `game` with `players` players. Returns the full
    /// group, in queue order, once there are enough; `Err` if he is already queued.
    pub fn enqueue(
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

    /// Takes a connection out of every quick-match queue (it went away).
    pub fn unqueue(&self, conn: u64) {
        if let Ok(mut queues) = self.queues.lock() {
            for q in queues.values_mut() {
                q.retain(|e| e.outbox.id != conn);
            }
        }
    }
}
