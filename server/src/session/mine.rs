//! `mine`: every game where the asking player holds a seat, live or by correspondence, with
//! whether it is his turn and until when, his turn first. Each room (here, or on another
//! node through its proxy) answers for itself.

use super::{Handled, Session};
use crate::player::Player;
use crate::protocol::{self, ReplyTo};
use crate::room::RoomCmd;
use orion_protocol::{Message, MyGame};
use std::time::Duration;

/// How long one room may take to say its line before `mine` answers without it (a room
/// between nodes is left out rather than holding up the list).
const PATIENCE: Duration = Duration::from_secs(3);

impl Session {
    pub(super) async fn mine(&self, re: &ReplyTo, player: Player) -> Handled {
        let rooms = self.shared.lobby.seats_of(&player.id);
        let asks = rooms.iter().map(|room| {
            let player = player.id.clone();
            async move {
                let handle = self.room(room).await.ok()?;
                let (done, line) = tokio::sync::oneshot::channel();
                handle
                    .tx
                    .send(RoomCmd::Describe { player, done })
                    .await
                    .ok()?;
                tokio::time::timeout(PATIENCE, line).await.ok()?.ok()?
            }
        });
        let mut games: Vec<MyGame> = futures::future::join_all(asks)
            .await
            .into_iter()
            .flatten()
            .collect();
        games.sort_by_key(order);
        self.outbox
            .send(protocol::reply(re, Message::Mine { games }));
        Ok(())
    }
}

/// Where a game stands in `mine`: his turn first, then the nearest deadline, then the
/// oldest last move, then the room id.
fn order(g: &MyGame) -> (bool, u64, u64, String) {
    (
        !g.your_turn,
        g.deadline.unwrap_or(u64::MAX),
        g.last_move.unwrap_or(u64::MAX),
        g.room.clone(),
    )
}
