//! Correspondence rooms (`days_per_move`): a game between two accounts that lasts days with
//! nobody connected between moves, the deadline told as each turn begins and warned a day
//! before, a loss when the days run out, and all of it kept across a restart. Time is the
//! server's manual clock.

use orion_tests::{remove_db, start_room, temp_db, Client, TestServer, T0};
use serde_json::{json, Value};
use std::sync::Arc;

const PASSWORD: &str = "correct horse battery";
const DAY: u64 = 24 * 3_600_000;

/// A connected player who has claimed `name`.
async fn claimed(server: &TestServer, name: &str) -> Client {
    let mut c = server.player(name).await;
    let w = c
        .request(json!({"t": "register", "password": PASSWORD}))
        .await;
    assert_eq!(w["account"], true, "{w}");
    c
}

/// The next `deadline` event `c` gets in `room`.
async fn deadline(c: &mut Client, room: &str) -> Value {
    c.expect_event(room, "deadline").await["ev"].clone()
}

#[tokio::test]
async fn bad_correspondence_options_and_guests_are_refused_in_words() {
    let server = TestServer::start();
    let mut guest = server.player("guest").await;
    let e = guest
        .refused(json!({"t": "create", "game": "hydra-2", "options": {"days_per_move": 2}}))
        .await;
    assert!(
        e["message"]
            .as_str()
            .unwrap_or("")
            .contains("claimed names"),
        "{e}"
    );
    let mut alice = claimed(&server, "alice").await;
    for (options, says) in [
        (json!({"days_per_move": 4}), "one of [1, 2, 3, 5, 7, 14]"),
        (
            json!({"days_per_move": 3, "turn_clock": 60000}),
            "leave turn_clock",
        ),
    ] {
        let e = alice
            .refused(json!({"t": "create", "game": "hydra-2", "options": options}))
            .await;
        assert!(e["message"].as_str().unwrap_or("").contains(says), "{e}");
    }
    let puzzle = alice
        .refused(json!({"t": "create", "game": "aquila", "options": {"days_per_move": 1}}))
        .await;
    assert_eq!(puzzle["code"], "bad_request", "{puzzle}");

    // An account's room: a guest may not take its other seat.
    let joined = alice
        .request(json!({"t": "create", "game": "hydra-2", "options": {"days_per_move": 2}}))
        .await;
    assert_eq!(joined["t"], "joined", "{joined}");
    let e = guest
        .refused(json!({"t": "join", "room": joined["room"]}))
        .await;
    assert!(
        e["message"]
            .as_str()
            .unwrap_or("")
            .contains("claimed names"),
        "{e}"
    );
}

#[tokio::test]
async fn a_game_lasts_days_with_nobody_connected_is_warned_and_lost_on_time_across_a_restart() {
    let db = temp_db("correspondence");
    let clock = Arc::new(orion_server::ManualClock::new(T0));
    let server = TestServer::start_on(&db, clock.clone());
    let mut players = vec![
        claimed(&server, "alice").await,
        claimed(&server, "bob").await,
    ];
    let room = start_room(&mut players, "hydra-2", json!({"days_per_move": 2})).await;
    // South's turn begins with the game: two days from now.
    let first = deadline(&mut players[1], &room).await;
    assert_eq!(first["seat"], "S", "{first}");
    assert_eq!(first["at"], json!(T0 + 2 * DAY), "{first}");
    let (s, n) = if players[0].seat == "S" {
        (0, 1)
    } else {
        (1, 0)
    };
    let tokens: Vec<String> = players.iter().map(|p| p.token.clone()).collect();
    drop(players);

    // A day and a half with nobody connected: the game waits (no seat hold, no away loss).
    clock.advance(DAY + DAY / 2);
    let mut watcher = server.player("watcher").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["status"], "playing", "{snap}");
    assert_eq!(snap["deadline"], json!(T0 + 2 * DAY), "{snap}");
    assert_eq!(snap["seats"]["S"]["connected"], false, "{snap}");

    // South comes back and moves: North's two days begin.
    let (mut south, _) = server.reconnect("alice", &tokens[s]).await;
    south.seat = "S".into();
    south
        .send(json!({"t": "resume", "room": room, "since": 0}))
        .await;
    let told = deadline(&mut south, &room).await;
    assert_eq!(told, first, "the deadline is in the room's history");
    // So is the warning he was given a day before it, while away.
    let warned = deadline(&mut south, &room).await;
    assert_eq!(
        (
            warned["seat"].clone(),
            warned["at"].clone(),
            warned["warning"].clone()
        ),
        (json!("S"), json!(T0 + 2 * DAY), json!(true)),
        "{warned}"
    );
    south.play(&room, "click", json!({"click": "A2L"})).await;
    let south_moved = T0 + DAY + DAY / 2;
    let next = deadline(&mut south, &room).await;
    assert_eq!(next["seat"], "N", "{next}");
    assert_eq!(next["at"], json!(south_moved + 2 * DAY), "{next}");
    drop(south);

    // North answers a day later, the first he hears of it; South's two days begin.
    clock.advance(DAY);
    let (mut north, _) = server.reconnect("bob", &tokens[n]).await;
    north.seat = "N".into();
    north
        .send(json!({"t": "resume", "room": room, "since": 0}))
        .await;
    // His deadline, and the warning he got as he came back (a day of his two gone).
    let mut told = Vec::new();
    while told.len() < 4 {
        told.push(deadline(&mut north, &room).await);
    }
    assert_eq!(
        (told[3]["seat"].clone(), told[3]["warning"].clone()),
        (json!("N"), json!(true)),
        "{told:?}"
    );
    north.play(&room, "click", json!({"click": "E4R"})).await;
    let north_moved = south_moved + DAY;
    let next = deadline(&mut north, &room).await;
    assert_eq!(next["seat"], "S", "{next}");
    assert_eq!(next["at"], json!(north_moved + 2 * DAY), "{next}");
    drop(north);
    drop(watcher);

    // The server stops; the room comes back from the store with South's deadline.
    server.kill();
    let server = TestServer::start_on(&db, clock.clone());
    let mut watcher = server.player("watcher2").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["status"], "playing", "{snap}");
    assert_eq!(snap["deadline"], json!(north_moved + 2 * DAY), "{snap}");

    // South opens the site without entering the room: his account hears of it there.
    let (mut south_elsewhere, _) = server.reconnect("alice", &tokens[s]).await;
    // A day before it runs out, South is warned (once); then his time is up and he loses.
    clock.advance(DAY - 1);
    clock.advance(1);
    let warned = deadline(&mut watcher, &room).await;
    assert_eq!(
        (warned["seat"].clone(), warned["warning"].clone()),
        (json!("S"), json!(true)),
        "{warned}"
    );
    let told = south_elsewhere.expect_t("notify").await;
    assert_eq!(
        (told["kind"].clone(), told["room"].clone()),
        (json!("deadline"), json!(room)),
        "{told}"
    );
    clock.advance(DAY);
    let told = south_elsewhere.expect_t("notify").await;
    assert_eq!(
        (told["kind"].clone(), told["room"].clone()),
        (json!("over"), json!(room)),
        "{told}"
    );
    let over = watcher.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["reason"], "time", "{over}");
    assert_eq!(over["ev"]["seat"], "S", "{over}");
    assert_eq!(over["ev"]["result"]["winner"], "N", "{over}");
    let warnings = (watcher.events.iter())
        .filter(|e| e["ev"]["kind"] == "deadline" && e["ev"]["warning"] == true)
        .count();
    assert_eq!(warnings, 1, "warned once");

    // South, back after the end, finds the game over.
    let (mut south, _) = server.reconnect("alice", &tokens[s]).await;
    let snap = south.request(json!({"t": "spectate", "room": room})).await;
    assert_eq!(snap["status"], "finished", "{snap}");
    drop(server);
    remove_db(&db);
}

#[tokio::test]
async fn mine_lists_a_players_games_his_turn_first_with_the_deadline_and_last_move() {
    let server = TestServer::start();
    let mut corr = vec![
        claimed(&server, "alice").await,
        claimed(&server, "bob").await,
    ];
    let letter = start_room(&mut corr, "hydra-2", json!({"days_per_move": 3})).await;
    let mut live = vec![claimed(&server, "carol").await, server.player("dave").await];
    let table = start_room(&mut live, "hydra-2", json!({})).await;
    let mut alice = corr.remove(0);
    let mut bob = corr.remove(0);
    // Alice also sits in a room of Erin's that still waits for players.
    let mut erin = server.player("erin").await;
    let waiting = erin
        .request(json!({"t": "create", "game": "hydra-2", "seat": "S"}))
        .await;
    let waiting = waiting["room"].as_str().expect("a room").to_string();
    let joined = alice.request(json!({"t": "join", "room": waiting})).await;
    assert_eq!(joined["t"], "joined", "{joined}");

    let mine = alice.request(json!({"t": "mine"})).await;
    assert_eq!(mine["t"], "mine", "{mine}");
    let games = mine["games"].as_array().expect("games");
    assert_eq!(games.len(), 2, "{mine}");
    assert_eq!(games[0]["room"], json!(letter), "her turn first: {mine}");
    assert_eq!(games[0]["your_turn"], true, "{mine}");
    assert_eq!(games[0]["seat"], "S", "{mine}");
    assert_eq!(games[0]["days_per_move"], 3, "{mine}");
    assert_eq!(games[0]["deadline"], json!(T0 + 3 * DAY), "{mine}");
    assert_eq!(games[0]["last_move"], json!(T0), "{mine}");
    assert_eq!(
        games[0]["seats"],
        json!({"S": "alice", "N": "bob"}),
        "{mine}"
    );
    assert_eq!(games[1]["room"], json!(waiting), "{mine}");
    assert_eq!(
        (games[1]["status"].clone(), games[1]["your_turn"].clone()),
        (json!("waiting"), json!(false)),
        "{mine}"
    );
    // Carol's game is not Alice's; Dave (a guest) has his live game, not to move.
    let dave = live[1].request(json!({"t": "mine"})).await;
    assert_eq!(dave["games"][0]["room"], json!(table), "{dave}");
    assert_eq!(dave["games"][0]["your_turn"], false, "{dave}");
    assert_eq!(dave["games"][0].get("deadline"), None, "{dave}");

    // An hour later Alice moves: it is Bob's turn, his three days from now.
    server.clock.advance(3_600_000);
    alice.play(&letter, "click", json!({"click": "A2L"})).await;
    deadline(&mut bob, &letter).await;
    let theirs = bob.request(json!({"t": "mine"})).await;
    assert_eq!(theirs["games"][0]["your_turn"], true, "{theirs}");
    assert_eq!(
        theirs["games"][0]["deadline"],
        json!(T0 + 3_600_000 + 3 * DAY),
        "{theirs}"
    );
    assert_eq!(theirs["games"][0]["last_move"], json!(T0 + 3_600_000));
    let hers = alice.request(json!({"t": "mine"})).await;
    assert_eq!(hers["games"][0]["your_turn"], false, "{hers}");
}
