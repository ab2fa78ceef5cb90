//! Durability and slow clients: a server killed mid-game and restarted on the same store
//! loses no event and carries the game on; a client that stops reading is dropped without
//! delaying the others, and gets its seat back with `resume`; a seat is held for
//! `seat_hold` and then given up. A store written by earlier builds (ORION's actions in a
//! form of their own) replays.

use orion_server::ManualClock;
use orion_tests::{
    finish_hydra_two_from_mid_move, http_get, play_moves, remove_db, start_room, temp_db, Client,
    TestServer, HYDRA_TWO, T0,
};
use serde_json::json;
use std::sync::Arc;

#[tokio::test]
async fn a_killed_server_restarts_on_its_store_with_no_event_lost() {
    let db = temp_db("restart");
    orion_tests::a_killed_server_loses_no_event(&db).await;
    remove_db(&db);
}

/// Several unfinished rooms on one SQLite store — two games at different points and a room
/// still waiting for its second player — all come back when the server is killed and started
/// again: each game with every event its players saw, going on from where it stopped, and
/// the waiting room listed and starting when someone joins.
#[tokio::test]
async fn every_unfinished_room_comes_back_after_a_restart_with_its_moves() {
    let db = temp_db("several-unfinished");
    let clock = Arc::new(ManualClock::new(T0));
    let server = TestServer::start_on(&db, clock.clone());
    let mut players = vec![server.player("south").await, server.player("north").await];
    let longer = start_room(&mut players, "hydra-2", json!({})).await;
    let shorter = start_room(&mut players, "hydra-2", json!({})).await;
    let [mut s, mut n] = <[Client; 2]>::try_from(players).ok().unwrap();
    play_moves(&mut s, &mut n, &longer, &HYDRA_TWO[..3], false).await;
    play_moves(&mut s, &mut n, &shorter, &HYDRA_TWO[..1], false).await;
    let mut host = server.player("host").await;
    let made = host
        .request(json!({"t": "create", "game": "hydra-2"}))
        .await;
    let waiting = made["room"].as_str().expect("room id").to_string();
    let seen_by_south = |room: &str| -> Vec<serde_json::Value> {
        s.events
            .iter()
            .filter(|e| e["room"] == room)
            .cloned()
            .collect()
    };
    let before = [seen_by_south(&longer), seen_by_south(&shorter)];
    server.kill();

    let server = TestServer::start_on(&db, clock);
    let (mut s2, welcome) = server.reconnect("south", &s.token).await;
    let mut rooms: Vec<String> = serde_json::from_value(welcome["rooms"].clone()).unwrap();
    rooms.sort();
    let mut games = vec![longer.clone(), shorter.clone()];
    games.sort();
    assert_eq!(rooms, games, "{welcome}");
    s2.seat = s.seat.clone();
    let (mut n2, _) = server.reconnect("north", &n.token).await;
    n2.seat = n.seat.clone();
    for (room, old) in [&longer, &shorter].into_iter().zip(&before) {
        let seen = old.last().and_then(|e| e["seq"].as_u64()).expect("events");
        for c in [&mut s2, &mut n2] {
            c.send(json!({"t": "resume", "room": room, "since": 0}))
                .await;
            c.sync_to(room, seen).await;
        }
        // Every event from the first once, in order (South may not have read North's last
        // pass before the kill: it comes now), the ones South saw before identical.
        let again: Vec<&serde_json::Value> =
            s2.events.iter().filter(|e| e["room"] == *room).collect();
        let seqs: Vec<u64> = again.iter().filter_map(|e| e["seq"].as_u64()).collect();
        assert_eq!(seqs, (1..=seqs.len() as u64).collect::<Vec<_>>(), "{room}");
        for e in old {
            let seq = e["seq"].as_u64().expect("seq") as usize;
            assert_eq!(
                again[seq - 1],
                e,
                "{room}: event {seq} differs after the restart"
            );
        }
    }
    // Each game goes on from its own position: South's next move in each.
    play_moves(&mut s2, &mut n2, &longer, &HYDRA_TWO[3..4], false).await;
    play_moves(&mut s2, &mut n2, &shorter, &HYDRA_TWO[1..2], false).await;
    // The waiting room is listed, and starts when a player joins it.
    let (mut host2, welcome) = server.reconnect("host", &host.token).await;
    assert_eq!(welcome["rooms"], json!([waiting]), "{welcome}");
    host2
        .send(json!({"t": "resume", "room": waiting, "since": 0}))
        .await;
    let mut guest = server.player("guest").await;
    let lobby = guest.request(json!({"t": "lobby"})).await;
    let line = lobby["rooms"]
        .as_array()
        .and_then(|rooms| rooms.iter().find(|r| r["room"] == waiting.as_str()))
        .cloned()
        .unwrap_or_else(|| panic!("{waiting} is not listed: {lobby}"));
    assert_eq!(line["status"], "waiting", "{line}");
    let joined = guest.request(json!({"t": "join", "room": waiting})).await;
    assert_eq!(joined["t"], "joined", "{joined}");
    for c in [&mut host2, &mut guest] {
        c.send(json!({"t": "ready", "room": waiting})).await;
    }
    for c in [&mut host2, &mut guest] {
        c.expect_event(&waiting, "start").await;
    }
    server.shutdown();
    remove_db(&db);
}

/// Builds before this one stored ORION's actions in a form of their own (`click D2L`,
/// `place C1s A1e`); a game stored so carries on after the upgrade where it stopped, to the
/// same end, and its record is written in the booklet's notation.
#[tokio::test]
async fn a_game_stored_by_an_earlier_build_carries_on() {
    let db = temp_db("earlier-actions");
    let clock = Arc::new(ManualClock::new(T0));
    let server = TestServer::start_on(&db, clock.clone());
    let mut players = vec![server.player("south").await, server.player("north").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let [mut s, mut n] = <[Client; 2]>::try_from(players).ok().unwrap();
    play_moves(&mut s, &mut n, &room, &HYDRA_TWO[..3], false).await;
    s.play(&room, "click", json!({"click": "D2L"})).await;
    let seen = s.last_seq(&room);
    server.shutdown();
    let rewritten = store_actions_as_earlier_builds_did(&db);
    // South's seven clicks (a turn's end reads the same either way).
    assert_eq!(rewritten, 7);

    let server = TestServer::start_on(&db, clock);
    let (mut s2, _) = server.reconnect("south", &s.token).await;
    s2.seat = "S".into();
    s2.send(json!({"t": "resume", "room": room, "since": 0}))
        .await;
    s2.sync_to(&room, seen).await;
    let (mut n2, _) = server.reconnect("north", &n.token).await;
    n2.seat = "N".into();
    n2.send(json!({"t": "resume", "room": room, "since": n.last_seq(&room)}))
        .await;
    n2.sync_to(&room, seen).await;
    finish_hydra_two_from_mid_move(&mut s2, &mut n2, &room).await;
    let response = http_get(server.addr, &format!("/g/{room}.txt")).await;
    let record = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    let replayed = orion_cli::replay::replay(record)
        .unwrap_or_else(|e| panic!("the record does not replay: {e}\n{record}"));
    assert_eq!(replayed.record.turns.len(), replayed.positions.len());
    assert!(!record.contains("click "), "{record}");
    server.shutdown();
    remove_db(&db);
}

/// Rewrites every action stored in the SQLite store at `db` as builds before the booklet's
/// notation stored them (a click as `click D2L`, a placement from a slot as `place C1s
/// A1e`); returns how many changed.
fn store_actions_as_earlier_builds_did(db: &str) -> usize {
    let earlier = |action: &str| {
        let words: Vec<&str> = action.split(' ').collect();
        match words.as_slice() {
            ["place", slot, "from", from] => format!("place {slot} {from}"),
            [first, ..] if first.starts_with(|c: char| c.is_ascii_uppercase()) => {
                format!("click {action}")
            }
            _ => action.to_string(),
        }
    };
    let c = rusqlite::Connection::open(db).expect("open the store");
    let rows: Vec<(String, i64, String)> = {
        let mut stmt = c
            .prepare("SELECT room, n, action FROM log WHERE action IS NOT NULL")
            .expect("query");
        let rows = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .expect("rows");
        rows.collect::<Result<_, _>>().expect("rows")
    };
    let mut changed = 0;
    for (room, n, text) in rows {
        // A row holds one line `SEAT AT ACTION` per append it stands for.
        let lines: Vec<String> = text
            .split('\n')
            .map(|line| {
                let mut words = line.splitn(3, ' ');
                let (seat, at) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
                let action = words.next().unwrap_or("");
                let old = earlier(action);
                changed += usize::from(old != action);
                format!("{seat} {at} {old}")
            })
            .collect();
        c.execute(
            "UPDATE log SET action = ?3 WHERE room = ?1 AND n = ?2",
            rusqlite::params![room, n, lines.join("\n")],
        )
        .expect("rewrite");
    }
    changed
}

#[tokio::test]
async fn a_client_that_stops_reading_is_dropped_and_never_delays_the_room() {
    let server = TestServer::start_with(":memory:", Arc::new(ManualClock::new(T0)), 64, Some(8192));
    let mut players = vec![server.player("south").await, server.player("north").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let [mut s, mut n] = <[Client; 2]>::try_from(players).ok().unwrap();
    let mut sleepy = server.small_player("sleepy").await;
    let snap = sleepy.request(json!({"t": "spectate", "room": room})).await;
    let sleepy_from = snap["seq"].as_u64().unwrap();
    // From here on sleepy reads nothing. Eighteen watchers fill the room with big chat lines
    // (2 KB each), six of them a burst, reading their own sockets as they go (each under the
    // chat limit of 20 lines a minute).
    let mut chatty = Vec::new();
    for i in 0..18 {
        let mut c = server.player(&format!("chatty{i}")).await;
        c.request(json!({"t": "spectate", "room": room})).await;
        chatty.push(c);
    }
    let text: String = "\u{1FA90}".repeat(500);
    let mut expected = s.last_seq(&room).max(n.last_seq(&room)).max(sleepy_from);
    for burst in 0..3 {
        // A burst of 48 events: under the 64-frame queue of everyone who reads.
        for c in &mut chatty[burst * 6..burst * 6 + 6] {
            for _ in 0..8 {
                c.send(json!({"t": "chat", "room": room, "text": text}))
                    .await;
            }
        }
        expected += 48;
        for c in chatty.iter_mut().chain([&mut s, &mut n]) {
            c.sync_to(&room, expected).await;
        }
    }
    // The players play on and see their own events at once.
    play_moves(&mut s, &mut n, &room, &HYDRA_TWO[..3], false).await;
    let last = n.last_seq(&room);
    s.sync_to(&room, last).await;

    // Sleepy was cut off: what it can still read ends without reaching the last event.
    let metrics = orion_tests::http_get(server.addr, "/metrics").await;
    let line = metrics
        .lines()
        .find(|l| l.starts_with("orion_slow_client_disconnects_total"))
        .unwrap();
    assert_ne!(line, "orion_slow_client_disconnects_total 0", "{metrics}");
    let _ = sleepy.expect_close().await;
    let got = sleepy.last_seq(&room);
    assert!(got < last, "sleepy got {got} of {last}");

    // It comes back and resumes: it missed more than fits in its send queue, so it gets a
    // snapshot of the room as it is now, and follows the game from there.
    let (mut back, _) = server.reconnect("sleepy", &sleepy.token).await;
    let snap = back
        .request(json!({"t": "resume", "room": room, "since": got.max(sleepy_from)}))
        .await;
    assert_eq!(snap["t"], "snapshot", "{snap}");
    assert_eq!(snap["seq"].as_u64(), Some(last));
    let position = s.events.last().map(|e| e["ev"]["position"].clone());
    assert!(
        s.events
            .iter()
            .rev()
            .any(|e| e["ev"]["position"] == snap["position"]),
        "{position:?}"
    );
    s.play(&room, "click", json!({"click": "D2L"})).await;
    let ev = back.expect_event(&room, "click").await;
    assert_eq!(ev["seq"].as_u64(), Some(last + 1));
}

#[tokio::test]
async fn a_seat_is_held_while_away_then_given_up() {
    let server = TestServer::start();
    let mut s = server.player("south").await;
    let joined = s
        .request(json!({"t": "create", "game": "hydra-2", "options": {"seat_hold": 30000}}))
        .await;
    let room = joined["room"].as_str().unwrap().to_string();
    let mut n = server.player("north").await;
    n.request(json!({"t": "join", "room": room})).await;
    let token = n.token.clone();
    drop(n);
    // While away, north shows as not connected and keeps his seat.
    let mut watcher = server.player("watcher").await;
    let mut snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    for _ in 0..50 {
        if snap["seats"]["N"]["connected"] == false {
            break;
        }
        snap = watcher
            .request(json!({"t": "spectate", "room": room}))
            .await;
    }
    assert_eq!(snap["seats"]["N"]["connected"], false, "{snap}");
    server.clock.advance(29_000);
    let (mut n, welcome) = server.reconnect("north", &token).await;
    assert_eq!(welcome["rooms"], json!([room]));
    let j = n.request(json!({"t": "join", "room": room})).await;
    assert_eq!(j["seat"], "N");
    let snap = n.expect_t("snapshot").await;
    assert_eq!(snap["seats"]["N"]["connected"], true);
    // Away again, past the hold: the seat is given up.
    drop(n);
    let mut tries = 0;
    loop {
        let snap = watcher
            .request(json!({"t": "spectate", "room": room}))
            .await;
        if snap["seats"]["N"]["connected"] == false || tries > 50 {
            break;
        }
        tries += 1;
    }
    server.clock.advance(30_000);
    let left = s.expect_event(&room, "left").await;
    assert_eq!(left["ev"]["seat"], "N");
    let (_, welcome) = server.reconnect("north", &token).await;
    assert_eq!(welcome["rooms"], json!([]));
}

/// A server that died after storing a game's `over` but before storing that the room had
/// finished left a room every restart restored and ended at once (on a cluster, every node
/// took it over in turn, every second, for ever). The restore stores the status it replayed.
#[tokio::test]
async fn a_game_whose_end_was_stored_but_not_its_status_is_finished_after_a_restart() {
    let db = temp_db("over-unfinished");
    let clock = Arc::new(ManualClock::new(T0));
    let server = TestServer::start_on(&db, clock.clone());
    let mut players = vec![server.player("south").await, server.player("north").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let [mut s, mut n] = <[Client; 2]>::try_from(players).ok().unwrap();
    play_moves(&mut s, &mut n, &room, HYDRA_TWO, true).await;
    s.expect_event(&room, "over").await;
    server.shutdown();
    let c = rusqlite::Connection::open(&db).expect("open the store");
    let changed = c
        .execute(
            "UPDATE rooms SET status = 'playing' WHERE id = ?1",
            rusqlite::params![room],
        )
        .expect("the status as the dying server left it");
    assert_eq!(changed, 1);
    drop(c);

    let server = TestServer::start_on(&db, clock);
    let mut reader = server.player("reader").await;
    let history = reader.request(json!({"t": "history", "room": room})).await;
    assert_eq!(history["status"], "finished", "{history}");
    server.shutdown();
    let c = rusqlite::Connection::open(&db).expect("open the store");
    let status: String = c
        .query_row(
            "SELECT status FROM rooms WHERE id = ?1",
            rusqlite::params![room],
            |r| r.get(0),
        )
        .expect("the room");
    assert_eq!(status, "finished", "stored, so no later start restores it");
    remove_db(&db);
}
