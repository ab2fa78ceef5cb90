//! What a seat asks the game to do: the actions of a turn (clicks, placements, the die,
//! ending it), a claim, and the actions of one game (Algol's secret and challenge).

use crate::board::{Click, Slot};
use crate::notation::{parse_click, parse_piece, parse_slot, NotationError};
use crate::piece::Piece;

/// What a seat asks to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Turn a rotor; optionally naming the piece being moved.
    Click { click: Click, piece: Option<Piece> },
    /// Place a new piece on `slot` (a placement turn, or building); `from` moves one of the
    /// mover's pieces instead, when all 20 are on the board.
    Place { slot: Slot, from: Option<Slot> },
    /// End the move now.
    EndTurn,
    /// Throw the die for the number of clicks.
    Roll,
    /// Take three clicks instead of the die.
    Three,
    /// Claim a chain made by another player's click.
    Claim,
    /// The mover's turn clock ran out (sent by the server, not a player).
    Timeout,
    /// Algol: choose one's secret man (before the first move; hidden until the end).
    Secret { piece: Piece },
    /// Algol: challenge an opponent's piece that one of the mover's pieces is in line with.
    Challenge { piece: Piece },
}

/// An action in booklet notation, as a game record writes it: a click alone (`C4R`, or
/// `C4R R7` naming the piece), `place C2n` (`place C2n from A1e`), `roll`, `three`, `end`,
/// `claim`, `timeout`, `secret R3`, `challenge B4`.
impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Click { click, piece: None } => write!(f, "{click}"),
            Action::Click {
                click,
                piece: Some(p),
            } => write!(f, "{click} {p}"),
            Action::Place { slot, from: None } => write!(f, "place {slot}"),
            Action::Place {
                slot,
                from: Some(from),
            } => write!(f, "place {slot} from {from}"),
            Action::EndTurn => f.write_str("end"),
            Action::Roll => f.write_str("roll"),
            Action::Three => f.write_str("three"),
            Action::Claim => f.write_str("claim"),
            Action::Timeout => f.write_str("timeout"),
            Action::Secret { piece } => write!(f, "secret {piece}"),
            Action::Challenge { piece } => write!(f, "challenge {piece}"),
        }
    }
}

impl Action {
    /// Reads an action back from its booklet notation ([`Action`]'s `Display`).
    pub fn parse(text: &str) -> Result<Action, NotationError> {
        let bad = || NotationError::BadAction(text.trim().chars().take(40).collect());
        let words: Vec<&str> = text.split_whitespace().collect();
        Ok(match words.as_slice() {
            ["end"] => Action::EndTurn,
            ["roll"] => Action::Roll,
            ["three"] => Action::Three,
            ["claim"] => Action::Claim,
            ["timeout"] => Action::Timeout,
            ["secret", piece] => Action::Secret {
                piece: parse_piece(piece)?,
            },
            ["challenge", piece] => Action::Challenge {
                piece: parse_piece(piece)?,
            },
            ["place", slot] => Action::Place {
                slot: parse_slot(slot)?,
                from: None,
            },
            ["place", slot, "from", from] => Action::Place {
                slot: parse_slot(slot)?,
                from: Some(parse_slot(from)?),
            },
            [click] => Action::Click {
                click: parse_click(click)?,
                piece: None,
            },
            [click, piece] => Action::Click {
                click: parse_click(click)?,
                piece: Some(parse_piece(piece)?),
            },
            _ => return Err(bad()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_reads_back_from_its_booklet_notation() {
        for text in [
            "C4R",
            "C4L R7",
            "place C1s",
            "place C1s from A1e",
            "end",
            "roll",
            "three",
            "claim",
            "timeout",
            "secret R3",
            "challenge B4",
        ] {
            let action = Action::parse(text).unwrap();
            assert_eq!(action.to_string(), text);
        }
        assert!(Action::parse("dance").is_err());
        assert!(Action::parse("place").is_err());
        assert!(Action::parse("C4R R7 B2").is_err());
    }
}
