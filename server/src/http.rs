//! HTTP on the WebSocket port, served by hyper: `GET /ws` upgrades to a WebSocket (after the
//! Origin check), `GET /healthz` and `GET /metrics` answer in plain text, `GET /`, `/r/ROOM`,
//! `/i/CODE`, `/g/ROOM`, `/learn[/ID]`, `/rules[/GAME]` and `/assets/…` serve the embedded web
//! client (`assets`; `/rules/GAME` of no game with a 404), `GET /g/ROOM.txt` a finished
//! game's record (`export`), `GET /catalogue.json` the games on offer (`catalogue`),
//! `/api/lessons…` and `/api/progress…` the lessons and a claimed account's progress in them
//! (`lessons`), `/api/rules…` the rules pages (`rules`), anything else gets a
//! plain-text 404. Each TCP connection has one bounded HTTP exchange, then either becomes a
//! WebSocket (handed back to the caller as a tungstenite stream) or is closed.
//!
//! Policies, each bound stated where it is defined:
//! * the request head must arrive, and the whole exchange end with a 101 or a response, within
//!   `Config::handshake_timeout` (`HANDSHAKE_TIMEOUT`): a client that is slower, or never sends
//!   the blank line, is disconnected and its connection permit freed;
//! * a request head over `MAX_HEAD` bytes gets 431; every plain response carries
//!   `connection: close`, so no idle keep-alive connection holds a permit;
//! * a game record (`/g/ROOM.txt`) is the kept text shared by every reader, written out
//!   16 KiB at a time (`records::RecordBody`; hyper's write buffer is `MAX_HEAD` too); once
//!   it is ready the exchange's deadline becomes `Config::record_timeout` (`RECORD_TIMEOUT`)
//!   from then, in place of the handshake's: a reader that stops reading holds some 32 KiB
//!   until it is dropped then;
//! * a browser may open the WebSocket only from a page of this server (its `Origin` names the
//!   `Host` it asks, or the host and scheme a trusted proxy forwards, `proxy`), of
//!   `--public-url`, or from an origin listed with `--allow-origin`; any other gets 403. A
//!   request with no `Origin` is not from a browser (terminal client, bots) and is let in;
//! * `GET /readyz` answers 200 only when the store (and the bus, in a cluster) answers within
//!   `readiness::PATIENCE`, 503 with the reason otherwise; `/healthz` answers while the
//!   process serves HTTP at all.

use crate::assets::{self, Asset};
use crate::connection;
use crate::proxy::{self, Forwarded};
use crate::records::RecordBody;
use crate::shared::Shared;
use http_body_util::{Either, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderMap, HeaderName, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::upgrade::OnUpgrade;
use hyper::{Method, Request, Response, StatusCode, Version};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::Role;
use tokio_tungstenite::WebSocketStream;

/// How long a new connection has to send its request head and finish its HTTP exchange (the
/// default of `Config::handshake_timeout`). Ten seconds is far more than any honest client
/// needs on any network, and bounds what a client that opens sockets and says nothing can
/// hold: at most `MAX_CONNECTIONS` permits for this long each.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a reader of a game record has to take it whole once it is ready (a 758 KB
/// record, 3,000 turns, needs 200 kbit/s); it replaces what is left of `HANDSHAKE_TIMEOUT`.
pub const RECORD_TIMEOUT: Duration = Duration::from_secs(30);
/// Largest request head, in bytes (hyper's read buffer limit; hyper answers 431 above it). A
/// browser's upgrade request is well under 2 KiB, cookies included.
const MAX_HEAD: usize = 16 * 1024;

/// An upgraded connection, as `connection::serve` takes it.
pub type Socket = WebSocketStream<TcpStream>;

/// A response body: a plain answer whole, or a game record in slices.
type Answer = Response<Either<Full<Bytes>, RecordBody>>;

/// Why a connection ended before it became a WebSocket or got its response.
#[derive(Debug, thiserror::Error)]
pub enum HandshakeError {
    /// The client did not finish its request in time.
    #[error("no complete HTTP request within {0:?}")]
    TimedOut(Duration),
    /// The client did not take a game record within the record deadline.
    #[error("the record was not taken within {0:?}")]
    NotTaken(Duration),
    /// A malformed request, or the socket failed (hyper has answered what it could).
    #[error("HTTP: {0}")]
    Http(#[from] hyper::Error),
    /// The 101 went out but the connection could not be taken over.
    #[error("upgrade failed: {0}")]
    Upgrade(hyper::Error),
    /// hyper handed back an upgraded connection of a type this server never gave it.
    #[error("the upgraded connection is not the TCP stream it was")]
    NotTcp,
}

/// Serves the HTTP exchange of one new connection: `Ok(Some(socket))` when it upgraded to a
/// WebSocket, `Ok(None)` when it got a plain answer (or the server is shutting down).
pub async fn handshake(
    stream: TcpStream,
    peer: IpAddr,
    shared: &Shared,
) -> Result<Option<(Socket, IpAddr)>, HandshakeError> {
    let timeout = shared.handshake_timeout;
    // Filled by the service when it accepts an upgrade, with the client's address (`proxy`);
    // read once the 101 is out.
    let upgrade: Mutex<Option<(OnUpgrade, IpAddr)>> = Mutex::new(None);
    // Set by the service when it answers with a record: the exchange's new deadline.
    let (deadline, mut new_deadline) = watch::channel(None::<Instant>);
    let service = service_fn(|req| {
        let (upgrade, deadline) = (&upgrade, &deadline);
        async move { Ok::<_, Infallible>(answer(req, peer, shared, upgrade, deadline).await) }
    });
    let conn = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(timeout)
        .max_buf_size(MAX_HEAD)
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    let mut shutdown = shared.shutdown();
    tokio::pin!(conn);
    let sleep = tokio::time::sleep(timeout);
    tokio::pin!(sleep);
    let mut answering_record = false;
    loop {
        tokio::select! {
            done = &mut conn => {
                done?;
                break;
            }
            Ok(()) = new_deadline.changed() => {
                if let Some(at) = *new_deadline.borrow_and_update() {
                    sleep.as_mut().reset(at);
                    answering_record = true;
                }
            }
            _ = &mut sleep => {
                return Err(if answering_record {
                    HandshakeError::NotTaken(shared.record_timeout)
                } else {
                    HandshakeError::TimedOut(timeout)
                });
            }
            _ = shutdown.wait_for(|stopping| *stopping) => return Ok(None),
        }
    }
    let pending = upgrade.lock().ok().and_then(|mut slot| slot.take());
    let Some((pending, client)) = pending else {
        return Ok(None);
    };
    let upgraded = pending.await.map_err(HandshakeError::Upgrade)?;
    // Back to the bare TcpStream, so an upgraded connection costs what it did before hyper:
    // no boxed stream, no adapter.
    let parts = upgraded
        .downcast::<TokioIo<TcpStream>>()
        .map_err(|_| HandshakeError::NotTcp)?;
    let stream = parts.io.into_inner();
    let config = Some(connection::ws_config());
    let socket = if parts.read_buf.is_empty() {
        WebSocketStream::from_raw_socket(stream, Role::Server, config).await
    } else {
        // The client sent its first frames right behind the request: hyper read them already.
        let early = parts.read_buf.to_vec();
        WebSocketStream::from_partially_read(stream, early, Role::Server, config).await
    };
    Ok(Some((socket, client)))
}

/// The response to one request from TCP peer `peer`; an accepted upgrade also leaves its
/// `OnUpgrade` and the client's address in `upgrade`.
async fn answer(
    req: Request<Incoming>,
    peer: IpAddr,
    shared: &Shared,
    upgrade: &Mutex<Option<(OnUpgrade, IpAddr)>>,
    deadline: &watch::Sender<Option<Instant>>,
) -> Answer {
    let path = req.uri().path();
    if req.method() == Method::GET && path.starts_with("/g/") && path.ends_with(".txt") {
        let room = &path[3..path.len() - 4];
        return game_record(room, req.uri().query(), shared, deadline).await;
    }
    if crate::notify::routes::serves(path) {
        return crate::notify::routes::answer(req, &shared.notifier)
            .await
            .map(Either::Left);
    }
    if path == "/api/lessons" || path.starts_with("/api/lessons/") {
        return crate::lessons::answer(req, shared).await.map(Either::Left);
    }
    if path == "/api/progress" || path.starts_with("/api/progress/") {
        return crate::lessons::progress(req, shared)
            .await
            .map(Either::Left);
    }
    if path == "/api/rules" || path.starts_with("/api/rules/") {
        return crate::rules::answer(&req, shared).map(Either::Left);
    }
    if path == "/readyz" && req.method() == Method::GET {
        return match crate::readiness::check(shared).await {
            Ok(()) => plain(StatusCode::OK, "text/plain", "ready\n".into()),
            Err(reason) => plain(
                StatusCode::SERVICE_UNAVAILABLE,
                "text/plain",
                format!("not ready: {reason}\n"),
            ),
        }
        .map(Either::Left);
    }
    plain_answer(req, peer, shared, upgrade).map(Either::Left)
}

/// Every answer but a record's.
fn plain_answer(
    mut req: Request<Incoming>,
    peer: IpAddr,
    shared: &Shared,
    upgrade: &Mutex<Option<(OnUpgrade, IpAddr)>>,
) -> Response<Full<Bytes>> {
    let path = req.uri().path();
    if req.method() == Method::GET {
        if let Some(asset) = assets::find(path) {
            if crate::rules::missing(path, &shared.systems) {
                // The page says in words that there is no such game.
                let mut response = static_file(asset, &HeaderMap::new());
                *response.status_mut() = StatusCode::NOT_FOUND;
                return response;
            }
            return static_file(asset, req.headers());
        }
    }
    match (req.method(), path) {
        (&Method::GET, "/ws") => {
            let from = proxy::forwarded(peer, req.headers(), &shared.trusted_proxies);
            match check_upgrade(&req, &shared.allowed_origins, &from) {
                Ok(accept) => {
                    if let Ok(mut slot) = upgrade.lock() {
                        *slot = Some((hyper::upgrade::on(&mut req), from.client));
                    }
                    switching_protocols(accept)
                }
                Err(refused) => refused.into_response(),
            }
        }
        (&Method::GET, "/healthz") => plain(StatusCode::OK, "text/plain", "ok\n".into()),
        (&Method::GET, "/catalogue.json") => plain(
            StatusCode::OK,
            "application/json",
            crate::catalogue::json(&shared.systems),
        ),
        (&Method::GET, "/metrics") => plain(
            StatusCode::OK,
            "text/plain; version=0.0.4",
            shared.metrics.render(&shared.lobby.counts()),
        ),
        (_, "/ws" | "/healthz" | "/readyz" | "/metrics") => {
            let mut response = plain(
                StatusCode::METHOD_NOT_ALLOWED,
                "text/plain",
                format!("{path} answers GET only\n"),
            );
            response
                .headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET"));
            response
        }
        _ => plain(
            StatusCode::NOT_FOUND,
            "text/plain",
            format!("nothing at {path}: the WebSocket is at /ws\n"),
        ),
    }
}

/// `/g/ROOM.txt[?code=CODE]`: a finished game's record as plain text; 404 (with the reason)
/// for a room that is unknown, unfinished, or private without its invite code. A record
/// makes the exchange's deadline `record_timeout` from now (through `deadline`).
async fn game_record(
    room: &str,
    query: Option<&str>,
    shared: &Shared,
    deadline: &watch::Sender<Option<Instant>>,
) -> Answer {
    let code = query
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix("code="));
    match crate::export::text(shared, room, code).await {
        Ok(text) => {
            deadline.send_replace(Some(Instant::now() + shared.record_timeout));
            let mut response = Response::new(Either::Right(RecordBody::new(text)));
            let headers = response.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            );
            headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
            response
        }
        Err(refusal) => {
            let status = match refusal.code {
                crate::protocol::Code::NotFound | crate::protocol::Code::BadRequest => {
                    StatusCode::NOT_FOUND
                }
                _ => StatusCode::INTERNAL_SERVER_ERROR,
            };
            plain(status, "text/plain", format!("{}\n", refusal.message)).map(Either::Left)
        }
    }
}

/// An upgrade request refused, with the reason the client is told.
#[derive(Debug)]
struct Refused {
    /// 400 for a malformed request, 403 for a foreign origin, 426 for another WebSocket version.
    status: StatusCode,
    /// What was wrong, in words.
    reason: String,
}

impl Refused {
    fn new(status: StatusCode, reason: impl Into<String>) -> Refused {
        Refused {
            status,
            reason: reason.into(),
        }
    }

    fn into_response(self) -> Response<Full<Bytes>> {
        let mut response = plain(self.status, "text/plain", format!("{}\n", self.reason));
        if self.status == StatusCode::UPGRADE_REQUIRED {
            response.headers_mut().insert(
                header::SEC_WEBSOCKET_VERSION,
                HeaderValue::from_static("13"),
            );
        }
        response
    }
}

/// Checks an upgrade request (RFC 6455 section 4.2.1, then the Origin policy) and returns the
/// `Sec-WebSocket-Accept` value for its 101.
fn check_upgrade(
    req: &Request<Incoming>,
    allowed: &[String],
    from: &Forwarded,
) -> Result<HeaderValue, Refused> {
    let bad = |reason: &str| Refused::new(StatusCode::BAD_REQUEST, reason);
    let headers = req.headers();
    if req.version() != Version::HTTP_11 {
        return Err(bad("a WebSocket upgrade needs HTTP/1.1"));
    }
    if !has_token(headers, header::CONNECTION, "upgrade") {
        return Err(bad(
            "this is the WebSocket endpoint: the request needs `Connection: upgrade`",
        ));
    }
    if !has_token(headers, header::UPGRADE, "websocket") {
        return Err(bad(
            "this is the WebSocket endpoint: the request needs `Upgrade: websocket`",
        ));
    }
    if !matches!(headers.get(header::SEC_WEBSOCKET_VERSION), Some(v) if v.as_bytes() == b"13") {
        return Err(Refused::new(
            StatusCode::UPGRADE_REQUIRED,
            "only WebSocket version 13 is spoken here: send `Sec-WebSocket-Version: 13`",
        ));
    }
    let key = match headers.get(header::SEC_WEBSOCKET_KEY) {
        Some(key) if is_websocket_key(key.as_bytes()) => key,
        _ => {
            return Err(bad(
                "`Sec-WebSocket-Key` must be 16 random bytes in base64 (24 characters)",
            ))
        }
    };
    check_origin(headers, allowed, from)?;
    let accept = derive_accept_key(key.as_bytes());
    HeaderValue::from_str(&accept).map_err(|_| bad("unusable `Sec-WebSocket-Key`"))
}

/// The Origin policy (see the module doc); `from` says what a trusted proxy said of the host
/// and scheme the client asked for.
fn check_origin(headers: &HeaderMap, allowed: &[String], from: &Forwarded) -> Result<(), Refused> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let forbidden = |origin: &str| {
        Refused::new(
            StatusCode::FORBIDDEN,
            format!(
                "a page from {origin} may not open a WebSocket here: only pages of this server \
                 and origins it lists with --allow-origin may"
            ),
        )
    };
    let Ok(origin) = origin.to_str() else {
        return Err(forbidden("an unreadable origin"));
    };
    let origin = origin.to_ascii_lowercase();
    if allowed.contains(&origin) {
        return Ok(());
    }
    let host = match &from.host {
        Some(host) => Some(host.as_str()),
        None => headers.get(header::HOST).and_then(|h| h.to_str().ok()),
    };
    // Behind a proxy that says which scheme the client used, the page's must be that one.
    let scheme_ok = match &from.proto {
        Some(proto) => origin.starts_with(&format!("{proto}://")),
        None => true,
    };
    match host {
        Some(host) if scheme_ok && same_origin(&origin, host) => Ok(()),
        _ => Err(forbidden(&origin)),
    }
}

/// Whether `origin` (lower case) is a page of the server the client reached as `host`: scheme
/// http or https, and the same host and port (a default port may be written or not).
fn same_origin(origin: &str, host: &str) -> bool {
    let (authority, default_port) = if let Some(rest) = origin.strip_prefix("http://") {
        (rest, ":80")
    } else if let Some(rest) = origin.strip_prefix("https://") {
        (rest, ":443")
    } else {
        return false;
    };
    let host = host.to_ascii_lowercase();
    let bare = |a: &str| a.strip_suffix(default_port).unwrap_or(a).to_string();
    !authority.is_empty() && bare(authority) == bare(&host)
}

/// Normalises a `--allow-origin` value the way `check_origin` compares: lower case, no
/// trailing slash.
pub fn normalise_origin(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

/// The origin of `--public-url` (`https://orion.example/play` gives `https://orion.example`),
/// whose pages may open a WebSocket here: the page players load names it, whatever host
/// and scheme a proxy in between passes on.
pub fn origin_of(url: &str) -> Option<String> {
    let url = url.trim();
    let start = url.find("://")? + 3;
    let end = url[start..]
        .find(['/', '?', '#'])
        .map_or(url.len(), |i| start + i);
    (end > start).then(|| normalise_origin(&url[..end]))
}

/// Whether the comma-separated header `name` holds `token` (case-insensitive).
fn has_token(headers: &HeaderMap, name: HeaderName, token: &str) -> bool {
    headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim().eq_ignore_ascii_case(token))
}

/// Whether `key` looks like base64 of 16 bytes: 22 characters of the alphabet and `==`.
fn is_websocket_key(key: &[u8]) -> bool {
    key.len() == 24
        && key.ends_with(b"==")
        && key[..22]
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/')
}

fn switching_protocols(accept: HeaderValue) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::default());
    *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let headers = response.headers_mut();
    headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    headers.insert(header::SEC_WEBSOCKET_ACCEPT, accept);
    response
}

/// An embedded file of the web client, or a body-less 304 when the browser's copy (its
/// `If-None-Match`) is current. Closes the connection after it, like every plain answer.
fn static_file(asset: &'static Asset, headers: &HeaderMap) -> Response<Full<Bytes>> {
    let etag = asset.etag();
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    let mut response = if fresh {
        let mut r = Response::new(Full::default());
        *r.status_mut() = StatusCode::NOT_MODIFIED;
        r
    } else {
        Response::new(Full::new(Bytes::from_static(asset.body)))
    };
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(asset.content_type),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if let Ok(tag) = HeaderValue::from_str(etag) {
        h.insert(header::ETAG, tag);
    }
    h.insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// A plain answer that closes the connection after it (no keep-alive: one request each).
fn plain(status: StatusCode, content_type: &'static str, body: String) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_origin_is_scheme_http_or_https_and_the_host_asked() {
        for (origin, host, same) in [
            ("http://example.com", "example.com", true),
            ("https://example.com", "example.com", true),
            ("http://example.com:7878", "example.com:7878", true),
            ("http://example.com:80", "example.com", true),
            ("https://example.com", "example.com:443", true),
            ("http://127.0.0.1:7878", "127.0.0.1:7878", true),
            ("http://[::1]:7878", "[::1]:7878", true),
            ("http://example.com", "EXAMPLE.com", true),
            ("http://example.com:7879", "example.com:7878", false),
            ("http://evil.example", "example.com", false),
            ("http://example.com.evil", "example.com", false),
            ("https://example.com", "example.com:80", false),
            ("null", "example.com", false),
            ("file://example.com", "example.com", false),
            ("http://", "", false),
        ] {
            assert_eq!(same_origin(origin, host), same, "{origin} on {host}");
        }
    }

    /// Behind a TLS-terminating proxy: the page is `https://orion.example`, the proxy asks
    /// the server for `127.0.0.1:7878` over http and says so in its headers.
    #[test]
    fn behind_a_trusted_proxy_the_forwarded_host_and_scheme_are_the_pages() {
        let headers = |pairs: &[(&'static str, &'static str)]| {
            let mut h = HeaderMap::new();
            for (k, v) in pairs {
                h.append(*k, HeaderValue::from_static(v));
            }
            h
        };
        let proxy: std::net::IpAddr = "127.0.0.1".parse().unwrap();
        let trusted = vec!["127.0.0.1/32".parse().unwrap()];
        let forwarded = [
            ("origin", "https://orion.example"),
            ("host", "127.0.0.1:7878"),
            ("x-forwarded-host", "orion.example"),
            ("x-forwarded-proto", "https"),
        ];
        let h = headers(&forwarded);
        let from = proxy::forwarded(proxy, &h, &trusted);
        assert!(check_origin(&h, &[], &from).is_ok());
        // Not trusted: the headers are ignored, and the page is not this host's.
        let from = proxy::forwarded(proxy, &h, &[]);
        assert!(check_origin(&h, &[], &from).is_err());
        // The proxy says the client came over http: a page that says https is not it.
        let h = headers(&[
            ("origin", "https://orion.example"),
            ("x-forwarded-host", "orion.example"),
            ("x-forwarded-proto", "http"),
        ]);
        let from = proxy::forwarded(proxy, &h, &trusted);
        assert!(check_origin(&h, &[], &from).is_err());
        // `$host` drops the port; `--public-url` names the page's origin instead.
        let h = headers(&[("origin", "http://127.0.0.1:8080"), ("host", "127.0.0.1")]);
        let from = proxy::forwarded(proxy, &h, &[]);
        assert!(check_origin(&h, &[], &from).is_err());
        let public = origin_of("http://127.0.0.1:8080/").unwrap();
        assert!(check_origin(&h, &[public], &from).is_ok());
    }

    #[test]
    fn the_public_url_gives_its_origin() {
        assert_eq!(
            origin_of("https://Orion.example/play?x=1").as_deref(),
            Some("https://orion.example")
        );
        assert_eq!(
            origin_of("https://orion.example:8443").as_deref(),
            Some("https://orion.example:8443")
        );
        assert_eq!(origin_of("orion.example"), None);
    }

    #[test]
    fn websocket_keys_are_checked_for_shape() {
        assert!(is_websocket_key(b"dGhlIHNhbXBsZSBub25jZQ=="));
        assert!(!is_websocket_key(b"dGhlIHNhbXBsZSBub25jZQ"));
        assert!(!is_websocket_key(b"dGhlIHNhbXBsZSBub25jZ!=="));
        assert!(!is_websocket_key(b""));
    }
}
