//! A lesson as its file writes it (`lessons/ID.json` at the top of the workspace): the game it
//! teaches, how its table is set up, and its steps, each a start, a text, a goal the engine
//! checks, the solution and a hint, and the scripted replies that follow. Only data and its
//! shape here; `check.rs` plays it.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One lesson: a game and the steps that teach it.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Its id in `/learn/ID`: the game's id, or a name of its own (`basics`).
    pub id: String,
    /// The game whose table plays it (a game id of one of the server's systems).
    pub game: String,
    /// Its name in the list.
    pub title: String,
    /// One line for the list: what it teaches.
    pub about: String,
    /// The game options its table is set up with (`players`, `clicks` …), as a room's.
    #[serde(default)]
    pub options: Map<String, Value>,
    /// The seed of its table (a die's throws follow it).
    #[serde(default)]
    pub seed: u64,
    /// The seat the learner plays (the table's first when left out).
    #[serde(default)]
    pub seat: Option<String>,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// One step of a lesson.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// What the learner reads: the rule and what to do.
    pub text: String,
    /// Where it starts: these actions from the game's start (each as a table stores it,
    /// played by the seat to move, or by the seat named before `>`: `N> claim`). Left out: it
    /// starts where the step before it ended (its solution and replies played).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<Vec<String>>,
    /// What the engine must see the learner's action do.
    pub goal: Goal,
    /// An action that reaches the goal, as the page sends it (a game request without `room`:
    /// `{"t":"click","click":"C1R"}`); the page marks its element with `data-hint`.
    pub solution: Value,
    /// The hint in words, shown with a wrong try.
    pub hint: String,
    /// A try the engine refuses here (the tests check that it is refused with the engine's
    /// reason and keeps the step).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrong: Option<Value>,
    /// Other tries that reach the goal too (a goal names what a step teaches, not one
    /// click: the tests check that each is reached, so a learner who finds another right
    /// answer is not told he is wrong).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<Value>,
    /// A try the engine takes that is not the step's goal (the tests check it is told so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missed: Option<Value>,
    /// The scripted replies once the goal is reached, as `setup` writes actions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replies: Vec<String>,
    /// What the learner reads once the step is done (before the next one's text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub done: Option<String>,
}

/// What a step asks the learner's action to do, checked on what the engine did with it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Goal {
    /// Any action the engine takes.
    Any,
    /// Exactly this action (its text as the table stores it: `C1R`, `place C1s`, `claim`).
    Action {
        /// The action text.
        action: String,
    },
    /// An action that causes an event of this kind (`chain`, `capture`, `claim` …).
    Event {
        /// The event's `kind`.
        event: String,
    },
    /// An action that removes an enemy piece: a `capture` event (ORION), or a `move` event
    /// whose `removed` names places (Orbit, Orbs).
    Capture,
    /// An action after which the position is this one.
    Position {
        /// The position string.
        position: String,
    },
    /// A placement (any slot, or one of `slots`, each by any of its names).
    Place {
        /// The slots that reach the goal; empty: any the engine allows.
        #[serde(default)]
        slots: Vec<String>,
    },
    /// An action after which at least `count` pieces of `pieces` stand on `slots`: reaching a
    /// position, by whatever route (ORION's and Orbs' positions, `SLOT:PIECE` pairs).
    Reach {
        /// The slots (any of a slot's names).
        slots: Vec<String>,
        /// Whose pieces: a piece (`R8`), a colour letter (`B`), or left out: the learner's
        /// colour.
        #[serde(default)]
        pieces: Option<String>,
        /// How many of them (1 when left out).
        #[serde(default)]
        count: Option<usize>,
    },
    /// An action that forms a chain of the learner's colour (his own click wins with it; a
    /// chain someone else's click made for him is a `win` goal: his claim wins).
    Chain,
    /// A challenge by the learner (Algol): any, or only one whose `hit` is this.
    Challenge {
        /// Whether the suspect must be the secret man (`true`), must not be, or either.
        #[serde(default)]
        hit: Option<bool>,
    },
    /// An action that wins the game for the learner's seat.
    Win,
}

impl Lesson {
    /// Reads a lesson file; the error names the file's problem.
    pub fn parse(text: &str) -> Result<Lesson, serde_json::Error> {
        serde_json::from_str(text)
    }
}
