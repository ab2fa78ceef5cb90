//! A room's move between nodes, and a node's death, as the other nodes hear of them. A node
//! that restores a room another node ran tells every node (`orion.moved`, with the room's new
//! epoch); each then forgets its proxy's owner, ends its own stale copy of the room if it
//! still runs one, and sends `moved` to its connections in the room, which resume it on
//! the new owner. A node that finds it lost a room ends the room's task, which tells its
//! members the same. When the bus may have lost frames, every member who may have missed some
//! is told the same. A node gone silent (`peers`) has its connections detached from this
//! node's rooms, so their seat holds start, and its quick-match entries dropped.

use super::bus::MOVED_SUBJECT;
use super::host::Host;
use super::matchmaker::ClusterMatchmaker;
use super::Node;
use crate::lobby::Directory;
use crate::player::RoomId;
use crate::revocations::Revocation;
use crate::room::RoomCmd;
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tokio::sync::mpsc;

/// A room now runs on `node` under `epoch`.
#[derive(Debug, Serialize, Deserialize)]
struct Moved {
    /// The room.
    room: String,
    /// Its new owner.
    node: String,
    /// Its lease's epoch there.
    epoch: u64,
}

impl Node {
    /// Tells every node that `room`, just restored here, runs here now.
    pub(super) async fn announce_moved(&self, room: &RoomId) {
        let Some(epoch) = self.fences.epoch(room) else {
            return;
        };
        let notice = Moved {
            room: room.to_string(),
            node: self.name.to_string(),
            epoch,
        };
        let Ok(payload) = serde_json::to_vec(&notice) else {
            return;
        };
        if let Err(e) = self.bus.client.publish(MOVED_SUBJECT, payload.into()).await {
            tracing::warn!(%room, "could not tell the other nodes the room moved here: {e}");
        }
    }

    /// `room`, run here under `epoch`, is another node's now: nothing more is stored or
    /// served for it here, and its task ends, telling its members to resume it there.
    pub(super) async fn lose(&self, room: &str, epoch: u64) {
        if !self.fences.drop_epoch(room, epoch) {
            return;
        }
        tracing::warn!(%room, epoch, "another node holds the room now");
        if let Some(handle) = self.local.get(room).await {
            tokio::spawn(async move {
                let _ = handle.tx.send(RoomCmd::Lost).await;
            });
        }
    }

    /// Follows other nodes' notices of rooms moved to them until the subscription ends.
    pub(super) async fn follow_moves(self: Arc<Self>, mut sub: async_nats::Subscriber) {
        while let Some(msg) = sub.next().await {
            // This node's own notices too: its connections that were members of the room
            // through its old owner are told to resume it here.
            let notice = match serde_json::from_slice::<Moved>(&msg.payload) {
                Ok(n) => n,
                Err(e) => {
                    tracing::warn!("unreadable room-moved notice: {e}");
                    continue;
                }
            };
            if *notice.node != *self.name {
                self.proxies.remove(&*notice.room);
            }
            // A copy run here under an older epoch is stale (a notice older than the room's
            // return here is not).
            if let Some(epoch) = self.fences.epoch(&notice.room) {
                if *notice.node != *self.name && epoch < notice.epoch {
                    self.lose(&notice.room, epoch).await;
                }
            }
            self.members.moved(&notice.room);
        }
    }
}

impl Node {
    /// Each time the bus may have lost frames (`Bus::connect`: it came back after a break,
    /// or dropped messages for a slow subscription), every member who may have missed some
    /// is told its room moved, and resumes it from its last seq: this node's connections in
    /// rooms owned elsewhere, and, through a notice to every node, the members elsewhere of
    /// this node's rooms. Their owners send what they missed (a game's last events, lost
    /// with nothing after them to show the gap, would otherwise never come).
    pub(super) async fn resume_after_losses(
        self: Arc<Self>,
        host: Arc<Host>,
        mut losses: mpsc::UnboundedReceiver<()>,
    ) {
        while losses.recv().await.is_some() {
            while losses.try_recv().is_ok() {}
            self.members.moved_all();
            // A revocation published meanwhile is lost too: tokens are checked again.
            self.revocations.heard(Revocation::Recheck);
            for room in host.relayed_rooms() {
                self.announce_moved(&room).await;
            }
        }
    }
}

/// Detaches the connections of each node gone silent (or restarted) from this node's rooms
/// and drops its quick-match entries, until the sender closes.
pub(super) async fn bury(
    mut gone: mpsc::Receiver<String>,
    host: Arc<Host>,
    matchmaker: Arc<ClusterMatchmaker>,
) {
    while let Some(node) = gone.recv().await {
        host.node_gone(&node).await;
        if let Err(e) = matchmaker.drop_node(&node).await {
            tracing::warn!(%node, "could not drop the quick-match entries of a node gone: {e}");
        }
    }
}
