//! The answers of the small HTTP APIs beside the game socket (`/api/lessons`,
//! `/api/progress`, `/api/rules`): JSON, or one line of text saying what was wrong; each says
//! how it may be cached and closes the connection after it.

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::header::{self, HeaderValue};
use hyper::{Response, StatusCode};
use serde_json::Value;

/// How an answer may be kept by a browser or a proxy.
#[derive(Clone, Copy, Debug)]
pub enum Cache {
    /// The same for everyone: kept, but asked again before each use (`no-cache`).
    Shared,
    /// One account's own: never kept (`no-store`).
    Private,
}

/// A JSON answer.
pub fn json(cache: Cache, status: StatusCode, body: Value) -> Response<Full<Bytes>> {
    respond(cache, status, "application/json", body.to_string())
}

/// A plain text answer, a line.
pub fn text(cache: Cache, status: StatusCode, body: String) -> Response<Full<Bytes>> {
    respond(
        cache,
        status,
        "text/plain; charset=utf-8",
        format!("{body}\n"),
    )
}

fn respond(
    cache: Cache,
    status: StatusCode,
    content_type: &'static str,
    body: String,
) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    let cache = match cache {
        Cache::Shared => "no-cache",
        Cache::Private => "no-store",
    };
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}
