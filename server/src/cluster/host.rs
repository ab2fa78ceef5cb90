//! The owner's side of routing: takes the room commands other nodes forward for the rooms
//! this node runs, hands each to its room with the relay outbox of the connection it came
//! from (`fanout::relay`; one per remote connection, whatever rooms it is in, as a local
//! connection has one outbox), and answers once the room has it (or, for join, spectate and
//! resume, once the room has said whether the connection is a member). A room this node no
//! longer holds the lease of (its fencing token is gone) is not answered for: the proxy
//! looks for its new owner; one on its way to or from this node (`transit`) is waited for
//! first, so the proxy finds it landed. A relay no room holds any more is dropped by [`Host::sweep`];
//! the relays of a node gone silent are detached from every room they were in
//! ([`Host::node_gone`]), so the owner marks those players away.

use super::bus::Bus;
use super::fanout;
use super::metrics::ClusterMetrics;
use super::transit::{Transit, IN_TRANSIT};
use super::wire::{Answer, Command, Forward};
use crate::lobby::{Directory, LocalDirectory};
use crate::metrics::Metrics;
use crate::outbox::Outbox;
use crate::player::RoomId;
use crate::room::RoomCmd;
use crate::store::Fences;
use dashmap::DashMap;
use futures::StreamExt;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Relay outbox ids start here, far above the ids of this node's own connections, so a
/// room never mistakes one for the other.
const RELAY_IDS: u64 = 1 << 48;

/// This node's rooms as other nodes reach them.
pub struct Host {
    /// The bus.
    bus: Bus,
    /// The rooms this node runs.
    local: Arc<LocalDirectory>,
    /// Rooms on their way to or from this node.
    transit: Arc<Transit>,
    /// Relay outboxes by (node, connection there).
    relays: DashMap<(String, u64), Outbox>,
    /// The rooms here each relay was sent a command for (to detach it from if its node dies).
    rooms_of: DashMap<(String, u64), HashSet<RoomId>>,
    /// Which rooms this node holds the lease of.
    fences: Arc<Fences>,
    /// Each other node's link (its frames published once for all its connections).
    links: DashMap<String, fanout::Link>,
    /// Next relay id.
    next: AtomicU64,
    /// Counters of the relay outboxes (slow remote connections).
    metrics: Arc<Metrics>,
    /// The frames relayed and the messages that carried them.
    counts: ClusterMetrics,
    /// Frames queued per relay.
    send_queue: usize,
    /// The lobby across nodes, told of the node of each new relay.
    peers: Arc<super::peers::NodePeers>,
}

impl Host {
    /// A host for the rooms in `local`.
    pub fn new(
        bus: Bus,
        local: Arc<LocalDirectory>,
        transit: Arc<Transit>,
        send_queue: usize,
        counts: ClusterMetrics,
        fences: Arc<Fences>,
        peers: Arc<super::peers::NodePeers>,
    ) -> Host {
        Host {
            bus,
            local,
            transit,
            relays: DashMap::new(),
            rooms_of: DashMap::new(),
            fences,
            links: DashMap::new(),
            next: AtomicU64::new(RELAY_IDS),
            metrics: Arc::new(Metrics::default()),
            counts,
            send_queue,
            peers,
        }
    }

    /// Answers forwarded commands until the subscription ends; each in a task of its own, so
    /// a room that is slow to answer a join holds up no other room.
    pub async fn serve(self: Arc<Self>, mut sub: async_nats::Subscriber) {
        while let Some(msg) = sub.next().await {
            let host = self.clone();
            tokio::spawn(async move {
                let Some(reply) = msg.reply else { return };
                let answer = match serde_json::from_slice::<Forward>(&msg.payload) {
                    Ok(fwd) => host.run(fwd).await,
                    Err(e) => {
                        tracing::warn!("unreadable forwarded command: {e}");
                        Answer::NoRoom
                    }
                };
                let payload = serde_json::to_vec(&answer).unwrap_or_default();
                if let Err(e) = host.bus.client.publish(reply, payload.into()).await {
                    tracing::warn!("could not answer a forwarded command: {e}");
                }
            });
        }
    }

    async fn run(&self, fwd: Forward) -> Answer {
        // A room leaving answers once it has left (the proxy then finds its new owner); one
        // arriving, once it runs here.
        let deadline = std::time::Instant::now() + IN_TRANSIT;
        self.transit.settled(&fwd.room, deadline).await;
        let Some(handle) = self.local.get(&fwd.room).await else {
            return Answer::NoRoom;
        };
        let key = (fwd.node, fwd.conn);
        if self.fences.epoch(&fwd.room).is_none() && !matches!(fwd.cmd, Command::Detach) {
            // Lost to another node (its task is ending): the proxy looks the owner up again.
            return Answer::NoRoom;
        }
        if let Command::Describe { player } = fwd.cmd {
            // A question, not a member's command: no relay, the answer comes back whole.
            let (done, line) = tokio::sync::oneshot::channel();
            let player = Arc::from(player.as_str());
            if handle
                .tx
                .send(RoomCmd::Describe { player, done })
                .await
                .is_err()
            {
                return Answer::NoRoom;
            }
            return Answer::Described(line.await.ok().flatten());
        }
        if let Command::Detach = fwd.cmd {
            let relay = self.relays.get(&key).map(|r| r.id);
            if let Some(conn) = relay {
                let _ = handle.tx.send(RoomCmd::Detach { conn }).await;
            }
            return Answer::Queued;
        }
        let outbox = self.relay(key.clone());
        self.rooms_of
            .entry(key)
            .or_default()
            .insert(handle.id.clone());
        let (cmd, entered) = fwd.cmd.into_room_cmd(outbox);
        if handle.tx.send(cmd).await.is_err() {
            return Answer::NoRoom;
        }
        match entered {
            Some(rx) => Answer::Entered(rx.await.unwrap_or(false)),
            None => Answer::Queued,
        }
    }

    /// The relay outbox for connection `key.1` of node `key.0`.
    pub fn relay(&self, key: (String, u64)) -> Outbox {
        if let Some(o) = self.relays.get(&key).filter(|o| !o.is_closed()) {
            return o.clone();
        }
        // Its node is followed from now on (if it was not): one that dies before its first
        // heartbeat reaches this node is still found gone, and its connections detached.
        self.peers.noticed(&key.0);
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let link = self
            .links
            .entry(key.0.clone())
            .or_insert_with(|| fanout::link(&self.bus, &key.0, &self.counts))
            .clone();
        let outbox = fanout::relay(link, key.1, id, self.metrics.clone(), self.send_queue);
        self.relays.insert(key, outbox.clone());
        outbox
    }
}

impl Host {
    /// Drops the relays no room holds any more (their connections left every room here, or
    /// closed): their tasks end. Called every few seconds.
    pub fn sweep(&self) {
        self.relays.retain(|_, relay| relay.holders() > 1);
        self.rooms_of.retain(|key, _| self.relays.contains_key(key));
    }

    /// The rooms here that connections on other nodes are members of.
    pub fn relayed_rooms(&self) -> HashSet<RoomId> {
        (self.rooms_of.iter())
            .flat_map(|r| r.value().iter().cloned().collect::<Vec<_>>())
            .collect()
    }

    /// Node `node` went silent or restarted: its connections are gone. Each is detached from
    /// every room here it was sent a command for (its seat hold starts), and its relay dropped.
    /// A relay that was never sent a command was made for a quick match (`matchmaker`), whose
    /// room this host never learnt: it is detached from every room here (a no-op in the others).
    pub async fn node_gone(&self, node: &str) {
        let keys: Vec<(String, u64)> = (self.relays.iter())
            .filter(|r| r.key().0 == node)
            .map(|r| r.key().clone())
            .collect();
        let mut detached = 0;
        for key in keys {
            let Some((_, relay)) = self.relays.remove(&key) else {
                continue;
            };
            let rooms = self.rooms_of.remove(&key).map(|(_, r)| r);
            let handles = match rooms {
                Some(rooms) => {
                    let mut handles = Vec::new();
                    for room in rooms {
                        handles.extend(self.local.get(&room).await);
                    }
                    handles
                }
                None => self.local.handles(),
            };
            for handle in handles {
                let _ = handle.tx.send(RoomCmd::Detach { conn: relay.id }).await;
                detached += 1;
            }
        }
        if detached > 0 {
            tracing::info!(%node, detached, "a node's connections were marked away");
        }
    }
}
