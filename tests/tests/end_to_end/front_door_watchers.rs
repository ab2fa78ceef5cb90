//! The watcher count is right whatever the page does with its one socket (headless Chromium,
//! as `front_door.rs`): the front door's live board watches quietly, so a game on the front
//! door is not counted as watched by every visitor; a page that watches a room and goes back
//! to the front door stops being counted there (`unspectate`); and `unspectate` never gives
//! up a seat its player holds.

use crate::chromium;

use chromium::{js, open, press, wait_js, Driver};
use orion_tests::{start_room, Client, TestServer};
use serde_json::{json, Value};

/// The watcher count the lobby lists for `room`.
async fn listed_watchers(c: &mut Client, room: &str) -> Value {
    let lobby = c.request(json!({"t": "lobby"})).await;
    let line = (lobby["rooms"].as_array().into_iter().flatten())
        .find(|r| r["room"] == room)
        .cloned()
        .unwrap_or_else(|| panic!("{room} not listed: {lobby}"));
    line["spectators"].clone()
}

/// Waits for the `spectators` count `n` of `room` told to `c`.
async fn told(c: &mut Client, room: &str, n: u64) {
    c.expect(|m| m["t"] == "spectators" && m["room"] == room && m["count"] == n)
        .await;
}

/// Makes a click for whichever of `players` is to move (a rotor the server's `hints` offer),
/// and waits for it.
async fn a_click(players: &mut [Client], room: &str) {
    for p in players.iter_mut() {
        let hints = p.request(json!({"t": "hints", "room": room})).await;
        let Some(rotor) = hints["hints"]["turn"][0].as_str() else {
            continue;
        };
        let click = format!("{rotor}L");
        p.play(room, "click", json!({ "click": click })).await;
        return;
    }
    panic!("nobody may click in {room}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_front_door_and_a_page_that_left_a_room_are_not_counted_as_watching_it() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut players = [server.player("ann").await, server.player("bob").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;

    // The front door shows the game live, and nobody is counted watching it.
    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    open(&page, &base, "/", "visitor").await;
    wait_js(
        &page,
        &format!("(window.__orion.tv || {{}}).room === '{room}' && window.__orion.tv.live"),
        "the game on the live board",
    )
    .await;
    // A click reaches the live board: it is watching.
    let before = js(&page, "return window.__orion.tvSeq || 0").await;
    a_click(&mut players, &room).await;
    wait_js(
        &page,
        &format!("(window.__orion.tvSeq || 0) > {before}"),
        "the click on the live board",
    )
    .await;
    assert_eq!(listed_watchers(&mut players[1], &room).await, 0);
    let mut watcher = server.player("watcher").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["spectators"], 1, "only the watcher himself: {snap}");
    told(&mut players[0], &room, 1).await;
    watcher
        .request(json!({"t": "unspectate", "room": room}))
        .await;
    told(&mut players[0], &room, 0).await;

    // The visitor opens the game from the live board: now he watches it, and is counted.
    press(&page, "#tv-link").await;
    wait_js(
        &page,
        &format!(
            "location.pathname === '/r/{room}' && !!window.__orion.room && !!window.__orion.room.s"
        ),
        "the room's page",
    )
    .await;
    told(&mut players[0], &room, 1).await;
    // Back to the front door on the same socket: he is no longer counted, and the live
    // board shows the game again without counting him.
    js(&page, "history.back(); return 1").await;
    told(&mut players[0], &room, 0).await;
    wait_js(
        &page,
        &format!("location.pathname === '/' && (window.__orion.tv || {{}}).room === '{room}' && window.__orion.tv.live"),
        "the front door again",
    )
    .await;
    let before = js(&page, "return window.__orion.tvSeq || 0").await;
    a_click(&mut players, &room).await;
    wait_js(
        &page,
        &format!("(window.__orion.tvSeq || 0) > {before}"),
        "the live board following again",
    )
    .await;
    assert_eq!(listed_watchers(&mut players[1], &room).await, 0);
    let _ = page.close().await;
}

#[tokio::test]
async fn unspectate_stops_the_events_and_never_gives_up_a_seat() {
    let server = TestServer::start();
    let mut players = [server.player("ann").await, server.player("bob").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let mut quiet = server.player("tv").await;
    let snap = quiet
        .request(json!({"t": "spectate", "room": room, "quiet": true}))
        .await;
    assert_eq!(snap["t"], "snapshot", "{snap}");
    assert_eq!(
        snap["spectators"], 0,
        "a quiet watcher is not counted: {snap}"
    );
    a_click(&mut players, &room).await;
    quiet.expect_event(&room, "click").await;
    let done = quiet
        .request(json!({"t": "unspectate", "room": room}))
        .await;
    assert_eq!(
        done,
        json!({"t": "unspectated", "room": room, "re": done["re"]})
    );
    // No more of its events: the next click reaches the players, not him.
    a_click(&mut players, &room).await;
    let pong = quiet.request(json!({"t": "ping"})).await;
    assert_eq!(pong["t"], "pong");
    let clicks = (quiet.events.iter())
        .filter(|e| e["room"] == room && e["ev"]["kind"] == "click")
        .count();
    assert_eq!(clicks, 1, "only the click made while he watched");

    // A room not live (ended, never there) is watched by nobody: the same answer.
    let gone = quiet
        .request(json!({"t": "unspectate", "room": "r00000000"}))
        .await;
    assert_eq!(gone["t"], "unspectated", "{gone}");

    // A seated player's `unspectate` leaves him seated: the game goes on, nobody left.
    let stays = players[0]
        .request(json!({"t": "unspectate", "room": room}))
        .await;
    assert_eq!(stays["t"], "unspectated");
    a_click(&mut players, &room).await;
    let pong = players[1].request(json!({"t": "ping"})).await;
    assert_eq!(pong["t"], "pong");
    assert!(
        !(players[1].events.iter()).any(|e| e["room"] == room && e["ev"]["kind"] == "left"),
        "nobody left"
    );
}
