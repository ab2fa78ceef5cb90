//! The error codes of an `error` message (PROTOCOL.md, "Messages").

use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a request was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// `unqueue` from a connection waiting for no quick match (an addition: README).
    NotQueued,
    /// A moderator's request from someone who is not one (an addition: README).
    Forbidden,
    /// A banned player's `hello` or `login`, with the reason and the end (an addition: README).
    Banned,
    /// A muted player's chat, with the time left in `retry_ms` (an addition: README).
    Muted,
}

impl Code {
    /// Every code, for metrics.
    pub const ALL: [Code; 16] = [
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
        Code::NotQueued,
        Code::Forbidden,
        Code::Banned,
        Code::Muted,
    ];

    /// The code as sent on the wire.
    pub const fn as_str(self) -> &'static str {
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
            Code::NotQueued => "not_queued",
            Code::Forbidden => "forbidden",
            Code::Banned => "banned",
            Code::Muted => "muted",
        }
    }

    /// The code named `text` on the wire.
    pub fn parse(text: &str) -> Option<Code> {
        Code::ALL.into_iter().find(|c| c.as_str() == text)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
