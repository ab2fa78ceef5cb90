//! Moves and move lists. A move is a drop on a cell, a pass, or during the opening the choice
//! of a colour; a list of legal moves is a bitset of drops plus two flags, so listing the
//! legal moves never allocates.

use crate::cell::Cell;
use crate::cellset::{CellSet, CellSetIter};
use crate::error::ParseError;
use crate::stone::Stone;
use std::fmt;
use std::str::FromStr;

/// One move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Drop a stone of the mover's colour on this cell.
    Drop(Cell),
    /// Pass; two passes in a row end the game.
    Pass,
    /// `N`, after the opening: play this colour (`S` plays the other).
    Choose(Stone),
}

impl FromStr for Move {
    type Err = ParseError;

    /// Reads `h8`, `pass`, `black` or `white` (either case).
    fn from_str(text: &str) -> Result<Move, ParseError> {
        let text = text.trim();
        match text.to_ascii_lowercase().as_str() {
            "pass" => Ok(Move::Pass),
            "black" => Ok(Move::Choose(Stone::Black)),
            "white" => Ok(Move::Choose(Stone::White)),
            _ => text
                .parse()
                .map(Move::Drop)
                .map_err(|_| ParseError::BadMove(text.to_string())),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Drop(cell) => write!(f, "{cell}"),
            Move::Pass => f.write_str("pass"),
            Move::Choose(stone) => write!(f, "{stone}"),
        }
    }
}

/// The legal moves of one position: drops in reading order, then the pass, then the choices.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Moves {
    /// Cells the mover may drop on.
    pub drops: CellSet,
    /// Whether the mover may pass.
    pub pass: bool,
    /// Whether the mover chooses a colour (both are then legal).
    pub choose: bool,
}

impl Moves {
    /// How many moves.
    pub fn len(&self) -> usize {
        self.drops.len() + usize::from(self.pass) + 2 * usize::from(self.choose)
    }

    /// Whether there is no legal move (the game is over).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `mv` is among them.
    pub fn contains(&self, mv: Move) -> bool {
        match mv {
            Move::Drop(cell) => self.drops.contains(cell),
            Move::Pass => self.pass,
            Move::Choose(_) => self.choose,
        }
    }

    /// The `n`th move in list order, for picking one uniformly.
    pub fn nth(&self, n: usize) -> Option<Move> {
        match n.checked_sub(self.drops.len()) {
            None => self.drops.nth(n).map(Move::Drop),
            Some(k) => self.iter().skip(self.drops.len()).nth(k),
        }
    }

    /// The moves in list order.
    pub fn iter(&self) -> MovesIter {
        MovesIter {
            drops: self.drops.iter(),
            rest: [
                self.pass.then_some(Move::Pass),
                self.choose.then_some(Move::Choose(Stone::Black)),
                self.choose.then_some(Move::Choose(Stone::White)),
            ],
            next_rest: 0,
        }
    }
}

impl IntoIterator for Moves {
    type Item = Move;
    type IntoIter = MovesIter;
    fn into_iter(self) -> MovesIter {
        self.iter()
    }
}

/// The moves of a [`Moves`] in list order.
#[derive(Clone, Debug)]
pub struct MovesIter {
    drops: CellSetIter,
    rest: [Option<Move>; 3],
    next_rest: usize,
}

impl Iterator for MovesIter {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        if let Some(cell) = self.drops.next() {
            return Some(Move::Drop(cell));
        }
        while let Some(slot) = self.rest.get_mut(self.next_rest) {
            self.next_rest += 1;
            if let Some(mv) = slot.take() {
                return Some(mv);
            }
        }
        None
    }
}
