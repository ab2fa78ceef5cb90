//! Computer players run by the server, end to end: a person plays a bot to the end of Hydra
//! for Two; `add_bot` refused in a full room, to a spectator, past the start, at a level that
//! does not exist; `remove_bot`; the creator's seat and a bot's chosen (`create` and `add_bot`
//! with `seat`), a taken or unknown seat refused; a rematch against the computer; a quick
//! match with `bots` filled by bots once `bot_wait` has passed; one person and three bots
//! finish Hydra for Partners; a server killed mid-game comes back with its bot thinking again
//! (in process, and as a real process killed with SIGKILL whose room another node takes over). The person passes every turn (`end_turn`), so
//! every chain is the bots' own and no claim window is waited on.

use orion_cli::autoplay::{self, BotConfig, Entry};
use orion_cli::bot::Level;
use orion_tests::cluster::{resume_until_taken, start_cluster};
use orion_tests::{remove_db, temp_db, Client, TestServer, T0};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// The cluster node binary: a server run as a process of its own, so a test can `kill -9` it.
const NODE: &str = env!("CARGO_BIN_EXE_orion-node");

/// Most turns a person passes before a test gives up on the bots winning.
const MOST_TURNS: usize = 400;

/// Creates a room of `game` for `c` and returns its id.
async fn create(c: &mut Client, game: &str) -> String {
    let joined = c.request(json!({"t": "create", "game": game})).await;
    assert_eq!(joined["t"], "joined", "{joined}");
    c.seat = joined["seat"].as_str().unwrap().into();
    joined["room"].as_str().unwrap().to_string()
}

/// Seats a bot and returns the `bot_added` reply.
async fn add_bot(c: &mut Client, room: &str, level: u8) -> Value {
    let added = c
        .request(json!({"t": "add_bot", "room": room, "level": level}))
        .await;
    assert_eq!(added["t"], "bot_added", "{added}");
    added
}

/// Passes every turn of `c`'s seat until the game is over; returns the `over` event.
async fn pass_to_the_end(c: &mut Client, room: &str) -> Value {
    let me = c.seat.clone();
    let mut passed_at = 0;
    for _ in 0..MOST_TURNS * 4 {
        if let Some(over) = c
            .events
            .iter()
            .find(|e| e["room"] == room && e["ev"]["kind"] == "over")
        {
            return over.clone();
        }
        let last = c.last_seq(room);
        if last > passed_at && c.mover_known(room, last).as_deref() == Some(me.as_str()) {
            passed_at = last;
            c.send(json!({"t": "end_turn", "room": room})).await;
        }
        let m = c
            .expect(|m| {
                m["t"] == "error"
                    || (m["t"] == "event" && m["room"] == room && m["seq"].as_u64() > Some(last))
            })
            .await;
        if m["code"] == "rate_limited" {
            // The bots answer at once, faster than the server lets a client send: the person
            // takes a breath (as one would) and passes again.
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            passed_at = 0;
            continue;
        }
        assert_ne!(m["t"], "error", "{m}");
    }
    let last: Vec<_> = c.events.iter().rev().take(12).collect();
    panic!("no end after {MOST_TURNS} turns: {last:?}");
}

/// How long a game with a bot may take before the test calls it stuck: far above what one
/// takes (seconds), since the machine may be busy with other tests.
const GAME_LIMIT: Duration = Duration::from_secs(180);

/// A bot of `level` seated in a new room of `game` by a host who then hands his seat to the
/// terminal client's greedy bot (a waiting room whose only sitter is a bot stays open); the
/// game is played to its end. Checks the bot's `joined`, the unrated `start`, and that the bot
/// moved through the room's own events.
async fn bot_plays_to_the_end(server: &TestServer, game: &str, level: u8, rating: i64) {
    let mut host = server.player("host").await;
    let room = create(&mut host, game).await;
    let added = add_bot(&mut host, &room, level).await;
    assert_eq!(added["level"], level);
    let seat = added["seat"].as_str().unwrap().to_string();
    let joined = host
        .expect(|m| m["ev"]["kind"] == "joined" && m["ev"]["seat"] == json!(seat))
        .await;
    assert_eq!(joined["ev"]["bot"], level, "{joined}");
    assert_eq!(joined["ev"]["rating"], rating, "{joined}");
    let left = host.request(json!({"t": "leave", "room": room})).await;
    assert_eq!(left["t"], "left", "{left}");
    let config = BotConfig {
        server: server.url(),
        name: format!("person{level}"),
        level: Level::Greedy,
        entry: Entry::Room(room.clone()),
        seed: u64::from(level),
    };
    // The server's clock is a manual one: moved on while the game plays, as a real one would
    // be. A bot's claim waits its reaction time, and a decision the room could not take at
    // once is asked for again a second later, both by the server's clock (`room/bots.rs`):
    // standing still, it left a game waiting on such a bot for ever.
    let clock = server.clock.clone();
    let ticking = tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            clock.advance(100);
        }
    });
    let played = tokio::time::timeout(GAME_LIMIT, autoplay::run(config)).await;
    ticking.abort();
    let report = played
        .unwrap_or_else(|_| panic!("the {game} game with a level-{level} bot ends in time"))
        .expect("played to the end");
    assert_ne!(report.seat.as_str(), seat);
    let mut reader = server.player("reader").await;
    let history = reader.request(json!({"t": "history", "room": room})).await;
    assert_eq!(history["status"], "finished", "{history}");
    let events = history["events"].as_array().unwrap();
    let start = &events.iter().find(|e| e["ev"]["kind"] == "start").unwrap()["ev"];
    assert_eq!(start["rated"], false, "{start}");
    assert!(
        events.iter().any(|e| {
            (e["ev"]["kind"] == "click" || e["ev"]["kind"] == "move")
                && e["ev"]["seat"] == json!(seat)
        }),
        "the level-{level} bot of {game} never moved"
    );
}

#[tokio::test]
async fn a_bot_is_seated_ready_and_unrated_and_plays_hydra_for_two_to_the_end() {
    let server = TestServer::start();
    bot_plays_to_the_end(&server, "hydra-2", 1, 700).await;
    bot_plays_to_the_end(&server, "hydra-2", 5, 1650).await;
    server.shutdown();
}

#[tokio::test]
async fn bots_play_orbit_and_orbs_to_the_end() {
    let server = TestServer::start();
    bot_plays_to_the_end(&server, "orbit", 3, 1350).await;
    bot_plays_to_the_end(&server, "orbs", 3, 1350).await;
    server.shutdown();
}

#[tokio::test]
async fn add_bot_is_refused_in_a_full_room_to_a_spectator_after_the_start_and_past_level_8() {
    let server = TestServer::start();
    let mut s = server.player("south").await;
    let room = create(&mut s, "hydra-2").await;
    let e = s
        .refused(json!({"t": "add_bot", "room": room, "level": 9}))
        .await;
    assert_eq!(e["code"], "bad_request", "{e}");
    let mut w = server.player("watcher").await;
    let snap = w.request(json!({"t": "spectate", "room": room})).await;
    assert_eq!(snap["t"], "snapshot");
    let e = w.refused(json!({"t": "add_bot", "room": room})).await;
    assert_eq!(e["code"], "not_a_player", "{e}");
    // Default level 4; then the room is full.
    let added = s.request(json!({"t": "add_bot", "room": room})).await;
    assert_eq!(added["level"], 4, "{added}");
    let e = s.refused(json!({"t": "add_bot", "room": room})).await;
    assert_eq!(e["code"], "full", "{e}");
    // The lobby line and a snapshot mark the bot's seat with its level.
    let lobby = w.request(json!({"t": "lobby"})).await;
    let line = lobby["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["room"] == room)
        .cloned()
        .unwrap();
    assert_eq!(line["bots"], json!({"N": 4}), "{line}");
    let snap = w.request(json!({"t": "spectate", "room": room})).await;
    assert_eq!(snap["seats"]["N"]["bot"], 4, "{snap}");
    assert_eq!(snap["seats"]["N"]["ready"], true, "{snap}");
    // Taken out, the seat is free again, and a person may take it.
    let removed = s
        .request(json!({"t": "remove_bot", "room": room, "seat": "N"}))
        .await;
    assert_eq!(removed["t"], "bot_removed", "{removed}");
    let e = s
        .refused(json!({"t": "remove_bot", "room": room, "seat": "N"}))
        .await;
    assert_eq!(e["code"], "bad_request", "{e}");
    let mut n = server.player("north").await;
    let j = n.request(json!({"t": "join", "room": room})).await;
    assert_eq!(j["seat"], "N", "{j}");
    s.send(json!({"t": "ready", "room": room})).await;
    n.send(json!({"t": "ready", "room": room})).await;
    s.expect_event(&room, "start").await;
    let e = s.refused(json!({"t": "add_bot", "room": room})).await;
    assert_eq!(e["code"], "illegal", "{e}");
    server.shutdown();
}

#[tokio::test]
async fn the_creator_sits_at_the_seat_he_asks_for_and_the_bot_at_the_one_left_moves_first() {
    let server = TestServer::start();
    let mut p = server.player("north").await;
    // A seat the game does not have: refused in words, and no room is made.
    let e = p
        .refused(json!({"t": "create", "game": "hydra-2", "seat": "W"}))
        .await;
    assert_eq!(e["code"], "bad_request", "{e}");
    let why = e["message"].as_str().unwrap();
    assert!(
        why.contains("seat W does not play in hydra-2 (seats: S, N)"),
        "{e}"
    );
    let lobby = p.request(json!({"t": "lobby"})).await;
    assert_eq!(lobby["rooms"], json!([]), "{lobby}");
    // The second seat, asked for.
    let joined = p
        .request(json!({"t": "create", "game": "hydra-2", "seat": "N"}))
        .await;
    assert_eq!(joined["seat"], "N", "{joined}");
    p.seat = "N".into();
    let room = joined["room"].as_str().unwrap().to_string();
    // A bot at a taken seat, or at one the game does not have: refused, each in words.
    let e = p
        .refused(json!({"t": "add_bot", "room": room, "seat": "N"}))
        .await;
    assert_eq!(
        (e["code"].as_str(), e["message"].as_str()),
        (Some("full"), Some("seat N is taken"))
    );
    let e = p
        .refused(json!({"t": "add_bot", "room": room, "seat": "E"}))
        .await;
    assert_eq!(e["code"], "bad_request", "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("seat E does not play"),
        "{e}"
    );
    let added = p
        .request(json!({"t": "add_bot", "room": room, "level": 2, "seat": "S"}))
        .await;
    assert_eq!(
        (added["seat"].as_str(), added["level"].as_u64()),
        (Some("S"), Some(2))
    );
    p.send(json!({"t": "ready", "room": room})).await;
    let start = p.expect_event(&room, "start").await;
    assert_eq!(start["ev"]["turn"]["seat"], "S", "{start}");
    // South moves first: the bot's turn (its click, or now and then a pass: level 2 plays a
    // random action at times, and End turn is one) comes before the person's.
    let turn = p.expect(|m| m["ev"]["kind"] == "turn").await;
    assert_eq!(turn["ev"]["seat"], "N", "{turn}");
    server.shutdown();
}

/// `c`, to move at `seat` in `room`, lets his turn clock and his time bank run out: he loses
/// on time. Returns the `over` event.
async fn lose_on_time(server: &TestServer, c: &mut Client, room: &str, seat: &str) -> Value {
    loop {
        let last = c.last_seq(room);
        if c.mover_known(room, last).as_deref() == Some(seat) {
            break;
        }
        c.expect(|m| m["room"] == room && m["seq"].as_u64() > Some(last))
            .await;
    }
    server.clock.advance(1_000);
    tokio::task::yield_now().await;
    server.clock.advance(1);
    let over = c.expect_event(room, "over").await;
    assert_eq!(over["ev"]["reason"], "time", "{over}");
    over
}

#[tokio::test]
async fn a_rematch_against_the_computer_seats_the_same_bot_one_seat_on_and_starts() {
    let server = TestServer::start();
    let mut s = server.player("south").await;
    let options = json!({"turn_clock": 1000, "time_bank": 1});
    let joined = s
        .request(json!({"t": "create", "game": "hydra-2", "options": options}))
        .await;
    let room = joined["room"].as_str().unwrap().to_string();
    s.seat = "S".into();
    add_bot(&mut s, &room, 3).await;
    s.send(json!({"t": "ready", "room": room})).await;
    s.expect_event(&room, "start").await;
    let over = lose_on_time(&server, &mut s, &room, "S").await;
    assert_eq!(over["ev"]["result"]["winner"], "N", "{over}");
    // The person offers; the computer agrees at once and the new room starts.
    s.send(json!({"t": "rematch", "room": room})).await;
    let agreed = s
        .expect(|m| m["room"] == room && m["ev"]["kind"] == "rematch")
        .await;
    assert_eq!(agreed["ev"]["agreed"], json!(["S", "N"]), "{agreed}");
    let new = agreed["ev"]["room"]
        .as_str()
        .expect("the new room")
        .to_string();
    let joined = s.expect(|m| m["t"] == "joined" && m["room"] == new).await;
    // Everyone moved one seat on, as people do in a rematch: the person to N, the bot to S,
    // at its level, with the same options.
    assert_eq!(joined["seat"], "N", "{joined}");
    s.seat = "N".into();
    let bot = s
        .expect(|m| m["room"] == new && m["ev"]["kind"] == "joined" && m["ev"]["seat"] == "S")
        .await;
    assert_eq!(bot["ev"]["bot"], 3, "{bot}");
    let start = s.expect_event(&new, "start").await;
    assert_eq!(start["ev"]["turn"]["seat"], "S", "{start}");
    // The bot plays the new game: it has the first turn and gives it to the person (by its
    // click, or by a pass: level 3 plays a random action at times, and End turn is one);
    // then the person's time runs out again.
    let turn = s
        .expect(|m| m["room"] == new && m["ev"]["kind"] == "turn")
        .await;
    assert_eq!(turn["ev"]["seat"], "N", "{turn}");
    let over = lose_on_time(&server, &mut s, &new, "N").await;
    assert_eq!(over["ev"]["result"]["winner"], "S", "{over}");
    server.shutdown();
}

#[tokio::test]
async fn past_the_cap_on_bot_games_add_bot_is_refused_full() {
    let server = TestServer::start_tuned(|c| c.max_bot_games = 1);
    let mut a = server.player("ann").await;
    let first = create(&mut a, "hydra-4").await;
    add_bot(&mut a, &first, 2).await;
    // The same room may seat more: it holds its place already.
    add_bot(&mut a, &first, 2).await;
    let mut b = server.player("bob").await;
    let second = create(&mut b, "hydra-2").await;
    let e = b.refused(json!({"t": "add_bot", "room": second})).await;
    assert_eq!(e["code"], "full", "{e}");
    // Once the first room's bots are gone, the place is free.
    for seat in ["W", "N"] {
        let r = a
            .request(json!({"t": "remove_bot", "room": first, "seat": seat}))
            .await;
        assert_eq!(r["t"], "bot_removed", "{r}");
    }
    add_bot(&mut b, &second, 2).await;
    server.shutdown();
}

#[tokio::test]
async fn a_quick_match_with_bots_is_filled_by_bots_once_nobody_came() {
    let server = TestServer::start_tuned(|c| c.bot_wait = 5_000);
    let mut s = server.player("loner").await;
    let queued = s
        .request(json!({"t": "quick", "game": "hydra-4", "bots": true}))
        .await;
    assert_eq!(queued["t"], "queued", "{queued}");
    server.clock.advance(5_000);
    let joined = s.expect_t("joined").await;
    let room = joined["room"].as_str().unwrap().to_string();
    s.seat = joined["seat"].as_str().unwrap().into();
    let start = s.expect_event(&room, "start").await;
    assert_eq!(start["ev"]["rated"], false);
    let bots: Vec<&Value> = s
        .events
        .iter()
        .filter(|e| e["ev"]["kind"] == "joined" && e["ev"]["bot"].is_u64())
        .collect();
    assert_eq!(bots.len(), 3, "{bots:?}");
    // A guest has no rating: the bots play at the middle level.
    assert!(bots.iter().all(|e| e["ev"]["bot"] == 4), "{bots:?}");
    server.shutdown();
}

#[tokio::test]
async fn one_person_and_three_bots_finish_hydra_for_partners() {
    let server = TestServer::start();
    let mut s = server.player("south").await;
    let room = create(&mut s, "hydra-partners").await;
    // Level 7 is `greedy` in Hydra for Partners (`orion_plans.rs`): it makes a chain when it
    // sees one. Three level-2 bots click at random four times in five, and with a partner
    // who only passes their game ran past 130 rounds in 2 of 15 runs.
    for _ in 0..3 {
        add_bot(&mut s, &room, 7).await;
    }
    s.send(json!({"t": "ready", "room": room})).await;
    s.expect_event(&room, "start").await;
    let over = pass_to_the_end(&mut s, &room).await;
    assert!(over["ev"]["result"]["winner"].is_string(), "{over}");
    for seat in ["W", "N", "E"] {
        assert!(
            s.events
                .iter()
                .any(|e| e["ev"]["kind"] == "click" && e["ev"]["seat"] == seat),
            "{seat} never clicked"
        );
    }
    server.shutdown();
}

#[tokio::test]
async fn a_killed_server_comes_back_with_its_bot_thinking_again() {
    let db = temp_db("bots-restart");
    let clock = Arc::new(orion_server::ManualClock::new(T0));
    let server = TestServer::start_on(&db, clock.clone());
    let mut s = server.player("south").await;
    let room = create(&mut s, "hydra-2").await;
    add_bot(&mut s, &room, 2).await;
    s.send(json!({"t": "ready", "room": room})).await;
    s.expect_event(&room, "start").await;
    // South passes; the server dies as the bot's turn begins.
    s.send(json!({"t": "end_turn", "room": room})).await;
    s.expect(|m| m["ev"]["kind"] == "turn" && m["ev"]["seat"] == "N")
        .await;
    let seen = s.last_seq(&room);
    server.kill();

    let server = TestServer::start_on(&db, clock.clone());
    let (mut s2, welcome) = server.reconnect("south", &s.token).await;
    assert_eq!(welcome["rooms"], json!([room]), "{welcome}");
    s2.seat = "S".into();
    s2.send(json!({"t": "resume", "room": room, "since": seen}))
        .await;
    // The bot, restored in its seat, moves again (a click, or a pass: level 2 plays at
    // random more than half the time), then South's turn. A decision the room could not
    // take at once is asked for again a second later by the server's clock (`room/bots.rs`,
    // RETRY), which this test moves on while it waits.
    let mut waited = 0;
    let back = loop {
        let souths_turn = |m: &Value| m["ev"]["kind"] == "turn" && m["ev"]["seat"] == "S";
        match tokio::time::timeout(Duration::from_secs(2), s2.expect(souths_turn)).await {
            Ok(m) => break m,
            Err(_) => {
                waited += 1;
                assert!(waited < 15, "the restored bot never moved");
                clock.advance(1_000);
            }
        }
    };
    assert!(back["seq"].as_u64() > Some(seen), "{back}");
    server.shutdown();
    remove_db(&db);
}

#[tokio::test]
async fn a_node_killed_with_sigkill_mid_game_comes_back_elsewhere_with_its_bot_thinking() {
    let (_pg, _nats, [mut a, b]) = start_cluster(NODE, ["a", "b"]);
    let mut s = a.player("south").await;
    let room = create(&mut s, "hydra-2").await;
    // A cluster node refuses a room's commands with `server` while it cannot be sure of its
    // lease (renewals late on a busy machine); a client asks again, as here.
    for tries in 1.. {
        let added = s
            .request(json!({"t": "add_bot", "room": room, "level": 2}))
            .await;
        if added["t"] == "bot_added" {
            break;
        }
        assert!(added["code"] == "server" && tries < 20, "{added}");
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    }
    s.send(json!({"t": "ready", "room": room})).await;
    s.expect_event(&room, "start").await;
    // South passes; the bot moves (a click or a pass); South's turn comes round again.
    s.send(json!({"t": "end_turn", "room": room})).await;
    s.expect(|m| m["ev"]["kind"] == "turn" && m["ev"]["seat"] == "N")
        .await;
    s.expect(|m| m["ev"]["kind"] == "turn" && m["ev"]["seat"] == "S")
        .await;
    let seen = s.last_seq(&room);
    // The node running the room dies where it stands (SIGKILL).
    a.kill();
    let mut s2 = b.reconnect("south", &s.token).await;
    s2.seat = "S".into();
    resume_until_taken(&mut s2, &room, 0).await;
    s2.sync_to(&room, seen).await;
    // On its new owner the bot is seated still and thinks again: South passes, the bot's
    // turn begins and ends (a click or a pass) with South's turn.
    s2.send(json!({"t": "end_turn", "room": room})).await;
    let after = |m: &Value| m["room"] == room && m["seq"].as_u64() > Some(seen);
    let bots = s2
        .expect(|m| after(m) && m["ev"]["kind"] == "turn" && m["ev"]["seat"] == "N")
        .await;
    let back = s2
        .expect(|m| after(m) && m["ev"]["kind"] == "turn" && m["ev"]["seat"] == "S")
        .await;
    assert!(back["seq"].as_u64() > bots["seq"].as_u64(), "{back}");
}

#[tokio::test]
async fn a_rated_room_moves_the_persons_rating_against_the_bots_level_and_lists_no_bot() {
    let server = TestServer::start();
    let mut s = server.player("rated-ann").await;
    let w = s
        .request(json!({"t": "register", "password": "correct horse battery"}))
        .await;
    assert_eq!(w["account"], true, "{w}");
    let joined = s
        .request(json!({"t": "create", "game": "hydra-2", "options": {"rated": true}}))
        .await;
    let room = joined["room"].as_str().unwrap().to_string();
    s.seat = "S".into();
    add_bot(&mut s, &room, 8).await;
    s.send(json!({"t": "ready", "room": room})).await;
    let start = s.expect_event(&room, "start").await;
    assert_eq!(start["ev"]["rated"], true, "{start}");
    // Both move once (the game then counts), and the person resigns.
    s.play(&room, "click", json!({"click": "A1L"})).await;
    s.play(&room, "end_turn", json!({})).await;
    s.expect(|m| m["ev"]["kind"] == "turn" && m["ev"]["seat"] == "S")
        .await;
    let left = s.request(json!({"t": "leave", "room": room})).await;
    assert_eq!(left["t"], "left", "{left}");
    let mut r = server.player("reader").await;
    let history = r.request(json!({"t": "history", "room": room})).await;
    let over = &history["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["ev"]["kind"] == "over")
        .unwrap()["ev"];
    assert_eq!(over["result"]["winner"], "N", "{over}");
    // The person lost to a level rated 2100: his 1500 falls; the bot has no rating to move.
    let ratings = over["ratings"].as_object().expect("a rated game's ratings");
    assert!(ratings["S"]["delta"].as_i64() < Some(0), "{over}");
    assert!(!ratings.contains_key("N"), "{over}");
    let board = r
        .request(json!({"t": "leaderboard", "game": "hydra-2"}))
        .await;
    let names: Vec<&str> = (board["entries"].as_array().unwrap())
        .iter()
        .filter_map(|e| e["name"].as_str())
        .collect();
    assert_eq!(names, ["rated-ann"], "{board}");
    server.shutdown();
}
