//! Attacks by one client on everyone else (issue 14): replies too big to deliver, rooms taken
//! without bound, private rooms and hidden choices seen by those they are hidden from, clocks
//! that store events for nobody, groups dropped without a word, text that acts on a reader's
//! terminal, randomness nobody can check, and a database that only grows. Each is refused
//! with a clear error while honest clients carry on.

use orion_engine::{games, position_string, seed_commitment, Game, Options};
use orion_server::{Config, ManualClock};
use orion_tests::{remove_db, start_room, temp_db, Client, TestServer, PATIENCE, T0};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

/// Asks `c` for a snapshot of `room` as a spectator until `done` holds for it; panics after
/// a while (the server handles a disconnect asynchronously).
async fn until_snapshot(c: &mut Client, room: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let snap = c.request(json!({"t": "spectate", "room": room})).await;
        if done(&snap) {
            return snap;
        }
        assert!(tokio::time::Instant::now() < deadline, "never: {snap}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Sends `req` until its reply is an error with `code`; panics after a while.
async fn until_refused(c: &mut Client, req: Value, code: &str) -> Value {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let reply = c.request(req.clone()).await;
        if reply["t"] == "error" && reply["code"] == code {
            return reply;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{req}: still {reply}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn room_options_are_bounded() {
    let server = TestServer::start();
    let mut c = server.player("ann").await;
    // 7,000 faces fit in one 16 KiB frame; in every listing they would be 14 KB a room.
    let e = c
        .refused(json!({"t": "create", "game": "hydra-2", "options": {"die": vec![1; 7000]}}))
        .await;
    assert_eq!(e["code"], "bad_request", "{e}");
    assert!(e["message"].as_str().unwrap().contains("12 faces"), "{e}");
    let e = c
        .refused(json!({"t": "create", "game": "hydra-2", "options": {"turn_clock": 1}}))
        .await;
    assert_eq!(e["code"], "bad_request", "{e}");
    assert!(e["message"].as_str().unwrap().contains("1000"), "{e}");
    let ok = c
        .request(json!({"t": "create", "game": "hydra-2",
                        "options": {"die": vec![1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6], "turn_clock": 1000}}))
        .await;
    assert_eq!(ok["t"], "joined", "{ok}");
}

#[tokio::test]
async fn a_long_lobby_is_paged_and_every_watcher_stays_connected() {
    let server = TestServer::start();
    let mut watcher = server.player("watcher").await;
    let first = watcher.request(json!({"t": "lobby", "watch": true})).await;
    assert_eq!(first["total"], 0, "{first}");
    // 14 players open 8 rooms each (the most seats one may hold): 112 public rooms.
    let mut owners = Vec::new();
    for i in 0..14 {
        let mut p = server.player(&format!("owner{i}")).await;
        for _ in 0..8 {
            let j = p
                .request(json!({"t": "create", "game": "hydra-4", "options": {"players": 4}}))
                .await;
            assert_eq!(j["t"], "joined", "{j}");
        }
        owners.push(p);
    }
    let mut seen = BTreeSet::new();
    let mut after: Option<String> = None;
    let mut pages = 0;
    loop {
        let mut req = json!({"t": "lobby", "watch": true});
        if let Some(a) = &after {
            req["after"] = json!(a);
        }
        let page = watcher.request(req).await;
        assert_eq!(page["t"], "lobby", "{page}");
        assert_eq!(page["total"], 112);
        let rooms = page["rooms"].as_array().unwrap();
        assert!(!rooms.is_empty() && rooms.len() <= orion_server::LOBBY_PAGE_ROOMS);
        assert!(page.to_string().len() < 2 * orion_server::LOBBY_PAGE_BYTES);
        for r in rooms {
            assert!(
                seen.insert(r["room"].as_str().unwrap().to_string()),
                "twice: {r}"
            );
        }
        pages += 1;
        after = rooms
            .last()
            .map(|r| r["room"].as_str().unwrap().to_string());
        if page["more"] == false {
            break;
        }
    }
    assert_eq!(seen.len(), 112);
    assert!(pages >= 2);
    // The watcher was sent new first pages all along and is still connected.
    let pong = watcher.request(json!({"t": "ping"})).await;
    assert_eq!(pong["t"], "pong");
    let update = watcher
        .expect(|m| m["t"] == "lobby" && m.get("re").is_none() && m["total"] == 112)
        .await;
    assert_eq!(update["more"], true, "{update}");
}

#[tokio::test]
async fn history_is_paged_by_size_and_reaches_its_reader_whole() {
    let server = TestServer::start();
    let mut host = server.player("host").await;
    let j = host
        .request(json!({"t": "create", "game": "hydra-2"}))
        .await;
    let room = j["room"].as_str().unwrap().to_string();
    // Sixteen watchers post 19 long chat lines each (2 KB: within their rate limits, 20 lines
    // a minute a player): 600 KB of events, once a single `history` frame that cut its reader
    // off.
    let text: String = "\u{1FA90}".repeat(500);
    let mut watchers = Vec::new();
    for i in 0..16 {
        let mut w = server.player(&format!("w{i}")).await;
        w.request(json!({"t": "spectate", "room": room})).await;
        for _ in 0..19 {
            w.send(json!({"t": "chat", "room": room, "text": text}))
                .await;
        }
        watchers.push(w);
    }
    let last = 1 + 16 * 19;
    host.sync_to(&room, last).await;
    let mut reader = server.player("reader").await;
    let (mut since, mut chats, mut pages) = (0, 0, 0);
    loop {
        let page = reader
            .request(json!({"t": "history", "room": room, "since": since}))
            .await;
        assert_eq!(page["t"], "history", "{page}");
        assert!(
            page.to_string().len() <= 64 * 1024,
            "a page of {} bytes",
            page.to_string().len()
        );
        let events = page["events"].as_array().unwrap();
        assert!(!events.is_empty());
        for e in events {
            assert_eq!(e["seq"], since + 1, "no gap");
            since += 1;
            chats += usize::from(e["ev"]["kind"] == "chat");
        }
        pages += 1;
        if page["more"] == false {
            break;
        }
    }
    assert_eq!(since, last);
    assert_eq!(chats, 16 * 19);
    assert!(pages > 10, "{pages} pages");
}

#[tokio::test]
async fn one_connection_is_one_player_with_a_bounded_number_of_rooms() {
    let server = TestServer::start();
    let mut c = server.player("mallory").await;
    let e = c
        .refused(json!({"t": "hello", "name": "mallory2", "version": 1}))
        .await;
    assert_eq!(e["code"], "bad_request", "{e}");
    for _ in 0..orion_server::MAX_SEATS_PER_PLAYER {
        let j = c.request(json!({"t": "create", "game": "hydra-2"})).await;
        assert_eq!(j["t"], "joined", "{j}");
    }
    let e = c.refused(json!({"t": "create", "game": "hydra-2"})).await;
    assert_eq!(e["code"], "full", "{e}");
    // Someone else still can.
    let mut honest = server.player("honest").await;
    let j = honest
        .request(json!({"t": "create", "game": "hydra-2"}))
        .await;
    assert_eq!(j["t"], "joined", "{j}");
}

#[tokio::test]
async fn a_room_left_waiting_with_nobody_connected_closes_within_the_waiting_hold() {
    let server = TestServer::start();
    let mut a = server.player("ann").await;
    let j = a
        .request(json!({"t": "create", "game": "hydra-2", "options": {"seat_hold": 86_400_000}}))
        .await;
    let room = j["room"].as_str().unwrap().to_string();
    drop(a);
    let mut w = server.player("w").await;
    until_snapshot(&mut w, &room, |s| s["seats"]["S"]["connected"] == false).await;
    w.request(json!({"t": "leave", "room": room})).await;
    server.clock.advance(orion_server::WAITING_HOLD + 1);
    let mut b = server.player("bob").await;
    until_refused(&mut b, json!({"t": "join", "room": room}), "not_found").await;
    let lobby = b.request(json!({"t": "lobby"})).await;
    assert_eq!(lobby["total"], 0, "{lobby}");
}

#[tokio::test]
async fn a_private_room_is_reached_by_its_code_only() {
    let server = TestServer::start();
    let mut a = server.player("ann").await;
    let j = a
        .request(json!({"t": "create", "game": "hydra-2", "private": true}))
        .await;
    let room = j["room"].as_str().unwrap().to_string();
    let code = j["code"].as_str().unwrap().to_string();
    let mut eve = server.player("eve").await;
    for req in [
        json!({"t": "join", "room": room}),
        json!({"t": "join", "room": room, "code": "WRONG1"}),
        json!({"t": "history", "room": room}),
        json!({"t": "spectate", "room": room}),
    ] {
        let e = eve.refused(req.clone()).await;
        assert_eq!(e["code"], "not_found", "{req}: {e}");
        assert!(!e.to_string().contains(&code), "the code leaked: {e}");
    }
    let h = eve
        .request(json!({"t": "history", "room": room, "code": code}))
        .await;
    assert_eq!(h["t"], "history", "{h}");
    let mut bob = server.player("bob").await;
    let j = bob
        .request(json!({"t": "join", "room": room, "code": code.to_lowercase()}))
        .await;
    assert_eq!(j["t"], "joined", "{j}");
    // The seat holder comes back by id.
    let j = a.request(json!({"t": "join", "room": room})).await;
    assert_eq!(j["t"], "joined", "{j}");
}

#[tokio::test]
async fn algol_a_seat_left_mid_game_is_nobodys_and_its_secret_stays_hidden() {
    let server = TestServer::start();
    let mut players = vec![server.player("s").await, server.player("n").await];
    let room = start_room(&mut players, "algol", json!({})).await;
    let [s, n] = &mut players[..] else {
        unreachable!()
    };
    s.play(&room, "secret", json!({"piece": "R5"})).await;
    n.play(&room, "secret", json!({"piece": "B3"})).await;
    let left = s.request(json!({"t": "leave", "room": room})).await;
    assert_eq!(left["t"], "left", "{left}");
    // Leaving resigned the game: the seat is nobody's to take, and a newcomer watches.
    let mut carl = server.player("carl").await;
    let j = carl
        .request(json!({"t": "join", "room": room, "seat": "S"}))
        .await;
    assert_eq!(j["t"], "error", "{j}");
    let snap = carl.request(json!({"t": "spectate", "room": room})).await;
    assert!(snap.get("secret").is_none(), "carl sees ann's man: {snap}");
    // North still sees his own.
    let seq = n.last_seq(&room);
    n.request(json!({"t": "join", "room": room})).await;
    let snap = n
        .expect(|m| m["t"] == "snapshot" && m["seq"].as_u64() >= Some(seq))
        .await;
    assert_eq!(snap["secret"], "B3");
}

#[tokio::test]
async fn the_turn_clock_stands_still_while_every_seat_is_away() {
    let server = TestServer::start();
    let mut players = vec![server.player("s").await, server.player("n").await];
    let room = start_room(&mut players, "hydra-2", json!({"turn_clock": 1000})).await;
    let seq = players[0].last_seq(&room);
    let tokens: Vec<String> = players.iter().map(|p| p.token.clone()).collect();
    drop(players);
    let mut w = server.player("w").await;
    until_snapshot(&mut w, &room, |s| {
        s["seats"]["S"]["connected"] == false && s["seats"]["N"]["connected"] == false
    })
    .await;
    for _ in 0..20 {
        server.clock.advance(1000);
        tokio::task::yield_now().await;
    }
    let snap = w.request(json!({"t": "spectate", "room": room})).await;
    assert_eq!(snap["seq"], seq, "events were stored for nobody: {snap}");
    // South comes back: his clock runs again, and a turn ends when it runs out.
    let (mut s, _) = server.reconnect("s", &tokens[0]).await;
    s.request(json!({"t": "join", "room": room})).await;
    server.clock.advance(1000);
    let turn = w.expect_event(&room, "turn").await;
    assert!(turn["seq"].as_u64() > Some(seq));
}

#[tokio::test]
async fn a_quick_match_that_finds_no_room_tells_every_player_in_it() {
    let config = Config {
        max_rooms: 2,
        ..Config::default()
    };
    let server = TestServer::start_config(config, Arc::new(ManualClock::new(T0)), None);
    let mut a = server.player("a").await;
    assert_eq!(
        a.request(json!({"t": "create", "game": "hydra-2"})).await["t"],
        "joined"
    );
    // Half the rooms may wait: a second waiting room is refused.
    let mut f = server.player("f").await;
    let e = f.refused(json!({"t": "create", "game": "hydra-2"})).await;
    assert_eq!(e["code"], "full", "{e}");
    let mut b = server.player("b").await;
    let mut c = server.player("c").await;
    b.request(json!({"t": "quick", "game": "hydra-2"})).await;
    c.request(json!({"t": "quick", "game": "hydra-2"})).await;
    b.expect_t("joined").await;
    c.expect_t("joined").await;
    // The server is full now: both players of the next match hear it.
    let mut d = server.player("d").await;
    let mut e = server.player("e").await;
    let queued = d.request(json!({"t": "quick", "game": "hydra-2"})).await;
    assert_eq!(queued["t"], "queued");
    let last = e.request(json!({"t": "quick", "game": "hydra-2"})).await;
    let last = if last["t"] == "queued" {
        e.expect_t("error").await
    } else {
        last
    };
    assert_eq!(last["code"], "full", "{last}");
    let told = d.expect_t("error").await;
    assert_eq!(told["code"], "full", "{told}");
}

#[tokio::test]
async fn text_that_would_act_on_a_terminal_or_disguise_a_name_is_refused() {
    let server = TestServer::start();
    let mut c = Client::connect(&server.url()).await;
    for name in ["admin\u{202e}nimda", "a\u{200b}nn", "bell\u{7}"] {
        let e = c
            .refused(json!({"t": "hello", "name": name, "version": 1}))
            .await;
        assert_eq!(e["code"], "bad_request", "{name:?}: {e}");
    }
    let mut a = server.player("ann").await;
    let j = a.request(json!({"t": "create", "game": "hydra-2"})).await;
    let room = j["room"].as_str().unwrap().to_string();
    for text in [
        "\u{1b}[2J\u{1b}[Hpwned",
        "ding\u{7}",
        "nul\u{0}",
        "over\rwrite",
    ] {
        let e = a
            .refused(json!({"t": "chat", "room": room, "text": text}))
            .await;
        assert_eq!(e["code"], "bad_request", "{text:?}: {e}");
    }
    a.send(json!({"t": "chat", "room": room, "text": "hello, Zoë 🙂"}))
        .await;
    let chat = a.expect_event(&room, "chat").await;
    assert_eq!(chat["ev"]["text"], "hello, Zoë 🙂");
    // Resuming a room one was never in does not make one a spectator unasked.
    let mut b = server.player("bob").await;
    let e = b
        .refused(json!({"t": "resume", "room": room, "since": 0}))
        .await;
    assert_eq!(e["code"], "not_a_player", "{e}");
}

#[tokio::test]
async fn the_rooms_seed_is_committed_at_the_start_and_revealed_at_the_end() {
    let server = TestServer::start();
    let mut w = server.player("w").await;
    let mut players = vec![server.player("s").await, server.player("n").await];
    let room = start_room(&mut players, "taurus", json!({})).await;
    w.request(json!({"t": "spectate", "room": room})).await;
    let start = players[0]
        .events
        .iter()
        .find(|e| e["ev"]["kind"] == "start")
        .cloned()
        .unwrap();
    let commitment = start["ev"]["seed_commitment"].as_str().unwrap().to_string();
    assert_eq!(commitment.len(), 64);
    for p in players.iter_mut() {
        p.request(json!({"t": "leave", "room": room})).await;
    }
    let over = w.expect_event(&room, "over").await;
    let seed: u64 = over["ev"]["seed"].as_str().unwrap().parse().unwrap();
    let salt = hex::decode(over["ev"]["salt"].as_str().unwrap()).unwrap();
    assert_eq!(seed_commitment(seed, &salt), commitment);
    // Anyone can now re-derive the random start and who moved first.
    let rules = games::find("taurus").unwrap();
    let game = Game::new(rules, Options::default(), seed).unwrap();
    assert_eq!(
        json!(position_string(game.position())),
        start["ev"]["position"]
    );
    assert_eq!(json!(game.mover().to_string()), start["ev"]["turn"]["seat"]);
}

#[tokio::test]
async fn ended_games_and_unseen_guests_are_deleted_after_the_retention_period() {
    let db = temp_db("retain");
    let clock = Arc::new(ManualClock::new(T0));
    let day = 24 * 3_600_000;
    let config = Config {
        db: db.clone(),
        clock: clock.clone(),
        retain: Some(day),
        ..Config::default()
    };
    let server = TestServer::start_config(config, clock.clone(), None);
    let mut players = vec![server.player("s").await, server.player("n").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    players[0]
        .send(json!({"t": "chat", "room": room, "text": "gg"}))
        .await;
    players[0].expect_event(&room, "chat").await;
    for p in players.iter_mut() {
        p.request(json!({"t": "leave", "room": room})).await;
    }
    let token = players[0].token.clone();
    drop(players);
    let mut c = server.player("c").await;
    let h = c.request(json!({"t": "history", "room": room})).await;
    assert_eq!(h["status"], "finished", "{h}");
    // A day later it is all still there; two days later it is gone.
    clock.advance(day / 2);
    let h = c.request(json!({"t": "history", "room": room})).await;
    assert_eq!(h["t"], "history", "{h}");
    clock.advance(2 * day);
    until_refused(&mut c, json!({"t": "history", "room": room}), "not_found").await;
    let mut back = Client::connect(&server.url()).await;
    let e = back
        .refused(json!({"t": "hello", "name": "s", "version": 1, "token": token}))
        .await;
    assert_eq!(e["code"], "not_found", "{e}");
    server.shutdown();
    remove_db(&db);
}
