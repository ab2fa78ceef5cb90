//! The 121 holes of the six-pointed star: a checked newtype, its row-letter notation
//! (`a1` the bottom tip, `i5` the centre), and the geometry — adjacency from a table built
//! at compile time, and the hex distance that bots and the opening use.

use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// How many holes the star has.
pub const HOLES: usize = 121;

/// Rows `a` (bottom) to `q` (top) and their lengths.
pub const ROW_LENGTHS: [u8; 17] = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];

/// The index of the first hole of each row, in reading order.
const ROW_START: [u8; 17] = {
    let mut starts = [0u8; 17];
    let mut r = 1;
    while r < 17 {
        starts[r] = starts[r - 1] + ROW_LENGTHS[r - 1];
        r += 1;
    }
    starts
};

/// Each hole's row (0 = `a`) and x coordinate (−(n−1), −(n−3), …, n−1 in a row of n).
const COORDS: [(u8, i8); HOLES] = {
    let mut table = [(0u8, 0i8); HOLES];
    let mut r = 0;
    while r < 17 {
        let n = ROW_LENGTHS[r];
        let mut k = 0;
        while k < n {
            table[(ROW_START[r] + k) as usize] = (r as u8, -(n as i8 - 1) + 2 * k as i8);
            k += 1;
        }
        r += 1;
    }
    table
};

/// The hole at row `r`, coordinate `x`, if there is one.
const fn at(r: i32, x: i32) -> Option<u8> {
    if r < 0 || r >= 17 {
        return None;
    }
    let n = ROW_LENGTHS[r as usize] as i32;
    let twice_k = x + n - 1;
    if twice_k < 0 || twice_k % 2 != 0 || twice_k / 2 >= n {
        return None;
    }
    Some(ROW_START[r as usize] + (twice_k / 2) as u8)
}

/// No neighbour in a [`NEIGHBOURS`] slot.
const NONE: u8 = u8::MAX;

/// The six directions on the star as (row step, x step): east, north-east, north-west,
/// west, south-west, south-east.
const STEPS: [(i32, i32); 6] = [(0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1)];

/// Each hole's neighbours in [`STEPS`] order, [`NONE`] off the board.
const NEIGHBOURS: [[u8; 6]; HOLES] = {
    let mut table = [[NONE; 6]; HOLES];
    let mut h = 0;
    while h < HOLES {
        let (r, x) = COORDS[h];
        let mut d = 0;
        while d < 6 {
            if let Some(n) = at(r as i32 + STEPS[d].0, x as i32 + STEPS[d].1) {
                table[h][d] = n;
            }
            d += 1;
        }
        h += 1;
    }
    table
};

/// One hole of the star, `0..121` in reading order (row `a` first, left to right).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Hole(u8);

impl Hole {
    /// The centre, `i5`.
    pub const CENTRE: Hole = Hole(60);

    /// The hole with this index in reading order, if it is below 121.
    pub const fn new(index: usize) -> Option<Hole> {
        if index < HOLES {
            Some(Hole(index as u8))
        } else {
            None
        }
    }

    /// The hole in row `row` (0 = `a`) at place `place` (1 = leftmost), if there is one.
    pub const fn from_row_place(row: usize, place: usize) -> Option<Hole> {
        if row >= 17 || place == 0 || place > ROW_LENGTHS[row] as usize {
            return None;
        }
        Some(Hole(ROW_START[row] + place as u8 - 1))
    }

    /// Every hole in reading order.
    pub fn all() -> impl Iterator<Item = Hole> {
        (0..HOLES as u8).map(Hole)
    }

    /// The index in reading order, `0..121`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The row, 0 (`a`, bottom) to 16 (`q`, top).
    pub const fn row(self) -> usize {
        COORDS[self.0 as usize].0 as usize
    }

    /// The place in the row counted from the left, from 1.
    pub const fn place(self) -> usize {
        (self.0 - ROW_START[self.row()]) as usize + 1
    }

    /// The x coordinate: −(n−1), −(n−3), …, n−1 across a row of n holes.
    pub const fn x(self) -> i32 {
        COORDS[self.0 as usize].1 as i32
    }

    /// The holes next to this one (two to six of them).
    pub fn neighbours(self) -> impl Iterator<Item = Hole> {
        NEIGHBOURS[self.index()]
            .into_iter()
            .filter(|&n| n != NONE)
            .map(Hole)
    }

    /// Whether `other` is next to this hole: same row with x two apart, or neighbouring
    /// rows with x one apart.
    pub fn is_adjacent(self, other: Hole) -> bool {
        NEIGHBOURS[self.index()].contains(&other.0)
    }

    /// How many single steps an orb needs to go from here to `other` on the open board.
    pub fn distance(self, other: Hole) -> u32 {
        let dr = self.row().abs_diff(other.row()) as u32;
        let dx = self.x().abs_diff(other.x());
        dr + dx.saturating_sub(dr) / 2
    }
}

impl fmt::Display for Hole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.row() as u8) as char, self.place())
    }
}

/// Why a hole's name did not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown hole `{0}` (rows a to q, places from 1, e.g. `d2`, `i5`)")]
pub struct HoleError(pub String);

impl FromStr for Hole {
    type Err = HoleError;
    fn from_str(text: &str) -> Result<Hole, HoleError> {
        let bad = || HoleError(text.to_string());
        let mut chars = text.chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return Err(bad());
        }
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
            return Err(bad());
        }
        let place: usize = digits.parse().map_err(|_| bad())?;
        Hole::from_row_place((letter as u8 - b'a') as usize, place).ok_or_else(bad)
    }
}
