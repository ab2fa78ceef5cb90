//! Correspondence rooms (`days_per_move`): a game between two accounts that lasts days with
//! nobody connected between moves, the deadline told as each turn begins and warned a day
//! before, a loss when the days run out, and all of it kept across a restart; seeks (`quick`
//! with `days_per_move`) that wait in the lobby for days and across a restart, on SQLite and
//! PostgreSQL, until another seek takes them; the bound of 50 correspondence seats, apart
//! from the 8 live ones; a turn planned on a copy of the room (`plan`) before it is sent.
//! Time is the server's manual clock.

use orion_tests::pg::Postgres;
use orion_tests::{remove_db, start_room, temp_db, Client, TestServer, T0};
use serde_json::{json, Value};
use std::sync::Arc;

const PASSWORD: &str = "correct horse battery";
const DAY: u64 = 24 * 3_600_000;

/// A connected player who has claimed `name`.
async fn claimed(server: &TestServer, name: &str) -> Client {
    let mut c = server.player(name).await;
    c.claim(PASSWORD).await;
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

/// The public rooms of a `lobby` reply, by id.
async fn listed(c: &mut Client) -> Vec<Value> {
    let lobby = c.request(json!({"t": "lobby"})).await;
    lobby["rooms"].as_array().cloned().unwrap_or_default()
}

/// A seek for Hydra for Two with `days` a turn.
fn seek(days: u8) -> Value {
    json!({"t": "quick", "game": "hydra-2", "days_per_move": days})
}

/// A seek waits in the lobby with its owner gone, through a restart of the server on
/// `store`; a withdrawn one leaves the lobby; a day later another account's seek for the same
/// game and days takes it and the game starts at once, the owner finding it his turn.
async fn a_seek_waits_across_a_restart_and_is_taken_a_day_later(store: &str) {
    let clock = Arc::new(orion_server::ManualClock::new(T0));
    let server = TestServer::start_on(store, clock.clone());
    let mut guest = server.player("guest").await;
    let e = guest.refused(seek(3)).await;
    assert!(
        e["message"]
            .as_str()
            .unwrap_or("")
            .contains("claimed names"),
        "{e}"
    );
    let mut alice = claimed(&server, "alice").await;
    let joined = alice.request(seek(3)).await;
    assert_eq!(joined["t"], "joined", "{joined}");
    let room = joined["room"].as_str().expect("room").to_string();
    // Carol seeks a week a move, then thinks better of it.
    let mut carol = claimed(&server, "carol").await;
    let hers = carol.request(seek(7)).await;
    let withdrawn = hers["room"].as_str().expect("room").to_string();
    let rooms = listed(&mut guest).await;
    let offer = rooms.iter().find(|r| r["room"] == json!(room));
    let offer = offer.unwrap_or_else(|| panic!("{room} is not listed: {rooms:?}"));
    assert_eq!(offer["status"], "waiting", "{offer}");
    assert_eq!(offer["options"]["days_per_move"], 3, "{offer}");
    assert_eq!(offer["seats"], json!({"S": "alice", "N": null}), "{offer}");
    assert!(rooms.iter().any(|r| r["room"] == json!(withdrawn)));
    // Withdrawn, it leaves the lobby: a watcher of the list is sent one without it.
    guest.request(json!({"t": "lobby", "watch": true})).await;
    let left = carol
        .request(json!({"t": "leave", "room": withdrawn}))
        .await;
    assert_eq!(left["t"], "left", "{left}");
    let without = |m: &Value| {
        m["t"] == "lobby"
            && (m["rooms"].as_array())
                .is_some_and(|r| !r.iter().any(|r| r["room"] == json!(withdrawn)))
    };
    let pushed = guest.expect(without).await;
    assert!(
        (pushed["rooms"].as_array()).is_some_and(|r| r.iter().any(|r| r["room"] == json!(room))),
        "{pushed}"
    );
    let token = alice.token.clone();
    drop((alice, carol, guest));

    // The server dies; a day later the seek is still there, its owner away.
    server.kill();
    let server = TestServer::start_on(store, clock.clone());
    clock.advance(DAY);
    // Alice has the site open, not the room.
    let (mut alice, _) = server.reconnect("alice", &token).await;
    let mut bob = claimed(&server, "bob").await;
    let rooms = listed(&mut bob).await;
    assert!(
        rooms
            .iter()
            .any(|r| r["room"] == json!(room) && r["status"] == "waiting"),
        "{rooms:?}"
    );
    // Bob's seek for another number of days does not take it; his for three days does, and
    // the game starts at once.
    let other = bob.request(seek(5)).await;
    assert_ne!(other["room"], json!(room), "{other}");
    let left = bob
        .request(json!({"t": "leave", "room": other["room"]}))
        .await;
    assert_eq!(left["t"], "left", "{left}");
    let taken = bob.request(seek(3)).await;
    assert_eq!(
        (
            taken["t"].clone(),
            taken["room"].clone(),
            taken["seat"].clone()
        ),
        (json!("joined"), json!(room), json!("N")),
        "{taken}"
    );
    bob.expect_event(&room, "start").await;
    let first = deadline(&mut bob, &room).await;
    assert_eq!(
        (first["seat"].clone(), first["at"].clone()),
        (json!("S"), json!(T0 + DAY + 3 * DAY)),
        "{first}"
    );
    // Alice is told it is her turn, and finds the game in `mine`, hers to play.
    let told = alice.expect_t("notify").await;
    assert_eq!(
        (told["kind"].clone(), told["room"].clone()),
        (json!("your_turn"), json!(room)),
        "{told}"
    );
    let mine = alice.request(json!({"t": "mine"})).await;
    assert_eq!(mine["games"][0]["room"], json!(room), "{mine}");
    assert_eq!(mine["games"][0]["your_turn"], true, "{mine}");
    assert_eq!(mine["games"][0]["status"], "playing", "{mine}");
    drop(server);
}

#[tokio::test]
async fn a_seek_waits_for_days_across_a_restart_on_sqlite() {
    let db = temp_db("seek");
    a_seek_waits_across_a_restart_and_is_taken_a_day_later(&db).await;
    remove_db(&db);
}

#[tokio::test]
async fn a_seek_waits_for_days_across_a_restart_on_postgres() {
    let pg = Postgres::start();
    a_seek_waits_across_a_restart_and_is_taken_a_day_later(&pg.url()).await;
}

#[tokio::test]
async fn correspondence_seats_have_a_bound_of_their_own_seeks_included() {
    let server = TestServer::start();
    let mut alice = claimed(&server, "alice").await;
    let token = alice.token.clone();
    // One connection may be in 32 rooms, and each has its own request rate: three of them.
    let (mut second, _) = server.reconnect("alice", &token).await;
    let (mut third, _) = server.reconnect("alice", &token).await;
    let days = [1, 2, 3, 5, 7, 14];
    for i in 0..orion_server::MAX_CORRESPONDENCE_SEATS {
        let c = if i < 25 { &mut alice } else { &mut second };
        let j = if i % 2 == 0 {
            let options = json!({"days_per_move": days[i % 6]});
            c.request(json!({"t": "create", "game": "hydra-2", "options": options}))
                .await
        } else {
            c.request(seek(days[i % 6])).await
        };
        assert_eq!(j["t"], "joined", "game {i}: {j}");
    }
    assert_eq!(orion_server::MAX_CORRESPONDENCE_SEATS, 50);
    // The 51st, a room or a seek, is refused naming the bound.
    let e = third
        .refused(json!({"t": "create", "game": "hydra-2", "options": {"days_per_move": 2}}))
        .await;
    assert_eq!(e["code"], "full", "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap_or("")
            .contains("50 correspondence games"),
        "{e}"
    );
    let e = third.refused(seek(1)).await;
    assert!(
        e["message"]
            .as_str()
            .unwrap_or("")
            .contains("50 correspondence games"),
        "{e}"
    );
    // Nor may she take a seat in someone else's.
    let mut bob = claimed(&server, "bob").await;
    let theirs = bob
        .request(json!({"t": "create", "game": "hydra-2", "options": {"days_per_move": 2}}))
        .await;
    let e = third
        .refused(json!({"t": "join", "room": theirs["room"]}))
        .await;
    assert!(
        e["message"]
            .as_str()
            .unwrap_or("")
            .contains("50 correspondence games"),
        "{e}"
    );
    // Live games count apart: eight of them still, the ninth refused naming that bound.
    for i in 0..orion_server::MAX_SEATS_PER_PLAYER {
        let j = third
            .request(json!({"t": "create", "game": "hydra-2"}))
            .await;
        assert_eq!(j["t"], "joined", "live game {i}: {j}");
    }
    let e = third
        .refused(json!({"t": "create", "game": "hydra-2"}))
        .await;
    assert!(
        e["message"].as_str().unwrap_or("").contains("8 rooms"),
        "{e}"
    );
    // A seek withdrawn frees its seat for another.
    let mine = third.request(json!({"t": "mine"})).await;
    let games = mine["games"].as_array().expect("games");
    assert_eq!(games.len(), 58, "{mine}");
    let letter = (games.iter())
        .find(|g| g.get("days_per_move").is_some())
        .and_then(|g| g["room"].as_str())
        .expect("a correspondence game")
        .to_string();
    let left = third.request(json!({"t": "leave", "room": letter})).await;
    assert_eq!(left["t"], "left", "{left}");
    let j = third.request(seek(14)).await;
    assert_eq!(j["t"], "joined", "{j}");
}

/// A `plan` of `clicks` in `room`.
fn plan(room: &str, clicks: &[&str]) -> Value {
    let actions: Vec<Value> = (clicks.iter())
        .map(|c| json!({"t": "click", "click": c}))
        .collect();
    json!({"t": "plan", "room": room, "actions": actions})
}

#[tokio::test]
async fn a_turn_is_planned_on_a_copy_of_the_room_then_sent() {
    let server = TestServer::start();
    let mut players = vec![
        claimed(&server, "alice").await,
        claimed(&server, "bob").await,
    ];
    let room = start_room(&mut players, "hydra-2", json!({"days_per_move": 1})).await;
    let (s, n) = if players[0].seat == "S" {
        (0, 1)
    } else {
        (1, 0)
    };
    let mut watcher = server.player("watcher").await;
    let before = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;

    // North may not plan South's turn; nothing but moves may be planned.
    let theirs = players[n].request(plan(&room, &["A2L"])).await;
    assert_eq!(theirs["t"], "planned", "{theirs}");
    assert_eq!(theirs["taken"], 0, "{theirs}");
    assert_eq!(theirs["refused"]["index"], 0, "{theirs}");
    assert_eq!(theirs["refused"]["code"], "not_your_turn", "{theirs}");
    let roll = players[s]
        .request(json!({"t": "plan", "room": room, "actions": [{"t": "roll"}]}))
        .await;
    assert_eq!(roll["refused"]["code"], "bad_request", "{roll}");

    // South's first move is one click: planned, it ends his turn; a second is refused.
    let one = players[s].request(plan(&room, &["A2L", "B2L"])).await;
    assert_eq!(one["taken"], 1, "{one}");
    assert_eq!(one["ends_turn"], true, "{one}");
    assert_eq!(one["refused"]["index"], 1, "{one}");
    assert_eq!(one["refused"]["code"], "not_your_turn", "{one}");
    assert_ne!(
        one["snapshot"]["position"], before["position"],
        "the plan's board shows the click: {one}"
    );
    assert_eq!(one["snapshot"]["turn"]["seat"], "S", "{one}");
    // Nothing happened in the room: the watcher's view is as it was, no event sent.
    let after = server
        .player("late")
        .await
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(after["position"], before["position"]);
    assert_eq!(after["seq"], before["seq"]);

    // The turn sent: the room takes it; North passes.
    players[s]
        .play(&room, "click", json!({"click": "A2L"}))
        .await;
    assert_eq!(
        players[s].events.last().map(|e| e["ev"]["kind"].clone()),
        Some(json!("click"))
    );
    players[n].play(&room, "end_turn", json!({})).await;
    // South's second move is two clicks: one planned, his turn goes on, with where to click.
    let half = players[s].request(plan(&room, &["B2L"])).await;
    assert_eq!(
        (half["taken"].clone(), half["ends_turn"].clone()),
        (json!(1), json!(false)),
        "{half}"
    );
    assert_eq!(half["snapshot"]["turn"]["used"], 1, "{half}");
    assert!(half.get("refused").is_none(), "{half}");
    // A click on no rotor is refused in words, naming the action.
    let bad = players[s].request(plan(&room, &["B2L", "Z9Q"])).await;
    assert_eq!(bad["taken"], 1, "{bad}");
    assert_eq!(bad["refused"]["index"], 1, "{bad}");
    assert!(
        !bad["refused"]["message"].as_str().unwrap_or("").is_empty(),
        "{bad}"
    );
    let whole = players[s].request(plan(&room, &["B2L", "C2R"])).await;
    assert_eq!(
        (whole["taken"].clone(), whole["ends_turn"].clone()),
        (json!(2), json!(true)),
        "{whole}"
    );
}
