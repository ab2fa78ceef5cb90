//! The client's HTTP: a `GET` or a `POST` of JSON to the server the client plays on (the
//! lessons' API is served on the same host and port as `/ws`), over `hyper`'s HTTP/1 client,
//! one connection a request. Bounded: the whole exchange by [`WAIT`], an answer's body by
//! [`MAX_BODY`].

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper::header::{CONTENT_TYPE, HOST};
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use std::time::Duration;

/// Longest an exchange may take, connection included.
pub const WAIT: Duration = Duration::from_secs(15);
/// Largest answer read (a lesson with every step's start is some tens of KB).
pub const MAX_BODY: usize = 4 << 20;

/// Where the server answers HTTP: its `host:port`, from the URL the client plays on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Server {
    /// `host:port`.
    authority: String,
}

impl Server {
    /// The server of `url`: `ws://HOST:PORT/ws` as `orion play` takes it, or
    /// `http://HOST:PORT` (the port 80 when left out).
    pub fn from_url(url: &str) -> Result<Server, String> {
        let rest = ["ws://", "http://"]
            .iter()
            .find_map(|scheme| url.strip_prefix(scheme))
            .ok_or_else(|| {
                format!("`{url}`: the server is ws://HOST:PORT/ws or http://HOST:PORT")
            })?;
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        if authority.is_empty() || authority.contains('@') {
            return Err(format!("`{url}`: no host in it"));
        }
        let has_port = match authority.rsplit_once(':') {
            // `[::1]` has colons of its own; a port follows the bracket.
            Some((host, port)) => !host.ends_with('[') && !port.ends_with(']') && !port.is_empty(),
            None => false,
        };
        let authority = if has_port {
            authority.to_string()
        } else {
            format!("{authority}:80")
        };
        Ok(Server { authority })
    }

    /// `GET path`: the body of a 200, or what the server said instead.
    pub async fn get(&self, path: &str) -> Result<String, String> {
        self.exchange(Method::GET, path, None).await
    }

    /// `POST path` with a JSON body: the body of a 200, or what the server said instead.
    pub async fn post(&self, path: &str, json: String) -> Result<String, String> {
        self.exchange(Method::POST, path, Some(json)).await
    }

    async fn exchange(
        &self,
        method: Method,
        path: &str,
        json: Option<String>,
    ) -> Result<String, String> {
        let within = tokio::time::timeout(WAIT, self.send(method, path, json)).await;
        within.unwrap_or_else(|_| {
            Err(format!(
                "the server at {} did not answer within {} s",
                self.authority,
                WAIT.as_secs()
            ))
        })
    }

    async fn send(
        &self,
        method: Method,
        path: &str,
        json: Option<String>,
    ) -> Result<String, String> {
        let unreachable = |e: &dyn std::fmt::Display| {
            format!("cannot reach the server at {}: {e}", self.authority)
        };
        let stream = tokio::net::TcpStream::connect(&self.authority)
            .await
            .map_err(|e| unreachable(&e))?;
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| unreachable(&e))?;
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(HOST, &self.authority);
        if json.is_some() {
            request = request.header(CONTENT_TYPE, "application/json");
        }
        let request = request
            .body(Full::new(Bytes::from(json.unwrap_or_default())))
            .map_err(|e| format!("{path}: {e}"))?;
        let exchange = async {
            let response = sender
                .send_request(request)
                .await
                .map_err(|e| unreachable(&e))?;
            let status = response.status();
            let body = Limited::new(response.into_body(), MAX_BODY)
                .collect()
                .await
                .map_err(|e| format!("{path}: the answer was cut off: {e}"))?
                .to_bytes();
            let text = String::from_utf8_lossy(&body).trim().to_string();
            match status {
                StatusCode::OK => Ok(text),
                _ if text.is_empty() => Err(format!("{path}: {status}")),
                _ => Err(text),
            }
        };
        // The connection is driven beside the exchange; it ends once the answer is read.
        let mut exchange = std::pin::pin!(exchange);
        let mut conn = std::pin::pin!(conn);
        tokio::select! {
            answer = &mut exchange => answer,
            ended = &mut conn => match ended {
                Ok(()) => exchange.await,
                Err(e) => Err(unreachable(&e)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_of_the_url_the_client_plays_on() {
        let at = |url: &str| Server::from_url(url).map(|s| s.authority);
        assert_eq!(at("ws://127.0.0.1:7878/ws"), Ok("127.0.0.1:7878".into()));
        assert_eq!(at("http://localhost:8080"), Ok("localhost:8080".into()));
        assert_eq!(at("ws://example.org/ws"), Ok("example.org:80".into()));
        assert_eq!(at("ws://[::1]:9000/ws"), Ok("[::1]:9000".into()));
        assert_eq!(at("ws://[::1]/ws"), Ok("[::1]:80".into()));
        assert!(at("wss://example.org/ws")
            .unwrap_err()
            .contains("ws://HOST:PORT/ws"));
        assert!(at("ws:///ws").unwrap_err().contains("no host"));
    }
}
