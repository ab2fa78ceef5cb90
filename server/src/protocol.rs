//! What the server keeps of the wire beyond the `orion-protocol` crate (which types every
//! request, message and event): a refusal with its code, the bounds on identifiers, and the
//! frame a reply or an event is serialized into, once, for every recipient.

use orion_protocol::{Message, Reply, RequestId};
use std::fmt;

pub use orion_protocol::Code;

/// One serialized server message, shared by all its recipients.
pub type Frame = tokio_tungstenite::tungstenite::Utf8Bytes;

/// Longest room id, invite code, token or other identifier a client may send.
pub const MAX_ID: usize = 64;

/// A refused request: its code and words for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The protocol code.
    pub code: Code,
    /// What was wrong, in words.
    pub message: String,
    /// For a throttled `login`: ms until another try is considered (`retry_ms` on the wire).
    pub retry_ms: Option<u64>,
}

impl Refusal {
    /// A refusal with `code` and `message`.
    pub fn new(code: Code, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
            retry_ms: None,
        }
    }

    /// A `rate_limited` refusal that says how many ms to wait before trying again.
    pub fn wait(message: impl Into<String>, retry_ms: u64) -> Refusal {
        Refusal {
            code: Code::RateLimited,
            message: message.into(),
            retry_ms: Some(retry_ms),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

/// The `id` a request carried, echoed as `re` in the direct reply.
pub type ReplyTo = Option<RequestId>;

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

/// Builds a direct reply: `message`, with `re` when the request had an id.
pub fn reply(re: &ReplyTo, message: Message<'_>) -> Frame {
    Frame::from(Reply::new(message, re.clone()).to_json())
}

/// Builds an `error` frame.
pub fn error(re: &ReplyTo, refusal: &Refusal) -> Frame {
    reply(
        re,
        Message::Error {
            code: refusal.code,
            message: refusal.message.clone(),
            retry_ms: refusal.retry_ms,
        },
    )
}

/// Builds the unasked `moved` frame: `room` has moved to another node; resume it.
pub fn moved(room: &str) -> Frame {
    Frame::from(
        Reply::from(Message::Moved {
            room: room.to_owned(),
        })
        .to_json(),
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
        out.push_str(&serde_json::Value::String(room.to_owned()).to_string());
    }
    let _ = write!(out, ",\"seq\":{seq},\"ev\":");
    out.push_str(ev);
    out.push('}');
    Frame::from(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

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
