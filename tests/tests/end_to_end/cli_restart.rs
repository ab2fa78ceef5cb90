//! The terminal client's connection (`orion_cli::net`, what `orion play` and its bots talk
//! through) behind a real nginx in front of two cluster nodes (`orion-node` processes on a
//! real PostgreSQL and NATS): the node it is on is stopped with `SIGTERM`, as a rolling
//! restart does. The client is told 1012 ("server restarting"), reconnects through nginx (to
//! the node left), says hello with its token and resumes its room on its own; a turn it ends
//! after reaches the other player.

use orion_cli::net::{self, NetEvent, TokenStore};
use orion_protocol::{Message, Request};
use orion_tests::cluster::{
    resume_until_taken, start_cluster, until_accepted, until_heard, ClusterNode,
};
use orion_tests::nginx::Nginx;
use orion_tests::PATIENCE;
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

/// The client's next report that `pick` takes, within the patience.
async fn until<T>(
    client: &mut net::Client,
    what: &str,
    pick: impl Fn(&NetEvent) -> Option<T>,
) -> T {
    let found = tokio::time::timeout(PATIENCE, async {
        while let Some(ev) = client.recv().await {
            if let Some(t) = pick(&ev) {
                return Some(t);
            }
        }
        None
    })
    .await;
    match found {
        Ok(Some(t)) => t,
        Ok(None) => panic!("the client's connection task ended before {what}"),
        Err(_) => panic!("{what} never came"),
    }
}

/// Whether `ev` is an event of `room` whose `kind` is `kind` and whose seat is `seat`.
fn event_of(ev: &NetEvent, room: &str, kind: &str, seat: &str) -> bool {
    let NetEvent::Message(m @ Message::Event { .. }) = ev else {
        return false;
    };
    let v = serde_json::to_value(m).unwrap_or_default();
    v["room"] == room && v["ev"]["kind"] == kind && v["ev"]["seat"] == seat
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_terminal_clients_node_stops_and_it_reconnects_through_nginx_and_plays_on() {
    let (_pg, _nats, mut nodes) = start_cluster(NODE, ["a", "b"]);
    let nginx = Nginx::start_balanced(&[nodes[0].addr, nodes[1].addr]);

    // Bob, a client of node a, makes a Hydra for Two (South); carol's terminal client joins
    // it through nginx (North).
    let mut bob = nodes[0].player("bob").await;
    // A room is refused with `server` while its lease cannot be taken (a loaded database).
    let create = json!({"t": "create", "game": "hydra-2"});
    let made = until_accepted(&mut bob, create.clone(), |m| m["t"] == "joined").await;
    let room = made["room"].as_str().expect("room").to_string();
    // Dave, a client of node b, makes a room there; each node lists the other's, so the node
    // stopped below knows where to hand its rooms.
    let mut dave = nodes[1].player("dave").await;
    let other = until_accepted(&mut dave, create, |m| m["t"] == "joined").await;
    let other = other["room"].as_str().expect("room").to_string();
    until_heard(&mut bob, &room, &mut dave, &other).await;
    let mut carol = net::connect(&nginx.ws_url(), "carol", TokenStore::Memory)
        .await
        .expect("carol connects through nginx");
    let join = Request::Join {
        room: Some(room.clone()),
        code: None,
        seat: None,
    };
    assert!(carol.send(join).await);
    until(&mut carol, "carol's seat", |ev| {
        matches!(ev, NetEvent::Message(Message::Joined { .. })).then_some(())
    })
    .await;
    assert!(carol.send(Request::Ready { room: room.clone() }).await);
    bob.send(json!({"t": "ready", "room": room})).await;
    bob.expect_event(&room, "start").await;
    // Bob's first move is one click; then it is carol's turn.
    bob.send(json!({"t": "click", "room": room, "click": "A2L"}))
        .await;
    bob.expect_event(&room, "turn").await;
    until(&mut carol, "her turn", |ev| {
        event_of(ev, &room, "turn", "N").then_some(())
    })
    .await;

    // The node carol is on (bob is on a, dave on b) is stopped as an operator does.
    let on_b = connections(&nodes[1]).await == 2;
    let stopping = usize::from(on_b);
    let exit = tokio::task::block_in_place(|| nodes[stopping].terminate());
    assert!(exit.success(), "the node stopped with {exit}");
    if !on_b {
        // Bob was on it too: he reconnects to the other node and resumes, from one event
        // back so that the replay answers.
        let (token, since) = (bob.token.clone(), bob.last_seq(&room) - 1);
        bob = nodes[1].reconnect("bob", &token).await;
        resume_until_taken(&mut bob, &room, since).await;
    }

    // Carol's client reports the restart, and is welcomed again (through nginx, by the node
    // left), on its own.
    let why = until(&mut carol, "the drop", |ev| match ev {
        NetEvent::Dropped(why) => Some(why.clone()),
        _ => None,
    })
    .await;
    assert!(why.contains("restarting"), "dropped: {why}");
    until(&mut carol, "a welcome again", |ev| {
        matches!(ev, NetEvent::Welcome { again: true, .. }).then_some(())
    })
    .await;
    // On the node left: carol's client and bob (and dave, when that is b).
    let left = if on_b { 2 } else { 3 };
    assert_eq!(connections(&nodes[1 - stopping]).await, left);

    // The game goes on: carol ends her turn, and bob sees the turn pass to him.
    assert!(carol.send(Request::EndTurn { room: room.clone() }).await);
    let turn = bob
        .expect(|m| m["t"] == "event" && m["ev"]["kind"] == "turn" && m["ev"]["seat"] == "S")
        .await;
    assert_eq!(turn["room"], room.as_str(), "{turn}");
}
