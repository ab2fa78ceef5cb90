//! Byte compatibility: real frames parse into the typed values and serialize back to the
//! same JSON (compared as values, field order aside). `golden/server.jsonl` was recorded from
//! the server on main playing Hydra for Two to a win, Algol's secrets, an abandoned Taurus
//! game and a puzzle room; `golden/server-code.jsonl` holds the kinds those games do not
//! reach, written from the server's code; `golden/requests.jsonl` what clients send today.
//! `golden/systems.jsonl` holds frames byte for byte as the server on main sent them, before
//! each system's fields moved into a struct of its own: Orbit and Orbs (the end-to-end games
//! of `other_systems.rs`), then ORION's puzzle targets and Algol's secret (`puzzles.rs`,
//! `games.rs`); they must be written back to the same bytes, field order included.

use orion_protocol::{parse_reply, parse_request, Event, Message, Reply};
use serde_json::Value;

fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l))
}

fn round_trips_as_a_reply(file: &str, text: &str) -> usize {
    let mut n = 0;
    for (line, frame) in lines(text) {
        let reply = parse_reply(frame).unwrap_or_else(|e| panic!("{file}:{line}: {e}\n{frame}"));
        let back: Value = serde_json::from_str(&reply.to_json()).unwrap();
        let sent: Value = serde_json::from_str(frame).unwrap();
        assert_eq!(back, sent, "{file}:{line} does not round-trip");
        n += 1;
    }
    n
}

#[test]
fn recorded_server_frames_round_trip() {
    let n = round_trips_as_a_reply("server.jsonl", include_str!("golden/server.jsonl"));
    assert!(n >= 40, "{n} frames");
}

#[test]
fn recorded_frames_of_every_system_round_trip() {
    let text = include_str!("golden/systems.jsonl");
    let n = round_trips_as_a_reply("systems.jsonl", text);
    assert!(n >= 20, "{n} frames");
    // Every field a system adds to the shared messages is in some recorded frame (Orbs'
    // standing draw offer and a forced pass are in `server-code.jsonl`).
    let fields = [
        r#""phase":"opening""#,
        r#""phase":"play""#,
        r#""drop":"#,
        r#""prohibited":["#,
        r#""prohibited":{"#,
        r#""territory":{"#,
        r#""end":"#,
        r#""used":0"#,
        r#""kind":"move""#,
        r#""colour":"B""#,
        r#""out":["#,
        r#""kind":"draw""#,
        r#""timeout":true"#,
        r#""target":"#,
        r#""secret":""#,
    ];
    for field in fields {
        assert!(text.contains(field), "no recorded frame with {field}");
    }
}

/// The same text back, byte for byte, as a client reading a frame and a server writing it:
/// a field moved into a system's own struct (flattened) must keep its place on the wire.
/// (`server.jsonl` was kept with its keys sorted: it is compared as values above.)
#[test]
fn recorded_frames_are_written_back_byte_for_byte() {
    for (line, frame) in lines(include_str!("golden/systems.jsonl")) {
        let reply = parse_reply(frame).unwrap_or_else(|e| panic!("systems.jsonl:{line}: {e}"));
        assert_eq!(
            reply.to_json(),
            frame,
            "systems.jsonl:{line} is written back otherwise"
        );
    }
}

#[test]
fn every_kind_the_server_code_builds_round_trips() {
    let text = include_str!("golden/server-code.jsonl");
    round_trips_as_a_reply("server-code.jsonl", text);
    let mut kinds = std::collections::BTreeSet::new();
    let all = include_str!("golden/server.jsonl")
        .lines()
        .chain(text.lines());
    for frame in all {
        match parse_reply(frame).unwrap().message {
            Message::Event { ev, .. } => {
                kinds.insert(ev.kind());
            }
            Message::History { events, .. } => kinds.extend(events.iter().map(|e| e.ev.kind())),
            _ => {}
        }
    }
    let every = [
        "joined",
        "left",
        "start",
        "click",
        "place",
        "eligible",
        "roll",
        "turn",
        "chain",
        "claim",
        "capture",
        "challenge",
        "secret",
        "try",
        "chat",
        "move",
        "ready",
        "over",
    ];
    for kind in every {
        assert!(kinds.contains(kind), "no golden line of kind {kind}");
    }
}

#[test]
fn requests_as_clients_send_them_round_trip_with_their_id() {
    for (line, frame) in lines(include_str!("golden/requests.jsonl")) {
        let envelope =
            parse_request(frame).unwrap_or_else(|e| panic!("requests.jsonl:{line}: {e}\n{frame}"));
        let back = serde_json::to_value(&envelope).unwrap();
        let sent: Value = serde_json::from_str(frame).unwrap();
        assert_eq!(back, sent, "requests.jsonl:{line} does not round-trip");
    }
}

#[test]
fn an_event_serializes_from_borrowed_text() {
    let position = String::from("C2n:R3");
    let ev = Event::Click {
        seat: orion_protocol::Seat::S,
        click: "C4R".into(),
        position: position.as_str().into(),
    };
    assert_eq!(
        ev.to_json(),
        r#"{"kind":"click","seat":"S","click":"C4R","position":"C2n:R3"}"#
    );
    let frame = Reply::from(Message::Event {
        room: "r1".into(),
        seq: 4,
        ev,
    });
    assert_eq!(
        frame.to_json(),
        r#"{"t":"event","room":"r1","seq":4,"ev":{"kind":"click","seat":"S","click":"C4R","position":"C2n:R3"}}"#
    );
}

#[test]
fn the_additions_for_a_game_that_always_ends_read_as_typed_values() {
    use orion_protocol::{Code, OverReason, Request, Seat, Waiting};
    let unqueue = parse_request(r#"{"t":"unqueue"}"#).expect("unqueue");
    assert_eq!(unqueue.request, Request::Unqueue);
    let lobby = parse_reply(
        r#"{"t":"lobby","rooms":[],"waiting":[{"game":"hydra-2","players":2,"count":1}]}"#,
    )
    .expect("lobby");
    let Message::Lobby { waiting, .. } = lobby.message else {
        panic!("not a lobby: {lobby:?}")
    };
    let one = Waiting {
        game: "hydra-2".into(),
        players: 2,
        count: 1,
    };
    assert_eq!(waiting, Some(vec![one]));
    let absent = parse_reply(r#"{"t":"lobby","rooms":[]}"#).expect("lobby");
    assert!(matches!(
        absent.message,
        Message::Lobby { waiting: None, .. }
    ));
    let refused = parse_reply(r#"{"t":"error","code":"not_queued","message":"m"}"#).expect("error");
    assert!(matches!(
        refused.message,
        Message::Error {
            code: Code::NotQueued,
            ..
        }
    ));
    let over = parse_reply(
        r#"{"t":"event","room":"r1","seq":9,"ev":{"kind":"over","result":{"winner":"N","scores":{}},"reason":"left","seat":"S"}}"#,
    )
    .expect("over");
    let Message::Event {
        ev: Event::Over { reason, seat, .. },
        ..
    } = over.message
    else {
        panic!("not an over event: {over:?}")
    };
    assert_eq!((reason, seat), (Some(OverReason::Left), Some(Seat::S)));
    let told = parse_reply(r#"{"t":"spectators","room":"r1","count":2}"#).expect("spectators");
    assert!(matches!(told.message, Message::Spectators { count: 2, .. }));
    // A misspelt count is an error naming the field, not a silent zero.
    let bad = parse_reply(r#"{"t":"spectators","room":"r1","count":"two"}"#);
    assert!(bad.is_err(), "{bad:?}");
}
