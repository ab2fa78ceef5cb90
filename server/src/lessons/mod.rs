//! Learning to play: lessons as data (`lessons/*.json` at the top of the workspace, embedded
//! here), each a game and steps a learner plays on a real table of it; `check` judges a try
//! through the same `GameSystem` and `Table` a room uses, so the page copies no rule and a
//! wrong try gets the room's own refusal; `routes` serves them over HTTP (`/api/lessons`).

mod check;
mod lesson;
mod routes;
#[cfg(test)]
mod tests;

pub use lesson::Lesson;
pub use routes::answer;

use std::sync::OnceLock;

/// Every lesson file, in the order `/learn` lists them: the basics first, then the games in
/// the catalogue's order.
const FILES: &[(&str, &str)] = &[
    ("basics", include_str!("../../../lessons/basics.json")),
    ("hydra-2", include_str!("../../../lessons/hydra-2.json")),
    ("hydra-partners", include_str!("../../../lessons/hydra-partners.json")),
    ("hydra-4", include_str!("../../../lessons/hydra-4.json")),
    ("cassiopeia", include_str!("../../../lessons/cassiopeia.json")),
    ("cassiopeia-five", include_str!("../../../lessons/cassiopeia-five.json")),
    ("auriga", include_str!("../../../lessons/auriga.json")),
    ("lepus", include_str!("../../../lessons/lepus.json")),
    ("draco", include_str!("../../../lessons/draco.json")),
    ("taurus", include_str!("../../../lessons/taurus.json")),
    ("orbit", include_str!("../../../lessons/orbit.json")),
    ("orbs", include_str!("../../../lessons/orbs.json")),
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
