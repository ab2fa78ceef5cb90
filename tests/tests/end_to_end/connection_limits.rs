//! Connection-level limits, spoken by hand where the WebSocket library would hide the attack:
//! half-open handshakes and silent sockets are closed in bounded time and cannot lock honest
//! players out; broken frames get the close codes of RFC 6455; unknown paths get 404, foreign
//! origins 403.

use orion_tests::{
    http_get, raw_frame, raw_read_until_close, raw_upgrade, raw_upgrade_then, start_room, Client,
    TestServer,
};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The handshake and hello timeouts of these tests: short, so nothing waits long.
const SHORT: Duration = Duration::from_millis(200);

/// A request line and one header, never the blank line that ends the head.
async fn half_open(server: &TestServer) -> TcpStream {
    let mut stream = TcpStream::connect(server.addr).await.expect("connect");
    let start = format!("GET /ws HTTP/1.1\r\nhost: {}\r\n", server.addr);
    stream.write_all(start.as_bytes()).await.expect("write");
    stream
}

#[tokio::test]
async fn a_half_open_handshake_is_closed_within_the_timeout() {
    let server = TestServer::start_tuned(|c| c.handshake_timeout = SHORT);
    let mut stream = half_open(&server).await;
    let started = std::time::Instant::now();
    let mut rest = Vec::new();
    tokio::time::timeout(orion_tests::PATIENCE, stream.read_to_end(&mut rest))
        .await
        .expect("the server closes a half-open handshake")
        .ok();
    assert!(started.elapsed() >= SHORT / 2, "closed before its time");
    assert!(!String::from_utf8_lossy(&rest).contains(" 101 "));
}

#[tokio::test]
async fn half_open_sockets_cannot_lock_out_an_honest_player() {
    // Every place taken by a half-open handshake: honest clients wait in the backlog only
    // until those time out.
    let server = TestServer::start_tuned(|c| {
        c.max_connections = 50;
        c.handshake_timeout = SHORT;
    });
    let mut attackers = Vec::new();
    for _ in 0..50 {
        attackers.push(half_open(&server).await);
    }
    let mut players = vec![server.player("s").await, server.player("n").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    players[0]
        .play(&room, "click", json!({"click": "A2L"}))
        .await;
    drop(attackers);
}

#[tokio::test]
async fn a_socket_that_never_says_hello_gets_an_error_and_close_1008() {
    let server = TestServer::start_tuned(|c| c.hello_timeout = SHORT);
    let mut silent = Client::connect(&server.url()).await;
    let mut polite = server.player("polite").await;
    let e = silent.expect_t("error").await;
    assert_eq!(e["code"], "bad_request");
    assert_eq!(e["message"], "say hello within 0.2 s");
    assert_eq!(silent.expect_close().await, Some(1008));
    // A client that said hello in time is not touched by the deadline.
    assert_eq!(polite.request(json!({"t": "ping"})).await["t"], "pong");
}

#[tokio::test]
async fn the_hello_deadline_defaults_to_ten_seconds() {
    assert_eq!(orion_server::HELLO_TIMEOUT, Duration::from_secs(10));
    assert_eq!(orion_server::HANDSHAKE_TIMEOUT, Duration::from_secs(10));
    let server = TestServer::start();
    let mut silent = Client::connect(&server.url()).await;
    // Well inside ten seconds the connection still answers, hello or not.
    assert_eq!(silent.request(json!({"t": "ping"})).await["t"], "pong");
}

/// Upgrades by hand, sends `frame`, and returns the server's texts and close code.
async fn send_raw(server: &TestServer, frame: &[u8]) -> (Vec<Value>, Option<u16>) {
    let (mut stream, head) = raw_upgrade(server.addr, "/ws", &[]).await;
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    stream.write_all(frame).await.expect("write");
    let (texts, code) = raw_read_until_close(&mut stream).await;
    let texts = texts
        .iter()
        .map(|t| serde_json::from_str(t).expect("JSON"))
        .collect();
    (texts, code)
}

#[tokio::test]
async fn frames_sent_right_behind_the_upgrade_request_are_not_lost() {
    let server = TestServer::start();
    // A request, then a frame that makes the server close once it has answered.
    let mut behind = raw_frame(0x81, br#"{"t":"ping","id":1}"#, true);
    behind.extend(raw_frame(0x81, &[0xff], true));
    let (mut stream, head) = raw_upgrade_then(server.addr, "/ws", &[], &behind).await;
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    let (texts, code) = raw_read_until_close(&mut stream).await;
    // Compared as JSON: the server writes a typed reply's fields in the type's order.
    let first: Option<Value> = texts
        .first()
        .map(|t| serde_json::from_str(t).expect("JSON"));
    assert_eq!(first, Some(json!({"t": "pong", "re": 1})));
    assert_eq!(code, Some(1007), "{texts:?}");
}

#[tokio::test]
async fn a_text_frame_of_invalid_utf8_gets_close_1007() {
    let server = TestServer::start();
    let (texts, code) = send_raw(&server, &raw_frame(0x81, &[0x7b, 0xff, 0xfe, 0x7d], true)).await;
    assert_eq!(code, Some(1007), "{texts:?}");
    assert_eq!(texts[0]["code"], "bad_request", "{texts:?}");
}

#[tokio::test]
async fn protocol_violations_get_close_1002() {
    let server = TestServer::start();
    let ping = br#"{"t":"ping"}"#;
    for (what, frame) in [
        ("an unmasked frame", raw_frame(0x81, ping, false)),
        ("RSV1 set", raw_frame(0xc1, ping, true)),
        ("opcode 0x3", raw_frame(0x83, ping, true)),
        ("a fragmented ping", raw_frame(0x09, b"", true)),
    ] {
        let (texts, code) = send_raw(&server, &frame).await;
        assert_eq!(code, Some(1002), "{what}: {texts:?}");
        assert_eq!(texts.len(), 1, "{what}: {texts:?}");
        assert_eq!(texts[0]["code"], "bad_request", "{what}: {texts:?}");
    }
    // The server is unharmed.
    assert_eq!(
        server
            .player("after")
            .await
            .request(json!({"t": "ping"}))
            .await["t"],
        "pong"
    );
}

#[tokio::test]
async fn unknown_paths_get_a_plain_404() {
    let server = TestServer::start();
    let answer = http_get(server.addr, "/nope").await;
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
    assert!(answer.contains("content-type: text/plain"), "{answer}");
    assert!(
        answer.ends_with("nothing at /nope: the WebSocket is at /ws\n"),
        "{answer}"
    );
}

#[tokio::test]
async fn an_upgrade_to_another_path_gets_404_and_is_not_upgraded() {
    let server = TestServer::start();
    let (mut stream, answer) = raw_upgrade(server.addr, "/nope", &[]).await;
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
    // The connection is closed after the answer: nothing more comes, no frame goes through.
    let _ = stream.write_all(&raw_frame(0x81, b"{}", true)).await;
    let mut rest = Vec::new();
    let _ = stream.read_to_end(&mut rest).await;
    assert!(rest.is_empty(), "{rest:?}");
}

#[tokio::test]
async fn malformed_upgrades_get_400_or_426_with_a_reason() {
    use tokio::io::AsyncWriteExt;
    let server = TestServer::start();
    for (request, status, reason) in [
        (
            "GET /ws HTTP/1.1\r\nhost: x\r\n\r\n",
            "400",
            "needs `Connection: upgrade`",
        ),
        (
            "GET /ws HTTP/1.1\r\nhost: x\r\nconnection: upgrade\r\nupgrade: websocket\r\n\
             sec-websocket-version: 13\r\n\r\n",
            "400",
            "Sec-WebSocket-Key",
        ),
        (
            "GET /ws HTTP/1.1\r\nhost: x\r\nconnection: upgrade\r\nupgrade: websocket\r\n\
             sec-websocket-version: 8\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
            "426",
            "version 13",
        ),
    ] {
        let mut stream = TcpStream::connect(server.addr).await.expect("connect");
        stream.write_all(request.as_bytes()).await.expect("write");
        let mut answer = String::new();
        tokio::time::timeout(orion_tests::PATIENCE, stream.read_to_string(&mut answer))
            .await
            .expect("an answer in time")
            .expect("read");
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status}")),
            "{request}: {answer}"
        );
        assert!(answer.contains(reason), "{request}: {answer}");
    }
}

#[tokio::test]
async fn health_and_metrics_answer_and_close() {
    let server = TestServer::start();
    // `http_get` reads to the end: each answer closes its connection.
    let health = http_get(server.addr, "/healthz").await;
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    assert!(health.ends_with("\r\n\r\nok\n"), "{health}");
    let metrics = http_get(server.addr, "/metrics").await;
    assert!(metrics.starts_with("HTTP/1.1 200"), "{metrics}");
    assert!(
        metrics
            .lines()
            .any(|l| l == "orion_oversized_replies_total 0"),
        "{metrics}"
    );
}

#[tokio::test]
async fn a_cross_site_origin_is_refused_with_403() {
    let server = TestServer::start();
    let (_, answer) = raw_upgrade(server.addr, "/ws", &["origin: https://evil.example"]).await;
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
    assert!(
        answer.contains("a page from https://evil.example may not open a WebSocket here"),
        "{answer}"
    );
    let refused = Client::connect_with(&server.url(), &[("origin", "https://evil.example")]).await;
    assert!(refused.is_err());
}

#[tokio::test]
async fn same_origin_no_origin_and_allowed_origins_are_accepted() {
    let server = TestServer::start_tuned(|c| {
        c.allowed_origins = vec!["https://Orion.example/".into()];
    });
    let same = format!("http://{}", server.addr);
    for origin in [Some(same.as_str()), None, Some("https://orion.example")] {
        let headers: Vec<(&'static str, &str)> = origin.iter().map(|o| ("origin", *o)).collect();
        let mut c = Client::connect_with(&server.url(), &headers)
            .await
            .unwrap_or_else(|e| panic!("origin {origin:?} refused: {e}"));
        let welcome = c
            .request(json!({"t": "hello", "name": "web", "version": 1}))
            .await;
        assert_eq!(welcome["t"], "welcome", "{origin:?}: {welcome}");
    }
    // Another port on the same host is another origin.
    let other_port = format!("http://127.0.0.1:{}", server.addr.port() ^ 1);
    let (_, answer) = raw_upgrade(server.addr, "/ws", &[&format!("origin: {other_port}")]).await;
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
}
