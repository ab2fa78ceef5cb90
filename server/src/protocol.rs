//! The wire messages of PROTOCOL.md version 1: requests parsed from one JSON text frame, and
//! the frames the server sends back. Field names here are the contract; a frame is built
//! once as text (`Frame`) and shared by every recipient.

use serde::Deserialize;
use serde_json::{json, Value};
use std::fmt;

/// The protocol version this server speaks.
pub const VERSION: u64 = 1;

/// One serialized server message, shared by all its recipients.
pub type Frame = tokio_tungstenite::tungstenite::Utf8Bytes;

/// Longest room id, invite code, token or other identifier a client may send.
pub const MAX_ID: usize = 64;

/// The error codes of the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// The frame is not a JSON object.
    BadJson,
    /// A field is missing, of the wrong type or out of range.
    BadRequest,
    /// `t` names no request.
    UnknownType,
    /// `hello` with a version other than 1.
    Version,
    /// No such room, code, token or game.
    NotFound,
    /// The room or seat is taken.
    Full,
    /// Another seat is moving.
    NotYourTurn,
    /// The rules refuse the action.
    Illegal,
    /// The sender holds no seat in the room.
    NotAPlayer,
    /// The frame is over the size limit.
    TooBig,
    /// The sender is over the request rate.
    RateLimited,
    /// The server failed (the store, a full queue).
    Server,
}

impl Code {
    /// Every code, for metrics.
    pub const ALL: [Code; 12] = [
        Code::BadJson,
        Code::BadRequest,
        Code::UnknownType,
        Code::Version,
        Code::NotFound,
        Code::Full,
        Code::NotYourTurn,
        Code::Illegal,
        Code::NotAPlayer,
        Code::TooBig,
        Code::RateLimited,
        Code::Server,
    ];

    /// The code as sent on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::BadJson => "bad_json",
            Code::BadRequest => "bad_request",
            Code::UnknownType => "unknown_type",
            Code::Version => "version",
            Code::NotFound => "not_found",
            Code::Full => "full",
            Code::NotYourTurn => "not_your_turn",
            Code::Illegal => "illegal",
            Code::NotAPlayer => "not_a_player",
            Code::TooBig => "too_big",
            Code::RateLimited => "rate_limited",
            Code::Server => "server",
        }
    }
}

/// A refused request: its code and words for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The protocol code.
    pub code: Code,
    /// What was wrong, in words.
    pub message: String,
}

impl Refusal {
    /// A refusal with `code` and `message`.
    pub fn new(code: Code, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

/// The `id` a request carried, echoed as `re` in the direct reply.
pub type ReplyTo = Option<Value>;

/// A request as the client sent it, fields checked for type but not yet for meaning.
#[derive(Debug, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Request {
    /// Identify: a name, the protocol version, and a token from an earlier session.
    Hello {
        /// Display name.
        name: String,
        /// Must be 1.
        version: u64,
        /// The token of an earlier `welcome`, to get one's seats back.
        #[serde(default)]
        token: Option<String>,
    },
    /// List the public rooms; with `watch`, keep sending the list when it changes.
    Lobby {
        /// Keep the list coming.
        #[serde(default)]
        watch: bool,
        /// The page of rooms after this room id (the list is in id order and paged).
        #[serde(default)]
        after: Option<String>,
    },
    /// Open a room.
    Create {
        /// Game id or name.
        game: String,
        /// Room and game options.
        #[serde(default)]
        options: Option<Value>,
        /// Unlisted, joined by invite code.
        #[serde(default)]
        private: bool,
    },
    /// Take a seat in a room, by id or invite code.
    Join {
        /// Room id.
        #[serde(default)]
        room: Option<String>,
        /// Invite code of a private room.
        #[serde(default)]
        code: Option<String>,
        /// The seat wanted (`S`, `W`, `N`, `E`).
        #[serde(default)]
        seat: Option<String>,
    },
    /// Find a match.
    Quick {
        /// Game id or name.
        game: String,
        /// How many players.
        #[serde(default)]
        players: Option<u8>,
    },
    /// Watch a room.
    Spectate {
        /// Room id.
        room: String,
    },
    /// Give up one's seat or stop watching.
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
        #[serde(default)]
        piece: Option<String>,
    },
    /// Place a piece.
    Place {
        /// Room id.
        room: String,
        /// Where.
        slot: String,
        /// With all 20 on the board, the slot of the piece to move there.
        #[serde(default)]
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
    /// Algol's secret man (no game of this server uses it yet).
    Secret {
        /// Room id.
        room: String,
        /// The piece.
        piece: String,
    },
    /// Algol's challenge (no game of this server uses it yet).
    Challenge {
        /// Room id.
        room: String,
        /// The piece.
        piece: String,
    },
    /// A move of another game system (Orbit, Orbs): its move text.
    Move {
        /// Room id.
        room: String,
        /// The system's move text: `h8`, `pass`, `black` (Orbit); `d2-e6` (Orbs).
        #[serde(rename = "move")]
        mv: String,
    },
    /// Offer a draw, or with `accept` accept the one on offer (Orbs).
    Draw {
        /// Room id.
        room: String,
        /// Accept the standing offer rather than make one.
        #[serde(default)]
        accept: Option<bool>,
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
        /// Last `seq` seen.
        since: u64,
    },
    /// A game's stored events, for replay (an addition to the protocol, see the README).
    History {
        /// Room id.
        room: String,
        /// Only events after this `seq`.
        #[serde(default)]
        since: u64,
        /// The invite code: a private room's history is shown only with it.
        #[serde(default)]
        code: Option<String>,
    },
    /// Are you there?
    Ping,
}

impl Request {
    /// The room a room request names.
    pub fn room(&self) -> Option<&str> {
        match self {
            Request::Join { room, .. } => room.as_deref(),
            Request::Spectate { room }
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
            | Request::Move { room, .. }
            | Request::Draw { room, .. }
            | Request::Chat { room, .. }
            | Request::Resume { room, .. }
            | Request::History { room, .. } => Some(room),
            Request::Hello { .. }
            | Request::Lobby { .. }
            | Request::Create { .. }
            | Request::Quick { .. }
            | Request::Ping => None,
        }
    }

    /// Its type, `t`, as on the wire.
    pub fn name(&self) -> &'static str {
        match self {
            Request::Hello { .. } => "hello",
            Request::Lobby { .. } => "lobby",
            Request::Create { .. } => "create",
            Request::Join { .. } => "join",
            Request::Quick { .. } => "quick",
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
            Request::Move { .. } => "move",
            Request::Draw { .. } => "draw",
            Request::Chat { .. } => "chat",
            Request::Resume { .. } => "resume",
            Request::History { .. } => "history",
            Request::Ping => "ping",
        }
    }
}

/// Every request type, to tell an unknown `t` from a malformed known one.
const TYPES: &[&str] = &[
    "hello",
    "lobby",
    "create",
    "join",
    "quick",
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
    "move",
    "draw",
    "chat",
    "resume",
    "history",
    "ping",
];

/// Parses one text frame into its `id` and request. On failure the `id` is still returned
/// when it could be read, so the error can carry `re`.
pub fn parse(text: &str) -> Result<(ReplyTo, Request), (ReplyTo, Refusal)> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| (None, Refusal::new(Code::BadJson, format!("not JSON: {e}"))))?;
    let Value::Object(map) = value else {
        return Err((
            None,
            Refusal::new(Code::BadJson, "a request is a JSON object"),
        ));
    };
    let id = map.get("id").cloned();
    if let Some(bad) = id.as_ref().filter(|v| !(v.is_string() || v.is_number())) {
        let _ = bad;
        return Err((
            None,
            Refusal::new(Code::BadRequest, "id must be a string or a number"),
        ));
    }
    let t = match map.get("t") {
        Some(Value::String(t)) => t.clone(),
        Some(_) => return Err((id, Refusal::new(Code::BadRequest, "t must be a string"))),
        None => return Err((id, Refusal::new(Code::BadRequest, "missing field `t`"))),
    };
    if !TYPES.contains(&t.as_str()) {
        let shown: String = t.chars().take(MAX_ID).collect();
        return Err((
            id,
            Refusal::new(
                Code::UnknownType,
                format!("unknown request type \"{shown}\""),
            ),
        ));
    }
    match Request::deserialize(Value::Object(map)) {
        Ok(request) => Ok((id, request)),
        Err(e) => Err((id, Refusal::new(Code::BadRequest, format!("{t}: {e}")))),
    }
}

/// Reads just the `id` of a frame that will not be handled (over the rate limit), so its
/// error can still carry `re`.
pub fn peek_id(text: &str) -> ReplyTo {
    #[derive(Deserialize)]
    struct IdOnly {
        /// The request id, if any; every other field is skipped.
        #[serde(default)]
        id: Option<Value>,
    }
    serde_json::from_str::<IdOnly>(text)
        .ok()
        .and_then(|m| m.id)
        .filter(|v| v.is_string() || v.is_number())
}

/// Checks an identifier field (room id, invite code, token): non-empty and short.
pub fn check_id<'a>(what: &str, text: &'a str) -> Result<&'a str, Refusal> {
    let t = text.trim();
    if t.is_empty() || t.len() > MAX_ID {
        return Err(Refusal::new(
            Code::BadRequest,
            format!("{what} must be 1 to {MAX_ID} characters"),
        ));
    }
    Ok(t)
}

/// Builds a direct reply: `body` (an object with `t`) plus `re` when the request had an id.
pub fn reply(re: &ReplyTo, mut body: Value) -> Frame {
    if let (Some(re), Value::Object(map)) = (re, &mut body) {
        map.insert("re".into(), re.clone());
    }
    Frame::from(body.to_string())
}

/// Builds an `error` frame.
pub fn error(re: &ReplyTo, refusal: &Refusal) -> Frame {
    reply(
        re,
        json!({"t": "error", "code": refusal.code.as_str(), "message": refusal.message}),
    )
}

/// Builds an `event` frame around an already serialized `ev` object, in one allocation.
pub fn event_frame(room: &str, seq: u64, ev: &str) -> Frame {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(ev.len() + room.len() + 48);
    out.push_str("{\"t\":\"event\",\"room\":");
    if room
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        // The server's own room ids: nothing to escape.
        out.push('"');
        out.push_str(room);
        out.push('"');
    } else {
        out.push_str(&Value::String(room.to_owned()).to_string());
    }
    let _ = write!(out, ",\"seq\":{seq},\"ev\":");
    out.push_str(ev);
    out.push('}');
    Frame::from(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_tells_the_error_codes_apart() {
        assert_eq!(parse("{").unwrap_err().1.code, Code::BadJson);
        assert_eq!(parse("[1]").unwrap_err().1.code, Code::BadJson);
        assert_eq!(
            parse(r#"{"t":"dance"}"#).unwrap_err().1.code,
            Code::UnknownType
        );
        let (re, refusal) = parse(r#"{"t":"click","id":7,"room":"r"}"#).unwrap_err();
        assert_eq!(refusal.code, Code::BadRequest);
        assert_eq!(re, Some(json!(7)));
        assert!(matches!(
            parse(r#"{"t":"ping"}"#),
            Ok((None, Request::Ping))
        ));
    }

    #[test]
    fn event_frames_embed_the_serialized_event() {
        let f = event_frame("r1", 3, r#"{"kind":"left","seat":"S"}"#);
        let v: Value = serde_json::from_str(&f).unwrap();
        assert_eq!(v["seq"], 3);
        assert_eq!(v["room"], "r1");
        assert_eq!(v["ev"]["kind"], "left");
        let odd = event_frame("a \"b\"", 4, "{}");
        let v: Value = serde_json::from_str(&odd).unwrap();
        assert_eq!(v["room"], "a \"b\"");
    }
}
