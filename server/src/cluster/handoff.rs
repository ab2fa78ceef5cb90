//! A node that stops (`SIGTERM`) hands its rooms to the other nodes instead of letting their
//! leases lapse. Draining, it takes no new room and no expired lease; each room it runs ends
//! its task in order after the commands queued before (their events are stored), its lease
//! is passed to a live node in one statement (`Leases::hand`, under a new epoch, so never two
//! owners), and that node is asked on `orion.node.<node>.adopt` to restore it at once, as it
//! would a room taken over, and tells every node it moved there (`moved`): the members
//! resume it there. A node that does not answer (or is draining too) gets the lease expired
//! instead, and whichever node scans first takes the room over: the failover path, seconds
//! later, is the fallback. Then the node closes its connections with 1012, and its clients
//! reconnect to any other node.

use super::bus::adopt_subject;
use super::Node;
use crate::player::RoomId;
use crate::room::{RoomCmd, RoomHandle};
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// Rooms handed over at once while draining (each waits on its room's task, the database
/// and the bus).
const AT_ONCE: usize = 16;
/// How long a room's task may take to end once told to (it finishes the command at hand).
const END_TIMEOUT: Duration = Duration::from_secs(5);
/// How long handing every room over may take before the node stops anyway.
pub(super) const DRAIN_LIMIT: Duration = Duration::from_secs(30);

/// A room on its way to another node: where, and who waits for its task to end.
pub(super) struct Handoff {
    /// The node it goes to.
    to: String,
    /// Told the epoch the room ran under here once its task has ended and it is forgotten.
    ended: oneshot::Sender<u64>,
}

/// Asks a node to restore a room whose lease was just handed to it.
#[derive(Debug, Serialize, Deserialize)]
struct Adopt {
    /// The room.
    room: String,
}

/// The answer: whether the node will restore it (not when it is draining itself).
#[derive(Debug, Serialize, Deserialize)]
struct Adopted {
    /// It will.
    taken: bool,
}

impl Node {
    /// Hands every room this node runs to the other live nodes, spread over them in turn, and
    /// from now on takes no room. Returns whether there was a node to hand them to.
    pub(super) async fn drain(self: &Arc<Self>) -> bool {
        self.draining.store(true, Ordering::SeqCst);
        // Heard from lately, and answering now: a node heard a moment ago may have stopped
        // since (the last one restarted, its new run not up yet).
        let heard = self.peers.live();
        let answers =
            futures::future::join_all(heard.iter().map(|node| self.bus.alive(node))).await;
        let targets: Vec<String> = (heard.into_iter().zip(answers))
            .filter_map(|(node, alive)| alive.then_some(node))
            .collect();
        if targets.is_empty() {
            tracing::info!("no other node is live: the rooms stay in the store for the next start");
            return false;
        }
        let rooms = self.local.handles();
        tracing::info!(
            rooms = rooms.len(),
            nodes = targets.len(),
            "handing the rooms to the other nodes"
        );
        let targets = &targets;
        let jobs =
            (rooms.into_iter().enumerate()).map(|(i, room)| self.hand_over(room, targets, i));
        futures::stream::iter(jobs)
            .for_each_concurrent(AT_ONCE, |job| job)
            .await;
        tracing::info!("rooms handed over");
        true
    }

    /// Ends `room`'s task here and hands its lease to `targets[first]`, which restores it;
    /// to the next target if that one will not, and so on; if none will, its lease expires
    /// and the room is taken over at the next scan.
    async fn hand_over(self: &Arc<Self>, handle: RoomHandle, targets: &[String], first: usize) {
        let room = handle.id.clone();
        if self.fences.epoch(&room).is_none() {
            return; // Lost meanwhile: another node has it.
        }
        // Requests for it wait (here and on the nodes that forward them here) until its
        // lease is another node's and that node restores it, however this ends.
        let _handing = self.transit.hand(room.clone());
        let to = targets[first % targets.len()].clone();
        let (ended, epoch) = oneshot::channel();
        self.handoffs.insert(room.clone(), Handoff { to, ended });
        // Its members are told `moved` and followed through this node from now on (as when a
        // room is lost); they find it on its new node once it is restored there.
        if handle.tx.send(RoomCmd::Lost).await.is_err() {
            self.handoffs.remove(&room);
            return;
        }
        let Ok(Ok(mut epoch)) = tokio::time::timeout(END_TIMEOUT, epoch).await else {
            self.handoffs.remove(&room);
            tracing::warn!(%room, "the room's task did not end: left to the failover");
            return;
        };
        let mut holder = self.name.to_string();
        for k in 0..targets.len() {
            let to = &targets[(first + k) % targets.len()];
            match self.leases.hand(&room, &holder, epoch, to).await {
                Ok(Some(handed)) => epoch = handed,
                // Taken meanwhile (its lease had lapsed): it has an owner.
                Ok(None) => return,
                Err(e) => {
                    tracing::warn!(%room, "could not hand the room's lease over: {e}");
                    break;
                }
            }
            holder.clone_from(to);
            if self.ask_to_adopt(&room, to).await {
                return;
            }
            tracing::warn!(%room, node = %to, "the node did not take the room");
        }
        tracing::warn!(%room, "no node took the room: its lease expires now");
        if let Err(e) = self.leases.expire(&room, &holder, epoch).await {
            tracing::warn!(%room, "could not expire the room's lease: {e}");
        }
    }

    /// Asks `to` to restore `room`; whether it will.
    async fn ask_to_adopt(&self, room: &str, to: &str) -> bool {
        let Ok(payload) = serde_json::to_vec(&Adopt {
            room: room.to_owned(),
        }) else {
            return false;
        };
        match self
            .bus
            .client
            .request(adopt_subject(to), payload.into())
            .await
        {
            Ok(reply) => serde_json::from_slice::<Adopted>(&reply.payload).is_ok_and(|a| a.taken),
            Err(e) => {
                tracing::warn!(%room, node = %to, "no answer to the handoff: {e}");
                false
            }
        }
    }

    /// The task of `room` being handed over has ended here and the room is forgotten: the
    /// drain goes on with its lease. Whether the room was being handed over.
    pub(super) fn handoff_ended(&self, room: &str, epoch: u64) -> bool {
        match self.handoffs.remove(room) {
            Some((_, handoff)) => {
                tracing::debug!(%room, node = %handoff.to, "room ended here, to be handed over");
                let _ = handoff.ended.send(epoch);
                true
            }
            None => false,
        }
    }

    /// Whether this node is draining (it takes no new room).
    pub(super) fn is_draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }
}

/// Answers other nodes' handoffs until the subscription ends: each room handed here is
/// restored like a room taken over (`taken`, which `serve_with` restores), unless this node
/// is draining too.
pub(super) async fn adopt(
    node: Arc<Node>,
    mut sub: async_nats::Subscriber,
    taken: mpsc::Sender<RoomId>,
) {
    while let Some(msg) = sub.next().await {
        let Some(reply) = msg.reply else { continue };
        let taken_here = match serde_json::from_slice::<Adopt>(&msg.payload) {
            Ok(adopt) if !node.is_draining() => {
                let room: RoomId = Arc::from(adopt.room);
                node.metrics.handoffs.inc();
                // Once live here, every node is told it moved (`Directory::insert`).
                node.transit.take(room.clone());
                taken.send(room).await.is_ok()
            }
            Ok(_) => false,
            Err(e) => {
                tracing::warn!("unreadable handoff: {e}");
                false
            }
        };
        let answer = serde_json::to_vec(&Adopted { taken: taken_here }).unwrap_or_default();
        if let Err(e) = node.bus.client.publish(reply, answer.into()).await {
            tracing::warn!("could not answer a handoff: {e}");
        }
    }
}
