//! What others see of a room: a snapshot for one recipient (hidden choices only to whoever
//! made them) and the room's line in the lobby.

use super::Room;
use crate::player::PlayerId;
use crate::protocol::{self, Frame, ReplyTo};
use crate::system::Seat;
use orion_protocol::{Message, MyGame, RoomSummary, SeatView, Snapshot, Status};
use std::collections::BTreeMap;
use std::sync::Arc;

impl Room {
    /// The room as it is now, for one recipient: `seat` gets his own hidden choices (Algol's
    /// secret man), if he made them, and nobody else's.
    pub(super) fn snapshot(&self, re: &ReplyTo, seat: Option<Seat>) -> Frame {
        protocol::reply(re, Message::Snapshot(Box::new(self.snapshot_of(seat))))
    }

    /// The room now, as `seat` (or a spectator, `None`) may see it.
    pub(super) fn snapshot_of(&self, seat: Option<Seat>) -> Snapshot {
        let seats = self
            .table
            .seats()
            .iter()
            .map(|info| {
                let view = self.seats.get(&info.seat).map(|o| SeatView {
                    player: o.player.id.to_string(),
                    name: o.player.name.to_string(),
                    colour: info.colour.to_string(),
                    connected: o.conn.is_some() || o.bot.is_some(),
                    rating: self.seat_ratings.get(&info.seat).copied(),
                    ready: o.ready && self.status == orion_protocol::Status::Waiting,
                    bot: o.bot.map(|l| l.number()),
                });
                (info.seat.wire(), view)
            })
            .collect();
        let mut snapshot = Snapshot {
            room: self.id.to_string(),
            seq: self.seq,
            game: self.game_id.to_string(),
            options: self.wire_options.clone(),
            status: self.status,
            seats,
            spectators: u32::try_from(self.watchers()).unwrap_or(u32::MAX),
            position: self.table.position(),
            turn: self.table.turn(),
            scores: self.table.scores(),
            claims: Vec::new(),
            result: self.table.result().or_else(|| self.result.clone()),
            deadline: (self.options.days_per_move.is_some() && self.status == Status::Playing)
                .then_some(self.clock.deadline)
                .flatten(),
            systems: Default::default(),
        };
        // A later occupant of the seat does not see what the last one chose.
        let chooser = seat.filter(|s| {
            let owner = self.secret_owners.get(s);
            owner.is_some() && owner == self.seats.get(s).map(|o| &o.player.id)
        });
        self.table.view(chooser, &mut snapshot);
        snapshot
    }

    /// `player`'s line in `mine`, while the room waits or plays and he holds a seat: whether
    /// he is to move, and until when.
    pub(super) fn describe(&self, player: &PlayerId) -> Option<MyGame> {
        let seat = self.seat_of(player)?;
        let playing = match self.status {
            Status::Waiting => false,
            Status::Playing => true,
            Status::Finished | Status::Closed => return None,
        };
        Some(MyGame {
            room: self.id.to_string(),
            game: self.game_id.to_string(),
            status: self.status,
            seat: seat.wire(),
            your_turn: playing && self.table.mover() == seat,
            seats: (self.table.seats().iter())
                .map(|info| {
                    let name = self
                        .seats
                        .get(&info.seat)
                        .map(|o| o.player.name.to_string());
                    (info.seat.wire(), name)
                })
                .collect(),
            days_per_move: self.options.days_per_move,
            deadline: playing.then_some(self.clock.deadline).flatten(),
            last_move: playing.then_some(self.clock.since).flatten(),
        })
    }

    pub(super) fn publish(&mut self) {
        // Called after every timer and seat change: compare what the listing shows before
        // building any JSON.
        let seen = Published {
            status: self.status.as_str(),
            seats: self
                .table
                .seats()
                .iter()
                .map(|info| self.seats.get(&info.seat).map(|o| o.player.name.clone()))
                .collect(),
            spectators: self.watchers(),
            ratings: self.seat_ratings.clone(),
        };
        if self.published.as_ref() == Some(&seen) {
            return;
        }
        if worth_telling(self.told_spectators, seen.spectators) {
            self.told_spectators = seen.spectators;
            let count = u32::try_from(seen.spectators).unwrap_or(u32::MAX);
            let frame = protocol::reply(
                &None,
                Message::Spectators {
                    room: self.id.to_string(),
                    count,
                },
            );
            self.broadcast(&frame);
        }
        let summary = RoomSummary {
            room: self.id.to_string(),
            game: self.game_id.to_string(),
            status: self.status,
            seats: (self.table.seats().iter().zip(&seen.seats))
                .map(|(info, name)| (info.seat.wire(), name.as_ref().map(|n| n.to_string())))
                .collect(),
            spectators: u32::try_from(self.watchers()).unwrap_or(u32::MAX),
            options: self.wire_options.clone(),
            ratings: (seen.ratings.iter())
                .map(|(seat, rating)| (seat.wire(), *rating))
                .collect(),
            bots: (self.seats.iter())
                .filter_map(|(seat, o)| Some((seat.wire(), o.bot?.number())))
                .collect(),
        };
        let summary = serde_json::to_string(&summary).unwrap_or_default();
        self.published = Some(seen);
        self.shared.lobby.publish(
            &self.id,
            Some((self.status.as_str(), self.private, summary)),
        );
    }
}

/// Whether the members are sent a new watcher count (`spectators`) as it goes from `told` to
/// `now`: every change while either is at most [`TELL_EVERY_WATCHER`]; past that, changes of a
/// tenth or more. Each `spectators` message goes to every member, so telling each of 5,000
/// watchers of each newcomer would cost 12.5 million frames; this way a crowd growing to
/// 5,000 costs a few dozen broadcasts, and the count shown is within a tenth.
fn worth_telling(told: usize, now: usize) -> bool {
    told != now && (told.max(now) <= TELL_EVERY_WATCHER || told.abs_diff(now) * 10 >= told)
}

/// Up to this many watchers, every arrival and departure is told to the room's members.
const TELL_EVERY_WATCHER: usize = 100;

/// What a room's lobby listing shows that can change: compared before a listing is rebuilt.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Published {
    /// `waiting`, `playing`, `finished`.
    status: &'static str,
    /// Each seat's player name, in seat order.
    seats: Vec<Option<Arc<str>>>,
    /// How many watch.
    spectators: usize,
    /// Each seated account's rating.
    ratings: BTreeMap<Seat, i32>,
}

#[cfg(test)]
mod tests {
    use super::worth_telling;

    #[test]
    fn small_crowds_are_told_every_watcher_and_big_ones_every_tenth() {
        assert!(worth_telling(0, 1));
        assert!(worth_telling(1, 0));
        assert!(!worth_telling(3, 3));
        assert!(worth_telling(100, 99));
        assert!(!worth_telling(1000, 1050));
        assert!(worth_telling(1000, 1100));
        assert!(worth_telling(1000, 900));
    }
}
