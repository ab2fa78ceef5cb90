//! Several nodes on a real PostgreSQL and a real NATS server (both started by the test as
//! its own processes), each node an `orion-node` process: players on different nodes play
//! one game, watched from a third connection; a node `kill -9`ed mid-game loses no game, nor
//! does one that restarts while the database cannot read a room's log.

use orion_tests::cluster::{
    resume_once, resume_until_taken, start_cluster, until_accepted, ClusterNode,
};
use orion_tests::{finish_hydra_two_from_mid_move, play_moves, Client, HYDRA_TWO};
use serde_json::{json, Value};

const NODE: &str = env!("CARGO_BIN_EXE_orion-node");

/// Hydra for Four with three clicks a move (`games.rs`'s script): `S`'s moves; the others pass.
const HYDRA_FOUR: &[&str] = &[
    "B2L, C2R, C3R",
    "B1L, C1R, C2R",
    "B2L, B3L, C3R",
    "B4R (2), B5L",
];

/// Asserts that `events` (a room's, from seq 1) begin with every one of `before`, unchanged.
fn as_before(events: &[Value], before: &[Value]) {
    for e in before {
        let seq = e["seq"].as_u64().expect("seq") as usize;
        assert_eq!(&events[seq - 1], e, "event {seq} differs from before");
    }
}

/// Asserts that `events` of `room` are seqs `from..=to`, each once, in order.
fn once_in_order(events: &[Value], room: &str, from: u64, to: u64) {
    let seqs: Vec<u64> = events
        .iter()
        .filter(|e| e["room"] == room)
        .filter_map(|e| e["seq"].as_u64())
        .collect();
    assert_eq!(seqs, (from..=to).collect::<Vec<_>>());
}

#[tokio::test]
async fn players_on_two_nodes_play_hydra_for_four_watched_from_a_third_connection() {
    let (_pg, _nats, [a, b]) = start_cluster(NODE, ["a", "b"]);
    // S and N on node a (which owns the room: S makes it there), W and E on node b.
    let mut players = [
        a.player("s").await,
        b.player("w").await,
        a.player("n").await,
        b.player("e").await,
    ];
    let made = players[0]
        .request(json!({"t": "create", "game": "hydra-4",
                        "options": {"clicks": 3, "claim_window": 30000}}))
        .await;
    assert_eq!(made["t"], "joined", "{made}");
    let room = made["room"].as_str().expect("room").to_string();
    players[0].seat = "S".into();
    for (p, seat) in players.iter_mut().zip(["S", "W", "N", "E"]).skip(1) {
        let j = p.request(json!({"t": "join", "room": room})).await;
        assert_eq!(j["t"], "joined", "{j}");
        assert_eq!(j["seat"], seat, "{j}");
        p.seat = seat.into();
    }
    let mut watcher = b.player("watcher").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_ne!(snap["t"], "error", "{snap}");
    let watched_from = snap["seq"].as_u64().expect("snapshot seq");
    for p in players.iter_mut() {
        p.send(json!({"t": "ready", "room": room})).await;
    }
    for p in players.iter_mut() {
        p.expect_event(&room, "start").await;
    }
    for (i, moves) in HYDRA_FOUR.iter().enumerate() {
        players[0].clicks(&room, moves, false).await;
        if i + 1 < HYDRA_FOUR.len() {
            // Each passes once he has seen the turn come to him, as a player would (events
            // reach node b later than node a).
            let mut seq = players[0].last_seq(&room);
            for p in players[1..].iter_mut() {
                p.sync_to(&room, seq).await;
                seq = p.play(&room, "end_turn", json!({})).await["seq"]
                    .as_u64()
                    .expect("seq");
            }
        }
    }
    // W, on node b, makes S's chain; S, on node a, claims it and wins.
    players[1]
        .play(&room, "click", json!({"click": "C4R"}))
        .await;
    let chain = players[0].expect_event(&room, "chain").await;
    assert_eq!(chain["ev"]["colour"], "R", "{chain}");
    let claim = players[0].play(&room, "claim", json!({})).await;
    assert_eq!(claim["ev"]["ok"], true, "{claim}");
    let over = watcher.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], "S", "{over}");
    let last = over["seq"].as_u64().expect("seq");
    // Every player, on either node, and the watcher saw every event once, in order.
    for p in players.iter_mut() {
        p.sync_to(&room, last).await;
        let first = p.events[0]["seq"].as_u64().expect("seq");
        once_in_order(&p.events, &room, first, last);
    }
    once_in_order(&watcher.events, &room, watched_from + 1, last);
}

#[tokio::test]
async fn a_game_survives_its_owner_node_killed_mid_game() {
    let (_pg, _nats, [mut a, b, c]) = start_cluster(NODE, ["a", "b", "c"]);
    let (mut s, mut n, room) = two_node_game(&a, &b, 3).await;
    // A third node lists the game while a runs it …
    let mut looker = c.player("looker").await;
    listed_until(&mut looker, &room, "playing", 5).await;
    s.play(&room, "click", json!({"click": "D2L"})).await;
    let seen = s.last_seq(&room);
    n.sync_to(&room, seen).await;
    let before: Vec<Value> = s.events.clone();
    // The owner dies where it stands.
    let killed = std::time::Instant::now();
    a.kill();
    // Both come back on node b (hello + token + resume); b or c takes the room over once
    // a's lease has expired, and everything acknowledged is there, once, in order.
    let mut s2 = b.reconnect("south", &s.token).await;
    s2.seat = "S".into();
    resume_until_taken(&mut s2, &room, 0).await;
    let took = killed.elapsed();
    assert!(took.as_secs() < 10, "took over after {took:?}");
    s2.sync_to(&room, seen).await;
    once_in_order(&s2.events, &room, 1, seen);
    as_before(&s2.events, &before);
    let mut n2: Client = b.reconnect("north", &n.token).await;
    n2.seat = "N".into();
    resume_until_taken(&mut n2, &room, 0).await;
    n2.sync_to(&room, seen).await;
    // The game goes on mid-move, on b, to the win.
    let last = finish_hydra_two_from_mid_move(&mut s2, &mut n2, &room).await;
    once_in_order(&s2.events, &room, 1, last);
    once_in_order(&n2.events, &room, 1, last);
    // … and lists it as its new owner runs it, to its end (nothing of a's is left to show
    // that).
    listed_until(&mut looker, &room, "finished", 5).await;
    // The /metrics of b or c (whichever scanned first) show the one takeover, and b's the
    // commands it forwarded to a before.
    let metrics = orion_tests::http_get(b.addr, "/metrics").await;
    let on_c = orion_tests::http_get(c.addr, "/metrics").await;
    let failovers = |m: &str| {
        m.lines()
            .find_map(|l| l.strip_prefix("orion_failovers_total "))
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0)
    };
    assert_eq!(
        failovers(&metrics) + failovers(&on_c),
        1,
        "{metrics}\n{on_c}"
    );
    let forwarded = metrics
        .lines()
        .find_map(|l| l.strip_prefix("orion_bus_request_seconds_count "))
        .and_then(|n| n.parse::<u64>().ok());
    assert!(forwarded > Some(0), "{metrics}");
    assert!(metrics.contains("orion_rooms_owned "), "{metrics}");
}

/// Runs `sql` on the cluster's database, as an operator's `psql` would.
async fn sql(pg: &orion_tests::pg::Postgres, sql: &str) {
    let (client, conn) = tokio_postgres::connect(&pg.url(), tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    client.batch_execute(sql).await.expect("sql");
}

#[tokio::test]
async fn a_room_the_store_could_not_read_when_its_node_restarted_comes_back_once_it_reads() {
    let (pg, _nats, [mut a, mut b]) = start_cluster(NODE, ["a", "b"]);
    let (s, mut n, room) = two_node_game(&a, &b, 3).await;
    let seen = s.last_seq(&room);
    n.sync_to(&room, seen).await;
    let before: Vec<Value> = s.events.clone();
    b.kill();
    a.kill();
    // The room's log cannot be read (its actions lose their time: "half an action"), as
    // when the database fails the read, while its node starts again …
    sql(
        &pg,
        &format!(
            "CREATE TABLE stash AS SELECT n, acted_at FROM log
                 WHERE room = '{room}' AND acted_at IS NOT NULL;
             UPDATE log SET acted_at = NULL WHERE room = '{room}'"
        ),
    )
    .await;
    a.restart();
    let mut s2 = a.reconnect("south", &s.token).await;
    s2.seat = "S".into();
    let refused = resume_once(&mut s2, &room, 0).await;
    assert_eq!(refused["t"], "error", "served while unreadable: {refused}");
    // … and can once the database reads it again: a node's next scan takes it over, with
    // no restart, every event as it was.
    sql(
        &pg,
        &format!(
            "UPDATE log l SET acted_at = s.acted_at FROM stash s
                 WHERE l.room = '{room}' AND l.n = s.n"
        ),
    )
    .await;
    resume_until_taken(&mut s2, &room, 0).await;
    s2.sync_to(&room, seen).await;
    once_in_order(&s2.events, &room, 1, seen);
    as_before(&s2.events, &before);
}

/// Asks `c`'s node for the lobby until it lists `room` with `status` (within `secs`).
async fn listed_until(c: &mut Client, room: &str, status: &str, secs: u64) {
    let began = std::time::Instant::now();
    loop {
        let page = c.request(json!({"t": "lobby"})).await;
        let rooms = page["rooms"].as_array().cloned().unwrap_or_default();
        if rooms
            .iter()
            .any(|r| r["room"] == room && r["status"] == status)
        {
            return;
        }
        assert!(
            began.elapsed().as_secs() < secs,
            "{room} not listed {status}: {page}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_quick_match_is_made_of_players_on_different_nodes() {
    let (_pg, _nats, [a, b]) = start_cluster(NODE, ["a", "b"]);
    let mut one = a.player("one").await;
    let mut two = b.player("two").await;
    let quick = json!({"t": "quick", "game": "hydra-2"});
    let queued = one.request(quick.clone()).await;
    assert_eq!(queued["t"], "queued", "{queued}");
    let queued = two.request(quick.clone()).await;
    assert_eq!(queued["t"], "queued", "{queued}");
    // One group of both, in queue order: the first to queue sits S.
    let j1 = one.expect_t("joined").await;
    let j2 = two.expect_t("joined").await;
    assert_eq!(j1["room"], j2["room"], "{j1} {j2}");
    assert_eq!(
        (j1["seat"].as_str(), j2["seat"].as_str()),
        (Some("S"), Some("N"))
    );
    let room = j1["room"].as_str().expect("room").to_string();
    one.seat = "S".into();
    two.seat = "N".into();
    one.expect_event(&room, "start").await;
    two.expect_event(&room, "start").await;
    // The match is played across the nodes.
    play_moves(&mut one, &mut two, &room, &HYDRA_TWO[..2], false).await;
    let seq = one.last_seq(&room).max(two.last_seq(&room));
    one.sync_to(&room, seq).await;
    two.sync_to(&room, seq).await;
    // Each saw every event from the one after his own `joined` (his snapshot covers it).
    once_in_order(&one.events, &room, 2, seq);
    once_in_order(&two.events, &room, 3, seq);
    // Asking again while waiting is refused, on either node, whoever holds the queue.
    let mut three = a.player("three").await;
    three.request(quick.clone()).await;
    let again = three.request(quick).await;
    assert_eq!(again["t"], "error", "{again}");
}

/// Two players on two nodes, a Hydra for Two started and `moves` of `HYDRA_TWO` played
/// (North passing after each); returns the nodes' players and the room.
async fn two_node_game(a: &ClusterNode, b: &ClusterNode, moves: usize) -> (Client, Client, String) {
    let mut s = a.player("south").await;
    let mut n = b.player("north").await;
    // A room is refused with `server` while its lease cannot be taken (a loaded database).
    let made = until_accepted(&mut s, json!({"t": "create", "game": "hydra-2"}), |m| {
        m["t"] == "joined"
    })
    .await;
    let room = made["room"].as_str().expect("room").to_string();
    s.seat = "S".into();
    let j = n.request(json!({"t": "join", "room": room})).await;
    assert_eq!(j["seat"], "N", "{j}");
    n.seat = "N".into();
    for p in [&mut s, &mut n] {
        p.send(json!({"t": "ready", "room": room})).await;
    }
    for p in [&mut s, &mut n] {
        p.expect_event(&room, "start").await;
    }
    play_moves(&mut s, &mut n, &room, &HYDRA_TWO[..moves], false).await;
    (s, n, room)
}

/// Plays the rest of the game from South's third move (its first `played` clicks already
/// made), each request retried while it is refused with `server`; checks that both saw every
/// event once, in order, to the win.
async fn finish_through_outage(s: &mut Client, n: &mut Client, room: &str, played: usize) {
    for (i, (moves, end)) in HYDRA_TWO[2..].iter().enumerate() {
        let skip = if i == 0 { played } else { 0 };
        for click in orion_tests::expand(moves).into_iter().skip(skip) {
            let before = s.last_seq(room);
            let req = json!({"t": "click", "room": room, "click": click});
            until_accepted(s, req, |m| {
                m["t"] == "event" && m["ev"]["kind"] == "click" && m["seq"].as_u64() > Some(before)
            })
            .await;
        }
        if *end {
            let before = s.last_seq(room);
            let req = json!({"t": "end_turn", "room": room});
            until_accepted(s, req, |m| {
                m["ev"]["kind"] == "turn"
                    && m["ev"]["seat"] == "N"
                    && m["seq"].as_u64() > Some(before)
            })
            .await;
        }
        if i + 3 < HYDRA_TWO.len() {
            let seq = s.last_seq(room);
            n.sync_to(room, seq).await;
            let req = json!({"t": "end_turn", "room": room});
            until_accepted(n, req, |m| {
                m["ev"]["kind"] == "turn" && m["ev"]["seat"] == "S" && m["seq"].as_u64() > Some(seq)
            })
            .await;
        }
    }
    let over = n.expect_event(room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], "S", "{over}");
    let last = over["seq"].as_u64().expect("seq");
    s.sync_to(room, last).await;
    once_in_order(&s.events, room, 2, last);
    once_in_order(&n.events, room, 3, last);
}

#[tokio::test]
async fn a_bus_restart_mid_game_loses_nothing() {
    let (_pg, mut nats, [a, b]) = start_cluster(NODE, ["a", "b"]);
    let (mut s, mut n, room) = two_node_game(&a, &b, 2).await;
    nats.stop();
    // North's node cannot reach the room's: a clear error, within the request timeout.
    let chat = json!({"t": "chat", "room": room, "text": "anyone there?"});
    let refused = n.request(chat).await;
    assert_eq!(refused["t"], "error", "{refused}");
    assert_eq!(refused["code"], "server", "{refused}");
    // South, on the room's own node, plays on; North gets it all once the bus is back.
    s.play(&room, "click", json!({"click": "B2L"})).await;
    // A room made on a meanwhile: b's lobby cannot hear of it yet …
    let mut late = a.player("late").await;
    let made = late
        .request(json!({"t": "create", "game": "hydra-2"}))
        .await;
    let made = made["room"].as_str().expect("room").to_string();
    nats.restart();
    finish_through_outage(&mut s, &mut n, &room, 1).await;
    // … and lists it once the bus is back.
    listed_until(&mut n, &made, "waiting", 5).await;
}

#[tokio::test]
async fn a_database_restart_mid_game_loses_nothing() {
    let (mut pg, _nats, [a, b]) = start_cluster(NODE, ["a", "b"]);
    let (mut s, mut n, room) = two_node_game(&a, &b, 2).await;
    pg.stop();
    // Nothing can be stored: the click is refused, clearly, and not played.
    let refused = s
        .request(json!({"t": "click", "room": room, "click": "B2L"}))
        .await;
    assert_eq!(refused["t"], "error", "{refused}");
    assert_eq!(refused["code"], "server", "{refused}");
    pg.restart();
    finish_through_outage(&mut s, &mut n, &room, 0).await;
}

/// Issue 25: "log out everywhere" on one node closes the account's devices connected to
/// another node at once, not only at their next `hello`.
#[tokio::test]
async fn log_out_everywhere_on_one_node_closes_the_accounts_connections_on_another() {
    let (_pg, _nats, [a, b]) = start_cluster(NODE, ["a", "b"]);
    let password = "correct horse battery";
    let mut laptop = a.player("alice").await;
    let w = laptop
        .request(json!({"t": "register", "password": password}))
        .await;
    assert_eq!(w["t"], "welcome", "{w}");
    let login = json!({"t": "login", "name": "alice", "password": password, "version": 1});
    let mut phone = Client::connect(&b.url()).await;
    assert_eq!(phone.request(login.clone()).await["t"], "welcome");
    let mut tablet = Client::connect(&a.url()).await;
    assert_eq!(tablet.request(login).await["t"], "welcome");
    let out = laptop.request(json!({"t": "logout_all"})).await;
    assert_eq!(out["revoked"], 2, "{out}");
    for (device, c) in [
        ("the phone on b", &mut phone),
        ("the tablet on a", &mut tablet),
    ] {
        let e = c.expect_t("error").await;
        assert_eq!(e["code"], "not_found", "{device}: {e}");
        assert_eq!(c.expect_close().await, Some(1008), "{device} closed");
    }
    let still = laptop.request(json!({"t": "lobby"})).await;
    assert_eq!(
        still["t"], "lobby",
        "the laptop keeps its connection: {still}"
    );
}
