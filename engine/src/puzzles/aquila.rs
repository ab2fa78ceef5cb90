//! Aquila, the Eagle (booklet page 24): two red eagles carry a blue fish from the bottom
//! edge to their nest at the top; after every click both reds must touch the blue.

use super::{two_colours, Deal, Finish, Grip, Puzzle};
use crate::board::RotorSet;
use crate::piece::Colour;

/// The Aquila puzzle. Only rotors holding a red piece turn; target 24 clicks.
pub fn aquila() -> Puzzle {
    let start = two_colours(Colour::Red, &["C1s", "E1s"], Colour::Blue, &["D1s"]);
    let finish = two_colours(Colour::Red, &["A5n", "C5n"], Colour::Blue, &["B5n"]);
    Puzzle {
        name: "aquila",
        title: "Aquila (The Eagle)",
        start,
        finish: Finish::Pattern(finish),
        rotors: RotorSet::FULL,
        mover: Some(Colour::Red),
        grip: Some(Grip {
            holder: Colour::Red,
            held: Colour::Blue,
        }),
        target: Some(24),
        // Printed with `C5L` as the last click: a misprint for `C5R` (ORION.md section 6).
        booklet_solution: Some(
            "C1L, E1R, D1R, D2R, D1R, D2R, C1L, C2L, D3R, C3L, C2L, C3L, C3L, C4R, C3R, B3L, \
             C4R, C5R, B4L, B5L, B4L, B5L, A5L, C5L",
        ),
        deal: Deal::Fixed,
    }
}
