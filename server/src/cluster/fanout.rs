//! A room's frames for connections on other nodes. On the owner, a member connected
//! elsewhere is an ordinary [`Outbox`] whose queue a relay task drains onto the bus, so the
//! room treats local and remote members alike (presence, holds, slow clients). On the
//! member's node, one subscriber hands each frame to its connection's outbox, and watches
//! each room's `seq`: pub/sub may drop, so a frame past a gap is preceded by the missed
//! events, read from the store; a frame already delivered is skipped.

use super::bus::{conn_subject, Bus};
use crate::metrics::Metrics;
use crate::outbox::{Out, Outbox};
use crate::player::RoomId;
use crate::protocol::{self, Frame};
use crate::store::Store;
use dashmap::DashMap;
use futures::StreamExt;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Starts a relay: an outbox (id `id`) whose frames are published, in order, to
/// connection `conn` of node `node`.
pub fn relay(
    bus: &Bus,
    node: &str,
    conn: u64,
    id: u64,
    metrics: Arc<Metrics>,
    capacity: usize,
) -> Outbox {
    let (outbox, mut rx) = Outbox::new(id, metrics, capacity);
    let subject = conn_subject(node, conn);
    let client = bus.client.clone();
    tokio::spawn(async move {
        while let Some(out) = rx.recv().await {
            let Out::Text(frame) = out else { break };
            let payload = frame.as_str().to_owned();
            if let Err(e) = client.publish(subject.clone(), payload.into()).await {
                tracing::warn!(%subject, "could not relay a frame: {e}");
            }
        }
    });
    outbox
}

/// The connections of this node that are members of rooms owned elsewhere.
pub struct Members {
    /// By connection id.
    conns: DashMap<u64, Member>,
    /// Where missed events are read from.
    store: Arc<dyn Store>,
    /// Events refilled from the store after a gap (`orion_seq_gap_refills_total`).
    refills: prometheus::IntCounter,
}

/// One connection's delivery state.
struct Member {
    /// Its outbox.
    outbox: Outbox,
    /// The last seq delivered, per room.
    seen: HashMap<String, u64>,
    /// Every room that sent it a frame (a quick match's room sends `joined` unasked).
    rooms: HashSet<RoomId>,
}

/// What a frame says of itself, for ordering.
#[derive(serde::Deserialize)]
struct Head {
    /// Its type.
    #[serde(default)]
    t: Option<String>,
    /// Its room.
    #[serde(default)]
    room: Option<String>,
    /// Its seq (an event's own; a snapshot's, the room's).
    #[serde(default)]
    seq: Option<u64>,
}

impl Members {
    /// No members yet; missed events are read from `store` and counted in `refills`.
    pub fn new(store: Arc<dyn Store>, refills: prometheus::IntCounter) -> Members {
        Members {
            conns: DashMap::new(),
            store,
            refills,
        }
    }

    /// Remembers a connection that sent a command to a room owned elsewhere.
    pub fn register(&self, outbox: &Outbox) {
        self.conns.entry(outbox.id).or_insert_with(|| Member {
            outbox: outbox.clone(),
            seen: HashMap::new(),
            rooms: HashSet::new(),
        });
    }

    /// Forgets a connection that closed; returns the rooms elsewhere that sent it frames
    /// (it is to be detached from each).
    pub fn closed(&self, conn: u64) -> Vec<RoomId> {
        self.conns
            .remove(&conn)
            .map(|(_, m)| m.rooms.into_iter().collect())
            .unwrap_or_default()
    }

    /// Delivers frames published for this node's connections until the subscription ends.
    pub async fn serve(self: Arc<Self>, mut sub: async_nats::Subscriber) {
        while let Some(msg) = sub.next().await {
            let conn = msg.subject.rsplit('.').next().and_then(|c| c.parse().ok());
            let (Some(conn), Ok(text)) = (conn, String::from_utf8(msg.payload.to_vec())) else {
                tracing::warn!(subject = %msg.subject, "unreadable relayed frame");
                continue;
            };
            self.deliver(conn, text).await;
        }
    }

    async fn deliver(&self, conn: u64, text: String) {
        let head: Option<Head> = serde_json::from_str(&text).ok();
        let (outbox, gap) = {
            let Some(mut m) = self.conns.get_mut(&conn) else {
                return;
            };
            if m.outbox.is_closed() {
                drop(m);
                self.conns.remove(&conn);
                return;
            }
            let mut gap = None;
            if let Some(room) = head.as_ref().and_then(|h| h.room.as_deref()) {
                if !m.rooms.contains(room) {
                    m.rooms.insert(RoomId::from(room));
                }
            }
            if let Some(Head {
                t,
                room: Some(room),
                seq: Some(seq),
            }) = head
            {
                let last = m.seen.get(&room).copied();
                if t.as_deref() == Some("event") {
                    match last {
                        Some(l) if seq <= l => return,
                        Some(l) if seq > l + 1 => gap = Some((room.clone(), l, seq)),
                        _ => {}
                    }
                }
                m.seen.insert(room, seq);
            }
            (m.outbox.clone(), gap)
        };
        if let Some((room, from, to)) = gap {
            let missing = (to - from - 1) as usize;
            match self.store.events(&room, from, missing).await {
                Ok(events) => {
                    self.refills.inc_by(events.len() as u64);
                    tracing::info!(%room, from, to, "refilled a seq gap from the store");
                    for (seq, ev) in events {
                        outbox.send(protocol::event_frame(&room, seq, &ev));
                    }
                }
                Err(e) => tracing::warn!(%room, "could not refill a seq gap: {e}"),
            }
        }
        outbox.send(Frame::from(text));
    }
}
