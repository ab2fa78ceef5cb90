//! Cells of the 16 x 16 board: columns `a`..`p` left to right, rows `1`..`16` bottom to top.
//! A [`Cell`] is a checked index 0..256 in reading order (row 1 `a`..`p`, then row 2 …), so
//! sorting cells sorts them the way position strings list them.

use crate::error::ParseError;
use std::fmt;
use std::str::FromStr;

/// Cells per side of the board.
pub const SIDE: u8 = 16;

/// Cells on the board.
pub const CELLS: usize = 256;

/// One cell of the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell in `column` (0 = `a`) and `row` (0 = row 1), if both are on the board.
    pub const fn new(column: u8, row: u8) -> Option<Cell> {
        if column < SIDE && row < SIDE {
            Some(Cell(row * SIDE + column))
        } else {
            None
        }
    }

    /// The cell with this reading-order index (0 = `a1`, 255 = `p16`).
    pub const fn from_index(index: usize) -> Option<Cell> {
        if index < CELLS {
            Some(Cell(index as u8))
        } else {
            None
        }
    }

    /// Its reading-order index, 0..256.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Its column, 0 (`a`) ..= 15 (`p`).
    #[inline]
    pub const fn column(self) -> u8 {
        self.0 % SIDE
    }

    /// Its row, 0 (row 1) ..= 15 (row 16).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / SIDE
    }

    /// All cells in reading order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..=255u8).map(Cell)
    }
}

impl FromStr for Cell {
    type Err = ParseError;

    /// Parses `h8`, `H8`, `p16`: a column letter `a`..`p` then a row number `1`..`16`.
    fn from_str(text: &str) -> Result<Cell, ParseError> {
        let unknown = || ParseError::UnknownCell(text.to_string());
        let mut chars = text.chars();
        let letter = chars.next().ok_or_else(unknown)?.to_ascii_lowercase();
        let digits = chars.as_str();
        if !('a'..='p').contains(&letter)
            || digits.is_empty()
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(unknown());
        }
        let row: u8 = digits.parse().map_err(|_| unknown())?;
        let column = letter as u8 - b'a';
        row.checked_sub(1)
            .and_then(|r| Cell::new(column, r))
            .ok_or_else(unknown)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column()) as char, self.row() + 1)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_parse_either_case_and_print_lower_case() {
        for (text, printed) in [("a1", "a1"), ("H8", "h8"), ("p16", "p16"), ("P16", "p16")] {
            let cell: Cell = text.parse().unwrap();
            assert_eq!(cell.to_string(), printed);
        }
        for bad in ["", "a", "a0", "a17", "q1", "a01", "1a", "a1x", "ä1", "a+1"] {
            assert!(bad.parse::<Cell>().is_err(), "{bad}");
        }
    }

    #[test]
    fn reading_order_runs_along_row_one_first() {
        let a1: Cell = "a1".parse().unwrap();
        let p1: Cell = "p1".parse().unwrap();
        let a2: Cell = "a2".parse().unwrap();
        assert_eq!((a1.index(), p1.index(), a2.index()), (0, 15, 16));
        assert_eq!(Cell::all().count(), CELLS);
    }
}
