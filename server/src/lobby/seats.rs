//! Which rooms each player holds a seat in, and the bounds on them (on a cluster, counting
//! the seats he holds in rooms of the other nodes): live rooms and correspondence rooms are
//! counted apart, each against its own bound. A correspondence room is known by its id
//! (`c…`, [`CORRESPONDENCE_PREFIX`]), so every node counts a seat in another node's room
//! right from the id alone.

use super::Lobby;
use crate::player::{PlayerId, RoomId};
use crate::protocol::{Code, Refusal};

/// Most live rooms one player may hold seats in (one sits at a few tables at once, not
/// more); joining more is refused with `full`.
pub const MAX_SEATS_PER_PLAYER: usize = 8;
/// Most correspondence rooms one player may hold seats in, his waiting seeks included: a
/// turn takes days, so players keep many games going, but each is a stored room with a
/// deadline for the server to keep. More: `full`, naming the bound.
pub const MAX_CORRESPONDENCE_SEATS: usize = 50;
/// The first letter of a correspondence room's id (a live room's is `r`).
pub const CORRESPONDENCE_PREFIX: char = 'c';

/// Whether `room` is a correspondence room (its id says so).
pub fn is_correspondence(room: &str) -> bool {
    room.starts_with(CORRESPONDENCE_PREFIX)
}

/// The refusal of a seat past the bound for rooms of `room`'s kind.
pub fn seat_bound_refusal(correspondence: bool) -> Refusal {
    let message = if correspondence {
        format!(
            "you hold seats in {MAX_CORRESPONDENCE_SEATS} correspondence games already (seeks \
             included), the most one player may: finish or withdraw one first"
        )
    } else {
        format!(
            "you hold seats in {MAX_SEATS_PER_PLAYER} rooms already, the most one player may \
             play live at once (correspondence games count apart)"
        )
    };
    Refusal::new(Code::Full, message)
}

impl Lobby {
    /// Records that `player` holds a seat in `room`; false when he is at the bound for
    /// rooms of its kind (live or correspondence).
    pub fn take_seat(&self, player: &PlayerId, room: &RoomId) -> bool {
        let elsewhere = self.peer_seats(player);
        let kind = is_correspondence(room);
        let bound = if kind {
            MAX_CORRESPONDENCE_SEATS
        } else {
            MAX_SEATS_PER_PLAYER
        };
        {
            let mut rooms = self.seats.entry(player.clone()).or_default();
            if rooms.contains(room) {
                return true;
            }
            let here = rooms
                .iter()
                .filter(|r| is_correspondence(r) == kind)
                .count();
            let others = elsewhere
                .iter()
                .filter(|r| *r != room && !rooms.contains(*r) && is_correspondence(r) == kind)
                .count();
            if here + others >= bound {
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

    /// Whether `player` may take one more seat in a room of the kind given (a correspondence
    /// room, or a live one): the refusal naming the bound when he may not.
    pub fn may_sit(&self, player: &PlayerId, correspondence: bool) -> Result<(), Refusal> {
        let held = (self.seats_of(player).iter())
            .filter(|r| is_correspondence(r) == correspondence)
            .count();
        let bound = if correspondence {
            MAX_CORRESPONDENCE_SEATS
        } else {
            MAX_SEATS_PER_PLAYER
        };
        if held >= bound {
            return Err(seat_bound_refusal(correspondence));
        }
        Ok(())
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
