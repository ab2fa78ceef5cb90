//! The lobby: the directory of live rooms (by id and by invite code), the public listing that
//! `lobby` watchers follow, which rooms each player holds a seat in, and the quick-match
//! queues. The directory is a small trait so it can later live in Redis or NATS.

use crate::connection::Outbox;
use crate::protocol::{Frame, ReplyTo};
use crate::room::RoomCmd;
use dashmap::DashMap;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch, Notify};

/// Most live rooms at once (the default of `Config::max_rooms`); `create` beyond it is
/// refused with `full`.
pub const MAX_ROOMS: usize = 10_000;
/// Most rooms one player may hold seats in; joining more is refused with `full`.
pub const MAX_SEATS_PER_PLAYER: usize = 8;
/// Watchers get at most one new list per this interval: with thousands of rooms changing, the
/// list is rebuilt a few times a second instead of once per change.
pub const LISTING_EVERY: Duration = Duration::from_millis(100);
/// Most rooms in one `lobby` message; the rest is asked for with `after` (watchers are sent
/// the first page, with `total` saying how many rooms are listed in all).
pub const LOBBY_PAGE_ROOMS: usize = 100;
/// Most bytes of room summaries in one `lobby` message (a summary is a few hundred bytes:
/// options and names are bounded), far below the largest frame a client is sent.
pub const LOBBY_PAGE_BYTES: usize = 32 * 1024;
/// Rooms waiting for players are at most half of all rooms: past it `create` is refused with
/// `full`, so rooms made and held open can never take the room a quick match or a started
/// game needs.
pub const WAITING_SHARE: usize = 2;

/// A room id.
pub type RoomId = Arc<str>;
/// A player's public id.
pub type PlayerId = Arc<str>;

/// Who a connection speaks for, once it has said hello.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Stable public id (the token stays secret).
    pub id: PlayerId,
    /// Display name.
    pub name: Arc<str>,
}

/// How to reach a live room's task.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    /// Room id.
    pub id: RoomId,
    /// Invite code of a private room.
    pub code: Option<Arc<str>>,
    /// The room's command queue (bounded: senders wait when the room is busy).
    pub tx: mpsc::Sender<RoomCmd>,
}

/// The directory of live rooms.
pub trait Directory: Send + Sync + 'static {
    /// Adds a room; false when the directory is full.
    fn insert(&self, room: RoomHandle) -> bool;
    /// The room with this id.
    fn get(&self, id: &str) -> Option<RoomHandle>;
    /// The private room with this invite code.
    fn by_code(&self, code: &str) -> Option<RoomHandle>;
    /// Forgets a room whose task has ended.
    fn remove(&self, id: &str);
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
}

impl Directory for LocalDirectory {
    fn insert(&self, room: RoomHandle) -> bool {
        if self.rooms.len() >= self.capacity {
            return false;
        }
        if let Some(code) = &room.code {
            self.codes.insert(code.clone(), room.id.clone());
        }
        self.rooms.insert(room.id.clone(), room);
        true
    }

    fn get(&self, id: &str) -> Option<RoomHandle> {
        self.rooms.get(id).map(|r| r.clone())
    }

    fn by_code(&self, code: &str) -> Option<RoomHandle> {
        let id = self.codes.get(code)?.clone();
        self.get(&id)
    }

    fn remove(&self, id: &str) {
        if let Some((_, room)) = self.rooms.remove(id) {
            if let Some(code) = room.code {
                self.codes.remove(&code);
            }
        }
    }
}

/// A room's line in the lobby.
#[derive(Clone, Debug)]
struct Listing {
    /// `waiting`, `playing` or `finished`.
    status: &'static str,
    /// Unlisted rooms count in metrics but are not shown.
    private: bool,
    /// The room summary object of the protocol, serialized.
    summary: Arc<str>,
}

/// The public room list: each listed room's id and serialized summary, in id order.
pub type PublicList = Vec<(RoomId, Arc<str>)>;

/// The listings and when the public list was last rebuilt from them.
#[derive(Debug, Default)]
struct Listings {
    /// Every live room's listing, in id order.
    by_room: BTreeMap<RoomId, Listing>,
    /// A listing changed since the last rebuild.
    dirty: bool,
    /// When the public list was last rebuilt.
    built: Option<Instant>,
}

/// One player waiting for a quick match.
#[derive(Debug)]
pub struct Queued {
    /// Who.
    pub player: Player,
    /// Where to send `joined` and the room's events.
    pub outbox: Outbox,
    /// The `id` of the `quick` request, echoed in `joined`.
    pub re: ReplyTo,
}

/// The shared lobby state.
pub struct Lobby {
    /// Live rooms.
    pub rooms: Box<dyn Directory>,
    /// Every live room's listing, in id order, and whether the published list lags it.
    listings: Mutex<Listings>,
    /// Wakes [`flush_listing`] when a change could not be published at once.
    flush: Arc<Notify>,
    /// The public room list and a ready-made `lobby` frame (its first page) for watchers;
    /// watchers see only the latest (a slow watcher skips intermediate lists instead of
    /// queueing them).
    listing: watch::Sender<(Arc<PublicList>, Frame)>,
    /// Rooms in which each player holds a seat.
    seats: DashMap<PlayerId, HashSet<RoomId>>,
    /// Players waiting for a quick match, by game id and player count.
    queues: Mutex<HashMap<(&'static str, u8), Vec<Queued>>>,
    /// Most rooms that may wait for players at once (see [`WAITING_SHARE`]).
    max_waiting: usize,
}

impl Lobby {
    /// An empty lobby over `rooms`, which holds at most `max_rooms`.
    pub fn new(rooms: Box<dyn Directory>, max_rooms: usize) -> Lobby {
        let empty = Arc::new(PublicList::new());
        let frame = lobby_page(&empty, None, &None);
        Lobby {
            rooms,
            listings: Mutex::new(Listings::default()),
            flush: Arc::new(Notify::new()),
            listing: watch::Sender::new((empty, frame)),
            seats: DashMap::new(),
            queues: Mutex::new(HashMap::new()),
            max_waiting: max_rooms / WAITING_SHARE,
        }
    }

    /// A `lobby` reply: the page of the current public list after room `after` (rebuilt
    /// first if a room changed since).
    pub fn page(&self, after: Option<&str>, re: &ReplyTo) -> Frame {
        self.flush();
        let list = self.listing.borrow().0.clone();
        lobby_page(&list, after, re)
    }

    /// Follows the room list.
    pub fn watch(&self) -> watch::Receiver<(Arc<PublicList>, Frame)> {
        self.listing.subscribe()
    }

    /// Sets (or, with `None`, removes) a room's listing. Watchers get the new list at once, or
    /// within [`LISTING_EVERY`] when one went out just before.
    pub fn publish(&self, id: &RoomId, listing: Option<(&'static str, bool, Value)>) {
        let Ok(mut all) = self.listings.lock() else {
            return;
        };
        match listing {
            Some((status, private, summary)) => {
                all.by_room.insert(
                    id.clone(),
                    Listing {
                        status,
                        private,
                        summary: Arc::from(summary.to_string()),
                    },
                );
            }
            None => {
                all.by_room.remove(id);
            }
        }
        all.dirty = true;
        if all.built.is_none_or(|t| t.elapsed() >= LISTING_EVERY) {
            self.rebuild(&mut all);
        } else {
            self.flush.notify_one();
        }
    }

    /// Publishes a listing change held back by [`Lobby::publish`], if any is left.
    fn flush(&self) {
        if let Ok(mut all) = self.listings.lock() {
            if all.dirty {
                self.rebuild(&mut all);
            }
        }
    }

    fn rebuild(&self, all: &mut Listings) {
        let list: PublicList = all
            .by_room
            .iter()
            .filter(|(_, l)| !l.private)
            .map(|(id, l)| (id.clone(), l.summary.clone()))
            .collect();
        all.dirty = false;
        all.built = Some(Instant::now());
        let frame = lobby_page(&list, None, &None);
        self.listing.send_replace((Arc::new(list), frame));
    }

    /// Whether another room may wait for players (see [`WAITING_SHARE`]).
    pub fn may_open_waiting_room(&self) -> bool {
        let waiting = self.counts().first().map_or(0, |c| c.1);
        waiting < self.max_waiting
    }

    /// Live rooms by status, for metrics.
    pub fn counts(&self) -> Vec<(&'static str, usize)> {
        let mut counts = vec![("waiting", 0), ("playing", 0), ("finished", 0)];
        if let Ok(all) = self.listings.lock() {
            for l in all.by_room.values() {
                if let Some(c) = counts.iter_mut().find(|c| c.0 == l.status) {
                    c.1 += 1;
                }
            }
        }
        counts
    }

    /// Records that `player` holds a seat in `room`; false when he is at the cap.
    pub fn take_seat(&self, player: &PlayerId, room: &RoomId) -> bool {
        let mut rooms = self.seats.entry(player.clone()).or_default();
        if rooms.contains(room) {
            return true;
        }
        if rooms.len() >= MAX_SEATS_PER_PLAYER {
            return false;
        }
        rooms.insert(room.clone());
        true
    }

    /// Records that `player` no longer holds a seat in `room`.
    pub fn free_seat(&self, player: &PlayerId, room: &RoomId) {
        if let Some(mut rooms) = self.seats.get_mut(player) {
            rooms.remove(room);
        }
    }

    /// The rooms where `player` holds a seat.
    pub fn seats_of(&self, player: &PlayerId) -> Vec<RoomId> {
        self.seats
            .get(player)
            .map(|r| r.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Queues a player for a quick match of `game` with `players` players. Returns the full
    /// group, in queue order, once there are enough; `Err` if he is already queued.
    pub fn enqueue(
        &self,
        game: &'static str,
        players: u8,
        entry: Queued,
    ) -> Result<Option<Vec<Queued>>, Queued> {
        let Ok(mut queues) = self.queues.lock() else {
            return Err(entry);
        };
        if queues
            .values()
            .flatten()
            .any(|q| q.player.id == entry.player.id)
        {
            return Err(entry);
        }
        let queue = queues.entry((game, players)).or_default();
        queue.retain(|q| !q.outbox.is_closed());
        queue.push(entry);
        if queue.len() >= players as usize {
            let group: Vec<Queued> = queue.drain(..players as usize).collect();
            return Ok(Some(group));
        }
        Ok(None)
    }

    /// Takes a connection out of every quick-match queue (it went away).
    pub fn unqueue(&self, conn: u64) {
        if let Ok(mut queues) = self.queues.lock() {
            for q in queues.values_mut() {
                q.retain(|e| e.outbox.id != conn);
            }
        }
    }
}

/// Publishes the listing changes [`Lobby::publish`] held back, one rebuild per
/// [`LISTING_EVERY`] at most. Ends with the server.
pub async fn flush_listing(shared: Weak<crate::server::Shared>) {
    let Some(flush) = shared.upgrade().map(|s| s.lobby.flush.clone()) else {
        return;
    };
    loop {
        flush.notified().await;
        tokio::time::sleep(LISTING_EVERY).await;
        match shared.upgrade() {
            Some(s) => s.lobby.flush(),
            None => return,
        }
    }
}

/// A `lobby` message: the rooms of `list` after room `after`, as many as fit in a page, with
/// `more` (ask again with `after` set to the last room shown) and `total` (rooms listed).
fn lobby_page(list: &PublicList, after: Option<&str>, re: &ReplyTo) -> Frame {
    let start = after.map_or(0, |a| list.partition_point(|(id, _)| &**id <= a));
    let mut out = String::from("{\"t\":\"lobby\",\"rooms\":[");
    let mut shown = 0;
    for (_, summary) in &list[start..] {
        if shown == LOBBY_PAGE_ROOMS || (shown > 0 && out.len() + summary.len() > LOBBY_PAGE_BYTES)
        {
            break;
        }
        if shown > 0 {
            out.push(',');
        }
        out.push_str(summary);
        shown += 1;
    }
    let more = start + shown < list.len();
    out.push_str(&format!("],\"more\":{more},\"total\":{}", list.len()));
    if let Some(re) = re {
        out.push_str(&format!(",\"re\":{re}"));
    }
    out.push('}');
    Frame::from(out)
}
