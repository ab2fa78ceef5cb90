//! A claimed account's lesson progress over HTTP, so that a lesson done on one device shows
//! done on another (a guest's stays in his browser's `localStorage` only). The caller is
//! the account whose token (the one `welcome` gave the page) comes as
//! `Authorization: Bearer TOKEN`:
//!
//! * `GET /api/progress`: `{"progress": {"hydra-2": 5, …}}`, the steps done by lesson;
//! * `POST /api/progress/ID/N`: the account has done the first `N` steps of lesson `ID`
//!   (`N` from 1 to its steps); the server keeps the most it was told (`{"lesson", "steps"}`
//!   answers with the steps kept).
//!
//! Refused in words: no token (401), a token that is no one's (401) or a guest's (403), an
//! unknown lesson (404), a step out of range (400).

use crate::api_answer::{self as answer, Cache};
use crate::shared::Shared;
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{json, Map, Value};

/// Where progress is, for a path that is not.
const ROUTES: &str = "progress is at /api/progress and /api/progress/LESSON/STEPS";

/// The answer to a request under `/api/progress`.
pub async fn answer(req: Request<Incoming>, shared: &Shared) -> Response<Full<Bytes>> {
    let path = req.uri().path().to_string();
    let parts: Vec<&str> = path
        .trim_start_matches("/api/progress")
        .split('/')
        .filter(|p| !p.is_empty())
        .collect();
    let route = match (req.method(), parts.as_slice()) {
        (&Method::GET, []) => Route::Read,
        (&Method::POST, [id, steps]) => Route::Done(id.to_string(), steps.to_string()),
        (_, []) => {
            return answer::text(
                Cache::Private,
                StatusCode::METHOD_NOT_ALLOWED,
                format!("{path} answers GET"),
            )
        }
        (_, [_, _]) => {
            return answer::text(
                Cache::Private,
                StatusCode::METHOD_NOT_ALLOWED,
                format!("{path} answers POST"),
            )
        }
        _ => {
            return answer::text(
                Cache::Private,
                StatusCode::NOT_FOUND,
                format!("nothing at {path}: {ROUTES}"),
            )
        }
    };
    let account = match account(&req, shared).await {
        Ok(id) => id,
        Err(response) => return response,
    };
    match route {
        Route::Read => match shared.store.lesson_progress(&account).await {
            Ok(rows) => {
                let progress: Map<String, Value> =
                    rows.into_iter().map(|(l, n)| (l, json!(n))).collect();
                answer::json(
                    Cache::Private,
                    StatusCode::OK,
                    json!({ "progress": progress }),
                )
            }
            Err(e) => server_error(&e.to_string()),
        },
        Route::Done(id, steps) => {
            let Some(lesson) = super::embedded().iter().find(|l| l.id == id) else {
                let id: String = id.chars().take(40).collect();
                return answer::text(
                    Cache::Private,
                    StatusCode::NOT_FOUND,
                    format!("no lesson `{id}`"),
                );
            };
            let most = lesson.steps.len();
            let steps = match steps.parse::<u32>() {
                Ok(n) if (1..=most).contains(&(n as usize)) => n,
                _ => {
                    let steps: String = steps.chars().take(12).collect();
                    return answer::text(Cache::Private,
                        StatusCode::BAD_REQUEST,
                        format!(
                            "lesson `{id}` has {most} steps: the steps done are 1 to {most}, not `{steps}`"
                        ),
                    );
                }
            };
            let now = shared.clock.now_ms();
            match shared.store.record_lesson(&account, &id, steps, now).await {
                Ok(kept) => answer::json(
                    Cache::Private,
                    StatusCode::OK,
                    json!({"lesson": id, "steps": kept}),
                ),
                Err(e) => server_error(&e.to_string()),
            }
        }
    }
}

/// What a request asks.
enum Route {
    /// The account's progress.
    Read,
    /// Steps done of a lesson (its id and the count, as written in the path).
    Done(String, String),
}

/// The account whose token the request carries, or the refusal to answer.
async fn account(
    req: &Request<Incoming>,
    shared: &Shared,
) -> Result<String, Response<Full<Bytes>>> {
    let unauthorized = |why: &str| {
        let mut r = answer::text(Cache::Private, StatusCode::UNAUTHORIZED, why.to_string());
        r.headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        r
    };
    let token = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty());
    let Some(token) = token else {
        return Err(unauthorized(
            "lesson progress is kept for a claimed account: send its token as `Authorization: Bearer TOKEN`",
        ));
    };
    let hash = crate::token::hash(token);
    match shared.store.account_by_token(&hash).await {
        Ok(Some(account)) => Ok(account.id),
        Ok(None) => match shared.store.player(&hash).await {
            Ok(Some(_)) => Err(answer::text(Cache::Private,
                StatusCode::FORBIDDEN,
                "a guest's lesson progress stays in his browser: claim your name to keep it on the server"
                    .into(),
            )),
            Ok(None) => Err(unauthorized(
                "that token is no one's (revoked, or from another server): log in again",
            )),
            Err(e) => Err(server_error(&e.to_string())),
        },
        Err(e) => Err(server_error(&e.to_string())),
    }
}

/// A store failure: logged, and said in general words.
fn server_error(e: &str) -> Response<Full<Bytes>> {
    tracing::error!("lesson progress: {e}");
    answer::text(
        Cache::Private,
        StatusCode::INTERNAL_SERVER_ERROR,
        "the store failed: try again".into(),
    )
}
