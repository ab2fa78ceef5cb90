//! The errors of reading Orbit's text forms: cells, colours, positions and moves. Its own
//! file so that every type with a text form can name it without importing the notation.

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
    Duplicate(String),
    /// Move text that is not a cell, `pass`, `black` or `white`.
    #[error("`{0}` is not a move (write a cell like h8, pass, black or white)")]
    BadMove(String),
}
