//! Aurora Borealis (booklet page 25): the 40 slots of rotors A1–D4 in two colours; swap
//! vertical and horizontal (A), or turn diagonal stripes the other way (B). Any rotor turns.

use super::{Deal, Finish, Puzzle};
use crate::board::{RotorSet, Slot};
use crate::piece::{Colour, Piece};
use crate::position::Position;

/// The 40 slots of the orbits of rotors A1–D4.
fn aurora_slots() -> impl Iterator<Item = Slot> {
    Slot::ALL.into_iter().filter(|&s| in_block(s))
}

/// Whether a slot lies in the orbit of one of rotors A1–D4.
fn in_block(s: Slot) -> bool {
    s.rotors().iter().any(|r| r.column() < 4 && r.row() < 4)
}

/// Colours the 40 slots: red where `red` says so, blue elsewhere, numbered in slot order.
fn paint(red: impl Fn(Slot) -> bool) -> Position {
    let mut p = Position::empty();
    let (mut nr, mut nb) = (0u8, 0u8);
    for s in aurora_slots() {
        let (colour, n) = if red(s) {
            nr += 1;
            (Colour::Red, nr)
        } else {
            nb += 1;
            (Colour::Blue, nb)
        };
        if let Some(piece) = Piece::new(colour, n) {
            p.put(s, piece);
        }
    }
    p
}

/// Vertical–Horizontal: red vertical, blue horizontal; finish the other way. Target 14.
pub fn aurora_a() -> Puzzle {
    Puzzle {
        name: "aurora-a",
        title: "Aurora Borealis A (Vertical-Horizontal)",
        start: paint(|s| !s.is_horizontal()),
        finish: Finish::Pattern(paint(|s| s.is_horizontal())),
        rotors: RotorSet::FULL,
        mover: None,
        grip: None,
        target: Some(14),
        booklet_solution: Some(
            "C4R, D4L, B4R, A4R, D3R, B3R, A3R, D2L, C2R, A2R, D1L, C1L, A1R, B1R",
        ),
        deal: Deal::Fixed,
    }
}

/// `⌊x − y⌋` of a slot's midpoint (times one; from the doubled midpoint).
fn diagonal_minus(s: Slot) -> i32 {
    let (x2, y2) = s.midpoint2();
    (x2 as i32 - y2 as i32).div_euclid(2)
}

/// `⌊x + y⌋` of a slot's midpoint.
fn diagonal_plus(s: Slot) -> i32 {
    let (x2, y2) = s.midpoint2();
    (x2 as i32 + y2 as i32).div_euclid(2)
}

/// Herringbone: stripes from upper right to lower left (red where `⌊x − y⌋` is even); finish
/// stripes from upper left to lower right (`⌊x + y⌋`), in the phase the printed 12-click
/// solution produces (red where `⌊x + y⌋` is even). Target 12.
pub fn aurora_b() -> Puzzle {
    Puzzle {
        name: "aurora-b",
        title: "Aurora Borealis B (Herringbone)",
        start: paint(|s| diagonal_minus(s).rem_euclid(2) == 0),
        finish: Finish::Pattern(paint(|s| diagonal_plus(s).rem_euclid(2) == 0)),
        rotors: RotorSet::FULL,
        mover: None,
        grip: None,
        target: Some(12),
        booklet_solution: Some("D4R, D3R, D2R, D1R, B4R, A4R, A3R, B3R, B2R, A2R, A1R, B1R"),
        deal: Deal::Fixed,
    }
}
