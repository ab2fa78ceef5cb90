//! The Whirlpool Galaxy (booklet page 26). Its diagrams are lost; this is our design
//! (ORION.md section 6, Reconstruction). M51 is a pair of interacting galaxies, so the start is
//! two round "galaxies" side by side — red on the orbit of B3, blue on the orbit of D3 — and
//! the finish is one galaxy with two trailing spiral arms, red and blue, each curling out
//! from the core around C3 (the finish is its own 180° turn with the colours exchanged, as
//! is the start). Only the nine rotors B2–D4 turn.

use super::{rotors, two_colours, Deal, Finish, Puzzle};
use crate::piece::Colour;

/// The Whirlpool Galaxy as designed here.
pub fn whirlpool() -> Puzzle {
    let start = two_colours(
        Colour::Red,
        &["B3n", "B3e", "B3s", "B3w"],
        Colour::Blue,
        &["D3n", "D3e", "D3s", "D3w"],
    );
    // Red arm: C3n, up C4e, left along C4n and B4n. Blue arm: the same turned 180°.
    let finish = two_colours(
        Colour::Red,
        &["C3n", "C4e", "C4n", "B4n"],
        Colour::Blue,
        &["C3s", "C2w", "C2s", "D2s"],
    );
    Puzzle {
        name: "whirlpool",
        title: "The Whirlpool Galaxy",
        start,
        finish: Finish::Pattern(finish),
        rotors: rotors(&["B2", "C2", "D2", "B3", "C3", "D3", "B4", "C4", "D4"]),
        mover: None,
        grip: None,
        target: None,
        booklet_solution: None,
        deal: Deal::Fixed,
    }
}
