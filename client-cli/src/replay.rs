//! `orion replay FILE`: reads a finished game's record (`/g/ROOM.txt`, the `export` reply),
//! plays every action again through the engine from the record's seed and options, checks
//! the position after each turn and the result against the record, and prints the final
//! position and result. The tests replay exported games with this same code.

use crate::room::engine_options;
use orion_engine::{games, position_string, Action, Game, Seat};
use orion_protocol::{describe_result, GameRecord, GameResult, RoomOptions};

/// What a replay reached.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    /// The record read back.
    pub record: GameRecord,
    /// The position after each turn, in order.
    pub positions: Vec<String>,
    /// The final position.
    pub position: String,
    /// The result: the engine's where the rules ended the game, the record's where the room
    /// did (a seat out of time, every seat gone), the engine agreeing the game was not over.
    pub result: GameResult,
}

/// Replays the record `text`; an error says which turn or header does not hold up.
pub fn replay(text: &str) -> Result<Replayed, String> {
    let record = GameRecord::parse(text).map_err(|e| e.to_string())?;
    let rules = games::find_any(&record.game).ok_or_else(|| {
        if record.game == "orbit" || record.game == "orbs" {
            format!(
                "{}: replaying its records is not supported yet",
                record.game
            )
        } else {
            format!("unknown game `{}`", record.game)
        }
    })?;
    let options: RoomOptions =
        serde_json::from_str(&record.options).map_err(|e| format!("options: {e}"))?;
    let mut game = Game::new(rules, engine_options(&options), record.seed())
        .map_err(|e| format!("options: {e}"))?;
    if let Some(start) = &record.start {
        let ours = position_string(game.position());
        if &ours != start {
            return Err(format!(
                "the start differs: the record has `{start}`, the seed gives `{ours}`"
            ));
        }
    }
    let mut positions = Vec::with_capacity(record.turns.len());
    for turn in &record.turns {
        for item in &turn.items {
            let seat_name = item.seat.as_deref().unwrap_or(&turn.seat);
            let at = |why: String| format!("turn {} ({}): {why}", turn.number, item.action);
            let seat = Seat::parse(seat_name).ok_or_else(|| at(format!("no seat {seat_name}")))?;
            let action = Action::parse(&item.action).map_err(|e| at(e.to_string()))?;
            // Claims were accepted inside their window when played; the replay's clock stands
            // still, so each claim is inside it again.
            game.step(seat, action, 0)
                .map_err(|e| at(format!("refused: {e}")))?;
        }
        let position = position_string(game.position());
        if let Some(expected) = &turn.position {
            if expected != &position {
                return Err(format!(
                    "turn {}: the record shows `{expected}`, the replay reaches `{position}`",
                    turn.number
                ));
            }
        }
        positions.push(position);
    }
    let result = match (game.outcome(), &record.reason) {
        (Some(outcome), None) => {
            let ours = orion_protocol::engine::result(outcome);
            if ours != record.result {
                return Err(format!(
                    "the result differs: the record says {}, the replay {}",
                    describe_result(&record.result),
                    describe_result(&ours)
                ));
            }
            ours
        }
        (None, Some(_)) => record.result.clone(),
        (Some(outcome), Some(reason)) => {
            return Err(format!(
                "the record says the room ended the game ({reason}), but the rules ended it: {}",
                describe_result(&orion_protocol::engine::result(outcome))
            ))
        }
        (None, None) => return Err("the replay does not reach the end of the game".to_string()),
    };
    Ok(Replayed {
        position: position_string(game.position()),
        record,
        positions,
        result,
    })
}

/// The one line `orion replay` prints (with `turns`, one line per turn before it).
pub fn summary(replayed: &Replayed, turns: bool) -> String {
    let mut out = String::new();
    if turns {
        for (turn, position) in replayed.record.turns.iter().zip(&replayed.positions) {
            let actions: Vec<String> = (turn.items.iter())
                .map(|i| match &i.seat {
                    Some(s) => format!("({s}) {}", i.action),
                    None => i.action.clone(),
                })
                .collect();
            out.push_str(&format!(
                "{}. {}: {}  => {position}\n",
                turn.number,
                turn.seat,
                actions.join(", ")
            ));
        }
    }
    let line = serde_json::json!({
        "room": replayed.record.room,
        "game": replayed.record.game,
        "turns": replayed.record.turns.len(),
        "position": replayed.position,
        "result": describe_result(&replayed.result),
        "reason": replayed.record.reason,
    });
    out.push_str(&line.to_string());
    out
}
