//! Messages, server to client: a JSON object tagged by `t`. A direct reply to a request that
//! carried an `id` also carries `re`; events never do.

use crate::code::Code;
use crate::event::{Event, Text};
use crate::fields;
use crate::moderation::{AuditEntry, BlockedPlayer, ReportEntry};
use crate::notice::{NoticeKind, NotifySettings};
use crate::request::RequestId;
use crate::room::{Millis, RoomSummary, Snapshot, Status};
use crate::seat::Seat;
use crate::standing::LeaderEntry;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A message with the `re` of the request it answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reply<'a> {
    /// The message.
    #[serde(flatten)]
    pub message: Message<'a>,
    /// The `id` of the request this answers directly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub re: Option<RequestId>,
}

impl<'a> Reply<'a> {
    /// `message`, answering the request `re` (if it had an id).
    pub fn new(message: Message<'a>, re: Option<RequestId>) -> Reply<'a> {
        Reply { message, re }
    }

    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        // Strings, numbers, booleans and string-keyed maps only: serializing cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl<'a> From<Message<'a>> for Reply<'a> {
    fn from(message: Message<'a>) -> Reply<'a> {
        Reply { message, re: None }
    }
}

/// Players waiting for a quick match of one game with one number of players, in `lobby`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiting {
    /// The game id (`hydra-2`).
    pub game: String,
    /// For how many players.
    pub players: u8,
    /// How many wait.
    pub count: u32,
}

/// A message, by its `t`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Message<'a> {
    /// Reply to `hello`.
    Welcome {
        /// Player id.
        player: String,
        /// The name as the server keeps it.
        name: String,
        /// The token to reconnect with.
        token: String,
        /// Rooms where this player holds a seat.
        rooms: Vec<String>,
        /// The name is a claimed account's (after `register` or `login`, or `hello` with an
        /// account's token); absent for a guest.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        account: Option<bool>,
        /// The server's VAPID public key (base64url, uncompressed P-256), for
        /// `pushManager.subscribe` (an addition: README); sent to accounts only.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        vapid_key: Option<String>,
        /// The account is a moderator (an addition: README); absent otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        moderator: Option<bool>,
    },
    /// A page of the public rooms.
    Lobby {
        /// The rooms, in id order.
        rooms: Vec<RoomSummary>,
        /// More rooms follow: ask again with `after` set to the last room shown.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        more: Option<bool>,
        /// How many rooms are listed in all.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        total: Option<u32>,
        /// Who waits for a quick match, per game and player count (an addition: README);
        /// absent when nobody waits.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        waiting: Option<Vec<Waiting>>,
    },
    /// A seat was taken.
    Joined {
        /// Room id.
        room: String,
        /// The seat.
        seat: Seat,
        /// A private room's invite code.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
    },
    /// Waiting for a quick match.
    Queued {
        /// The game.
        game: String,
        /// For how many players.
        players: u8,
    },
    /// No longer waiting for a quick match (answers `unqueue`; an addition: README).
    Unqueued,
    /// How many watch a room now, sent to its members as it changes (not an event: it is not
    /// stored and has no `seq`; an addition: README).
    Spectators {
        /// Room id.
        room: String,
        /// How many watch.
        count: u32,
    },
    /// No longer watching a room (answers `unspectate`; an addition: README).
    Unspectated {
        /// Room id.
        room: String,
    },
    /// Left a room.
    Left {
        /// Room id.
        room: String,
    },
    /// A computer player took a seat (answers `add_bot`; an addition: README).
    BotAdded {
        /// Room id.
        room: String,
        /// Its seat.
        seat: Seat,
        /// Its level.
        level: u8,
    },
    /// A computer player gave up its seat (answers `remove_bot`; an addition: README).
    BotRemoved {
        /// Room id.
        room: String,
        /// The seat, free again.
        seat: Seat,
    },
    /// A room's whole state.
    Snapshot(Box<Snapshot>),
    /// One event of a room.
    Event {
        /// Room id.
        room: Text<'a>,
        /// Its number in the room, from 1, one more each time.
        seq: u64,
        /// The event.
        ev: Event<'a>,
    },
    /// A page of a room's stored events.
    History {
        /// Room id.
        room: String,
        /// Game id.
        game: String,
        /// Where the room is in its life.
        status: Status,
        /// The events, in order.
        events: Vec<Logged<'a>>,
        /// More follow: ask again with `since` set to the last `seq`.
        more: bool,
    },
    /// A page of a leaderboard.
    Leaderboard {
        /// Game or puzzle id.
        game: String,
        /// The lines, best first.
        entries: Vec<LeaderEntry>,
        /// More follow: ask again with `after` set to the last rank shown.
        more: bool,
        /// How many are on the board in all.
        total: u32,
        /// The asker's own line, wherever it is (absent: he is not on this board).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        you: Option<LeaderEntry>,
        /// A puzzle: the booklet's click count (`null`: the booklet gives none).
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "fields::tristate"
        )]
        target: Option<Option<u32>>,
        /// A puzzle: the proven fewest clicks from its start (`null`: rooms deal their start,
        /// so no one count applies).
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "fields::tristate"
        )]
        optimum: Option<Option<u32>>,
    },
    /// A page of a player's finished games (reply to `games`).
    Games {
        /// The player asked about.
        player: String,
        /// The games, newest first.
        games: Vec<ArchivedGame>,
        /// More follow: ask again with `before` set to the last room shown.
        more: bool,
    },
    /// A finished game's record (reply to `export`): the text of `/g/ROOM.txt`.
    Export {
        /// Room id.
        room: String,
        /// The record (see `orion_protocol::GameRecord`).
        text: String,
    },
    /// Reply to `hints`: named sets the asker's page may highlight, computed by the engine
    /// (ORION: `place`, `from`, `turn`; Orbit: `drop`, `territory_B`, `territory_W`; Orbs:
    /// `move`). An addition.
    Hints {
        /// Room id.
        room: String,
        /// The last event they are for.
        seq: u64,
        /// Each set by name: slots, cells, rotors or move texts.
        hints: BTreeMap<String, Vec<String>>,
    },
    /// A refusal.
    Error {
        /// Why.
        code: Code,
        /// What was wrong, in words.
        message: String,
        /// `rate_limited` by the password throttle: milliseconds until another try is
        /// considered.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_ms: Option<u64>,
    },
    /// Reply to `logout_all`: the account's other tokens are revoked.
    LoggedOut {
        /// How many tokens were revoked (other devices, and older logins of this one).
        revoked: u64,
    },
    /// Reply to `ping`.
    Pong,
    /// Unasked (an addition: README): something happened in one of this account's games.
    /// It says which room and what, never a move or a hidden choice.
    Notify {
        /// What happened.
        kind: NoticeKind,
        /// The room.
        room: String,
        /// Its game id.
        game: String,
        /// The notice in words ("Your turn in room r12 (hydra-2) against bob").
        text: String,
        /// The room's page.
        url: String,
    },
    /// Reply to `push_subscribe`: the browser is subscribed.
    PushSubscribed {
        /// The subscription's endpoint.
        endpoint: String,
    },
    /// Reply to `push_unsubscribe`.
    PushUnsubscribed {
        /// The endpoint.
        endpoint: String,
        /// Whether it was subscribed.
        removed: bool,
    },
    /// Reply to `notify_settings`: what the account is told and how, now.
    NotifySettings(NotifySettings),
    /// Reply to `email`: a confirmation link went to the address.
    EmailSent {
        /// The address, unconfirmed until its link is followed.
        address: String,
    },
    /// Unasked: the room has moved to another server node (its old one lost it: a pause, a
    /// cut from the database, a crash). The client sends `resume` for it at once, from the
    /// last `seq` it has (a spectator too); if that is refused with `server`, again shortly.
    Moved {
        /// The room.
        room: String,
    },
    /// The answer to `mine`: the asker's games, those where it is his turn first, each kind
    /// by the nearest deadline (an addition: README).
    Mine {
        /// The games.
        games: Vec<MyGame>,
    },
    /// A moderation request was carried out (an addition: README).
    Ok {
        /// The request it answers (`report`, `mute`, `ban` …).
        done: String,
        /// For `report`: the new report's id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        report: Option<u64>,
    },
    /// The answer to `reports`: open reports, oldest first.
    Reports {
        /// The reports.
        reports: Vec<ReportEntry>,
        /// More follow: ask again with `after` set to the last id.
        more: bool,
    },
    /// The answer to `audit`: moderators' actions, newest first.
    Audit {
        /// The entries.
        entries: Vec<AuditEntry>,
        /// More follow: ask again with `before` set to the last id.
        more: bool,
    },
    /// The answer to `block`, `unblock` and `blocks`: every player the account blocks.
    Blocks {
        /// The players.
        players: Vec<BlockedPlayer>,
    },
    /// Unasked: a moderator deleted a chat line of a room the client is in; it shows it no
    /// more (the room's history no longer holds its text either).
    ChatDeleted {
        /// Room id.
        room: String,
        /// The chat event's `seq`.
        seq: u64,
    },
    /// The answer to `plan` (an addition: README): where the planned actions lead. Nothing
    /// was stored or sent to anyone else.
    Planned {
        /// Room id.
        room: String,
        /// The room's last event the plan starts from.
        seq: u64,
        /// How many of the actions the rules took, from the first.
        taken: u32,
        /// The first action refused, when one was: its index (from 0) and why.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refused: Option<PlanRefused>,
        /// Whether the taken actions end the turn (then the next turn's allowance is not
        /// shown: `snapshot.turn` is still the planner's).
        ends_turn: bool,
        /// The room as it would be after the taken actions, seen from the asker's seat.
        snapshot: Box<Snapshot>,
        /// What the asker's page may highlight from there (as `hints`'), while his turn lasts.
        hints: BTreeMap<String, Vec<String>>,
    },
}

/// The first action of a `plan` the room refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanRefused {
    /// Its index in `actions`, from 0.
    pub index: u32,
    /// Why, as an `error`'s code.
    pub code: Code,
    /// Why, in words.
    pub message: String,
}

impl Message<'_> {
    /// The message's `t` on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            Message::Welcome { .. } => "welcome",
            Message::Hints { .. } => "hints",
            Message::Lobby { .. } => "lobby",
            Message::Joined { .. } => "joined",
            Message::Queued { .. } => "queued",
            Message::Unqueued => "unqueued",
            Message::Spectators { .. } => "spectators",
            Message::Left { .. } => "left",
            Message::BotAdded { .. } => "bot_added",
            Message::BotRemoved { .. } => "bot_removed",
            Message::Unspectated { .. } => "unspectated",
            Message::Snapshot(_) => "snapshot",
            Message::Event { .. } => "event",
            Message::History { .. } => "history",
            Message::Leaderboard { .. } => "leaderboard",
            Message::Games { .. } => "games",
            Message::Export { .. } => "export",
            Message::Error { .. } => "error",
            Message::LoggedOut { .. } => "logged_out",
            Message::Pong => "pong",
            Message::Notify { .. } => "notify",
            Message::PushSubscribed { .. } => "push_subscribed",
            Message::PushUnsubscribed { .. } => "push_unsubscribed",
            Message::NotifySettings(_) => "notify_settings",
            Message::EmailSent { .. } => "email_sent",
            Message::Moved { .. } => "moved",
            Message::Mine { .. } => "mine",
            Message::Ok { .. } => "ok",
            Message::Reports { .. } => "reports",
            Message::Audit { .. } => "audit",
            Message::Blocks { .. } => "blocks",
            Message::ChatDeleted { .. } => "chat_deleted",
            Message::Planned { .. } => "planned",
        }
    }
}

/// One game in a `mine` reply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MyGame {
    /// Room id.
    pub room: String,
    /// Game id.
    pub game: String,
    /// `waiting` or `playing`.
    pub status: Status,
    /// The asker's seat.
    pub seat: Seat,
    /// Whether the asker is to move.
    pub your_turn: bool,
    /// Who sits where, by seat (`null`: free).
    pub seats: BTreeMap<Seat, Option<String>>,
    /// A correspondence room's days per move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days_per_move: Option<u8>,
    /// When the mover's time runs out (correspondence rooms), ms since the epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<Millis>,
    /// When the last move was made (the turn now being played began), ms since the epoch;
    /// absent before the first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_move: Option<Millis>,
}

/// One stored event in a `history` message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Logged<'a> {
    /// Its number in the room.
    pub seq: u64,
    /// The event.
    pub ev: Event<'a>,
}

/// One finished game in a `games` reply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchivedGame {
    /// Room id (its record is `/g/ROOM.txt`).
    pub room: String,
    /// Game id.
    pub game: String,
    /// When it ended (ms since the Unix epoch).
    pub ended: u64,
    /// Who sat where when it ended, by seat.
    pub seats: BTreeMap<Seat, String>,
    /// The winning seat or team (`S`, `S+N`); `null`: nobody.
    #[serde(deserialize_with = "crate::fields::required")]
    pub winner: Option<String>,
}
