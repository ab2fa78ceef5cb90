//! The rules of Orbit (Steve Meyers, 2000), the half-prohibition standard game of ORBIT.md:
//! a 16 x 16 board of cells, black and white stones, orbits that capture and prohibit,
//! half-orbits that prohibit, territory scoring. No I/O and no async: a server, a test or a
//! bot drives the same code.

mod board;
mod cell;
mod cellset;
mod error;
mod game;
mod moves;
mod notation;
mod stone;
mod structure;

pub use board::Board;
pub use cell::{Cell, CELLS, SIDE};
pub use cellset::{CellSet, CellSetIter};
pub use error::ParseError;
pub use game::{
    captures, Effect, End, Game, OrbitError, Outcome, SetupError, StructureKind, Turn, MAX_DROPS,
    OPENING_DROPS,
};
pub use moves::{Move, Moves, MovesIter};
pub use notation::{parse_position, position_string};
pub use stone::{ByStone, Seat, Stone};
pub use structure::{groups, Groups, Side, Structure, Structures};
