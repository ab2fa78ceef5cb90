//! Who is counted as watching: every watcher's connection but the quiet ones (`spectate`
//! with `quiet`, the front door's live board, shown to every visitor: counting them would
//! make the most-watched game look watched by everyone on the front door, and pick itself
//! again); and `unspectate`, which stops one connection watching without touching a seat
//! its player may hold (a `leave` would resign it).

use super::Room;
use crate::outbox::Outbox;
use crate::protocol::{self, ReplyTo};
use orion_protocol::Message;

impl Room {
    /// The watchers counted (`spectators` in snapshots, the lobby and to the members).
    pub(super) fn watchers(&self) -> usize {
        let quiet = (self.quiet.iter())
            .filter(|c| self.spectators.contains_key(c))
            .count();
        self.spectators.len() - quiet
    }

    /// Marks connection `conn`, about to watch, as counted or not; forgets quiet connections
    /// that have stopped watching, so the set stays no larger than the watchers.
    pub(super) fn watch_quietly(&mut self, conn: u64, quiet: bool) {
        if self.quiet.len() > self.spectators.len() {
            let watching = &self.spectators;
            self.quiet.retain(|c| watching.contains_key(c));
        }
        if quiet {
            self.quiet.insert(conn);
        } else {
            self.quiet.remove(&conn);
        }
    }

    /// `unspectate`: this connection watches no more (answered `unspectated` either way).
    pub(super) fn unspectate(&mut self, re: &ReplyTo, outbox: &Outbox) {
        let was = self.spectators.remove(&outbox.id).is_some();
        self.quiet.remove(&outbox.id);
        outbox.send(protocol::reply(
            re,
            Message::Unspectated {
                room: self.id.to_string(),
            },
        ));
        if was {
            self.publish();
        }
    }
}
