//! Binary Star puzzles 1–4 (booklet page 28): the red piece crosses from `E1n` to `A1n`
//! through a yellow pattern that must end as it began. Only rotors of rows 1–2 holding the
//! red piece turn. The yellow patterns are reconstructed (ORION.md section 6): the slots
//! each printed solution moves and restores.

use super::{rotors, two_colours, Deal, Finish, Puzzle};
use crate::piece::Colour;

/// Each puzzle's yellow slots, its target and its printed solution.
const PUZZLES: [(&str, &[&str], u32, &str); 4] = [
    (
        "binary-1",
        &["D1s", "D1n", "B1e", "C2e"],
        20,
        "E1L, D1L (2), C1L (2), B1L, B2L, C2L, C1L, B1L, B2L, C2L, C1L, B1L, B2R, A2R, A1R, \
         B1R, B2R, A2R",
    ),
    (
        "binary-2",
        &["B1s", "B1n", "C1n", "C2n"],
        24,
        "E1L, D1L (2), C1L (2), B1L (2), A1L, A2L, B2L (2), C2L, C1R, D1R, D2R, C2R, C1R, \
         D1R, D2R, C2R (2), B2R (2), A2R",
    ),
    (
        "binary-3",
        &[
            "A1s", "A1w", "A2w", "A2e", "C1s", "A1e", "B1s", "B2n", "C1n", "C2n", "C2e", "D1s",
            "D1n", "C1e",
        ],
        28,
        "E1L, D1L, D2R, C2R, C1R, D1R, D2R, C2R (2), B2R (2), A2R, A1R, B1R (2), C1R, C2L, \
         D2L, D1L, C1L, C2L, D2L, D1L, C1L, C2R, B2L (2), A2R",
    ),
    (
        "binary-4",
        &["B1n", "B2n", "C1s", "C2n", "C2e", "D1n", "B1e"],
        32,
        "E1L, D1L (2), C1L, C2L, D2L, D1L, C1L (2), B1L, B2L, C2L, C1R, D1R, D2R, C2R, C1R, \
         D1R, D2R, C2R (2), B2R, B1R, C1R (2), D1R, D2R, C2R (2), B2R (2), A2R",
    ),
];

/// Binary Star puzzle `n` (1–4).
pub fn binary_star(n: usize) -> Option<Puzzle> {
    let &(name, yellow, target, solution) = PUZZLES.get(n.checked_sub(1)?)?;
    let start = two_colours(Colour::Red, &["E1n"], Colour::Yellow, yellow);
    let finish = two_colours(Colour::Red, &["A1n"], Colour::Yellow, yellow);
    let title = [
        "Binary Star 1",
        "Binary Star 2",
        "Binary Star 3",
        "Binary Star 4",
    ][n - 1];
    Some(Puzzle {
        name,
        title,
        start,
        finish: Finish::Pattern(finish),
        rotors: rotors(&["A1", "B1", "C1", "D1", "E1", "A2", "B2", "C2", "D2", "E2"]),
        mover: Some(Colour::Red),
        grip: None,
        target: Some(target),
        booklet_solution: Some(solution),
        deal: Deal::Fixed,
    })
}
