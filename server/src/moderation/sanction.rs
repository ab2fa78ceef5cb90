//! What a moderator's action tells every node at once: it travels with the token revocations
//! (`revocations.rs`, relayed between nodes by `cluster/revoked.rs`), so every connection and
//! every node hears it as soon as a `logout_all` would be. A connection acts on what concerns
//! it (`Session::sanctioned`: a kick or ban of its player closes it; a deleted chat line of a
//! room it is in is taken off its page); a node acts on its own rooms ([`follow`]: a banned
//! player's seats are given up, resigning his games; a closed room ends). What a node missed
//! (a lagging receiver, a bus cut) is still in the store: a ban is checked at every `hello`
//! and by every connection at a `Recheck`, a mute at every chat line, a deleted line whenever
//! events are shown again.

use crate::clock::Millis;
use crate::outbox::Outbox;
use crate::player::Player;
use crate::revocations::Revocation;
use crate::room::RoomCmd;
use crate::shared::Shared;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Weak};
use tokio::sync::{broadcast, watch};

/// A moderator's action as every node hears it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Sanction {
    /// Close every connection of `player`.
    Kick {
        /// Player id.
        player: String,
    },
    /// `player` is banned: his connections close, his games in progress end as resignations,
    /// and (a guest) his address is banned a while.
    Ban {
        /// Player id.
        player: String,
        /// Why, told to him.
        reason: String,
        /// Until when (`None`: for good).
        until: Option<Millis>,
    },
    /// A chat line of `room` was deleted.
    DeleteChat {
        /// Room id.
        room: String,
        /// The chat event's seq.
        seq: u64,
    },
    /// `room` is closed: its game ends, aborted and unrated.
    CloseRoom {
        /// Room id.
        room: String,
    },
    /// Not a moderator's: `player` blocked or unblocked someone, and his other connections,
    /// on every node, take up whom he blocks now (it travels here to reach them at once).
    Blocks {
        /// Player id.
        player: String,
    },
}

/// Acts on the sanctions that concern this node's rooms until the server shuts down.
pub async fn follow(
    shared: Weak<Shared>,
    mut heard: broadcast::Receiver<Revocation>,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        let revocation = tokio::select! {
            r = heard.recv() => r,
            _ = shutdown.changed() => return,
        };
        let sanction = match revocation {
            Ok(Revocation::Sanction(s)) => s,
            Ok(_) => continue,
            Err(broadcast::error::RecvError::Lagged(n)) => {
                tracing::warn!(missed = n, "moderation: fell behind the sanctions");
                continue;
            }
            Err(broadcast::error::RecvError::Closed) => return,
        };
        let Some(shared) = shared.upgrade() else {
            return;
        };
        match &*sanction {
            Sanction::Ban { player, .. } => resign_seats(&shared, player).await,
            Sanction::CloseRoom { room } => {
                if shared.lobby.rooms.serving(room) {
                    if let Some(handle) = shared.lobby.rooms.get(room).await {
                        let _ = handle.tx.send(RoomCmd::Close).await;
                    }
                }
            }
            Sanction::Kick { .. } | Sanction::DeleteChat { .. } | Sanction::Blocks { .. } => {}
        }
    }
}

/// A banned player gives up every seat he holds in a room this node runs: as a `leave`
/// would, a game in progress ends as his resignation (rated as one; a rated game nobody has
/// moved in yet is aborted, as any leave then aborts it).
async fn resign_seats(shared: &Arc<Shared>, player: &str) {
    let id: Arc<str> = Arc::from(player);
    for room in shared.lobby.seats_here(&id) {
        let Some(handle) = shared.lobby.rooms.get(&room).await else {
            continue;
        };
        // Nobody reads the answer: the room's members hear the `left` and `over` events.
        let (outbox, _) = Outbox::new(shared.next_conn_id(), shared.metrics.clone(), 1);
        let leave = RoomCmd::Leave {
            re: None,
            player: Player {
                id: id.clone(),
                name: id.clone(),
            },
            outbox,
        };
        let _ = handle.tx.send(leave).await;
    }
}
