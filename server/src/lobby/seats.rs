//! Which rooms each player holds a seat in, and the bound on it (on a cluster, counting the
//! seats he holds in rooms of the other nodes).

use super::Lobby;
use crate::player::{PlayerId, RoomId};

/// Most rooms one player may hold seats in; joining more is refused with `full`.
pub const MAX_SEATS_PER_PLAYER: usize = 8;

impl Lobby {
    /// Records that `player` holds a seat in `room`; false when he is at the cap.
    pub fn take_seat(&self, player: &PlayerId, room: &RoomId) -> bool {
        let elsewhere = self.peer_seats(player);
        {
            let mut rooms = self.seats.entry(player.clone()).or_default();
            if rooms.contains(room) {
                return true;
            }
            let others = elsewhere
                .iter()
                .filter(|r| *r != room && !rooms.contains(*r))
                .count();
            if rooms.len() + others >= MAX_SEATS_PER_PLAYER {
                return false;
            }
            rooms.insert(room.clone());
        }
        if let Some(peers) = &self.peers {
            peers.seated(room, player, true);
        }
        true
    }

    /// Records that `player` holds a seat in `room`, whatever the cap: a room restored from
    /// the store (after a restart, or taken over from a node that died) keeps its players.
    pub fn restore_seat(&self, player: &PlayerId, room: &RoomId) {
        let added = self
            .seats
            .entry(player.clone())
            .or_default()
            .insert(room.clone());
        if let (true, Some(peers)) = (added, &self.peers) {
            peers.seated(room, player, true);
        }
    }

    /// Records that `player` no longer holds a seat in `room`.
    pub fn free_seat(&self, player: &PlayerId, room: &RoomId) {
        let freed = self
            .seats
            .get_mut(player)
            .is_some_and(|mut rooms| rooms.remove(room));
        if let (true, Some(peers)) = (freed, &self.peers) {
            peers.seated(room, player, false);
        }
    }

    /// The rooms where `player` holds a seat (on a cluster, on any node).
    pub fn seats_of(&self, player: &PlayerId) -> Vec<RoomId> {
        let mut rooms = self.seats_here(player);
        for room in self.peer_seats(player) {
            if !rooms.contains(&room) {
                rooms.push(room);
            }
        }
        rooms
    }

    /// The rooms of this server where `player` holds a seat.
    pub fn seats_here(&self, player: &PlayerId) -> Vec<RoomId> {
        self.seats
            .get(player)
            .map(|r| r.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// The other servers' rooms where `player` holds a seat (none for a server alone).
    fn peer_seats(&self, player: &PlayerId) -> Vec<RoomId> {
        match &self.peers {
            Some(peers) => peers.seats_of(player),
            None => Vec::new(),
        }
    }
}
