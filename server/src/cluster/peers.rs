//! The lobby across nodes: each node tells the others, over the bus, of the rooms it runs
//! (each room's public summary, as its own lobby lists it, and the players holding seats in
//! it) and keeps the other nodes' rooms in a view that its lobby lists, and counts seats in,
//! with its own ([`Peers`]).
//!
//! * `orion.lobby`: a node's changes, numbered (`seq`) per run of the node (`epoch`), each
//!   room's whole entry (so hearing one twice is harmless), at most one message per
//!   [`LISTING_EVERY`] (batched); and every [`RENEW_EVERY`] a heartbeat with its last number.
//! * `orion.node.<node>.lobby` (request/reply): a node's whole table, a page at a time, asked
//!   by a node that has just heard of it (either started) or that missed a number (pub/sub may
//!   drop); the changes heard meanwhile are applied after it.
//!
//! A node not heard from for [`LEASE_TTL`] is dropped from the view with its rooms: its leases
//! lapse at the same time, and whichever node takes a room over lists it again. It (or a node
//! heard to have restarted) is also named on the `gone` channel given to [`NodePeers::start`],
//! so that its connections are marked away everywhere: within [`LEASE_TTL`] plus one
//! [`LISTING_EVERY`] tick of its last heartbeat.

use super::bus::{table_subject, Bus, LOBBY_SUBJECT};
use super::lease::{LEASE_TTL, RENEW_EVERY};
use crate::lobby::{Peers, PublicList, LISTING_EVERY};
use crate::player::{PlayerId, RoomId};
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Bound;
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, watch, Notify};
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// Most rooms in one message (a change batch or a page of a table): far below NATS's default
/// 1 MB payload limit (a summary is a few hundred bytes).
const PAGE: usize = 500;

/// One room as a node has it.
#[derive(Clone, Debug, Default, PartialEq)]
struct Room {
    /// Its public summary, serialized (`None`: not listed: private, or no longer).
    summary: Option<Arc<str>>,
    /// The players holding a seat in it.
    seated: BTreeSet<PlayerId>,
}

impl Room {
    /// Nothing to tell of it: it is gone.
    fn is_empty(&self) -> bool {
        self.summary.is_none() && self.seated.is_empty()
    }
}

/// One room as the nodes tell each other of it; both fields empty: the room is gone.
#[derive(Debug, Serialize, Deserialize)]
struct WireRoom {
    /// Its id.
    room: String,
    /// Its public summary.
    #[serde(default)]
    summary: Option<String>,
    /// The players holding a seat in it.
    #[serde(default)]
    seated: Vec<String>,
}

impl WireRoom {
    fn of(id: &RoomId, room: Option<&Room>) -> WireRoom {
        WireRoom {
            room: id.to_string(),
            summary: room.and_then(|r| r.summary.as_deref().map(str::to_owned)),
            seated: room.map_or_else(Vec::new, |r| {
                r.seated.iter().map(|p| p.to_string()).collect()
            }),
        }
    }

    fn into_room(self) -> (RoomId, Room) {
        let room = Room {
            summary: self.summary.map(Arc::from),
            seated: self.seated.into_iter().map(Arc::from).collect(),
        };
        (Arc::from(self.room), room)
    }
}

/// A node's changes (or, with no rooms, its heartbeat), on [`LOBBY_SUBJECT`].
#[derive(Debug, Serialize, Deserialize)]
struct Update {
    /// The node.
    node: String,
    /// Its run (random at its start: a node restarted under the same name starts afresh).
    epoch: u64,
    /// The number of this change, or for a heartbeat of the last one.
    seq: u64,
    /// Each changed room's whole entry.
    #[serde(default)]
    rooms: Vec<WireRoom>,
}

/// A request for a page of a node's table.
#[derive(Debug, Serialize, Deserialize)]
struct TableRequest {
    /// The page after this room.
    #[serde(default)]
    after: Option<String>,
}

/// A page of a node's table.
#[derive(Debug, Serialize, Deserialize)]
struct TablePage {
    /// The node's run.
    epoch: u64,
    /// Its last change's number when the page was read.
    seq: u64,
    /// Its rooms after the one asked for, in id order.
    rooms: Vec<WireRoom>,
    /// Whether more follow.
    more: bool,
}

/// This node's rooms and the changes not told yet.
#[derive(Default)]
struct Own {
    /// The last change's number.
    seq: u64,
    /// Every room this node runs that has something to tell.
    rooms: BTreeMap<RoomId, Room>,
    /// Rooms changed since the last message.
    pending: BTreeSet<RoomId>,
}

/// Another node as this one follows it.
struct Peer {
    /// Its run.
    epoch: u64,
    /// The last change applied.
    seq: u64,
    /// Whether `rooms` is its table as of `seq` (else it is to be read again).
    synced: bool,
    /// Whether its table is being read; changes heard meanwhile wait in `held`.
    syncing: bool,
    /// When it was last heard from.
    heard: Instant,
    /// Its rooms.
    rooms: BTreeMap<RoomId, Room>,
    /// Changes heard while its table was being read.
    held: Vec<Update>,
}

impl Peer {
    fn new(epoch: u64) -> Peer {
        Peer {
            epoch,
            seq: 0,
            synced: false,
            syncing: false,
            heard: Instant::now(),
            rooms: BTreeMap::new(),
            held: Vec::new(),
        }
    }

    fn apply(&mut self, update: Update) {
        for wire in update.rooms {
            let (id, room) = wire.into_room();
            if room.is_empty() {
                self.rooms.remove(&id);
            } else {
                self.rooms.insert(id, room);
            }
        }
        self.seq = update.seq;
    }
}

/// A table read from a node: its node, run, and (if it could be read) its seq and rooms.
struct Synced {
    node: String,
    epoch: u64,
    table: Option<(u64, BTreeMap<RoomId, Room>)>,
}

/// The lobby across nodes, as one node keeps it.
pub struct NodePeers {
    /// This node's name.
    node: Arc<str>,
    /// This run of it.
    epoch: u64,
    /// Its own rooms.
    own: Mutex<Own>,
    /// Rung when one of its rooms changed.
    wake: Notify,
    /// The other nodes' public rooms, in id order.
    list: watch::Sender<Arc<PublicList>>,
    /// The other nodes' rooms each player holds a seat in.
    seats: Mutex<HashMap<PlayerId, Vec<RoomId>>>,
    /// The other nodes heard from lately (their heartbeats), by name: where a draining
    /// node hands its rooms (`handoff`).
    live: Mutex<Vec<String>>,
    /// Nodes this one heard of another way (a command forwarded from them), to follow.
    noticed: mpsc::UnboundedSender<String>,
    /// Its receiving end, taken by the task that follows the nodes.
    noticed_rx: Mutex<Option<mpsc::UnboundedReceiver<String>>>,
}

/// The run of a node heard of before its first heartbeat reached this one (it is followed
/// from then on, and taken as gone if it stays silent); never a node's own run.
const UNKNOWN_RUN: u64 = 0;

impl NodePeers {
    /// Nothing known yet, for node `node`.
    pub fn new(node: Arc<str>) -> NodePeers {
        use rand::Rng;
        let (noticed, noticed_rx) = mpsc::unbounded_channel();
        NodePeers {
            node,
            epoch: rand::thread_rng().gen::<u64>().max(UNKNOWN_RUN + 1),
            noticed,
            noticed_rx: Mutex::new(Some(noticed_rx)),
            own: Mutex::new(Own::default()),
            wake: Notify::new(),
            list: watch::Sender::new(Arc::new(PublicList::new())),
            seats: Mutex::new(HashMap::new()),
            live: Mutex::new(Vec::new()),
        }
    }

    /// Subscribes on `bus` and starts telling and following; returns the tasks.
    pub async fn start(
        self: &Arc<Self>,
        bus: &Bus,
        gone: mpsc::Sender<String>,
    ) -> Result<Vec<JoinHandle<()>>, async_nats::SubscribeError> {
        let heard = bus.client.subscribe(LOBBY_SUBJECT).await?;
        let asked = bus.client.subscribe(table_subject(&self.node)).await?;
        let noticed = (self.noticed_rx.lock().ok())
            .and_then(|mut rx| rx.take())
            .unwrap_or_else(|| mpsc::unbounded_channel().1);
        Ok(vec![
            tokio::spawn(self.clone().tell(bus.clone())),
            tokio::spawn(self.clone().answer(bus.clone(), asked)),
            tokio::spawn(self.clone().follow(bus.clone(), heard, noticed, gone)),
        ])
    }

    /// Node `node` was heard of another way than its heartbeat (it forwarded a command
    /// here): followed from now on if it was not, so that if it dies before its first
    /// heartbeat reached this node — within a second of starting — it is still found gone.
    pub fn noticed(&self, node: &str) {
        if *node != *self.node {
            let _ = self.noticed.send(node.to_owned());
        }
    }

    /// Changes one of this node's rooms and has the change told.
    fn change(&self, room: &RoomId, edit: impl FnOnce(&mut Room)) {
        let Ok(mut own) = self.own.lock() else {
            return;
        };
        let entry = own.rooms.entry(room.clone()).or_default();
        edit(entry);
        if entry.is_empty() {
            own.rooms.remove(room);
        }
        own.pending.insert(room.clone());
        drop(own);
        self.wake.notify_one();
    }

    /// Tells the other nodes of this node's changes, batched, and beats every
    /// [`RENEW_EVERY`].
    async fn tell(self: Arc<Self>, bus: Bus) {
        let mut beat = tokio::time::interval(RENEW_EVERY);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let changed = tokio::select! {
                _ = self.wake.notified() => true,
                _ = beat.tick() => false,
            };
            let updates = self.take_changes();
            if updates.is_empty() && changed {
                continue;
            }
            let updates = if updates.is_empty() {
                vec![self.heartbeat()]
            } else {
                updates
            };
            for update in &updates {
                let Ok(payload) = serde_json::to_vec(update) else {
                    continue;
                };
                if let Err(e) = bus.client.publish(LOBBY_SUBJECT, payload.into()).await {
                    tracing::debug!("could not tell the other nodes of the lobby: {e}");
                }
            }
            if changed {
                // Changes made meanwhile go out together.
                tokio::time::sleep(LISTING_EVERY).await;
            }
        }
    }

    /// The changes not told yet, a numbered message per [`PAGE`] rooms.
    fn take_changes(&self) -> Vec<Update> {
        let Ok(mut own) = self.own.lock() else {
            return Vec::new();
        };
        let pending: Vec<RoomId> = std::mem::take(&mut own.pending).into_iter().collect();
        pending
            .chunks(PAGE)
            .map(|chunk| {
                own.seq += 1;
                Update {
                    node: self.node.to_string(),
                    epoch: self.epoch,
                    seq: own.seq,
                    rooms: chunk
                        .iter()
                        .map(|id| WireRoom::of(id, own.rooms.get(id)))
                        .collect(),
                }
            })
            .collect()
    }

    fn heartbeat(&self) -> Update {
        let seq = self.own.lock().map_or(0, |own| own.seq);
        Update {
            node: self.node.to_string(),
            epoch: self.epoch,
            seq,
            rooms: Vec::new(),
        }
    }

    /// Answers requests for pages of this node's table.
    async fn answer(self: Arc<Self>, bus: Bus, mut asked: async_nats::Subscriber) {
        while let Some(msg) = asked.next().await {
            let Some(reply) = msg.reply else { continue };
            let after = serde_json::from_slice::<TableRequest>(&msg.payload)
                .ok()
                .and_then(|r| r.after);
            let page = self.page(after.as_deref());
            let Ok(payload) = serde_json::to_vec(&page) else {
                continue;
            };
            if let Err(e) = bus.client.publish(reply, payload.into()).await {
                tracing::debug!("could not send a page of the lobby: {e}");
            }
        }
    }

    fn page(&self, after: Option<&str>) -> TablePage {
        let Ok(own) = self.own.lock() else {
            return TablePage {
                epoch: self.epoch,
                seq: 0,
                rooms: Vec::new(),
                more: true,
            };
        };
        let from = after.map_or(Bound::Unbounded, Bound::Excluded);
        let mut rooms: Vec<WireRoom> = own
            .rooms
            .range::<str, _>((from, Bound::Unbounded))
            .take(PAGE + 1)
            .map(|(id, room)| WireRoom::of(id, Some(room)))
            .collect();
        let more = rooms.len() > PAGE;
        rooms.truncate(PAGE);
        TablePage {
            epoch: self.epoch,
            seq: own.seq,
            rooms,
            more,
        }
    }

    /// Follows the other nodes: applies their changes in order, reads a node's table when it
    /// is new or a change was missed, drops nodes gone silent, and rebuilds the view (at most
    /// every [`LISTING_EVERY`]).
    async fn follow(
        self: Arc<Self>,
        bus: Bus,
        mut heard: async_nats::Subscriber,
        mut noticed: mpsc::UnboundedReceiver<String>,
        gone: mpsc::Sender<String>,
    ) {
        let mut peers: HashMap<String, Peer> = HashMap::new();
        let mut dirty = false;
        let (synced_tx, mut synced_rx) = mpsc::channel::<Synced>(16);
        let mut tick = tokio::time::interval(LISTING_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                msg = heard.next() => {
                    let Some(msg) = msg else { return };
                    match serde_json::from_slice::<Update>(&msg.payload) {
                        Ok(update) if *update.node != *self.node => {
                            let node = update.node.clone();
                            let known = |p: &Peer| p.epoch != UNKNOWN_RUN;
                            if peers.get(&node).is_some_and(|p| known(p) && p.epoch != update.epoch) {
                                // Restarted: the connections it had are gone.
                                let _ = gone.try_send(node.clone());
                            }
                            let peer = peers.entry(node.clone()).or_insert_with(|| {
                                tracing::info!(%node, "heard from a node");
                                Peer::new(update.epoch)
                            });
                            if heard_from(peer, update, &mut dirty) {
                                spawn_sync(&bus, node, peer.epoch, &synced_tx);
                            }
                        }
                        Ok(_) => {}
                        Err(e) => tracing::warn!("unreadable lobby update: {e}"),
                    }
                }
                Some(node) = noticed.recv() => {
                    peers.entry(node.clone()).or_insert_with(|| {
                        tracing::info!(%node, "heard of a node before its heartbeat");
                        Peer::new(UNKNOWN_RUN)
                    });
                }
                Some(synced) = synced_rx.recv() => {
                    if let Some(peer) = peers.get_mut(&synced.node) {
                        if peer.epoch == synced.epoch && read(peer, synced.table, &mut dirty) {
                            spawn_sync(&bus, synced.node, peer.epoch, &synced_tx);
                        }
                    }
                }
                _ = tick.tick() => {
                    let before = peers.len();
                    peers.retain(|node, p| {
                        let alive = p.heard.elapsed() < LEASE_TTL;
                        if !alive {
                            tracing::info!(%node, "a node went silent: its rooms leave the lobby");
                            if gone.try_send(node.clone()).is_err() {
                                tracing::warn!(%node, "too many nodes gone at once to mark theirs away");
                            }
                        }
                        alive
                    });
                    self.set_live(&peers);
                    if dirty || peers.len() != before {
                        self.rebuild(&peers);
                        dirty = false;
                    }
                }
            }
        }
    }

    /// The other nodes heard from within a lease (their heartbeats), in name order.
    pub fn live(&self) -> Vec<String> {
        self.live.lock().map(|l| l.clone()).unwrap_or_default()
    }

    fn set_live(&self, peers: &HashMap<String, Peer>) {
        let mut live: Vec<String> = (peers.iter())
            .filter(|(_, p)| p.epoch != UNKNOWN_RUN)
            .map(|(node, _)| node.clone())
            .collect();
        live.sort();
        if let Ok(mut l) = self.live.lock() {
            *l = live;
        }
    }

    /// The view from every followed node's rooms: the public list and the seats.
    fn rebuild(&self, peers: &HashMap<String, Peer>) {
        let mut list: BTreeMap<RoomId, Arc<str>> = BTreeMap::new();
        let mut seats: HashMap<PlayerId, Vec<RoomId>> = HashMap::new();
        for peer in peers.values() {
            for (id, room) in &peer.rooms {
                if let Some(summary) = &room.summary {
                    list.insert(id.clone(), summary.clone());
                }
                for player in &room.seated {
                    let rooms = seats.entry(player.clone()).or_default();
                    if !rooms.contains(id) {
                        rooms.push(id.clone());
                    }
                }
            }
        }
        if let Ok(mut s) = self.seats.lock() {
            *s = seats;
        }
        let list: PublicList = list.into_iter().collect();
        self.list.send_if_modified(|old| {
            if **old == list {
                return false;
            }
            *old = Arc::new(list);
            true
        });
    }
}

/// Takes in one message of a node; true if its table is to be read (it is new, restarted,
/// or a change was missed).
fn heard_from(peer: &mut Peer, update: Update, dirty: &mut bool) -> bool {
    if peer.epoch != update.epoch {
        // Restarted under the same name: what it had is gone.
        *peer = Peer::new(update.epoch);
        *dirty = true;
    }
    peer.heard = Instant::now();
    if peer.syncing {
        peer.held.push(update);
        return false;
    }
    if peer.synced && update.seq <= peer.seq {
        return false;
    }
    if peer.synced && update.seq == peer.seq + 1 && !update.rooms.is_empty() {
        peer.apply(update);
        *dirty = true;
        return false;
    }
    if !peer.synced && update.seq == 0 {
        // It has told nothing yet: its table is empty.
        peer.synced = true;
        return false;
    }
    peer.syncing = true;
    peer.synced = false;
    peer.held.push(update);
    true
}

/// Takes in a node's table (`None`: it could not be read; asked again when the node is next
/// heard from) and the changes held meanwhile; true if it is to be read again (a change is
/// still missing).
fn read(peer: &mut Peer, table: Option<(u64, BTreeMap<RoomId, Room>)>, dirty: &mut bool) -> bool {
    if !peer.syncing {
        return false;
    }
    peer.syncing = false;
    let mut held = std::mem::take(&mut peer.held);
    let Some((seq, rooms)) = table else {
        peer.synced = false;
        return false;
    };
    peer.rooms = rooms;
    peer.seq = seq;
    peer.synced = true;
    *dirty = true;
    held.sort_by_key(|u| u.seq);
    for update in held {
        if update.seq <= peer.seq {
            continue;
        }
        if update.seq == peer.seq + 1 && !update.rooms.is_empty() {
            peer.apply(update);
        } else {
            peer.synced = false;
            peer.syncing = true;
            return true;
        }
    }
    false
}

/// Reads `node`'s table in a task of its own; the result comes back on `done`.
fn spawn_sync(bus: &Bus, node: String, epoch: u64, done: &mpsc::Sender<Synced>) {
    let (bus, done) = (bus.clone(), done.clone());
    tokio::spawn(async move {
        let table = read_table(&bus, &node, epoch).await;
        if table.is_none() {
            tracing::debug!(%node, "could not read the node's lobby table");
        }
        let _ = done.send(Synced { node, epoch, table }).await;
    });
}

/// `node`'s table, page by page, with its number as of the first page; `None` if a page
/// could not be had or the node restarted meanwhile.
async fn read_table(bus: &Bus, node: &str, epoch: u64) -> Option<(u64, BTreeMap<RoomId, Room>)> {
    let mut rooms = BTreeMap::new();
    let mut after: Option<String> = None;
    let mut first = None;
    loop {
        let request = serde_json::to_vec(&TableRequest {
            after: after.clone(),
        })
        .ok()?;
        let reply = bus
            .client
            .request(table_subject(node), request.into())
            .await
            .ok()?;
        let page: TablePage = serde_json::from_slice(&reply.payload).ok()?;
        if page.epoch != epoch {
            return None;
        }
        let seq = *first.get_or_insert(page.seq);
        after = page.rooms.last().map(|r| r.room.clone());
        for wire in page.rooms {
            let (id, room) = wire.into_room();
            rooms.insert(id, room);
        }
        if !page.more || after.is_none() {
            return Some((seq, rooms));
        }
    }
}

impl Peers for NodePeers {
    fn listed(&self, room: &RoomId, summary: Option<Arc<str>>) {
        self.change(room, |r| r.summary = summary);
    }

    fn seated(&self, room: &RoomId, player: &PlayerId, held: bool) {
        self.change(room, |r| {
            if held {
                r.seated.insert(player.clone());
            } else {
                r.seated.remove(player);
            }
        });
    }

    fn listing(&self) -> watch::Receiver<Arc<PublicList>> {
        self.list.subscribe()
    }

    fn seats_of(&self, player: &PlayerId) -> Vec<RoomId> {
        self.seats
            .lock()
            .ok()
            .and_then(|s| s.get(player).cloned())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn update(epoch: u64, seq: u64, rooms: &[(&str, Option<&str>)]) -> Update {
        Update {
            node: "a".into(),
            epoch,
            seq,
            rooms: rooms
                .iter()
                .map(|(room, summary)| WireRoom {
                    room: (*room).into(),
                    summary: summary.map(str::to_owned),
                    seated: Vec::new(),
                })
                .collect(),
        }
    }

    fn listed(peer: &Peer) -> Vec<(&str, &str)> {
        (peer.rooms.iter())
            .filter_map(|(id, r)| Some((&**id, r.summary.as_deref()?)))
            .collect()
    }

    fn table(rooms: &[(&str, &str)]) -> BTreeMap<RoomId, Room> {
        rooms
            .iter()
            .map(|(id, s)| {
                let room = Room {
                    summary: Some(Arc::from(*s)),
                    seated: BTreeSet::new(),
                };
                (Arc::from(*id), room)
            })
            .collect()
    }

    #[test]
    fn changes_in_order_are_applied_and_a_missed_one_has_the_table_read_again() {
        let mut dirty = false;
        let mut peer = Peer::new(7);
        // A node that has told nothing yet has an empty table.
        assert!(!heard_from(&mut peer, update(7, 0, &[]), &mut dirty));
        assert!(!heard_from(
            &mut peer,
            update(7, 1, &[("r1", Some("one"))]),
            &mut dirty
        ));
        assert!(!heard_from(
            &mut peer,
            update(7, 2, &[("r2", Some("two"))]),
            &mut dirty
        ));
        assert_eq!(listed(&peer), [("r1", "one"), ("r2", "two")]);
        // Heard twice (a duplicate), or a heartbeat of the last: nothing changes.
        assert!(!heard_from(
            &mut peer,
            update(7, 2, &[("r2", None)]),
            &mut dirty
        ));
        assert!(!heard_from(&mut peer, update(7, 2, &[]), &mut dirty));
        assert_eq!(listed(&peer), [("r1", "one"), ("r2", "two")]);
        // Number 3 was lost: 4 has the table read; 5 comes meanwhile and is held.
        assert!(heard_from(
            &mut peer,
            update(7, 4, &[("r4", Some("four"))]),
            &mut dirty
        ));
        assert!(!heard_from(
            &mut peer,
            update(7, 5, &[("r1", None)]),
            &mut dirty
        ));
        assert_eq!(listed(&peer), [("r1", "one"), ("r2", "two")]);
        // The table as of 4 (r2 ended in 3), then 5 applied on top of it.
        let read_again = read(
            &mut peer,
            Some((4, table(&[("r1", "one"), ("r4", "four")]))),
            &mut dirty,
        );
        assert!(!read_again);
        assert_eq!(listed(&peer), [("r4", "four")]);
        assert_eq!(peer.seq, 5);
        // A heartbeat saying 6 when 6 never came: read again.
        assert!(heard_from(&mut peer, update(7, 6, &[]), &mut dirty));
    }

    #[test]
    fn a_node_restarted_under_the_same_name_starts_afresh_and_an_unread_table_is_asked_again() {
        let mut dirty = false;
        let mut peer = Peer::new(7);
        assert!(heard_from(&mut peer, update(7, 3, &[]), &mut dirty));
        assert!(!read(
            &mut peer,
            Some((3, table(&[("r1", "one")]))),
            &mut dirty
        ));
        assert_eq!(listed(&peer), [("r1", "one")]);
        // Restarted: its numbers start again, and what it had is gone.
        assert!(!heard_from(&mut peer, update(8, 0, &[]), &mut dirty));
        assert!(listed(&peer).is_empty());
        assert!(!heard_from(
            &mut peer,
            update(8, 1, &[("r9", Some("nine"))]),
            &mut dirty
        ));
        assert_eq!(listed(&peer), [("r9", "nine")]);
        // A table that could not be read is asked for again at the next message.
        assert!(heard_from(&mut peer, update(8, 3, &[]), &mut dirty));
        assert!(!read(&mut peer, None, &mut dirty));
        assert!(heard_from(&mut peer, update(8, 3, &[]), &mut dirty));
    }

    #[test]
    fn held_changes_past_a_new_gap_have_the_table_read_again() {
        let mut dirty = false;
        let mut peer = Peer::new(1);
        assert!(heard_from(&mut peer, update(1, 2, &[]), &mut dirty));
        assert!(!heard_from(
            &mut peer,
            update(1, 5, &[("r5", Some("five"))]),
            &mut dirty
        ));
        // The table is as of 2; 3 and 4 were lost too.
        assert!(read(&mut peer, Some((2, table(&[]))), &mut dirty));
        assert!(peer.syncing);
    }
}
