//! What others see of a room: a snapshot for one recipient (hidden choices only to whoever
//! made them) and the room's line in the lobby.

use super::Room;
use crate::protocol::{Frame, ReplyTo};
use crate::system::Seat;
use serde_json::{json, Map, Value};
use std::sync::Arc;

impl Room {
    /// The room as it is now, for one recipient: `seat` gets his own hidden choices (Algol's
    /// secret man), if he made them, and nobody else's.
    pub(super) fn snapshot(&self, re: &ReplyTo, seat: Option<Seat>) -> Frame {
        let mut seats = Map::new();
        for info in self.table.seats() {
            let v = match self.seats.get(&info.seat) {
                Some(o) => json!({"player": &*o.player.id, "name": &*o.player.name,
                                  "colour": info.colour, "connected": o.conn.is_some()}),
                None => Value::Null,
            };
            seats.insert(info.seat.to_string(), v);
        }
        let mut body = json!({
            "t": "snapshot", "room": &*self.id, "seq": self.seq,
            "game": self.game_id, "options": self.options_json,
            "status": self.status.as_str(), "seats": seats,
            "spectators": self.spectators.len(),
            "position": self.table.position(),
            "turn": self.table.turn(), "scores": self.table.scores(),
        });
        if let Some(result) = self.table.result().or_else(|| self.result.clone()) {
            body["result"] = result;
        }
        // A later occupant of the seat does not see what the last one chose.
        let chooser = seat.filter(|s| {
            let owner = self.secret_owners.get(s);
            owner.is_some() && owner == self.seats.get(s).map(|o| &o.player.id)
        });
        if let Value::Object(body) = &mut body {
            body.extend(self.table.view(chooser));
            if let Some(re) = re {
                body.insert("re".into(), json!(re));
            }
        }
        // Not yet the crate's `Snapshot`: Orbit's and Orbs's snapshots carry fields it does
        // not describe (`prohibited`, `territory`, `out`, `draw`, a turn's `phase` …).
        Frame::from(body.to_string())
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
            spectators: self.spectators.len(),
        };
        if self.published.as_ref() == Some(&seen) {
            return;
        }
        let mut seats = Map::new();
        for (info, name) in self.table.seats().iter().zip(&seen.seats) {
            let name = name.as_ref().map(|n| json!(&**n));
            seats.insert(info.seat.to_string(), name.unwrap_or(Value::Null));
        }
        let summary = json!({"room": &*self.id, "game": self.game_id,
            "status": self.status.as_str(), "seats": seats,
            "spectators": self.spectators.len(), "options": self.options_json});
        self.published = Some(seen);
        self.shared.lobby.publish(
            &self.id,
            Some((self.status.as_str(), self.private, summary)),
        );
    }
}

/// What a room's lobby listing shows that can change: compared before a listing is rebuilt.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Published {
    /// `waiting`, `playing`, `finished`.
    status: &'static str,
    /// Each seat's player name, in seat order.
    seats: Vec<Option<Arc<str>>>,
    /// How many watch.
    spectators: usize,
}
