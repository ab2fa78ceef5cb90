//! Where the orbs stand: one optional orb per hole, and the position string that names it,
//! `hole:token` pairs in reading order (`a1:RW b1:RA b2:RA`).

use crate::hole::{Hole, HoleError, HOLES};
use crate::holeset::HoleSet;
use crate::orb::Orb;
use crate::seat::Colour;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The orbs on the star. Any arrangement is a `Position`; the rules of a game (holes out of
/// play, colours in play) are checked when a [`crate::Game`] starts from it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    /// The orb on each hole, by index in reading order.
    orbs: [Option<Orb>; HOLES],
}

impl Default for Position {
    fn default() -> Position {
        Position::empty()
    }
}

impl Position {
    /// No orb anywhere.
    pub const fn empty() -> Position {
        Position {
            orbs: [None; HOLES],
        }
    }

    /// The orb on `hole`.
    pub fn get(&self, hole: Hole) -> Option<Orb> {
        self.orbs[hole.index()]
    }

    /// Puts `orb` on `hole` (or empties it) and returns what stood there.
    pub fn set(&mut self, hole: Hole, orb: Option<Orb>) -> Option<Orb> {
        std::mem::replace(&mut self.orbs[hole.index()], orb)
    }

    /// Every orb with its hole, in reading order.
    pub fn orbs(&self) -> impl Iterator<Item = (Hole, Orb)> + '_ {
        Hole::all().filter_map(|h| self.get(h).map(|o| (h, o)))
    }

    /// The holes that hold an orb.
    pub fn occupied(&self) -> HoleSet {
        self.orbs().map(|(h, _)| h).collect()
    }

    /// The holes holding orbs of `colour`.
    pub fn of(&self, colour: Colour) -> HoleSet {
        self.orbs()
            .filter(|(_, o)| o.colour == colour)
            .map(|(h, _)| h)
            .collect()
    }

    /// How many orbs `colour` has.
    pub fn count(&self, colour: Colour) -> usize {
        self.orbs().filter(|(_, o)| o.colour == colour).count()
    }

    /// How many orbs there are.
    pub fn len(&self) -> usize {
        self.orbs.iter().flatten().count()
    }

    /// Whether no orb is left.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl fmt::Display for Position {
    /// The position string: `hole:token` pairs in reading order, one space apart.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (h, o)) in self.orbs().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{h}:{o}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

/// Why a position string did not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A pair is not `hole:token`.
    #[error("`{0}` is not hole:orb (e.g. `a1:RW`)")]
    Pair(String),
    /// The hole does not exist.
    #[error(transparent)]
    Hole(#[from] HoleError),
    /// The token is not a colour letter and an element letter.
    #[error("`{0}` is not an orb (colour R, B, G, Y, O or P, then element F, W, E, A or V)")]
    Orb(String),
    /// Two orbs on one hole.
    #[error("two orbs on {0}")]
    Twice(Hole),
}

impl FromStr for Position {
    type Err = PositionError;
    fn from_str(text: &str) -> Result<Position, PositionError> {
        let mut p = Position::empty();
        for pair in text.split_whitespace() {
            let (hole, token) = pair
                .split_once(':')
                .ok_or_else(|| PositionError::Pair(pair.to_string()))?;
            let hole: Hole = hole.parse()?;
            let orb = Orb::parse(token).ok_or_else(|| PositionError::Orb(token.to_string()))?;
            if p.set(hole, Some(orb)).is_some() {
                return Err(PositionError::Twice(hole));
            }
        }
        Ok(p)
    }
}
