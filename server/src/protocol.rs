//! The wire messages of PROTOCOL.md version 1: requests parsed from one JSON text frame, and
//! the frames the server sends back. Field names here are the contract; a frame is built
//! once as text (`Frame`) and shared by every recipient.

use orion_engine::{
    position_string, Click, Colour, Event, Millis, Outcome, Piece, Position, PuzzleProgress, Seat,
    Slot, SlotSet, Winner,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
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

    /// The code for an engine refusal code (`ActionError::code`).
    pub fn from_engine(code: &str) -> Code {
        match code {
            "not_your_turn" => Code::NotYourTurn,
            "not_a_player" => Code::NotAPlayer,
            _ => Code::Illegal,
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

/// A seat as sent on the wire.
pub fn seat(seat: Seat) -> Value {
    Value::String(seat.to_string())
}

/// A colour as sent on the wire: its letter, as in position strings.
pub fn colour(colour: Colour) -> Value {
    Value::String(colour.letter().to_string())
}

/// A position as its position string.
pub fn position(position: &Position) -> Value {
    Value::String(position_string(position))
}

/// The `result` object of an `over` event or a snapshot; with Algol's secrets revealed so
/// anyone can check them against the commitments.
pub fn result(outcome: &Outcome) -> Value {
    let mut v = result_of(outcome.winner, &outcome.scores);
    if !outcome.reveals.is_empty() {
        v["reveals"] = Value::Array(
            outcome
                .reveals
                .iter()
                .map(|r| {
                    json!({"seat": seat(r.seat), "piece": r.piece.to_string(),
                           "salt": r.salt, "commitment": r.commitment})
                })
                .collect(),
        );
    }
    v
}

/// The `result` object for a result the server decides (time, abandonment).
pub fn result_of(winner: Option<Winner>, scores: &[(Seat, u32)]) -> Value {
    let outcome_scores = scores;
    let winner = match winner {
        None => Value::Null,
        Some(Winner::Seat(s)) => seat(s),
        Some(w @ Winner::Team(..)) => Value::String(w.to_string()),
    };
    let mut scores = Map::new();
    for (s, points) in outcome_scores {
        scores.insert(s.to_string(), json!(points));
    }
    json!({"winner": winner, "scores": scores})
}

/// Adds a puzzle's progress to a `turn` object: `used` becomes the clicks made so far (the
/// whole puzzle is one move with no clicks limit, so `clicks` stays null) and `target` is the
/// booklet's count (Aquarius: tries made, of five).
pub fn puzzle_turn(turn: &mut Value, progress: &PuzzleProgress) {
    turn["used"] = json!(progress.clicks);
    turn["target"] = json!(progress.target);
}

/// The `ev` object of an engine event, serialized straight from the event: it is made for
/// every click, so it skips the `Value` tree (and its sorted map) the other frames use.
pub fn engine_event(event: &Event) -> String {
    let wire = match event {
        Event::Click {
            seat,
            click,
            position,
        } => Wire::Click {
            seat: seat.letter(),
            click: Shown(click),
            position: position_string(position),
        },
        Event::Place {
            seat,
            slot,
            piece,
            from,
            position,
        } => Wire::Place {
            seat: seat.letter(),
            slot: slot.name(),
            piece: Shown(piece),
            from: from.map(Slot::name),
            position: position_string(position),
        },
        Event::Eligible { slots } => Wire::Eligible {
            slots: names(*slots),
        },
        Event::Roll { seat, value } => Wire::Roll {
            seat: seat.letter(),
            value: *value,
        },
        Event::Turn {
            seat,
            clicks,
            round,
        } => Wire::Turn {
            seat: seat.letter(),
            clicks: *clicks,
            round: *round,
        },
        Event::Chain {
            colour,
            claim_until,
        } => Wire::Chain {
            colour: colour.letter(),
            claim_until: *claim_until,
        },
        Event::Claim { seat, ok } => Wire::Claim {
            seat: seat.letter(),
            ok: *ok,
        },
        Event::Capture {
            seat,
            slots,
            points,
            position,
        } => Wire::Capture {
            seat: seat.letter(),
            slots: names(*slots),
            points: *points,
            position: position_string(position),
        },
        Event::Over { outcome } => Wire::Over {
            result: result(outcome),
        },
        // Only the commitment is public; the piece stays with the engine and its owner.
        Event::Secret { seat, commitment } => Wire::Secret {
            seat: seat.letter(),
            commitment,
        },
        Event::Challenge {
            seat,
            piece,
            hit,
            removed,
            position,
        } => Wire::Challenge {
            seat: seat.letter(),
            piece: Shown(piece),
            hit: *hit,
            removed: names(*removed),
            position: position_string(position),
        },
        Event::Try {
            seat,
            click,
            hit,
            chain,
            tries,
            hits,
        } => Wire::Try {
            seat: seat.letter(),
            click: Shown(click),
            hit: *hit,
            chain: names(*chain),
            tries: *tries,
            hits: *hits,
        },
    };
    // Strings, numbers and a `Value`: nothing here can fail to serialize.
    serde_json::to_string(&wire).unwrap_or_default()
}

/// An engine event as it goes on the wire (PROTOCOL.md, "Events").
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Wire<'a> {
    Click {
        seat: char,
        click: Shown<'a, Click>,
        position: String,
    },
    Place {
        seat: char,
        slot: &'static str,
        piece: Shown<'a, Piece>,
        from: Option<&'static str>,
        position: String,
    },
    Eligible {
        slots: Vec<&'static str>,
    },
    Roll {
        seat: char,
        value: u8,
    },
    Turn {
        seat: char,
        clicks: Option<u8>,
        round: u32,
    },
    Chain {
        colour: char,
        claim_until: Option<Millis>,
    },
    Claim {
        seat: char,
        ok: bool,
    },
    Capture {
        seat: char,
        slots: Vec<&'static str>,
        points: u32,
        position: String,
    },
    Over {
        result: Value,
    },
    Secret {
        seat: char,
        commitment: &'a str,
    },
    Challenge {
        seat: char,
        piece: Shown<'a, Piece>,
        hit: bool,
        removed: Vec<&'static str>,
        position: String,
    },
    Try {
        seat: char,
        click: Shown<'a, Click>,
        hit: bool,
        chain: Vec<&'static str>,
        tries: u8,
        hits: u8,
    },
}

/// A value serialized as the string its `Display` prints.
struct Shown<'a, T>(&'a T);

impl<T: fmt::Display> Serialize for Shown<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self.0)
    }
}

/// A slot set as canonical slot names.
fn names(set: SlotSet) -> Vec<&'static str> {
    set.into_iter().map(Slot::name).collect()
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
    fn engine_events_keep_their_wire_fields() {
        use orion_engine::{games, Action, Game, Options};
        let mut game = Game::new(games::find("hydra-2").unwrap(), Options::default(), 1).unwrap();
        let mover = game.mover();
        let click = orion_engine::Click::ALL
            .into_iter()
            .find(|&c| game.check_click(mover, c).is_ok())
            .unwrap();
        let events = game
            .step(mover, Action::Click { click, piece: None }, 0)
            .unwrap();
        let texts: Vec<Value> = events
            .iter()
            .map(|e| serde_json::from_str(&engine_event(e)).unwrap())
            .collect();
        let Event::Click { position, .. } = &events[0] else {
            panic!("first event {:?}", events[0]);
        };
        assert_eq!(
            texts[0],
            json!({"kind": "click", "seat": mover.to_string(), "click": click.to_string(),
                   "position": position_string(position)})
        );
        assert!(texts[0]["position"].as_str().unwrap().contains(':'));
        let captured = Event::Capture {
            seat: mover,
            slots: [
                orion_engine::parse_slot("C2n").unwrap(),
                orion_engine::parse_slot("A1w").unwrap(),
            ]
            .into_iter()
            .collect(),
            points: 4,
            position: *position,
        };
        let v: Value = serde_json::from_str(&engine_event(&captured)).unwrap();
        assert_eq!(v["kind"], "capture");
        assert_eq!(v["slots"], json!(["C2n", "A1w"]));
        assert_eq!(v["points"], 4);
        let turn = Event::Turn {
            seat: mover,
            clicks: None,
            round: 3,
        };
        assert_eq!(
            serde_json::from_str::<Value>(&engine_event(&turn)).unwrap(),
            json!({"kind": "turn", "seat": mover.to_string(), "clicks": null, "round": 3})
        );
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
