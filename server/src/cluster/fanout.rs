//! A room's frames for connections on other nodes. On the owner, a member connected
//! elsewhere is an ordinary [`Outbox`] whose queue a relay task drains into its node's
//! link, so the room treats local and remote members alike (presence, holds, slow clients);
//! a link publishes each frame once for all the connections of its node it is for (a room's
//! event to a thousand spectators on another node is one message, not a thousand). On the
//! member's node, one subscriber hands each frame to its connections' outboxes, and watches
//! each room's `seq` per connection: pub/sub may drop, so a frame past a gap is preceded by
//! the missed events, read from the store; a frame already delivered is skipped.

use super::bus::{frames_subject, Bus};
use super::metrics::ClusterMetrics;
use crate::lobby::LocalDirectory;
use crate::metrics::Metrics;
use crate::outbox::{Out, Outbox};
use crate::player::RoomId;
use crate::protocol::{self, Frame};
use crate::store::Store;
use dashmap::DashMap;
use futures::StreamExt;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use tokio::sync::mpsc;

/// Frames queued for one node's link before relays wait (their own queues then fill, and a
/// connection too slow for them is dropped as a local one would be).
const LINK_QUEUE: usize = 4096;
/// Most frames a link takes at once to publish, grouped.
const LINK_BATCH: usize = 1024;

/// Frames for the connections of one other node: (connection there, frame).
pub type Link = mpsc::Sender<(u64, Frame)>;

/// Starts the link to node `node`: frames sent on it are published on the node's subject,
/// each frame once with every connection it is for, in the order each connection's frames
/// were sent.
pub fn link(bus: &Bus, node: &str, counts: &ClusterMetrics) -> Link {
    let (tx, mut rx) = mpsc::channel::<(u64, Frame)>(LINK_QUEUE);
    let subject = frames_subject(node);
    let client = bus.client.clone();
    let (relayed, messages) = (counts.relayed.clone(), counts.relay_messages.clone());
    tokio::spawn(async move {
        let mut batch = Vec::with_capacity(LINK_BATCH);
        while rx.recv_many(&mut batch, LINK_BATCH).await > 0 {
            // A room's frame for many members reaches this link through one relay task each:
            // let the others that were woken with the first forward theirs before grouping.
            tokio::task::yield_now().await;
            let room = LINK_BATCH.saturating_sub(batch.len());
            if room > 0 {
                while let Ok(item) = rx.try_recv() {
                    batch.push(item);
                    if batch.len() >= LINK_BATCH {
                        break;
                    }
                }
            }
            relayed.inc_by(batch.len() as u64);
            for (conns, frame) in group(batch.drain(..)) {
                messages.inc();
                let mut payload = Vec::with_capacity(conns.len() * 8 + frame.len() + 1);
                for (i, conn) in conns.iter().enumerate() {
                    if i > 0 {
                        payload.push(b',');
                    }
                    payload.extend_from_slice(conn.to_string().as_bytes());
                }
                payload.push(b'\n');
                payload.extend_from_slice(frame.as_bytes());
                if let Err(e) = client.publish(subject.clone(), payload.into()).await {
                    tracing::warn!(%subject, "could not relay a frame: {e}");
                }
            }
        }
    });
    tx
}

/// The frames of a batch, each once with the connections it is for, in the order each first
/// appears: a connection's frames of one room keep their order (each was sent to it after
/// the one before, and to every other member of the room in the same order).
fn group(batch: impl Iterator<Item = (u64, Frame)>) -> Vec<(Vec<u64>, Frame)> {
    let mut groups: Vec<(Vec<u64>, Frame)> = Vec::new();
    // By the frame's bytes' address and length: a frame sent to many members is one buffer.
    let mut index: HashMap<(usize, usize), usize> = HashMap::new();
    for (conn, frame) in batch {
        let key = (frame.as_str().as_ptr() as usize, frame.len());
        match index.get(&key) {
            Some(&i) => groups[i].0.push(conn),
            None => {
                index.insert(key, groups.len());
                groups.push((vec![conn], frame));
            }
        }
    }
    groups
}

/// Starts a relay: an outbox (id `id`) whose frames go, in order, to connection `conn` of
/// the node `link` leads to.
pub fn relay(link: Link, conn: u64, id: u64, metrics: Arc<Metrics>, capacity: usize) -> Outbox {
    let (outbox, mut rx) = Outbox::new(id, metrics, capacity);
    let outbox = outbox.crossing_a_bus();
    tokio::spawn(async move {
        while let Some(out) = rx.recv().await {
            let Out::Text(frame) = out else { break };
            if link.send((conn, frame)).await.is_err() {
                break;
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
    /// The rooms this node runs: their events reach the connections here straight from the
    /// room, so frames relayed for them by an old owner are stale and skipped.
    local: Arc<LocalDirectory>,
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
    pub fn new(
        store: Arc<dyn Store>,
        local: Arc<LocalDirectory>,
        refills: prometheus::IntCounter,
    ) -> Members {
        Members {
            conns: DashMap::new(),
            store,
            local,
            refills,
        }
    }

    /// Remembers a connection that sent a command to a room owned elsewhere. One already
    /// closed is not: its [`Members::closed`] has run, or is about to and finds it gone.
    pub fn register(&self, outbox: &Outbox) {
        if outbox.is_closed() {
            return;
        }
        self.conns.entry(outbox.id).or_insert_with(|| Member {
            outbox: outbox.clone(),
            seen: HashMap::new(),
            rooms: HashSet::new(),
        });
    }

    /// `outbox`'s connection was sent `room`'s events up to `seq` by a copy of the room that
    /// ran here and lost it: relayed events up to `seq` are not sent to it again.
    pub fn delivered(&self, outbox: &Outbox, room: &str, seq: u64) {
        self.register(outbox);
        if let Some(mut m) = self.conns.get_mut(&outbox.id) {
            m.rooms.insert(RoomId::from(room));
            let seen = m.seen.entry(room.to_owned()).or_insert(seq);
            *seen = (*seen).max(seq);
        }
    }

    /// Connection `conn` resumes `room` from `since`, the last seq it has seen: frames
    /// up to it are skipped, and one past a gap after it is preceded by the missed events.
    /// (What was delivered here may be past `since`, still on its way to the client: it is
    /// not sent again. What went to the connection without passing here — while this node
    /// ran the room — is known from `since` alone.)
    pub fn resumed(&self, conn: u64, room: &str, since: u64) {
        if let Some(mut m) = self.conns.get_mut(&conn) {
            let seen = m.seen.entry(room.to_owned()).or_insert(since);
            *seen = (*seen).max(since);
        }
    }

    /// The last seq of `room` delivered to connection `conn` (0: none).
    pub fn relayed(&self, conn: u64, room: &str) -> u64 {
        (self.conns.get(&conn))
            .and_then(|m| m.seen.get(room).copied())
            .unwrap_or(0)
    }

    /// Forgets a connection that closed; returns the rooms elsewhere that sent it frames
    /// (it is to be detached from each).
    pub fn closed(&self, conn: u64) -> Vec<RoomId> {
        self.conns
            .remove(&conn)
            .map(|(_, m)| m.rooms.into_iter().collect())
            .unwrap_or_default()
    }

    /// Tells every connection here that `room` (run elsewhere) sent frames to that the room
    /// has moved: each resumes it on its new owner.
    pub fn moved(&self, room: &str) {
        let frame = protocol::moved(room);
        for m in self.conns.iter() {
            if m.rooms.contains(room) {
                m.outbox.send(frame.clone());
            }
        }
    }

    /// Tells every connection here that every room run elsewhere it is in has moved (this
    /// node stalled: the owners may have given its connections up; or the bus may have lost
    /// frames).
    pub fn moved_all(&self) {
        for m in self.conns.iter() {
            for room in &m.rooms {
                m.outbox.send(protocol::moved(room));
            }
        }
    }

    /// Delivers frames published for this node's connections until the subscription ends.
    pub async fn serve(self: Arc<Self>, mut sub: async_nats::Subscriber) {
        while let Some(msg) = sub.next().await {
            let text = std::str::from_utf8(&msg.payload).ok();
            let Some((conns, frame)) = text.and_then(|t| t.split_once('\n')) else {
                tracing::warn!(subject = %msg.subject, "unreadable relayed frame");
                continue;
            };
            let head: Option<Head> = serde_json::from_str(frame).ok();
            let frame = Frame::from(frame.to_owned());
            for conn in conns.split(',').filter_map(|c| c.parse().ok()) {
                self.deliver(conn, head.as_ref(), &frame).await;
            }
        }
    }

    async fn deliver(&self, conn: u64, head: Option<&Head>, frame: &Frame) {
        let (outbox, gap) = {
            let Some(mut m) = self.conns.get_mut(&conn) else {
                return;
            };
            let mut gap = None;
            if let Some(room) = head.and_then(|h| h.room.as_deref()) {
                if !m.rooms.contains(room) {
                    m.rooms.insert(RoomId::from(room));
                }
            }
            // The connection has ended and its session is closing: it keeps its rooms until
            // [`Members::closed`] takes them, for the session to detach it from each (taken
            // away here, the owner would show the player connected for ever).
            if m.outbox.is_closed() {
                return;
            }
            if let Some(Head {
                t,
                room: Some(room),
                seq: Some(seq),
            }) = head
            {
                let (room, seq) = (room.as_str(), *seq);
                let last = m.seen.get(room).copied();
                if t.as_deref() == Some("event") && self.local.contains(room) {
                    // The room runs here now: its events come straight from it.
                    return;
                }
                match t.as_deref() {
                    Some("event") => {
                        match last {
                            Some(l) if seq <= l => return,
                            Some(l) if seq > l + 1 => gap = Some((room.to_owned(), l, seq)),
                            _ => {}
                        }
                        m.seen.insert(room.to_owned(), seq);
                    }
                    // A snapshot holds everything up to its seq; one older than what was
                    // delivered (the late answer to a request the client had given up on
                    // and sent again) takes nothing back.
                    Some("snapshot") => {
                        let seen = m.seen.entry(room.to_owned()).or_insert(seq);
                        *seen = (*seen).max(seq);
                    }
                    // Other frames that name a seq (a `hints` reply: the room's head) say
                    // nothing of which events reached the connection: an event lost on the
                    // bus before one must still be refilled, or resent on `resume`.
                    _ => {}
                }
            }
            (m.outbox.clone(), gap)
        };
        if let Some((room, from, to)) = gap {
            let missing = (to - from - 1) as usize;
            match self.store.events(&room, from, missing).await {
                // Restored here while the store was read: the room sends them itself.
                Ok(_) if self.local.contains(&room) => return,
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
        outbox.send(frame.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nemesis found it: a `hints` reply (which names the room's head) counted as if the
    /// events up to it had been delivered, so an event lost on the bus before it was never
    /// sent again when the client resumed from the seq it had really seen.
    #[tokio::test]
    async fn an_event_lost_before_a_hints_reply_reaches_the_client_when_it_resumes() {
        let store = crate::store::SqliteStore::open(":memory:").expect("a store");
        let members = Members::new(
            Arc::new(store),
            Arc::new(LocalDirectory::new(8)),
            prometheus::IntCounter::new("refills", "refills").expect("a counter"),
        );
        let (outbox, mut rx) = Outbox::new(7, Arc::new(Metrics::default()), 16);
        members.register(&outbox);
        let relay = |text: &str| {
            let head: Option<Head> = serde_json::from_str(text).ok();
            (head, Frame::from(text.to_owned()))
        };
        let twelve = r#"{"t":"event","room":"r1","seq":12,"ev":{"kind":"chat"}}"#;
        let hints = r#"{"t":"hints","room":"r1","seq":13,"hints":{},"re":5}"#;
        let thirteen = r#"{"t":"event","room":"r1","seq":13,"ev":{"kind":"chat"}}"#;
        for text in [twelve, hints] {
            let (head, frame) = relay(text);
            members.deliver(7, head.as_ref(), &frame).await;
        }
        // Event 13 was lost; the client resumes from 12 and the owner sends 13 again.
        members.resumed(7, "r1", 12);
        let (head, frame) = relay(thirteen);
        members.deliver(7, head.as_ref(), &frame).await;
        let mut got = Vec::new();
        while let Ok(Out::Text(f)) = rx.try_recv() {
            got.push(f.as_str().to_owned());
        }
        assert_eq!(got, [twelve, hints, thirteen]);
    }

    /// The long nemesis run found it: North's `join`, refused with `server` while its owner
    /// was paused and sent again, was answered a second time later with a snapshot at seq 2
    /// when he had had seq 3; the relay took that as all he had, and sent him 3 again.
    #[tokio::test]
    async fn a_late_snapshot_older_than_what_was_delivered_takes_nothing_back() {
        let store = crate::store::SqliteStore::open(":memory:").expect("a store");
        let members = Members::new(
            Arc::new(store),
            Arc::new(LocalDirectory::new(8)),
            prometheus::IntCounter::new("refills", "refills").expect("a counter"),
        );
        let (outbox, mut rx) = Outbox::new(5, Arc::new(Metrics::default()), 16);
        members.register(&outbox);
        let three = r#"{"t":"event","room":"r1","seq":3,"ev":{"kind":"ready","seat":"N"}}"#;
        let stale = r#"{"t":"snapshot","room":"r1","seq":2,"re":1}"#;
        for text in [three, stale, three] {
            let head: Option<Head> = serde_json::from_str(text).ok();
            (members.deliver(5, head.as_ref(), &Frame::from(text.to_owned()))).await;
        }
        let mut got = Vec::new();
        while let Ok(Out::Text(f)) = rx.try_recv() {
            got.push(f.as_str().to_owned());
        }
        assert_eq!(got, [three, stale], "seq 3 once");
    }

    /// The long nemesis run found it: a spectator of a copy that ran on his node got seqs 20
    /// and 21 from it, then, the copy lost, the new owner's replay of his `resume` (sent before
    /// he had read them) relayed 20 again.
    #[tokio::test]
    async fn events_a_lost_local_copy_sent_are_not_relayed_again() {
        let store = crate::store::SqliteStore::open(":memory:").expect("a store");
        let members = Members::new(
            Arc::new(store),
            Arc::new(LocalDirectory::new(8)),
            prometheus::IntCounter::new("refills", "refills").expect("a counter"),
        );
        let (outbox, mut rx) = Outbox::new(9, Arc::new(Metrics::default()), 16);
        members.delivered(&outbox, "r1", 21);
        members.resumed(9, "r1", 19);
        for seq in [20, 21, 22] {
            let text = format!(r#"{{"t":"event","room":"r1","seq":{seq},"ev":{{"kind":"chat"}}}}"#);
            let head: Option<Head> = serde_json::from_str(&text).ok();
            members.deliver(9, head.as_ref(), &Frame::from(text)).await;
        }
        let mut got = Vec::new();
        while let Ok(Out::Text(f)) = rx.try_recv() {
            let v: serde_json::Value = serde_json::from_str(f.as_str()).expect("json");
            got.push(v["seq"].as_u64().expect("a seq"));
        }
        assert_eq!(got, [22]);
        assert_eq!(
            members.closed(9),
            [RoomId::from("r1")],
            "detached from it on close"
        );
    }

    /// A flaky cluster test found it: a frame relayed in the moment between a connection's
    /// end and its session's close dropped the connection here, so the close found no room
    /// elsewhere to detach it from, and the owner showed the player connected for ever.
    #[tokio::test]
    async fn a_connection_that_ended_as_a_frame_came_is_still_detached_from_its_room() {
        let store = crate::store::SqliteStore::open(":memory:").expect("a store");
        let members = Members::new(
            Arc::new(store),
            Arc::new(LocalDirectory::new(8)),
            prometheus::IntCounter::new("refills", "refills").expect("a counter"),
        );
        let (outbox, rx) = Outbox::new(4, Arc::new(Metrics::default()), 16);
        members.register(&outbox);
        let start = r#"{"t":"event","room":"r1","seq":2,"ev":{"kind":"start"}}"#;
        let head: Option<Head> = serde_json::from_str(start).ok();
        members
            .deliver(4, head.as_ref(), &Frame::from(start.to_owned()))
            .await;
        // The connection ends; a frame of the room arrives before the session closes.
        drop(rx);
        let watcher = r#"{"t":"event","room":"r1","seq":3,"ev":{"kind":"chat"}}"#;
        let head: Option<Head> = serde_json::from_str(watcher).ok();
        members
            .deliver(4, head.as_ref(), &Frame::from(watcher.to_owned()))
            .await;
        assert_eq!(members.closed(4), [RoomId::from("r1")], "detached on close");
        members.register(&outbox);
        assert!(
            members.closed(4).is_empty(),
            "a closed connection is not kept"
        );
    }

    #[test]
    fn a_frame_for_many_connections_is_one_group_and_each_connection_keeps_its_order() {
        let one = Frame::from(r#"{"t":"event","room":"r1","seq":1}"#.to_owned());
        let two = Frame::from(r#"{"t":"event","room":"r1","seq":2}"#.to_owned());
        // The same text in another buffer: another frame (another room's, say).
        let copy = Frame::from(one.as_str().to_owned());
        let batch = vec![
            (1, one.clone()),
            (2, one.clone()),
            (1, two.clone()),
            (3, copy.clone()),
            (2, two.clone()),
            (3, one.clone()),
        ];
        let groups = group(batch.into_iter());
        let shown: Vec<(Vec<u64>, &str)> = groups
            .iter()
            .map(|(c, f)| (c.clone(), f.as_str()))
            .collect();
        assert_eq!(
            shown,
            vec![
                (vec![1, 2, 3], one.as_str()),
                (vec![1, 2], two.as_str()),
                (vec![3], copy.as_str()),
            ]
        );
    }
}
