//! The archive end to end: every game of the booklet, Orbit and Orbs played to its end through
//! a real server (bots, greedy against random), its record fetched over HTTP at `/g/ROOM.txt`
//! and replayed with the code `orion replay` runs, reaching the position and result the room's
//! own history shows; private and unfinished rooms have no record without their code; a player's games
//! listed newest first a page at a time; and a rematch offered, declined, offered again and
//! accepted, moving both players to a new room with their seats swapped.

use orion_cli::autoplay::{self, BotConfig, Entry, Report};
use orion_cli::bot::Level;
use orion_engine::games;
use orion_tests::{http_get, play_moves, Client, TestServer, HYDRA_TWO};
use serde_json::{json, Value};
use std::time::Duration;

/// The body of an HTTP response, with its status line.
fn split_response(response: &str) -> (&str, &str) {
    let status = response.lines().next().unwrap_or_default();
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, body)
}

/// What the room's history says the game ended with: the last position and the result.
fn history_end(events: &[Value]) -> (String, Value, Option<String>) {
    let position = (events.iter().rev())
        .find_map(|e| e["ev"]["position"].as_str())
        .unwrap_or_default()
        .to_string();
    let over = (events.iter().rev())
        .find(|e| e["ev"]["kind"] == "over")
        .expect("the game is over")["ev"]
        .clone();
    let reason = over["reason"].as_str().map(str::to_string);
    (position, over["result"].clone(), reason)
}

/// Fetches `/g/ROOM.txt`, replays it, and checks it ends where the room's history does.
async fn export_replays_to_the_end(server: &TestServer, watcher: &mut Client, room: &str) {
    let (status, record) = {
        let response = http_get(server.addr, &format!("/g/{room}.txt")).await;
        let (status, body) = split_response(&response);
        (status.to_string(), body.to_string())
    };
    assert!(status.contains("200"), "{status}: {record}");
    let replayed = orion_cli::replay::replay(&record)
        .unwrap_or_else(|e| panic!("the record of {room} does not replay: {e}\n{record}"));
    let (position, result, reason) = history_end(&watcher.history(room).await);
    assert_eq!(
        replayed.position, position,
        "final position of {room}\n{record}"
    );
    let ours = serde_json::to_value(&replayed.result).expect("result");
    assert_eq!(
        ours["winner"], result["winner"],
        "winner of {room}\n{record}"
    );
    assert_eq!(
        ours["scores"], result["scores"],
        "scores of {room}\n{record}"
    );
    assert_eq!(
        replayed.record.reason.is_some(),
        reason.is_some(),
        "{record}"
    );
    assert_eq!(replayed.positions.len(), replayed.record.turns.len());
}

/// Bots for a game of `players`: one greedy, the rest random (they end most games soonest).
fn levels(players: u8) -> Vec<Level> {
    (0..players)
        .map(|i| if i == 0 { Level::Greedy } else { Level::Random })
        .collect()
}

#[tokio::test]
async fn the_sqlite_archive_lists_a_players_games_and_is_pruned_with_its_rooms() {
    let store = orion_server::SqliteStore::open(":memory:").expect("store");
    orion_tests::the_archive_keeps_a_players_games(&store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_exported_from_the_server_replays_to_the_same_end() {
    let server = TestServer::start();
    let mut tasks = Vec::new();
    // ORION's games, and the other two systems' (Orbs for three).
    let all = (games::ALL.iter().map(|r| (r.id(), r.default_players())))
        .chain([("orbit", 2), ("orbs", 3)])
        .collect::<Vec<_>>();
    for &(game, players) in &all {
        for (i, level) in levels(players).into_iter().enumerate() {
            let config = BotConfig {
                server: server.url(),
                name: format!("{game}-{i}"),
                level,
                entry: Entry::Quick {
                    game: game.to_string(),
                    players: Some(players),
                },
                seed: 3 + i as u64,
            };
            tasks.push((game, tokio::spawn(autoplay::run(config))));
        }
    }
    // Most games end within seconds; one that has not by the deadline (Orion can go on and
    // on) is ended the other way a game ends: its bots go, their seats are given up when
    // the hold runs out, and the room records the first of them away (he lost).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(25);
    let mut finished: Vec<(&str, String)> = Vec::new();
    let mut unfinished = Vec::new();
    for (game, task) in tasks {
        let abort = task.abort_handle();
        match tokio::time::timeout_at(deadline, task).await {
            Ok(Ok(Ok(Report { room, .. }))) => {
                if !finished.iter().any(|(_, r)| *r == room) {
                    finished.push((game, room));
                }
            }
            Ok(other) => panic!("a {game} bot failed: {other:?}"),
            Err(_) => {
                abort.abort();
                if !unfinished.contains(&game) {
                    unfinished.push(game);
                }
            }
        }
    }
    let mut watcher = server.player("watcher").await;
    if !unfinished.is_empty() {
        let lobby = watcher.request(json!({"t": "lobby"})).await;
        let rooms = lobby["rooms"].as_array().cloned().unwrap_or_default();
        let mut left = Vec::new();
        for game in &unfinished {
            let room = rooms
                .iter()
                .find(|r| r["game"] == *game && r["status"] == "playing")
                .unwrap_or_else(|| panic!("{game} is still playing: {lobby}"));
            let room = room["room"].as_str().unwrap_or_default().to_string();
            watcher
                .request(json!({"t": "spectate", "room": room}))
                .await;
            left.push((*game, room));
        }
        server
            .clock
            .advance(orion_server::DEFAULT_SEAT_HOLD + 1_000);
        for (game, room) in left {
            let over = watcher.expect_event(&room, "over").await;
            assert_eq!(over["ev"]["reason"], "away", "{over}");
            finished.push((game, room));
        }
    }
    let played: Vec<&str> = finished.iter().map(|(g, _)| *g).collect();
    for (game, _) in &all {
        assert!(played.contains(game), "{game} was played");
    }
    for (_, room) in &finished {
        export_replays_to_the_end(&server, &mut watcher, room).await;
    }
    println!(
        "ended by the bots' play: {}; abandoned: {unfinished:?}",
        all.len() - unfinished.len()
    );
    // Most end by their rules (the replay's own result is checked then).
    assert!(
        unfinished.len() <= 3,
        "games left unfinished by the bots: {unfinished:?}"
    );
}

/// Two players finish a Hydra for Two (South wins); returns the room.
async fn finish_hydra(s: &mut Client, n: &mut Client, private: bool) -> (String, Option<String>) {
    let joined = s
        .request(json!({"t": "create", "game": "hydra-2", "private": private}))
        .await;
    let room = joined["room"].as_str().expect("room").to_string();
    let code = joined["code"].as_str().map(str::to_string);
    s.seat = "S".into();
    let j = n
        .request(json!({"t": "join", "room": room, "code": code}))
        .await;
    assert_eq!(j["t"], "joined", "{j}");
    n.seat = "N".into();
    s.send(json!({"t": "ready", "room": room})).await;
    n.send(json!({"t": "ready", "room": room})).await;
    s.expect_event(&room, "start").await;
    n.expect_event(&room, "start").await;
    play_moves(s, n, &room, HYDRA_TWO, true).await;
    let over = s.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], "S");
    n.expect_event(&room, "over").await;
    (room, code)
}

#[tokio::test]
async fn a_record_is_served_only_for_finished_games_and_private_ones_only_with_their_code() {
    let server = TestServer::start();
    let mut s = server.player("south").await;
    let mut n = server.player("north").await;
    let (room, code) = finish_hydra(&mut s, &mut n, true).await;
    let code = code.expect("a private room has a code");

    let (status, body) = {
        let r = http_get(server.addr, &format!("/g/{room}.txt")).await;
        let (s, b) = split_response(&r);
        (s.to_string(), b.to_string())
    };
    assert!(status.contains("404"), "{status}");
    assert!(body.contains("no finished game"), "{body}");
    let wrong = http_get(server.addr, &format!("/g/{room}.txt?code=XXXXXX")).await;
    assert!(split_response(&wrong).0.contains("404"));
    let right = http_get(server.addr, &format!("/g/{room}.txt?code={code}")).await;
    let (status, record) = split_response(&right);
    assert!(status.contains("200"), "{status}");
    assert!(
        record.starts_with("# Orion Online game record\n"),
        "{record}"
    );
    assert!(
        record.contains("names: {\"N\":\"north\",\"S\":\"south\"}"),
        "{record}"
    );
    assert!(record.contains("result: S wins"), "{record}");
    assert!(record.contains("\n1. S: A2L ["), "{record}");
    assert!(record.contains("\n2. N: end ["), "{record}");
    assert!(record.contains(", C5R {chain R} ["), "{record}");
    // The same text over the WebSocket, for a player with the code.
    let export = s
        .request(json!({"t": "export", "room": room, "code": code}))
        .await;
    assert_eq!(export["t"], "export", "{export}");
    assert_eq!(export["text"], record);
    let refused = n.refused(json!({"t": "export", "room": room})).await;
    assert_eq!(refused["code"], "not_found");

    // A room still being played, and one that never was, have none.
    let mut players = [server.player("a").await, server.player("b").await];
    let playing = orion_tests::start_room(&mut players, "hydra-2", json!({})).await;
    let r = http_get(server.addr, &format!("/g/{playing}.txt")).await;
    assert!(split_response(&r).0.contains("404"), "{r}");
    let r = http_get(server.addr, "/g/r00000000.txt").await;
    assert!(split_response(&r).0.contains("404"), "{r}");
    let refused = players[0]
        .refused(json!({"t": "export", "room": playing}))
        .await;
    assert_eq!(refused["code"], "not_found");
}

/// Aurora Borealis B's shortest solution (`orion solve aurora-b`): twelve clicks.
const AURORA_B: &str = "A1R, B1R, D1R, B2R, A2R, D2R, A3R, B3R, D3R, B4R, A4R, D4R";

#[tokio::test]
async fn a_players_games_are_listed_newest_first_a_page_at_a_time() {
    let server = TestServer::start();
    let page = orion_server::GAMES_PAGE;
    let mut rooms = Vec::new();
    // A new connection every two games keeps each well inside the request rate's burst.
    let mut p = server.player("pager").await;
    for i in 0..=page {
        if i % 2 == 0 {
            p = server.player("pager").await;
        }
        let joined = p.request(json!({"t": "create", "game": "aurora-b"})).await;
        let room = joined["room"].as_str().expect("room").to_string();
        p.seat = "S".into();
        p.expect_event(&room, "start").await;
        p.clicks(&room, AURORA_B, false).await;
        let over = p.expect_event(&room, "over").await;
        assert_eq!(over["ev"]["result"]["winner"], "S", "{over}");
        rooms.push(room);
        server.clock.advance(1_000);
    }
    let mut reader = server.player("reader").await;
    // A puzzle's record replays too: its twelve clicks on one line, solved.
    export_replays_to_the_end(&server, &mut reader, &rooms[0]).await;
    let first = reader
        .request(json!({"t": "games", "player": "pager"}))
        .await;
    assert_eq!(first["t"], "games", "{first}");
    let listed: Vec<&str> = (first["games"].as_array().expect("games").iter())
        .map(|g| g["room"].as_str().unwrap_or_default())
        .collect();
    let newest: Vec<&str> = rooms.iter().rev().take(page).map(String::as_str).collect();
    assert_eq!(listed, newest, "newest first, one page");
    assert_eq!(first["more"], true);
    let game = &first["games"][0];
    assert_eq!(game["game"], "aurora-b");
    assert_eq!(game["seats"], json!({"S": "pager"}));
    assert_eq!(game["winner"], "S");
    let last = listed[page - 1];
    let second = reader
        .request(json!({"t": "games", "player": "pager", "before": last}))
        .await;
    assert_eq!(
        second["games"].as_array().map(Vec::len),
        Some(1),
        "{second}"
    );
    assert_eq!(second["games"][0]["room"], rooms[0].as_str());
    assert_eq!(second["more"], false);
    // By the player's id as well as by his name; filtered by game.
    // (Each connection here was a new guest named `pager`: the last one played the last game.)
    let (_, welcome) = server.reconnect("pager", &p.token).await;
    let id = welcome["player"].as_str().expect("player id").to_string();
    let by_id = reader.request(json!({"t": "games", "player": id})).await;
    assert_eq!(by_id["games"][0]["room"], rooms[page].as_str(), "{by_id}");
    let other_game = reader
        .request(json!({"t": "games", "player": "pager", "game": "aquila"}))
        .await;
    assert_eq!(other_game["games"], json!([]));
    assert_eq!(other_game["more"], false);
    let nobody = reader
        .request(json!({"t": "games", "player": "nobody"}))
        .await;
    assert_eq!(nobody["games"], json!([]));
    // Bad input: each a clear error.
    for (bad, code) in [
        (json!({"t": "games", "player": ""}), "bad_request"),
        (
            json!({"t": "games", "player": "x".repeat(65)}),
            "bad_request",
        ),
        (
            json!({"t": "games", "player": "pager", "game": "chess"}),
            "not_found",
        ),
        (
            json!({"t": "games", "player": "pager", "before": "r-none"}),
            "not_found",
        ),
        (json!({"t": "games"}), "bad_request"),
    ] {
        let error = reader.refused(bad.clone()).await;
        assert_eq!(error["code"], code, "{bad}: {error}");
    }
}

#[tokio::test]
async fn a_rematch_starts_when_both_accept_with_the_seats_swapped() {
    let server = TestServer::start();
    let mut s = server.player("south").await;
    let mut n = server.player("north").await;
    let (room, _) = finish_hydra(&mut s, &mut n, false).await;

    // Both see the game in their list, and its record replays to South's win.
    for c in [&mut s, &mut n] {
        let games = c.request(json!({"t": "games", "player": "north"})).await;
        assert_eq!(games["games"][0]["room"], room.as_str(), "{games}");
        assert_eq!(games["games"][0]["winner"], "S");
    }
    let export = n.request(json!({"t": "export", "room": room})).await;
    let replayed = orion_cli::replay::replay(export["text"].as_str().expect("text"))
        .expect("the record replays");
    assert_eq!(
        replayed.result.winner.map(|w| w.to_string()).as_deref(),
        Some("S")
    );

    // An offer, a decline, an offer again and an acceptance.
    s.send(json!({"t": "rematch", "room": room})).await;
    let offer = n.expect_event(&room, "rematch").await;
    assert_eq!(offer["ev"]["seat"], "S");
    assert_eq!(offer["ev"]["agreed"], json!(["S"]));
    n.send(json!({"t": "rematch", "room": room, "accept": false}))
        .await;
    let declined = s
        .expect(|m| m["ev"]["kind"] == "rematch" && m["ev"]["accept"] == false)
        .await;
    assert_eq!(declined["ev"]["agreed"], json!([]));
    s.send(json!({"t": "rematch", "room": room})).await;
    n.send(json!({"t": "rematch", "room": room})).await;
    let started = s
        .expect(|m| m["ev"]["kind"] == "rematch" && m["ev"]["room"].is_string())
        .await;
    assert_eq!(started["ev"]["agreed"], json!(["S", "N"]));
    let new_room = started["ev"]["room"].as_str().expect("room").to_string();
    assert_ne!(new_room, room);
    // Each is seated in the new room one seat on, and it starts at once.
    let js = s
        .expect(|m| m["t"] == "joined" && m["room"] == new_room.as_str())
        .await;
    let jn = n
        .expect(|m| m["t"] == "joined" && m["room"] == new_room.as_str())
        .await;
    assert_eq!(js["seat"], "N");
    assert_eq!(jn["seat"], "S");
    let start = n.expect_event(&new_room, "start").await;
    assert_eq!(start["t"], "event");
    // The old room's rematch is over; a rematch while playing is refused.
    let again = s.refused(json!({"t": "rematch", "room": room})).await;
    assert_eq!(again["code"], "bad_request");
    let playing = s.refused(json!({"t": "rematch", "room": new_room})).await;
    assert_eq!(playing["code"], "bad_request");
    let stranger = server.player("stranger").await;
    let mut stranger = stranger;
    let not_player = stranger
        .refused(json!({"t": "rematch", "room": room}))
        .await;
    assert_eq!(not_player["code"], "not_a_player");
}

#[tokio::test]
async fn leaving_a_finished_room_calls_the_rematch_off() {
    let server = TestServer::start();
    let mut s = server.player("south").await;
    let mut n = server.player("north").await;
    let (room, _) = finish_hydra(&mut s, &mut n, false).await;
    s.send(json!({"t": "rematch", "room": room})).await;
    n.expect_event(&room, "rematch").await;
    s.request(json!({"t": "leave", "room": room})).await;
    let off = n
        .expect(|m| m["ev"]["kind"] == "rematch" && m["ev"]["accept"] == false)
        .await;
    assert_eq!(off["ev"]["agreed"], json!([]));
    assert_eq!(off["ev"]["seat"], "S");
    // With South gone, North's acceptance cannot start anything.
    n.send(json!({"t": "rematch", "room": room})).await;
    let alone = n
        .expect(|m| m["ev"]["kind"] == "rematch" && m["ev"]["accept"] == true)
        .await;
    assert_eq!(alone["ev"]["agreed"], json!(["N"]));
    assert!(alone["ev"]["room"].is_null());
}
