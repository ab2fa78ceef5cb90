//! What an operator does to a running server: back a SQLite store up while games are being
//! played and restore it (`orion-server backup` / `restore`, `orion_server::backup`), back a
//! PostgreSQL store up with the real `pg_dump` and restore it with `pg_restore` into a fresh
//! database; after either, a server started on the copy has every room's history up to the
//! backup, every account and every rating. And `/readyz`: 503 with the reason while
//! PostgreSQL is down, 200 again once it is back.

use orion_tests::pg::Postgres;
use orion_tests::{
    http_get, play_moves, remove_db, start_room, temp_db, Client, TestServer, HYDRA_TWO, PATIENCE,
    T0,
};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

const PASSWORD: &str = "correct horse battery";
/// Rooms played at once while the backup is taken.
const LOAD_ROOMS: usize = 6;

/// A player who says hello as `name` and claims it with [`PASSWORD`].
async fn claimed(server: &TestServer, name: &str) -> Client {
    let mut c = server.player(name).await;
    let w = c
        .request(json!({"t": "register", "password": PASSWORD}))
        .await;
    assert_eq!(w["account"], true, "{w}");
    c
}

/// `game`'s leaderboard, as (name, rating, games) lines.
async fn board(c: &mut Client, game: &str) -> Vec<Value> {
    let b = c.request(json!({"t": "leaderboard", "game": game})).await;
    b["entries"].as_array().cloned().unwrap_or_default()
}

/// Two claimed accounts play a rated Hydra for Two to its end: returns the room.
async fn a_rated_game(server: &TestServer) -> String {
    let mut players = vec![claimed(server, "ann").await, claimed(server, "bob").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let [mut s, mut n] = <[Client; 2]>::try_from(players).ok().expect("two");
    play_moves(&mut s, &mut n, &room, HYDRA_TWO, true).await;
    let over = n.expect_event(&room, "over").await;
    assert!(over["ev"].get("ratings").is_some(), "rated: {over}");
    room
}

/// What a restored server must show: every room's history, the accounts (by logging in)
/// and the leaderboard.
struct Before {
    /// Each room, and the events its players had been sent before the backup began (every
    /// one was stored before it was sent).
    rooms: Vec<(String, u64)>,
    /// The whole history of each room on the original server, after the load.
    histories: Vec<Vec<Value>>,
    /// The leaderboard of Hydra for Two.
    board: Vec<Value>,
}

/// Checks a server on a restored store against `before`: every room has its history up to
/// the backup point, identical, in order, with no gap; both accounts log in with their
/// password; the leaderboard is the same.
async fn check_restored(server: &TestServer, before: &Before) {
    let mut reader = server.player("reader").await;
    for ((room, seen), full) in before.rooms.iter().zip(&before.histories) {
        let events = reader.history(room).await;
        assert!(
            events.len() as u64 >= *seen,
            "room {room}: {} events restored, {seen} had been sent before the backup",
            events.len()
        );
        assert_eq!(
            events[..],
            full[..events.len()],
            "room {room}: the restored history is the original's, up to the backup"
        );
    }
    for name in ["ann", "bob"] {
        let mut c = Client::connect(&server.url()).await;
        let w = c
            .request(json!({"t": "login", "name": name, "password": PASSWORD, "version": 1}))
            .await;
        assert_eq!(w["t"], "welcome", "{name} logs in: {w}");
    }
    assert_eq!(board(&mut reader, "hydra-2").await, before.board);
}

/// `LOAD_ROOMS` pairs of guests, each in a Hydra for Two of its own three moves in: every
/// room is mid-game.
async fn load(server: &TestServer) -> Vec<(String, Client, Client)> {
    let mut rooms = Vec::new();
    for i in 0..LOAD_ROOMS {
        let mut players = vec![
            server.player(&format!("s{i}")).await,
            server.player(&format!("n{i}")).await,
        ];
        let room = start_room(&mut players, "hydra-2", json!({})).await;
        let [mut s, mut n] = <[Client; 2]>::try_from(players).ok().expect("two");
        play_moves(&mut s, &mut n, &room, &HYDRA_TWO[..3], false).await;
        rooms.push((room, s, n));
    }
    rooms
}

/// Plays the rest of a load room's game, to its end.
async fn play_on((room, mut s, mut n): (String, Client, Client)) {
    play_moves(&mut s, &mut n, &room, &HYDRA_TWO[3..], true).await;
    n.expect_event(&room, "over").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_games_are_played_restores_every_game_account_and_rating() {
    let db = temp_db("backup-live");
    let copy = temp_db("backup-copy");
    let restored = temp_db("backup-restored");
    let clock = Arc::new(orion_server::ManualClock::new(T0));
    let server = TestServer::start_on(&db, clock.clone());
    let finished = a_rated_game(&server).await;
    let mut reader = server.player("watcher").await;
    let board_before = board(&mut reader, "hydra-2").await;
    assert_eq!(board_before.len(), 2, "{board_before:?}");

    let load = load(&server).await;
    let rooms: Vec<String> = load.iter().map(|(room, _, _)| room.clone()).collect();
    // The backup, of the running store, while every load room plays on to its end. What
    // each room's players had been sent when it began is stored, so must be in the copy.
    let backup = async {
        let mut seen = Vec::new();
        for room in &rooms {
            let events = reader.history(room).await;
            seen.push(events.len() as u64);
        }
        let (from, to) = (db.clone(), copy.clone());
        let copied = tokio::task::spawn_blocking(move || {
            orion_server::backup(&from, std::path::Path::new(&to))
        })
        .await
        .expect("the backup thread")
        .expect("the backup");
        (seen, copied)
    };
    let (_, (seen, copied)) = tokio::join!(
        futures::future::join_all(load.into_iter().map(play_on)),
        backup
    );
    assert!(copied.accounts >= 2, "{copied}");
    // The finished game is whole in the backup; each load room has at least what its
    // players had been sent when the backup began.
    let mut histories = vec![reader.history(&finished).await];
    let mut all_rooms = vec![(finished.clone(), histories[0].len() as u64)];
    for (room, seen) in rooms.iter().zip(seen) {
        histories.push(reader.history(room).await);
        all_rooms.push((room.clone(), seen));
    }
    let before = Before {
        rooms: all_rooms,
        histories,
        board: board_before,
    };
    drop(reader);
    server.shutdown();

    // A backup is never written over, nor restored onto a store that exists.
    let again = orion_server::backup(&db, std::path::Path::new(&copy));
    assert!(
        matches!(again, Err(orion_server::BackupError::Exists(_))),
        "{again:?}"
    );
    let onto = orion_server::restore(std::path::Path::new(&copy), &db);
    assert!(
        matches!(onto, Err(orion_server::BackupError::Exists(_))),
        "{onto:?}"
    );

    let back = orion_server::restore(std::path::Path::new(&copy), &restored).expect("restore");
    assert_eq!(back.rooms, copied.rooms);
    let server = TestServer::start_on(&restored, clock.clone());
    check_restored(&server, &before).await;
    server.shutdown();
    // Starting on the backup file itself works as well.
    let server = TestServer::start_on(&copy, clock);
    check_restored(&server, &before).await;
    server.shutdown();
    for path in [&db, &copy, &restored] {
        remove_db(path);
        for n in 0..4 {
            let _ = std::fs::remove_file(format!("{path}-commits.{n:08}"));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pg_dump_of_a_running_server_restores_into_a_fresh_database() {
    let pg = Postgres::start();
    let clock = Arc::new(orion_server::ManualClock::new(T0));
    let server = TestServer::start_on(&pg.url(), clock.clone());
    let finished = a_rated_game(&server).await;
    let mut reader = server.player("watcher").await;
    let board_before = board(&mut reader, "hydra-2").await;
    // A game in progress as well, cut mid-game by the dump.
    let mut players = vec![server.player("s").await, server.player("n").await];
    let open = start_room(&mut players, "hydra-2", json!({})).await;
    {
        let [s, n] = &mut players[..] else {
            unreachable!("two players")
        };
        play_moves(s, n, &open, &HYDRA_TWO[..3], false).await;
    }
    let mut histories = Vec::new();
    let mut rooms = Vec::new();
    for room in [&finished, &open] {
        let events = reader.history(room).await;
        rooms.push((room.clone(), events.len() as u64));
        histories.push(events);
    }
    // The README's commands: a dump of the running server, restored into a new database.
    let dump = std::env::temp_dir().join(format!("orion-dump-{}.pgdump", std::process::id()));
    let out = pg
        .client("pg_dump")
        .args(["--format=custom", "--no-owner", "--file"])
        .arg(&dump)
        .arg("orion")
        .output()
        .expect("run pg_dump");
    assert!(
        out.status.success(),
        "pg_dump: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    drop(reader);
    drop(players);
    server.shutdown();
    pg.createdb("orion_restored");
    let out = pg
        .client("pg_restore")
        .args([
            "--no-owner",
            "--exit-on-error",
            "--dbname",
            "orion_restored",
        ])
        .arg(&dump)
        .output()
        .expect("run pg_restore");
    let _ = std::fs::remove_file(&dump);
    assert!(
        out.status.success(),
        "pg_restore: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    let server = TestServer::start_on(&pg.url_of("orion_restored"), clock);
    let before = Before {
        rooms,
        histories,
        board: board_before,
    };
    check_restored(&server, &before).await;
    // The game in progress carries on from where the dump left it.
    let mut reader = server.player("reader2").await;
    let page = reader.request(json!({"t": "history", "room": open})).await;
    assert_eq!(page["status"], "playing", "{page}");
    server.shutdown();
}

#[tokio::test]
async fn readyz_says_503_while_postgresql_is_down_and_200_once_it_is_back() {
    let mut pg = Postgres::start();
    let server = TestServer::start_on(&pg.url(), Arc::new(orion_server::ManualClock::new(T0)));
    let ready = http_get(server.addr, "/readyz").await;
    assert!(ready.starts_with("HTTP/1.1 200"), "{ready}");
    assert!(ready.ends_with("ready\n"), "{ready}");
    pg.stop();
    let down = http_get(server.addr, "/readyz").await;
    assert!(down.starts_with("HTTP/1.1 503"), "{down}");
    assert!(down.contains("not ready: the store"), "{down}");
    // `/healthz` is as it was: the process answers.
    let health = http_get(server.addr, "/healthz").await;
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    pg.start_again();
    // The store reconnects by itself; /readyz follows (polled, within the patience).
    let began = std::time::Instant::now();
    loop {
        let answer = http_get(server.addr, "/readyz").await;
        if answer.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(began.elapsed() < PATIENCE, "still not ready: {answer}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
