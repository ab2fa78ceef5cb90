//! Orion fences: the mover's pieces split the 25 rotors into regions (two side-by-side rotors
//! are in one region unless the slot between them holds a piece of the mover). A region of 12
//! rotors or fewer is fenced, and every other colour's piece in a fenced rotor's orbit is
//! captured. All regions fenced means the whole board is captured.

use crate::board::{RotorSet, SlotSet};
use crate::piece::Colour;
use crate::position::Position;

/// The largest region that still counts as fenced (13 or more rotors is more than half).
pub const MAX_FENCED_ROTORS: usize = 12;

/// Rotor bits open to the right neighbour / the upper neighbour (no mover piece between).
#[inline]
fn open_links(fence: SlotSet) -> (u32, u32) {
    let mut right = 0u32;
    let mut up = 0u32;
    for r in 0..5u8 {
        for c in 0..4u8 {
            // Vertical slot on line x = c + 1, row r, between (c, r) and (c + 1, r).
            let s = 30 + (c as u32 + 1) * 5 + r as u32;
            if fence.0 >> s & 1 == 0 {
                right |= 1 << (r * 5 + c);
            }
        }
    }
    for r in 0..4u8 {
        for c in 0..5u8 {
            // Horizontal slot on line y = r + 1, column c, between (c, r) and (c, r + 1).
            let s = (r as u32 + 1) * 5 + c as u32;
            if fence.0 >> s & 1 == 0 {
                up |= 1 << (r * 5 + c);
            }
        }
    }
    (right, up)
}

/// The regions the pieces in `fence` divide the board into, as rotor sets.
pub fn regions(fence: SlotSet) -> impl Iterator<Item = RotorSet> {
    let (right, up) = open_links(fence);
    let mut left_over = RotorSet::FULL.0;
    std::iter::from_fn(move || {
        if left_over == 0 {
            return None;
        }
        let mut region = left_over & left_over.wrapping_neg();
        loop {
            let grown = region
                | ((region & right) << 1)
                | ((region >> 1) & right)
                | ((region & up) << 5)
                | ((region >> 5) & up);
            if grown == region {
                break;
            }
            region = grown;
        }
        left_over &= !region;
        Some(RotorSet(region))
    })
}

/// What the mover's fences capture in a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Capture {
    /// The rotors in fenced regions.
    pub fenced: RotorSet,
    /// The slots whose pieces (of other colours) are captured.
    pub slots: SlotSet,
    /// Whether every region is fenced: the whole board is captured and the game ends.
    pub whole_board: bool,
}

/// Evaluates the mover's fences: which rotors are fenced and which pieces are captured.
pub fn evaluate(position: &Position, mover: Colour) -> Capture {
    let fence = position.of(mover);
    let mut fenced = 0u32;
    let mut whole_board = true;
    for region in regions(fence) {
        if region.len() <= MAX_FENCED_ROTORS {
            fenced |= region.0;
        } else {
            whole_board = false;
        }
    }
    let fenced = RotorSet(fenced);
    let slots = fenced.orbit_slots() & position.occupied() & !fence;
    Capture {
        fenced,
        slots,
        whole_board,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    #[test]
    fn an_empty_fence_leaves_one_region() {
        let r: Vec<_> = regions(SlotSet::EMPTY).collect();
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].len(), 25);
    }

    #[test]
    fn a_wall_across_the_board_splits_it_in_two() {
        // Horizontal slots between rows 2 and 3 (line y = 2): A2n..E2n.
        let p = parse_position("A2n:R1 B2n:R2 C2n:R3 D2n:R4 E2n:R5").unwrap();
        let sizes: Vec<_> = regions(p.of(Colour::Red)).map(|r| r.len()).collect();
        assert_eq!(sizes, vec![10, 15]);
    }
}
