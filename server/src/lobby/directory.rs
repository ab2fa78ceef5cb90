//! The directory of live rooms, by id and by invite code: a small async trait that `serve_with`
//! receives, so rooms can be found across server nodes (a lookup there may ask the network).

use super::{Matchmaker, Peers};
use crate::outbox::Outbox;
use crate::player::RoomId;
use crate::revocations::Revocations;
use crate::room::handle::RoomHandle;
use dashmap::DashMap;
use std::sync::Arc;
use tokio::sync::mpsc;

/// Most live rooms at once (the default of `Config::max_rooms`); `create` beyond it is
/// refused with `full`.
pub const MAX_ROOMS: usize = 10_000;

/// Why a room could not be added to the directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotInserted {
    /// It holds as many rooms as it may (`full`).
    Full,
    /// The room cannot be run here now: on a cluster, its lease could not be taken (the
    /// database is away, or another node holds it). Worth trying again (`server`).
    Unavailable,
}

/// The directory of live rooms. Async through `async_trait` (one boxed future per call) so
/// it stays usable as `dyn Directory`.
#[async_trait::async_trait]
pub trait Directory: Send + Sync + 'static {
    /// Adds a room; why not when it cannot.
    async fn insert(&self, room: RoomHandle) -> Result<(), NotInserted>;
    /// The room with this id.
    async fn get(&self, id: &str) -> Option<RoomHandle>;
    /// The private room with this invite code.
    async fn by_code(&self, code: &str) -> Option<RoomHandle>;
    /// Forgets a room whose task has ended (its command channel closed first), or, on a
    /// cluster, that this node took over and found ended. A live room under the same id — a
    /// newer copy, restored here while an old one was ending — stays.
    async fn remove(&self, id: &str);
    /// Whether this server may run the unfinished room `id` it found in the store on start
    /// (on a cluster, whether this node took its lease: another node may run it).
    async fn claim(&self, _id: &str) -> bool {
        true
    }
    /// Lets go of a room this server claimed or took over but could not read from the
    /// store (not one found ended: that is [`Directory::remove`]): on a cluster its lease
    /// lapses at once, so the next scan of any node tries it again, where forgetting it
    /// would leave it run by no node until one restarts. By default forgotten, as a lone
    /// server has nobody to hand it to.
    async fn give_back(&self, id: &str) {
        self.remove(id).await;
    }
    /// Rooms this server should restore from the store while it runs (on a cluster, the
    /// rooms of a node that died); asked once, at start. `None`: there never are any.
    fn takeovers(&self) -> Option<mpsc::Receiver<RoomId>> {
        None
    }
    /// The quick-match queues that go with this directory (on a cluster, one queue for every
    /// node). `None`: the lobby's own, in memory.
    fn matchmaker(&self) -> Option<Arc<dyn Matchmaker>> {
        None
    }
    /// The revocations that go with this directory (on a cluster, relayed to and from every
    /// node). `None`: this server's own.
    fn revocations(&self) -> Option<Revocations> {
        None
    }
    /// The other servers whose rooms the lobby lists and counts seats in with its own (on a
    /// cluster, the other nodes); asked once, at start. `None`: this server is alone.
    fn peers(&self) -> Option<Arc<dyn Peers>> {
        None
    }
    /// A connection of this server closed: the rooms run elsewhere that it was a member of
    /// (the caller detaches it from each), forgotten here. None on a single server.
    fn closed(&self, _conn: u64) -> Vec<RoomId> {
        Vec::new()
    }
    /// A copy of `room` run here ended as another server took the room over, having sent its
    /// members every event up to `seq`: what the new owner relays to them from now on starts
    /// after it (on a cluster, a member who resumes from an earlier seq — one that had not
    /// yet read those events — is not sent them twice). Nothing to do on a single server.
    fn handed_over(&self, _room: &str, _seq: u64, _members: &[Outbox]) {}
    /// The last event of `room` relayed to connection `conn` here from another server that
    /// ran it (0: none). A client that had not yet read those events when it resumed from an
    /// earlier seq is not sent them again by a copy of the room now run here. Always 0 on a
    /// single server.
    fn relayed(&self, _conn: u64, _room: &str) -> u64 {
        0
    }
    /// Whether this server may serve `room` now (on a cluster, whether its lease is held
    /// and was renewed recently enough that no other node can have taken it over: a room
    /// refuses every command while not). Always, on a single server.
    fn serving(&self, _room: &str) -> bool {
        true
    }
    /// `Ok` while this directory can reach the other servers (a cluster's bus is
    /// connected), the reason otherwise (`GET /readyz`). A lone server's always can.
    fn ready(&self) -> Result<(), String> {
        Ok(())
    }
    /// Metrics of this directory for `/metrics` (a cluster's: rooms owned, failovers …).
    fn collectors(&self) -> Vec<Box<dyn prometheus::core::Collector>> {
        Vec::new()
    }
    /// The server is stopping (its listener closed, its connections still open): a cluster's
    /// node hands each room it runs to another node and takes no new one; a server alone has
    /// nowhere to hand them and keeps them in its store, restored when it starts again.
    async fn drain(&self) {}
    /// Whether `room`, ending here, is being handed to another server (its members are told
    /// `moved` by that server once it runs there).
    fn handing_over(&self, _room: &str) -> bool {
        false
    }
    /// Whether the rooms went to other servers ([`Directory::drain`] handed them over): the
    /// connections are then closed with 1012 ("reconnect now, to any node") instead of 1001.
    fn handed_off(&self) -> bool {
        false
    }
}

/// The directory in this process.
#[derive(Debug)]
pub struct LocalDirectory {
    /// Most rooms it holds.
    capacity: usize,
    /// Rooms by id.
    rooms: DashMap<RoomId, RoomHandle>,
    /// Room ids by invite code.
    codes: DashMap<Arc<str>, RoomId>,
}

impl LocalDirectory {
    /// An empty directory for at most `capacity` rooms.
    pub fn new(capacity: usize) -> LocalDirectory {
        LocalDirectory {
            capacity,
            rooms: DashMap::new(),
            codes: DashMap::new(),
        }
    }

    /// Whether it holds the room `id` now.
    pub fn contains(&self, id: &str) -> bool {
        self.rooms.contains_key(id)
    }

    /// Every room it holds now.
    pub fn handles(&self) -> Vec<RoomHandle> {
        self.rooms.iter().map(|r| r.value().clone()).collect()
    }
}

#[async_trait::async_trait]
impl Directory for LocalDirectory {
    async fn insert(&self, room: RoomHandle) -> Result<(), NotInserted> {
        if self.rooms.len() >= self.capacity {
            return Err(NotInserted::Full);
        }
        if let Some(code) = &room.code {
            self.codes.insert(code.clone(), room.id.clone());
        }
        self.rooms.insert(room.id.clone(), room);
        Ok(())
    }

    async fn get(&self, id: &str) -> Option<RoomHandle> {
        self.rooms.get(id).map(|r| r.clone())
    }

    async fn by_code(&self, code: &str) -> Option<RoomHandle> {
        let id = self.codes.get(code)?.clone();
        self.rooms.get(&id).map(|r| r.clone())
    }

    async fn remove(&self, id: &str) {
        if let Some((_, room)) = self.rooms.remove_if(id, |_, room| room.tx.is_closed()) {
            if let Some(code) = room.code {
                self.codes.remove(&code);
            }
        }
    }
}
