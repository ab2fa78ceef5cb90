//! `hints`: what a page may highlight, computed by the server through the engine — ORION's
//! places and rotors for the seat to move, Orbit's drops and territory, Orbs' moves. Only the
//! seat to move is given targets; a watcher of a public room sees Orbit's territory; a
//! private room answers its members only.

use orion_engine::{games, parse_position, Action, Game, Options, Seat};
use orion_tests::{start_room, Client, TestServer};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// `c`'s hints in `room`.
async fn hints(c: &mut Client, room: &str) -> Value {
    let h = c.request(json!({"t": "hints", "room": room})).await;
    assert_eq!(h["t"], "hints", "{h}");
    assert_eq!(h["room"], room, "{h}");
    h
}

/// A named set of a `hints` reply, sorted.
fn set(h: &Value, name: &str) -> BTreeSet<String> {
    h["hints"][name]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn orion_hints_are_the_engines_legal_rotors_and_places_for_the_seat_to_move() {
    let server = TestServer::start();
    let mut players = [server.player("sam").await, server.player("nia").await];
    let room = start_room(&mut players, "hydra-2", json!({"clicks": 2})).await;
    let snap = players[0]
        .request(json!({"t": "spectate", "room": room}))
        .await;
    let mover = snap["turn"]["seat"].as_str().expect("a mover").to_string();
    let (to_move, waiting) = if players[0].seat == mover {
        (0, 1)
    } else {
        (1, 0)
    };
    let game = Game::following(
        games::find("hydra-2").expect("hydra-2"),
        Options {
            clicks: Some(2),
            ..Options::default()
        },
        parse_position(snap["position"].as_str().unwrap_or_default()).expect("a position"),
        Seat::parse(&mover).expect("a seat"),
        Seat::parse(&mover).expect("a seat"),
        1,
    )
    .expect("the engine's copy");
    let rotors: BTreeSet<String> = game
        .legal_actions(Seat::parse(&mover).expect("a seat"), 0)
        .into_iter()
        .filter_map(|a| match a {
            Action::Click { click, .. } => Some(click.rotor.to_string()),
            _ => None,
        })
        .collect();
    assert!(!rotors.is_empty());
    let h = hints(&mut players[to_move], &room).await;
    assert_eq!(set(&h, "turn"), rotors, "{h}");
    assert_eq!(h["seq"], snap["seq"], "{h}");
    // The other seat may do nothing now: no targets.
    let h = hints(&mut players[waiting], &room).await;
    assert_eq!(h["hints"], json!({}), "{h}");
}

#[tokio::test]
async fn orbit_hints_give_the_mover_its_drops_and_everyone_the_territory() {
    let server = TestServer::start();
    let mut players = [server.player("sam").await, server.player("nia").await];
    let room = start_room(&mut players, "orbit", json!({})).await;
    // The pie opening, N takes white, then white rings black's e5 and captures it.
    let moves = [
        (0, "e5"),
        (0, "k10"),
        (0, "e4"),
        (1, "white"),
        (1, "d5"),
        (0, "a16"),
        (1, "f5"),
        (0, "p1"),
        (1, "e6"),
    ];
    for (who, m) in moves {
        players[who].play(&room, "move", json!({"move": m})).await;
    }
    let mut watcher = server.player("wes").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["turn"]["seat"], "S", "{snap}");
    let h = hints(&mut players[0], &room).await;
    // Black may drop on every empty cell but the prohibited ones (e5, just captured).
    let drops = set(&h, "drop");
    let stones = snap["position"]
        .as_str()
        .unwrap_or_default()
        .split_whitespace()
        .count();
    assert!(!drops.contains("e5") && !drops.contains("e6"), "{h}");
    assert_eq!(drops.len(), 256 - stones - 1, "{h}");
    // The territory cells are the snapshot's counts: white's orbit holds e5.
    for (name, colour) in [("territory_B", "B"), ("territory_W", "W")] {
        assert_eq!(
            json!(set(&h, name).len()),
            snap["territory"][colour],
            "{name}: {h}"
        );
    }
    assert_eq!(set(&h, "territory_W"), BTreeSet::from(["e5".to_string()]));
    // A watcher and the seat not to move see the territory, and no drops.
    for c in [&mut watcher, &mut players[1]] {
        let other = hints(c, &room).await;
        assert!(other["hints"].get("drop").is_none(), "{other}");
        assert_eq!(other["hints"]["territory_W"], json!(["e5"]), "{other}");
    }
}

#[tokio::test]
async fn orbs_hints_are_the_movers_legal_moves_and_a_private_room_answers_members_only() {
    let server = TestServer::start();
    let mut players = [server.player("sam").await, server.player("nia").await];
    let options =
        json!({"players": 2, "opening": "position", "position": "a1:RF b2:BA i5:RW q1:BW"});
    let room = start_room(&mut players, "orbs", options).await;
    let h = hints(&mut players[0], &room).await;
    let moves = set(&h, "move");
    // Red's fire burns blue's air next to it; red's water moves to its neighbours.
    assert!(moves.contains("a1-b2"), "{h}");
    assert!(
        moves
            .iter()
            .all(|m| m.starts_with("a1-") || m.starts_with("i5-")),
        "{h}"
    );
    let taken = players[0]
        .play(&room, "move", json!({"move": "a1-b2"}))
        .await;
    assert_eq!(taken["ev"]["removed"], json!(["b2"]), "{taken}");
    // The move the hints did not offer (red's now gone air) is refused by the rules too.
    let h = hints(&mut players[1], &room).await;
    assert!(set(&h, "move").iter().all(|m| m.starts_with("q1-")), "{h}");
    assert!(!set(&h, "move").is_empty(), "{h}");

    // A private room: its members are answered, a stranger learns nothing of it.
    let mut host = server.player("hana").await;
    let joined = host
        .request(json!({"t": "create", "game": "orbit", "private": true}))
        .await;
    let private = joined["room"].as_str().expect("a room").to_string();
    let mine = hints(&mut host, &private).await;
    assert_eq!(mine["hints"]["territory_B"], json!([]), "{mine}");
    let mut stranger = server.player("sly").await;
    let refused = stranger
        .refused(json!({"t": "hints", "room": private}))
        .await;
    assert_eq!(refused["code"], "not_found", "{refused}");
}
