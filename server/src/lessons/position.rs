//! A position set up on a real table the way a lesson step is, for the rules pages' diagrams
//! (`rules/`): a game's start, or a lesson step's start, and then some actions played, each
//! through the same `GameSystem` and `Table` a room uses. What comes back is what
//! `/api/lessons/ID` gives a step's start (`snapshot`, `hints`, `seat`), so the page draws it
//! with the game's own board module and copies no rule.

use super::check::{LessonError, Lessons};
use super::lesson::Lesson;
use crate::system::GameSystem;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// Where a position starts and what is played from there.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Start from this game's start (a game id of one of the server's systems)…
    #[serde(default)]
    pub game: Option<String>,
    /// …with these room options…
    #[serde(default)]
    pub options: Map<String, Value>,
    /// …and this seed (a die's throws, Taurus's board follow it).
    #[serde(default)]
    pub seed: u64,
    /// Or start from this lesson's step…
    #[serde(default)]
    pub lesson: Option<String>,
    /// …numbered from 1 (its start: before the learner acts).
    #[serde(default)]
    pub step: Option<usize>,
    /// Then these actions, as a lesson's `setup` writes them (`C1R`, `N> claim`).
    #[serde(default)]
    pub play: Vec<String>,
}

/// The position `setup` names, as a lesson step's start: `{"snapshot", "hints", "seat"}`.
pub fn position(systems: &[Arc<dyn GameSystem>], setup: &Setup) -> Result<Value, LessonError> {
    let bad = |why: String| LessonError::Broken {
        lesson: setup
            .lesson
            .clone()
            .or_else(|| setup.game.clone())
            .unwrap_or_default(),
        step: setup.step.unwrap_or(1),
        why,
    };
    let (lesson, index) = match (&setup.game, &setup.lesson) {
        (Some(game), None) => {
            let lesson = json!({"id": "position", "game": game, "title": "", "about": "",
                "options": setup.options, "seed": setup.seed,
                "steps": [{"text": "", "setup": [], "goal": {"kind": "any"},
                           "solution": {}, "hint": ""}]});
            let lesson = Lesson::parse(&lesson.to_string()).map_err(|e| bad(e.to_string()))?;
            (lesson, 0)
        }
        (None, Some(id)) => {
            let lesson = (super::embedded().iter())
                .find(|l| &l.id == id)
                .cloned()
                .ok_or_else(|| LessonError::NoLesson(id.clone()))?;
            let step = setup.step.unwrap_or(1);
            let Some(index) = step.checked_sub(1) else {
                return Err(LessonError::NoStep(id.clone(), step));
            };
            (lesson, index)
        }
        _ => return Err(bad("name either a `game` or a `lesson`".into())),
    };
    let one = [lesson];
    let lessons = Lessons::new(systems, &one);
    let mut stage = lessons.stage(&one[0].id, index)?;
    for action in &setup.play {
        stage
            .scripted(action)
            .map_err(|why| bad(format!("`{action}`: {why}")))?;
    }
    Ok(super::routes::start(&stage, &one[0].game))
}
