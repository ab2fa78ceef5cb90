//! The links notification mails carry, over HTTP:
//!
//! * `GET /email/confirm?token=T`: confirms the address the token was mailed to (the token is
//!   kept only as its SHA-256, and confirms for [`super::EMAIL_TOKEN_LIFE`]);
//! * `GET /email/unsubscribe?token=T`: a page with one button that posts to the same URL
//!   (a mail scanner that follows links unsubscribes nobody);
//! * `POST /email/unsubscribe?token=T`: no more notices by e-mail, as a mail client's
//!   one-click unsubscribe (RFC 8058, body `List-Unsubscribe=One-Click`) or that button does.

use super::Notifier;
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};

/// Whether `path` is one of these routes.
pub fn serves(path: &str) -> bool {
    path == "/email/confirm" || path == "/email/unsubscribe"
}

/// The answer to a request for one of these routes.
pub async fn answer(req: Request<Incoming>, notifier: &Notifier) -> Response<Full<Bytes>> {
    let token = req
        .uri()
        .query()
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix("token="))
        .unwrap_or("")
        .to_string();
    if token.is_empty() || token.len() > 512 {
        return page(
            StatusCode::BAD_REQUEST,
            "No token",
            "This link lacks its token: open it exactly as the mail gave it.",
        );
    }
    match (req.method().clone(), req.uri().path()) {
        (Method::GET, "/email/confirm") => match notifier.confirm(&token).await {
            Ok(Some(address)) => page(
                StatusCode::OK,
                "Address confirmed",
                &format!("{} will be told about your games.", escape(&address)),
            ),
            Ok(None) => page(
                StatusCode::NOT_FOUND,
                "Link expired",
                "This link is unknown, used or more than a day old: give your address again in your account.",
            ),
            Err(e) => failed(e),
        },
        (Method::GET, "/email/unsubscribe") => page(
            StatusCode::OK,
            "Unsubscribe",
            &format!(
                "<form method=\"post\" action=\"/email/unsubscribe?token={}\">\
                 <button type=\"submit\">Send me no more notices by e-mail</button></form>",
                escape(&token)
            ),
        ),
        (Method::POST, "/email/unsubscribe") => match notifier.unsubscribe_email(&token).await {
            Ok(Some(address)) => page(
                StatusCode::OK,
                "Unsubscribed",
                &format!("{} will get no more notices.", escape(&address)),
            ),
            Ok(None) => page(
                StatusCode::NOT_FOUND,
                "Unknown link",
                "This link is not for the address your account has now.",
            ),
            Err(e) => failed(e),
        },
        _ => {
            let mut response = page(
                StatusCode::METHOD_NOT_ALLOWED,
                "Not allowed",
                "Open the link from the mail.",
            );
            let allow = if req.uri().path() == "/email/confirm" { "GET" } else { "GET, POST" };
            response
                .headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static(allow));
            response
        }
    }
}

fn failed(e: crate::store::StoreError) -> Response<Full<Bytes>> {
    tracing::warn!("an e-mail link failed: {e}");
    page(
        StatusCode::INTERNAL_SERVER_ERROR,
        "Try again",
        "The server could not read its store: try the link again in a minute.",
    )
}

/// Text for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A small HTML page.
fn page(status: StatusCode, title: &str, body: &str) -> Response<Full<Bytes>> {
    let html = format!(
        "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>{title} — Orion Online</title>\
         <meta name=\"viewport\" content=\"width=device-width\"><h1>{title}</h1><p>{body}</p>\
         <p><a href=\"/\">Orion Online</a></p></html>\n"
    );
    let mut response = Response::new(Full::new(Bytes::from(html)));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    // One request per connection, as every plain answer of this server.
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}
