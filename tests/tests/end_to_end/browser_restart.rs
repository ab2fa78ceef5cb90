//! A page through a real nginx in front of two cluster nodes (`orion-node` processes on a real
//! PostgreSQL and NATS), playing; the node its WebSocket is on is stopped with `SIGTERM`, as a
//! rolling restart does. The page is told 1012, reconnects through nginx (which passes it to
//! the node left), says hello with its token and resumes; the game goes on: a turn the page
//! ends after it reaches the other player.

use crate::chromium;

use chromium::{js, open, press, wait_js, wait_text, Driver};
use orion_tests::cluster::{
    resume_until_taken, start_cluster, until_accepted, until_heard, ClusterNode,
};
use orion_tests::nginx::Nginx;
use serde_json::json;

const NODE: &str = env!("CARGO_BIN_EXE_orion-node");

/// Open WebSocket connections on a node (its `orion_connections` gauge).
async fn connections(node: &ClusterNode) -> u64 {
    let metrics = orion_tests::http_get(node.addr, "/metrics").await;
    metrics
        .lines()
        .find_map(|l| l.strip_prefix("orion_connections ")?.parse().ok())
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_whose_node_stops_reconnects_through_nginx_to_another_and_plays_on() {
    let (_pg, _nats, mut nodes) = start_cluster(NODE, ["a", "b"]);
    let nginx = Nginx::start_balanced(&[nodes[0].addr, nodes[1].addr]);
    let base = nginx.base();
    let mut driver = Driver::start();
    let alice = driver.browser(1280, 900).await;

    // Bob, a client of node a, makes a Hydra for Two (he is South); alice's page joins it
    // through nginx (North).
    let mut bob = nodes[0].player("bob").await;
    // A room is refused with `server` while its lease cannot be taken (a loaded database).
    let create = json!({"t": "create", "game": "hydra-2"});
    let made = until_accepted(&mut bob, create.clone(), |m| m["t"] == "joined").await;
    assert_eq!(made["seat"], "S", "{made}");
    let room = made["room"].as_str().expect("room").to_string();
    // Dave, a client of node b, makes a room there; each node lists the other's, so the node
    // stopped below knows where to hand its rooms.
    let mut dave = nodes[1].player("dave").await;
    let other = until_accepted(&mut dave, create, |m| m["t"] == "joined").await;
    let other = other["room"].as_str().expect("room").to_string();
    until_heard(&mut bob, &room, &mut dave, &other).await;
    open(&alice, &base, &format!("/r/{room}"), "alice").await;
    wait_text(&alice, "#seats [data-seat=N]", "alice").await;
    press(&alice, "#ready").await;
    bob.send(json!({"t": "ready", "room": room})).await;
    bob.expect_event(&room, "start").await;
    // Bob's first move is one click; then it is alice's turn.
    bob.send(json!({"t": "click", "room": room, "click": "A2L"}))
        .await;
    bob.expect_event(&room, "turn").await;
    wait_text(&alice, "#turn", "Your turn").await;

    // The node alice's page is on: the one whose open connections count her (bob is on a,
    // dave on b).
    let on_b = connections(&nodes[1]).await == 2;
    let stopping = usize::from(on_b);
    // Node `stopping` is stopped as an operator does: it hands its rooms to the other node,
    // closes its connections with 1012 and exits 0.
    let exit = tokio::task::block_in_place(|| nodes[stopping].terminate());
    assert!(exit.success(), "the node stopped with {exit}");
    if !on_b {
        // Bob was on the stopped node too: he reconnects to the other and resumes, from one
        // event back so that the replay answers.
        let close = bob.expect_close().await;
        assert_eq!(close, Some(1012), "bob's connection closed with {close:?}");
        let (token, since) = (bob.token.clone(), bob.last_seq(&room) - 1);
        bob = nodes[1].reconnect("bob", &token).await;
        resume_until_taken(&mut bob, &room, since).await;
    }

    // The page was told 1012, and is up again: through nginx, on the node left.
    wait_js(
        &alice,
        "window.__orion.net.lastClose === 1012 && window.__orion.net.up",
        "the page reconnected after a 1012",
    )
    .await;
    // On the node left: alice's page and bob (and dave, when that is b).
    let left = if on_b { 2 } else { 3 };
    assert_eq!(connections(&nodes[1 - stopping]).await, left);
    assert_eq!(
        js(&alice, "return window.__orion.net.retry").await,
        json!(0),
        "no failed try: the page reconnected at once, and nginx passed it to a live node"
    );

    // The game goes on: alice ends her turn on the page, and bob sees the turn pass to him.
    press(&alice, "#end-turn").await;
    let turn = bob
        .expect(|m| m["t"] == "event" && m["ev"]["kind"] == "turn" && m["ev"]["seat"] == "S")
        .await;
    assert_eq!(turn["room"], room.as_str(), "{turn}");
    wait_text(&alice, "#turn", "Waiting for bob").await;
}
