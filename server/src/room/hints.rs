//! `hints`: what a member's page may highlight now — its seat's legal targets and what the
//! game shows everyone — computed by the room's table through the engine, so that a page
//! copies no rule. Answered to the asker alone; nothing is stored or broadcast.

use super::{Room, Status};
use crate::outbox::Outbox;
use crate::player::Player;
use crate::protocol::{self, Code, ReplyTo};
use orion_protocol::Message;

impl Room {
    /// Answers `hints` for `player`: a seat's own, or a watcher's (what everyone sees). A
    /// private room answers its members only, as its snapshot does.
    pub(super) fn hints(&self, re: &ReplyTo, player: &Player, outbox: &Outbox) {
        let seat = self.seat_of(&player.id);
        let watching = self.spectators.contains_key(&outbox.id);
        if seat.is_none() && !watching && self.code.is_some() {
            return self.refuse(re, outbox, Code::NotFound, format!("no room {}", self.id));
        }
        // Targets only while the game is on: a waiting or finished table has none to offer.
        let playing = seat.filter(|_| self.status == Status::Playing);
        let now = self.shared.clock.now_ms();
        let hints = self
            .table
            .hints(playing, now)
            .into_iter()
            .map(|(name, list)| (name.to_string(), list))
            .collect();
        let message = Message::Hints {
            room: self.id.to_string(),
            seq: self.seq,
            hints,
        };
        outbox.send(protocol::reply(re, message));
    }
}
