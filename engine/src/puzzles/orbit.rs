//! Orbit Solitaire (booklet page 29): numbered red pieces in two (A) or four (B) adjacent
//! orbits, to be put back in canonical slot order turning only those rotors. Default starts:
//! A has pieces 6 and 7 switched (the booklet's example); B has all twelve in reverse order.
//! `--position` replaces either.

use super::{rotors, Deal, Finish, Puzzle};
use crate::board::{RotorSet, Slot};
use crate::piece::{Colour, Piece};
use crate::position::Position;

/// The two rotors of Orbit Solitaire A.
pub const ORBIT_A_ROTORS: [&str; 2] = ["A1", "B1"];
/// The four rotors of Orbit Solitaire B.
pub const ORBIT_B_ROTORS: [&str; 4] = ["A1", "B1", "A2", "B2"];

/// The slots of `set`'s orbits in canonical order.
fn slots(set: RotorSet) -> Vec<Slot> {
    set.orbit_slots().into_iter().collect()
}

/// Red pieces numbered in the order given by `order` (piece `order[i]` in the i-th slot).
fn arrangement(slots: &[Slot], order: &[u8]) -> Position {
    let mut p = Position::empty();
    for (&s, &n) in slots.iter().zip(order) {
        if let Some(piece) = Piece::new(Colour::Red, n) {
            p.put(s, piece);
        }
    }
    p
}

/// The five wrong orders of pieces 5, 6, 7 in Orbit Solitaire A (pieces 1–4 in place), as
/// the piece numbers in the last three canonical slots.
pub fn orbit_a_wrong_orders() -> [[u8; 3]; 5] {
    [[5, 7, 6], [6, 5, 7], [6, 7, 5], [7, 5, 6], [7, 6, 5]]
}

/// Orbit Solitaire A: pieces 1–7 in the orbits of A1 and B1, default start with 6 and 7
/// switched.
pub fn orbit_a() -> Puzzle {
    let set = rotors(&ORBIT_A_ROTORS);
    let s = slots(set);
    Puzzle {
        name: "orbit-a",
        title: "Two Orbit Solitaire",
        start: arrangement(&s, &[1, 2, 3, 4, 5, 7, 6]),
        finish: Finish::Exact(arrangement(&s, &[1, 2, 3, 4, 5, 6, 7])),
        rotors: set,
        mover: None,
        grip: None,
        target: Some(9),
        booklet_solution: None,
        deal: Deal::Scramble(3),
    }
}

/// Orbit Solitaire B: pieces 1–12 in the orbits of A1, B1, A2, B2; default start all
/// reversed; the booklet's challenge is 25 clicks or fewer.
pub fn orbit_b() -> Puzzle {
    let set = rotors(&ORBIT_B_ROTORS);
    let s = slots(set);
    let reversed: Vec<u8> = (1..=12).rev().collect();
    let ordered: Vec<u8> = (1..=12).collect();
    Puzzle {
        name: "orbit-b",
        title: "Four Orbit Solitaire",
        start: arrangement(&s, &reversed),
        finish: Finish::Exact(arrangement(&s, &ordered)),
        rotors: set,
        mover: None,
        grip: None,
        target: Some(25),
        booklet_solution: None,
        deal: Deal::Scramble(12),
    }
}
