//! The puzzles as one-player rooms over the wire: created by name, started at once, played
//! click by click under the puzzle's own rule (an illegal click gets one `error` and changes
//! nothing), watched by spectators who see every click, ended by the finish with the clicks
//! used as the score, replayed after a server restart; Aquarius's five tries with each chain
//! kept hidden until its try; and no quick match for a puzzle.

use orion_engine::{parse_position, position_string, puzzles, solve};
use orion_server::ManualClock;
use orion_tests::{expand, remove_db, temp_db, Client, TestServer, T0};
use serde_json::{json, Value};
use std::sync::Arc;

/// Creates a room of puzzle `name`; returns the room id and the `start` event (a puzzle
/// room starts as soon as its one seat is taken).
async fn create(c: &mut Client, name: &str) -> (String, Value) {
    let joined = c.request(json!({"t": "create", "game": name})).await;
    assert_eq!(joined["t"], "joined", "{joined}");
    assert_eq!(joined["seat"], "S");
    c.seat = "S".into();
    let room = joined["room"].as_str().expect("room id").to_string();
    let start = c.expect_event(&room, "start").await;
    (room, start)
}

/// Sends a click that must be refused: exactly one `error` comes back (code `illegal`) and
/// no event; returns its message.
async fn refused_click(c: &mut Client, room: &str, click: &str) -> String {
    let events = c.events.len();
    let error = c
        .refused(json!({"t": "click", "room": room, "click": click}))
        .await;
    assert_eq!(error["code"], "illegal", "{error}");
    // Everything the server sent before the pong has arrived: no event, no second error.
    let pong = c.request(json!({"t": "ping"})).await;
    assert_eq!(pong["t"], "pong");
    assert_eq!(c.events.len(), events, "a refused click caused an event");
    assert!(
        c.errors().is_empty(),
        "more than one error: {:?}",
        c.errors()
    );
    error["message"].as_str().unwrap_or_default().to_string()
}

#[tokio::test]
async fn aquila_is_solved_on_the_booklet_line_while_a_spectator_sees_every_click() {
    let server = TestServer::start();
    let mut p = server.player("eagle").await;
    let (room, start) = create(&mut p, "aquila").await;
    let aquila = puzzles::find("aquila").expect("aquila");
    assert_eq!(start["ev"]["position"], position_string(&aquila.start));
    let turn = &start["ev"]["turn"];
    assert_eq!(
        (
            &turn["seat"],
            &turn["clicks"],
            &turn["used"],
            &turn["target"]
        ),
        (&json!("S"), &Value::Null, &json!(0), &json!(24)),
        "{turn}"
    );

    // Listed in the lobby like any room, so a spectator can find it and watch.
    let mut watcher = server.player("watcher").await;
    let lobby = watcher.request(json!({"t": "lobby"})).await;
    let listed = lobby["rooms"]
        .as_array()
        .and_then(|rooms| rooms.iter().find(|r| r["room"] == json!(room)))
        .cloned()
        .unwrap_or_else(|| panic!("room not listed: {lobby}"));
    assert_eq!(listed["game"], "aquila");
    assert_eq!(listed["status"], "playing");
    assert_eq!(listed["seats"], json!({"S": "eagle"}));
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["status"], "playing");
    assert_eq!(snap["turn"]["target"], 24);
    let from = snap["seq"].as_u64().expect("seq");

    // The printed answer key, click by click; its last click is the misprint.
    let line = expand(aquila.booklet_solution.expect("printed"));
    assert_eq!(line.len(), 24);
    for click in &line[..23] {
        p.play(&room, "click", json!({"click": click})).await;
    }
    // A rotor holding no red piece, and the misprinted C5L that lets go of the fish.
    assert_eq!(
        refused_click(&mut p, &room, "A3R").await,
        "rotor A3 holds no red piece"
    );
    assert_eq!(line[23], "C5L");
    assert_eq!(
        refused_click(&mut p, &room, "C5L").await,
        "after C5L a red piece no longer touches the blue piece: it lets go"
    );
    let mid = server
        .player("late")
        .await
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(mid["turn"]["used"], 23, "{mid}");
    assert_eq!(mid["scores"]["S"], 23);

    let last = p.play(&room, "click", json!({"click": "C5R"})).await;
    let over = p.expect_event(&room, "over").await;
    assert_eq!(over["seq"].as_u64(), last["seq"].as_u64().map(|s| s + 1));
    assert_eq!(over["ev"]["result"]["winner"], "S");
    assert_eq!(over["ev"]["result"]["scores"], json!({"S": 24}));
    let end = parse_position(last["ev"]["position"].as_str().unwrap_or_default()).expect("pos");
    assert!(aquila.solved(&end), "the eagles are home: {end:?}");

    // The spectator saw every click, in order, and the end: the same events as the player.
    watcher
        .sync_to(&room, over["seq"].as_u64().expect("seq"))
        .await;
    let seen: Vec<&Value> = watcher
        .events
        .iter()
        .filter(|e| e["room"] == json!(room))
        .collect();
    let played: Vec<&Value> = p
        .events
        .iter()
        .filter(|e| e["room"] == json!(room) && e["seq"].as_u64() > Some(from))
        .collect();
    assert_eq!(seen, played);
    let clicks: Vec<&str> = seen
        .iter()
        .filter(|e| e["ev"]["kind"] == "click")
        .filter_map(|e| e["ev"]["click"].as_str())
        .collect();
    let mut expected: Vec<&str> = line[..23].iter().map(String::as_str).collect();
    expected.push("C5R");
    assert_eq!(clicks, expected);

    // Over: no more clicks; the room says how it ended.
    let e = p
        .refused(json!({"t": "click", "room": room, "click": "C5R"}))
        .await;
    assert_eq!(e["code"], "illegal");
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["status"], "finished");
    assert_eq!(snap["result"]["scores"], json!({"S": 24}));
}

#[tokio::test]
async fn a_puzzle_room_has_one_seat_its_own_rotors_and_no_turns() {
    let server = TestServer::start();
    let mut p = server.player("solo").await;
    let (room, _) = create(&mut p, "binary-1").await;
    assert_eq!(
        refused_click(&mut p, &room, "C3R").await,
        "rotor C3 may not turn in this puzzle"
    );
    let e = p.refused(json!({"t": "end_turn", "room": room})).await;
    assert_eq!(e["code"], "illegal");
    // More clicks than any game's move, one undoing the other: no clicks or reversal rule.
    for click in ["E1L", "E1R", "E1L", "E1R", "E1L", "E1R", "E1L"] {
        p.play(&room, "click", json!({"click": click})).await;
    }
    let mut other = server.player("other").await;
    let e = other.refused(json!({"t": "join", "room": room})).await;
    assert_eq!(e["code"], "full");
    let e = other
        .refused(json!({"t": "click", "room": room, "click": "E1L"}))
        .await;
    assert_eq!(e["code"], "not_a_player");
    let snap = other.request(json!({"t": "spectate", "room": room})).await;
    assert_eq!(snap["seats"]["S"]["name"], "solo");
    assert_eq!(
        (&snap["turn"]["used"], &snap["turn"]["target"]),
        (&json!(7), &json!(20))
    );
    // A room of more players than the puzzle's one is refused.
    let e = other
        .refused(json!({"t": "create", "game": "aquila", "options": {"players": 2}}))
        .await;
    assert_eq!(e["code"], "bad_request", "{e}");
}

#[tokio::test]
async fn quick_match_refuses_a_puzzle() {
    let server = TestServer::start();
    let mut p = server.player("hasty").await;
    for name in ["aquila", "orbit-b", "aquarius"] {
        let e = p.refused(json!({"t": "quick", "game": name})).await;
        assert_eq!(e["code"], "bad_request", "{e}");
        let message = e["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(name) && message.contains("puzzle") && message.contains("create"),
            "{message}"
        );
    }
    // Still free to match for a game: the refusals queued nothing.
    let queued = p.request(json!({"t": "quick", "game": "hydra-2"})).await;
    assert_eq!(queued["t"], "queued", "{queued}");
}

#[tokio::test]
async fn an_orbit_solitaire_room_survives_a_server_restart_with_its_dealt_start() {
    let db = temp_db("puzzle-restart");
    let clock = Arc::new(ManualClock::new(T0));
    let server = TestServer::start_on(&db, clock.clone());
    let mut p = server.player("orbiter").await;
    let (room, start) = create(&mut p, "orbit-a").await;
    let orbit = puzzles::find("orbit-a").expect("orbit-a");
    let dealt = parse_position(start["ev"]["position"].as_str().unwrap_or_default()).expect("pos");
    assert!(!orbit.solved(&dealt), "a wrong order is dealt");
    orbit.with_start(dealt).expect("the puzzle's own pieces");
    for click in ["A1R", "B1R", "A1L"] {
        p.play(&room, "click", json!({"click": click})).await;
    }
    let seen = p.last_seq(&room);
    let old = p.events.clone();
    server.kill();

    let server = TestServer::start_on(&db, clock);
    let (mut back, welcome) = server.reconnect("orbiter", &p.token).await;
    assert_eq!(welcome["rooms"], json!([room]), "{welcome}");
    back.seat = "S".into();
    back.send(json!({"t": "resume", "room": room, "since": 0}))
        .await;
    back.sync_to(&room, seen).await;
    assert_eq!(back.events.len() as u64, seen);
    for e in &old {
        let seq = e["seq"].as_u64().expect("seq") as usize;
        assert_eq!(
            &back.events[seq - 1],
            e,
            "event {seq} differs after the restart"
        );
    }
    // The replayed room holds the same position and count: the deal came from the seed.
    let mut watcher = server.player("watcher").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    let now = old.last().map(|e| e["ev"]["position"].clone());
    assert_eq!(Some(snap["position"].clone()), now);
    assert_eq!(
        (
            &snap["status"],
            &snap["turn"]["used"],
            &snap["turn"]["target"]
        ),
        (&json!("playing"), &json!(3), &json!(9))
    );
    // And it plays on to the finish.
    let here = parse_position(snap["position"].as_str().unwrap_or_default()).expect("pos");
    let line = solve::solve(&orbit.with_start(here).expect("same pieces")).expect("solvable");
    for click in &line.clicks {
        back.play(&room, "click", json!({"click": click.to_string()}))
            .await;
    }
    let over = watcher.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], "S");
    assert_eq!(
        over["ev"]["result"]["scores"]["S"].as_u64(),
        Some(3 + line.clicks.len() as u64)
    );
    server.shutdown();
    remove_db(&db);
}

#[tokio::test]
async fn aquarius_gives_five_tries_and_a_score_and_shows_no_chain_before_its_try() {
    let server = TestServer::start();
    let mut p = server.player("seer").await;
    let (room, start) = create(&mut p, "aquarius").await;
    assert_eq!(start["ev"]["position"], "", "nothing on the board");
    assert_eq!(start["ev"]["turn"]["target"], 5);
    let mut watcher = server.player("watcher").await;
    // Everything sent before a try, as text, but the earlier tries (each shows its own chain).
    let mut before: Vec<String> = Vec::new();
    let mut hits = 0;
    for (i, rotor) in ["C3", "B2", "C3", "D4", "A1"].iter().enumerate() {
        let snap = watcher
            .request(json!({"t": "spectate", "room": room}))
            .await;
        assert_eq!(snap["position"], "");
        assert_eq!(snap["turn"]["used"], i);
        before.push(snap.to_string());
        let events = p.events.iter().filter(|e| e["ev"]["kind"] != "try");
        let before: Vec<String> = before
            .iter()
            .cloned()
            .chain(events.map(Value::to_string))
            .collect();
        p.send(json!({"t": "click", "room": room, "click": format!("{rotor}R")}))
            .await;
        let t = p.expect_event(&room, "try").await;
        let ev = &t["ev"];
        assert_eq!(ev["seat"], "S");
        assert_eq!(ev["click"], format!("{rotor}R"));
        assert_eq!(ev["tries"], i + 1);
        let chain: Vec<&str> = ev["chain"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let set = chain
            .iter()
            .map(|s| orion_engine::parse_slot(s).expect("slot"))
            .collect();
        assert!(puzzles::is_valid_chain(set), "{ev}");
        let hit = ev["hit"].as_bool().expect("hit");
        let rotor = orion_engine::parse_rotor(rotor).expect("rotor");
        assert_eq!(hit, puzzles::score_try(set, rotor), "{ev}");
        hits += usize::from(hit);
        assert_eq!(ev["hits"], hits);
        // The chain was in nothing sent before its try.
        let shown = ev["chain"].to_string();
        for text in &before {
            assert!(!text.contains(&shown), "chain {shown} leaked in {text}");
            assert!(
                !text.contains("\"chain\""),
                "a chain before its try: {text}"
            );
        }
    }
    let over = p.expect_event(&room, "over").await;
    let score = over["ev"]["result"]["scores"]["S"].as_u64().expect("score");
    assert!(score <= 5);
    assert_eq!(score, hits as u64);
    let telepath = hits >= puzzles::TELEPATHY;
    assert_eq!(
        over["ev"]["result"]["winner"],
        if telepath { json!("S") } else { Value::Null }
    );
    let e = p
        .refused(json!({"t": "click", "room": room, "click": "C3R"}))
        .await;
    assert_eq!(e["code"], "illegal");
}
