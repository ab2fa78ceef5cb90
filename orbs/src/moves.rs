//! A move: one orb from a hole to the next one, written `from-to` (`d2-e6`).

use crate::hole::{Hole, HoleError};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// One step of one orb. Whose move it is comes from the game, not the move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Where the orb stands.
    pub from: Hole,
    /// Where it goes.
    pub to: Hole,
}

impl Move {
    /// The move from `from` to `to`.
    pub const fn new(from: Hole, to: Hole) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// Why a move's text did not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveTextError {
    /// Not two holes joined by `-`.
    #[error("`{0}` is not a move (from-to, e.g. `d2-e6`)")]
    Shape(String),
    /// A hole does not exist.
    #[error("`{text}`: {hole}")]
    Hole {
        /// The move as written.
        text: String,
        /// The hole that is wrong.
        hole: HoleError,
    },
}

impl FromStr for Move {
    type Err = MoveTextError;
    fn from_str(text: &str) -> Result<Move, MoveTextError> {
        let text = text.trim();
        let (from, to) = text
            .split_once('-')
            .ok_or_else(|| MoveTextError::Shape(text.to_string()))?;
        let hole = |s: &str| {
            s.trim()
                .parse::<Hole>()
                .map_err(|hole| MoveTextError::Hole {
                    text: text.to_string(),
                    hole,
                })
        };
        Ok(Move::new(hole(from)?, hole(to)?))
    }
}
