//! The text forms of ORBIT.md: position strings (`d4:B e5:W`, reading order when printed, any
//! order when read) and the errors of reading cells, colours, positions and moves.

use crate::board::Board;
use crate::cell::Cell;
use crate::stone::Stone;
use std::fmt::Write;
use thiserror::Error;

/// Why a cell, a colour, a position string or a move could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// Not a cell `a1`..`p16`.
    #[error("unknown cell `{0}` (columns a-p, rows 1-16, like h8)")]
    UnknownCell(String),
    /// Not `B` or `W`.
    #[error("unknown colour `{0}` (B or W)")]
    UnknownColour(String),
    /// A position entry that is not `cell:colour`.
    #[error("malformed entry `{0}` (write cell:colour, like d4:B)")]
    BadEntry(String),
    /// A position naming one cell twice.
    #[error("{0} is named twice")]
    Duplicate(Cell),
    /// Move text that is not a cell, `pass`, `black` or `white`.
    #[error("`{0}` is not a move (write a cell like h8, pass, black or white)")]
    BadMove(String),
}

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
            return Err(ParseError::Duplicate(cell));
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
