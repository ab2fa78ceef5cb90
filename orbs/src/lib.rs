//! The rules of Orbs (seed 003, made exact in `ORBS.md`): elemental orbs on the 121-hole
//! star, one step a turn, last player or team with orbs wins. No I/O and no async: the
//! server, the command line, the tests and the bots drive the same code.

#![warn(missing_docs)]

mod game;
mod hole;
mod holeset;
mod moves;
mod orb;
mod position;
mod seat;

pub use game::{
    Draw, DrawError, Effect, Game, Illegal, MoveError, Opening, Options, Outcome, SetupError,
    Winner, CLASSIC_ROWS, QUIET_MOVES,
};
pub use hole::{Hole, HoleError, HOLES, ROW_LENGTHS};
pub use holeset::{HoleSet, HoleSetIter};
pub use moves::{Move, MoveTextError};
pub use orb::{Clash, Element, Orb};
pub use position::{Position, PositionError};
pub use seat::{Colour, Seat};
