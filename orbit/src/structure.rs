//! Groups and the structures they make (ORBIT.md "Play" 3–5). A group is a maximal set of
//! one colour's stones connected orthogonally or diagonally. Its orbit region is what a
//! 4-neighbour flood from the ring of outside cells cannot reach through the cells not in
//! the group; a half-orbit region on one side is what that flood misses once the side's own
//! ring cells (its corners excepted) are walls. Both depend on the group's stones alone.

use crate::cellset::CellSet;
use std::fmt;

/// One side of the board, as the half-orbit rule takes each side alone.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// Row 1.
    Bottom,
    /// Row 16.
    Top,
    /// Column `a`.
    Left,
    /// Column `p`.
    Right,
}

impl Side {
    /// The four sides.
    pub const ALL: [Side; 4] = [Side::Bottom, Side::Top, Side::Left, Side::Right];

    /// The board cells next to the ring cells that stay open when this side's ring cells are
    /// walls. A corner cell touches two sides' ring cells, so it stays open through the
    /// other side: the corner ring cells themselves touch no board cell.
    const fn open_border(self) -> CellSet {
        match self {
            Side::Bottom => or3(CellSet::TOP, CellSet::LEFT, CellSet::RIGHT),
            Side::Top => or3(CellSet::BOTTOM, CellSet::LEFT, CellSet::RIGHT),
            Side::Left => or3(CellSet::BOTTOM, CellSet::TOP, CellSet::RIGHT),
            Side::Right => or3(CellSet::BOTTOM, CellSet::TOP, CellSet::LEFT),
        }
    }
}

/// The union of three sets, usable in constants.
const fn or3(a: CellSet, b: CellSet, c: CellSet) -> CellSet {
    let (a, b, c) = (a.words(), b.words(), c.words());
    CellSet::from_words([
        a[0] | b[0] | c[0],
        a[1] | b[1] | c[1],
        a[2] | b[2] | c[2],
        a[3] | b[3] | c[3],
    ])
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Bottom => "bottom",
            Side::Top => "top",
            Side::Left => "left",
            Side::Right => "right",
        })
    }
}

/// What one group encloses.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Structure {
    /// The region of its orbit: cells not in the group that no outside cell reaches. Empty
    /// if the group is no orbit.
    pub orbit: CellSet,
    /// The regions of its half-orbits, all sides together: cells an outside cell reaches only
    /// through the one side the group closes with. Never overlaps `orbit`.
    pub half: CellSet,
}

impl Structure {
    /// What `group` encloses. `group` should be one connected group (see [`groups`]); for any
    /// other set the answer is what that set of stones would enclose were it connected.
    pub fn of(group: CellSet) -> Structure {
        // The smallest orbit is four stones around one cell; the smallest half-orbit three
        // stones around one edge cell. Below that nothing can be enclosed.
        let size = group.len();
        if size < 3 {
            return Structure::default();
        }
        let free = !group;
        let outside = CellSet::flood4(CellSet::BORDER, free);
        let orbit = free - outside;
        // A group that touches no edge cell leaves the whole border free, and the border is
        // one 4-connected ring: every side's flood reaches all that the full flood does.
        let mut half = CellSet::EMPTY;
        if group.intersects(CellSet::BORDER) {
            for side in Side::ALL {
                half |= outside - CellSet::flood4(side.open_border(), outside);
            }
        }
        Structure { orbit, half }
    }

    /// The orbit region of `group` alone, for captures (half-orbits capture nothing).
    pub fn orbit_of(group: CellSet) -> CellSet {
        if group.len() < 4 {
            return CellSet::EMPTY;
        }
        let free = !group;
        free - CellSet::flood4(CellSet::BORDER, free)
    }

    /// Every cell the structure prohibits to the other colour.
    #[inline]
    pub fn region(self) -> CellSet {
        self.orbit | self.half
    }
}

/// The groups of a set of one colour's stones, first-cell order.
pub fn groups(stones: CellSet) -> Groups {
    Groups { rest: stones }
}

/// Iterator over the groups of a set of stones (see [`groups`]).
#[derive(Clone, Debug)]
pub struct Groups {
    rest: CellSet,
}

impl Iterator for Groups {
    type Item = CellSet;

    fn next(&mut self) -> Option<CellSet> {
        let first = self.rest.first()?;
        let group = CellSet::flood8(CellSet::from_cell(first), self.rest);
        self.rest = self.rest - group;
        Some(group)
    }
}

/// The structures of all groups of one colour, merged.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Structures {
    /// Cells in the region of some orbit.
    pub orbits: CellSet,
    /// Cells in the region of some half-orbit and of no orbit.
    pub halves: CellSet,
}

impl Structures {
    /// The structures of `stones`, all of one colour.
    pub fn of(stones: CellSet) -> Structures {
        let mut all = Structures::default();
        for group in groups(stones) {
            all.add(Structure::of(group));
        }
        all
    }

    /// Adds one group's structure.
    pub fn add(&mut self, s: Structure) {
        self.orbits |= s.orbit;
        self.halves |= s.half;
        self.halves = self.halves - self.orbits;
    }

    /// Every cell they prohibit to the other colour.
    #[inline]
    pub fn region(self) -> CellSet {
        self.orbits | self.halves
    }
}
