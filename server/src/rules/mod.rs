//! The rules pages (`/rules`, `/rules/GAME`), from the one text of the rules,
//! `docs/rules.md`: `source` cuts it into sections (each game's own, and the ones games
//! share), `render` turns a section into HTML (`pulldown-cmark`) with its diagram blocks as
//! figures whose positions the engine computes (`lessons::position`). Served as JSON for the
//! page (`web/rules.js`), which draws each figure with the game's own board module:
//!
//! * `GET /api/rules`: every game with a rules page (`id`, `name`, `system`, `lesson`);
//! * `GET /api/rules/GAME`: `id`, `name`, `system`, `lesson` (the id of its lesson, or
//!   null), `html` (the page's text), `diagrams` (per figure its `caption` and `start`, a
//!   position as `/api/lessons/ID` gives a step's start), or 404 in words.

mod render;
mod source;

use crate::api_answer::{self as answer, Cache};
use crate::shared::Shared;
use crate::system::{GameInfo, GameSystem};
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use pulldown_cmark::HeadingLevel;
use render::{BadDiagram, Rendered};
use serde_json::{json, Value};
use source::{Source, RULES};
use std::sync::Arc;

/// The sections every ORION game's page carries after its own, by heading.
const ORION_SHARED: [&str; 4] = [
    "The board",
    "The five basic rules",
    "Live resolution",
    "Etiquette not enforced",
];
/// The sections every game's page ends with, whatever its system.
const EVERY_GAME: [&str; 2] = ["Leaving a game in progress", "Fair randomness"];
/// The system whose games share [`ORION_SHARED`].
const ORION: &str = "orion";

/// Every game with a rules page: the systems' games (not puzzles) that `docs/rules.md` has a
/// section for, in the catalogue's order, each with its system.
pub fn games(systems: &[Arc<dyn GameSystem>]) -> Vec<(&'static str, &GameInfo)> {
    let source = Source::split(RULES);
    (systems.iter())
        .flat_map(|s| s.games().iter().map(move |g| (s.id(), g)))
        .filter(|(_, g)| !g.solo && source.of_game(g.id).is_some())
        .collect()
}

/// Whether `path` is `/rules/GAME` for a game with no rules page (the page is served with a
/// 404 then, and says so in words).
pub fn missing(path: &str, systems: &[Arc<dyn GameSystem>]) -> bool {
    path.strip_prefix("/rules/")
        .is_some_and(|game| !games(systems).iter().any(|(_, g)| g.id == game))
}

/// One game's page: its text and its figures.
fn page(system: &str, game: &GameInfo) -> Result<Rendered, BadDiagram> {
    let source = Source::split(RULES);
    let mut page = Rendered::default();
    if let Some(own) = source.of_game(game.id) {
        page.markdown(own.body)?;
    }
    let shared = if system == ORION {
        &ORION_SHARED[..]
    } else {
        &[]
    };
    for title in shared.iter().chain(&EVERY_GAME) {
        if let Some(section) = source.titled(title) {
            page.heading(HeadingLevel::H2, section.title);
            page.markdown(section.body)?;
        }
    }
    page.heading(HeadingLevel::H2, "About these rules");
    page.markdown(source.intro)?;
    Ok(page)
}

/// The answer to a request under `/api/rules`.
pub fn answer(req: &Request<Incoming>, shared: &Shared) -> Response<Full<Bytes>> {
    let path = req.uri().path();
    if req.method() != Method::GET {
        return answer::text(
            Cache::Shared,
            StatusCode::METHOD_NOT_ALLOWED,
            format!("{path} answers GET"),
        );
    }
    let lessons = crate::lessons::embedded();
    let lesson_of = |game: &str| lessons.iter().find(|l| l.id == game).map(|l| l.id.clone());
    let all = games(&shared.systems);
    match path.trim_start_matches("/api/rules").trim_matches('/') {
        "" => {
            let list: Vec<Value> = (all.iter())
                .map(|(system, g)| {
                    json!({"id": g.id, "name": g.name, "system": system, "lesson": lesson_of(g.id)})
                })
                .collect();
            answer::json(Cache::Shared, StatusCode::OK, json!({ "games": list }))
        }
        id => {
            let Some((system, game)) = all.iter().find(|(_, g)| g.id == id) else {
                let id: String = id.chars().take(40).collect();
                let names: Vec<&str> = all.iter().map(|(_, g)| g.id).collect();
                return answer::text(
                    Cache::Shared,
                    StatusCode::NOT_FOUND,
                    format!(
                        "there is no game `{id}` here: the rules pages are {}",
                        names.join(", ")
                    ),
                );
            };
            match page(system, game) {
                Ok(page) => {
                    let diagrams: Vec<Value> = (page.figures.iter())
                        .map(
                            |f| match crate::lessons::position(&shared.systems, &f.setup) {
                                Ok(start) => json!({"caption": f.caption, "start": start}),
                                Err(e) => {
                                    tracing::error!("rules of {id}: diagram `{}`: {e}", f.caption);
                                    json!({"caption": f.caption, "error": e.to_string()})
                                }
                            },
                        )
                        .collect();
                    answer::json(
                        Cache::Shared,
                        StatusCode::OK,
                        json!({
                            "id": game.id, "name": game.name, "system": system,
                            "players": game.default_players, "lesson": lesson_of(game.id),
                            "html": page.html, "diagrams": diagrams,
                        }),
                    )
                }
                Err(e) => {
                    tracing::error!("rules of {id}: {e}");
                    answer::text(
                        Cache::Shared,
                        StatusCode::INTERNAL_SERVER_ERROR,
                        e.to_string(),
                    )
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
