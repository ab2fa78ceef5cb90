//! `orion apply --game orbs`: plays moves under the Orbs rules from a position (or the
//! classic opening) and prints the position string after them. Each move names its colour
//! (`R d2-e6, B n2-m3`) so a line can be read without knowing whose turn it is.

use crate::systems::Offline;
use orion_orbs::{Colour, Game, Move, Opening, Options, Position, Seat};

/// Orbs' offline command (`apply`; it has no analysis of its own).
pub struct OrbsOffline;

impl Offline for OrbsOffline {
    fn apply(
        &self,
        players: Option<u8>,
        teams: bool,
        position: &str,
        moves: &str,
    ) -> Result<String, String> {
        apply(players, teams, position, moves)
    }
}

/// `orion apply --game orbs`. An empty `position` means the classic opening, where `S` (or
/// `SW` with four players) moves first; from a given position the first move's colour does.
pub fn apply(
    players: Option<u8>,
    teams: bool,
    position: &str,
    moves: &str,
) -> Result<String, String> {
    let players = players.unwrap_or(2);
    let moves = parse_moves(moves)?;
    let opening = if position.trim().is_empty() {
        Opening::Classic
    } else {
        let p: Position = position.parse().map_err(|e| format!("--position: {e}"))?;
        Opening::Position(Box::new(p))
    };
    let first = match (&opening, moves.first()) {
        (Opening::Position(_), Some((colour, _))) => Some(seat_of(players, *colour, 1)?),
        _ => None,
    };
    let mut game = Game::new(Options {
        players,
        opening,
        teams,
        first,
        ..Options::default()
    })
    .map_err(|e| {
        use orion_orbs::SetupError::*;
        let flag = match e {
            Players(_) => "--players",
            Teams(_) => "--teams",
            _ => "--position",
        };
        format!("{flag}: {e}")
    })?;
    for (i, (colour, mv)) in moves.into_iter().enumerate() {
        let n = i + 1;
        let seat = seat_of(players, colour, n)?;
        let text = format!("move {n}, {} {mv}", colour.letter());
        match game.mover() {
            None => return Err(format!("--moves: {text}: the game is over")),
            Some(mover) if mover != seat => {
                let whose = game.colour_of(mover).map_or("nobody", Colour::name);
                return Err(format!("--moves: {text}: it is {whose}'s turn"));
            }
            Some(_) => {}
        }
        game.play(mv)
            .map_err(|e| format!("--moves: move {n}, {} {e}", colour.letter()))?;
    }
    Ok(game.position().to_string())
}

/// The seat that plays `colour` with this many players; `n` numbers the move for errors.
fn seat_of(players: u8, colour: Colour, n: usize) -> Result<Seat, String> {
    Seat::for_players(players)
        .and_then(|seats| seats.get(colour as usize).copied())
        .ok_or_else(|| {
            format!(
                "--moves: move {n}: {} does not play with {players} players",
                colour.name()
            )
        })
}

/// `R d2-e6, B n2-m3`: colour letter and move, comma-separated.
fn parse_moves(text: &str) -> Result<Vec<(Colour, Move)>, String> {
    let mut moves = Vec::new();
    for (i, item) in text.split(',').enumerate() {
        let item = item.trim();
        let n = i + 1;
        if item.is_empty() {
            if text.trim().is_empty() {
                break;
            }
            return Err(format!("--moves: move {n} is empty"));
        }
        let bad =
            || format!("--moves: move {n}: `{item}` is not a colour and a move (e.g. `R d2-e6`)");
        let (colour, mv) = item.split_once(char::is_whitespace).ok_or_else(bad)?;
        let mut letters = colour.chars();
        let colour = match (letters.next(), letters.next()) {
            (Some(c), None) => Colour::from_letter(c),
            _ => None,
        }
        .ok_or_else(|| {
            format!("--moves: move {n}: unknown colour `{colour}` (R, B, G, Y, O or P)")
        })?;
        let mv: Move = mv.parse().map_err(|e| format!("--moves: move {n}: {e}"))?;
        moves.push((colour, mv));
    }
    Ok(moves)
}
