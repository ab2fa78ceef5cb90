//! The Herdsman Puzzle (booklet page 27): two red sheep dogs herd four yellow sheep from
//! the orbit of C2 to the orbit of C4 (the start turned 180°). Only a rotor holding a dog
//! turns; the sheep move only by sharing an orbit with a dog.

use super::{two_colours, Deal, Finish, Puzzle};
use crate::board::RotorSet;
use crate::piece::Colour;

/// The Herdsman puzzle. The booklet prints 30 clicks and says under 29 exist.
pub fn herdsman() -> Puzzle {
    let start = two_colours(
        Colour::Red,
        &["A2e", "D2e"],
        Colour::Yellow,
        &["C2n", "C2e", "C2s", "C2w"],
    );
    let finish = two_colours(
        Colour::Red,
        &["A4e", "D4e"],
        Colour::Yellow,
        &["C4n", "C4e", "C4s", "C4w"],
    );
    Puzzle {
        name: "herdsman",
        title: "The Herdsman Puzzle",
        start,
        finish: Finish::Pattern(finish),
        rotors: RotorSet::FULL,
        mover: Some(Colour::Red),
        grip: None,
        target: Some(30),
        booklet_solution: Some(
            "D2L (2), C2L (2), B2L, B3L, B2L, C3R, C2L, C3R, C2L, D2L, D3R, D2R (2), D4R (2), \
             D3R, D4L, C4L, C3R, C4L, C3R, B4L, B3L, B4L, C4L (2), D4L (2)",
        ),
        deal: Deal::Fixed,
    }
}
