//! A set of holes as a 128-bit mask: the points, the holes out of play, and where each
//! colour's orbs stand, with set operations that cost one instruction.

use crate::hole::{Hole, HOLES};
use std::fmt;
use std::ops::{BitAnd, BitOr, BitOrAssign, Not};

/// A set of holes, one bit per hole in reading order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct HoleSet(u128);

impl HoleSet {
    /// No hole.
    pub const EMPTY: HoleSet = HoleSet(0);
    /// All 121 holes.
    pub const ALL: HoleSet = HoleSet((1u128 << HOLES) - 1);

    /// The set holding one hole.
    pub const fn from_hole(hole: Hole) -> HoleSet {
        HoleSet(1u128 << hole.index())
    }

    /// Whether `hole` is in the set.
    pub const fn contains(self, hole: Hole) -> bool {
        self.0 & (1u128 << hole.index()) != 0
    }

    /// Adds `hole`.
    pub fn insert(&mut self, hole: Hole) {
        self.0 |= 1u128 << hole.index();
    }

    /// Removes `hole`.
    pub fn remove(&mut self, hole: Hole) {
        self.0 &= !(1u128 << hole.index());
    }

    /// How many holes are in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The holes in reading order.
    pub fn iter(self) -> HoleSetIter {
        HoleSetIter(self.0)
    }
}

impl FromIterator<Hole> for HoleSet {
    fn from_iter<I: IntoIterator<Item = Hole>>(iter: I) -> HoleSet {
        let mut set = HoleSet::EMPTY;
        for h in iter {
            set.insert(h);
        }
        set
    }
}

impl IntoIterator for HoleSet {
    type Item = Hole;
    type IntoIter = HoleSetIter;
    fn into_iter(self) -> HoleSetIter {
        self.iter()
    }
}

/// The holes of a [`HoleSet`], lowest first.
pub struct HoleSetIter(u128);

impl Iterator for HoleSetIter {
    type Item = Hole;
    fn next(&mut self) -> Option<Hole> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Hole::new(i)
    }
}

impl BitOr for HoleSet {
    type Output = HoleSet;
    fn bitor(self, rhs: HoleSet) -> HoleSet {
        HoleSet(self.0 | rhs.0)
    }
}

impl BitOrAssign for HoleSet {
    fn bitor_assign(&mut self, rhs: HoleSet) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for HoleSet {
    type Output = HoleSet;
    fn bitand(self, rhs: HoleSet) -> HoleSet {
        HoleSet(self.0 & rhs.0)
    }
}

impl Not for HoleSet {
    type Output = HoleSet;
    /// The holes of the star not in the set.
    fn not(self) -> HoleSet {
        HoleSet(!self.0 & HoleSet::ALL.0)
    }
}

impl fmt::Debug for HoleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|h| h.to_string()))
            .finish()
    }
}

impl fmt::Display for HoleSet {
    /// Hole names separated by spaces, in reading order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, h) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{h}")?;
        }
        Ok(())
    }
}
