//! The lessons as the server serves them (`GET /api/lessons`, `GET /api/lessons/ID`,
//! `POST /api/lessons/ID/N/try`: README, "Learning to play"), read into types. The client
//! judges nothing: a step brings its start as a room's snapshot, a try's answer the events
//! the engine made or its reason. Fields the server may add are ignored.

use orion_protocol::{Event as Ev, Request, Snapshot};
use serde::Deserialize;
use serde_json::Value;

/// One lesson in the list.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Summary {
    /// Its id (`/learn/ID`, `orion learn ID`).
    pub id: String,
    /// The game whose board it plays on.
    pub game: String,
    /// Its name.
    pub title: String,
    /// One line: what it teaches.
    #[serde(default)]
    pub about: String,
    /// How many steps it has.
    pub steps: usize,
}

/// `GET /api/lessons`.
#[derive(Debug, Deserialize)]
struct List {
    lessons: Vec<Summary>,
}

/// One lesson, each step with its start.
#[derive(Clone, Debug, Deserialize)]
pub struct Lesson {
    /// Its id.
    pub id: String,
    /// The game whose board it plays on.
    pub game: String,
    /// Its name.
    pub title: String,
    /// The steps, in order (at least one).
    pub steps: Vec<Step>,
}

/// One step of a lesson.
#[derive(Clone, Debug, Deserialize)]
pub struct Step {
    /// What the learner reads.
    pub text: String,
    /// The hint in words.
    #[serde(default)]
    pub hint: String,
    /// The request that reaches the step's goal, without its `room`: what the board marks.
    #[serde(default)]
    pub solution: Value,
    /// What the learner reads once the step is done.
    #[serde(default)]
    pub done: Option<String>,
    /// Where it starts, as a room's seat would see it.
    pub start: Start,
}

/// A step's start.
#[derive(Clone, Debug, Deserialize)]
pub struct Start {
    /// The table as a snapshot (room `lesson`).
    pub snapshot: Snapshot,
    /// The learner's seat (`S`, `N` …).
    pub seat: String,
}

/// The server's answer to a try.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// The goal is reached: the events of the try, then those of the scripted replies.
    Reached {
        /// The try's events.
        events: Vec<Ev<'static>>,
        /// The replies' events.
        replies: Vec<Ev<'static>>,
        /// What the learner reads now the step is done.
        done: Option<String>,
    },
    /// Not reached: the engine's reason (its refusal, or that the move is not the step's),
    /// and the hint.
    Missed {
        /// Why, in the engine's words.
        reason: String,
        /// The step's hint.
        hint: String,
    },
}

/// The answer as the server writes it.
#[derive(Debug, Deserialize)]
struct Tried {
    reached: bool,
    #[serde(default)]
    events: Vec<Value>,
    #[serde(default)]
    replies: Vec<Value>,
    #[serde(default)]
    done: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    hint: Option<String>,
}

/// Reads the lesson list.
pub fn list(body: &str) -> Result<Vec<Summary>, String> {
    serde_json::from_str::<List>(body)
        .map(|l| l.lessons)
        .map_err(|e| format!("the lesson list is not what this client reads: {e}"))
}

/// Reads one lesson.
pub fn lesson(body: &str) -> Result<Lesson, String> {
    let lesson: Lesson = serde_json::from_str(body)
        .map_err(|e| format!("the lesson is not what this client reads: {e}"))?;
    if lesson.steps.is_empty() {
        return Err(format!("lesson {} has no steps", lesson.id));
    }
    Ok(lesson)
}

/// Reads a try's answer. Events of a kind this client does not know are left out (the
/// board shows the next step's start all the same).
pub fn answer(body: &str) -> Result<Answer, String> {
    let tried: Tried = serde_json::from_str(body)
        .map_err(|e| format!("the answer is not what this client reads: {e}"))?;
    let events = |list: Vec<Value>| -> Vec<Ev<'static>> {
        list.iter()
            .filter_map(|e| orion_protocol::from_value(e).ok())
            .collect()
    };
    Ok(if tried.reached {
        Answer::Reached {
            events: events(tried.events),
            replies: events(tried.replies),
            done: tried.done,
        }
    } else {
        Answer::Missed {
            reason: tried
                .reason
                .unwrap_or_else(|| "not this step's goal".to_string()),
            hint: tried.hint.unwrap_or_default(),
        }
    })
}

/// A step's solution as a request of the lesson's room (what the board marks).
pub fn solution(step: &Step) -> Option<Request> {
    let mut object = step.solution.as_object()?.clone();
    object.insert("room".into(), Value::String("lesson".into()));
    orion_protocol::from_value(&Value::Object(object)).ok()
}

/// A request the board made, as a try's body: the request without its `room`.
pub fn try_body(request: &Request) -> Result<String, String> {
    let mut value = serde_json::to_value(request).map_err(|e| e.to_string())?;
    if let Some(object) = value.as_object_mut() {
        object.remove("room");
    }
    Ok(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lesson as `GET /api/lessons/ID` writes it (one step, trimmed), with a field this
    /// client does not know.
    const LESSON: &str = r#"{"id":"hydra-2","game":"hydra-2","title":"Hydra for Two","about":"chains",
      "new_field":1,
      "steps":[{"text":"Turn A4 to the right.","hint":"click A4R","solution":{"t":"click","click":"A4R"},
        "done":null,"continues":false,
        "start":{"seat":"N","hints":{"turn":["A4"]},"snapshot":{"room":"lesson","seq":0,"game":"hydra-2",
          "options":{},"status":"playing","seats":{"S":null,"N":null},"spectators":0,
          "position":"C1s:R1 C5n:B1","turn":{"seat":"N","clicks":1,"used":0,"round":1},
          "scores":{},"claims":[],"result":null}}}]}"#;

    #[test]
    fn a_lesson_reads_with_its_start_and_solution() {
        let l = lesson(LESSON).expect("reads");
        assert_eq!((l.id.as_str(), l.steps.len()), ("hydra-2", 1));
        let step = &l.steps[0];
        assert_eq!(step.start.seat, "N");
        assert_eq!(step.start.snapshot.position, "C1s:R1 C5n:B1");
        assert_eq!(
            solution(step),
            Some(Request::Click {
                room: "lesson".into(),
                click: "A4R".into(),
                piece: None
            })
        );
        let e = lesson(r#"{"id":"x","game":"hydra-2","title":"X","steps":[]}"#).unwrap_err();
        assert!(e.contains("no steps"), "{e}");
        let e = lesson("<html>").unwrap_err();
        assert!(e.contains("not what this client reads"), "{e}");
    }

    #[test]
    fn the_list_reads() {
        let l = list(r#"{"lessons":[{"id":"basics","game":"hydra-2","title":"The basics","about":"a click","steps":5}]}"#)
            .expect("reads");
        assert_eq!(l[0].steps, 5);
        assert_eq!(l[0].title, "The basics");
    }

    #[test]
    fn answers_read_both_ways_and_unknown_events_are_left_out() {
        let reached = answer(
            r#"{"reached":true,"done":"well done",
               "events":[{"kind":"click","seat":"N","click":"A4R","position":"A4e:B1"},{"kind":"a_new_kind"}],
               "replies":[{"kind":"turn","seat":"S","clicks":2,"round":2}]}"#,
        )
        .expect("reads");
        let Answer::Reached {
            events,
            replies,
            done,
        } = reached
        else {
            panic!("reached")
        };
        assert_eq!(events.len(), 1);
        assert!(matches!(&events[0], Ev::Click { click, .. } if click == "A4R"));
        assert_eq!(replies.len(), 1);
        assert_eq!(done.as_deref(), Some("well done"));
        assert_eq!(
            answer(
                r#"{"reached":false,"reason":"rotor A1 holds none of your pieces","hint":"click A4R"}"#
            ),
            Ok(Answer::Missed {
                reason: "rotor A1 holds none of your pieces".into(),
                hint: "click A4R".into()
            })
        );
    }

    #[test]
    fn a_try_is_the_request_without_its_room() {
        let body = try_body(&Request::Click {
            room: "lesson".into(),
            click: "C1R".into(),
            piece: None,
        })
        .unwrap();
        let value: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(value, serde_json::json!({"t":"click","click":"C1R"}));
    }
}
