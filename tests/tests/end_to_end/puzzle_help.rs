//! A puzzle solver's help over the wire: `undo` takes his last clicks back (the position and
//! the count with them, the same after a server restart, and a solve is scored by the clicks
//! that stand, and the game's record replays them), refused in words to a watcher, in a game, with nothing to undo and after the
//! end; `hint` shows the next click of a shortest line from where he is, and a solve that
//! used one says so in its result and stays off the puzzle's board.

use orion_engine::{parse_position, puzzles, solve};
use orion_server::ManualClock;
use orion_tests::{expand, http_get, remove_db, start_room, temp_db, Client, TestServer, T0};
use serde_json::{json, Value};
use std::sync::Arc;

const PASSWORD: &str = "correct horse battery";

/// Creates a room of puzzle `name`; returns its id and its start position.
async fn create(c: &mut Client, name: &str) -> (String, String) {
    let joined = c.request(json!({"t": "create", "game": name})).await;
    assert_eq!(joined["t"], "joined", "{joined}");
    c.seat = "S".into();
    let room = joined["room"].as_str().expect("room id").to_string();
    let start = c.expect_event(&room, "start").await;
    let position = start["ev"]["position"].as_str().unwrap_or_default();
    (room, position.to_string())
}

/// A request that must be refused with `code`; returns the message.
async fn refused(c: &mut Client, req: Value, code: &str) -> String {
    let error = c.refused(req).await;
    assert_eq!(error["code"], code, "{error}");
    error["message"].as_str().unwrap_or_default().to_string()
}

/// The position string of the last event of `room` that `c` saw carrying one.
fn position_seen(c: &Client, room: &str) -> String {
    let ev = c
        .events
        .iter()
        .rev()
        .find(|e| e["room"] == room && e["ev"]["position"].is_string())
        .expect("an event with a position");
    ev["ev"]["position"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn undo_takes_clicks_back_for_good_and_the_solve_counts_the_clicks_that_stand() {
    let db = temp_db("puzzle-undo");
    let clock = Arc::new(ManualClock::new(T0));
    let server = TestServer::start_on(&db, clock.clone());
    let mut p = server.player("eagle").await;

    // Nothing clicked yet: nothing to undo.
    let (room, start) = create(&mut p, "aquila").await;
    let nothing = refused(&mut p, json!({"t": "undo", "room": room}), "illegal").await;
    assert_eq!(nothing, "nothing to undo: no click of yours stands");

    let aquila = puzzles::find("aquila").expect("aquila");
    let line = expand(aquila.booklet_solution.expect("printed"));
    p.play(&room, "click", json!({"click": line[0]})).await;
    let after_one = position_seen(&p, &room);
    p.play(&room, "click", json!({"click": line[1]})).await;
    // A third click, then two taken back: the board and the count go back with them.
    p.play(&room, "click", json!({"click": line[2]})).await;
    let undo = p.play(&room, "undo", json!({})).await;
    assert_eq!(undo["ev"]["kind"], "undo", "{undo}");
    assert_eq!(undo["ev"]["click"], json!(line[2]));
    assert_eq!(undo["ev"]["used"], 2);
    let undo = p.play(&room, "undo", json!({})).await;
    assert_eq!(undo["ev"]["click"], json!(line[1]));
    assert_eq!(undo["ev"]["used"], 1);
    assert_eq!(undo["ev"]["position"], json!(after_one));
    assert_ne!(after_one, start);

    // A watcher cannot undo the solver's clicks.
    let mut watcher = server.player("watcher").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(
        (&snap["position"], &snap["turn"]["used"]),
        (&json!(after_one), &json!(1))
    );
    let not_his = refused(
        &mut watcher,
        json!({"t": "undo", "room": room}),
        "not_a_player",
    )
    .await;
    assert!(not_his.contains("you are watching"), "{not_his}");

    // A restart replays the undos: the same position and count.
    let seen = p.last_seq(&room);
    server.kill();
    let server = TestServer::start_on(&db, clock);
    let (mut back, _) = server.reconnect("eagle", &p.token).await;
    back.seat = "S".into();
    back.send(json!({"t": "resume", "room": room, "since": 0}))
        .await;
    back.sync_to(&room, seen).await;
    let mut late = server.player("late").await;
    let snap = late.request(json!({"t": "spectate", "room": room})).await;
    assert_eq!(
        (&snap["position"], &snap["turn"]["used"]),
        (&json!(after_one), &json!(1)),
        "{snap}"
    );

    // The booklet's line from here (its misprinted last click corrected): the solve is
    // scored 24, the clicks that stand, not the 26 made.
    for click in &line[1..23] {
        back.play(&room, "click", json!({"click": click})).await;
    }
    back.play(&room, "click", json!({"click": "C5R"})).await;
    let over = back.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], "S");
    assert_eq!(over["ev"]["result"]["scores"], json!({"S": 24}));
    assert_eq!(over["ev"]["result"].get("hints"), None, "no hint was used");
    // The game's record replays the undos too: the same end and score (`orion replay`).
    let response = http_get(server.addr, &format!("/g/{room}.txt")).await;
    let record = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    assert!(record.contains("undo"), "{record}");
    let replayed = orion_cli::replay::replay(record)
        .unwrap_or_else(|e| panic!("the record does not replay: {e}\n{record}"));
    let last = back
        .events
        .iter()
        .rev()
        .find(|e| e["room"] == json!(room) && e["ev"]["position"].is_string());
    assert_eq!(
        Some(json!(replayed.position)),
        last.map(|e| e["ev"]["position"].clone())
    );
    let scores = serde_json::to_value(&replayed.result).expect("result");
    assert_eq!(scores["scores"], json!({"S": 24}));
    let done = refused(&mut back, json!({"t": "undo", "room": room}), "illegal").await;
    assert_eq!(done, "the puzzle is over: its clicks stand");

    // In a game every click stands.
    let mut players = [server.player("ann").await, server.player("bob").await];
    let game = start_room(&mut players, "hydra-2", json!({})).await;
    let in_game = refused(
        &mut players[0],
        json!({"t": "undo", "room": game}),
        "illegal",
    )
    .await;
    assert_eq!(
        in_game,
        "undo is for puzzles: hydra-2 is a game, where every click stands"
    );
    server.shutdown();
    remove_db(&db);
}

/// The hint `c` is shown in `room`, after asking for it.
async fn hint(c: &mut Client, room: &str) -> Value {
    let shown = c.play(room, "hint", json!({})).await;
    assert_eq!(shown["ev"]["kind"], "hint", "{shown}");
    shown
}

/// The fewest clicks from `position` to Aquila's finish.
fn distance(position: &str) -> usize {
    let aquila = puzzles::find("aquila").expect("aquila");
    let here = parse_position(position).expect("position");
    let from_here = aquila.with_start(here).expect("aquila's pieces");
    solve::solve(&from_here).expect("solvable").clicks.len()
}

#[tokio::test]
async fn hints_lead_to_the_finish_by_a_shortest_line_and_keep_the_solve_off_the_board() {
    let server = TestServer::start();
    let mut p = server.player("helped").await;
    let claimed = p
        .request(json!({"t": "register", "password": PASSWORD}))
        .await;
    assert_eq!(claimed["account"], true, "{claimed}");
    let (room, _) = create(&mut p, "aquila").await;
    let aquila = puzzles::find("aquila").expect("aquila");
    let line = expand(aquila.booklet_solution.expect("printed"));
    for click in &line[..18] {
        p.play(&room, "click", json!({"click": click})).await;
    }

    // A watcher asks in vain; so does a player in a game.
    let mut watcher = server.player("watcher").await;
    watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    let not_his = refused(
        &mut watcher,
        json!({"t": "hint", "room": room}),
        "not_a_player",
    )
    .await;
    assert_eq!(
        not_his,
        "only the puzzle's solver may ask for a hint: you are watching"
    );

    // Each hint is a click of a shortest line: one nearer the finish, as many left as the
    // solver proves; following them ends the puzzle.
    let mut shown = 0;
    loop {
        let here = position_seen(&p, &room);
        let h = hint(&mut p, &room).await;
        shown += 1;
        assert_eq!(h["ev"]["hints"], shown);
        let left = distance(&here);
        assert_eq!(h["ev"]["left"], json!(left), "{h}");
        let click = h["ev"]["click"].as_str().expect("click").to_string();
        p.play(&room, "click", json!({"click": click})).await;
        if left == 1 {
            break;
        }
        assert_eq!(distance(&position_seen(&p, &room)), left - 1, "{click}");
    }
    let over = p.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], "S");
    assert_eq!(over["ev"]["result"]["hints"], json!(shown), "{over}");
    let solved = over["ev"]["result"]["scores"]["S"].as_u64().expect("score");

    // The same count solved unhelped enters the board; the hinted one does not.
    let mut own = server.player("unhelped").await;
    own.request(json!({"t": "register", "password": PASSWORD}))
        .await;
    let (other, _) = create(&mut own, "aquila").await;
    for click in &line[..23] {
        own.play(&other, "click", json!({"click": click})).await;
    }
    own.play(&other, "click", json!({"click": "C5R"})).await;
    own.expect_event(&other, "over").await;
    let board = p
        .request(json!({"t": "leaderboard", "game": "aquila"}))
        .await;
    let names: Vec<&Value> = board["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| &e["name"])
        .collect();
    assert_eq!(
        names,
        [&json!("unhelped")],
        "{board} (helped solved in {solved})"
    );

    // In a game there are no hints.
    let mut players = [server.player("ann").await, server.player("bob").await];
    let game = start_room(&mut players, "hydra-2", json!({})).await;
    let in_game = refused(
        &mut players[0],
        json!({"t": "hint", "room": game}),
        "illegal",
    )
    .await;
    assert!(in_game.starts_with("a hint is for puzzles"), "{in_game}");
    server.shutdown();
}
