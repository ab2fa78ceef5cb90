//! Requests, client to server: a JSON object tagged by `t`, with an optional `id` the server
//! echoes as `re` in its direct reply.

use crate::notice::PushSubscription;
use crate::room::RoomOptions;
use crate::seat::Seat;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Number;
use std::fmt;

/// The protocol version of this crate.
pub const VERSION: u64 = 1;

/// A request's `id`: any string or number, echoed as the reply's `re`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RequestId {
    /// A number, kept exactly as sent.
    Number(Number),
    /// A string.
    Text(String),
}

impl fmt::Display for RequestId {
    /// The id as JSON (a string in quotes).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::Text(t) => write!(f, "{}", serde_json::Value::String(t.clone())),
        }
    }
}

impl From<u64> for RequestId {
    fn from(n: u64) -> RequestId {
        RequestId::Number(n.into())
    }
}

impl From<&str> for RequestId {
    fn from(t: &str) -> RequestId {
        RequestId::Text(t.to_owned())
    }
}

impl Serialize for RequestId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            RequestId::Number(n) => n.serialize(serializer),
            RequestId::Text(t) => serializer.serialize_str(t),
        }
    }
}

impl<'de> Deserialize<'de> for RequestId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RequestId, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = RequestId;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a request id: a string or a number")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RequestId, E> {
                Ok(RequestId::Number(v.into()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RequestId, E> {
                Ok(RequestId::Number(v.into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<RequestId, E> {
                Number::from_f64(v)
                    .map(RequestId::Number)
                    .ok_or_else(|| E::invalid_value(de::Unexpected::Float(v), &self))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RequestId, E> {
                Ok(RequestId::Text(v.to_owned()))
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// A request with its `id`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// Echoed as `re` in the direct reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The request.
    #[serde(flatten)]
    pub request: Request,
}

/// A request, by its `t`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Request {
    /// Identify, with the token of an earlier session to get one's seats back.
    Hello {
        /// Display name.
        name: String,
        /// The protocol version: [`VERSION`].
        version: u64,
        /// The token of an earlier `welcome`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
    },
    /// List the public rooms.
    Lobby {
        /// Keep the list coming whenever it changes.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        watch: Option<bool>,
        /// The page after this room id (the list is in id order and paged).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        after: Option<String>,
    },
    /// Open a room.
    Create {
        /// Game (or puzzle) id.
        game: String,
        /// Room and game options; left out: the game's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        options: Option<RoomOptions>,
        /// Unlisted, joined by invite code.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        private: Option<bool>,
        /// The creator's seat; left out: the first in turn order (an addition: README).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// Take a seat, by room id or invite code.
    Join {
        /// Room id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        room: Option<String>,
        /// Invite code of a private room.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
        /// The seat wanted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// Find a match.
    Quick {
        /// Game id.
        game: String,
        /// How many players (2–4).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        players: Option<u8>,
        /// Computer players fill the seats no person has taken after the server's `bot_wait`
        /// (an addition: README).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bots: Option<bool>,
        /// A correspondence seek (an addition: README): the days each turn may take. It
        /// joins a waiting correspondence room of the same game, players and days if one is
        /// open, else opens one, listed in the lobby until someone takes it (`leave`
        /// withdraws it). Claimed names only.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        days_per_move: Option<u8>,
    },
    /// Stop waiting for a quick match (an addition: README); answered `unqueued`, or
    /// `not_queued` when the sender waits for none.
    Unqueue,
    /// Watch a room.
    Spectate {
        /// Room id.
        room: String,
        /// Watch without being counted among the room's watchers (the front door's live
        /// board, shown to every visitor: an addition, README).
        #[serde(default, skip_serializing_if = "crate::fields::is_false")]
        quiet: bool,
    },
    /// Give up one's seat, or stop watching.
    Leave {
        /// Room id.
        room: String,
    },
    /// Ready to start.
    Ready {
        /// Room id.
        room: String,
    },
    /// Turn a rotor.
    Click {
        /// Room id.
        room: String,
        /// `C4R` or `c+`.
        click: String,
        /// The piece being moved, named up front.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        piece: Option<String>,
    },
    /// Place a piece.
    Place {
        /// Room id.
        room: String,
        /// Where.
        slot: String,
        /// With all pieces on the board, the slot of the piece to move there.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<String>,
    },
    /// End the move.
    EndTurn {
        /// Room id.
        room: String,
    },
    /// Throw the die.
    Roll {
        /// Room id.
        room: String,
    },
    /// Take three clicks.
    Three {
        /// Room id.
        room: String,
    },
    /// Claim a chain.
    Claim {
        /// Room id.
        room: String,
    },
    /// Algol: choose the secret man.
    Secret {
        /// Room id.
        room: String,
        /// Piece token.
        piece: String,
    },
    /// Algol: challenge a suspect.
    Challenge {
        /// Room id.
        room: String,
        /// Piece token.
        piece: String,
    },
    /// Say something to the room.
    Chat {
        /// Room id.
        room: String,
        /// The line.
        text: String,
    },
    /// Catch up on a room after a reconnect.
    Resume {
        /// Room id.
        room: String,
        /// The last `seq` seen.
        since: u64,
    },
    /// A room's stored events, for replay.
    History {
        /// Room id.
        room: String,
        /// Only events after this `seq` (left out: from the start).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        since: Option<u64>,
        /// A private room's invite code: its history is shown only with it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
    },
    /// A move of another game system (Orbit, Orbs).
    Move {
        /// Room id.
        room: String,
        /// The system's move text (`h8`, `pass`, `black`; `d2-e6`).
        #[serde(rename = "move")]
        mv: String,
    },
    /// What the asker's page may highlight in a room now (reply: `hints`): where its seat
    /// may move, and what the game shows everyone (Orbit's territory). An addition.
    Hints {
        /// Room id.
        room: String,
    },
    /// Orbs: offer a draw, or accept one on offer.
    Draw {
        /// Room id.
        room: String,
        /// Accept the draw on offer.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        accept: Option<bool>,
    },
    /// Claim the name this connection said hello with, for good: from now on it is an
    /// account, reached from any device with `login` (reply: `welcome` with `account`).
    Register {
        /// The password (8 to 128 characters; kept only as an Argon2id hash).
        password: String,
    },
    /// Become a claimed account's player on this connection, instead of `hello` or in place
    /// of a guest who holds no room yet (reply: `welcome` with the account's token).
    Login {
        /// The account's name, in any case.
        name: String,
        /// Its password.
        password: String,
        /// The protocol version, as in `hello` (needed when `login` comes first).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        version: Option<u64>,
    },
    /// A game's ratings board, or a puzzle's fewest clicks, a page at a time.
    Leaderboard {
        /// Game or puzzle id.
        game: String,
        /// The page after this rank (left out: from the top).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        after: Option<u32>,
    },
    /// Revoke every token of this connection's account but the one it said hello with (or
    /// was given by `login`/`register`): other devices must log in again.
    LogoutAll,
    /// A player's finished games, newest first, a page at a time: by `player_id` or by
    /// `player_name` (exactly one; `player`, the older field, is read as an id when it has
    /// an id's form and as a name otherwise).
    Games {
        /// The player id of `welcome`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player_id: Option<String>,
        /// The name a seat showed in the game.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player_name: Option<String>,
        /// Older clients' field: an id if it has an id's form, else a name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
        /// Only games of this game id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<String>,
        /// The page after this room id (the last of the page before).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        before: Option<String>,
    },
    /// A finished game's record as plain text (as `/g/ROOM.txt` serves it).
    Export {
        /// Room id.
        room: String,
        /// A private room's invite code.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
    },
    /// In a finished room: offer or accept a rematch (or decline one with `accept: false`).
    Rematch {
        /// Room id.
        room: String,
        /// `false` declines; left out: accept.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        accept: Option<bool>,
    },
    /// A seated player of a waiting room seats a computer player (reply: `bot_added`; an
    /// addition: README).
    AddBot {
        /// Room id.
        room: String,
        /// Its level, 1 (random) to 8 (strongest); left out: 4.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<u8>,
        /// The seat; left out: the first free one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// A seated player of a waiting room takes a computer player out of its seat (reply:
    /// `bot_removed`; an addition: README).
    RemoveBot {
        /// Room id.
        room: String,
        /// The computer player's seat.
        seat: Seat,
    },
    /// Are you there?
    Ping,
    /// Stop watching a room on this connection only (a seat held there is kept; an addition:
    /// README). Answered `unspectated`, whether or not it was watching.
    Unspectate {
        /// Room id.
        room: String,
    },
    /// A puzzle room's solver takes back his last click that stands (an addition: README);
    /// the position and the count of clicks go back with it (event: `undo`).
    Undo {
        /// Room id.
        room: String,
    },
    /// A puzzle room's solver asks for the next click of an optimal line from where he is
    /// (an addition: README; event: `hint`). A solve that used one says so in its result and
    /// enters no leaderboard.
    Hint {
        /// Room id.
        room: String,
    },
    /// Every game where the asker holds a seat, live or by correspondence, his turn first
    /// (an addition: README; reply: `mine`).
    Mine,
    /// A turn planned before it is sent (an addition: README; reply: `planned`): the room
    /// applies `actions` (click, place or move requests, in order) as the asker's to a copy
    /// of its position, stores nothing and changes nothing, and answers the position they
    /// lead to, or the first the rules refuse and why.
    Plan {
        /// Room id.
        room: String,
        /// The actions, each a request object (its `room` may be left out).
        actions: Vec<serde_json::Value>,
    },
    /// An account subscribes this browser to Web Push (an addition: README; reply:
    /// `push_subscribed`).
    PushSubscribe {
        /// The browser's `PushSubscription.toJSON()`.
        subscription: PushSubscription,
    },
    /// An account drops a browser's Web Push subscription (reply: `push_unsubscribed`).
    PushUnsubscribe {
        /// The subscription's endpoint.
        endpoint: String,
    },
    /// An account sets what it is told and how: each field given is set, the others kept
    /// (reply: `notify_settings`, all of them; none given: only asks).
    NotifySettings {
        /// Told when it becomes his turn.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        your_turn: Option<bool>,
        /// Told a day before a move is due.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deadline: Option<bool>,
        /// Told when a game ends.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        over: Option<bool>,
        /// By e-mail.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        email: Option<bool>,
        /// By Web Push.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        push: Option<bool>,
    },
    /// An account gives the e-mail address it is told at: kept unconfirmed, and a
    /// confirmation link is mailed to it (reply: `email_sent`).
    Email {
        /// The address.
        address: String,
    },
    /// Report a player to the moderators (an addition: README; reply: `ok` with the report's
    /// `id`). Bounded per reporter per hour.
    Report {
        /// The player id (or an account's name).
        player: String,
        /// The room the report is about, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        room: Option<String>,
        /// What he did.
        reason: String,
    },
    /// A moderator: the open reports, oldest first, a page at a time (reply: `reports`).
    Reports {
        /// The page after this report id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        after: Option<u64>,
    },
    /// A moderator closes a report (reply: `ok`). (`report`, not `id`: a request's `id` is
    /// the envelope's.)
    ResolveReport {
        /// The report's id.
        report: u64,
        /// Why, for the audit log.
        reason: String,
    },
    /// A moderator mutes a player's chat for `minutes` (0 lifts a mute; reply: `ok`).
    Mute {
        /// The player id (or an account's name).
        player: String,
        /// For how long.
        minutes: u32,
        /// Why, for the audit log.
        reason: String,
    },
    /// A moderator closes every connection of a player, on every node (reply: `ok`).
    Kick {
        /// The player id (or an account's name).
        player: String,
        /// Why, for the audit log.
        reason: String,
    },
    /// A moderator bans a player for `days` (left out: for good; reply: `ok`).
    Ban {
        /// The player id (or an account's name).
        player: String,
        /// For how long.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        days: Option<u32>,
        /// Why: shown to him, and kept in the audit log.
        reason: String,
    },
    /// A moderator lifts a ban (reply: `ok`).
    Unban {
        /// The player id (or an account's name).
        player: String,
        /// Why, for the audit log.
        reason: String,
    },
    /// A moderator ends a room: its game aborted, unrated (reply: `ok`).
    CloseRoom {
        /// Room id.
        room: String,
        /// Why, for the audit log.
        reason: String,
    },
    /// A moderator deletes one chat line of a room, for everyone and from its history (reply:
    /// `ok`; members get `chat_deleted`).
    DeleteChat {
        /// Room id.
        room: String,
        /// The chat event's `seq`.
        seq: u64,
        /// Why, for the audit log.
        reason: String,
    },
    /// A moderator reads the audit log, newest first, a page at a time (reply: `audit`).
    Audit {
        /// The page before this entry id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        before: Option<u64>,
    },
    /// An administrator (`--admin`) makes an account a moderator (reply: `ok`).
    Promote {
        /// The account's player id or name.
        player: String,
        /// Why, for the audit log.
        reason: String,
    },
    /// An administrator makes a moderator an ordinary account again (reply: `ok`).
    Demote {
        /// The account's player id or name.
        player: String,
        /// Why, for the audit log.
        reason: String,
    },
    /// An account stops hearing a player: his chat no longer reaches it (reply: `blocks`).
    Block {
        /// The player id (or an account's name).
        player: String,
    },
    /// An account hears a player again (reply: `blocks`).
    Unblock {
        /// The player id.
        player: String,
    },
    /// The players this account blocks (reply: `blocks`).
    Blocks,
}

impl Request {
    /// Every request type, to tell an unknown `t` from a malformed known one.
    pub const TYPES: [&'static str; 57] = [
        "hello",
        "lobby",
        "create",
        "join",
        "quick",
        "unqueue",
        "spectate",
        "leave",
        "ready",
        "click",
        "place",
        "end_turn",
        "roll",
        "three",
        "claim",
        "secret",
        "challenge",
        "chat",
        "resume",
        "history",
        "move",
        "draw",
        "register",
        "login",
        "logout_all",
        "leaderboard",
        "games",
        "export",
        "rematch",
        "hints",
        "add_bot",
        "remove_bot",
        "ping",
        "undo",
        "hint",
        "unspectate",
        "mine",
        "push_subscribe",
        "push_unsubscribe",
        "notify_settings",
        "email",
        "report",
        "reports",
        "resolve_report",
        "mute",
        "kick",
        "ban",
        "unban",
        "close_room",
        "delete_chat",
        "audit",
        "promote",
        "demote",
        "block",
        "unblock",
        "blocks",
        "plan",
    ];

    /// The request's `t` on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            Request::Hello { .. } => "hello",
            Request::Lobby { .. } => "lobby",
            Request::Create { .. } => "create",
            Request::Join { .. } => "join",
            Request::Quick { .. } => "quick",
            Request::Unqueue => "unqueue",
            Request::Spectate { .. } => "spectate",
            Request::Leave { .. } => "leave",
            Request::Ready { .. } => "ready",
            Request::Click { .. } => "click",
            Request::Place { .. } => "place",
            Request::EndTurn { .. } => "end_turn",
            Request::Roll { .. } => "roll",
            Request::Three { .. } => "three",
            Request::Claim { .. } => "claim",
            Request::Secret { .. } => "secret",
            Request::Challenge { .. } => "challenge",
            Request::Chat { .. } => "chat",
            Request::Resume { .. } => "resume",
            Request::History { .. } => "history",
            Request::Move { .. } => "move",
            Request::Draw { .. } => "draw",
            Request::Hints { .. } => "hints",
            Request::Register { .. } => "register",
            Request::Login { .. } => "login",
            Request::LogoutAll => "logout_all",
            Request::Leaderboard { .. } => "leaderboard",
            Request::Games { .. } => "games",
            Request::Export { .. } => "export",
            Request::Rematch { .. } => "rematch",
            Request::AddBot { .. } => "add_bot",
            Request::RemoveBot { .. } => "remove_bot",
            Request::Ping => "ping",
            Request::Undo { .. } => "undo",
            Request::Hint { .. } => "hint",
            Request::Unspectate { .. } => "unspectate",
            Request::Mine => "mine",
            Request::Plan { .. } => "plan",
            Request::PushSubscribe { .. } => "push_subscribe",
            Request::PushUnsubscribe { .. } => "push_unsubscribe",
            Request::NotifySettings { .. } => "notify_settings",
            Request::Email { .. } => "email",
            Request::Report { .. } => "report",
            Request::Reports { .. } => "reports",
            Request::ResolveReport { .. } => "resolve_report",
            Request::Mute { .. } => "mute",
            Request::Kick { .. } => "kick",
            Request::Ban { .. } => "ban",
            Request::Unban { .. } => "unban",
            Request::CloseRoom { .. } => "close_room",
            Request::DeleteChat { .. } => "delete_chat",
            Request::Audit { .. } => "audit",
            Request::Promote { .. } => "promote",
            Request::Demote { .. } => "demote",
            Request::Block { .. } => "block",
            Request::Unblock { .. } => "unblock",
            Request::Blocks => "blocks",
        }
    }

    /// The request as JSON text, without an id.
    pub fn to_json(&self) -> String {
        // Strings, numbers and string-keyed maps only: serializing cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The room the request is about, if any.
    pub fn room(&self) -> Option<&str> {
        match self {
            Request::Hello { .. }
            | Request::Lobby { .. }
            | Request::Create { .. }
            | Request::Quick { .. }
            | Request::Unqueue
            | Request::Register { .. }
            | Request::Login { .. }
            | Request::LogoutAll
            | Request::Leaderboard { .. }
            | Request::Games { .. }
            | Request::Mine
            | Request::PushSubscribe { .. }
            | Request::PushUnsubscribe { .. }
            | Request::NotifySettings { .. }
            | Request::Email { .. }
            | Request::Report { .. }
            | Request::Reports { .. }
            | Request::ResolveReport { .. }
            | Request::Mute { .. }
            | Request::Kick { .. }
            | Request::Ban { .. }
            | Request::Unban { .. }
            | Request::Audit { .. }
            | Request::Promote { .. }
            | Request::Demote { .. }
            | Request::Block { .. }
            | Request::Unblock { .. }
            | Request::Blocks
            | Request::Ping => None,
            Request::Join { room, .. } => room.as_deref(),
            Request::Spectate { room, .. }
            | Request::Unspectate { room }
            | Request::Leave { room }
            | Request::Ready { room }
            | Request::Click { room, .. }
            | Request::Place { room, .. }
            | Request::EndTurn { room }
            | Request::Roll { room }
            | Request::Three { room }
            | Request::Claim { room }
            | Request::Secret { room, .. }
            | Request::Challenge { room, .. }
            | Request::Chat { room, .. }
            | Request::Resume { room, .. }
            | Request::History { room, .. }
            | Request::Move { room, .. }
            | Request::Draw { room, .. }
            | Request::Hints { room }
            | Request::Export { room, .. }
            | Request::Rematch { room, .. }
            | Request::AddBot { room, .. }
            | Request::RemoveBot { room, .. }
            | Request::Undo { room }
            | Request::Hint { room }
            | Request::CloseRoom { room, .. }
            | Request::DeleteChat { room, .. }
            | Request::Plan { room, .. } => Some(room),
        }
    }
}
