//! Accounts, ratings and leaderboards end to end: claiming a name, logging in from another
//! device, refusals of bad names and passwords, rated games (a time loss between two, a team
//! win) checked against the rating crate called directly, and the boards. (What keeps
//! ratings from being farmed is `ratings.rs`.)

use orion_tests::{play_moves, start_room, Client, TestServer, HYDRA_TWO};
use serde_json::{json, Value};
use skillratings::weng_lin::{weng_lin, weng_lin_two_teams, WengLinConfig, WengLinRating};
use skillratings::Outcomes;

const PASSWORD: &str = "correct horse battery";

/// A player who says hello as `name` and claims it.
async fn claimed(server: &TestServer, name: &str) -> Client {
    let mut c = server.player(name).await;
    let w = c
        .request(json!({"t": "register", "password": PASSWORD}))
        .await;
    assert_eq!(w["t"], "welcome", "{w}");
    assert_eq!(w["account"], true, "{w}");
    assert_eq!(w["token"], json!(c.token), "claiming keeps the token");
    c
}

/// The `start` event `c` has seen in `room` (`start_room` waited for it).
fn start_of(c: &Client, room: &str) -> Value {
    c.events
        .iter()
        .find(|e| e["room"] == room && e["ev"]["kind"] == "start")
        .cloned()
        .expect("a start event")
}

/// The shown rating of a Weng-Lin rating (60 × μ, rounded).
fn shown(r: &WengLinRating) -> i64 {
    (r.rating * 60.0).round() as i64
}

/// Checks `over`'s entry for `seat` against the crate's rating `new` (from a newcomer).
fn check(over: &Value, seat: &str, new: &WengLinRating, games: u64) {
    let got = &over["ev"]["ratings"][seat];
    assert_eq!(got["rating"], json!(shown(new)), "{seat}: {over}");
    assert_eq!(got["delta"], json!(shown(new) - 1500), "{seat}: {over}");
    assert_eq!(got["games"], json!(games), "{seat}: {over}");
}

#[tokio::test]
async fn two_claimed_players_finish_a_rated_game_and_see_it_in_over_the_seats_and_the_board() {
    let server = TestServer::start();
    let mut players = vec![
        claimed(&server, "Alice").await,
        claimed(&server, "Bob").await,
    ];
    // A turn clock with a 1 ms bank: the mover's time runs out, and he loses.
    let options = json!({"turn_clock": 1000, "time_bank": 1});
    let room = start_room(&mut players, "hydra-2", options).await;
    let start = start_of(&players[0], &room);
    assert_eq!(start["ev"]["rated"], true, "{start}");
    let mut watcher = server.player("watcher").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["seats"]["S"]["rating"], 1500, "{snap}");
    assert_eq!(snap["seats"]["N"]["rating"], 1500, "{snap}");
    assert_eq!(snap["options"]["rated"], Value::Null);
    let lobby = watcher.request(json!({"t": "lobby"})).await;
    assert_eq!(lobby["rooms"][0]["ratings"], json!({"S": 1500, "N": 1500}));

    // Both move (a rated game counts once everyone has), then South's time runs out.
    {
        let (s, n) = players.split_at_mut(1);
        play_moves(&mut s[0], &mut n[0], &room, &HYDRA_TWO[..1], false).await;
    }
    server.clock.advance(1000);
    tokio::task::yield_now().await;
    server.clock.advance(1);
    let over = players[0].expect_event(&room, "over").await;
    assert_eq!(over["ev"]["reason"], "time", "{over}");
    let loser = over["ev"]["seat"]
        .as_str()
        .expect("who ran out")
        .to_string();
    let winner = if loser == "S" { "N" } else { "S" };
    assert_eq!(over["ev"]["result"]["winner"], winner);
    let (won, lost) = weng_lin(
        &WengLinRating::new(),
        &WengLinRating::new(),
        &Outcomes::WIN,
        &WengLinConfig::new(),
    );
    check(&over, winner, &won, 1);
    check(&over, &loser, &lost, 1);
    let seen_by_other = players[1].expect_event(&room, "over").await;
    assert_eq!(seen_by_other["ev"]["ratings"], over["ev"]["ratings"]);

    // The board: the winner first, both with their new ratings; the asker's own line.
    let winner_name = if players[0].seat == winner {
        "Alice"
    } else {
        "Bob"
    };
    let board = players[0]
        .request(json!({"t": "leaderboard", "game": "hydra-2"}))
        .await;
    assert_eq!(board["t"], "leaderboard", "{board}");
    assert_eq!(
        (board["total"].clone(), board["more"].clone()),
        (json!(2), json!(false))
    );
    let top = &board["entries"][0];
    assert_eq!(
        (top["rank"].clone(), top["name"].clone()),
        (json!(1), json!(winner_name))
    );
    assert_eq!(top["rating"], json!(shown(&won)));
    assert_eq!(top["games"], 1);
    assert_eq!(board["entries"][1]["rating"], json!(shown(&lost)));
    assert_eq!(board["you"]["name"], "Alice", "{board}");
    // Paged: after the first place comes the second, and no more.
    let page = players[1]
        .request(json!({"t": "leaderboard", "game": "hydra-2", "after": 1}))
        .await;
    assert_eq!(page["entries"].as_array().map(Vec::len), Some(1), "{page}");
    assert_eq!(page["entries"][0]["rank"], 2);
    assert_eq!(page["more"], false);
    // Nobody has played Libra: an empty board; the watcher (a guest) has no place.
    let empty = watcher
        .request(json!({"t": "leaderboard", "game": "libra"}))
        .await;
    assert_eq!((empty["total"].clone(), empty.get("you")), (json!(0), None));

    // A new room shows the new rating in its seat.
    let alice_new = if players[0].seat == winner {
        shown(&won)
    } else {
        shown(&lost)
    };
    let joined = players[0]
        .request(json!({"t": "create", "game": "hydra-2"}))
        .await;
    let new_room = joined["room"].clone();
    let snap = players[0]
        .expect(|m| m["t"] == "snapshot" && m["room"] == new_room)
        .await;
    let seat = joined["seat"].as_str().unwrap();
    assert_eq!(snap["seats"][seat]["rating"], json!(alice_new), "{snap}");

    // Another device: log in by name, in another case, and become the same player.
    let mut phone = Client::connect(&server.url()).await;
    let w = phone
        .request(json!({"t": "login", "name": "ALICE", "password": PASSWORD, "version": 1}))
        .await;
    assert_eq!(w["t"], "welcome", "{w}");
    assert_ne!(
        w["token"],
        json!(players[0].token),
        "a device of its own: a new token"
    );
    assert_eq!(w["name"], "Alice");
    assert_eq!(w["account"], true);
    assert_eq!(w["rooms"].as_array().map(Vec::len), Some(1), "{w}");
}

#[tokio::test]
async fn a_team_win_rates_partners_together_as_the_crate_says() {
    let server = TestServer::start();
    let mut players = Vec::new();
    for name in ["s", "w", "n", "e"] {
        players.push(claimed(&server, name).await);
    }
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
    for p in players.iter_mut() {
        p.send(json!({"t": "ready", "room": room})).await;
    }
    players[0].expect_event(&room, "start").await;
    // S's moves (the others pass); the last makes the red team's (S+N) chain.
    let moves = [
        "A1L, B1R, B2R",
        "B5L, A5R (2)",
        "A4R (2), A3R",
        "C5L, B5R, B4L",
        "A5R (2)",
    ];
    for (i, m) in moves.iter().enumerate() {
        players[0].clicks(&room, m, false).await;
        if i + 1 < moves.len() {
            for p in players[1..].iter_mut() {
                p.play(&room, "end_turn", json!({})).await;
            }
        }
    }
    let over = players[2].expect_event(&room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], "S+N");
    let pair = [WengLinRating::new(), WengLinRating::new()];
    let (red, green) = weng_lin_two_teams(&pair, &pair, &Outcomes::WIN, &WengLinConfig::new());
    check(&over, "S", &red[0], 1);
    check(&over, "N", &red[1], 1);
    check(&over, "W", &green[0], 1);
    check(&over, "E", &green[1], 1);
}

#[tokio::test]
async fn a_guest_seat_leaves_a_game_unrated() {
    let server = TestServer::start();
    let mut players = vec![claimed(&server, "ann").await, server.player("guest").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let start = start_of(&players[0], &room);
    assert_eq!(start["ev"]["rated"], false, "{start}");
    players[1]
        .request(json!({"t": "leave", "room": room}))
        .await;
    players[0]
        .request(json!({"t": "leave", "room": room}))
        .await;
    let board = players[0]
        .request(json!({"t": "leaderboard", "game": "hydra-2"}))
        .await;
    assert_eq!(
        board["total"], 0,
        "an unrated game changes no board: {board}"
    );
}

#[tokio::test]
async fn bad_names_passwords_and_logins_get_clear_errors() {
    let server = TestServer::start();
    // A guest who said hello as "ALICE" before alice claimed her name.
    let mut early = server.player("ALICE").await;
    let mut alice = server.player("alice").await;
    let e = alice
        .refused(json!({"t": "register", "password": "short"}))
        .await;
    assert_eq!(e["code"], "bad_request");
    assert!(e["message"].as_str().unwrap().contains("8 to 128"), "{e}");
    let e = alice
        .refused(json!({"t": "register", "password": "x".repeat(129)}))
        .await;
    assert_eq!(e["code"], "bad_request");
    let e = alice
        .refused(json!({"t": "register", "password": "tab\there\u{7}bell"}))
        .await;
    assert!(e["message"].as_str().unwrap().contains("control"), "{e}");
    let w = alice
        .request(json!({"t": "register", "password": PASSWORD}))
        .await;
    assert_eq!(w["account"], true, "{w}");
    let alice_player = w["player"].clone();
    let e = alice
        .refused(json!({"t": "register", "password": PASSWORD}))
        .await;
    assert!(e["message"].as_str().unwrap().contains("already"), "{e}");
    // The look-alike cannot claim it, nor can anyone say hello as it in any case or width.
    let e = early
        .refused(json!({"t": "register", "password": PASSWORD}))
        .await;
    assert!(e["message"].as_str().unwrap().contains("claimed"), "{e}");
    for name in ["Alice", "ALICE", "ａｌｉｃｅ", " alice "] {
        let mut c = Client::connect(&server.url()).await;
        let e = c
            .refused(json!({"t": "hello", "name": name, "version": 1}))
            .await;
        assert_eq!(e["code"], "bad_request", "{name}");
        assert!(
            e["message"].as_str().unwrap().contains("claimed"),
            "{name}: {e}"
        );
    }
    // Names that were never good still are not.
    let mut c = Client::connect(&server.url()).await;
    let e = c
        .refused(json!({"t": "login", "name": "a\u{1b}[2Jb", "password": PASSWORD}))
        .await;
    assert_eq!(e["code"], "bad_request", "{e}");
    let e = c
        .refused(json!({"t": "login", "name": "n".repeat(33), "password": PASSWORD}))
        .await;
    assert_eq!(e["code"], "bad_request", "{e}");
    // Wrong passwords: the same answer as an unknown name, and five at most a connection.
    for (name, password) in [
        ("alice", "wrong password"),
        ("nobody", PASSWORD),
        ("alice", "x"),
        ("alice", "Correct horse battery"),
        ("alice", "correct horse battery "),
    ] {
        let e = c
            .refused(json!({"t": "login", "name": name, "password": password}))
            .await;
        assert_eq!(e["code"], "not_found", "{e}");
        assert_eq!(e["message"], "no account with that name and password");
    }
    let e = c
        .refused(json!({"t": "login", "name": "alice", "password": PASSWORD}))
        .await;
    assert_eq!(e["code"], "rate_limited", "{e}");
    // A fresh connection may try again, and gets in.
    let mut d = Client::connect(&server.url()).await;
    let w = d
        .request(json!({"t": "login", "name": "alice", "password": PASSWORD}))
        .await;
    assert_eq!(w["player"], alice_player, "{w}");
    // A guest holding a seat may not turn into an account on that connection.
    let mut guest = server.player("guest").await;
    guest.request(json!({"t": "create", "game": "libra"})).await;
    let e = guest
        .refused(json!({"t": "login", "name": "alice", "password": PASSWORD}))
        .await;
    assert!(e["message"].as_str().unwrap().contains("leave"), "{e}");
    // Puzzles are not rated.
    let e = guest
        .refused(json!({"t": "create", "game": "aquila", "options": {"rated": true}}))
        .await;
    assert!(e["message"].as_str().unwrap().contains("not rated"), "{e}");
}

#[tokio::test]
async fn a_solved_puzzle_goes_on_its_board_beside_the_booklets_target_and_the_optimum() {
    let server = TestServer::start();
    let mut eagle = claimed(&server, "eagle").await;
    let joined = eagle
        .request(json!({"t": "create", "game": "aquila"}))
        .await;
    let room = joined["room"].as_str().expect("room").to_string();
    eagle.expect_event(&room, "start").await;
    eagle.seat = "S".into();
    // The booklet's line with its misprint mended: 24 clicks, the optimum.
    let line = orion_tests::expand(
        "E1R, D1R, C1R, D1R, C1R, C2R, C1R, C2R, C3R, B1L, B2L, C2R, B3L, C3R, B4L, B3L, \
         C4R, B4L, C5R, B5L, B4L, B5L, A5L, C5R",
    );
    for click in &line {
        eagle.play(&room, "click", json!({"click": click})).await;
    }
    let over = eagle.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["result"]["scores"]["S"], 24, "{over}");
    assert!(over["ev"].get("ratings").is_none(), "puzzles are not rated");
    let board = eagle
        .request(json!({"t": "leaderboard", "game": "aquila"}))
        .await;
    assert_eq!(
        (board["target"].clone(), board["optimum"].clone()),
        (json!(24), json!(24))
    );
    let first = &board["entries"][0];
    assert_eq!(
        (first["name"].clone(), first["clicks"].clone()),
        (json!("eagle"), json!(24))
    );
    assert_eq!(
        first["at"],
        json!(orion_tests::T0),
        "the date first reached"
    );
    assert_eq!(board["you"]["rank"], 1);
    // The Whirlpool has no booklet count; Orbit Solitaire deals its start (no one optimum);
    // Aquarius counts hits and has no board.
    let whirlpool = eagle
        .request(json!({"t": "leaderboard", "game": "whirlpool"}))
        .await;
    assert_eq!(
        (whirlpool["target"].clone(), whirlpool["optimum"].clone()),
        (Value::Null, json!(14))
    );
    let orbit = eagle
        .request(json!({"t": "leaderboard", "game": "orbit-b"}))
        .await;
    assert_eq!(
        (orbit["target"].clone(), orbit["optimum"].clone()),
        (json!(25), Value::Null)
    );
    let e = eagle
        .refused(json!({"t": "leaderboard", "game": "aquarius"}))
        .await;
    assert!(e["message"].as_str().unwrap().contains("hits"), "{e}");
    let e = eagle
        .refused(json!({"t": "leaderboard", "game": "chess"}))
        .await;
    assert_eq!(e["code"], "not_found");
}

/// Issue 19's whole story, over the socket: two claimed players finish a rated game; both see
/// their new ratings in `over` and on the board; either lists it among his games, exports its
/// record, replays it to the same result; and a rematch starts when both accept.
#[tokio::test]
async fn two_claimed_players_rate_list_export_replay_and_rematch_a_game() {
    let server = TestServer::start();
    let mut s = claimed(&server, "ann").await;
    let mut n = claimed(&server, "ben").await;
    let joined = s.request(json!({"t": "create", "game": "hydra-2"})).await;
    let room = joined["room"].as_str().expect("room").to_string();
    s.seat = "S".into();
    n.request(json!({"t": "join", "room": room})).await;
    n.seat = "N".into();
    for c in [&mut s, &mut n] {
        c.send(json!({"t": "ready", "room": room})).await;
    }
    let start = n.expect_event(&room, "start").await;
    assert_eq!(start["ev"]["rated"], true, "two accounts: rated");
    play_moves(&mut s, &mut n, &room, HYDRA_TWO, true).await;

    // Both see the new ratings in the result: the winner up, the loser down, one game each.
    let mut ratings = Vec::new();
    for c in [&mut s, &mut n] {
        let over = c.expect_event(&room, "over").await;
        assert_eq!(over["ev"]["result"]["winner"], "S");
        ratings.push(over["ev"]["ratings"].clone());
    }
    assert_eq!(ratings[0], ratings[1], "both are told the same");
    let r = &ratings[0];
    assert!(r["S"]["delta"].as_i64() > Some(0), "{r}");
    assert!(r["N"]["delta"].as_i64() < Some(0), "{r}");
    assert_eq!(
        (r["S"]["games"].clone(), r["N"]["games"].clone()),
        (json!(1), json!(1))
    );

    // The board shows them in that order with those ratings; each finds his own line.
    for (c, me) in [(&mut s, "ann"), (&mut n, "ben")] {
        let board = c
            .request(json!({"t": "leaderboard", "game": "hydra-2"}))
            .await;
        let names: Vec<&str> = board["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .map(|e| e["name"].as_str().unwrap_or_default())
            .collect();
        assert_eq!(names, ["ann", "ben"], "{board}");
        assert_eq!(board["entries"][0]["rating"], r["S"]["rating"]);
        assert_eq!(board["entries"][1]["rating"], r["N"]["rating"]);
        assert_eq!(board["you"]["name"], me, "{board}");
    }

    // Either lists it among his games, exports it, and the record replays to South's win.
    let games = n.request(json!({"t": "games", "player": "ben"})).await;
    assert_eq!(games["games"][0]["room"], room.as_str(), "{games}");
    let export = n.request(json!({"t": "export", "room": room})).await;
    let record = export["text"].as_str().expect("the record's text");
    let replayed = orion_cli::replay::replay(record).expect("the record replays");
    assert_eq!(
        replayed.result.winner.map(|w| w.to_string()).as_deref(),
        Some("S")
    );

    // A rematch: offered by the loser, accepted by the winner; both are seated in a new room,
    // one seat on, and it starts at once.
    n.send(json!({"t": "rematch", "room": room})).await;
    s.expect_event(&room, "rematch").await;
    s.send(json!({"t": "rematch", "room": room})).await;
    let js = s
        .expect(|m| m["t"] == "joined" && m["room"] != room.as_str())
        .await;
    let new_room = js["room"].as_str().expect("new room").to_string();
    let jn = n
        .expect(|m| m["t"] == "joined" && m["room"] == new_room.as_str())
        .await;
    assert_eq!(
        (js["seat"].clone(), jn["seat"].clone()),
        (json!("N"), json!("S"))
    );
    let again = s.expect_event(&new_room, "start").await;
    assert_eq!(again["ev"]["rated"], true, "the rematch is rated too");
}

/// A counter's value on the server's `/metrics`.
async fn metric(server: &TestServer, name: &str) -> u64 {
    let text = orion_tests::http_get(server.addr, "/metrics").await;
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
        .unwrap_or_else(|| panic!("{name} not in /metrics: {text}"))
}

/// Issue 25, item 5: one address reconnecting made 7,400–8,000 guesses a minute at one
/// account, 5 per connection. Now 60 wrong passwords from 12 fresh connections get 5 checks;
/// the other 55 are refused with the wait, before any hash; the owner's token still says
/// hello; his right password is let in once the wait is over.
#[tokio::test]
async fn sixty_wrong_passwords_from_twelve_fresh_connections_are_mostly_refused_unchecked() {
    let server = TestServer::start();
    let alice = claimed(&server, "alice").await;
    let before = metric(&server, "orion_password_checks_total").await;
    let (mut wrong, mut throttled, mut waits) = (0, 0, Vec::new());
    for c in 0..12 {
        let mut guesser = Client::connect(&server.url()).await;
        for g in 0..5 {
            let guess = format!("guess number {c}-{g}");
            let e = guesser
                .refused(json!({"t": "login", "name": "alice", "password": guess, "version": 1}))
                .await;
            match e["code"].as_str() {
                Some("not_found") => wrong += 1,
                Some("rate_limited") => {
                    throttled += 1;
                    waits.push(e["retry_ms"].as_u64().expect("a wait in ms"));
                }
                _ => panic!("{e}"),
            }
        }
    }
    assert_eq!(
        (wrong, throttled),
        (5, 55),
        "five checked, the rest refused"
    );
    let checks = metric(&server, "orion_password_checks_total").await - before;
    assert_eq!(checks, 5, "a refused try runs no Argon2");
    assert_eq!(metric(&server, "orion_logins_throttled_total").await, 55);
    assert!(waits.iter().all(|&w| w == 1_000), "{waits:?}");

    // The owner, with his token, is not locked out.
    let (_, w) = server.reconnect("alice", &alice.token).await;
    assert_eq!(
        (w["t"].as_str(), w["account"].as_bool()),
        (Some("welcome"), Some(true)),
        "{w}"
    );
    // His password waits like anyone's, then gets in.
    let mut phone = Client::connect(&server.url()).await;
    let login = json!({"t": "login", "name": "alice", "password": PASSWORD, "version": 1});
    let e = phone.refused(login.clone()).await;
    assert_eq!(e["code"], "rate_limited", "{e}");
    server.clock.advance(e["retry_ms"].as_u64().unwrap());
    let w = phone.request(login).await;
    assert_eq!(w["t"], "welcome", "{w}");
}

/// One address guessing at many names is throttled as well: 20 failures, then a wait.
#[tokio::test]
async fn one_address_guessing_at_many_names_waits_after_twenty() {
    let server = TestServer::start();
    let mut refused = Vec::new();
    for i in 0..25 {
        let mut c = Client::connect(&server.url()).await;
        let name = format!("name{i}");
        let e = c
            .refused(json!({"t": "login", "name": name, "password": PASSWORD, "version": 1}))
            .await;
        refused.push(e["code"].as_str().unwrap_or_default().to_string());
    }
    let first_wait = refused.iter().position(|c| c == "rate_limited");
    assert_eq!(first_wait, Some(20), "{refused:?}");
    assert!(refused[20..].iter().all(|c| c == "rate_limited"));
}

/// An unknown name is checked against a dummy hash: it costs one Argon2 check, as a wrong
/// password for a real name does, and gets the same answer.
#[tokio::test]
async fn an_unknown_name_costs_the_same_check_as_a_wrong_password() {
    let server = TestServer::start();
    claimed(&server, "alice").await;
    let mut answers = Vec::new();
    for name in ["alice", "nobody"] {
        let before = metric(&server, "orion_password_checks_total").await;
        let mut c = Client::connect(&server.url()).await;
        let e = c
            .refused(
                json!({"t": "login", "name": name, "password": "wrong password", "version": 1}),
            )
            .await;
        let checks = metric(&server, "orion_password_checks_total").await - before;
        answers.push((e["code"].clone(), e["message"].clone(), checks));
    }
    assert_eq!(answers[0], answers[1]);
    assert_eq!(answers[0].2, 1, "one Argon2 check each: {answers:?}");
}

/// Every file of a SQLite store (the database, its WAL, the commit log), as bytes.
fn store_bytes(db: &str) -> Vec<u8> {
    let path = std::path::Path::new(db);
    let dir = path.parent().expect("a directory");
    let stem = path
        .file_name()
        .expect("a file")
        .to_string_lossy()
        .to_string();
    let mut all = Vec::new();
    for entry in std::fs::read_dir(dir)
        .expect("the store's directory")
        .flatten()
    {
        if entry.file_name().to_string_lossy().starts_with(&stem) {
            all.extend(std::fs::read(entry.path()).unwrap_or_default());
        }
    }
    all
}

fn holds(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

/// Tokens are kept only as their SHA-256: nowhere in the store's files in clear. Each login is
/// a new token; `logout_all` from one device revokes every other device's token at `hello`
/// and closes the connections they have open.
#[tokio::test]
async fn tokens_are_stored_hashed_rotate_at_login_and_logout_all_revokes_the_others() {
    let db = orion_tests::temp_db("tokens");
    let server = TestServer::start_on(
        &db,
        std::sync::Arc::new(orion_server::ManualClock::new(orion_tests::T0)),
    );
    let laptop = claimed(&server, "alice").await;
    let mut devices = vec![laptop.token.clone()];
    let mut phone = Client::connect(&server.url()).await;
    let mut welcomes = Vec::new();
    // The two other devices stay connected: log out everywhere closes them.
    let mut others = vec![laptop];
    for _ in 0..2 {
        let mut c = Client::connect(&server.url()).await;
        let w = c
            .request(json!({"t": "login", "name": "alice", "password": PASSWORD, "version": 1}))
            .await;
        assert_eq!(w["t"], "welcome", "{w}");
        devices.push(w["token"].as_str().expect("a token").to_string());
        welcomes.push(w);
        others.push(c);
    }
    let w = phone
        .request(json!({"t": "login", "name": "alice", "password": PASSWORD, "version": 1}))
        .await;
    let phone_token = w["token"].as_str().expect("a token").to_string();
    devices.push(phone_token.clone());
    // Four devices, four tokens, one player.
    let mut distinct = devices.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "a new token at each login: {devices:?}");
    assert!(
        welcomes.iter().all(|m| m["player"] == w["player"]),
        "one player"
    );
    for token in &devices {
        let (_, w) = server.reconnect("alice", token).await;
        assert_eq!(w["account"], true, "every device's token works: {w}");
    }
    // The store's files hold each token's hash and never the token.
    let bytes = store_bytes(&db);
    for token in &devices {
        assert!(!holds(&bytes, token), "token {token} stored in clear");
        assert!(
            holds(&bytes, &orion_server::token_hash(token)),
            "its hash is kept"
        );
    }

    // Log out everywhere else, from the phone: the other three are nobody now.
    let out = phone.request(json!({"t": "logout_all"})).await;
    assert_eq!(
        (out["t"].as_str(), out["revoked"].as_u64()),
        (Some("logged_out"), Some(3)),
        "{out}"
    );
    // Their open connections are told and closed at once; the phone's stays.
    for mut c in others {
        let e = c.expect_t("error").await;
        assert_eq!(e["code"], "not_found", "{e}");
        assert!(
            e["message"].as_str().unwrap_or("").contains("logged out"),
            "{e}"
        );
        assert_eq!(c.expect_close().await, Some(1008), "closed as logged out");
    }
    let pong = phone.request(json!({"t": "lobby"})).await;
    assert_eq!(pong["t"], "lobby", "the phone is still connected: {pong}");
    for token in devices.iter().filter(|t| **t != phone_token) {
        let mut c = Client::connect(&server.url()).await;
        let e = c
            .refused(json!({"t": "hello", "name": "alice", "version": 1, "token": token}))
            .await;
        assert_eq!(e["code"], "not_found", "a revoked token: {e}");
    }
    let (_, w) = server.reconnect("alice", &phone_token).await;
    assert_eq!(w["account"], true, "the phone keeps its token: {w}");
    // A guest has nothing to revoke.
    let mut guest = server.player("guest").await;
    let e = guest.refused(json!({"t": "logout_all"})).await;
    assert_eq!(e["code"], "bad_request", "{e}");
    drop(server);
    orion_tests::remove_db(&db);
}

/// An account keeps ten tokens: the eleventh login drops the oldest, and the device still
/// connected with it is closed as logged out (it was left speaking for the account).
#[tokio::test]
async fn a_login_past_ten_devices_closes_the_oldest_devices_open_connection() {
    let server = TestServer::start();
    let mut oldest = claimed(&server, "dora").await;
    let first = oldest.token.clone();
    let mut newest = Vec::new();
    for _ in 0..orion_server::MAX_TOKENS_PER_ACCOUNT {
        let mut c = Client::connect(&server.url()).await;
        let w = c
            .request(json!({"t": "login", "name": "dora", "password": PASSWORD, "version": 1}))
            .await;
        assert_eq!(w["t"], "welcome", "{w}");
        newest.push(c);
    }
    let e = oldest.expect_t("error").await;
    assert_eq!(e["code"], "not_found", "{e}");
    assert!(
        e["message"].as_str().unwrap_or("").contains("logged out"),
        "{e}"
    );
    assert_eq!(
        oldest.expect_close().await,
        Some(1008),
        "closed as logged out"
    );
    let mut again = Client::connect(&server.url()).await;
    let e = again
        .refused(json!({"t": "hello", "name": "dora", "version": 1, "token": first}))
        .await;
    assert_eq!(e["code"], "not_found", "the oldest token is gone: {e}");
    // The ten newer devices carry on.
    for c in &mut newest {
        let pong = c.request(json!({"t": "lobby"})).await;
        assert_eq!(pong["t"], "lobby", "{pong}");
    }
}

/// Issue 25, item 6: with `alice` claimed, these were accepted and could be registered.
const LOOK_ALIKES: [&str; 9] = [
    "\u{430}lice",                            // Cyrillic а
    "al\u{131}ce",                            // dotless ı
    "ali\u{34f}ce",                           // combining grapheme joiner
    "alice\u{fe0f}",                          // variation selector
    "\u{1d00}\u{29f}\u{26a}\u{1d04}\u{1d07}", // small capitals ᴀʟɪᴄᴇ
    "ali\u{a0}ce",                            // a no-break space inside
    "\u{2800}",                               // braille blank
    "\u{3164}",                               // Hangul filler
    "ALICE",
];

#[tokio::test]
async fn no_look_alike_of_a_claimed_name_gets_in_by_hello_or_register() {
    let server = TestServer::start();
    // Guests who said hello before alice claimed her name: only those whose names are
    // names at all got in.
    let mut early = Vec::new();
    for name in LOOK_ALIKES {
        let mut c = Client::connect(&server.url()).await;
        let w = c
            .request(json!({"t": "hello", "name": name, "version": 1}))
            .await;
        match w["t"].as_str() {
            Some("welcome") => early.push((name, c)),
            _ => assert_eq!(w["code"], "bad_request", "{name:?}: {w}"),
        }
    }
    let got_in: Vec<&str> = early.iter().map(|(n, _)| *n).collect();
    assert_eq!(got_in, ["al\u{131}ce", "ALICE"], "the rest are not names");
    // 31 stacked accents (over the length), or 4 on one letter (over the bound on marks).
    for marks in [31, 4] {
        let stacked = format!("a{}lice", "\u{301}".repeat(marks));
        let mut c = Client::connect(&server.url()).await;
        let e = c
            .refused(json!({"t": "hello", "name": stacked, "version": 1}))
            .await;
        assert_eq!(e["code"], "bad_request", "{marks}: {e}");
    }

    claimed(&server, "alice").await;
    // The early look-alikes cannot claim it now...
    for (name, mut c) in early {
        let e = c
            .refused(json!({"t": "register", "password": PASSWORD}))
            .await;
        assert!(
            e["message"].as_str().unwrap().contains("claimed"),
            "{name:?}: {e}"
        );
    }
    // ...nor can anyone say hello as one.
    for name in LOOK_ALIKES {
        let mut c = Client::connect(&server.url()).await;
        let e = c
            .refused(json!({"t": "hello", "name": name, "version": 1}))
            .await;
        assert_eq!(e["code"], "bad_request", "{name:?}: {e}");
    }
    // A look-alike claimed first keeps the original out.
    claimed(&server, "b0b").await;
    for name in ["bob", "BOB", "b0B"] {
        let mut c = Client::connect(&server.url()).await;
        let e = c
            .refused(json!({"t": "hello", "name": name, "version": 1}))
            .await;
        assert!(
            e["message"].as_str().unwrap().contains("claimed"),
            "{name}: {e}"
        );
    }
}

/// Issue 25, item 6: a guest took another player's id as his name, and `games {player}` then
/// listed the impostor's games as the victim's. Names may not look like ids now, and `games`
/// asks by `player_id` or by `player_name`.
#[tokio::test]
async fn a_guest_cannot_go_by_a_player_id_and_games_are_asked_by_id_or_by_name() {
    let server = TestServer::start();
    let mut s = server.player("ann").await;
    let mut n = server.player("ben").await;
    let joined = s.request(json!({"t": "create", "game": "hydra-2"})).await;
    let room = joined["room"].as_str().expect("room").to_string();
    s.seat = "S".into();
    n.request(json!({"t": "join", "room": room})).await;
    n.seat = "N".into();
    for c in [&mut s, &mut n] {
        c.send(json!({"t": "ready", "room": room})).await;
    }
    n.expect_event(&room, "start").await;
    play_moves(&mut s, &mut n, &room, HYDRA_TWO, true).await;
    s.expect_event(&room, "over").await;
    let (_, w) = server.reconnect("ann", &s.token).await;
    let victim = w["player"].as_str().expect("ann's id").to_string();

    // The impostor may not say hello as ann's id, in any case or with a look-alike.
    let mut names = vec![victim.clone(), victim.to_uppercase()];
    // Look-alike digits: l for 1, O for 0, where the id has them.
    names.push(victim.replace('1', "l").replace('0', "O"));
    for name in &names {
        let mut c = Client::connect(&server.url()).await;
        let e = c
            .refused(json!({"t": "hello", "name": name, "version": 1}))
            .await;
        assert!(
            e["message"].as_str().unwrap().contains("player id"),
            "{name}: {e}"
        );
    }

    // By id, by name, and by the older field (an id's shape: by id).
    let rooms = |page: &Value| -> Vec<String> {
        page["games"]
            .as_array()
            .expect("games")
            .iter()
            .map(|g| g["room"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let mut asker = server.player("asker").await;
    for ask in [
        json!({"t": "games", "player_id": victim}),
        json!({"t": "games", "player_name": "ann"}),
        json!({"t": "games", "player": victim}),
        json!({"t": "games", "player": "ann"}),
    ] {
        let page = asker.request(ask.clone()).await;
        assert_eq!(rooms(&page), [room.as_str()], "{ask}: {page}");
    }
    // An id asked as a name, or a name as an id, is nobody's.
    for ask in [
        json!({"t": "games", "player_name": victim}),
        json!({"t": "games", "player_id": "ann"}),
    ] {
        let page = asker.request(ask.clone()).await;
        assert!(rooms(&page).is_empty(), "{ask}: {page}");
    }
    for bad in [
        json!({"t": "games"}),
        json!({"t": "games", "player_id": victim, "player_name": "ann"}),
        json!({"t": "games", "player_name": " "}),
    ] {
        let e = asker.refused(bad.clone()).await;
        assert_eq!(e["code"], "bad_request", "{bad}: {e}");
    }
}
