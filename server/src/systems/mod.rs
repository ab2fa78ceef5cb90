//! The game systems this server offers, each behind the seam of `system.rs`. Only the files
//! here name a game engine.

mod orbit;
mod orbs;
mod orion;
mod orion_line;

use crate::protocol::{Code, Refusal};
use crate::system::GameSystem;
use orion_protocol::{Event, RoomOptions, Turn, TurnParts};
use serde_json::{Map, Value};
use std::sync::Arc;

pub use orbit::Orbit;
pub use orbs::Orbs;
pub use orion::Orion;

/// Every game system, in the order the lobby lists their games.
pub fn all() -> Vec<Arc<dyn GameSystem>> {
    vec![
        Arc::new(Orion::new()),
        Arc::new(Orbit::new()),
        Arc::new(Orbs::new()),
    ]
}

/// Longest move text a `move` request may carry (`p16`, `black`, `m13-m12` are far shorter):
/// refusals quote the text, so it is bounded and printable before anything reads it.
const MAX_MOVE_TEXT: usize = 16;

/// The text of a `move` request, trimmed, if it is short and plain enough to be a move.
fn move_text(text: &str) -> Result<&str, Refusal> {
    let text = text.trim();
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '-';
    if text.is_empty() || text.len() > MAX_MOVE_TEXT || !text.chars().all(plain) {
        return Err(Refusal::new(
            Code::BadRequest,
            format!("move must be 1 to {MAX_MOVE_TEXT} letters, digits or dashes"),
        ));
    }
    Ok(text)
}

/// The game options of a system that takes none of the crate's typed ones but `players`
/// (Orbit, Orbs): every option as one object, for the system's own options type to read
/// (and refuse what it does not know by name).
fn option_map(options: &RoomOptions) -> Map<String, Value> {
    match serde_json::to_value(options) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

/// Options as the crate types them, from a system's own options type written as an object.
fn from_map(options: Value) -> Result<RoomOptions, Refusal> {
    serde_json::from_value(options)
        .map_err(|e| Refusal::new(Code::BadRequest, format!("options: {e}")))
}

/// The `turn` event of a system whose turn event repeats the whole turn (Orbit, Orbs): every
/// field of `turn` but ORION's (a puzzle's target).
fn turn_event(turn: Turn) -> Event<'static> {
    Event::Turn {
        seat: turn.seat,
        clicks: turn.clicks,
        round: turn.round,
        used: Some(turn.used),
        systems: TurnParts {
            orion: Default::default(),
            orbit: turn.systems.orbit,
        },
    }
}
