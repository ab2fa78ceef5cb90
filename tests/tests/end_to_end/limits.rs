//! Bad input: malformed, oversized and flooding frames, out-of-turn moves and spectators
//! trying to move. Each refusal is exactly one `error` to the sender, changes nothing, and
//! keeps the connection open, except for the size and flood limits, which close it.

use orion_tests::{start_room, TestServer};
use serde_json::json;

#[tokio::test]
async fn malformed_requests_get_one_error_each_and_change_nothing() {
    let server = TestServer::start();
    let mut c = orion_tests::Client::connect(&server.url()).await;
    c.send_text("{not json").await;
    assert_eq!(c.expect_t("error").await["code"], "bad_json");
    c.send_text("[1, 2]").await;
    assert_eq!(c.expect_t("error").await["code"], "bad_json");
    let e = c.request(json!({"t": "fly"})).await;
    assert_eq!(e["code"], "unknown_type");
    let e = c.request(json!({"t": "lobby"})).await;
    assert_eq!(e["code"], "bad_request", "hello comes first: {e}");
    let e = c
        .request(json!({"t": "hello", "name": "x", "version": 2}))
        .await;
    assert_eq!(e["code"], "version");
    let e = c
        .request(json!({"t": "hello", "name": "", "version": 1}))
        .await;
    assert_eq!(e["code"], "bad_request");
    let e = c
        .request(json!({"t": "hello", "name": "x", "version": 1, "token": "feed"}))
        .await;
    assert_eq!(e["code"], "not_found");

    let mut s = server.player("s").await;
    let mut n = server.player("n").await;
    let mut players = vec![s, n];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    [s, n] = <[_; 2]>::try_from(players).ok().unwrap();
    for (req, code) in [
        (json!({"t": "click", "room": room}), "bad_request"),
        (
            json!({"t": "click", "room": 5, "click": "A1R"}),
            "bad_request",
        ),
        (
            json!({"t": "click", "room": room, "click": "Z9Q"}),
            "bad_request",
        ),
        (
            json!({"t": "click", "room": room, "click": "A1R", "piece": "Q99"}),
            "bad_request",
        ),
        (
            json!({"t": "place", "room": room, "slot": "A1s"}),
            "illegal",
        ),
        (json!({"t": "roll", "room": room}), "illegal"),
        (json!({"t": "claim", "room": room}), "illegal"),
        (json!({"t": "join", "room": "nowhere"}), "not_found"),
        (json!({"t": "join", "room": room}), "joined"),
        (json!({"t": "create", "game": "chess"}), "not_found"),
        (
            json!({"t": "create", "game": "hydra-2", "options": {"clicks": 9}}),
            "bad_request",
        ),
        (
            json!({"t": "create", "game": "hydra-2", "options": {"colour": "red"}}),
            "bad_request",
        ),
        (
            json!({"t": "create", "game": "hydra-2", "options": {"claim_window": "soon"}}),
            "bad_request",
        ),
        (
            json!({"t": "quick", "game": "hydra-2", "players": 4}),
            "bad_request",
        ),
        (
            json!({"t": "chat", "room": room, "text": ""}),
            "bad_request",
        ),
        (
            json!({"t": "resume", "room": room, "since": 999}),
            "bad_request",
        ),
    ] {
        let reply = s.request(req.clone()).await;
        if code == "joined" {
            // Joining one's own room again just reattaches.
            assert_eq!(reply["t"], "joined", "{req}: {reply}");
            continue;
        }
        assert_eq!(reply["t"], "error", "{req}: {reply}");
        assert_eq!(reply["code"], code, "{req}: {reply}");
        assert!(!reply["message"].as_str().unwrap_or("").is_empty());
    }
    // A "rotor holds none of your pieces" refusal says so in words.
    let e = s
        .refused(json!({"t": "click", "room": room, "click": "C5R"}))
        .await;
    assert_eq!(e["code"], "illegal");
    assert!(e["message"].as_str().unwrap().contains("C5"), "{e}");

    // Nothing changed: the next legal click is the very next event.
    let before = s.last_seq(&room);
    let ev = s.play(&room, "click", json!({"click": "A2L"})).await;
    assert_eq!(ev["seq"].as_u64(), Some(before + 1));
    let _ = n.request(json!({"t": "ping"})).await;
    assert_eq!(c.request(json!({"t": "ping"})).await["t"], "pong");
}

#[tokio::test]
async fn out_of_turn_and_spectator_moves_are_refused() {
    let server = TestServer::start();
    let mut players = vec![server.player("s").await, server.player("n").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let mut watcher = server.player("w").await;
    watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;

    let e = players[1]
        .refused(json!({"t": "click", "room": room, "click": "A5R"}))
        .await;
    assert_eq!(e["code"], "not_your_turn");
    assert_eq!(e["message"], "it is S's turn");
    let e = players[1]
        .refused(json!({"t": "end_turn", "room": room}))
        .await;
    assert_eq!(e["code"], "not_your_turn");
    for t in ["click", "end_turn", "claim", "ready"] {
        let e = watcher
            .refused(json!({"t": t, "room": room, "click": "A1R"}))
            .await;
        assert_eq!(e["code"], "not_a_player", "{t}: {e}");
    }
    // No event was made by any of it.
    let before = players[0].last_seq(&room);
    let ev = players[0]
        .play(&room, "click", json!({"click": "A2L"}))
        .await;
    assert_eq!(ev["seq"].as_u64(), Some(before + 1));
    let seen = watcher.expect_event(&room, "click").await;
    assert_eq!(seen["seq"], ev["seq"]);
    assert!(watcher.errors().is_empty());
}

#[tokio::test]
async fn an_oversized_frame_gets_too_big_and_close_1009() {
    let server = TestServer::start();
    let mut c = server.player("big").await;
    let text = format!(
        r#"{{"t":"chat","room":"r","text":"{}"}}"#,
        "x".repeat(orion_server::MAX_FRAME)
    );
    c.send_text(text).await;
    let e = c.expect_t("error").await;
    assert_eq!(e["code"], "too_big");
    assert_eq!(c.expect_close().await, Some(1009));
}

#[tokio::test]
async fn a_frame_over_the_library_cap_is_refused_the_same_way() {
    let server = TestServer::start();
    let mut c = server.player("huge").await;
    c.send_text("x".repeat(8 * orion_server::MAX_FRAME)).await;
    let e = c.expect_t("error").await;
    assert_eq!(e["code"], "too_big");
    assert_eq!(c.expect_close().await, Some(1009));
}

#[tokio::test]
async fn a_flood_is_rate_limited_then_closed_with_1008() {
    let server = TestServer::start();
    let mut c = server.player("flood").await;
    let mut sent = 0;
    for _ in 0..300 {
        if !c.try_send_text(r#"{"t":"ping"}"#).await {
            break;
        }
        sent += 1;
    }
    assert!(sent > orion_server::RATE_BURST as usize);
    let e = c.expect(|m| m["t"] == "error").await;
    assert_eq!(e["code"], "rate_limited");
    assert_eq!(c.expect_close().await, Some(1008));
}

#[tokio::test]
async fn a_room_takes_spectators_up_to_the_servers_bound_and_refuses_more_with_full() {
    let server = TestServer::start_tuned(|c| c.max_spectators = 2);
    let mut players = vec![server.player("s").await, server.player("n").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let mut watchers = Vec::new();
    for name in ["w1", "w2"] {
        let mut w = server.player(name).await;
        let snap = w.request(json!({"t": "spectate", "room": room})).await;
        assert_eq!(snap["t"], "snapshot", "{snap}");
        watchers.push(w);
    }
    let mut third = server.player("w3").await;
    let e = third.refused(json!({"t": "spectate", "room": room})).await;
    assert_eq!(e["code"], "full");
    // A watcher who leaves makes room for another.
    let left = watchers[0]
        .request(json!({"t": "leave", "room": room}))
        .await;
    assert_eq!(left["t"], "left", "{left}");
    let snap = third.request(json!({"t": "spectate", "room": room})).await;
    assert_eq!(snap["t"], "snapshot", "{snap}");
}
