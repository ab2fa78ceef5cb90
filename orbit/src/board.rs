//! The stones on the board, one bitset per colour, and what they make: groups, orbits and
//! half-orbits, the cells each colour may not drop on, territory. Everything here is
//! computed afresh from the stones (ORBIT.md "Play" 7): no history is needed.

use crate::cell::Cell;
use crate::cellset::CellSet;
use crate::stone::{ByStone, Stone};
use crate::structure::Structures;
use std::fmt;

/// The stones on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    stones: ByStone<CellSet>,
}

impl Board {
    /// The empty board.
    pub const fn empty() -> Board {
        Board {
            stones: ByStone {
                black: CellSet::EMPTY,
                white: CellSet::EMPTY,
            },
        }
    }

    /// The stone on `cell`, if any.
    #[inline]
    pub fn get(&self, cell: Cell) -> Option<Stone> {
        Stone::ALL
            .into_iter()
            .find(|&s| self.stones[s].contains(cell))
    }

    /// Puts a stone of `stone` on `cell`, replacing what was there.
    pub fn put(&mut self, cell: Cell, stone: Stone) {
        self.stones[stone.other()].remove(cell);
        self.stones[stone].insert(cell);
    }

    /// Empties `cell`.
    pub fn clear(&mut self, cell: Cell) {
        self.stones.black.remove(cell);
        self.stones.white.remove(cell);
    }

    /// Removes every stone on `cells`.
    pub fn clear_all(&mut self, cells: CellSet) {
        self.stones.black = self.stones.black - cells;
        self.stones.white = self.stones.white - cells;
    }

    /// The cells holding stones of `stone`.
    #[inline]
    pub fn of(&self, stone: Stone) -> CellSet {
        self.stones[stone]
    }

    /// The cells holding a stone.
    #[inline]
    pub fn occupied(&self) -> CellSet {
        self.stones.black | self.stones.white
    }

    /// The cells holding no stone.
    #[inline]
    pub fn vacant(&self) -> CellSet {
        !self.occupied()
    }

    /// The orbits and half-orbits of `stone`'s groups.
    pub fn structures(&self, stone: Stone) -> Structures {
        Structures::of(self.stones[stone])
    }

    /// The cells prohibited for `stone`: those in a region of an orbit or half-orbit of the
    /// other colour. Occupied cells are included (a stone can lie in a region, like the black
    /// stone in a white half-orbit); only empty ones matter for drops.
    pub fn prohibited(&self, stone: Stone) -> CellSet {
        self.structures(stone.other()).region()
    }

    /// Each colour's territory: the empty cells prohibited for the other colour and not for
    /// it. Cells prohibited for both are shared and count for neither.
    pub fn territory(&self) -> ByStone<u32> {
        let against = ByStone::new_with(|s| self.prohibited(s));
        Board::territory_from(self.vacant(), against)
    }

    /// Territory from the empty cells and the cells prohibited for each colour.
    fn territory_from(vacant: CellSet, prohibited: ByStone<CellSet>) -> ByStone<u32> {
        ByStone::new_with(|s| {
            let mine = vacant & prohibited[s.other()];
            (mine - prohibited[s]).len() as u32
        })
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}
