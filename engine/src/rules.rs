//! The five basic rules (ORION.md section 3) as checks on one click of a move in progress:
//! colour rule, same-piece rule (the set of pieces that could still be "the piece"), clicks
//! rule, no-reversal rule; plus the standard starting sequence and the special die.

use crate::board::{Click, Rotor, SlotSet};
use crate::piece::Piece;
use crate::position::Position;
use crate::puzzles::PuzzleError;
use rand::RngCore;
use thiserror::Error;

/// Why a click (or the end of a move) breaks a basic rule. Messages are for players.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleError {
    /// Colour rule.
    #[error("rotor {0} holds none of your pieces")]
    NoPieceOfYours(Rotor),
    /// Same-piece rule.
    #[error("rotor {0} does not hold the piece you are moving")]
    NotTheMovingPiece(Rotor),
    /// Same-piece rule with a named piece that cannot be the piece.
    #[error("{0} is not the piece you are moving")]
    NotThatPiece(Piece),
    /// A named piece that is not the mover's or not on the board.
    #[error("{0} is not one of your pieces on the board")]
    NotYourPiece(Piece),
    /// Clicks rule.
    #[error("this move has only {0} click(s), all used")]
    NoClicksLeft(u8),
    /// No-reversal rule.
    #[error("that move simply reverses the previous move (no-reversal rule)")]
    Reversal,
    /// A game that locks some rotors.
    #[error("rotor {0} is locked in this game")]
    Locked(Rotor),
    /// A game rule specific to one game, in words.
    #[error("{0}")]
    Game(String),
    /// A puzzle's own rule on which rotors turn and what must hold after a click.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
}

/// A move in progress: how many clicks it may have, how many it has used, and which of the
/// mover's pieces could still be the one being moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveState {
    /// Clicks this move may have.
    pub allowed: u8,
    /// Clicks made so far.
    pub used: u8,
    /// Where the candidates for "the piece" now are (followed through every click).
    pub candidates: SlotSet,
    /// Whether the same-piece rule narrows the candidates click by click (Bootes shares
    /// clicks between two dogs and does not).
    pub narrows: bool,
}

impl MoveState {
    /// A fresh move of up to `allowed` clicks, any of `own` pieces eligible to be the piece.
    pub fn new(allowed: u8, own: SlotSet) -> MoveState {
        MoveState {
            allowed,
            used: 0,
            candidates: own,
            narrows: true,
        }
    }

    /// Names the piece being moved: narrows the candidates to its slot.
    pub fn name_piece(
        &mut self,
        position: &Position,
        own: SlotSet,
        piece: Piece,
    ) -> Result<(), RuleError> {
        let slot = position
            .find(piece)
            .filter(|&s| own.contains(s))
            .ok_or(RuleError::NotYourPiece(piece))?;
        if !self.candidates.contains(slot) {
            return Err(RuleError::NotThatPiece(piece));
        }
        self.candidates = slot.bit();
        Ok(())
    }

    /// Checks the colour, same-piece and clicks rules for `click`, given the mover's pieces.
    pub fn check(&self, own: SlotSet, click: Click) -> Result<(), RuleError> {
        if self.used >= self.allowed {
            return Err(RuleError::NoClicksLeft(self.allowed));
        }
        let orbit = click.rotor.orbit_set();
        if !own.intersects(orbit) {
            return Err(RuleError::NoPieceOfYours(click.rotor));
        }
        if !self.candidates.intersects(orbit) {
            return Err(RuleError::NotTheMovingPiece(click.rotor));
        }
        Ok(())
    }

    /// Records `click` as made: follows the candidates through it.
    #[inline]
    pub fn advance(&mut self, click: Click) {
        let moving = if self.narrows {
            self.candidates & click.rotor.orbit_set()
        } else {
            self.candidates
        };
        self.candidates = moving.clicked(click);
        self.used += 1;
    }

    /// Clicks still available.
    #[inline]
    pub fn left(&self) -> u8 {
        self.allowed.saturating_sub(self.used)
    }
}

/// What the previous player's move did, for the no-reversal rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastMove {
    /// The position before it.
    pub before: Position,
    /// Whether it changed the position at all (a pass cannot be reversed).
    pub changed: bool,
    /// Whether it entered a new piece (Cassiopeia exempts such moves).
    pub entered: bool,
}

/// Whether ending a move at `now` would simply reverse `last` (no-reversal rule).
#[inline]
pub fn reverses(last: Option<&LastMove>, now: &Position) -> bool {
    matches!(last, Some(m) if m.changed && m.before == *now)
}

/// Clicks allowed in round `round` (1-based) under the standard starting sequence.
#[inline]
pub fn standard_start(round: u32, clicks: u8) -> u8 {
    round.min(clicks as u32) as u8
}

/// The special die: faces chosen by the game options (booklet reconstruction 1,2,2,3,4,5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Die {
    /// The faces; each is equally likely.
    pub faces: Vec<u8>,
}

impl Default for Die {
    fn default() -> Die {
        Die {
            faces: vec![1, 2, 2, 3, 4, 5],
        }
    }
}

impl Die {
    /// Throws the die with the injected random source.
    pub fn roll(&self, rng: &mut dyn RngCore) -> u8 {
        if self.faces.is_empty() {
            return 3;
        }
        let i = (rng.next_u32() as usize) % self.faces.len();
        self.faces[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Direction;
    use crate::notation::{parse_click, parse_position};
    use crate::piece::Colour;

    #[test]
    fn candidates_follow_the_piece() {
        let p = parse_position("C1s:R1 E1s:R2").unwrap();
        let own = p.of(Colour::Red);
        let mut m = MoveState::new(3, own);
        let c1r = parse_click("C1R").unwrap();
        m.check(own, c1r).unwrap();
        m.advance(c1r);
        // R1 went C1s -> C1w = B1e; E1 no longer holds the moving piece.
        let e1 = parse_click("E1R").unwrap();
        let own = p.clicked(c1r).of(Colour::Red);
        assert_eq!(
            m.check(own, e1).unwrap_err().to_string(),
            "rotor E1 does not hold the piece you are moving"
        );
        assert!(m.check(own, Click::new(e1.rotor, Direction::Left)).is_err());
        m.check(own, parse_click("B1L").unwrap()).unwrap();
    }
}
