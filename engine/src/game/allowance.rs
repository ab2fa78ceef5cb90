//! How a turn is to be used: a number of clicks, the die-or-three choice, a die the mover
//! must throw, or one placement (and where a placement may go).

use crate::board::{Edge, Slot, SlotSet};

/// How a turn is to be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowance {
    /// Up to this many clicks.
    Clicks(u8),
    /// The mover chooses: throw the die, or take three clicks.
    DieOrThree,
    /// The mover must throw the die.
    Die,
    /// The turn is one placement of a new piece.
    Place(PlaceRule),
}

/// Where a placement turn may put its piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceRule {
    /// Any empty slot.
    Anywhere,
    /// An empty slot touching the board edge (along it or with a point).
    TouchingEdge,
    /// One of these slots (Auriga's entry slots).
    Slots(SlotSet),
}

impl PlaceRule {
    /// Whether the rule lets a piece go on `slot` (emptiness aside).
    pub fn allows(self, slot: Slot) -> bool {
        match self {
            PlaceRule::Anywhere => true,
            PlaceRule::TouchingEdge => Edge::ALL.iter().any(|e| e.touching().contains(slot)),
            PlaceRule::Slots(set) => set.contains(slot),
        }
    }
}
