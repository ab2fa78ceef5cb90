//! Which rooms each player holds a seat in, and the bound on it.

use super::Lobby;
use crate::player::{PlayerId, RoomId};

/// Most rooms one player may hold seats in; joining more is refused with `full`.
pub const MAX_SEATS_PER_PLAYER: usize = 8;

impl Lobby {
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
}
