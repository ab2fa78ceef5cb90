//! The text formats of ORION.md section 7: rotor, slot and click names in the booklet's and the
//! earlier server's notations, move lists, piece tokens and position strings. Parsing accepts
//! every alias; printing always uses the canonical form. Errors say what was wrong and where.

use crate::board::{Click, Direction, Rotor, Side, Slot};
use crate::piece::{Colour, Piece};
use crate::position::Position;
use thiserror::Error;

/// Why a piece of notation could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationError {
    /// A rotor name that is neither `A1`..`E5` nor `a`..`y`.
    #[error("unknown rotor `{0}`")]
    UnknownRotor(String),
    /// A booklet rotor whose row is off the board.
    #[error("`{text}` has no row {row}")]
    NoRow { text: String, row: String },
    /// A booklet rotor whose column is off the board.
    #[error("`{text}` has no column {column}")]
    NoColumn { text: String, column: char },
    /// A slot name that names no slot.
    #[error("unknown slot `{0}`")]
    UnknownSlot(String),
    /// A click that is not `C4R`, `C4L`, `c+` or `c-`.
    #[error("`{0}` is not a click (write `C4R`, `C4L`, `c+` or `c-`)")]
    BadClick(String),
    /// A repeat count that is not a small positive number.
    #[error("bad repeat count in `{0}` (write `(2)` after the click)")]
    BadRepeat(String),
    /// A click inside a move list, with its 1-based index.
    #[error("click {index}: {error}")]
    InMove {
        index: usize,
        error: Box<NotationError>,
    },
    /// A piece token that is not colour letter + 1..20.
    #[error("malformed piece `{0}` (write a colour letter R, B, G or Y and a number 1-20)")]
    BadPiece(String),
    /// A position entry that is not `slot:piece`.
    #[error("malformed entry `{0}` (write slot:piece, like C1s:R1)")]
    BadEntry(String),
    /// The same slot twice in one position string.
    #[error("slot {0} is named twice")]
    SlotTwice(String),
    /// The same piece twice in one position string.
    #[error("piece {0} is placed twice")]
    PieceTwice(String),
    /// An action that is none of a game record's (`C4R`, `place C2n`, `end` …).
    #[error("`{0}` is not an action (write a click, `place SLOT`, `roll`, `three`, `end`, `claim`, `secret PIECE` or `challenge PIECE`)")]
    BadAction(String),
}

/// Parses a rotor: booklet `C4` (any case) or the earlier server's letter `a`..`y`.
pub fn parse_rotor(text: &str) -> Result<Rotor, NotationError> {
    let t = text.trim();
    let bytes = t.as_bytes();
    match bytes {
        [l] if l.is_ascii_lowercase() || l.is_ascii_uppercase() => {
            let i = l.to_ascii_lowercase().wrapping_sub(b'a');
            if i < 25 {
                // Reading order from the top-left: a = A5, e = E5, u = A1.
                let (column, row) = (i % 5, 4 - i / 5);
                Ok(Rotor::at(column, row).expect("in range"))
            } else {
                Err(NotationError::UnknownRotor(t.to_string()))
            }
        }
        [l, digits @ ..] if l.is_ascii_alphabetic() && !digits.is_empty() => {
            let column = l.to_ascii_uppercase();
            let digits = &t[1..];
            if !digits.bytes().all(|d| d.is_ascii_digit()) {
                return Err(NotationError::UnknownRotor(t.to_string()));
            }
            if !(b'A'..=b'E').contains(&column) {
                return Err(NotationError::NoColumn {
                    text: t.to_string(),
                    column: column as char,
                });
            }
            match digits.parse::<u8>() {
                Ok(row @ 1..=5) => Ok(Rotor::at(column - b'A', row - 1).expect("in range")),
                _ => Err(NotationError::NoRow {
                    text: t.to_string(),
                    row: digits.to_string(),
                }),
            }
        }
        _ => Err(NotationError::UnknownRotor(t.to_string())),
    }
}

/// Parses a slot: a rotor name followed by a side `n`, `e`, `s` or `w`; every alias of a slot
/// (`C2n` = `C3s`) is accepted.
pub fn parse_slot(text: &str) -> Result<Slot, NotationError> {
    let t = text.trim();
    let unknown = || NotationError::UnknownSlot(t.to_string());
    if t.len() < 2 || !t.is_ascii() {
        return Err(unknown());
    }
    let (rotor, side) = t.split_at(t.len() - 1);
    let side = match side.to_ascii_lowercase().as_str() {
        "n" => Side::North,
        "e" => Side::East,
        "s" => Side::South,
        "w" => Side::West,
        _ => return Err(unknown()),
    };
    let rotor = parse_rotor(rotor).map_err(|_| unknown())?;
    Ok(rotor.slot(side))
}

/// Parses one click: `C4R` / `C4L` (booklet) or `c+` / `c-` (earlier server).
pub fn parse_click(text: &str) -> Result<Click, NotationError> {
    let t = text.trim();
    if t.len() < 2 || !t.is_ascii() {
        return Err(NotationError::BadClick(t.to_string()));
    }
    let (rotor, dir) = t.split_at(t.len() - 1);
    let direction = match dir {
        "R" | "r" | "+" => Direction::Right,
        "L" | "l" | "-" => Direction::Left,
        _ => return Err(NotationError::BadClick(t.to_string())),
    };
    let rotor = parse_rotor(rotor).map_err(|e| match e {
        NotationError::NoRow { row, .. } => NotationError::NoRow {
            text: t.to_string(),
            row,
        },
        NotationError::NoColumn { column, .. } => NotationError::NoColumn {
            text: t.to_string(),
            column,
        },
        _ => NotationError::BadClick(t.to_string()),
    })?;
    Ok(Click::new(rotor, direction))
}

/// Parses a move: booklet `C4L, D4R, D5L (2)`, the earlier server's `c+d-e--` / `a+++`, or
/// `pass` (or nothing) for no clicks.
pub fn parse_moves(text: &str) -> Result<Vec<Click>, NotationError> {
    let t = text.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("pass") {
        return Ok(Vec::new());
    }
    if t.bytes().any(|b| b.is_ascii_digit()) {
        parse_booklet_moves(t)
    } else {
        parse_server_moves(t)
    }
}

fn parse_booklet_moves(t: &str) -> Result<Vec<Click>, NotationError> {
    let mut clicks = Vec::new();
    for item in t.split(',') {
        let item = item.trim();
        let index = clicks.len() + 1;
        let wrap = |e: NotationError| NotationError::InMove {
            index,
            error: Box::new(e),
        };
        let (click_text, repeat) = match item.find('(') {
            Some(open) => {
                let rest = item[open + 1..].trim();
                let count = rest
                    .strip_suffix(')')
                    .and_then(|n| n.trim().parse::<usize>().ok())
                    .filter(|n| (1..=64).contains(n))
                    .ok_or_else(|| wrap(NotationError::BadRepeat(item.to_string())))?;
                (item[..open].trim(), count)
            }
            None => (item, 1),
        };
        let click = parse_click(click_text).map_err(wrap)?;
        clicks.extend(std::iter::repeat_n(click, repeat));
    }
    Ok(clicks)
}

fn parse_server_moves(t: &str) -> Result<Vec<Click>, NotationError> {
    let mut clicks = Vec::new();
    let mut chars = t
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .peekable();
    while let Some(letter) = chars.next() {
        let index = clicks.len() + 1;
        let mut signs = 0;
        while let Some(&sign @ ('+' | '-')) = chars.peek() {
            chars.next();
            signs += 1;
            let click =
                parse_click(&format!("{letter}{sign}")).map_err(|e| NotationError::InMove {
                    index,
                    error: Box::new(e),
                })?;
            clicks.push(click);
        }
        if signs == 0 {
            return Err(NotationError::InMove {
                index,
                error: Box::new(NotationError::BadClick(letter.to_string())),
            });
        }
    }
    Ok(clicks)
}

/// Prints a move in booklet form, runs of one click folded: `C4L, D4R, D5L (2)`.
pub fn format_moves(clicks: &[Click]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < clicks.len() {
        let mut run = 1;
        while i + run < clicks.len() && clicks[i + run] == clicks[i] {
            run += 1;
        }
        if !out.is_empty() {
            out.push_str(", ");
        }
        out.push_str(&clicks[i].to_string());
        if run > 1 {
            out.push_str(&format!(" ({run})"));
        }
        i += run;
    }
    out
}

/// Parses a piece token: `R7`, `b12`.
pub fn parse_piece(text: &str) -> Result<Piece, NotationError> {
    let t = text.trim();
    let bad = || NotationError::BadPiece(t.to_string());
    let mut chars = t.chars();
    let colour = chars
        .next()
        .and_then(|c| Colour::parse(&c.to_string()))
        .ok_or_else(bad)?;
    let number: u8 = chars.as_str().parse().map_err(|_| bad())?;
    Piece::new(colour, number).ok_or_else(bad)
}

/// Parses a position string: space-separated `slot:piece` pairs in any order, aliases allowed.
/// The empty string is the empty board.
pub fn parse_position(text: &str) -> Result<Position, NotationError> {
    let mut position = Position::empty();
    for entry in text.split_whitespace() {
        let (slot, piece) = entry
            .split_once(':')
            .ok_or_else(|| NotationError::BadEntry(entry.to_string()))?;
        let slot = parse_slot(slot)?;
        let piece = parse_piece(piece)?;
        if position.get(slot).is_some() {
            return Err(NotationError::SlotTwice(slot.to_string()));
        }
        if position.find(piece).is_some() {
            return Err(NotationError::PieceTwice(piece.to_string()));
        }
        position.put(slot, piece);
    }
    Ok(position)
}

/// Prints a position string: canonical slot names in canonical slot order.
pub fn position_string(position: &Position) -> String {
    let mut out = String::with_capacity(position.occupied().len() * 7);
    position.push_string(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotors_in_both_notations() {
        assert_eq!(parse_rotor("a").unwrap().to_string(), "A5");
        assert_eq!(parse_rotor("e").unwrap().to_string(), "E5");
        assert_eq!(parse_rotor("u").unwrap().to_string(), "A1");
        assert_eq!(parse_rotor("Y").unwrap().to_string(), "E1");
        assert_eq!(parse_rotor("c4").unwrap().to_string(), "C4");
        assert_eq!(
            parse_rotor("z").unwrap_err().to_string(),
            "unknown rotor `z`"
        );
    }

    #[test]
    fn slot_aliases_name_one_slot() {
        assert_eq!(parse_slot("C3s").unwrap(), parse_slot("C2n").unwrap());
        assert_eq!(parse_slot("D2w").unwrap().to_string(), "C2e");
        assert_eq!(parse_slot("c1S").unwrap().to_string(), "C1s");
        assert_eq!(
            parse_slot("F2n").unwrap_err().to_string(),
            "unknown slot `F2n`"
        );
    }

    #[test]
    fn move_errors_name_the_click() {
        let e = parse_moves("C4L, D5L, C6R").unwrap_err();
        assert_eq!(e.to_string(), "click 3: `C6R` has no row 6");
        let e = parse_moves("C4L (2), X1R").unwrap_err();
        assert_eq!(e.to_string(), "click 3: `X1R` has no column X");
    }

    #[test]
    fn both_move_notations_agree() {
        let booklet = parse_moves("C4L, D4R, D5L (2)").unwrap();
        let letters = parse_moves("m-n+i--").unwrap();
        assert_eq!(booklet.len(), 4);
        // m = C3, n = D3, i = D4 in the letter notation; check names directly instead.
        assert_eq!(format_moves(&booklet), "C4L, D4R, D5L (2)");
        assert_eq!(format_moves(&letters), "C3L, D3R, D4L (2)");
        assert!(parse_moves("pass").unwrap().is_empty());
        assert_eq!(parse_moves("a+++").unwrap().len(), 3);
    }

    #[test]
    fn position_strings_round_trip_canonically() {
        let p = parse_position("E1s:R2 C1s:R1 d1S:B1").unwrap();
        assert_eq!(position_string(&p), "C1s:R1 D1s:B1 E1s:R2");
        assert_eq!(position_string(&parse_position("").unwrap()), "");
        assert_eq!(
            parse_position("C1s:R1 C1s:B1").unwrap_err().to_string(),
            "slot C1s is named twice"
        );
        assert_eq!(
            parse_position("C1s:R21").unwrap_err().to_string(),
            "malformed piece `R21` (write a colour letter R, B, G or Y and a number 1-20)"
        );
    }
}
