//! Plain HTTP on the WebSocket port: the first line of each new connection is peeked (not
//! consumed) to route `/healthz` and `/metrics` here and everything else to the WebSocket
//! upgrade, which then reads the same bytes itself.

use std::io;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Longest request head we look at.
const MAX_HEAD: usize = 8 * 1024;
/// How long a client may take to send its request line.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);

/// Where a new connection is going.
#[derive(Debug, PartialEq, Eq)]
pub enum Route {
    /// `GET /healthz`.
    Health,
    /// `GET /metrics`.
    Metrics,
    /// Anything else: a WebSocket upgrade.
    WebSocket,
}

/// Peeks at the request line and routes it.
pub async fn route(stream: &TcpStream) -> io::Result<Route> {
    let mut buf = vec![0u8; MAX_HEAD];
    let peeked = tokio::time::timeout(HEAD_TIMEOUT, async {
        loop {
            let n = stream.peek(&mut buf).await?;
            if n == 0 {
                return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
            }
            if let Some(end) = buf[..n].windows(2).position(|w| w == b"\r\n") {
                return Ok(end);
            }
            if n == buf.len() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "request line too long",
                ));
            }
            // Only part of the line has arrived: wait a little for the rest.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .map_err(|_| io::Error::from(io::ErrorKind::TimedOut))??;
    let line = String::from_utf8_lossy(&buf[..peeked]);
    let path = line.split_whitespace().nth(1).unwrap_or("");
    Ok(match path {
        "/healthz" => Route::Health,
        "/metrics" => Route::Metrics,
        _ => Route::WebSocket,
    })
}

/// Reads the rest of the request head and answers with `body`, then closes.
pub async fn respond(mut stream: TcpStream, content_type: &str, body: &str) -> io::Result<()> {
    let mut head = Vec::with_capacity(512);
    let mut chunk = [0u8; 1024];
    let _ = tokio::time::timeout(HEAD_TIMEOUT, async {
        while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < MAX_HEAD {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => head.extend_from_slice(&chunk[..n]),
            }
        }
    })
    .await;
    let response = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(response.as_bytes()).await?;
    stream.shutdown().await
}
