//! `orion replay FILE`: reads a finished game's record (`/g/ROOM.txt`, the `export` reply),
//! plays every action again through its game system's engine ([`crate::systems::Replay`]),
//! checks the position after each turn and the result against the record (the whole result
//! where the engine makes one, else the winner), and prints the final position and result.
//! The tests replay exported games with this code.

use crate::systems::{self, End};
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
    /// The result: the record's, once the replay agrees with it (where the rules ended the
    /// game), or the engine agrees the game was not over (where the room ended it: a seat out
    /// of time, every seat gone).
    pub result: GameResult,
}

/// Replays the record `text`; an error says which turn or header does not hold up.
pub fn replay(text: &str) -> Result<Replayed, String> {
    let record = GameRecord::parse(text).map_err(|e| e.to_string())?;
    let options: RoomOptions =
        serde_json::from_str(&record.options).map_err(|e| format!("options: {e}"))?;
    let (system, _) =
        systems::named(&record.game).ok_or_else(|| format!("unknown game `{}`", record.game))?;
    let mut game = system.replay(&record, &options)?;
    if let Some(start) = &record.start {
        let ours = game.position();
        if &ours != start {
            return Err(format!(
                "the start differs: the record has `{start}`, the seed gives `{ours}`"
            ));
        }
    }
    // The room ended the game (a seat lost on time where it could not pass).
    let mut ended = false;
    let mut positions = Vec::with_capacity(record.turns.len());
    for turn in &record.turns {
        for item in &turn.items {
            let seat = item.seat.as_deref().unwrap_or(&turn.seat);
            ended |= game
                .apply(seat, &item.action)
                .map_err(|why| format!("turn {} ({}): {why}", turn.number, item.action))?;
        }
        let position = game.position();
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
    let recorded = record.result.winner.as_ref().map(|w| w.to_string());
    let end = if ended { None } else { Some(game.end()) };
    let result = match (end, &record.reason) {
        (Some(End::Rules(winner)), None) => {
            if let Some(ours) = game.result() {
                if ours != record.result {
                    return Err(format!(
                        "the result differs: the record says {}, the replay {}",
                        describe_result(&record.result),
                        describe_result(&ours)
                    ));
                }
            } else if winner != recorded {
                return Err(format!(
                    "the winner differs: the record says {}, the replay {}",
                    recorded.as_deref().unwrap_or("nobody"),
                    winner.as_deref().unwrap_or("nobody")
                ));
            }
            record.result.clone()
        }
        (None | Some(End::On), Some(_)) => record.result.clone(),
        (None, None) => {
            return Err("a seat lost on time, but the record gives no reason".to_string())
        }
        (Some(End::Rules(_)), Some(reason)) => {
            return Err(format!(
                "the record says the room ended the game ({reason}), but the rules ended it first"
            ))
        }
        (Some(End::On), None) => {
            return Err("the replay does not reach the end of the game".to_string())
        }
    };
    Ok(Replayed {
        position: game.position(),
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
