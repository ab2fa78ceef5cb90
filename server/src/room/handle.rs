//! How to reach a room's task: its handle, and the commands sessions send it, each answered
//! on the sender's outbox in order with the room's events.

use crate::outbox::Outbox;
use crate::player::{Player, PlayerId, RoomId};
use crate::protocol::{Refusal, ReplyTo};
use orion_protocol::Request;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// How to reach a live room's task.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    /// Room id.
    pub id: RoomId,
    /// Invite code of a private room.
    pub code: Option<Arc<str>>,
    /// The room's command queue (bounded: senders wait when the room is busy).
    pub tx: mpsc::Sender<RoomCmd>,
}

/// What a session asks of a room. Replies and errors go to the outbox in the command, in
/// order with the room's events.
#[derive(Debug)]
pub enum RoomCmd {
    /// Take a seat (or reattach to one's own).
    Join {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Player,
        /// The seat wanted, by name.
        seat: Option<String>,
        /// His connection.
        outbox: Outbox,
        /// Ready as he sits: his seat and `ready` stored in one append (a correspondence
        /// seek taking a waiting one).
        ready: bool,
        /// True once he is a member.
        done: oneshot::Sender<bool>,
    },
    /// Watch.
    Spectate {
        /// Request id.
        re: ReplyTo,
        /// Who watches.
        player: PlayerId,
        /// The watcher's connection.
        outbox: Outbox,
        /// True once he is a member.
        done: oneshot::Sender<bool>,
        /// Not counted among the watchers (the front door's live board).
        quiet: bool,
    },
    /// Give up a seat or stop watching.
    Leave {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Player,
        /// His connection.
        outbox: Outbox,
    },
    /// Ready to start.
    Ready {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Player,
        /// His connection.
        outbox: Outbox,
    },
    /// A game action.
    Act {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Player,
        /// The game request (`click`, `place`, `move` …), for the room's game system to read.
        /// (Boxed: every room's command queue is sized by its largest command.)
        request: Box<Request>,
        /// His connection.
        outbox: Outbox,
    },
    /// A chat line.
    Chat {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Player,
        /// The line (checked for length by the session).
        text: String,
        /// His connection.
        outbox: Outbox,
    },
    /// Catch up after a reconnect.
    Resume {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Player,
        /// Last seq seen.
        since: u64,
        /// His new connection.
        outbox: Outbox,
        /// True once he is a member.
        done: oneshot::Sender<bool>,
    },
    /// A finished room: offer, accept (or with `accept` false decline) a rematch.
    Rematch {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Player,
        /// Whether he wants it.
        accept: bool,
        /// His connection.
        outbox: Outbox,
    },
    /// A quick match with `bots` waited long enough: computer players of `level` fill its
    /// free seats, the room holding `game`, its place among the games with them.
    FillBots {
        /// Their level.
        level: orion_ai::Level,
        /// The place the session was given.
        game: crate::bots::BotGame,
    },
    /// A rematch's computer players, each moved to its seat in the new room (their levels
    /// as before), the room holding `game`, its place among the games with them.
    SeatBots {
        /// Each bot's seat and level.
        bots: Vec<(crate::system::Seat, orion_ai::Level)>,
        /// The place the finished room's rematch was given.
        game: crate::bots::BotGame,
    },
    /// What the asker's line in `mine` says of this room (`None`: he holds no seat here).
    Describe {
        /// Who asks.
        player: PlayerId,
        /// The line.
        done: oneshot::Sender<Option<orion_protocol::MyGame>>,
    },
    /// A connection went away.
    Detach {
        /// Its id.
        conn: u64,
    },
    /// A moderator closed the room (`close_room`): a game in progress ends aborted and
    /// unrated, a waiting room ends. Sent only by the node that runs the room.
    Close,
    /// On a cluster: another node holds the room's lease now. The room tells its members it
    /// has moved (`moved`) and ends here without storing anything more.
    Lost,
}

impl RoomCmd {
    /// Refuses the command with `refusal` on its sender's outbox (a member-making command
    /// also hears that nobody entered).
    pub fn refuse(self, refusal: &Refusal) {
        match self {
            RoomCmd::Join {
                re, outbox, done, ..
            }
            | RoomCmd::Spectate {
                re, outbox, done, ..
            }
            | RoomCmd::Resume {
                re, outbox, done, ..
            } => {
                outbox.refuse(&re, refusal);
                let _ = done.send(false);
            }
            RoomCmd::Leave { re, outbox, .. }
            | RoomCmd::Ready { re, outbox, .. }
            | RoomCmd::Act { re, outbox, .. }
            | RoomCmd::Chat { re, outbox, .. }
            | RoomCmd::Rematch { re, outbox, .. } => outbox.refuse(&re, refusal),
            RoomCmd::Describe { done, .. } => {
                let _ = done.send(None);
            }
            RoomCmd::Detach { .. }
            | RoomCmd::Close
            | RoomCmd::Lost
            | RoomCmd::FillBots { .. }
            | RoomCmd::SeatBots { .. } => {}
        }
    }
}
