//! Operations and the lobby: `/healthz` and `/metrics` on the WebSocket port, the live lobby
//! list, invite codes, the quick matchmaker, the turn clock and time bank, and a graceful
//! shutdown that tells every client.

use orion_tests::{http_get, start_room, Client, TestServer};
use serde_json::json;

#[tokio::test]
async fn health_and_metrics_are_served_on_the_websocket_port() {
    let server = TestServer::start();
    let health = http_get(server.addr, "/healthz").await;
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    assert!(health.ends_with("ok\n"), "{health}");
    let mut players = vec![server.player("s").await, server.player("n").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    players[1]
        .refused(json!({"t": "click", "room": room, "click": "A5R"}))
        .await;
    // Long enough for the runtime-lag watcher (5 ms sleeps) to have been woken a few times.
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    let metrics = http_get(server.addr, "/metrics").await;
    for line in [
        "orion_connections 2",
        "orion_rooms{status=\"playing\"} 1",
        "orion_errors_total{code=\"not_your_turn\"} 1",
        "orion_slow_client_disconnects_total 0",
    ] {
        assert!(
            metrics.lines().any(|l| l == line),
            "{line} missing from\n{metrics}"
        );
    }
    assert!(metrics.contains("orion_events_total "));
    // The runtime's own stall: how late a task that sleeps 5 ms at a time was woken.
    let lag_wakes: u64 = metrics
        .lines()
        .find_map(|l| l.strip_prefix("orion_runtime_lag_seconds_count "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("orion_runtime_lag_seconds_count missing from\n{metrics}"));
    assert!(lag_wakes >= 1, "{metrics}");
    // The WebSocket still works on the same port afterwards.
    assert_eq!(players[0].request(json!({"t": "ping"})).await["t"], "pong");
}

#[tokio::test]
async fn the_lobby_list_follows_rooms_and_hides_private_ones() {
    let server = TestServer::start();
    let mut watcher = server.player("watcher").await;
    let first = watcher.request(json!({"t": "lobby", "watch": true})).await;
    assert_eq!(first["rooms"], json!([]));
    let mut host = server.player("host").await;
    let joined = host
        .request(json!({"t": "create", "game": "hydra-4", "options": {"players": 3}}))
        .await;
    let room = joined["room"].as_str().unwrap().to_string();
    let update = watcher
        .expect(|m| m["t"] == "lobby" && m["rooms"].as_array().is_some_and(|r| !r.is_empty()))
        .await;
    let summary = &update["rooms"][0];
    assert_eq!(summary["room"], room);
    assert_eq!(summary["game"], "hydra-4");
    assert_eq!(summary["status"], "waiting");
    assert_eq!(summary["seats"], json!({"S": "host", "W": null, "N": null}));

    // A private room is joined by its code and never listed.
    let private = host
        .request(json!({"t": "create", "game": "hydra-2", "private": true}))
        .await;
    let code = private["code"]
        .as_str()
        .expect("an invite code")
        .to_string();
    let mut friend = server.player("friend").await;
    let j = friend
        .request(json!({"t": "join", "code": code.to_lowercase()}))
        .await;
    assert_eq!(j["t"], "joined", "{j}");
    assert_eq!(j["seat"], "N");
    let list = watcher.request(json!({"t": "lobby"})).await;
    assert_eq!(list["rooms"].as_array().map(Vec::len), Some(1), "{list}");
    let e = watcher
        .refused(json!({"t": "spectate", "room": private["room"]}))
        .await;
    assert_eq!(e["code"], "not_found");
}

#[tokio::test]
async fn the_matchmaker_fills_a_room_and_starts_it_at_once() {
    let server = TestServer::start();
    let mut a = server.player("a").await;
    let mut b = server.player("b").await;
    let mut c = server.player("c").await;
    let q = a
        .request(json!({"t": "quick", "game": "hydra-4", "players": 3}))
        .await;
    assert_eq!(q["t"], "queued");
    let q = b
        .request(json!({"t": "quick", "game": "hydra-4", "players": 3}))
        .await;
    assert_eq!(q["t"], "queued");
    // Someone waiting for another game or size is not matched with them.
    let other = server.player("other").await;
    let mut other = other;
    assert_eq!(
        other
            .request(json!({"t": "quick", "game": "hydra-2"}))
            .await["t"],
        "queued"
    );
    let id = c
        .send_with_id(json!({"t": "quick", "game": "hydra-4", "players": 3}))
        .await;
    c.expect(|m| m["re"] == json!(id) && m["t"] == "queued")
        .await;
    let mut rooms = Vec::new();
    for p in [&mut a, &mut b, &mut c] {
        let joined = p.expect_t("joined").await;
        rooms.push(joined["room"].clone());
        p.seat = joined["seat"].as_str().unwrap().into();
    }
    assert!(rooms.iter().all(|r| *r == rooms[0]));
    let room = rooms[0].as_str().unwrap().to_string();
    let start = a.expect_event(&room, "start").await;
    assert_eq!(start["ev"]["turn"]["seat"], "S");
    assert_eq!(
        start["ev"]["turn"]["clicks"],
        json!(null),
        "die or three first"
    );
    let south: &mut Client = [&mut a, &mut b, &mut c]
        .into_iter()
        .find(|p| p.seat == "S")
        .unwrap();
    let turn = south.play(&room, "three", json!({})).await;
    assert_eq!(turn["ev"]["clicks"], 3);
}

#[tokio::test]
async fn the_turn_clock_ends_a_turn_and_an_empty_time_bank_loses() {
    let server = TestServer::start();
    let mut players = vec![server.player("s").await, server.player("n").await];
    let room = start_room(
        &mut players,
        "hydra-2",
        json!({"turn_clock": 10000, "time_bank": 5000}),
    )
    .await;
    // S moves within his time.
    players[0]
        .play(&room, "click", json!({"click": "A2L"}))
        .await;
    // N broods: his turn clock runs out, then his bank, and he loses.
    server.clock.advance(10_000);
    server.clock.advance(4_999);
    let mut watcher = server.player("w").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["status"], "playing");
    server.clock.advance(1);
    let over = players[0].expect_event(&room, "over").await;
    assert_eq!(over["ev"]["reason"], "time");
    assert_eq!(over["ev"]["result"]["winner"], "S");

    // Without a bank, the clock just ends the turn.
    let mut players = vec![server.player("s2").await, server.player("n2").await];
    let room = start_room(&mut players, "hydra-2", json!({"turn_clock": 10000})).await;
    server.clock.advance(10_000);
    let turn = players[1]
        .expect(|m| m["t"] == "event" && m["ev"]["kind"] == "turn" && m["ev"]["seat"] == "N")
        .await;
    assert_eq!(turn["room"], room);
}

#[tokio::test]
async fn a_graceful_shutdown_tells_every_client() {
    let server = TestServer::start();
    let mut c = server.player("c").await;
    server.shutdown();
    let e = c.expect_t("error").await;
    assert_eq!(e["code"], "server");
    assert_eq!(c.expect_close().await, Some(1001));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_serves_on_a_multi_threaded_runtime_and_stops_on_its_shutdown_future() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(orion_server::run(listener, async {
        let _ = stopped.await;
    }));
    let url = format!("ws://{addr}/ws");
    let mut players = Vec::new();
    for name in ["s", "n"] {
        let mut c = Client::connect(&url).await;
        let w = c
            .request(json!({"t": "hello", "name": name, "version": 1}))
            .await;
        assert_eq!(w["t"], "welcome");
        players.push(c);
    }
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    players[0]
        .play(&room, "click", json!({"click": "A2L"}))
        .await;
    players[1].play(&room, "end_turn", json!({})).await;
    let history = players[1]
        .request(json!({"t": "history", "room": room}))
        .await;
    assert_eq!(history["status"], "playing");
    let _ = stop.send(());
    server.await.unwrap().unwrap();
}
