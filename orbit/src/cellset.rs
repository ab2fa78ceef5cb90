//! A set of cells as a 256-bit bitset (four words of four rows each), with the shifts that
//! make flood fills cheap: a fill grows by whole-board shifts instead of a queue of cells.

use crate::cell::{Cell, CELLS};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};

/// Every cell but those of column `a`: where a shift towards `p` may land.
const NOT_COLUMN_A: u64 = 0xfffe_fffe_fffe_fffe;
/// Every cell but those of column `p`: where a shift towards `a` may land.
const NOT_COLUMN_P: u64 = 0x7fff_7fff_7fff_7fff;

/// A set of cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet([u64; 4]);

impl CellSet {
    /// No cell.
    pub const EMPTY: CellSet = CellSet([0; 4]);
    /// Every cell.
    pub const FULL: CellSet = CellSet([u64::MAX; 4]);
    /// Row 1.
    pub const BOTTOM: CellSet = CellSet([0xffff, 0, 0, 0]);
    /// Row 16.
    pub const TOP: CellSet = CellSet([0, 0, 0, 0xffff << 48]);
    /// Column `a`.
    pub const LEFT: CellSet = CellSet([0x0001_0001_0001_0001; 4]);
    /// Column `p`.
    pub const RIGHT: CellSet = CellSet([0x8000_8000_8000_8000; 4]);
    /// The 60 cells on the edge of the board.
    pub const BORDER: CellSet = CellSet([
        Self::BOTTOM.0[0] | Self::LEFT.0[0] | Self::RIGHT.0[0],
        Self::LEFT.0[1] | Self::RIGHT.0[1],
        Self::LEFT.0[2] | Self::RIGHT.0[2],
        Self::TOP.0[3] | Self::LEFT.0[3] | Self::RIGHT.0[3],
    ]);

    /// The set from its four words (bit `i` of word `w` is the cell with index `64 w + i`).
    #[inline]
    pub const fn from_words(words: [u64; 4]) -> CellSet {
        CellSet(words)
    }

    /// Its four words (see [`CellSet::from_words`]).
    #[inline]
    pub const fn words(self) -> [u64; 4] {
        self.0
    }

    /// The set holding only `cell`.
    #[inline]
    pub const fn from_cell(cell: Cell) -> CellSet {
        let mut words = [0; 4];
        words[cell.index() / 64] = 1 << (cell.index() % 64);
        CellSet(words)
    }

    /// Whether `cell` is in the set.
    #[inline]
    pub const fn contains(self, cell: Cell) -> bool {
        self.0[cell.index() / 64] & (1 << (cell.index() % 64)) != 0
    }

    /// Adds `cell`.
    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        self.0[cell.index() / 64] |= 1 << (cell.index() % 64);
    }

    /// Removes `cell`.
    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        self.0[cell.index() / 64] &= !(1 << (cell.index() % 64));
    }

    /// How many cells the set holds.
    #[inline]
    pub const fn len(self) -> usize {
        (self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()) as usize
    }

    /// Whether the set holds no cell.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0[0] | self.0[1] | self.0[2] | self.0[3] == 0
    }

    /// Whether the two sets share a cell.
    #[inline]
    pub fn intersects(self, other: CellSet) -> bool {
        !(self & other).is_empty()
    }

    /// The first cell in reading order.
    pub fn first(self) -> Option<Cell> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .and_then(|(i, w)| Cell::from_index(i * 64 + w.trailing_zeros() as usize))
    }

    /// The `n`th cell in reading order (0-based), if the set holds more than `n` cells.
    pub fn nth(self, mut n: usize) -> Option<Cell> {
        for (i, &word) in self.0.iter().enumerate() {
            let ones = word.count_ones() as usize;
            if n < ones {
                let mut w = word;
                for _ in 0..n {
                    w &= w - 1;
                }
                return Cell::from_index(i * 64 + w.trailing_zeros() as usize);
            }
            n -= ones;
        }
        None
    }

    /// The cells in reading order.
    pub fn iter(self) -> CellSetIter {
        CellSetIter(self)
    }

    /// The set moved one cell towards row 16 (what falls off the top is lost).
    #[inline]
    fn north(self) -> CellSet {
        let w = self.0;
        CellSet([
            w[0] << 16,
            (w[1] << 16) | (w[0] >> 48),
            (w[2] << 16) | (w[1] >> 48),
            (w[3] << 16) | (w[2] >> 48),
        ])
    }

    /// The set moved one cell towards row 1.
    #[inline]
    fn south(self) -> CellSet {
        let w = self.0;
        CellSet([
            (w[0] >> 16) | (w[1] << 48),
            (w[1] >> 16) | (w[2] << 48),
            (w[2] >> 16) | (w[3] << 48),
            w[3] >> 16,
        ])
    }

    /// The set moved one cell towards column `p`.
    #[inline]
    fn east(self) -> CellSet {
        let w = self.0;
        CellSet([
            (w[0] << 1) & NOT_COLUMN_A,
            ((w[1] << 1) | (w[0] >> 63)) & NOT_COLUMN_A,
            ((w[2] << 1) | (w[1] >> 63)) & NOT_COLUMN_A,
            ((w[3] << 1) | (w[2] >> 63)) & NOT_COLUMN_A,
        ])
    }

    /// The set moved one cell towards column `a`.
    #[inline]
    fn west(self) -> CellSet {
        let w = self.0;
        CellSet([
            ((w[0] >> 1) | (w[1] << 63)) & NOT_COLUMN_P,
            ((w[1] >> 1) | (w[2] << 63)) & NOT_COLUMN_P,
            ((w[2] >> 1) | (w[3] << 63)) & NOT_COLUMN_P,
            (w[3] >> 1) & NOT_COLUMN_P,
        ])
    }

    /// The set with its orthogonal neighbours added.
    #[inline]
    pub fn grow4(self) -> CellSet {
        self | self.north() | self.south() | self.east() | self.west()
    }

    /// The set with its orthogonal and diagonal neighbours added.
    #[inline]
    pub fn grow8(self) -> CellSet {
        let row = self | self.east() | self.west();
        row | row.north() | row.south()
    }

    /// Every cell of `within` reachable from `seeds ∩ within` by orthogonal steps inside
    /// `within`.
    pub fn flood4(seeds: CellSet, within: CellSet) -> CellSet {
        let mut reached = seeds & within;
        loop {
            let next = reached.grow4() & within;
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }

    /// Every cell of `within` reachable from `seeds ∩ within` by orthogonal or diagonal steps
    /// inside `within`: with `within` the stones of one colour, the groups touching `seeds`.
    pub fn flood8(seeds: CellSet, within: CellSet) -> CellSet {
        let mut reached = seeds & within;
        loop {
            let next = reached.grow8() & within;
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }
}

impl BitAnd for CellSet {
    type Output = CellSet;
    #[inline]
    fn bitand(self, o: CellSet) -> CellSet {
        CellSet(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

impl BitOr for CellSet {
    type Output = CellSet;
    #[inline]
    fn bitor(self, o: CellSet) -> CellSet {
        CellSet(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl BitXor for CellSet {
    type Output = CellSet;
    #[inline]
    fn bitxor(self, o: CellSet) -> CellSet {
        CellSet(std::array::from_fn(|i| self.0[i] ^ o.0[i]))
    }
}

impl Sub for CellSet {
    type Output = CellSet;
    /// The cells of `self` not in `o`.
    #[inline]
    fn sub(self, o: CellSet) -> CellSet {
        CellSet(std::array::from_fn(|i| self.0[i] & !o.0[i]))
    }
}

impl Not for CellSet {
    type Output = CellSet;
    #[inline]
    fn not(self) -> CellSet {
        CellSet(self.0.map(|w| !w))
    }
}

impl BitAndAssign for CellSet {
    #[inline]
    fn bitand_assign(&mut self, o: CellSet) {
        *self = *self & o;
    }
}

impl BitOrAssign for CellSet {
    #[inline]
    fn bitor_assign(&mut self, o: CellSet) {
        *self = *self | o;
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> CellSet {
        let mut set = CellSet::EMPTY;
        for cell in iter {
            set.insert(cell);
        }
        set
    }
}

impl IntoIterator for CellSet {
    type Item = Cell;
    type IntoIter = CellSetIter;
    fn into_iter(self) -> CellSetIter {
        self.iter()
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The cells of a [`CellSet`] in reading order.
#[derive(Clone, Debug)]
pub struct CellSetIter(CellSet);

impl Iterator for CellSetIter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        let cell = self.0.first()?;
        self.0.remove(cell);
        Some(cell)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.0.len(), Some(self.0.len()))
    }
}

impl ExactSizeIterator for CellSetIter {}

const _: () = assert!(CELLS == 256);

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cells: &str) -> CellSet {
        cells
            .split_whitespace()
            .map(|c| c.parse::<Cell>().unwrap())
            .collect()
    }

    #[test]
    fn the_edges_hold_their_cells() {
        assert_eq!(CellSet::BORDER.len(), 60);
        assert_eq!(
            CellSet::LEFT,
            Cell::all().filter(|c| c.column() == 0).collect()
        );
        assert_eq!(
            CellSet::RIGHT,
            Cell::all().filter(|c| c.column() == 15).collect()
        );
        assert_eq!(
            CellSet::TOP,
            Cell::all().filter(|c| c.row() == 15).collect()
        );
    }

    #[test]
    fn growing_stops_at_the_edges() {
        assert_eq!(set("a1").grow4(), set("a1 b1 a2"));
        assert_eq!(set("p4").grow8(), set("o3 p3 o4 p4 o5 p5"));
        assert_eq!(set("a5").grow4(), set("a4 a5 b5 a6"));
        assert_eq!(set("p16").grow4(), set("p15 o16 p16"));
        assert_eq!(set("d4").grow4().len(), 5);
        assert_eq!(set("d4").grow8().len(), 9);
    }

    #[test]
    fn floods_follow_their_neighbourhood() {
        // A diagonal wall stops a 4-flood but not an 8-flood.
        let wall = set("b1 a2");
        assert_eq!(CellSet::flood4(set("a1"), !wall), set("a1"));
        assert_eq!(CellSet::flood8(set("b1"), wall), wall);
    }

    #[test]
    fn nth_counts_in_reading_order() {
        let s = set("c1 p4 a5 h16");
        let listed: Vec<Cell> = (0..4).filter_map(|i| s.nth(i)).collect();
        assert_eq!(listed, s.iter().collect::<Vec<_>>());
        assert_eq!(s.nth(4), None);
    }
}
