//! Rooms on their way to this node (handed over by a node that stops, taken over after their
//! lease lapsed, or found on start), between their lease and their task: a request for one
//! (a member's `resume` after `moved`, a move) waits for it to run here, for at most
//! [`LANDING_WAIT`], instead of being refused as a room that does not exist. Once one runs
//! here, every node is told it moved.

use crate::lobby::{Directory, LocalDirectory};
use crate::player::RoomId;
use crate::room::RoomHandle;
use dashmap::DashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// How long a request for a room on its way here waits for it. A handed-over room runs
/// tens of milliseconds after its lease (seconds on a loaded node restoring many); the bound
/// keeps well inside the 2 s in which a request for a room between nodes is answered (README,
/// Failures), after which the request is refused with `server`, to be sent again.
pub const LANDING_WAIT: Duration = Duration::from_secs(1);

/// The rooms on their way to this node.
pub struct Landing {
    /// Their ids (once live, every node is told they moved).
    rooms: DashMap<RoomId, ()>,
    /// Woken whenever one has landed or will not.
    settled: Notify,
    /// Where they land.
    local: Arc<LocalDirectory>,
}

impl Landing {
    /// None on their way yet, landing in `local`.
    pub fn new(local: Arc<LocalDirectory>) -> Landing {
        Landing {
            rooms: DashMap::new(),
            settled: Notify::new(),
            local,
        }
    }

    /// `room` is on its way here (its lease is this node's; it is being restored).
    pub fn expect(&self, room: RoomId) {
        self.rooms.insert(room, ());
    }

    /// `room` runs here now, or will not (its restore failed): whether it was on its way.
    /// Whoever waits for it looks again.
    pub fn settle(&self, room: &str) -> bool {
        let was = self.rooms.remove(room).is_some();
        self.settled.notify_waiters();
        was
    }

    /// The room's handle if it runs here, or once it does if it is on its way (for at most
    /// [`LANDING_WAIT`]); `None` if it is neither.
    pub async fn wait(&self, room: &str) -> Option<RoomHandle> {
        let until = tokio::time::Instant::now() + LANDING_WAIT;
        loop {
            // Listening before looking: a room settled in between is not missed.
            let settled = self.settled.notified();
            tokio::pin!(settled);
            settled.as_mut().enable();
            if let Some(handle) = self.local.get(room).await {
                return Some(handle);
            }
            if !self.rooms.contains_key(room) {
                return None;
            }
            if tokio::time::timeout_at(until, settled).await.is_err() {
                return self.local.get(room).await;
            }
        }
    }
}
