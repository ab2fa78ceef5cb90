//! Whole games over the wire: Hydra for Two to a win (watched by a spectator who must see
//! exactly the players' events), Hydra for Four with a claim inside the window and a late
//! claim refused, Hydra for Partners to a team win, and an Orion capture that ends the turn.
//! The click scripts were found by a search over the engine and are replayed here.

use orion_tests::{start_room, Client, TestServer, HYDRA_TWO};
use serde_json::{json, Value};

/// Hydra for Four with 3 clicks a move: `S`'s moves (the others pass), after which `W`'s
/// click `C4R` completes `S`'s chain for him.
const HYDRA_FOUR: &[&str] = &[
    "B2L, C2R, C3R",
    "B1L, C1R, C2R",
    "B2L, B3L, C3R",
    "B4R (2), B5L",
];

/// Hydra for Partners with 3 clicks a move: `S`'s moves (the others pass); the last makes
/// the red team's chain.
const PARTNERS: &[(&str, bool)] = &[
    ("A1L, B1R, B2R", false),
    ("B5L, A5R (2)", false),
    ("A4R (2), A3R", false),
    ("C5L, B5R, B4L", false),
    ("A5R (2)", false),
];

fn seqs_are_contiguous(events: &[Value]) {
    for pair in events.windows(2) {
        assert_eq!(
            pair[1]["seq"].as_u64(),
            pair[0]["seq"].as_u64().map(|s| s + 1),
            "gap between {} and {}",
            pair[0],
            pair[1]
        );
    }
}

#[tokio::test]
async fn hydra_for_two_is_played_to_a_win_and_the_spectator_sees_every_event() {
    let server = TestServer::start();
    let mut s = server.player("south").await;
    let mut n = server.player("north").await;
    let joined = s.request(json!({"t": "create", "game": "hydra-2"})).await;
    let room = joined["room"].as_str().unwrap().to_string();
    s.seat = joined["seat"].as_str().unwrap().into();
    assert_eq!(s.seat, "S");
    let mut watcher = server.player("watcher").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["t"], "snapshot");
    assert_eq!(snap["status"], "waiting");
    let from = snap["seq"].as_u64().unwrap();

    let j = n.request(json!({"t": "join", "room": room})).await;
    n.seat = j["seat"].as_str().unwrap().into();
    assert_eq!(n.seat, "N");
    s.send(json!({"t": "ready", "room": room})).await;
    n.send(json!({"t": "ready", "room": room})).await;
    let start = s.expect_event(&room, "start").await;
    assert_eq!(start["ev"]["turn"]["seat"], "S");

    for (i, (moves, end)) in HYDRA_TWO.iter().enumerate() {
        s.clicks(&room, moves, *end).await;
        if i + 1 < HYDRA_TWO.len() {
            n.play(&room, "end_turn", json!({})).await;
        }
    }
    let over = s.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], "S");
    let last = over["seq"].as_u64().unwrap();

    // The chain was the mover's own: awarded at once, no claim window.
    let chain = s.expect_event(&room, "chain").await;
    assert_eq!(chain["ev"]["colour"], "R");
    assert_eq!(chain["ev"]["claim_until"], Value::Null);

    // Moving after the end is refused and changes nothing.
    let e = n
        .refused(json!({"t": "click", "room": room, "click": "A5R"}))
        .await;
    assert_eq!(e["code"], "illegal");

    watcher.sync_to(&room, last).await;
    n.sync_to(&room, last).await;
    // The watcher saw every event from its snapshot on, without a gap; from north's
    // arrival on, all three saw the very same events.
    let seen = &watcher.events;
    assert_eq!(seen.first().and_then(|e| e["seq"].as_u64()), Some(from + 1));
    assert_eq!(seen.last().and_then(|e| e["seq"].as_u64()), Some(last));
    seqs_are_contiguous(seen);
    let north_from = j_seq_after(&n);
    let after = |events: &[Value]| -> Vec<Value> {
        events
            .iter()
            .filter(|e| e["seq"].as_u64() > Some(north_from))
            .cloned()
            .collect()
    };
    assert!(
        after(seen) == after(&n.events),
        "spectator and north saw different events"
    );
    assert!(
        after(seen) == after(&s.events),
        "spectator and south saw different events"
    );
    assert_eq!(after(seen).len() as u64, last - north_from);

    // The finished game's whole log can be fetched for replay.
    let history = watcher.request(json!({"t": "history", "room": room})).await;
    assert_eq!(history["t"], "history");
    assert_eq!(history["status"], "finished");
    let events = history["events"].as_array().unwrap();
    assert_eq!(events.len() as u64, last);
    assert_eq!(events[0]["ev"]["kind"], "joined");
    assert_eq!(events.last().unwrap()["ev"]["kind"], "over");
}

/// The seq of the snapshot a client got on joining.
fn j_seq_after(c: &Client) -> u64 {
    c.events
        .first()
        .and_then(|e| e["seq"].as_u64())
        .map_or(0, |s| s - 1)
}

async fn four_players(server: &TestServer) -> (Vec<Client>, String) {
    let mut players = Vec::new();
    for name in ["s", "w", "n", "e"] {
        players.push(server.player(name).await);
    }
    let room = start_room(
        &mut players,
        "hydra-4",
        json!({"clicks": 3, "claim_window": 1000}),
    )
    .await;
    for (p, seat) in players.iter().zip(["S", "W", "N", "E"]) {
        assert_eq!(p.seat, seat);
    }
    (players, room)
}

/// Plays the Hydra for Four script up to W's click that makes S's chain; returns the chain
/// event as S saw it.
async fn make_chain_for_south(players: &mut [Client], room: &str) -> Value {
    for (i, moves) in HYDRA_FOUR.iter().enumerate() {
        players[0].clicks(room, moves, false).await;
        if i + 1 < HYDRA_FOUR.len() {
            for p in players[1..].iter_mut() {
                p.play(room, "end_turn", json!({})).await;
            }
        }
    }
    players[1]
        .play(room, "click", json!({"click": "C4R"}))
        .await;
    let chain = players[0].expect_event(room, "chain").await;
    assert_eq!(chain["ev"]["colour"], "R");
    chain
}

#[tokio::test]
async fn hydra_for_four_chain_made_by_another_is_won_by_a_claim_in_the_window() {
    let server = TestServer::start();
    let (mut players, room) = four_players(&server).await;
    let chain = make_chain_for_south(&mut players, &room).await;
    let until = chain["ev"]["claim_until"].as_u64().expect("a claim window");
    assert_eq!(until, orion_tests::T0 + 1000);
    server.clock.advance(999);
    // W clicks on, breaking the chain again; a claim inside the window still wins.
    players[1]
        .play(&room, "click", json!({"click": "C4L"}))
        .await;
    // Someone else's claim is refused; S's own claim inside the window wins.
    let e = players[2]
        .refused(json!({"t": "claim", "room": room}))
        .await;
    assert_eq!(e["code"], "illegal");
    let claim = players[0].play(&room, "claim", json!({})).await;
    assert_eq!(claim["ev"]["ok"], true);
    let over = players[3].expect_event(&room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], "S");
}

#[tokio::test]
async fn hydra_for_four_late_claim_is_refused_and_the_game_goes_on() {
    let server = TestServer::start();
    let (mut players, room) = four_players(&server).await;
    make_chain_for_south(&mut players, &room).await;
    server.clock.advance(1001);
    let e = players[0]
        .refused(json!({"t": "claim", "room": room}))
        .await;
    assert_eq!(e["code"], "illegal");
    assert!(e["message"].as_str().unwrap().contains("claim"), "{e}");
    // W, the mover, carries on.
    players[1].play(&room, "end_turn", json!({})).await;
    let mut late = server.player("late").await;
    let snap = late.request(json!({"t": "spectate", "room": room})).await;
    assert_eq!(snap["status"], "playing");
    assert!(snap.get("result").is_none());
    assert_eq!(snap["turn"]["seat"], "N");
}

#[tokio::test]
async fn hydra_for_partners_is_won_by_a_team_chain() {
    let server = TestServer::start();
    let mut players = Vec::new();
    for name in ["s", "w", "n", "e"] {
        players.push(server.player(name).await);
    }
    // Seats chosen explicitly: S and N are the red team, W and E the green.
    let joined = players[0]
        .request(json!({"t": "create", "game": "hydra-partners", "options": {"clicks": 3}}))
        .await;
    let room = joined["room"].as_str().unwrap().to_string();
    players[0].seat = "S".into();
    for (p, seat) in players.iter_mut().zip(["S", "W", "N", "E"]).skip(1) {
        let j = p
            .request(json!({"t": "join", "room": room, "seat": seat}))
            .await;
        assert_eq!(j["seat"], seat, "{j}");
        p.seat = seat.into();
    }
    let snap = players[2].expect_t("snapshot").await;
    assert_eq!(snap["seats"]["S"]["colour"], "R");
    assert_eq!(snap["seats"]["W"]["colour"], "G");
    for p in players.iter_mut() {
        p.send(json!({"t": "ready", "room": room})).await;
    }
    players[0].expect_event(&room, "start").await;
    for (i, (moves, end)) in PARTNERS.iter().enumerate() {
        players[0].clicks(&room, moves, *end).await;
        if i + 1 < PARTNERS.len() {
            for p in players[1..].iter_mut() {
                p.play(&room, "end_turn", json!({})).await;
            }
        }
    }
    let over = players[2].expect_event(&room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], "S+N");
}

#[tokio::test]
async fn an_orion_capture_ends_the_turn() {
    let server = TestServer::start();
    let mut players = vec![server.player("s").await, server.player("n").await];
    let room = start_room(&mut players, "orion", json!({})).await;
    let [s, n] = &mut players[..] else {
        unreachable!()
    };
    // Round 1: one placement each.
    s.play(&room, "place", json!({"slot": "A1s"})).await;
    n.play(&room, "place", json!({"slot": "A1w"})).await;
    // Round 2: one click, then build where the piece left.
    s.play(&room, "click", json!({"click": "A1R"})).await;
    s.play(&room, "place", json!({"slot": "A1s"})).await;
    n.play(&room, "click", json!({"click": "A1L"})).await;
    n.play(&room, "end_turn", json!({})).await;
    // Round 3: two clicks; the first fences rotor A1 and captures north's piece.
    s.play(&room, "click", json!({"click": "A1L"})).await;
    let capture = s.expect_event(&room, "capture").await;
    assert_eq!(capture["ev"]["seat"], "S");
    assert_eq!(capture["ev"]["points"], 1);
    assert_eq!(capture["ev"]["slots"], json!(["A1s"]));
    let turn = s
        .expect(|m| {
            m["t"] == "event"
                && m["ev"]["kind"] == "turn"
                && m["seq"].as_u64() > capture["seq"].as_u64()
        })
        .await;
    assert_eq!(turn["seq"].as_u64(), capture["seq"].as_u64().map(|s| s + 1));
    assert_eq!(turn["ev"]["seat"], "N", "the capture ended south's turn");
    // South's second click is forfeit.
    let e = s
        .refused(json!({"t": "click", "room": room, "click": "A1L"}))
        .await;
    assert_eq!(e["code"], "not_your_turn");
    let snap = n.request(json!({"t": "spectate", "room": room})).await;
    assert_eq!(snap["scores"]["S"], 1);
}

#[tokio::test]
async fn algol_secret_men_reach_no_one_but_their_owner() {
    let server = TestServer::start();
    let mut players = vec![server.player("s").await, server.player("n").await];
    let room = start_room(&mut players, "algol", json!({})).await;
    let mut watcher = server.player("w").await;
    watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    let [s, n] = &mut players[..] else {
        unreachable!()
    };
    let e = s
        .refused(json!({"t": "click", "room": room, "click": "A1R"}))
        .await;
    assert_eq!(e["code"], "illegal", "secrets come first: {e}");
    let chosen = s.play(&room, "secret", json!({"piece": "R5"})).await;
    assert!(chosen["ev"]["commitment"].is_string());
    assert!(chosen["ev"].get("piece").is_none(), "{chosen}");
    n.play(&room, "secret", json!({"piece": "B3"})).await;
    // Each owner's snapshot shows his own secret only; a spectator's shows none.
    let j = n.request(json!({"t": "join", "room": room})).await;
    assert_eq!(j["t"], "joined");
    let snap = n
        .expect(|m| m["t"] == "snapshot" && m["seq"].as_u64() > Some(3))
        .await;
    assert_eq!(snap["secret"], "B3");
    let mut w2 = server.player("w2").await;
    let snap = w2.request(json!({"t": "spectate", "room": room})).await;
    assert!(snap.get("secret").is_none(), "{snap}");
    watcher.sync_to(&room, n.last_seq(&room)).await;
    for e in watcher.events.iter().chain(n.events.iter()) {
        assert!(
            e["ev"].get("piece").is_none() || e["ev"]["kind"] != "secret",
            "{e}"
        );
    }
    // The game goes on: south moves.
    s.play(&room, "click", json!({"click": "A1R"})).await;
}
