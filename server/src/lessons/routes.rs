//! The lessons over HTTP, stateless (the page keeps the learner's place and progress):
//!
//! * `GET /api/lessons`: the list (id, game, title, about, steps);
//! * `GET /api/lessons/ID`: one lesson, each step with its text, hint, solution (the request
//!   the page marks with `data-hint`) and its start as a room's seat would see it (a
//!   `snapshot` and the `hints` a room sends);
//! * `POST /api/lessons/ID/N/try` with a game request (`{"t":"click","click":"C1R"}`, at
//!   most [`MAX_TRY`] bytes): `reached` with the events the try and the scripted replies
//!   caused, or not with the engine's `reason` and the step's `hint`.

use super::check::{LessonError, Lessons, Outcome, Stage};
use crate::api_answer::{self as answer, Cache};
use crate::shared::Shared;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{json, Value};

/// Longest try body: a game request is far shorter.
pub const MAX_TRY: usize = 1024;

/// The answer to a request under `/api/lessons`.
pub async fn answer(req: Request<Incoming>, shared: &Shared) -> Response<Full<Bytes>> {
    let path = req.uri().path().to_string();
    let parts: Vec<&str> = path
        .trim_start_matches("/api/lessons")
        .split('/')
        .filter(|p| !p.is_empty())
        .collect();
    let lessons = Lessons::new(&shared.systems, super::embedded());
    match (req.method().clone(), parts.as_slice()) {
        (Method::GET, []) => answer::json(Cache::Shared, StatusCode::OK, list(&lessons)),
        (Method::GET, [id]) => match lesson(&lessons, id) {
            Ok(body) => answer::json(Cache::Shared, StatusCode::OK, body),
            Err(e) => failed(&e),
        },
        (Method::POST, [id, step, "try"]) => {
            let Some(index) = step.parse::<usize>().ok().and_then(|n| n.checked_sub(1)) else {
                return answer::text(
                    Cache::Shared,
                    StatusCode::NOT_FOUND,
                    format!("no step `{step}`: steps count from 1"),
                );
            };
            let body = match Limited::new(req.into_body(), MAX_TRY).collect().await {
                Ok(body) => body.to_bytes(),
                Err(_) => {
                    return answer::text(
                        Cache::Shared,
                        StatusCode::PAYLOAD_TOO_LARGE,
                        format!("a try is at most {MAX_TRY} bytes of JSON"),
                    )
                }
            };
            let request: Value = match serde_json::from_slice(&body) {
                Ok(v) => v,
                Err(e) => {
                    return answer::text(
                        Cache::Shared,
                        StatusCode::BAD_REQUEST,
                        format!("a try is JSON: {e}"),
                    )
                }
            };
            match attempt(&lessons, id, index, &request) {
                Ok(body) => answer::json(Cache::Shared, StatusCode::OK, body),
                Err(e) => failed(&e),
            }
        }
        (_, [] | [_]) => answer::text(
            Cache::Shared,
            StatusCode::METHOD_NOT_ALLOWED,
            format!("{path} answers GET only"),
        ),
        (_, [_, _, "try"]) => answer::text(
            Cache::Shared,
            StatusCode::METHOD_NOT_ALLOWED,
            format!("{path} answers POST only"),
        ),
        _ => answer::text(
            Cache::Shared,
            StatusCode::NOT_FOUND,
            format!("nothing at {path}"),
        ),
    }
}

/// The list of lessons.
fn list(lessons: &Lessons<'_>) -> Value {
    let all: Vec<Value> = (lessons.all().iter())
        .map(|l| {
            json!({"id": l.id, "game": l.game, "title": l.title, "about": l.about,
                   "steps": l.steps.len()})
        })
        .collect();
    json!({ "lessons": all })
}

/// A step's start as the page draws it.
pub(super) fn start(stage: &Stage, game: &str) -> Value {
    let (snapshot, hints) = stage.view(game);
    json!({"snapshot": snapshot, "hints": hints, "seat": stage.player().0})
}

/// One lesson with every step's start.
fn lesson(lessons: &Lessons<'_>, id: &str) -> Result<Value, LessonError> {
    let lesson = lessons.find(id)?;
    let mut steps = Vec::new();
    for (i, step) in lesson.steps.iter().enumerate() {
        let stage = lessons.stage(id, i)?;
        steps.push(json!({
            "text": step.text, "hint": step.hint, "solution": step.solution,
            "done": step.done, "continues": step.setup.is_none(),
            "start": start(&stage, &lesson.game),
        }));
    }
    Ok(
        json!({"id": lesson.id, "game": lesson.game, "title": lesson.title,
              "about": lesson.about, "steps": steps}),
    )
}

/// One try judged.
fn attempt(
    lessons: &Lessons<'_>,
    id: &str,
    index: usize,
    request: &Value,
) -> Result<Value, LessonError> {
    let lesson = lessons.find(id)?;
    let step = lesson
        .steps
        .get(index)
        .ok_or_else(|| LessonError::NoStep(lesson.id.clone(), index + 1))?;
    let events = |list: Vec<String>| -> Vec<Value> {
        list.iter()
            .filter_map(|e| serde_json::from_str(e).ok())
            .collect()
    };
    Ok(match lessons.attempt(id, index, request)? {
        Outcome::Reached {
            events: mine,
            replies,
        } => json!({
            "reached": true, "events": events(mine), "replies": events(replies),
            "done": step.done,
        }),
        Outcome::Refused(reason) | Outcome::Missed(reason) => {
            json!({"reached": false, "reason": reason, "hint": step.hint})
        }
    })
}

/// An error answered: 404 for what does not exist, 500 (logged) for a broken lesson.
fn failed(e: &LessonError) -> Response<Full<Bytes>> {
    match e {
        LessonError::NoLesson(_) | LessonError::NoStep(..) => {
            answer::text(Cache::Shared, StatusCode::NOT_FOUND, e.to_string())
        }
        LessonError::Broken { .. } => {
            tracing::error!("{e}");
            answer::text(
                Cache::Shared,
                StatusCode::INTERNAL_SERVER_ERROR,
                e.to_string(),
            )
        }
    }
}
