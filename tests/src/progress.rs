//! Lesson progress kept on the server for a claimed account (`/api/progress`), asserted the
//! same way on every store: `tests/tests/end_to_end/progress.rs` runs it on SQLite,
//! `tests/tests/end_to_end/postgres.rs` on PostgreSQL.

use crate::TestServer;
use serde_json::{json, Value};

/// One HTTP request over a plain socket, with an optional `Authorization: Bearer` token; the
/// status and the body.
pub async fn http(
    server: &TestServer,
    method: &str,
    path: &str,
    token: Option<&str>,
) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(server.addr)
        .await
        .expect("connects");
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{auth}Content-Length: 0\r\n\r\n",
        server.addr
    );
    s.write_all(req.as_bytes()).await.expect("sent");
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out).to_string();
    let status = (text.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = (text.split_once("\r\n\r\n"))
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

/// A claimed account's steps done are kept (the most it was told, per lesson), seen from
/// another device's token after a login, and refused in words for a guest, a bad or missing
/// token, an unknown lesson and a step out of range.
pub async fn lesson_progress_follows_the_account(server: &TestServer) {
    let password = "correct horse battery";
    let mut ann = server.player("Ann").await;
    let w = ann
        .request(json!({"t": "register", "password": password}))
        .await;
    assert_eq!(w["account"], true, "{w}");
    let token = ann.token.clone();
    let (status, body) = http(server, "GET", "/api/progress", Some(&token)).await;
    assert_eq!((status, body.trim()), (200, "{\"progress\":{}}"));
    let (status, body) = http(server, "POST", "/api/progress/hydra-2/3", Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&body).expect("JSON")["steps"],
        3
    );
    // Fewer steps later (another device that started again) keep the most.
    let (_, body) = http(server, "POST", "/api/progress/hydra-2/1", Some(&token)).await;
    assert_eq!(
        serde_json::from_str::<Value>(&body).expect("JSON")["steps"],
        3
    );
    http(server, "POST", "/api/progress/basics/5", Some(&token)).await;
    // Another device logs in: its own token sees the same progress.
    let mut other = server.player("someone").await;
    let w = other
        .request(json!({"t": "login", "name": "ann", "password": password}))
        .await;
    assert_eq!(w["t"], "welcome", "{w}");
    let second = w["token"].as_str().expect("a token").to_string();
    assert_ne!(second, token);
    let (status, body) = http(server, "GET", "/api/progress", Some(&second)).await;
    assert_eq!(status, 200);
    let progress: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(progress["progress"], json!({"basics": 5, "hydra-2": 3}));
    // Refusals, in words.
    let guest = server.player("guest").await;
    let (status, body) = http(server, "GET", "/api/progress", Some(&guest.token)).await;
    assert_eq!(status, 403);
    assert!(body.contains("claim your name"), "{body}");
    let (status, body) = http(server, "GET", "/api/progress", None).await;
    assert_eq!(status, 401);
    assert!(body.contains("Authorization: Bearer"), "{body}");
    let (status, body) = http(server, "GET", "/api/progress", Some("not-a-token")).await;
    assert_eq!(status, 401);
    assert!(body.contains("no one's"), "{body}");
    let (status, body) = http(server, "POST", "/api/progress/chess/1", Some(&token)).await;
    assert_eq!((status, body.trim()), (404, "no lesson `chess`"));
    for bad in ["0", "99", "x"] {
        let path = format!("/api/progress/hydra-2/{bad}");
        let (status, body) = http(server, "POST", &path, Some(&token)).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(body.contains("lesson `hydra-2` has"), "{body}");
    }
    let (status, _) = http(server, "POST", "/api/progress", Some(&token)).await;
    assert_eq!(status, 405);
    let (_, body) = http(server, "GET", "/api/progress", Some(&token)).await;
    let progress: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(
        progress["progress"]["hydra-2"], 3,
        "nothing refused was kept"
    );
}
