//! What nodes say to each other on the bus: a session's room command forwarded to the node
//! that owns the room, and that node's answer. JSON between nodes of one build; the clients'
//! wire (the `orion-protocol` crate) is carried inside unchanged.

use crate::outbox::Outbox;
use crate::player::Player;
use crate::protocol::ReplyTo;
use crate::room::RoomCmd;
use orion_protocol::Request;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tokio::sync::oneshot;

/// A room command from a connection on node `node`, for the room's owner.
#[derive(Debug, Serialize, Deserialize)]
pub struct Forward {
    /// The room.
    pub room: String,
    /// The node the connection is on (where the room's frames for it are sent).
    pub node: String,
    /// The connection's id on that node.
    pub conn: u64,
    /// What it asks.
    pub cmd: Command,
}

/// A player, as a forwarded command names him.
#[derive(Debug, Serialize, Deserialize)]
pub struct Who {
    /// Public id.
    pub id: String,
    /// Display name.
    pub name: String,
}

impl From<&Player> for Who {
    fn from(p: &Player) -> Who {
        Who {
            id: p.id.to_string(),
            name: p.name.to_string(),
        }
    }
}

impl From<Who> for Player {
    fn from(w: Who) -> Player {
        Player {
            id: Arc::from(w.id),
            name: Arc::from(w.name),
        }
    }
}

/// A [`RoomCmd`] without its outbox (the owner makes one that sends back over the bus).
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum Command {
    /// [`RoomCmd::Join`].
    Join {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Who,
        /// The seat wanted.
        seat: Option<String>,
        /// Ready as he sits (absent from nodes of a build before it: false).
        #[serde(default)]
        ready: bool,
    },
    /// [`RoomCmd::Spectate`].
    Spectate {
        /// Request id.
        re: ReplyTo,
        /// Who watches.
        player: String,
        /// Not counted among the watchers.
        #[serde(default)]
        quiet: bool,
    },
    /// [`RoomCmd::Leave`].
    Leave {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Who,
    },
    /// [`RoomCmd::Ready`].
    Ready {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Who,
    },
    /// [`RoomCmd::Act`].
    Act {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Who,
        /// The game request.
        request: Request,
    },
    /// [`RoomCmd::Chat`].
    Chat {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Who,
        /// The line.
        text: String,
    },
    /// [`RoomCmd::Resume`].
    Resume {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Who,
        /// Last seq seen.
        since: u64,
    },
    /// [`RoomCmd::Rematch`].
    Rematch {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Who,
        /// Whether he wants it.
        accept: bool,
    },
    /// [`RoomCmd::Detach`]: the connection went away.
    Detach,
    /// [`RoomCmd::Describe`]: the asker's line in `mine` (answered [`Answer::Described`]).
    Describe {
        /// Who asks.
        player: String,
    },
}

/// The owner's answer to a [`Forward`].
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// In the room's queue (its replies come as frames).
    Queued,
    /// For join, spectate, resume: whether the connection is now a member.
    Entered(bool),
    /// The room is not live on that node (ended, or moved).
    NoRoom,
    /// For describe: the asker's line in `mine`.
    Described(Option<orion_protocol::MyGame>),
}

impl Command {
    /// The command `cmd` carries, and the connection it is from.
    pub fn of(cmd: &RoomCmd) -> (Command, u64) {
        match cmd {
            RoomCmd::Join {
                re,
                player,
                seat,
                outbox,
                ready,
                ..
            } => (
                Command::Join {
                    re: re.clone(),
                    player: player.into(),
                    seat: seat.clone(),
                    ready: *ready,
                },
                outbox.id,
            ),
            RoomCmd::Spectate {
                re,
                player,
                outbox,
                quiet,
                ..
            } => (
                Command::Spectate {
                    re: re.clone(),
                    player: player.to_string(),
                    quiet: *quiet,
                },
                outbox.id,
            ),
            RoomCmd::Leave { re, player, outbox } => (
                Command::Leave {
                    re: re.clone(),
                    player: player.into(),
                },
                outbox.id,
            ),
            RoomCmd::Ready { re, player, outbox } => (
                Command::Ready {
                    re: re.clone(),
                    player: player.into(),
                },
                outbox.id,
            ),
            RoomCmd::Act {
                re,
                player,
                request,
                outbox,
            } => (
                Command::Act {
                    re: re.clone(),
                    player: player.into(),
                    request: (**request).clone(),
                },
                outbox.id,
            ),
            RoomCmd::Chat {
                re,
                player,
                text,
                outbox,
            } => (
                Command::Chat {
                    re: re.clone(),
                    player: player.into(),
                    text: text.clone(),
                },
                outbox.id,
            ),
            RoomCmd::Resume {
                re,
                player,
                since,
                outbox,
                ..
            } => (
                Command::Resume {
                    re: re.clone(),
                    player: player.into(),
                    since: *since,
                },
                outbox.id,
            ),
            RoomCmd::Rematch {
                re,
                player,
                accept,
                outbox,
            } => (
                Command::Rematch {
                    re: re.clone(),
                    player: player.into(),
                    accept: *accept,
                },
                outbox.id,
            ),
            RoomCmd::Detach { conn } => (Command::Detach, *conn),
            RoomCmd::Describe { player, .. } => (
                Command::Describe {
                    player: player.to_string(),
                },
                0,
            ),
            // Never forwarded: a node tells only its own rooms they are lost, and a quick match
            // fills the room it made itself with bots, as a rematch does the room it made; a
            // moderator's close is heard by every node (`moderation/sanction.rs`) and sent by
            // the node that runs the room.
            RoomCmd::Lost
            | RoomCmd::Close
            | RoomCmd::FillBots { .. }
            | RoomCmd::SeatBots { .. } => (Command::Detach, 0),
        }
    }

    /// The room command for the owner's room, answering on `outbox`, and for the commands
    /// that make a member, whether it did.
    pub fn into_room_cmd(self, outbox: Outbox) -> (RoomCmd, Option<oneshot::Receiver<bool>>) {
        let (done, entered) = oneshot::channel();
        let cmd = match self {
            Command::Join {
                re,
                player,
                seat,
                ready,
            } => RoomCmd::Join {
                re,
                player: player.into(),
                seat,
                outbox,
                ready,
                done,
            },
            Command::Spectate { re, player, quiet } => RoomCmd::Spectate {
                re,
                player: Arc::from(player),
                outbox,
                done,
                quiet,
            },
            Command::Resume { re, player, since } => RoomCmd::Resume {
                re,
                player: player.into(),
                since,
                outbox,
                done,
            },
            other => {
                let cmd = match other {
                    Command::Leave { re, player } => RoomCmd::Leave {
                        re,
                        player: player.into(),
                        outbox,
                    },
                    Command::Ready { re, player } => RoomCmd::Ready {
                        re,
                        player: player.into(),
                        outbox,
                    },
                    Command::Act {
                        re,
                        player,
                        request,
                    } => RoomCmd::Act {
                        re,
                        player: player.into(),
                        request: Box::new(request),
                        outbox,
                    },
                    Command::Chat { re, player, text } => RoomCmd::Chat {
                        re,
                        player: player.into(),
                        text,
                        outbox,
                    },
                    Command::Rematch { re, player, accept } => RoomCmd::Rematch {
                        re,
                        player: player.into(),
                        accept,
                        outbox,
                    },
                    _ => RoomCmd::Detach { conn: outbox.id },
                };
                return (cmd, None);
            }
        };
        (cmd, Some(entered))
    }
}
