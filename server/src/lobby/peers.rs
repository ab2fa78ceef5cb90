//! The rooms of other servers (the other nodes of a cluster) that this server's lobby lists and
//! counts seats in with its own: a small trait a directory may offer ([`Directory::peers`]).
//! A single server has none, so its lobby neither tells nor asks anything.
//!
//! [`Directory::peers`]: super::Directory::peers

use super::PublicList;
use crate::player::{PlayerId, RoomId};
use std::sync::Arc;
use tokio::sync::watch;

/// What the other servers run, as this one sees it, and where it tells them of its own rooms.
pub trait Peers: Send + Sync + 'static {
    /// One of this server's rooms is listed with `summary` (the protocol's room summary,
    /// serialized), or no longer listed publicly (`None`: ended, or private).
    fn listed(&self, room: &RoomId, summary: Option<Arc<str>>);
    /// `player` took (`held`) or gave up a seat in one of this server's rooms.
    fn seated(&self, room: &RoomId, player: &PlayerId, held: bool);
    /// The other servers' public rooms, in room id order; a receiver wakes on each change.
    fn listing(&self) -> watch::Receiver<Arc<PublicList>>;
    /// The other servers' rooms where `player` holds a seat.
    fn seats_of(&self, player: &PlayerId) -> Vec<RoomId>;
}
