//! Rooms between two nodes: handed over by a node that stops (`handoff`), or being restored
//! on the node that took them (a handoff adopted, a lapsed lease taken over). A request for
//! such a room waits for it to land, up to [`IN_TRANSIT`], instead of being refused with
//! "try again": its sender's retry timer would make the pause longer than the move.

use crate::player::RoomId;
use dashmap::DashMap;
use std::time::{Duration, Instant};

/// How long a request for a room in transit waits for it to land before it is refused.
pub const IN_TRANSIT: Duration = Duration::from_secs(2);

/// How often a waiting request looks whether its room has landed.
const LOOK_EVERY: Duration = Duration::from_millis(10);

/// The rooms in transit to or from this node.
#[derive(Default)]
pub struct Transit {
    /// Being restored here (taken over, adopted, or found on start): once live, every node
    /// is told they moved here.
    taking: DashMap<RoomId, ()>,
    /// Being handed from here to another node, until the other node has taken its lease
    /// and been asked to restore it (or its lease was let go).
    handing: DashMap<RoomId, ()>,
}

/// A room being handed from this node; it is no longer once this is dropped.
pub struct Handing<'a> {
    transit: &'a Transit,
    room: RoomId,
}

impl Drop for Handing<'_> {
    fn drop(&mut self) {
        self.transit.handing.remove(&self.room);
    }
}

impl Transit {
    /// `room` is being restored here.
    pub fn take(&self, room: RoomId) {
        self.taking.insert(room, ());
    }

    /// `room` is live here, or will not be: whether it was being restored here.
    pub fn landed(&self, room: &str) -> bool {
        self.taking.remove(room).is_some()
    }

    /// `room` is being handed from here until the guard is dropped.
    pub fn hand(&self, room: RoomId) -> Handing<'_> {
        self.handing.insert(room.clone(), ());
        Handing {
            transit: self,
            room,
        }
    }

    /// Whether `room` is being handed from here.
    pub fn leaving(&self, room: &str) -> bool {
        self.handing.contains_key(room)
    }

    /// Whether `room` is on its way to or from this node.
    pub fn moving(&self, room: &str) -> bool {
        self.taking.contains_key(room) || self.leaving(room)
    }

    /// Waits until `room` is no longer on its way to or from this node, or `deadline`.
    pub async fn settled(&self, room: &str, deadline: Instant) {
        while self.moving(room) && Instant::now() < deadline {
            tokio::time::sleep(LOOK_EVERY).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test]
    async fn a_request_waits_for_its_room_to_land_and_no_longer() {
        let transit = Arc::new(Transit::default());
        let room: RoomId = Arc::from("r1");
        transit.take(room.clone());
        let landing = {
            let transit = transit.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(50)).await;
                transit.landed("r1")
            })
        };
        let began = Instant::now();
        transit.settled("r1", began + IN_TRANSIT).await;
        assert!(landing.await.expect("landing"), "it was being taken");
        let waited = began.elapsed();
        assert!(!transit.moving("r1"));
        assert!(
            waited >= Duration::from_millis(50) && waited < IN_TRANSIT,
            "waited {waited:?}"
        );
    }

    #[tokio::test]
    async fn a_room_that_never_lands_is_waited_for_until_the_deadline_only() {
        let transit = Transit::default();
        let _handing = transit.hand(Arc::from("r2"));
        assert!(transit.leaving("r2") && transit.moving("r2"));
        let began = Instant::now();
        transit
            .settled("r2", began + Duration::from_millis(30))
            .await;
        assert!(transit.moving("r2"), "still on its way");
        assert!(began.elapsed() >= Duration::from_millis(30));
    }

    #[test]
    fn a_handoff_that_ends_however_it_ends_leaves_the_room_settled() {
        let transit = Transit::default();
        {
            let _handing = transit.hand(Arc::from("r3"));
            assert!(transit.moving("r3"));
        }
        assert!(!transit.moving("r3"));
        assert!(!transit.landed("r3"), "it was never being taken here");
    }
}
