//! The text forms of ORBIT.md: position strings (`d4:B e5:W`, reading order when printed, any
//! order when read), and a board read from and printed as one.

use crate::board::Board;
use crate::cell::Cell;
use crate::error::ParseError;
use crate::stone::Stone;
use std::fmt::{self, Write};
use std::str::FromStr;

/// Reads a position string: space-separated `cell:colour` pairs in any order; the empty
/// string is the empty board.
pub fn parse_position(text: &str) -> Result<Board, ParseError> {
    let mut board = Board::empty();
    for entry in text.split_whitespace() {
        let (cell, colour) = entry
            .split_once(':')
            .ok_or_else(|| ParseError::BadEntry(entry.to_string()))?;
        let cell: Cell = cell.parse()?;
        let stone = match colour {
            "B" | "b" => Stone::Black,
            "W" | "w" => Stone::White,
            other => return Err(ParseError::UnknownColour(other.to_string())),
        };
        if board.get(cell).is_some() {
            return Err(ParseError::Duplicate(cell.to_string()));
        }
        board.put(cell, stone);
    }
    Ok(board)
}

/// Prints a position string: `cell:colour` pairs in reading order (row 1 `a`..`p`, then row
/// 2 …), separated by single spaces; the empty board prints as the empty string.
pub fn position_string(board: &Board) -> String {
    let mut out = String::new();
    for cell in board.occupied() {
        if let Some(stone) = board.get(cell) {
            if !out.is_empty() {
                out.push(' ');
            }
            let _ = write!(out, "{cell}:{}", stone.letter());
        }
    }
    out
}

impl FromStr for Board {
    type Err = ParseError;

    /// Reads a position string (see [`parse_position`]).
    fn from_str(text: &str) -> Result<Board, ParseError> {
        parse_position(text)
    }
}

impl fmt::Display for Board {
    /// Prints the position string (see [`position_string`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&position_string(self))
    }
}
