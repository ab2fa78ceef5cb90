//! A game always ends, and the room and the lobby say what is going on: a player who leaves
//! a game in progress (or is away past his seat hold) resigns and the other side wins at once;
//! a game in progress seats nobody new; each seat's `ready` is seen as it is said; the members
//! are told how many watch; a quick match can be called off and everyone sees who waits.

use orion_tests::cluster::start_cluster;
use orion_tests::{play_moves, start_room, Client, TestServer, HYDRA_TWO};
use serde_json::{json, Value};

const NODE: &str = env!("CARGO_BIN_EXE_orion-node");

/// Two guests in a hydra-2 game in progress: (room, S's client, N's client).
async fn hydra_two(server: &TestServer) -> (String, Client, Client) {
    let mut players = vec![server.player("alice").await, server.player("bob").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let [a, b] = <[Client; 2]>::try_from(players).ok().expect("two players");
    (room, a, b)
}

#[tokio::test]
async fn leaving_a_two_player_game_in_progress_resigns_it_and_the_other_wins_at_once() {
    let server = TestServer::start();
    let (room, mut a, mut b) = hydra_two(&server).await;
    let mut watcher = server.player("carol").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["status"], "playing", "{snap}");
    let left = a.request(json!({"t": "leave", "room": room})).await;
    assert_eq!(left["t"], "left", "{left}");
    let b_seat = b.seat.clone();
    for c in [&mut b, &mut watcher] {
        let gone = c.expect_event(&room, "left").await;
        assert_eq!(gone["ev"]["seat"], json!(a.seat), "{gone}");
        let over = c.expect_event(&room, "over").await;
        assert_eq!(over["ev"]["reason"], "left", "{over}");
        assert_eq!(over["ev"]["seat"], json!(a.seat), "{over}");
        assert_eq!(over["ev"]["result"]["winner"], json!(b_seat), "{over}");
    }
    // The lobby lists it finished, not playing for ever.
    let lobby = watcher.request(json!({"t": "lobby"})).await;
    let line = (lobby["rooms"].as_array().into_iter().flatten())
        .find(|r| r["room"] == room)
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(line["status"], "finished", "{lobby}");
}

#[tokio::test]
async fn a_player_away_past_his_seat_hold_loses_an_unrated_game_too() {
    let server = TestServer::start();
    let (room, a, mut b) = hydra_two(&server).await;
    let a_seat = a.seat.clone();
    drop(a);
    // The room sees him go (its seat shows away) before the hold runs.
    let mut watcher = server.player("carol").await;
    loop {
        let snap = watcher
            .request(json!({"t": "spectate", "room": room}))
            .await;
        if snap["seats"][&a_seat]["connected"] == false {
            break;
        }
        watcher.request(json!({"t": "leave", "room": room})).await;
    }
    server.clock.advance(orion_server::DEFAULT_SEAT_HOLD + 1);
    let over = b.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["reason"], "away", "{over}");
    assert_eq!(over["ev"]["seat"], json!(a_seat), "{over}");
    assert_eq!(over["ev"]["result"]["winner"], json!(b.seat), "{over}");
}

#[tokio::test]
async fn whoever_opens_a_game_in_progress_watches_it_and_takes_no_seat() {
    let server = TestServer::start();
    let (room, mut a, _b) = hydra_two(&server).await;
    a.request(json!({"t": "leave", "room": room})).await;
    // A newcomer (a spectator who reloads, say) asks to join: the seat given up is not his.
    let mut newcomer = server.player("dave").await;
    let refused = newcomer.request(json!({"t": "join", "room": room})).await;
    assert_eq!(refused["t"], "error", "{refused}");
    let snap = newcomer
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["t"], "snapshot", "{snap}");
    assert!(
        (snap["seats"].as_object().into_iter().flatten())
            .all(|(_, s)| s.is_null() || s["name"] != "dave"),
        "{snap}"
    );
    // And in a game still being played with every seat taken, the same.
    let (room, _a, _b) = hydra_two(&server).await;
    let refused = newcomer.request(json!({"t": "join", "room": room})).await;
    assert_eq!(refused["code"], "full", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap_or_default()
            .contains("in progress"),
        "{refused}"
    );
}

#[tokio::test]
async fn each_seat_is_seen_ready_as_it_says_so_and_players_are_told_who_watches() {
    let server = TestServer::start();
    let mut a = server.player("alice").await;
    let made = a.request(json!({"t": "create", "game": "hydra-2"})).await;
    let room = made["room"].as_str().expect("room").to_string();
    let mut b = server.player("bob").await;
    let joined = b.request(json!({"t": "join", "room": room})).await;
    assert_eq!(joined["t"], "joined", "{joined}");
    a.send(json!({"t": "ready", "room": room})).await;
    let ready = b.expect_event(&room, "ready").await;
    assert_eq!(ready["ev"]["seat"], made["seat"], "{ready}");
    // A snapshot taken now shows it too.
    let mut watcher = server.player("carol").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["seats"][made["seat"].as_str().unwrap()]["ready"], true);
    assert_eq!(
        snap["seats"][joined["seat"].as_str().unwrap()]["ready"],
        Value::Null
    );
    // The players' pages hear that someone watches, not only the watcher's own snapshot.
    for c in [&mut a, &mut b] {
        let told = c
            .expect(|m| m["t"] == "spectators" && m["room"] == room)
            .await;
        assert_eq!(told["count"], 1, "{told}");
    }
    watcher.request(json!({"t": "leave", "room": room})).await;
    let told = a
        .expect(|m| m["t"] == "spectators" && m["room"] == room && m["count"] == 0)
        .await;
    assert_eq!(told["count"], 0, "{told}");
}

/// The `waiting` counts of a `lobby` reply (empty when the field is left out).
async fn waiting(c: &mut Client) -> Value {
    let lobby = c.request(json!({"t": "lobby"})).await;
    assert_eq!(lobby["t"], "lobby", "{lobby}");
    lobby.get("waiting").cloned().unwrap_or(json!([]))
}

#[tokio::test]
async fn a_quick_match_can_be_called_off_and_everyone_sees_who_waits() {
    let server = TestServer::start();
    let mut alice = server.player("alice").await;
    let mut bob = server.player("bob").await;
    assert_eq!(waiting(&mut bob).await, json!([]));
    let q = alice
        .request(json!({"t": "quick", "game": "hydra-2"}))
        .await;
    assert_eq!(q["t"], "queued", "{q}");
    assert_eq!(
        waiting(&mut bob).await,
        json!([{"game": "hydra-2", "players": 2, "count": 1}])
    );
    let off = alice.request(json!({"t": "unqueue"})).await;
    assert_eq!(off["t"], "unqueued", "{off}");
    assert_eq!(waiting(&mut bob).await, json!([]));
    let again = alice.request(json!({"t": "unqueue"})).await;
    assert_eq!(again["code"], "not_queued", "{again}");
    // Called off, she is not matched with the next one to come: he waits alone.
    let q = bob.request(json!({"t": "quick", "game": "hydra-2"})).await;
    assert_eq!(q["t"], "queued", "{q}");
    // A watcher of the lobby is sent the new counts without asking.
    let mut looker = server.player("carol").await;
    let first = looker.request(json!({"t": "lobby", "watch": true})).await;
    assert_eq!(
        first["waiting"],
        json!([{"game": "hydra-2", "players": 2, "count": 1}]),
        "{first}"
    );
    bob.request(json!({"t": "unqueue"})).await;
    let pushed = looker
        .expect(|m| m["t"] == "lobby" && m.get("re").is_none() && m.get("waiting").is_none())
        .await;
    assert_eq!(pushed["t"], "lobby", "{pushed}");
}

#[tokio::test]
async fn quick_match_waiting_counts_and_unqueue_hold_across_a_cluster() {
    let (_pg, _nats, [a, b]) = start_cluster(NODE, ["a", "b"]);
    let mut one = a.player("one").await;
    let mut looker = b.player("looker").await;
    let q = one.request(json!({"t": "quick", "game": "hydra-2"})).await;
    assert_eq!(q["t"], "queued", "{q}");
    // Queued on a, seen from b.
    assert_eq!(
        waiting(&mut looker).await,
        json!([{"game": "hydra-2", "players": 2, "count": 1}])
    );
    let off = one.request(json!({"t": "unqueue"})).await;
    assert_eq!(off["t"], "unqueued", "{off}");
    assert_eq!(waiting(&mut looker).await, json!([]));
    // Called off on a, nobody on b is matched with him.
    let mut two = b.player("two").await;
    let q = two.request(json!({"t": "quick", "game": "hydra-2"})).await;
    assert_eq!(q["t"], "queued", "{q}");
    assert_eq!(
        waiting(&mut one).await,
        json!([{"game": "hydra-2", "players": 2, "count": 1}])
    );
}

#[tokio::test]
async fn a_game_won_by_a_chain_says_which_chain_and_the_edges_it_joins() {
    let server = TestServer::start();
    let (room, mut s, mut n) = hydra_two(&server).await;
    play_moves(&mut s, &mut n, &room, HYDRA_TWO, true).await;
    let over = n.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], "S", "{over}");
    assert_eq!(over["ev"]["chain"]["from"], "south", "{over}");
    assert_eq!(over["ev"]["chain"]["to"], "north", "{over}");
    let slots = over["ev"]["chain"]["slots"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(slots.len() >= 3, "a chain crosses the board: {over}");
    // A game that ended by a resignation names no chain.
    let (room, mut a, mut b) = hydra_two(&server).await;
    a.request(json!({"t": "leave", "room": room})).await;
    let over = b.expect_event(&room, "over").await;
    assert!(over["ev"].get("chain").is_none(), "{over}");
}
