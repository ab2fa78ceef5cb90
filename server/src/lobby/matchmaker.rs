//! Quick-match queues: players waiting for a game with a given number of players, grouped in
//! arrival order once there are enough. A small async trait, so that a cluster can keep one
//! queue for every node (`cluster::matchmaker`); [`LocalMatchmaker`] keeps it in memory.

use crate::outbox::Outbox;
use crate::player::Player;
use crate::protocol::ReplyTo;
use crate::protocol::{Code, Refusal};
use orion_protocol::{Message, Waiting};
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

    /// Takes a connection out of every queue (it went away, or asked with `unqueue`):
    /// whether it was waiting.
    async fn unqueue(&self, conn: u64) -> bool;

    /// How many wait, per game and player count, in game order (the `lobby` message's
    /// `waiting`); empty queues are left out.
    async fn waiting(&self) -> Vec<Waiting>;
}

impl super::Lobby {
    /// `unqueue`: takes connection `conn` out of the quick-match queue (watchers see the new
    /// counts), or says it waits for none.
    pub async fn unqueue(&self, conn: u64) -> Result<Message<'static>, Refusal> {
        if !self.matchmaker.unqueue(conn).await {
            return Err(Refusal::new(
                Code::NotQueued,
                "you are not waiting for a quick match",
            ));
        }
        self.refresh_waiting().await;
        Ok(Message::Unqueued)
    }
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

    async fn unqueue(&self, conn: u64) -> bool {
        let Ok(mut queues) = self.queues.lock() else {
            return false;
        };
        let mut found = false;
        for q in queues.values_mut() {
            let before = q.len();
            q.retain(|e| e.outbox.id != conn);
            found |= q.len() != before;
        }
        found
    }

    async fn waiting(&self) -> Vec<Waiting> {
        let Ok(queues) = self.queues.lock() else {
            return Vec::new();
        };
        let mut waiting: Vec<Waiting> = (queues.iter())
            .map(|((game, players), q)| Waiting {
                game: game.to_string(),
                players: *players,
                count: q.iter().filter(|e| !e.outbox.is_closed()).count() as u32,
            })
            .filter(|w| w.count > 0)
            .collect();
        waiting.sort_by(|a, b| (&a.game, a.players).cmp(&(&b.game, b.players)));
        waiting
    }
}
