//! Learning to play: lessons as data (`lessons/*.json` at the top of the workspace, embedded
//! here), each a game and steps a learner plays on a real table of it; `check` judges a try
//! through the same `GameSystem` and `Table` a room uses, so the page copies no rule and a
//! wrong try gets the room's own refusal; `routes` serves them over HTTP (`/api/lessons`);
//! `progress` keeps a claimed account's steps done (`/api/progress`); `position` sets up a
//! position as a step starts, for the rules pages' diagrams.

mod check;
mod lesson;
mod position;
mod progress;
mod routes;
#[cfg(test)]
mod tests;

pub use lesson::Lesson;
pub use position::{position, Setup};
pub use progress::answer as progress;
pub use routes::answer;

use std::sync::OnceLock;

/// A lesson file by its id: `lessons/ID.json`, embedded.
macro_rules! lesson {
    ($id:literal) => {
        (
            $id,
            include_str!(concat!("../../../lessons/", $id, ".json")),
        )
    };
}

/// Every lesson file, in the order `/learn` lists them: the basics first, then the games in
/// the catalogue's order.
const FILES: &[(&str, &str)] = &[
    lesson!("basics"),
    lesson!("hydra-2"),
    lesson!("hydra-partners"),
    lesson!("hydra-4"),
    lesson!("cassiopeia"),
    lesson!("cassiopeia-five"),
    lesson!("orion"),
    lesson!("auriga"),
    lesson!("lepus"),
    lesson!("algol"),
    lesson!("libra"),
    lesson!("draco"),
    lesson!("taurus"),
    lesson!("bootes"),
    lesson!("orbit"),
    lesson!("orbs"),
];

/// The lesson files read, each `Ok` or the reason its file does not parse (a test reads
/// every one; the server leaves a broken one out and says so in its log).
pub fn files() -> Vec<(&'static str, Result<Lesson, serde_json::Error>)> {
    FILES
        .iter()
        .map(|(name, text)| (*name, Lesson::parse(text)))
        .collect()
}

/// The lessons that parse, read once.
pub fn embedded() -> &'static [Lesson] {
    static LESSONS: OnceLock<Vec<Lesson>> = OnceLock::new();
    LESSONS.get_or_init(|| {
        files()
            .into_iter()
            .filter_map(|(name, lesson)| match lesson {
                Ok(lesson) => Some(lesson),
                Err(e) => {
                    tracing::error!("lesson file {name}.json left out: {e}");
                    None
                }
            })
            .collect()
    })
}
