//! The cluster's [`Directory`]: a room is found on this node first, else through its lease
//! (which node owns it) and reached through a proxy (`remote`); a room made or restored here
//! takes its lease first, so no two nodes run one room, and runs under the lease's epoch
//! (its fencing token). A room whose task ends here lets its lease go at once, so a room still
//! unfinished (the node is shutting down) is taken over by another node at its next scan; a
//! room restored here after another node had it tells every node it has moved (`moved`).
//! A node stopping hands its rooms over first and takes no new one (`handoff`); a room on
//! its way to or from this node is waited for, not reported missing (`transit`).

use super::handoff::DRAIN_LIMIT;
use super::remote::{self, Located};
use super::transit::IN_TRANSIT;
use super::Node;
use crate::lobby::{Directory, Matchmaker, NotInserted, Peers};
use crate::outbox::Outbox;
use crate::player::RoomId;
use crate::revocations::Revocations;
use crate::room::RoomHandle;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// The rooms of every node of a cluster, as this node sees them.
pub struct ClusterDirectory {
    /// This node.
    pub(super) node: Arc<Node>,
    /// Rooms this node took over, for the server to restore (handed out once).
    pub(super) takeovers: Mutex<Option<mpsc::Receiver<RoomId>>>,
    /// The cluster's quick-match queue.
    pub(super) matchmaker: Arc<super::matchmaker::ClusterMatchmaker>,
    /// The node's background tasks (leases, bus subscriptions), stopped with it.
    pub(super) tasks: Vec<JoinHandle<()>>,
    /// Its rooms were handed to other nodes as it stopped (`drain`).
    pub(super) handed: AtomicBool,
}

impl Drop for ClusterDirectory {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl Node {
    /// Where `room` is now.
    pub(super) async fn locate(&self, room: &str) -> Located {
        if let Some(handle) = self.local.get(room).await {
            return Located::Here(handle);
        }
        match self.leases.owner(room).await {
            Ok(Some((owner, _))) if *owner != *self.name => Located::There(owner),
            Ok(_) => Located::Nowhere,
            Err(e) => {
                tracing::warn!(%room, "could not read the room's lease: {e}");
                Located::Nowhere
            }
        }
    }

    /// The proxy for `room` on `owner`, started if there is none.
    fn proxy(self: &Arc<Self>, room: &str, code: Option<String>, owner: String) -> RoomHandle {
        if let Some(p) = self.proxies.get(room).filter(|p| !p.tx.is_closed()) {
            return p.clone();
        }
        let handle = remote::spawn(self.clone(), Arc::from(room), code.map(Arc::from), owner);
        self.proxies.insert(handle.id.clone(), handle.clone());
        handle
    }
}

#[async_trait::async_trait]
impl Directory for ClusterDirectory {
    fn ready(&self) -> Result<(), String> {
        match self.node.bus.client.connection_state() {
            async_nats::connection::State::Connected => Ok(()),
            state => Err(format!("the bus (NATS) is {state}")),
        }
    }

    async fn insert(&self, room: RoomHandle) -> Result<(), NotInserted> {
        if self.node.is_draining() {
            // Stopping: the room is made (or restored) on another node.
            return Err(NotInserted::Unavailable);
        }
        if (self.node.local.get(&room.id).await).is_some_and(|live| !live.tx.is_closed()) {
            // Live here already (restored on start, and handed here as well while starting):
            // one copy only; a second would take the lease again and both would run.
            self.node.transit.landed(&room.id);
            return Err(NotInserted::Unavailable);
        }
        match self.node.leases.take(&room.id, room.code.as_deref()).await {
            Ok(Some(epoch)) => self.node.fences.hold(&room.id, epoch),
            Ok(None) => {
                tracing::warn!(room = %room.id, "another node holds the room's lease");
                return Err(NotInserted::Unavailable);
            }
            Err(e) => {
                tracing::warn!(room = %room.id, "could not take the room's lease: {e}");
                return Err(NotInserted::Unavailable);
            }
        }
        self.node.proxies.remove(&room.id);
        let id = room.id.clone();
        if let Err(why) = self.node.local.insert(room).await {
            if let Some(epoch) = self.node.fences.epoch(&id) {
                self.node.fences.drop_epoch(&id, epoch);
            }
            return Err(why);
        }
        if self.node.transit.landed(&id) {
            self.node.announce_moved(&id).await;
        }
        Ok(())
    }

    async fn get(&self, id: &str) -> Option<RoomHandle> {
        // A room on its way to or from this node is waited for (`transit`): leaving, it is
        // then found on its new owner; arriving, here.
        let deadline = std::time::Instant::now() + IN_TRANSIT;
        self.node.transit.settled(id, deadline).await;
        if let Some(handle) = self.node.local.get(id).await {
            return Some(handle);
        }
        if let Some(p) = self.node.proxies.get(id).filter(|p| !p.tx.is_closed()) {
            return Some(p.clone());
        }
        let (owner, code) = match self.node.leases.owner(id).await {
            Ok(Some(found)) => found,
            Ok(None) => return None,
            Err(e) => {
                tracing::warn!(room = %id, "could not read the room's lease: {e}");
                return None;
            }
        };
        if *owner == *self.node.name {
            // Ours, being restored: not live yet.
            return None;
        }
        Some(self.node.proxy(id, code, owner))
    }

    async fn by_code(&self, code: &str) -> Option<RoomHandle> {
        if let Some(handle) = self.node.local.by_code(code).await {
            return Some(handle);
        }
        let (room, owner) = match self.node.leases.by_code(code).await {
            Ok(Some(found)) => found,
            Ok(None) => return None,
            Err(e) => {
                tracing::warn!("could not look an invite code up: {e}");
                return None;
            }
        };
        if *owner == *self.node.name {
            return None;
        }
        Some(self.node.proxy(&room, Some(code.to_owned()), owner))
    }

    async fn remove(&self, id: &str) {
        let here = self.node.local.get(id).await;
        if here.as_ref().is_some_and(|h| !h.tx.is_closed()) {
            // A newer copy runs here (restored while this one was ending): the lease and
            // its epoch are that copy's.
            return;
        }
        self.node.local.remove(id).await;
        let done = if here.is_some() {
            // A room that lost its lease (its epoch is gone) has nothing to let go.
            let Some(epoch) = self.node.fences.epoch(id) else {
                return;
            };
            self.node.fences.drop_epoch(id, epoch);
            if self.node.handoff_ended(id, epoch) {
                return; // Its lease goes to another node (`handoff`).
            }
            self.node.leases.release(id, epoch).await
        } else {
            // Taken over and found ended: nobody needs the lease any more, nor waits for it.
            self.node.transit.landed(id);
            self.node.leases.forget(id).await
        };
        if let Err(e) = done {
            tracing::warn!(room = %id, "could not let the room's lease go: {e}");
        }
    }

    async fn give_back(&self, id: &str) {
        match self.node.local.get(id).await {
            // A live copy runs here (restored on start, and handed here as well): the lease
            // is that copy's.
            Some(here) if !here.tx.is_closed() => return,
            // An ended copy of ours, whose lease had lapsed and was taken back to restore it.
            Some(_) => self.node.local.remove(id).await,
            None => {}
        }
        // It is not coming here now; the next take marks it again.
        self.node.transit.landed(id);
        if let Err(e) = self.node.leases.lapse(id).await {
            tracing::warn!(room = %id, "could not let the room's lease lapse: {e}");
        }
    }

    async fn claim(&self, id: &str) -> bool {
        match self.node.leases.take(id, None).await {
            Ok(taken) => {
                if taken.is_some() {
                    // Restarted: members elsewhere were this room's before; they resume it.
                    self.node.transit.take(Arc::from(id));
                }
                taken.is_some()
            }
            Err(e) => {
                tracing::warn!(room = %id, "could not take the room's lease: {e}");
                false
            }
        }
    }

    fn takeovers(&self) -> Option<mpsc::Receiver<RoomId>> {
        self.takeovers.lock().ok()?.take()
    }

    fn matchmaker(&self) -> Option<Arc<dyn Matchmaker>> {
        Some(self.matchmaker.clone())
    }

    fn revocations(&self) -> Option<Revocations> {
        Some(self.node.revocations.clone())
    }

    fn peers(&self) -> Option<Arc<dyn Peers>> {
        Some(self.node.peers.clone())
    }

    fn closed(&self, conn: u64) -> Vec<RoomId> {
        self.node.members.closed(conn)
    }

    fn handed_over(&self, room: &str, seq: u64, members: &[Outbox]) {
        for outbox in members {
            self.node.members.delivered(outbox, room, seq);
        }
    }

    fn relayed(&self, conn: u64, room: &str) -> u64 {
        self.node.members.relayed(conn, room)
    }

    fn serving(&self, room: &str) -> bool {
        self.node.fences.serving(room)
    }

    fn collectors(&self) -> Vec<Box<dyn prometheus::core::Collector>> {
        self.node.metrics.collectors()
    }

    async fn drain(&self) {
        // Bounded: a database or bus that stops answering meanwhile does not keep the node
        // from stopping; the rooms not handed over yet are taken over once their leases lapse.
        let handed = match tokio::time::timeout(DRAIN_LIMIT, self.node.drain()).await {
            Ok(handed) => handed,
            Err(_) => {
                tracing::warn!(
                    "the rooms were not all handed over within {DRAIN_LIMIT:?}: the rest are \
                     taken over once their leases lapse"
                );
                false
            }
        };
        self.handed.store(handed, Ordering::SeqCst);
    }

    fn handing_over(&self, room: &str) -> bool {
        self.node.handoffs.contains_key(room)
    }

    fn handed_off(&self) -> bool {
        self.handed.load(Ordering::SeqCst)
    }
}
