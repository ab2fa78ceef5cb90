//! The offline commands for Orbit (`--game orbit`, ORBIT.md): `apply` plays coloured moves on
//! a position taken as after the opening; `analyze` prints the prohibited cells and the
//! territory. Same contract as the ORION commands: one line out, or a one-line error.

use crate::systems::Offline;
use orion_orbit::{parse_position, Board, CellSet, Game, Move, Stone, Turn};
use serde_json::json;

/// Orbit's offline commands.
pub struct OrbitOffline;

impl Offline for OrbitOffline {
    fn apply(
        &self,
        players: Option<u8>,
        teams: bool,
        position: &str,
        moves: &str,
    ) -> Result<String, String> {
        if players.is_some() || teams {
            return Err("--players and --teams: orbit is for two, with no partners".into());
        }
        apply(position, moves)
    }

    fn analyze(&self, position: &str, mover: Option<&str>) -> Option<Result<String, String>> {
        Some(analyze(position, mover))
    }
}

/// `orion apply --game orbit`: plays `B h8, W g7, B pass` under the rules from `position`
/// (the first move's colour moves first; turns then alternate) and prints the position after.
pub fn apply(position: &str, moves: &str) -> Result<String, String> {
    let board = read_position(position)?;
    let moves = parse_moves(moves)?;
    let first = moves.first().map_or(Stone::Black, |m| m.colour);
    let mut game = Game::from_board(board, first).map_err(|e| format!("--position: {e}"))?;
    for (i, m) in moves.iter().enumerate() {
        let fail = |why: String| format!("--moves: move {} `{}`: {why}", i + 1, m.text);
        if let Turn::Play(due) = game.turn() {
            if due != m.colour {
                return Err(fail(format!("it is {due}'s turn")));
            }
        }
        game.play(m.mv).map_err(|e| fail(e.to_string()))?;
    }
    Ok(game.board().to_string())
}

/// `orion analyze --game orbit`: `{"prohibited":{"B":[..],"W":[..]},"territory":{"B":n,"W":n}}`
/// with cells in reading order. A prohibited cell is any cell in a region of the other
/// colour's orbits and half-orbits, occupied or not (ORBIT.md "Play" 7).
pub fn analyze(position: &str, mover: Option<&str>) -> Result<String, String> {
    if mover.is_some() {
        return Err("--mover: Orbit's analysis is the same for both colours; drop --mover".into());
    }
    let board = read_position(position)?;
    let names = |set: CellSet| set.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    let t = board.territory();
    Ok(json!({
        "prohibited": {
            "B": names(board.prohibited(Stone::Black)),
            "W": names(board.prohibited(Stone::White)),
        },
        "territory": { "B": t.black, "W": t.white },
    })
    .to_string())
}

fn read_position(text: &str) -> Result<Board, String> {
    parse_position(text).map_err(|e| format!("--position: {e}"))
}

/// One move of the `--moves` list: its colour, the move, and the text for error messages.
struct ColouredMove {
    colour: Stone,
    mv: Move,
    text: String,
}

/// Reads `B h8, W g7, B pass`: comma-separated, each a colour (`B`/`W`, or the word) and a
/// move. The empty string is no move.
fn parse_moves(text: &str) -> Result<Vec<ColouredMove>, String> {
    let mut out = Vec::new();
    for (i, item) in text.split(',').map(str::trim).enumerate() {
        if item.is_empty() && text.trim().is_empty() {
            break;
        }
        let fail = |why: String| format!("--moves: move {} `{item}`: {why}", i + 1);
        let mut words = item.split_whitespace();
        let (Some(colour), Some(mv), None) = (words.next(), words.next(), words.next()) else {
            return Err(fail(
                "write a colour and a move, like `B h8` or `W pass`".to_string(),
            ));
        };
        let colour = Stone::parse(colour)
            .ok_or_else(|| fail(format!("unknown colour `{colour}` (B or W)")))?;
        let mv: Move = mv.parse().map_err(|e| fail(format!("{e}")))?;
        out.push(ColouredMove {
            colour,
            mv,
            text: item.to_string(),
        });
    }
    Ok(out)
}
