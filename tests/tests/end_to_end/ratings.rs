//! Rating farming, closed (issue 25, item 7), over the socket: a rated game nobody moved in
//! is aborted and rates nobody (left, or let the clock run out, rematch after rematch);
//! guests never sit in a rated room; a quitter loses whatever order the others leave in; two
//! accounts count [`PAIR_GAMES`] rated games a day together, then play unrated; and a
//! finished room stores a repeated rematch offer once.

use orion_tests::{play_moves, start_room, Client, TestServer, HYDRA_TWO, PATIENCE};
use serde_json::{json, Value};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;
use std::time::Duration;

/// Rated games of one game two accounts may play together in a day (the server's
/// `rating::PAIR_GAMES`, as the README states it).
const PAIR_GAMES: usize = 5;
const PASSWORD: &str = "correct horse battery";
const DAY: u64 = 24 * 3_600_000;

/// A player who says hello as `name` and claims it.
async fn claimed(server: &TestServer, name: &str) -> Client {
    let mut c = server.player(name).await;
    let w = c
        .request(json!({"t": "register", "password": PASSWORD}))
        .await;
    assert_eq!(w["account"], true, "{w}");
    c
}

/// The `start` event `c` has seen in `room`.
fn start_of(c: &Client, room: &str) -> Value {
    c.events
        .iter()
        .find(|e| e["room"] == room && e["ev"]["kind"] == "start")
        .cloned()
        .expect("a start event")
}

/// Spectates `room` from `w` until its snapshot satisfies `done`.
async fn until_snapshot(w: &mut Client, room: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let snap = w.request(json!({"t": "spectate", "room": room})).await;
        if done(&snap) {
            return snap;
        }
        assert!(tokio::time::Instant::now() < deadline, "never: {snap}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// `name`'s line on `game`'s board, if he is on it.
async fn board_line(c: &mut Client, game: &str, name: &str) -> Option<Value> {
    let board = c.request(json!({"t": "leaderboard", "game": game})).await;
    (board["entries"].as_array().expect("entries"))
        .iter()
        .find(|e| e["name"] == name)
        .cloned()
}

/// Both players of a finished room ask for the rematch; returns its room, each player's
/// `seat` set to his new one, once both have seen its `start`.
async fn rematch(players: &mut [Client], room: &str) -> String {
    for p in players.iter_mut() {
        p.send(json!({"t": "rematch", "room": room})).await;
    }
    let agreed = players[0]
        .expect(|m| m["t"] == "event" && m["room"] == room && m["ev"]["room"].is_string())
        .await;
    let new = agreed["ev"]["room"].as_str().expect("room").to_string();
    for p in players.iter_mut() {
        let joined = p.expect(|m| m["t"] == "joined" && m["room"] == new).await;
        p.seat = joined["seat"].as_str().expect("seat").to_string();
        p.expect_event(&new, "start").await;
    }
    new
}

/// South and North of `players`, by the seats they hold now.
fn south_north(players: &mut [Client]) -> (&mut Client, &mut Client) {
    let (a, b) = players.split_at_mut(1);
    if a[0].seat == "S" {
        (&mut a[0], &mut b[0])
    } else {
        (&mut b[0], &mut a[0])
    }
}

#[tokio::test]
async fn a_rated_game_nobody_moved_in_is_aborted_and_rates_nobody() {
    let server = TestServer::start();
    let mut players = vec![claimed(&server, "ann").await, claimed(&server, "bob").await];
    // Create, ready, leave, again and again: each game is aborted, seen by both.
    for _ in 0..3 {
        let room = start_room(&mut players, "hydra-2", json!({})).await;
        assert_eq!(start_of(&players[0], &room)["ev"]["rated"], true);
        let left = players[0]
            .request(json!({"t": "leave", "room": room}))
            .await;
        assert_eq!(left["t"], "left", "{left}");
        // The one still seated sees the game aborted at once.
        let over = players[1].expect_event(&room, "over").await;
        assert_eq!(over["ev"]["reason"], "aborted", "{over}");
        assert_eq!(over["ev"]["result"]["winner"], Value::Null, "{over}");
        assert!(over["ev"].get("ratings").is_none(), "unrated: {over}");
        players[1]
            .request(json!({"t": "leave", "room": room}))
            .await;
    }
    // A rematch loop on a one-second clock: nobody moves, each clock runs out, each game is
    // aborted rather than lost on time.
    let options = json!({"turn_clock": 1000, "time_bank": 1});
    let mut room = start_room(&mut players, "hydra-2", options).await;
    for i in 0..4 {
        if i > 0 {
            room = rematch(&mut players, &room).await;
        }
        server.clock.advance(1000);
        for p in players.iter_mut() {
            let over = p.expect_event(&room, "over").await;
            assert_eq!(over["ev"]["reason"], "aborted", "{over}");
            assert!(over["ev"].get("ratings").is_none(), "unrated: {over}");
        }
    }
    let board = players[0]
        .request(json!({"t": "leaderboard", "game": "hydra-2"}))
        .await;
    assert_eq!(board["total"], 0, "nobody was rated: {board}");
}

#[tokio::test]
async fn guests_never_sit_in_a_rated_room_and_are_never_rated() {
    let server = TestServer::start();
    let mut guest = server.player("guest").await;
    let e = guest
        .refused(json!({"t": "create", "game": "hydra-2", "options": {"rated": true}}))
        .await;
    assert_eq!(e["code"], "bad_request", "{e}");
    assert!(e["message"].as_str().unwrap().contains("rated"), "{e}");

    let mut ann = claimed(&server, "ann").await;
    let joined = ann
        .request(json!({"t": "create", "game": "hydra-2", "options": {"rated": true}}))
        .await;
    let room = joined["room"].as_str().expect("room").to_string();
    let e = guest.refused(json!({"t": "join", "room": room})).await;
    assert_eq!(e["code"], "bad_request", "{e}");
    assert!(e["message"].as_str().unwrap().contains("claimed"), "{e}");
    // The seat is still free for an account.
    let mut bob = claimed(&server, "bob").await;
    let j = bob.request(json!({"t": "join", "room": room})).await;
    assert_eq!(j["t"], "joined", "{j}");

    // A guest in a room that says nothing: unrated.
    let mut players = vec![claimed(&server, "cy").await, guest];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    assert_eq!(start_of(&players[0], &room)["ev"]["rated"], false);
}

#[tokio::test]
async fn a_quitter_who_goes_away_lets_the_other_leave_and_leaves_last_gains_nothing() {
    let server = TestServer::start();
    let mut players = vec![
        claimed(&server, "quitter").await,
        claimed(&server, "other").await,
    ];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let [mut q, mut o] = <[Client; 2]>::try_from(players).ok().unwrap();
    // Both move: the game counts.
    play_moves(&mut q, &mut o, &room, &HYDRA_TWO[..1], false).await;
    let (token, q_seat) = (q.token.clone(), q.seat.clone());
    drop(q);
    let mut w = server.player("watcher").await;
    until_snapshot(&mut w, &room, |s| s["seats"][&q_seat]["connected"] == false).await;
    // The other leaves while the quitter is away: both have quit, neither wins.
    o.request(json!({"t": "leave", "room": room})).await;
    let over = w.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["reason"], "left", "{over}");
    assert_eq!(over["ev"]["seat"], json!(o.seat), "{over}");
    assert_eq!(over["ev"]["result"]["winner"], Value::Null, "{over}");
    let q_delta = over["ev"]["ratings"][&q_seat]["delta"]
        .as_i64()
        .expect("rated");
    let o_delta = over["ev"]["ratings"][&o.seat]["delta"]
        .as_i64()
        .expect("rated");
    assert!(
        q_delta <= 0 && q_delta <= o_delta,
        "the quitter gained: {over}"
    );
    // He comes back and leaves last: the game is over, nothing changes.
    let (mut q, _) = server.reconnect("quitter", &token).await;
    let left = q.request(json!({"t": "leave", "room": room})).await;
    assert_eq!(left["t"], "left", "{left}");
    let line = board_line(&mut q, "hydra-2", "quitter")
        .await
        .expect("rated");
    assert!(line["rating"].as_i64() <= Some(1500), "{line}");
}

#[tokio::test]
async fn a_player_away_past_his_seat_hold_loses_to_the_one_who_stayed() {
    let server = TestServer::start();
    let mut players = vec![
        claimed(&server, "gone").await,
        claimed(&server, "stayed").await,
    ];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let [mut g, mut s] = <[Client; 2]>::try_from(players).ok().unwrap();
    play_moves(&mut g, &mut s, &room, &HYDRA_TWO[..1], false).await;
    let g_seat = g.seat.clone();
    drop(g);
    let mut w = server.player("watcher").await;
    until_snapshot(&mut w, &room, |snap| {
        snap["seats"][&g_seat]["connected"] == false
    })
    .await;
    server.clock.advance(orion_server::DEFAULT_SEAT_HOLD + 1);
    let over = s.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["reason"], "away", "{over}");
    assert_eq!(over["ev"]["seat"], json!(g_seat), "{over}");
    assert_eq!(over["ev"]["result"]["winner"], json!(s.seat), "{over}");
    assert!(
        over["ev"]["ratings"][&s.seat]["delta"].as_i64() > Some(0),
        "{over}"
    );
    assert!(
        over["ev"]["ratings"][&g_seat]["delta"].as_i64() < Some(0),
        "{over}"
    );
}

#[tokio::test]
async fn a_player_who_leaves_a_four_player_game_ends_it_and_alone_ranks_last() {
    let server = TestServer::start();
    let mut players = Vec::new();
    for name in ["s", "w", "n", "e"] {
        players.push(claimed(&server, name).await);
    }
    let room = start_room(&mut players, "hydra-4", json!({})).await;
    // Each passes once, in turn: every player has moved.
    for _ in 0..4 {
        let last = players[0].last_seq(&room);
        let mover = players[0].mover_known(&room, last).expect("a mover");
        let p = players
            .iter_mut()
            .find(|p| p.seat == mover)
            .expect("seated");
        p.play(&room, "end_turn", json!({})).await;
        let seq = p.last_seq(&room);
        players[0].sync_to(&room, seq).await;
    }
    // W leaves: he resigns, the game ends (docs/rules.md: three sides are left, none wins),
    // he ranks last and the three who stayed tie.
    let p = players.iter_mut().find(|p| p.seat == "W").expect("seated");
    let left = p.request(json!({"t": "leave", "room": room})).await;
    assert_eq!(left["t"], "left", "{left}");
    let n = players.iter_mut().find(|p| p.seat == "N").expect("seated");
    let over = n.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["reason"], "left", "{over}");
    assert_eq!(over["ev"]["seat"], "W", "{over}");
    assert_eq!(over["ev"]["result"]["winner"], Value::Null, "{over}");
    let new = WengLinRating::new();
    let team = [new];
    let ranked = [
        (&team[..], MultiTeamOutcome::new(1)), // S
        (&team[..], MultiTeamOutcome::new(2)), // W
        (&team[..], MultiTeamOutcome::new(1)), // N
        (&team[..], MultiTeamOutcome::new(1)), // E
    ];
    let rated = weng_lin_multi_team(&ranked, &WengLinConfig::new());
    for (seat, r) in ["S", "W", "N", "E"].iter().zip(&rated) {
        let shown = (r[0].rating * 60.0).round() as i64;
        assert_eq!(
            over["ev"]["ratings"][seat]["rating"],
            json!(shown),
            "{over}"
        );
    }
    let delta = |seat: &str| over["ev"]["ratings"][seat]["delta"].clone();
    assert_eq!(delta("S"), delta("E"), "{over}");
    assert_eq!(delta("S"), delta("N"), "{over}");
    assert!(delta("W").as_i64() < Some(0), "{over}");
    // The others leaving after the end changes nothing.
    for seat in ["E", "S"] {
        let p = players.iter_mut().find(|p| p.seat == seat).expect("seated");
        let left = p.request(json!({"t": "leave", "room": room})).await;
        assert_eq!(left["t"], "left", "{left}");
    }
}

#[tokio::test]
async fn two_accounts_count_five_rated_games_a_day_together_then_play_unrated() {
    let server = TestServer::start();
    let mut players = vec![claimed(&server, "ann").await, claimed(&server, "bob").await];
    // A rematch loop on a one-second clock, each game played (both move) and lost on time.
    let options = json!({"turn_clock": 1000, "time_bank": 1});
    let mut room = start_room(&mut players, "hydra-2", options).await;
    let mut rated = Vec::new();
    for i in 0..PAIR_GAMES + 2 {
        if i > 0 {
            room = rematch(&mut players, &room).await;
        }
        rated.push(start_of(&players[0], &room)["ev"]["rated"].clone());
        let (s, n) = south_north(&mut players);
        play_moves(s, n, &room, &HYDRA_TWO[..1], false).await;
        server.clock.advance(1000);
        tokio::task::yield_now().await;
        server.clock.advance(1);
        let over = players[0].expect_event(&room, "over").await;
        assert_eq!(over["ev"]["reason"], "time", "{over}");
        assert_eq!(
            over["ev"].get("ratings").is_some(),
            i != PAIR_GAMES,
            "game {i}: {over}"
        );
        if i == PAIR_GAMES {
            server.clock.advance(DAY);
        }
    }
    let mut expected = vec![json!(true); PAIR_GAMES];
    expected.push(json!(false));
    expected.push(json!(true));
    assert_eq!(rated, expected, "told at the start");
    let line = board_line(&mut players[0], "hydra-2", "ann")
        .await
        .expect("rated");
    assert_eq!(line["games"], json!(PAIR_GAMES + 1), "{line}");
}

#[tokio::test]
async fn repeated_rematch_offers_store_one_event() {
    let server = TestServer::start();
    let mut players = vec![server.player("ann").await, server.player("bob").await];
    let options = json!({"turn_clock": 1000, "time_bank": 1});
    let room = start_room(&mut players, "hydra-2", options).await;
    server.clock.advance(1000);
    tokio::task::yield_now().await;
    server.clock.advance(1);
    players[0].expect_event(&room, "over").await;
    let before = players[0]
        .request(json!({"t": "history", "room": room}))
        .await;
    let stored = before["events"].as_array().expect("events").len();
    // 333 offers from bob's nine connections (each within its request burst).
    let token = players[1].token.clone();
    for _ in 0..9 {
        let (mut c, _) = server.reconnect("bob", &token).await;
        for _ in 0..37 {
            c.send(json!({"t": "rematch", "room": room})).await;
        }
        // Through the room after the offers: once answered, they were all handled.
        let e = c.refused(json!({"t": "ready", "room": room})).await;
        assert_eq!(e["code"], "illegal", "{e}");
    }
    let after = players[0]
        .request(json!({"t": "history", "room": room}))
        .await;
    let events = after["events"].as_array().expect("events");
    let rematches: Vec<&Value> = events
        .iter()
        .filter(|e| e["ev"]["kind"] == "rematch")
        .collect();
    assert_eq!(rematches.len(), 1, "{rematches:?}");
    assert_eq!(events.len(), stored + 1);
    // Ann accepts: the rematch starts as ever.
    players[0].send(json!({"t": "rematch", "room": room})).await;
    let agreed = players[0]
        .expect(|m| m["t"] == "event" && m["room"] == room && m["ev"]["room"].is_string())
        .await;
    assert_eq!(agreed["ev"]["agreed"].as_array().map(Vec::len), Some(2));
}
