//! The lessons' checker: a step's start set up on a real table of its game (the same
//! `GameSystem` and `Table` a room plays through), and a learner's try judged by what the
//! engine did with it. A try the engine refuses gets the engine's own reason, the one a room
//! gives; a legal try that is not the step's goal is said so. No I/O and no state between
//! tries: every try sets its step up again from the lesson's data.

use super::lesson::{Goal, Lesson, Step};
use crate::clock::Millis;
use crate::system::{GameInfo, GameSystem, Hints, Seat, Table};
use orion_protocol::{Request, RoomOptions, SeatView, Snapshot, Status};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Why a lesson or a step cannot be played: an unknown id, or a lesson whose data its
/// engine refuses (a bug of the lesson file, caught by the tests).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LessonError {
    /// No lesson has this id.
    #[error("no lesson `{0}`")]
    NoLesson(String),
    /// The lesson has no such step.
    #[error("lesson `{0}` has no step {1}")]
    NoStep(String, usize),
    /// The lesson's data does not play on its game.
    #[error("lesson `{lesson}` step {step}: {why}")]
    Broken {
        /// The lesson.
        lesson: String,
        /// The step (from 1).
        step: usize,
        /// What went wrong.
        why: String,
    },
}

/// What the engine made of a learner's try.
#[derive(Debug)]
pub enum Outcome {
    /// The goal is reached: the events the try caused and those of the scripted replies
    /// after it, each an `ev` object serialized, in order.
    Reached {
        /// The try's events (and `over`'s result, when it ended the game).
        events: Vec<String>,
        /// The replies' events.
        replies: Vec<String>,
    },
    /// The engine refused the try, with its reason; nothing changed.
    Refused(String),
    /// The engine took it, but it is not what the step asks.
    Missed(String),
}

/// What a try that the engine takes but that misses the goal is told.
const MISSED: &str = "that move is legal, but it is not what this step asks";

/// A step set up: a table of the lesson's game at the step's start.
pub struct Stage {
    /// The game's system: turns a request into an action text.
    system: Arc<dyn GameSystem>,
    /// The table, at the step's start.
    table: Box<dyn Table>,
    /// The learner's seat.
    player: Seat,
    /// The table's options, checked and complete.
    options: RoomOptions,
    /// The lesson clock: one millisecond an action, so claim windows stay open.
    now: Millis,
}

/// Every lesson, checked against the server's game systems.
pub struct Lessons<'a> {
    /// The systems whose tables play them.
    systems: &'a [Arc<dyn GameSystem>],
    /// The lessons, in the order the list shows them.
    lessons: &'a [Lesson],
}

impl<'a> Lessons<'a> {
    /// The lessons given, played on `systems`' tables.
    pub fn new(systems: &'a [Arc<dyn GameSystem>], lessons: &'a [Lesson]) -> Lessons<'a> {
        Lessons { systems, lessons }
    }

    /// Every lesson.
    pub fn all(&self) -> &'a [Lesson] {
        self.lessons
    }

    /// The lesson with this id.
    pub fn find(&self, id: &str) -> Result<&'a Lesson, LessonError> {
        self.lessons
            .iter()
            .find(|l| l.id == id)
            .ok_or_else(|| LessonError::NoLesson(id.chars().take(40).collect()))
    }

    /// The system and game of a lesson.
    fn game(&self, lesson: &Lesson) -> Result<(Arc<dyn GameSystem>, GameInfo), LessonError> {
        self.systems
            .iter()
            .find_map(|s| Some((s.clone(), s.find(&lesson.game)?.clone())))
            .ok_or_else(|| broken(lesson, 1, format!("no game `{}`", lesson.game)))
    }

    /// Step `index` (from 0) of lesson `id`, set up at its start.
    pub fn stage(&self, id: &str, index: usize) -> Result<Stage, LessonError> {
        let lesson = self.find(id)?;
        if index >= lesson.steps.len() {
            return Err(LessonError::NoStep(lesson.id.clone(), index + 1));
        }
        // The last step at or before this one that sets itself up; the steps from it on are
        // played as their solutions and replies say.
        let first = (0..=index)
            .rev()
            .find(|&i| lesson.steps[i].setup.is_some())
            .ok_or_else(|| broken(lesson, 1, "the first step has no setup".into()))?;
        let mut stage = self.fresh(lesson, first)?;
        let setup = lesson.steps[first].setup.as_deref().unwrap_or_default();
        for action in setup {
            stage
                .scripted(action)
                .map_err(|why| broken(lesson, first + 1, format!("setup `{action}`: {why}")))?;
        }
        for i in first..index {
            let step = &lesson.steps[i];
            match stage.attempt(step, &step.solution) {
                Outcome::Reached { .. } => {}
                Outcome::Refused(why) | Outcome::Missed(why) => {
                    return Err(broken(lesson, i + 1, format!("its solution: {why}")));
                }
            }
            stage
                .replies(step)
                .map_err(|why| broken(lesson, i + 1, why))?;
        }
        Ok(stage)
    }

    /// A new table for `lesson`, at its game's start.
    fn fresh(&self, lesson: &Lesson, step: usize) -> Result<Stage, LessonError> {
        let (system, game) = self.game(lesson)?;
        let options: RoomOptions = serde_json::from_value(Value::Object(lesson.options.clone()))
            .map_err(|e| broken(lesson, step + 1, format!("options: {e}")))?;
        let options = system
            .options(&game, options)
            .map_err(|r| broken(lesson, step + 1, r.message))?;
        let table = system
            .table(&game, &options, lesson.seed)
            .map_err(|r| broken(lesson, step + 1, r.message))?;
        let player = match &lesson.seat {
            None => table.seats().first().map(|s| s.seat),
            Some(name) => table.seats().iter().map(|s| s.seat).find(|s| s.0 == name),
        }
        .ok_or_else(|| broken(lesson, step + 1, "no such seat".into()))?;
        Ok(Stage {
            system,
            table,
            player,
            options,
            now: 0,
        })
    }

    /// Judges `request` (a game request as the page sends it) at step `index` of lesson `id`;
    /// on success the scripted replies are played too.
    pub fn attempt(&self, id: &str, index: usize, request: &Value) -> Result<Outcome, LessonError> {
        let lesson = self.find(id)?;
        let mut stage = self.stage(id, index)?;
        let step = &lesson.steps[index];
        Ok(match stage.attempt(step, request) {
            Outcome::Reached { events, .. } => {
                let replies = match stage.replies(step) {
                    Ok(replies) => replies,
                    // Another right answer than the scripted one may leave the replies,
                    // written for the scripted one, illegal: the page draws the next step
                    // from its own start then, so nothing is lost.
                    Err(_) if *request != step.solution => Vec::new(),
                    Err(why) => return Err(broken(lesson, index + 1, why)),
                };
                Outcome::Reached { events, replies }
            }
            other => other,
        })
    }
}

/// A lesson's data refused by its engine.
fn broken(lesson: &Lesson, step: usize, why: String) -> LessonError {
    LessonError::Broken {
        lesson: lesson.id.clone(),
        step,
        why,
    }
}

impl Stage {
    /// The learner's seat.
    pub fn player(&self) -> Seat {
        self.player
    }

    /// Whether the engine takes `request` here, goal or not (for the tests: a goal is only
    /// ever reached by an action the engine takes).
    #[cfg(test)]
    pub fn engine_takes(&mut self, request: &Value) -> bool {
        let any = Step {
            goal: Goal::Any,
            ..serde_json::from_value(serde_json::json!({"text":"","goal":{"kind":"any"},
                "solution":{},"hint":""}))
            .expect("a step")
        };
        matches!(self.attempt(&any, request), Outcome::Reached { .. })
    }

    /// The learner's colour letter (his dogs' in Bootes).
    fn colour(&self) -> String {
        (self.table.seats().iter())
            .find(|s| s.seat == self.player)
            .map(|s| s.colour.to_string())
            .unwrap_or_default()
    }

    /// Plays one scripted action (`C1R`, or `N> claim` for a seat not to move).
    pub(super) fn scripted(&mut self, action: &str) -> Result<Vec<String>, String> {
        let (seat, action) = match action.split_once("> ") {
            Some((seat, rest)) => {
                let seat = (self.table.seats().iter())
                    .map(|s| s.seat)
                    .find(|s| s.0 == seat)
                    .ok_or_else(|| format!("no seat `{seat}`"))?;
                (seat, rest)
            }
            None => (self.table.mover(), action),
        };
        self.now += 1;
        let applied = (self.table)
            .apply(seat, action, self.now)
            .map_err(|r| r.message)?;
        Ok(applied.events)
    }

    /// Plays a step's replies; their events.
    fn replies(&mut self, step: &Step) -> Result<Vec<String>, String> {
        let mut events = Vec::new();
        for reply in &step.replies {
            let more = self
                .scripted(reply)
                .map_err(|why| format!("reply `{reply}`: {why}"))?;
            events.extend(more);
        }
        Ok(events)
    }

    /// The learner's try: the engine's refusal, a miss, or the goal reached (replies not
    /// yet played).
    fn attempt(&mut self, step: &Step, request: &Value) -> Outcome {
        let mut object = match request {
            Value::Object(o) => o.clone(),
            _ => return Outcome::Refused("a try is a game request: an object with `t`".into()),
        };
        object.insert("room".into(), Value::String("lesson".into()));
        let request: Request = match orion_protocol::from_value(&Value::Object(object)) {
            Ok(r) => r,
            Err(e) => return Outcome::Refused(e.to_string()),
        };
        let action = match self.system.action(&request) {
            None => return Outcome::Refused("that is not a move of this game".into()),
            Some(Err(refusal)) => return Outcome::Refused(refusal.message),
            Some(Ok(action)) => action,
        };
        self.now += 1;
        let applied = match self.table.apply(self.player, &action, self.now) {
            Ok(applied) => applied,
            Err(refusal) => return Outcome::Refused(refusal.message),
        };
        let mut events = applied.events;
        let reached = match &step.goal {
            Goal::Any => true,
            Goal::Action { action: wanted } => {
                self.system.notation(&action) == self.system.notation(wanted)
            }
            Goal::Event { event } => events
                .iter()
                .any(|e| kind_of(e).as_deref() == Some(event.as_str())),
            Goal::Capture => events.iter().any(|e| captures(e)),
            Goal::Position { position } => self.table.position() == *position,
            Goal::Place { slots } => parsed(&events).any(|e| {
                e["kind"] == "place"
                    && (slots.is_empty()
                        || slots
                            .iter()
                            .any(|s| same_slot(s, e["slot"].as_str().unwrap_or(""))))
            }),
            Goal::Reach {
                slots,
                pieces,
                count,
            } => {
                let colour = self.colour();
                let whose = pieces.as_deref().unwrap_or(&colour);
                reached_count(&self.table.position(), slots, whose) >= count.unwrap_or(1)
            }
            Goal::Chain => {
                let colour = self.colour();
                parsed(&events).any(|e| e["kind"] == "chain" && e["colour"] == colour.as_str())
            }
            Goal::Challenge { hit } => parsed(&events).any(|e| {
                e["kind"] == "challenge"
                    && e["seat"] == self.player.0
                    && match hit {
                        None => true,
                        Some(h) => e["hit"] == *h,
                    }
            }),
            Goal::Win => (applied.over.as_ref())
                .and_then(|r| r.winner.as_ref())
                .is_some_and(|w| w.seats().iter().any(|s| s.as_str() == self.player.0)),
        };
        if !reached {
            return Outcome::Missed(MISSED.into());
        }
        if let Some(result) = applied.over {
            let over = serde_json::json!({"kind": "over", "result": result});
            events.push(over.to_string());
        }
        Outcome::Reached {
            events,
            replies: Vec::new(),
        }
    }

    /// What the page shows at this stage: a snapshot as a room's seat would get it (the
    /// learner as `you`, the others as the computer) and the hints the room would send.
    pub fn view(&self, game: &str) -> (Snapshot, Hints) {
        let seats: BTreeMap<_, _> = (self.table.seats().iter())
            .map(|info| {
                let you = info.seat == self.player;
                let view = SeatView {
                    player: if you { "you" } else { "teacher" }.into(),
                    name: if you { "You" } else { "Teacher" }.into(),
                    colour: info.colour.into(),
                    connected: true,
                    rating: None,
                    ready: true,
                    bot: None,
                };
                (info.seat.wire(), Some(view))
            })
            .collect();
        let result = self.table.result();
        let mut snapshot = Snapshot {
            room: "lesson".into(),
            seq: 0,
            game: game.into(),
            options: self.options.clone(),
            status: if result.is_some() {
                Status::Finished
            } else {
                Status::Playing
            },
            seats,
            spectators: 0,
            position: self.table.position(),
            turn: self.table.turn(),
            scores: self.table.scores(),
            claims: Vec::new(),
            result,
            deadline: None,
            systems: Default::default(),
        };
        self.table.view(Some(self.player), &mut snapshot);
        (snapshot, self.table.hints(Some(self.player), self.now))
    }
}

/// Whether a serialized event removed pieces: ORION's `capture`, another system's `move`
/// with places in `removed`.
fn captures(event: &str) -> bool {
    let Ok(event) = serde_json::from_str::<Value>(event) else {
        return false;
    };
    match event.get("kind").and_then(Value::as_str) {
        Some("capture") => true,
        Some("move") => event
            .get("removed")
            .and_then(Value::as_array)
            .is_some_and(|r| !r.is_empty()),
        _ => false,
    }
}

/// The serialized events read back (an event that does not parse is left out: it reaches
/// no goal).
fn parsed(events: &[String]) -> impl Iterator<Item = Value> + '_ {
    events.iter().filter_map(|e| serde_json::from_str(e).ok())
}

/// Whether two names are one slot (`C2n` and `C3s`); names ORION does not read (another
/// system's cells and holes) only when they are the same text.
fn same_slot(a: &str, b: &str) -> bool {
    match (orion_engine::parse_slot(a), orion_engine::parse_slot(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// How many of `whose` (a piece `R8`, or a colour letter `R`) stand on `slots` in a position
/// written as `SLOT:PIECE` pairs (ORION's slots and pieces, Orbs' holes and orbs).
fn reached_count(position: &str, slots: &[String], whose: &str) -> usize {
    position
        .split_whitespace()
        .filter_map(|pair| pair.split_once(':'))
        .filter(|(slot, piece)| {
            let ours = if whose.len() == 1 {
                piece.starts_with(whose)
            } else {
                *piece == whose
            };
            ours && slots.iter().any(|s| same_slot(s, slot))
        })
        .count()
}

/// The `kind` of a serialized event.
fn kind_of(event: &str) -> Option<String> {
    let event: Value = serde_json::from_str(event).ok()?;
    Some(event.get("kind")?.as_str()?.to_string())
}
