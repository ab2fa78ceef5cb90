//! What a room is made with: the server's clocks and holds, and the game's own options, which
//! its game system checks and completes. Each bound is stated where it is defined.

use crate::clock::Millis;
use crate::protocol::{Code, Refusal};
use crate::system::{GameInfo, GameSystem};
use serde_json::{json, Map, Value};

/// Default seat hold for a disconnected player (PROTOCOL.md: 120 s).
pub const DEFAULT_SEAT_HOLD: Millis = 120_000;
/// Bounds on the clock options, in milliseconds.
const MAX_CLOCK: Millis = 24 * 3_600_000;
/// Shortest turn clock: each expiry stores events, so a 1 ms clock would store a thousand a
/// second (and the clock is paused anyway while every seat is away).
pub const MIN_TURN_CLOCK: Millis = 1_000;

/// A room's options: the server's clocks and holds, and the game's own options (checked and
/// completed by its game system). On the wire and in the store they are one flat object.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomOptions {
    /// Milliseconds per turn; on expiry the turn ends. `None`: no clock.
    pub turn_clock: Option<Millis>,
    /// Extra milliseconds per seat for the whole game, drawn once a turn clock runs out;
    /// when it runs out too, that seat loses the game. `None`: no bank.
    pub time_bank: Option<Millis>,
    /// How long a disconnected player's seat is held, in ms.
    pub seat_hold: Millis,
    /// The game's options as its system completed them (an object).
    pub game: Value,
}

/// The options the server keeps for itself; every other key is the game system's.
const SERVER_OPTIONS: [&str; 3] = ["turn_clock", "time_bank", "seat_hold"];

impl RoomOptions {
    /// Reads the `options` of a `create` (or a stored room's) for `game` of `system`,
    /// saying what was wrong. `players` (a quick match's count) overrides the options'.
    pub fn parse(
        value: Option<&Value>,
        system: &dyn GameSystem,
        game: &GameInfo,
        players: Option<u8>,
    ) -> Result<RoomOptions, Refusal> {
        let bad = |m: String| Refusal::new(Code::BadRequest, format!("options: {m}"));
        let mut rest = match value {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(map)) => map.clone(),
            Some(other) => return Err(bad(format!("expected an object, not {other}"))),
        };
        let ms = |rest: &mut Map<String, Value>, key: &str| -> Result<Option<Millis>, Refusal> {
            match rest.remove(key) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => v
                    .as_u64()
                    .map(Some)
                    .ok_or_else(|| bad(format!("{key} must be a whole number of ms, not {v}"))),
            }
        };
        let turn_clock = ms(&mut rest, SERVER_OPTIONS[0])?;
        let time_bank = ms(&mut rest, SERVER_OPTIONS[1])?;
        let seat_hold = ms(&mut rest, SERVER_OPTIONS[2])?.unwrap_or(DEFAULT_SEAT_HOLD);
        if turn_clock.is_some_and(|ms| !(MIN_TURN_CLOCK..=MAX_CLOCK).contains(&ms)) {
            return Err(bad(format!(
                "turn_clock must be {MIN_TURN_CLOCK} to {MAX_CLOCK} ms"
            )));
        }
        if time_bank.is_some_and(|ms| !(1..=MAX_CLOCK).contains(&ms)) {
            return Err(bad(format!("time_bank must be 1 to {MAX_CLOCK} ms")));
        }
        if seat_hold > MAX_CLOCK {
            return Err(bad(format!("seat_hold must be at most {MAX_CLOCK} ms")));
        }
        if let Some(n) = players {
            rest.insert("players".into(), json!(n));
        }
        Ok(RoomOptions {
            turn_clock,
            time_bank,
            seat_hold,
            game: system.options(game, rest)?,
        })
    }

    /// The options as one object, as clients are shown them and the store keeps them.
    pub fn to_json(&self) -> Value {
        let mut all = match &self.game {
            Value::Object(map) => map.clone(),
            _ => Map::new(),
        };
        all.insert("turn_clock".into(), json!(self.turn_clock));
        all.insert("time_bank".into(), json!(self.time_bank));
        all.insert("seat_hold".into(), json!(self.seat_hold));
        Value::Object(all)
    }
}
