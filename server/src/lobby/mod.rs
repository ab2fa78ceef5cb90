//! The lobby: the directory of live rooms, the public listing that `lobby` watchers follow,
//! which rooms each player holds a seat in, and the quick-match queues and correspondence
//! seeks.

mod directory;
mod listing;
mod matchmaker;
mod peers;
mod seats;
mod seeks;

use crate::player::{PlayerId, RoomId};
use crate::protocol::Frame;
use dashmap::DashMap;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use tokio::sync::{watch, Notify};

pub use directory::{Directory, LocalDirectory, NotInserted, MAX_ROOMS};
pub use listing::{PublicList, LISTING_EVERY, LOBBY_PAGE_BYTES, LOBBY_PAGE_ROOMS};
pub use matchmaker::{LocalMatchmaker, Matchmaker, Queued};
pub use peers::Peers;
pub use seats::{
    is_correspondence, seat_bound_refusal, CORRESPONDENCE_PREFIX, MAX_CORRESPONDENCE_SEATS,
    MAX_SEATS_PER_PLAYER,
};

/// Rooms waiting for players are at most half of all rooms: past it `create` is refused with
/// `full`, so rooms made and held open can never take the room a quick match or a started
/// game needs.
pub const WAITING_SHARE: usize = 2;

/// The shared lobby state.
pub struct Lobby {
    /// Live rooms.
    pub rooms: Arc<dyn Directory>,
    /// Every live room's listing, in id order, and whether the published list lags it.
    listings: Mutex<listing::Listings>,
    /// Wakes [`flush_listing`] when a change could not be published at once.
    flush: Arc<Notify>,
    /// The public room list and a ready-made `lobby` frame (its first page) for watchers;
    /// watchers see only the latest (a slow watcher skips intermediate lists instead of
    /// queueing them).
    listing: watch::Sender<(Arc<PublicList>, Frame)>,
    /// Rooms in which each player holds a seat.
    seats: DashMap<PlayerId, HashSet<RoomId>>,
    /// Players waiting for a quick match.
    pub matchmaker: Arc<dyn Matchmaker>,
    /// Most rooms that may wait for players at once (see [`WAITING_SHARE`]).
    max_waiting: usize,
    /// The other servers of a cluster (`None` alone): told of this server's rooms and seats,
    /// their rooms listed and their seats counted with this server's own.
    peers: Option<Arc<dyn Peers>>,
    /// The other servers' public rooms (`Some` with `peers`), merged into the list.
    peer_list: Option<watch::Receiver<Arc<PublicList>>>,
}

impl Lobby {
    /// An empty lobby over `rooms` (which holds at most `max_rooms`) and the quick-match
    /// queues of `matchmaker`.
    pub fn new(
        rooms: Arc<dyn Directory>,
        matchmaker: Arc<dyn Matchmaker>,
        max_rooms: usize,
    ) -> Lobby {
        let empty = Arc::new(PublicList::new());
        let frame = listing::lobby_page(&empty, None, &None, &[]);
        let peers = rooms.peers();
        let peer_list = peers.as_ref().map(|p| p.listing());
        Lobby {
            rooms,
            listings: Mutex::new(listing::Listings::default()),
            flush: Arc::new(Notify::new()),
            listing: watch::Sender::new((empty, frame)),
            seats: DashMap::new(),
            matchmaker,
            max_waiting: max_rooms / WAITING_SHARE,
            peers,
            peer_list,
        }
    }

    /// Whether another room may wait for players (see [`WAITING_SHARE`]).
    pub fn may_open_waiting_room(&self) -> bool {
        let waiting = self.counts().first().map_or(0, |c| c.1);
        waiting < self.max_waiting
    }

    /// Follows the other servers' public rooms (`None` for a server alone), so that whoever
    /// holds it calls [`Lobby::peers_changed`] when they change.
    pub fn peer_listing(&self) -> Option<watch::Receiver<Arc<PublicList>>> {
        self.peers.as_ref().map(|p| p.listing())
    }

    /// Wakes whoever publishes held-back listing changes ([`flush_listing`]).
    pub fn flush_signal(&self) -> Arc<Notify> {
        self.flush.clone()
    }
}
