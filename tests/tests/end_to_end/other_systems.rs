//! Orbit and Orbs on the lobby, through a real server: the same rooms, seats, events, errors
//! and durability as ORION, with moves sent as the generic `move` and `draw` requests. An
//! Orbit game through the pie opening to a capture and its territory result, watched; Orbs
//! for three by quick match with an opposite-element trade; a draw by agreement; a restart
//! mid-game; refusals (prohibited drop, out of turn, bad option, another system's request).

use orion_server::ManualClock;
use orion_tests::{remove_db, start_room, temp_db, Client, TestServer, T0};
use serde_json::{json, Value};
use std::sync::Arc;

/// Checks that every event `c` received reads as the typed protocol (`orion-protocol`), as a
/// client built on it reads them.
fn typed(c: &Client) {
    for e in &c.events {
        let text = e.to_string();
        if let Err(err) = orion_protocol::parse_reply(&text) {
            panic!("{text} is not a protocol message: {}", err.message);
        }
    }
}

/// Plays `mv` for `c` and returns its `move` event.
async fn mv(c: &mut Client, room: &str, text: &str) -> Value {
    c.play(room, "move", json!({"move": text})).await
}

/// Sends `mv` for `c`, which must be refused with `code`; returns the error.
async fn refused(c: &mut Client, room: &str, text: &str, code: &str) -> Value {
    let e = c
        .refused(json!({"t": "move", "room": room, "move": text}))
        .await;
    assert_eq!(e["code"], code, "{e}");
    e
}

/// The Orbit opening used below: `S` drops two black stones and one white, `N` takes white.
/// Then white (`N`) rings black's `e5` (`d5`, `f5`, `e6` with the opening's `e4`) while black
/// (`S`) drops far away, and the ring captures it.
const OPENING: [&str; 3] = ["e5", "k10", "e4"];

#[tokio::test]
async fn orbit_through_the_pie_opening_to_a_capture_and_the_territory_result() {
    let server = TestServer::start();
    let mut s = server.player("sam").await;
    let mut n = server.player("nia").await;
    let mut watcher = server.player("wes").await;
    let joined = s
        .request(json!({"t": "create", "game": "orbit", "options": {}}))
        .await;
    assert_eq!(joined["t"], "joined", "{joined}");
    assert_eq!(joined["seat"], "S");
    let room = joined["room"].as_str().unwrap().to_string();
    s.seat = "S".into();
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["t"], "snapshot", "{snap}");
    assert_eq!(snap["game"], "orbit");
    assert_eq!(snap["options"]["players"], 2);
    assert_eq!(snap["position"], "");
    let from = snap["seq"].as_u64().unwrap() + 1;
    let j = n.request(json!({"t": "join", "room": room})).await;
    assert_eq!(j["seat"], "N", "{j}");
    n.seat = "N".into();
    for p in [&mut s, &mut n] {
        p.send(json!({"t": "ready", "room": room})).await;
    }
    let start = s.expect_event(&room, "start").await;
    assert_eq!(
        start["ev"]["turn"],
        json!({"seat": "S", "clicks": null, "used": 0, "round": 1, "phase": "opening",
               "drop": 1, "colour": "B", "prohibited": []})
    );

    // The pie: S drops black, black, white; N may not move meanwhile.
    refused(&mut n, &room, "a1", "not_your_turn").await;
    let mut colours = Vec::new();
    for cell in OPENING {
        let ev = mv(&mut s, &room, cell).await;
        colours.push(ev["ev"]["colour"].clone());
    }
    assert_eq!(colours, [json!("B"), json!("B"), json!("W")]);
    let choice = n
        .expect(|m| m["ev"]["kind"] == "turn" && m["ev"]["phase"] == "choice")
        .await;
    assert_eq!(choice["ev"]["seat"], "N");
    refused(&mut s, &room, "pass", "not_your_turn").await;
    refused(&mut n, &room, "h8", "illegal").await;
    let chose = mv(&mut n, &room, "white").await;
    assert_eq!(chose["ev"]["colour"], "W");
    assert_eq!(chose["ev"]["position"], "e4:W e5:B k10:B");

    // Play: white (N) moves first and closes an orbit round e5.
    for (who, cell) in [("N", "d5"), ("S", "a16"), ("N", "f5"), ("S", "p1")] {
        let p = if who == "N" { &mut n } else { &mut s };
        let ev = mv(p, &room, cell).await;
        assert_eq!(ev["ev"]["removed"], json!([]));
    }
    let capture = mv(&mut n, &room, "e6").await;
    assert_eq!(capture["ev"]["removed"], json!(["e5"]));
    assert_eq!(
        capture["ev"]["position"],
        "p1:B e4:W d5:W f5:W e6:W k10:B a16:B"
    );
    // Black may not drop inside white's orbit, and is told why.
    let e = refused(&mut s, &room, "e5", "illegal").await;
    assert_eq!(
        e["message"],
        "e5 is prohibited for black: it lies in white's orbit"
    );
    refused(&mut s, &room, "q3", "bad_request").await;
    // Two passes end it: white's orbit holds one empty cell of territory.
    mv(&mut s, &room, "pass").await;
    mv(&mut n, &room, "pass").await;
    let over = watcher.expect_event(&room, "over").await;
    let result = &over["ev"]["result"];
    assert_eq!(result["winner"], "N", "{over}");
    assert_eq!(result["scores"], json!({"S": 0, "N": 1}));
    assert_eq!(result["territory"], json!({"B": 0, "W": 1}));
    assert_eq!(result["end"], "passes");

    // The watcher saw every event, in order, each move with the position after it.
    let seen: Vec<&Value> = watcher
        .events
        .iter()
        .filter(|e| e["room"] == room)
        .collect();
    for (i, e) in seen.iter().enumerate() {
        assert_eq!(e["seq"].as_u64(), Some(from + i as u64), "{e}");
    }
    let kinds: Vec<&str> = seen
        .iter()
        .filter_map(|e| e["ev"]["kind"].as_str())
        .collect();
    // Each seat's `ready` is an event of its own before the start.
    let mut expected = vec!["joined", "ready", "ready", "start"];
    for _ in 0..10 {
        expected.extend(["move", "turn"]);
    }
    expected.extend(["move", "over"]);
    assert_eq!(kinds, expected);
    let moves: Vec<&str> = seen
        .iter()
        .filter(|e| e["ev"]["kind"] == "move")
        .filter_map(|e| e["ev"]["move"].as_str())
        .collect();
    assert_eq!(
        moves,
        ["e5", "k10", "e4", "white", "d5", "a16", "f5", "p1", "e6", "pass", "pass"]
    );
    assert!(seen
        .iter()
        .filter(|e| e["ev"]["kind"] == "move")
        .all(|e| e["ev"]["position"].is_string() && e["ev"]["removed"].is_array()));
    // After the capture, the turn tells black where he may not drop.
    let after_capture = seen.iter().position(|e| e["ev"]["move"] == "e6").unwrap();
    let turn = &seen[after_capture + 1]["ev"];
    assert_eq!(turn["seat"], "S");
    assert_eq!(turn["colour"], "B");
    assert_eq!(turn["prohibited"], json!(["e5"]));
    typed(&watcher);
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    orion_protocol::parse_reply(&snap.to_string()).expect("a typed snapshot");
    server.shutdown();
}

#[tokio::test]
async fn orion_requests_are_not_moves_in_orbit_and_orbit_moves_not_in_orion() {
    let server = TestServer::start();
    let mut players = vec![server.player("sam").await, server.player("nia").await];
    let room = start_room(&mut players, "orbit", json!({})).await;
    let e = players[0]
        .refused(json!({"t": "click", "room": room, "click": "C4R"}))
        .await;
    assert_eq!(e["code"], "bad_request");
    assert_eq!(e["message"], "click is not a move in orbit");
    let e = players[0].refused(json!({"t": "draw", "room": room})).await;
    assert_eq!(e["message"], "draw is not a move in orbit");

    let mut players = vec![server.player("ann").await, server.player("bob").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let e = players[0]
        .refused(json!({"t": "move", "room": room, "move": "h8"}))
        .await;
    assert_eq!(e["code"], "bad_request");
    assert_eq!(e["message"], "move is not a move in hydra-2");
    server.shutdown();
}

/// A 3-player classic Orbs game (`S`, `NW`, `NE`): red's fire and blue's water march to meet
/// while green shuffles, and red's fire takes blue's water: both are removed.
const ORBS_THREE: [(&str, &str); 10] = [
    ("S", "d1-e6"),
    ("NW", "k2-j2"),
    ("NE", "j10-j9"),
    ("S", "e6-f5"),
    ("NW", "j2-i2"),
    ("NE", "j9-j10"),
    ("S", "f5-g4"),
    ("NW", "i2-h3"),
    ("NE", "j10-j9"),
    ("S", "g4-h3"),
];

#[tokio::test]
async fn orbs_for_three_by_quick_match_trades_opposite_elements() {
    let server = TestServer::start();
    let mut players = Vec::new();
    for name in ["red", "blue", "green"] {
        let mut p = server.player(name).await;
        let q = p
            .request(json!({"t": "quick", "game": "orbs", "players": 3}))
            .await;
        assert_eq!(q["t"], "queued", "{q}");
        players.push(p);
    }
    let mut room = String::new();
    for p in &mut players {
        let j = p.expect_t("joined").await;
        room = j["room"].as_str().unwrap().to_string();
        p.seat = j["seat"].as_str().unwrap().to_string();
    }
    let seats: Vec<&str> = players.iter().map(|p| p.seat.as_str()).collect();
    assert_eq!(seats, ["S", "NW", "NE"]);
    let start = players[0].expect_event(&room, "start").await;
    assert_eq!(
        start["ev"]["turn"],
        json!({"seat": "S", "clicks": null, "used": 0, "round": 1})
    );
    // The last to join sees every seat filled in his snapshot.
    let snap = players[2]
        .expect(|m| m["t"] == "snapshot" && m["room"] == room)
        .await;
    assert_eq!(snap["options"]["opening"], "classic");
    assert_eq!(snap["seats"]["NE"]["colour"], "G");

    // Green may not move out of turn; red may not move blue's orb, nor onto his own.
    refused(&mut players[2], &room, "j10-j9", "not_your_turn").await;
    let e = refused(&mut players[0], &room, "k2-j2", "illegal").await;
    assert_eq!(e["message"], "k2-j2: the orb on k2 is blue, not yours");
    let e = refused(&mut players[0], &room, "c1-d1", "illegal").await;
    assert_eq!(e["message"], "c1-d1: d1 holds your own orb");

    let mut last = Value::Null;
    for (seat, text) in ORBS_THREE {
        let i = players.iter().position(|p| p.seat == seat).unwrap();
        last = mv(&mut players[i], &room, text).await;
        if text != "g4-h3" {
            assert_eq!(last["ev"]["removed"], json!([]), "{last}");
        }
    }
    assert_eq!(last["ev"]["seat"], "S");
    assert_eq!(last["ev"]["removed"], json!(["g4", "h3"]));
    assert_eq!(last["ev"]["out"], json!([]));
    let position = last["ev"]["position"].as_str().unwrap();
    assert!(!position.contains("g4:") && !position.contains("h3:"));
    assert!(position.starts_with("a1:RW b1:RA"), "{position}");
    // Everyone hears it, and the next turn (blue's, round 11).
    for p in &mut players {
        let turn = p
            .expect(|m| m["ev"]["kind"] == "turn" && m["ev"]["round"] == 11)
            .await;
        assert_eq!(turn["ev"]["seat"], "NW");
    }
    let mut watcher = server.player("wes").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["scores"], json!({"S": 9, "NW": 9, "NE": 10}));
    assert_eq!(snap["out"], json!([]));
    assert_eq!(snap["draw"], Value::Null);
    orion_protocol::parse_reply(&snap.to_string()).expect("a typed snapshot");
    for p in &players {
        typed(p);
    }
    server.shutdown();
}

#[tokio::test]
async fn an_orbs_draw_offered_and_accepted_by_all_ends_the_game_drawn() {
    let server = TestServer::start();
    let mut players = vec![
        server.player("red").await,
        server.player("blue").await,
        server.player("green").await,
    ];
    let room = start_room(
        &mut players,
        "orbs",
        json!({"players": 3, "position": "a1:RF i5:RW m1:BE m13:GA", "holes": ["e5"]}),
    )
    .await;
    mv(&mut players[0], &room, "a1-b1").await;
    // Blue offers; red and green accept. An offer needs no turn.
    let offer = players[1].play(&room, "draw", json!({})).await;
    assert_eq!(offer["ev"]["accept"], false);
    assert_eq!(offer["ev"]["agreed"], json!(["NW"]));
    let e = players[2].refused(json!({"t": "draw", "room": room})).await;
    assert_eq!(
        e["message"],
        "a draw is already offered: accept it or play on"
    );
    let accept = players[0]
        .play(&room, "draw", json!({"accept": true}))
        .await;
    assert_eq!(accept["ev"]["agreed"], json!(["S", "NW"]));
    players[2]
        .play(&room, "draw", json!({"accept": true}))
        .await;
    let over = players[0].expect_event(&room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], Value::Null, "{over}");
    assert_eq!(over["ev"]["result"]["end"], "agreed");
    assert_eq!(
        over["ev"]["result"]["scores"],
        json!({"S": 2, "NW": 1, "NE": 1})
    );
    let e = players[1]
        .refused(json!({"t": "move", "room": room, "move": "m1-m2"}))
        .await;
    assert_eq!(e["message"], "the game is over");
    for p in &players {
        typed(p);
    }
    server.shutdown();
}

#[tokio::test]
async fn a_bad_orbs_option_is_refused_when_the_room_is_created() {
    let server = TestServer::start();
    let mut p = server.player("maker").await;
    for (options, says) in [
        (json!({"colour": "red"}), "unknown field `colour`"),
        (json!({"players": 9}), "Orbs is for 2 to 6 players, not 9"),
        (json!({"opening": "scatter"}), "opening must be"),
        (json!({"position": "a1:XF"}), "position:"),
        (
            json!({"teams": true, "players": 5}),
            "teams need 4 or 6 players",
        ),
    ] {
        let e = p
            .refused(json!({"t": "create", "game": "orbs", "options": options}))
            .await;
        assert_eq!(e["code"], "bad_request", "{e}");
        let message = e["message"].as_str().unwrap();
        assert!(message.contains(says), "{options}: {message}");
    }
    let e = p
        .refused(json!({"t": "create", "game": "orbit", "options": {"komi": 6}}))
        .await;
    assert_eq!(e["code"], "bad_request");
    // A good one is completed with its defaults and shown in the lobby.
    let joined = p
        .request(json!({"t": "create", "game": "orbs", "options": {"players": 4, "teams": true}}))
        .await;
    assert_eq!(joined["seat"], "SW", "{joined}");
    let snap = p.expect_t("snapshot").await;
    assert_eq!(snap["options"]["opening"], "classic");
    assert_eq!(snap["options"]["teams"], true);
    assert_eq!(snap["options"]["holes"], json!([]));
    let seats: Vec<&String> = snap["seats"].as_object().unwrap().keys().collect();
    assert_eq!(seats.len(), 4);
    server.shutdown();
}

#[tokio::test]
async fn an_orbit_game_carries_on_after_a_server_restart() {
    let db = temp_db("orbit-restart");
    let clock = Arc::new(ManualClock::new(T0));
    let server = TestServer::start_on(&db, clock.clone());
    let mut players = vec![server.player("sam").await, server.player("nia").await];
    let room = start_room(&mut players, "orbit", json!({})).await;
    let [mut s, mut n] = <[Client; 2]>::try_from(players).ok().unwrap();
    for cell in OPENING {
        mv(&mut s, &room, cell).await;
    }
    mv(&mut n, &room, "white").await;
    mv(&mut n, &room, "d5").await;
    let before = mv(&mut s, &room, "a16").await;
    let position = before["ev"]["position"].clone();
    n.sync_to(&room, s.last_seq(&room)).await;
    server.kill();

    let server = TestServer::start_on(&db, clock);
    let (mut s2, welcome) = server.reconnect("sam", &s.token).await;
    assert_eq!(welcome["rooms"], json!([room]), "{welcome}");
    s2.seat = "S".into();
    let (mut n2, _) = server.reconnect("nia", &n.token).await;
    n2.seat = "N".into();
    // Both resume from their last event: nothing was missed, so nothing is replayed, and
    // the game goes on from the same position, with the colours as chosen.
    s2.send(json!({"t": "resume", "room": room, "since": s.last_seq(&room)}))
        .await;
    n2.send(json!({"t": "resume", "room": room, "since": n.last_seq(&room)}))
        .await;
    let mut watcher = server.player("wes").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["position"], position);
    assert_eq!(snap["status"], "playing");
    assert_eq!(snap["seats"]["N"]["colour"], "W");
    assert_eq!(snap["seats"]["S"]["colour"], "B");
    assert_eq!(snap["turn"]["seat"], "N");
    assert_eq!(snap["turn"]["phase"], "play");
    assert_eq!(snap["prohibited"]["B"], json!([]));
    refused(&mut s2, &room, "b2", "not_your_turn").await;
    mv(&mut n2, &room, "f5").await;
    mv(&mut s2, &room, "p1").await;
    let capture = mv(&mut n2, &room, "e6").await;
    assert_eq!(capture["ev"]["removed"], json!(["e5"]));
    assert_eq!(
        capture["seq"].as_u64(),
        before["seq"].as_u64().map(|seq| seq + 6),
        "seq carries on with no gap"
    );
    server.shutdown();
    remove_db(&db);
}

#[tokio::test]
async fn turn_clocks_pass_in_play_and_lose_the_orbit_opening() {
    let server = TestServer::start();
    // Orbs: the mover whose clock runs out passes, and the turn goes on.
    let mut players = vec![server.player("red").await, server.player("blue").await];
    let room = start_room(&mut players, "orbs", json!({"turn_clock": 1000})).await;
    server.clock.advance(1001);
    let pass = players[1].expect_event(&room, "move").await;
    assert_eq!(pass["ev"]["seat"], "S");
    assert_eq!(pass["ev"]["move"], "pass");
    assert_eq!(pass["ev"]["timeout"], true);
    assert_eq!(pass["ev"]["removed"], json!([]));
    let turn = players[1].expect_event(&room, "turn").await;
    assert_eq!(
        turn["ev"],
        json!({"kind": "turn", "seat": "N", "clicks": null, "used": 0, "round": 2})
    );
    mv(&mut players[1], &room, "n1-m5").await;

    // Orbit in play: a pass; in the opening, where there is no pass: a loss on time.
    let mut players = vec![server.player("sam").await, server.player("nia").await];
    let room = start_room(&mut players, "orbit", json!({"turn_clock": 1000})).await;
    for cell in OPENING {
        mv(&mut players[0], &room, cell).await;
    }
    mv(&mut players[1], &room, "black").await;
    server.clock.advance(1001);
    let pass = players[1]
        .expect(|m| m["ev"]["kind"] == "move" && m["ev"]["timeout"] == true)
        .await;
    assert_eq!(pass["ev"]["seat"], "S");
    assert_eq!(pass["ev"]["move"], "pass");
    mv(&mut players[1], &room, "h8").await;

    let mut players = vec![server.player("ann").await, server.player("bob").await];
    let room = start_room(&mut players, "orbit", json!({"turn_clock": 1000})).await;
    mv(&mut players[0], &room, "a1").await;
    server.clock.advance(1001);
    let over = players[1].expect_event(&room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], "N", "{over}");
    assert_eq!(over["ev"]["result"]["end"], "time");
    server.shutdown();
}
