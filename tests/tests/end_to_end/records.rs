//! Finished games' records (issue 25, item 8): built once and kept (the same text from every
//! reader, across a restart, counted in `orion_records_built_total`), served to readers that
//! never read from one shared copy (300 of them do not each cost the process the record's
//! size), and a reader that stops reading is dropped at the record deadline.

use orion_server::{ActionRecord, Append, Config, ManualClock, RoomRecord, SqliteStore, Store};
use orion_tests::{http_get, play_moves, remove_db, start_room, temp_db, TestServer};
use orion_tests::{HYDRA_TWO, PATIENCE, T0};
use serde_json::json;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// The body of an HTTP response (after the blank line).
fn body(response: &str) -> &str {
    response.split_once("\r\n\r\n").map_or("", |(_, b)| b)
}

/// The value of metric `name` on the server at `addr`.
async fn metric(addr: SocketAddr, name: &str) -> Option<u64> {
    let text = http_get(addr, "/metrics").await;
    body(&text).lines().find_map(|l| {
        let (n, v) = l.split_once(' ')?;
        (n == name).then(|| v.trim().parse().ok())?
    })
}

/// The process's resident memory, in bytes (the test servers run in this process).
fn rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS");
    kb * 1024
}

/// Writes a finished Hydra for Two of `turns` passes into the store at `db` (as a room that
/// played it would have: its seats' `joined`, one stored action a turn, an `over`), for a
/// record far longer than a test could play over the socket. Returns the room id.
async fn long_game(db: &str, turns: u64) -> String {
    let room = "rlonggame".to_string();
    let store = SqliteStore::open(db).expect("store");
    store
        .create_room(&RoomRecord {
            id: room.clone(),
            game: "hydra-2".into(),
            options: "{}".into(),
            seed: 1,
            private: false,
            code: None,
            salt: None,
        })
        .await
        .expect("room");
    let append = |n: u64, action: Option<ActionRecord>, event: String| Append {
        room: Arc::from(room.as_str()),
        n,
        action,
        events: vec![(n, event)],
        seq: n,
    };
    let mut commits = Vec::new();
    for (n, (seat, name)) in [(1, ("S", "ann")), (2, ("N", "bob"))] {
        let joined =
            json!({"kind": "joined", "seat": seat, "player": format!("p-{name}"), "name": name});
        commits.push(store.append(append(n, None, joined.to_string())));
    }
    for turn in 0..turns {
        let seat = if turn % 2 == 0 { "S" } else { "N" };
        let action = ActionRecord {
            seat: seat.into(),
            action: "end".into(),
            at: T0 + turn,
        };
        let chat = json!({"kind": "chat", "seat": seat, "name": "x", "text": "."});
        commits.push(store.append(append(3 + turn, Some(action), chat.to_string())));
    }
    let over = json!({"kind": "over", "result": {"winner": null, "scores": {"S": 0, "N": 0}},
                      "reason": "abandoned"});
    commits.push(store.append(append(3 + turns, None, over.to_string())));
    for c in commits {
        c.wait().await.expect("committed");
    }
    store
        .set_status(&room, "finished", T0 + turns)
        .await
        .expect("finished");
    room
}

/// Opens a connection with a tiny receive buffer and asks for `path`, reading nothing.
async fn ask_and_never_read(addr: SocketAddr, path: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("rcvbuf");
    let mut stream = socket.connect(addr).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nhost: test\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    stream
}

/// Reads what `stream` has until it ends (or fails: a reset); the bytes read.
async fn drain(stream: &mut TcpStream) -> usize {
    let mut total = 0;
    let mut buf = vec![0u8; 64 * 1024];
    let read = async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => total += n,
            }
        }
    };
    tokio::time::timeout(PATIENCE, read)
        .await
        .expect("the connection ends");
    total
}

#[tokio::test]
async fn a_finished_games_record_is_built_once_and_every_reader_gets_the_same_text() {
    let db = temp_db("records-once");
    let clock = Arc::new(ManualClock::new(T0));
    let server = TestServer::start_on(&db, clock.clone());
    let mut players = vec![server.player("ann").await, server.player("bob").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let [mut s, mut n] = <[orion_tests::Client; 2]>::try_from(players).ok().unwrap();
    play_moves(&mut s, &mut n, &room, HYDRA_TWO, true).await;
    n.expect_event(&room, "over").await;

    let path = format!("/g/{room}.txt");
    let first = http_get(server.addr, &path).await;
    assert!(first.starts_with("HTTP/1.1 200"), "{first}");
    let text = body(&first).to_string();
    assert!(text.contains("hydra-2"), "{text}");
    // Ten readers at once, one more after, and `export`: the same text.
    let many = futures::future::join_all((0..10).map(|_| http_get(server.addr, &path))).await;
    for r in &many {
        assert_eq!(body(r), text);
    }
    let export = s.request(json!({"t": "export", "room": room})).await;
    assert_eq!(export["text"].as_str(), Some(text.as_str()), "{export}");
    // A rematch offer is stored in the finished room; the record does not change.
    s.send(json!({"t": "rematch", "room": room})).await;
    s.expect_event(&room, "rematch").await;
    assert_eq!(body(&http_get(server.addr, &path).await), text);
    assert_eq!(
        metric(server.addr, "orion_records_built_total").await,
        Some(1),
        "built once for thirteen readers"
    );
    server.shutdown();

    // After a restart the kept record is read back, not built again.
    let server = TestServer::start_on(&db, clock);
    assert_eq!(body(&http_get(server.addr, &path).await), text);
    assert_eq!(
        metric(server.addr, "orion_records_built_total").await,
        Some(0)
    );
    server.shutdown();
    remove_db(&db);
}

#[tokio::test]
async fn three_hundred_readers_that_never_read_share_one_copy_of_a_long_record() {
    let db = temp_db("records-rss");
    let room = long_game(&db, 10_000).await;
    let clock = Arc::new(ManualClock::new(T0 + 10_000));
    // A small kernel send buffer, as on a loaded server: what the kernel does not take, the
    // server holds.
    let server = TestServer::start_with(&db, clock, orion_server::SEND_QUEUE, Some(4096));
    let path = format!("/g/{room}.txt");
    let whole = http_get(server.addr, &path).await;
    assert!(
        whole.starts_with("HTTP/1.1 200"),
        "{}",
        &whole[..whole.len().min(300)]
    );
    let size = body(&whole).len() as u64;
    assert!(size > 300_000, "a long record: {size} bytes");

    let before = rss();
    let mut readers = Vec::new();
    for _ in 0..300 {
        readers.push(ask_and_never_read(server.addr, &path).await);
    }
    // Each has its answer begun (one byte taken, then nothing more).
    for r in readers.iter_mut() {
        let mut byte = [0u8; 1];
        let got = tokio::time::timeout(PATIENCE, r.read(&mut byte)).await;
        assert!(matches!(got, Ok(Ok(1))), "an answer begun: {got:?}");
    }
    let grown = rss().saturating_sub(before);
    assert!(
        grown < 300 * size / 4,
        "300 stalled readers of a {size}-byte record grew the process by {grown} bytes"
    );
    // Someone reading gets the whole record meanwhile.
    assert_eq!(body(&http_get(server.addr, &path).await).len() as u64, size);
    assert_eq!(
        metric(server.addr, "orion_records_built_total").await,
        Some(1)
    );
    drop(readers);
    server.shutdown();
    remove_db(&db);
}

#[tokio::test]
async fn a_reader_that_stops_reading_is_dropped_at_the_record_deadline() {
    let db = temp_db("records-deadline");
    let room = long_game(&db, 3_000).await;
    let clock = Arc::new(ManualClock::new(T0 + 10_000));
    let deadline = Duration::from_millis(300);
    let config = Config {
        db: db.clone(),
        clock: clock.clone(),
        record_timeout: deadline,
        ..Config::default()
    };
    let server = TestServer::start_config(config, clock, Some(4096));
    let path = format!("/g/{room}.txt");
    let whole = http_get(server.addr, &path).await;
    let size = whole.len();
    assert!(whole.starts_with("HTTP/1.1 200") && size > 100_000);

    let mut reader = ask_and_never_read(server.addr, &path).await;
    let mut head = [0u8; 12];
    tokio::time::timeout(PATIENCE, reader.read_exact(&mut head))
        .await
        .expect("an answer")
        .expect("read");
    assert_eq!(&head, b"HTTP/1.1 200");
    // The deadline is real time on the server's own runtime: wait it out, reading nothing.
    tokio::time::sleep(deadline * 4).await;
    let got = head.len() + drain(&mut reader).await;
    assert!(
        got < size,
        "dropped part way: {got} of {size} bytes reached a reader that stopped reading"
    );
    server.shutdown();
    remove_db(&db);
}
