//! Correspondence seeks, as the lobby lists them: a seek is a public waiting room with
//! `days_per_move` (`session/seek.rs` opens and takes them). Read from the public list, so
//! on a cluster a seek on any node is found.

use super::Lobby;
use crate::player::RoomId;
use orion_protocol::{RoomSummary, Status};

impl Lobby {
    /// The listed seeks `name` may take: waiting rooms of `game` for `players` with `days`
    /// a turn, a seat free and none of them his, oldest id first.
    pub fn seeks(&self, game: &str, players: u8, days: u8, name: &str) -> Vec<RoomId> {
        self.flush();
        let list = self.listing.borrow().0.clone();
        list.iter()
            .filter(|(id, summary)| {
                super::is_correspondence(id)
                    && serde_json::from_str::<RoomSummary>(summary).is_ok_and(|s| {
                        s.status == Status::Waiting
                            && s.game == game
                            && s.options.days_per_move == Some(days)
                            && s.seats.len() == usize::from(players)
                            && s.seats.values().any(Option::is_none)
                            // Its owner still there: a room its last player just left is
                            // listed until its task ends, and is no one's offer.
                            && s.seats.values().any(Option::is_some)
                            && !s.seats.values().flatten().any(|n| n == name)
                    })
            })
            .map(|(id, _)| id.clone())
            .collect()
    }
}
