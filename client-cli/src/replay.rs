//! `orion replay FILE`: reads a finished game's record (`/g/ROOM.txt`, the `export` reply),
//! plays every action again through the game's engine (ORION's from the record's seed and
//! options; Orbit's; Orbs' from the record's start), checks the position after each turn and
//! the result against the record (ORION: the whole result; Orbit and Orbs: the winner), and
//! prints the final position and result. The tests replay exported games with this code.

use crate::room::engine_options;
use orion_engine::{games, position_string, Action, Game, Seat};
use orion_protocol::{describe_result, GameRecord, GameResult, RoomOptions};
use serde_json::Value;

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

/// The game a record is replayed through: ORION's engine, Orbit's or Orbs'.
enum Replay {
    /// ORION (any of its games and puzzles).
    Orion(Box<Game>),
    /// Orbit.
    Orbit(orion_orbit::Game),
    /// Orbs.
    Orbs(orion_orbs::Game),
}

/// How the game stands after the replay: over by the rules (with the winner as the wire
/// writes it), ended by the room (a seat lost on time in Orbit's opening), or still on.
enum End {
    /// The rules ended it.
    Rules(Option<String>),
    /// The room ended it.
    Room,
    /// Not over.
    On,
}

impl Replay {
    fn new(record: &GameRecord, options: &RoomOptions) -> Result<Replay, String> {
        match record.game.as_str() {
            "orbit" => Ok(Replay::Orbit(orion_orbit::Game::new())),
            "orbs" => {
                // From the record's start (void orbs and the opening are on it already), as
                // the terminal client's copy of an Orbs room starts.
                let start = record.start.as_deref().unwrap_or_default();
                let position: orion_orbs::Position =
                    start.parse().map_err(|e| format!("start: {e}"))?;
                let mut holes = orion_orbs::HoleSet::EMPTY;
                if let Some(Value::Array(list)) = options.extra.get("holes") {
                    for h in list.iter().filter_map(Value::as_str) {
                        holes.insert(h.parse().map_err(|e| format!("holes: {e}"))?);
                    }
                }
                let first = (record.turns.first())
                    .and_then(|t| orion_protocol::Seat::parse(&t.seat))
                    .and_then(crate::system::orbs::seat);
                let game = orion_orbs::Game::new(orion_orbs::Options {
                    players: options.players.flatten().unwrap_or(2),
                    opening: orion_orbs::Opening::Position(Box::new(position)),
                    void: false,
                    holes,
                    teams: options.extra.get("teams") == Some(&Value::Bool(true)),
                    first,
                })
                .map_err(|e| format!("options: {e}"))?;
                Ok(Replay::Orbs(game))
            }
            id => {
                let rules = games::find_any(id).ok_or_else(|| format!("unknown game `{id}`"))?;
                let game = Game::new(rules, engine_options(options), record.seed())
                    .map_err(|e| format!("options: {e}"))?;
                Ok(Replay::Orion(Box::new(game)))
            }
        }
    }

    fn position(&self) -> String {
        match self {
            Replay::Orion(g) => position_string(g.position()),
            Replay::Orbit(g) => orion_orbit::position_string(g.board()),
            Replay::Orbs(g) => g.position().to_string(),
        }
    }

    /// Takes `seat`'s action, in the record's notation.
    fn apply(&mut self, seat: &str, action: &str, ended: &mut bool) -> Result<(), String> {
        let wire = orion_protocol::Seat::parse(seat).ok_or_else(|| format!("no seat {seat}"))?;
        match self {
            Replay::Orion(game) => {
                let seat = Seat::parse(seat).ok_or_else(|| format!("no seat {seat}"))?;
                let action = Action::parse(action).map_err(|e| e.to_string())?;
                // Claims were accepted inside their window when played; the replay's clock
                // stands still, so each claim is inside it again.
                game.step(seat, action, 0)
                    .map(|_| ())
                    .map_err(|e| format!("refused: {e}"))
            }
            Replay::Orbit(game) => {
                let mover = game.seat_to_move().map(|s| s.to_string());
                if mover.as_deref() != Some(seat) {
                    return Err(format!("it is not {seat}'s turn"));
                }
                let mv = match (action, game.turn()) {
                    ("timeout", orion_orbit::Turn::Play(_)) => orion_orbit::Move::Pass,
                    ("timeout", _) => {
                        // No pass in the opening: the seat out of time lost.
                        *ended = true;
                        return Ok(());
                    }
                    (text, _) => text.parse().map_err(|e| format!("{e}"))?,
                };
                game.play(mv)
                    .map(|_| ())
                    .map_err(|e| format!("refused: {e}"))
            }
            Replay::Orbs(game) => {
                let seat =
                    crate::system::orbs::seat(wire).ok_or_else(|| format!("no seat {seat}"))?;
                let refused = |e: &dyn std::fmt::Display| format!("refused: {e}");
                match action {
                    "draw" => game.offer_draw(seat).map(|_| ()).map_err(|e| refused(&e)),
                    "draw accept" => game.accept_draw(seat).map(|_| ()).map_err(|e| refused(&e)),
                    _ if game.mover() != Some(seat) => Err(format!("it is not {seat}'s turn")),
                    "timeout" | "pass" => game.pass().map(|_| ()).map_err(|e| refused(&e)),
                    text => {
                        let mv: orion_orbs::Move = text.parse().map_err(|e| format!("{e}"))?;
                        game.play(mv).map(|_| ()).map_err(|e| refused(&e))
                    }
                }
            }
        }
    }

    fn end(&self, ended: bool) -> End {
        if ended {
            return End::Room;
        }
        match self {
            Replay::Orion(g) => g.outcome().map_or(End::On, |o| {
                End::Rules(
                    orion_protocol::engine::result(o)
                        .winner
                        .map(|w| w.to_string()),
                )
            }),
            Replay::Orbit(g) => g.outcome().map_or(End::On, |o| {
                End::Rules(o.winner.and_then(|c| g.holder(c)).map(|s| s.to_string()))
            }),
            Replay::Orbs(g) => g.outcome().map_or(End::On, |o| {
                End::Rules(match o {
                    orion_orbs::Outcome::Win(orion_orbs::Winner::Seat(s)) => Some(s.to_string()),
                    orion_orbs::Outcome::Win(orion_orbs::Winner::Team(a, b)) => {
                        Some(format!("{a}+{b}"))
                    }
                    orion_orbs::Outcome::Draw(_) => None,
                })
            }),
        }
    }
}

/// Replays the record `text`; an error says which turn or header does not hold up.
pub fn replay(text: &str) -> Result<Replayed, String> {
    let record = GameRecord::parse(text).map_err(|e| e.to_string())?;
    let options: RoomOptions =
        serde_json::from_str(&record.options).map_err(|e| format!("options: {e}"))?;
    let mut game = Replay::new(&record, &options)?;
    if let Some(start) = &record.start {
        let ours = game.position();
        if &ours != start {
            return Err(format!(
                "the start differs: the record has `{start}`, the seed gives `{ours}`"
            ));
        }
    }
    let mut ended = false;
    let mut positions = Vec::with_capacity(record.turns.len());
    for turn in &record.turns {
        for item in &turn.items {
            let seat = item.seat.as_deref().unwrap_or(&turn.seat);
            game.apply(seat, &item.action, &mut ended)
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
    let result = match (game.end(ended), &record.reason) {
        (End::Rules(winner), None) => {
            if let Replay::Orion(g) = &game {
                // ORION's whole result (scores, Algol's revealed men) is the engine's.
                let ours = g.outcome().map(orion_protocol::engine::result);
                if ours.as_ref() != Some(&record.result) {
                    return Err(format!(
                        "the result differs: the record says {}, the replay {}",
                        describe_result(&record.result),
                        ours.as_ref().map_or("nothing".into(), describe_result)
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
        (End::Room | End::On, Some(_)) => record.result.clone(),
        (End::Room, None) => {
            return Err("a seat lost on time, but the record gives no reason".to_string())
        }
        (End::Rules(_), Some(reason)) => {
            return Err(format!(
                "the record says the room ended the game ({reason}), but the rules ended it first"
            ))
        }
        (End::On, None) => return Err("the replay does not reach the end of the game".to_string()),
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
