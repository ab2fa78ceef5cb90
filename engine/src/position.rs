//! Pieces on slots. A `Position` is a plain value (`Copy`, no heap): the piece in each slot
//! plus one `SlotSet` per colour, so a click is four array moves and four bit permutations.

use crate::board::{Click, Direction, Slot, SlotSet, SLOTS};
use crate::piece::{ByColour, Colour, Piece};

/// Which piece, if any, lies in each of the 60 slots.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// The piece in each slot, by slot index.
    slots: [Option<Piece>; SLOTS],
    /// The occupied slots of each colour, kept in step with `slots` for set arithmetic.
    by_colour: ByColour<SlotSet>,
}

impl Default for Position {
    fn default() -> Self {
        Position::empty()
    }
}

impl Position {
    /// The empty board.
    pub const fn empty() -> Position {
        Position {
            slots: [None; SLOTS],
            by_colour: ByColour([SlotSet::EMPTY; 4]),
        }
    }

    /// The piece in `slot`.
    #[inline]
    pub fn get(&self, slot: Slot) -> Option<Piece> {
        self.slots[slot.index()]
    }

    /// Puts `piece` in `slot` (replacing what was there) and returns the old occupant.
    pub fn put(&mut self, slot: Slot, piece: Piece) -> Option<Piece> {
        let old = self.take(slot);
        self.slots[slot.index()] = Some(piece);
        self.by_colour[piece.colour()].insert(slot);
        old
    }

    /// Removes and returns the piece in `slot`.
    pub fn take(&mut self, slot: Slot) -> Option<Piece> {
        let old = self.slots[slot.index()].take();
        if let Some(p) = old {
            self.by_colour[p.colour()].remove(slot);
        }
        old
    }

    /// The slots holding pieces of `colour`.
    #[inline]
    pub fn of(&self, colour: Colour) -> SlotSet {
        self.by_colour[colour]
    }

    /// Every occupied slot.
    #[inline]
    pub fn occupied(&self) -> SlotSet {
        let b = &self.by_colour.0;
        b[0] | b[1] | b[2] | b[3]
    }

    /// The slot holding `piece`, if it is on the board.
    pub fn find(&self, piece: Piece) -> Option<Slot> {
        self.of(piece.colour())
            .into_iter()
            .find(|&s| self.slots[s.index()] == Some(piece))
    }

    /// Every piece with its slot, in canonical slot order.
    pub fn pieces(&self) -> impl Iterator<Item = (Slot, Piece)> + '_ {
        self.occupied()
            .into_iter()
            .filter_map(|s| self.slots[s.index()].map(|p| (s, p)))
    }

    /// Turns one rotor a quarter: all four pieces of its orbit move at once.
    #[inline]
    pub fn click(&mut self, click: Click) {
        let [n, e, s, w] = click.rotor.orbit();
        let t = &mut self.slots;
        let (pn, pe, ps, pw) = (t[n.index()], t[e.index()], t[s.index()], t[w.index()]);
        match click.direction {
            Direction::Right => {
                t[e.index()] = pn;
                t[s.index()] = pe;
                t[w.index()] = ps;
                t[n.index()] = pw;
            }
            Direction::Left => {
                t[w.index()] = pn;
                t[n.index()] = pe;
                t[e.index()] = ps;
                t[s.index()] = pw;
            }
        }
        let orbit = click.rotor.orbit_set();
        for set in self.by_colour.0.iter_mut() {
            if set.intersects(orbit) {
                *set = set.clicked(click);
            }
        }
    }

    /// The position after `click`.
    #[inline]
    pub fn clicked(mut self, click: Click) -> Position {
        self.click(click);
        self
    }

    /// Applies clicks in order.
    pub fn play(&mut self, clicks: &[Click]) {
        for &c in clicks {
            self.click(c);
        }
    }

    /// How many pieces of `colour` are on the board.
    #[inline]
    pub fn count(&self, colour: Colour) -> usize {
        self.of(colour).len()
    }

    /// The lowest number of `colour` not on the board (the next piece from the supply).
    pub fn next_number(&self, colour: Colour) -> Option<u8> {
        let mut used = 0u32;
        for s in self.of(colour) {
            if let Some(p) = self.slots[s.index()] {
                used |= 1 << p.number();
            }
        }
        (1..=crate::piece::PIECES_PER_COLOUR).find(|n| used & (1 << n) == 0)
    }
}

impl Position {
    /// Appends the position string (ORION.md section 7: `slot:token` pairs, canonical slot
    /// names in canonical slot order) to `out`; `notation::position_string` is the usual way
    /// in. Written in place: a position is sent with every click event.
    pub(crate) fn push_string(&self, out: &mut String) {
        let start = out.len();
        for (slot, piece) in self.pieces() {
            if out.len() > start {
                out.push(' ');
            }
            out.push_str(slot.name());
            out.push(':');
            piece.push_name(out);
        }
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut text = String::new();
        self.push_string(&mut text);
        write!(f, "Position({text})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rotor;

    #[test]
    fn a_right_click_moves_north_to_east() {
        let c3 = Rotor::at(2, 2).unwrap();
        let mut p = Position::empty();
        let red = Piece::new(Colour::Red, 1).unwrap();
        p.put(c3.slot(crate::board::Side::North), red);
        p.click(Click::new(c3, Direction::Right));
        assert_eq!(p.get(c3.slot(crate::board::Side::East)), Some(red));
        assert_eq!(p.of(Colour::Red), c3.slot(crate::board::Side::East).bit());
    }
}
