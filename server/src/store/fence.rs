//! Fencing tokens for a cluster's rooms: the epoch of each room's lease this node holds
//! (it grows at every takeover), which the PostgreSQL store sends with every append and checks
//! against `room_leases` in the same statement, so that a node that lost a room (a pause, a
//! partition, a database outage) can never store anything for it again; and when this node
//! last renewed its leases, so that it stops serving its rooms before they can lapse.

use dashmap::DashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// This node's fencing tokens.
#[derive(Debug)]
pub struct Fences {
    /// This node's name, as `room_leases.node` writes it.
    pub node: Arc<str>,
    /// The epoch of each room this node runs, as its lease had it when the room's task
    /// started here; a room not in it is not this node's to append to.
    epochs: DashMap<Arc<str>, u64>,
    /// How long after a renewal was sent this node may still serve its rooms (the lease time
    /// less a margin).
    valid_for: Duration,
    /// When the last renewal that succeeded was sent (`None`: none yet).
    renewed: Mutex<Option<Instant>>,
}

impl Fences {
    /// No rooms yet, for node `node`, whose renewals keep it serving for `valid_for`.
    pub fn new(node: Arc<str>, valid_for: Duration) -> Fences {
        Fences {
            node,
            epochs: DashMap::new(),
            valid_for,
            renewed: Mutex::new(None),
        }
    }

    /// The epoch `room` runs under here, if it does.
    pub fn epoch(&self, room: &str) -> Option<u64> {
        self.epochs.get(room).map(|e| *e)
    }

    /// `room`'s task starts here under `epoch`.
    pub fn hold(&self, room: &str, epoch: u64) {
        self.epochs.insert(Arc::from(room), epoch);
    }

    /// `room` is no longer run here under `epoch` (a newer task of it keeps its own).
    pub fn drop_epoch(&self, room: &str, epoch: u64) -> bool {
        self.epochs.remove_if(room, |_, e| *e == epoch).is_some()
    }

    /// Every room held here and its epoch.
    pub fn held(&self) -> Vec<(Arc<str>, u64)> {
        self.epochs
            .iter()
            .map(|e| (e.key().clone(), *e.value()))
            .collect()
    }

    /// A renewal sent at `sent` succeeded.
    pub fn renewed(&self, sent: Instant) {
        if let Ok(mut r) = self.renewed.lock() {
            if r.is_none_or(|old| old < sent) {
                *r = Some(sent);
            }
        }
    }

    /// Whether this node may serve `room` now: it runs it, and its last renewal is recent
    /// enough that no other node can have taken the lease over yet.
    pub fn serving(&self, room: &str) -> bool {
        let fresh = self
            .renewed
            .lock()
            .ok()
            .and_then(|r| *r)
            .is_some_and(|at| at.elapsed() < self.valid_for);
        fresh && self.epochs.contains_key(room)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_is_served_only_while_held_and_renewed_recently() {
        let f = Fences::new(Arc::from("a"), Duration::from_secs(60));
        f.hold("r1", 3);
        // Never renewed: not served.
        assert!(!f.serving("r1"));
        f.renewed(Instant::now());
        assert!(f.serving("r1"));
        assert!(!f.serving("r2"));
        // A stale task's drop leaves a newer epoch alone.
        f.hold("r1", 4);
        assert!(!f.drop_epoch("r1", 3));
        assert_eq!(f.epoch("r1"), Some(4));
        assert!(f.drop_epoch("r1", 4));
        assert!(!f.serving("r1"));
        let stale = Fences::new(Arc::from("a"), Duration::ZERO);
        stale.hold("r1", 1);
        stale.renewed(Instant::now());
        assert!(!stale.serving("r1"));
    }
}
