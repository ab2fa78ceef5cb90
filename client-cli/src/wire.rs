//! The wire protocol (PROTOCOL.md, version 1) as the client speaks it: requests it sends, and
//! the server's messages as it reads them. Reading is tolerant on purpose: unknown message
//! types, unknown event kinds and extra fields are ignored, and a malformed message becomes
//! `Incoming::Unknown` rather than an error, so nothing the server sends can crash the client.

use serde::Serialize;
use serde_json::{Map, Value};

/// The protocol version this client speaks.
pub const VERSION: u64 = 1;

/// A request to the server. Serialized with its type in the field `t`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Request {
    /// Identify, with the token of an earlier session to keep one's seats.
    Hello {
        /// Display name.
        name: String,
        /// Always [`VERSION`].
        version: u64,
        /// Token from an earlier `welcome`.
        #[serde(skip_serializing_if = "Option::is_none")]
        token: Option<String>,
    },
    /// List the rooms; with `watch`, keep the list coming.
    Lobby {
        /// Keep sending the list when it changes.
        watch: bool,
    },
    /// Open a room.
    Create {
        /// Game id.
        game: String,
        /// Room options (`clicks`, `claim_window`, `players`, `turn_clock`, …).
        #[serde(skip_serializing_if = "Option::is_none")]
        options: Option<Value>,
        /// Unlisted; others join by invite code.
        private: bool,
    },
    /// Take a seat by room id or invite code.
    Join {
        /// Room id.
        #[serde(skip_serializing_if = "Option::is_none")]
        room: Option<String>,
        /// Invite code.
        #[serde(skip_serializing_if = "Option::is_none")]
        code: Option<String>,
        /// Wanted seat letter.
        #[serde(skip_serializing_if = "Option::is_none")]
        seat: Option<String>,
    },
    /// Quick match.
    Quick {
        /// Game id.
        game: String,
        /// Number of players.
        #[serde(skip_serializing_if = "Option::is_none")]
        players: Option<u8>,
    },
    /// Watch a room.
    Spectate {
        /// Room id.
        room: String,
    },
    /// Leave a room.
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
        /// `C4R`.
        click: String,
        /// The piece being moved, when named.
        #[serde(skip_serializing_if = "Option::is_none")]
        piece: Option<String>,
    },
    /// Place a piece.
    Place {
        /// Room id.
        room: String,
        /// Slot name.
        slot: String,
        /// With all 20 pieces on the board, the slot of the piece to move.
        #[serde(skip_serializing_if = "Option::is_none")]
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
    /// Say something.
    Chat {
        /// Room id.
        room: String,
        /// The line.
        text: String,
    },
    /// Catch up after a reconnect.
    Resume {
        /// Room id.
        room: String,
        /// Last seq seen.
        since: u64,
    },
    /// Keep-alive.
    Ping,
}

impl Request {
    /// The JSON text of the request.
    pub fn to_text(&self) -> String {
        // Serializing these plain types cannot fail; fall back to a ping rather than panic.
        serde_json::to_string(self).unwrap_or_else(|_| "{\"t\":\"ping\"}".to_string())
    }
}

/// One room in the lobby list.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RoomSummary {
    /// Room id.
    pub room: String,
    /// Game id.
    pub game: String,
    /// `waiting`, `playing` or `finished`.
    pub status: String,
    /// Seats in the order the server listed them, with the sitter's name.
    pub seats: Vec<(String, Option<String>)>,
    /// Number of spectators.
    pub spectators: u64,
    /// The room's options, as sent.
    pub options: Value,
}

impl RoomSummary {
    /// Seats taken.
    pub fn taken(&self) -> usize {
        self.seats.iter().filter(|(_, n)| n.is_some()).count()
    }

    /// The seats as one line: `S:ann W:-`.
    pub fn seat_list(&self) -> String {
        let names: Vec<String> = self
            .seats
            .iter()
            .map(|(s, n)| format!("{s}:{}", n.as_deref().unwrap_or("-")))
            .collect();
        names.join(" ")
    }
}

/// One seat in a snapshot.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SeatView {
    /// Seat letter.
    pub seat: String,
    /// Player id, when taken.
    pub player: Option<String>,
    /// Display name, when taken.
    pub name: Option<String>,
    /// Colour letter.
    pub colour: Option<String>,
    /// Whether the sitter is connected.
    pub connected: bool,
}

/// The turn as a snapshot or `start` event describes it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TurnView {
    /// Seat letter of the mover.
    pub seat: String,
    /// Clicks allowed; `None` while the mover chooses die or three; 0 for a placement turn.
    pub clicks: Option<u8>,
    /// Clicks used (in a puzzle room: the whole puzzle's clicks so far, or Aquarius's tries).
    pub used: u32,
    /// Round, 1-based.
    pub round: u32,
    /// A puzzle room's target: the booklet's click count (Aquarius: five tries).
    pub target: Option<u32>,
}

/// The whole state of a room.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Snapshot {
    /// Room id.
    pub room: String,
    /// Last event seq included.
    pub seq: u64,
    /// Game id.
    pub game: String,
    /// Options as sent.
    pub options: Value,
    /// `waiting`, `playing` or `finished`.
    pub status: String,
    /// Seats.
    pub seats: Vec<SeatView>,
    /// Spectator count.
    pub spectators: u64,
    /// Position string.
    pub position: String,
    /// The turn.
    pub turn: TurnView,
    /// Points per seat letter.
    pub scores: Vec<(String, u64)>,
    /// The result, when finished.
    pub result: Option<GameResult>,
    /// Chains open to be claimed: colour letter and deadline (ms since epoch).
    pub claims: Vec<(String, u64)>,
    /// Algol: this player's own secret man, in his own snapshot only.
    pub secret: Option<String>,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GameResult {
    /// The winning seat (`S`) or team (`S+N`); `None` for a draw.
    pub winner: Option<String>,
    /// Points per seat letter.
    pub scores: Vec<(String, u64)>,
}

/// One event of a room's history.
#[derive(Clone, Debug, PartialEq)]
pub enum Ev {
    /// A player took a seat.
    Joined {
        /// Seat letter.
        seat: String,
        /// Player id.
        player: String,
        /// Name.
        name: String,
    },
    /// A seat was given up.
    Left {
        /// Seat letter.
        seat: String,
    },
    /// The game started.
    Start {
        /// Position string.
        position: String,
        /// The first turn.
        turn: TurnView,
    },
    /// A rotor turned.
    Click {
        /// Seat letter.
        seat: String,
        /// The click, `C4R`.
        click: String,
        /// Position string after it.
        position: String,
    },
    /// A piece was placed.
    Place {
        /// Seat letter.
        seat: String,
        /// Slot name.
        slot: String,
        /// Piece token.
        piece: String,
        /// The slot the piece came from, when a piece on the board was moved.
        from: Option<String>,
        /// Position string after it.
        position: String,
    },
    /// Slots the mover may build on.
    Eligible {
        /// Slot names.
        slots: Vec<String>,
    },
    /// The die was thrown.
    Roll {
        /// Seat letter.
        seat: String,
        /// The value.
        value: u8,
    },
    /// A turn begins, or its clicks became known.
    Turn {
        /// Seat letter.
        seat: String,
        /// Clicks allowed (`None`: die or three to choose).
        clicks: Option<u8>,
        /// Round.
        round: u32,
    },
    /// A chain exists.
    Chain {
        /// Colour letter.
        colour: String,
        /// Claim deadline, ms since epoch; `None` when awarded at once.
        claim_until: Option<u64>,
    },
    /// A claim was made.
    Claim {
        /// Seat letter.
        seat: String,
        /// Whether it won.
        ok: bool,
    },
    /// Pieces were captured.
    Capture {
        /// Seat letter.
        seat: String,
        /// Slots emptied.
        slots: Vec<String>,
        /// Points scored.
        points: u64,
        /// Position string after it, when sent.
        position: Option<String>,
    },
    /// Aquarius: one try of the telepathy test.
    Try {
        /// Seat letter.
        seat: String,
        /// The click that named the rotor.
        click: String,
        /// Whether the rotor held a piece of the chain.
        hit: bool,
        /// The chain the try was made against (slot names), shown only after the try.
        chain: Vec<String>,
        /// Tries made.
        tries: u32,
        /// Hits so far.
        hits: u32,
    },
    /// A chat line.
    Chat {
        /// Seat letter, `None` for a spectator.
        seat: Option<String>,
        /// Name.
        name: String,
        /// The text.
        text: String,
    },
    /// The game ended.
    Over {
        /// The result.
        result: GameResult,
    },
    /// Algol: a seat chose its secret man (only a commitment is public).
    Secret {
        /// Seat letter.
        seat: String,
    },
    /// Algol: a seat challenged a suspect.
    Challenge {
        /// Seat letter of the challenger.
        seat: String,
        /// Piece token of the suspect.
        piece: String,
        /// Whether it was the secret man.
        hit: bool,
        /// Slots emptied by the challenge.
        removed: Vec<String>,
        /// Position string after it.
        position: String,
    },
    /// A kind this client does not know, or a malformed event: shown, otherwise ignored.
    Other {
        /// The `kind` field, if any.
        kind: String,
    },
}

/// One message from the server.
#[derive(Clone, Debug, PartialEq)]
pub enum Incoming {
    /// Reply to `hello`.
    Welcome {
        /// Player id.
        player: String,
        /// Name as the server keeps it.
        name: String,
        /// Token to save for reconnecting.
        token: String,
        /// Rooms where this player holds a seat.
        rooms: Vec<String>,
    },
    /// The room list.
    Lobby {
        /// Public rooms.
        rooms: Vec<RoomSummary>,
    },
    /// A seat was taken.
    Joined {
        /// Room id.
        room: String,
        /// Seat letter.
        seat: String,
        /// Invite code of a private room.
        code: Option<String>,
    },
    /// Waiting for a quick match.
    Queued,
    /// Left a room.
    Left {
        /// Room id.
        room: String,
    },
    /// A room's whole state.
    Snapshot(Box<Snapshot>),
    /// One event of a room.
    Event {
        /// Room id.
        room: String,
        /// Sequence number.
        seq: u64,
        /// The event.
        ev: Ev,
    },
    /// A refusal.
    Error {
        /// Error code.
        code: String,
        /// What was wrong, in words.
        message: String,
    },
    /// Reply to `ping`.
    Pong,
    /// Anything else (unknown type, or not a JSON object).
    Unknown {
        /// The `t` field, if any.
        t: String,
    },
}

fn s(v: &Value, key: &str) -> String {
    match v.get(key) {
        Some(Value::String(x)) => x.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

fn opt_s(v: &Value, key: &str) -> Option<String> {
    match v.get(key) {
        Some(Value::String(x)) => Some(x.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    }
}

fn u(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

fn opt_u8(v: &Value, key: &str) -> Option<u8> {
    v.get(key)
        .and_then(Value::as_u64)
        .map(|n| n.min(u8::MAX as u64) as u8)
}

fn u32_of(v: &Value, key: &str) -> Option<u32> {
    v.get(key)
        .and_then(Value::as_u64)
        .map(|n| n.min(u32::MAX as u64) as u32)
}

fn strings(v: &Value, key: &str) -> Vec<String> {
    match v.get(key) {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

fn scores(v: Option<&Value>) -> Vec<(String, u64)> {
    match v {
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, x)| (k.clone(), x.as_u64().unwrap_or(0)))
            .collect(),
        _ => Vec::new(),
    }
}

fn turn(v: Option<&Value>) -> TurnView {
    let Some(v) = v else {
        return TurnView::default();
    };
    TurnView {
        seat: s(v, "seat"),
        clicks: opt_u8(v, "clicks"),
        used: u32_of(v, "used").unwrap_or(0),
        round: u(v, "round").min(u32::MAX as u64) as u32,
        target: u32_of(v, "target"),
    }
}

fn result(v: Option<&Value>) -> Option<GameResult> {
    let v = v.filter(|v| v.is_object())?;
    Some(GameResult {
        winner: opt_s(v, "winner"),
        scores: scores(v.get("scores")),
    })
}

fn seat_order(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let rank = |k: &str| match k {
        "S" => 0,
        "W" => 1,
        "N" => 2,
        "E" => 3,
        _ => 4,
    };
    let mut v: Vec<_> = map.iter().collect();
    v.sort_by_key(|(k, _)| rank(k));
    v
}

fn summary(v: &Value) -> RoomSummary {
    let seats = match v.get("seats") {
        Some(Value::Object(m)) => seat_order(m)
            .into_iter()
            .map(|(k, x)| (k.clone(), x.as_str().map(str::to_string)))
            .collect(),
        _ => Vec::new(),
    };
    RoomSummary {
        room: s(v, "room"),
        game: s(v, "game"),
        status: s(v, "status"),
        seats,
        spectators: u(v, "spectators"),
        options: v.get("options").cloned().unwrap_or(Value::Null),
    }
}

fn snapshot(v: &Value) -> Snapshot {
    let seats = match v.get("seats") {
        Some(Value::Object(m)) => seat_order(m)
            .into_iter()
            .map(|(k, x)| SeatView {
                seat: k.clone(),
                player: opt_s(x, "player"),
                name: opt_s(x, "name"),
                colour: opt_s(x, "colour"),
                connected: x.get("connected").and_then(Value::as_bool).unwrap_or(false),
            })
            .collect(),
        _ => Vec::new(),
    };
    let claims = match v.get("claims") {
        Some(Value::Array(a)) => a.iter().map(|c| (s(c, "colour"), u(c, "until"))).collect(),
        _ => Vec::new(),
    };
    Snapshot {
        room: s(v, "room"),
        seq: u(v, "seq"),
        game: s(v, "game"),
        options: v.get("options").cloned().unwrap_or(Value::Null),
        status: s(v, "status"),
        seats,
        spectators: u(v, "spectators"),
        position: s(v, "position"),
        turn: turn(v.get("turn")),
        scores: scores(v.get("scores")),
        result: result(v.get("result")),
        claims,
        secret: opt_s(v, "secret"),
    }
}

fn event(v: &Value) -> Ev {
    let kind = s(v, "kind");
    match kind.as_str() {
        "joined" => Ev::Joined {
            seat: s(v, "seat"),
            player: s(v, "player"),
            name: s(v, "name"),
        },
        "left" => Ev::Left { seat: s(v, "seat") },
        "start" => Ev::Start {
            position: s(v, "position"),
            turn: turn(v.get("turn")),
        },
        "click" => Ev::Click {
            seat: s(v, "seat"),
            click: s(v, "click"),
            position: s(v, "position"),
        },
        "place" => Ev::Place {
            seat: s(v, "seat"),
            slot: s(v, "slot"),
            piece: s(v, "piece"),
            from: opt_s(v, "from"),
            position: s(v, "position"),
        },
        "eligible" => Ev::Eligible {
            slots: strings(v, "slots"),
        },
        "roll" => Ev::Roll {
            seat: s(v, "seat"),
            value: opt_u8(v, "value").unwrap_or(0),
        },
        "turn" => Ev::Turn {
            seat: s(v, "seat"),
            clicks: opt_u8(v, "clicks"),
            round: u(v, "round").min(u32::MAX as u64) as u32,
        },
        "chain" => Ev::Chain {
            colour: s(v, "colour"),
            claim_until: v.get("claim_until").and_then(Value::as_u64),
        },
        "claim" => Ev::Claim {
            seat: s(v, "seat"),
            ok: v.get("ok").and_then(Value::as_bool).unwrap_or(false),
        },
        "capture" => Ev::Capture {
            seat: s(v, "seat"),
            slots: strings(v, "slots"),
            points: u(v, "points"),
            position: opt_s(v, "position"),
        },
        "try" => Ev::Try {
            seat: s(v, "seat"),
            click: s(v, "click"),
            hit: v.get("hit").and_then(Value::as_bool).unwrap_or(false),
            chain: strings(v, "chain"),
            tries: u32_of(v, "tries").unwrap_or(0),
            hits: u32_of(v, "hits").unwrap_or(0),
        },
        "chat" => Ev::Chat {
            seat: opt_s(v, "seat"),
            name: s(v, "name"),
            text: s(v, "text"),
        },
        "over" => Ev::Over {
            result: result(v.get("result")).unwrap_or_default(),
        },
        "secret" => Ev::Secret { seat: s(v, "seat") },
        "challenge" => Ev::Challenge {
            seat: s(v, "seat"),
            piece: s(v, "piece"),
            hit: v.get("hit").and_then(Value::as_bool).unwrap_or(false),
            removed: strings(v, "removed"),
            position: s(v, "position"),
        },
        _ => Ev::Other { kind },
    }
}

/// Reads one text frame from the server. Never fails: what cannot be read is `Unknown`.
pub fn parse(text: &str) -> Incoming {
    let Ok(v) = serde_json::from_str::<Value>(text) else {
        return Incoming::Unknown { t: String::new() };
    };
    if !v.is_object() {
        return Incoming::Unknown { t: String::new() };
    }
    let t = s(&v, "t");
    match t.as_str() {
        "welcome" => Incoming::Welcome {
            player: s(&v, "player"),
            name: s(&v, "name"),
            token: s(&v, "token"),
            rooms: strings(&v, "rooms"),
        },
        "lobby" => Incoming::Lobby {
            rooms: match v.get("rooms") {
                Some(Value::Array(a)) => a.iter().filter(|r| r.is_object()).map(summary).collect(),
                _ => Vec::new(),
            },
        },
        "joined" => Incoming::Joined {
            room: s(&v, "room"),
            seat: s(&v, "seat"),
            code: opt_s(&v, "code"),
        },
        "queued" => Incoming::Queued,
        "left" => Incoming::Left {
            room: s(&v, "room"),
        },
        "snapshot" => Incoming::Snapshot(Box::new(snapshot(&v))),
        "event" => match v.get("ev") {
            Some(ev) if ev.is_object() => Incoming::Event {
                room: s(&v, "room"),
                seq: u(&v, "seq"),
                ev: event(ev),
            },
            _ => Incoming::Unknown { t },
        },
        "error" => Incoming::Error {
            code: s(&v, "code"),
            message: s(&v, "message"),
        },
        "pong" => Incoming::Pong,
        _ => Incoming::Unknown { t },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_carry_their_type_and_skip_absent_fields() {
        let r = Request::Hello {
            name: "ann".into(),
            version: VERSION,
            token: None,
        };
        assert_eq!(r.to_text(), r#"{"t":"hello","name":"ann","version":1}"#);
        let r = Request::EndTurn { room: "r1".into() };
        assert_eq!(r.to_text(), r#"{"t":"end_turn","room":"r1"}"#);
    }

    #[test]
    fn events_are_read_with_their_fields() {
        let m = parse(
            r#"{"t":"event","room":"r","seq":4,"ev":{"kind":"click","seat":"S","click":"C4R","position":"C1s:R1","extra":1}}"#,
        );
        assert_eq!(
            m,
            Incoming::Event {
                room: "r".into(),
                seq: 4,
                ev: Ev::Click {
                    seat: "S".into(),
                    click: "C4R".into(),
                    position: "C1s:R1".into()
                }
            }
        );
    }

    #[test]
    fn algol_events_are_read_without_the_secret() {
        let m = parse(
            r#"{"t":"event","room":"r","seq":5,"ev":{"kind":"secret","seat":"N","commitment":"ab12"}}"#,
        );
        let Incoming::Event { ev, .. } = m else {
            panic!("an event: {m:?}");
        };
        assert_eq!(ev, Ev::Secret { seat: "N".into() });
        let m = parse(
            r#"{"t":"event","room":"r","seq":9,"ev":{"kind":"challenge","seat":"S","piece":"B3","hit":false,"removed":["C1n"],"position":"C2n:B3"}}"#,
        );
        let Incoming::Event { ev, .. } = m else {
            panic!("an event: {m:?}");
        };
        assert_eq!(
            ev,
            Ev::Challenge {
                seat: "S".into(),
                piece: "B3".into(),
                hit: false,
                removed: vec!["C1n".into()],
                position: "C2n:B3".into()
            }
        );
        // Only the owner's snapshot carries his secret man.
        let Incoming::Snapshot(snap) = parse(r#"{"t":"snapshot","room":"r","secret":"R5"}"#) else {
            panic!("a snapshot");
        };
        assert_eq!(snap.secret.as_deref(), Some("R5"));
    }

    #[test]
    fn nothing_the_server_sends_is_an_error() {
        for text in [
            "",
            "null",
            "[1,2]",
            "{\"t\":5}",
            "{\"t\":\"event\"}",
            "{\"t\":\"event\",\"ev\":[]}",
            "{\"t\":\"event\",\"ev\":{\"kind\":\"dance\"}}",
            "{\"t\":\"snapshot\",\"seats\":7,\"turn\":\"x\"}",
            "{\"t\":\"lobby\",\"rooms\":[1,{\"seats\":{\"S\":3}}]}",
            "{\"t\":\"future\",\"x\":1}",
        ] {
            let _ = parse(text);
        }
        assert_eq!(
            parse("{\"t\":\"event\",\"ev\":{\"kind\":\"dance\"}}"),
            Incoming::Event {
                room: String::new(),
                seq: 0,
                ev: Ev::Other {
                    kind: "dance".into()
                }
            }
        );
    }
}
