//! The lobby across nodes (real PostgreSQL and NATS, each node an `orion-node` process): any
//! node lists every room of the cluster and counts a player's seats on every node, and a
//! player connected to one node who leaves a room run by another is seen away there; an
//! account connected to one node is told (`notify`) of its turn in a room another node runs;
//! the bound of 50 correspondence seats holds across nodes.

use orion_tests::cluster::{resume_until_taken, start_cluster, ClusterNode};
use orion_tests::Client;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

const NODE: &str = env!("CARGO_BIN_EXE_orion-node");

/// How long a change on one node may take to show on another: the stated bound (a change is
/// told at once, batched by 100 ms; a lost one is repaired at the next heartbeat, 1 s), with
/// room for a loaded test machine (3 s was passed by a box loaded to 10–20 by other builds).
const SHOWN_WITHIN: Duration = Duration::from_secs(10);

/// Asks `c` for the lobby every 50 ms until `done` holds for its rooms; returns them and how
/// long it took. Panics past [`SHOWN_WITHIN`].
async fn lobby_until(
    c: &mut Client,
    what: &str,
    done: impl Fn(&[Value]) -> bool,
) -> (Vec<Value>, Duration) {
    let began = Instant::now();
    loop {
        let page = c.request(json!({"t": "lobby"})).await;
        assert_eq!(page["t"], "lobby", "{page}");
        let rooms = page["rooms"].as_array().cloned().unwrap_or_default();
        if done(&rooms) {
            return (rooms, began.elapsed());
        }
        assert!(
            began.elapsed() < SHOWN_WITHIN,
            "{what}: not within {SHOWN_WITHIN:?}; the lobby shows {page}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn ids(rooms: &[Value]) -> Vec<&str> {
    rooms.iter().filter_map(|r| r["room"].as_str()).collect()
}

fn find<'a>(rooms: &'a [Value], room: &str) -> Option<&'a Value> {
    rooms.iter().find(|r| r["room"] == room)
}

#[tokio::test]
async fn either_node_lists_every_room_of_the_cluster_and_a_spectator_joins_from_it() {
    let (pg, nats, [a, b]) = start_cluster(NODE, ["a", "b"]);
    let mut maker = a.player("maker").await;
    let mut other = b.player("other").await;
    let mut looker = b.player("looker").await;
    // Watching b's lobby from before any room exists.
    let mut watcher = b.player("watcher").await;
    let first = watcher.request(json!({"t": "lobby", "watch": true})).await;
    assert_eq!(first["rooms"], json!([]), "{first}");
    let made = maker
        .request(json!({"t": "create", "game": "hydra-2", "options": {"clicks": 2}}))
        .await;
    let room = made["room"].as_str().expect("room").to_string();
    let hidden = maker
        .request(json!({"t": "create", "game": "hydra-2", "private": true}))
        .await;
    let hidden = hidden["room"].as_str().expect("room").to_string();
    let (_, took) = lobby_until(&mut looker, "a's room listed on b", |rooms| {
        find(rooms, &room).is_some()
    })
    .await;
    eprintln!("a room made on a was listed on b after {took:?}");
    // A room of b's own, listed on both with a's, in room id order, each counted in `total`.
    let theirs = other
        .request(json!({"t": "create", "game": "hydra-4"}))
        .await;
    let theirs = theirs["room"].as_str().expect("room").to_string();
    let mut both = vec![room.clone(), theirs.clone()];
    both.sort();
    let (on_b, _) = lobby_until(&mut looker, "both rooms on b", |rooms| ids(rooms) == both).await;
    let (on_a, _) = lobby_until(&mut maker, "both rooms on a", |rooms| ids(rooms) == both).await;
    // Exactly the same summary on either node (the private room on neither).
    assert_eq!(on_a, on_b);
    let listed = find(&on_b, &room).expect("listed");
    assert_eq!(listed["game"], "hydra-2", "{listed}");
    assert_eq!(listed["status"], "waiting", "{listed}");
    assert_eq!(listed["seats"]["S"], "maker", "{listed}");
    assert_eq!(listed["options"]["clicks"], 2, "{listed}");
    assert!(find(&on_b, &hidden).is_none() && find(&on_a, &hidden).is_none());
    let page = looker.request(json!({"t": "lobby"})).await;
    assert_eq!(page["total"], 2, "{page}");
    // A node that joins later reads what the others had told before it came.
    let c = ClusterNode::start(NODE, &pg.url(), &nats.url(), "c");
    let mut newcomer = c.player("newcomer").await;
    let (on_c, took) = lobby_until(&mut newcomer, "both rooms on a later node", |rooms| {
        ids(rooms) == both
    })
    .await;
    assert_eq!(on_c, on_b);
    eprintln!("a node started later listed both rooms after {took:?}");
    // A spectator on b watches a's room from the listing; a watcher of b's lobby sees it counted.
    let mut spectator = b.player("spectator").await;
    let snap = spectator
        .request(json!({"t": "spectate", "room": listed["room"]}))
        .await;
    assert_eq!(snap["t"], "snapshot", "{snap}");
    assert_eq!(snap["room"], room.as_str(), "{snap}");
    assert_eq!(snap["seats"]["S"]["name"], "maker", "{snap}");
    let began = Instant::now();
    loop {
        let update = watcher.expect_t("lobby").await;
        let rooms = update["rooms"].as_array().cloned().unwrap_or_default();
        if find(&rooms, &room).is_some_and(|r| r["spectators"] == 1) {
            break;
        }
        assert!(
            began.elapsed() < SHOWN_WITHIN,
            "no update shows the spectator: {update}"
        );
    }
    // The room ends on a (its only player leaves): b stops listing it.
    let left = maker.request(json!({"t": "leave", "room": room})).await;
    assert_eq!(left["t"], "left", "{left}");
    let (_, took) = lobby_until(&mut looker, "an ended room leaves b's lobby", |rooms| {
        ids(rooms) == [theirs.as_str()]
    })
    .await;
    eprintln!("a room ended on a left b's lobby after {took:?}");
}

/// The bound of 50 correspondence seats holds across nodes: an account seated in 50 on one
/// node (rooms and seeks) is refused the 51st on the other, a room made there or a seek, with
/// the bound named; a live room is still his to make (the two bounds are apart).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_correspondence_seats_on_one_node_are_the_bound_on_every_node() {
    let (_pg, _nats, [a, b]) = start_cluster(NODE, ["a", "b"]);
    let mut alice = a.player("alice").await;
    alice.claim("correct horse battery").await;
    // One connection may be in 32 rooms: the other 18 from a second one.
    let mut second = a.reconnect("alice", &alice.token).await;
    let bound = orion_server::MAX_CORRESPONDENCE_SEATS;
    for i in 0..bound {
        let c = if i < 25 { &mut alice } else { &mut second };
        let days = [1, 2, 3, 5, 7, 14][i % 6];
        let j = if i % 2 == 0 {
            let options = json!({"days_per_move": days});
            c.request(json!({"t": "create", "game": "hydra-2", "options": options}))
                .await
        } else {
            c.request(json!({"t": "quick", "game": "hydra-2", "days_per_move": days}))
                .await
        };
        assert_eq!(j["t"], "joined", "seat {i}: {j}");
    }
    let mut on_b = b.reconnect("alice", &alice.token).await;
    let began = Instant::now();
    loop {
        let options = json!({"days_per_move": 2});
        let e = on_b
            .request(json!({"t": "create", "game": "hydra-2", "options": options}))
            .await;
        if e["t"] == "error" {
            assert_eq!(e["code"], "full", "{e}");
            assert!(
                (e["message"].as_str()).is_some_and(|m| m.contains("50 correspondence games")),
                "{e}"
            );
            break;
        }
        // b had not heard of all 50 yet: that room is one too many, given back at once.
        let left = on_b.request(json!({"t": "leave", "room": e["room"]})).await;
        assert_eq!(left["t"], "left", "{left}");
        assert!(
            began.elapsed() < SHOWN_WITHIN,
            "b let alice make a 51st correspondence room"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let e = on_b
        .request(json!({"t": "quick", "game": "hydra-2", "days_per_move": 3}))
        .await;
    assert_eq!(e["code"], "full", "{e}");
    let live = on_b
        .request(json!({"t": "create", "game": "hydra-2"}))
        .await;
    assert_eq!(live["t"], "joined", "{live}");
}

#[tokio::test]
async fn a_players_seats_on_one_node_count_on_every_node() {
    let (_pg, _nats, [a, b]) = start_cluster(NODE, ["a", "b"]);
    let mut greedy = a.player("greedy").await;
    let mut made = BTreeSet::new();
    for i in 0..orion_server::MAX_SEATS_PER_PLAYER {
        // Every other one private: seats count wherever they are, listed or not.
        let j = greedy
            .request(json!({"t": "create", "game": "hydra-2", "private": i % 2 == 1}))
            .await;
        assert_eq!(j["t"], "joined", "{j}");
        made.insert(j["room"].as_str().expect("room").to_string());
    }
    // Back on b with his token: `welcome` names all eight rooms of a.
    let began = Instant::now();
    let mut on_b = loop {
        let mut c = Client::connect(&b.url()).await;
        let welcome = c
            .request(json!({"t": "hello", "name": "greedy", "version": 1, "token": greedy.token}))
            .await;
        assert_eq!(welcome["t"], "welcome", "{welcome}");
        let rooms: BTreeSet<String> = (welcome["rooms"].as_array().into_iter().flatten())
            .filter_map(|r| r.as_str().map(str::to_owned))
            .collect();
        if rooms == made {
            break c;
        }
        assert!(
            began.elapsed() < SHOWN_WITHIN,
            "b's welcome names {rooms:?}, not a's {made:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    eprintln!(
        "seats taken on a were in b's welcome after {:?}",
        began.elapsed()
    );
    // The ninth seat is refused on b: a room made there, or one of b's joined from either node.
    let e = on_b
        .request(json!({"t": "create", "game": "hydra-2"}))
        .await;
    assert_eq!(e["code"], "full", "{e}");
    let mut host = b.player("host").await;
    let hosted = host
        .request(json!({"t": "create", "game": "hydra-2"}))
        .await;
    let hosted = hosted["room"].as_str().expect("room").to_string();
    let e = on_b.request(json!({"t": "join", "room": hosted})).await;
    assert_eq!(e["code"], "full", "{e}");
    assert!(
        e["message"].as_str().is_some_and(|m| m.contains("8 rooms")),
        "{e}"
    );
    let e = greedy.request(json!({"t": "join", "room": hosted})).await;
    assert_eq!(e["code"], "full", "{e}");
    // He gives one up on a: the seat on b is his (once b has heard).
    let gone = made.iter().next().expect("a room").clone();
    let left = greedy.request(json!({"t": "leave", "room": gone})).await;
    assert_eq!(left["t"], "left", "{left}");
    let began = Instant::now();
    loop {
        let j = on_b.request(json!({"t": "join", "room": hosted})).await;
        if j["t"] == "joined" {
            break;
        }
        assert_eq!(j["code"], "full", "{j}");
        assert!(began.elapsed() < SHOWN_WITHIN, "still refused: {j}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_quick_match_player_who_leaves_another_nodes_room_is_seen_away_there() {
    let (_pg, _nats, [a, b]) = start_cluster(NODE, ["a", "b"]);
    // One queues on a, two on b: b makes the group and runs the room.
    let mut one = a.player("one").await;
    let mut two = b.player("two").await;
    let quick = json!({"t": "quick", "game": "hydra-2"});
    assert_eq!(one.request(quick.clone()).await["t"], "queued");
    assert_eq!(two.request(quick).await["t"], "queued");
    let joined = one.expect_t("joined").await;
    assert_eq!(joined["seat"], "S", "{joined}");
    let room = joined["room"].as_str().expect("room").to_string();
    one.expect_event(&room, "start").await;
    two.expect_event(&room, "start").await;
    let connected = |snap: &Value| snap["seats"]["S"]["connected"].as_bool();
    let mut looker = a.player("looker").await;
    let snap = looker.request(json!({"t": "spectate", "room": room})).await;
    assert_eq!(connected(&snap), Some(true), "{snap}");
    // One's connection closes without his ever having sent the room a command.
    let token = one.token.clone();
    drop(one);
    let began = Instant::now();
    loop {
        let mut c = b.player("looker2").await;
        let snap = c.request(json!({"t": "spectate", "room": room})).await;
        if connected(&snap) == Some(false) {
            break;
        }
        assert_eq!(connected(&snap), Some(true), "{snap}");
        assert!(
            began.elapsed() < SHOWN_WITHIN,
            "b still shows S connected: {snap}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("b saw a's player away after {:?}", began.elapsed());
    // He comes back on b with his token and resumes: connected again.
    let mut back = b.reconnect("one", &token).await;
    let resumed = resume_until_taken(&mut back, &room, 0).await;
    assert_ne!(resumed["t"], "error", "{resumed}");
    let mut c = a.player("looker3").await;
    let snap = c.request(json!({"t": "spectate", "room": room})).await;
    assert_eq!(connected(&snap), Some(true), "{snap}");
}

/// A counter's value in a `/metrics` text.
fn counter(metrics: &str, name: &str) -> u64 {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {metrics}"))
}

#[tokio::test]
async fn a_rooms_events_reach_many_watchers_on_another_node_in_one_message_each() {
    let (_pg, _nats, [a, b]) = start_cluster(NODE, ["a", "b"]);
    let mut host = a.player("host").await;
    let made = host
        .request(json!({"t": "create", "game": "hydra-2"}))
        .await;
    let room = made["room"].as_str().expect("room").to_string();
    let mut watchers = Vec::new();
    for i in 0..20 {
        let mut w = b.player(&format!("w{i}")).await;
        let snap = w.request(json!({"t": "spectate", "room": room})).await;
        assert_eq!(snap["t"], "snapshot", "{snap}");
        watchers.push(w);
    }
    let before = orion_tests::http_get(a.addr, "/metrics").await;
    let lines = 5;
    for i in 0..lines {
        let text = format!("line {i}");
        host.send(json!({"t": "chat", "room": room, "text": text}))
            .await;
        host.expect(|m| m["ev"]["text"] == text.as_str()).await;
    }
    // Every watcher has every line, once, in order.
    for w in watchers.iter_mut() {
        let last = host.last_seq(&room);
        w.sync_to(&room, last).await;
        let said: Vec<&str> = (w.events.iter())
            .filter(|e| e["ev"]["kind"] == "chat")
            .filter_map(|e| e["ev"]["text"].as_str())
            .collect();
        assert_eq!(
            said,
            (0..lines).map(|i| format!("line {i}")).collect::<Vec<_>>()
        );
    }
    let after = orion_tests::http_get(a.addr, "/metrics").await;
    let frames = counter(&after, "orion_relayed_frames_total")
        - counter(&before, "orion_relayed_frames_total");
    let messages = counter(&after, "orion_relay_messages_total")
        - counter(&before, "orion_relay_messages_total");
    eprintln!("{frames} frames to b's watchers went in {messages} bus messages");
    assert!(frames >= 20 * lines, "{frames} frames relayed");
    // Once per frame for the node, not once per watcher (a few more if a batch was split).
    assert!(
        messages * 4 <= frames,
        "{messages} messages for {frames} frames"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_on_one_node_is_told_of_its_turn_in_a_room_another_node_runs() {
    let (_pg, _nats, [a, b]) = start_cluster(NODE, ["a", "b"]);
    let mut players = Vec::new();
    for name in ["alice", "bob"] {
        let mut c = a.player(name).await;
        c.claim("correct horse battery").await;
        players.push(c);
    }
    // A correspondence game run by node a.
    let room = orion_tests::start_room(&mut players, "hydra-2", json!({"days_per_move": 2})).await;
    let (s, n) = if players[0].seat == "S" {
        (0, 1)
    } else {
        (1, 0)
    };
    let north_name = if n == 0 { "alice" } else { "bob" };
    let north_seat = players[n].seat.clone();
    // North closes his page on a and opens the site on b, not the room.
    let token = players[n].token.clone();
    let mut south = players.remove(s);
    drop(players);
    let mut watcher = a.player("watcher").await;
    for _ in 0..500 {
        let snap = watcher
            .request(json!({"t": "spectate", "room": room, "quiet": true}))
            .await;
        watcher
            .request(json!({"t": "unspectate", "room": room}))
            .await;
        if snap["seats"][&north_seat]["connected"] == json!(false) {
            break;
        }
        tokio::task::yield_now().await;
    }
    let mut north = b.reconnect(north_name, &token).await;
    // South moves on a: the turn is North's, and b tells him.
    south.play(&room, "click", json!({"click": "A2L"})).await;
    let told = north.expect_t("notify").await;
    assert_eq!(
        (told["kind"].clone(), told["room"].clone()),
        (json!("your_turn"), json!(room)),
        "{told}"
    );
    assert!(
        told["text"].as_str().unwrap_or("").contains("Your turn"),
        "{told}"
    );
}
