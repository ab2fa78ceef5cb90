//! The fixed geometry of the ORION board: 25 rotors, 60 slots, which slots make each rotor's
//! orbit, which slots touch, lie in line, or touch an edge. Everything here is computed once
//! at compile time, so the hot paths (clicks, chains, fences) only index tables.

use std::fmt;

/// Number of rotors on the board (5x5).
pub const ROTORS: usize = 25;
/// Number of slots on the board (30 horizontal + 30 vertical).
pub const SLOTS: usize = 60;

/// One of the 25 rotors. Index = `row * 5 + column`, row 0 at the bottom, column 0 at the left.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rotor(u8);

/// One of the 60 slots, in canonical slot order: horizontal slots bottom line first, left to
/// right (indices 0..30), then vertical slots, left line first, bottom to top (30..60).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slot(u8);

/// The four sides of a rotor, in clockwise order starting at the top.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Side {
    North = 0,
    East = 1,
    South = 2,
    West = 3,
}

/// The four edges of the board. A seat plays from the edge of the same name.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Edge {
    Bottom = 0,
    Left = 1,
    Top = 2,
    Right = 3,
}

/// The direction of a click. `Right` is clockwise seen from above with row 5 at the top
/// (booklet `R`, earlier server `+`); `Left` is counter-clockwise (`L`, `-`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Direction {
    Right = 0,
    Left = 1,
}

/// A quarter turn of one rotor.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Click {
    /// The rotor turned.
    pub rotor: Rotor,
    /// Which way it turned.
    pub direction: Direction,
}

/// A set of slots as a 60-bit bitset (bit i = slot i).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct SlotSet(pub u64);

/// A set of rotors as a 25-bit bitset (bit i = rotor i).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RotorSet(pub u32);

impl Rotor {
    /// All rotors in index order.
    pub const ALL: [Rotor; ROTORS] = {
        let mut all = [Rotor(0); ROTORS];
        let mut i = 0;
        while i < ROTORS {
            all[i] = Rotor(i as u8);
            i += 1;
        }
        all
    };

    /// The rotor at `column` 0..5 (A..E) and `row` 0..5 (1..5), if on the board.
    pub const fn at(column: u8, row: u8) -> Option<Rotor> {
        if column < 5 && row < 5 {
            Some(Rotor(row * 5 + column))
        } else {
            None
        }
    }

    /// The rotor with this index (0..25).
    pub const fn from_index(index: usize) -> Option<Rotor> {
        if index < ROTORS {
            Some(Rotor(index as u8))
        } else {
            None
        }
    }

    /// Index 0..25.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column 0..5 (A..E).
    #[inline]
    pub const fn column(self) -> u8 {
        self.0 % 5
    }

    /// Row 0..5 (booklet rows 1..5).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 5
    }

    /// The four slots of this rotor's orbit, in the order north, east, south, west.
    #[inline]
    pub const fn orbit(self) -> [Slot; 4] {
        ORBITS[self.0 as usize]
    }

    /// The orbit as a set.
    #[inline]
    pub const fn orbit_set(self) -> SlotSet {
        ORBIT_SETS[self.0 as usize]
    }

    /// The slot on `side` of this rotor.
    #[inline]
    pub const fn slot(self, side: Side) -> Slot {
        ORBITS[self.0 as usize][side as usize]
    }

    /// The rotor as a one-element set.
    #[inline]
    pub const fn bit(self) -> RotorSet {
        RotorSet(1 << self.0)
    }
}

impl Slot {
    /// All slots in canonical order.
    pub const ALL: [Slot; SLOTS] = {
        let mut all = [Slot(0); SLOTS];
        let mut i = 0;
        while i < SLOTS {
            all[i] = Slot(i as u8);
            i += 1;
        }
        all
    };

    /// The slot with this index (0..60).
    pub const fn from_index(index: usize) -> Option<Slot> {
        if index < SLOTS {
            Some(Slot(index as u8))
        } else {
            None
        }
    }

    /// The horizontal slot on grid line `y` (0..=5) under/over column `column` (0..5).
    pub const fn horizontal(y: u8, column: u8) -> Option<Slot> {
        if y <= 5 && column < 5 {
            Some(Slot(y * 5 + column))
        } else {
            None
        }
    }

    /// The vertical slot on grid line `x` (0..=5) beside row `row` (0..5).
    pub const fn vertical(x: u8, row: u8) -> Option<Slot> {
        if x <= 5 && row < 5 {
            Some(Slot(30 + x * 5 + row))
        } else {
            None
        }
    }

    /// Index 0..60 in canonical order.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether the slot lies along a horizontal grid line.
    #[inline]
    pub const fn is_horizontal(self) -> bool {
        self.0 < 30
    }

    /// The slot's two ends as grid corners `(x, y)`, lower/left end first.
    pub const fn ends(self) -> [(u8, u8); 2] {
        let i = self.0;
        if i < 30 {
            let (y, c) = (i / 5, i % 5);
            [(c, y), (c + 1, y)]
        } else {
            let (x, r) = ((i - 30) / 5, (i - 30) % 5);
            [(x, r), (x, r + 1)]
        }
    }

    /// Twice the midpoint `(2x, 2y)`, in integers.
    pub const fn midpoint2(self) -> (u8, u8) {
        let [(x0, y0), (x1, y1)] = self.ends();
        (x0 + x1, y0 + y1)
    }

    /// The slot's level (how far up the board it lies), doubled: `2 * y` of its midpoint.
    #[inline]
    pub const fn level2(self) -> u8 {
        self.midpoint2().1
    }

    /// The one or two rotors whose orbit holds this slot.
    #[inline]
    pub fn rotors(self) -> RotorSet {
        SLOT_ROTORS[self.0 as usize]
    }

    /// The slots that touch this one (share a grid corner), itself excluded.
    #[inline]
    pub const fn touching(self) -> SlotSet {
        TOUCHING[self.0 as usize]
    }

    /// The slots that touch this one end to end and are collinear with it.
    #[inline]
    pub const fn in_line(self) -> SlotSet {
        IN_LINE[self.0 as usize]
    }

    /// The slot as a one-element set.
    #[inline]
    pub const fn bit(self) -> SlotSet {
        SlotSet(1 << self.0)
    }

    /// The slot this one becomes when the board is turned a quarter clockwise.
    pub const fn rotated_cw(self) -> Slot {
        // A grid point (x, y) goes to (y, 5 - x).
        let [(x0, y0), (x1, y1)] = self.ends();
        slot_between((y0, 5 - x0), (y1, 5 - x1))
    }
}

impl Slot {
    /// The slot joining two neighbouring grid corners `(x, y)`, if both are on the board and
    /// one step apart.
    pub const fn joining(a: (i8, i8), b: (i8, i8)) -> Option<Slot> {
        const fn on(p: (i8, i8)) -> bool {
            p.0 >= 0 && p.0 <= 5 && p.1 >= 0 && p.1 <= 5
        }
        if !on(a) || !on(b) || (a.0 - b.0).abs() + (a.1 - b.1).abs() != 1 {
            return None;
        }
        Some(slot_between((a.0 as u8, a.1 as u8), (b.0 as u8, b.1 as u8)))
    }
}

/// The slot whose ends are the two given neighbouring grid corners.
const fn slot_between(a: (u8, u8), b: (u8, u8)) -> Slot {
    let (lo, hi) = if a.0 < b.0 || a.1 < b.1 {
        (a, b)
    } else {
        (b, a)
    };
    if lo.1 == hi.1 {
        Slot(lo.1 * 5 + lo.0)
    } else {
        Slot(30 + lo.0 * 5 + lo.1)
    }
}

impl Side {
    /// All sides in clockwise order from north.
    pub const ALL: [Side; 4] = [Side::North, Side::East, Side::South, Side::West];
}

impl Edge {
    /// All edges.
    pub const ALL: [Edge; 4] = [Edge::Bottom, Edge::Left, Edge::Top, Edge::Right];

    /// The edge across the board.
    pub const fn opposite(self) -> Edge {
        match self {
            Edge::Bottom => Edge::Top,
            Edge::Left => Edge::Right,
            Edge::Top => Edge::Bottom,
            Edge::Right => Edge::Left,
        }
    }

    /// Slots that touch this edge, along it or with a point.
    #[inline]
    pub const fn touching(self) -> SlotSet {
        EDGE_TOUCHING[self as usize]
    }

    /// The five slots lying along this edge.
    #[inline]
    pub const fn border(self) -> SlotSet {
        EDGE_BORDER[self as usize]
    }
}

impl Direction {
    /// The other way.
    #[inline]
    pub const fn reversed(self) -> Direction {
        match self {
            Direction::Right => Direction::Left,
            Direction::Left => Direction::Right,
        }
    }
}

impl Click {
    /// A click of `rotor` in `direction`.
    pub const fn new(rotor: Rotor, direction: Direction) -> Click {
        Click { rotor, direction }
    }

    /// The click that undoes this one.
    #[inline]
    pub const fn inverse(self) -> Click {
        Click {
            rotor: self.rotor,
            direction: self.direction.reversed(),
        }
    }

    /// All 50 clicks: every rotor, right then left.
    pub const ALL: [Click; 50] = {
        let mut all = [Click {
            rotor: Rotor(0),
            direction: Direction::Right,
        }; 50];
        let mut i = 0;
        while i < 50 {
            all[i] = Click {
                rotor: Rotor((i / 2) as u8),
                direction: if i % 2 == 0 {
                    Direction::Right
                } else {
                    Direction::Left
                },
            };
            i += 1;
        }
        all
    };

    /// Where the piece in `slot` goes when this click turns it; `None` if the slot is not in
    /// the orbit.
    #[inline]
    pub fn destination(self, slot: Slot) -> Option<Slot> {
        let orbit = self.rotor.orbit();
        let step = match self.direction {
            Direction::Right => 1,
            Direction::Left => 3,
        };
        orbit
            .iter()
            .position(|&s| s == slot)
            .map(|i| orbit[(i + step) % 4])
    }
}

impl SlotSet {
    /// No slot.
    pub const EMPTY: SlotSet = SlotSet(0);
    /// Every slot.
    pub const FULL: SlotSet = SlotSet((1u64 << SLOTS) - 1);

    /// Whether `slot` is in the set.
    #[inline]
    pub const fn contains(self, slot: Slot) -> bool {
        self.0 & (1 << slot.0) != 0
    }

    /// Adds `slot`.
    #[inline]
    pub fn insert(&mut self, slot: Slot) {
        self.0 |= 1 << slot.0;
    }

    /// Removes `slot`.
    #[inline]
    pub fn remove(&mut self, slot: Slot) {
        self.0 &= !(1 << slot.0);
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of slots in the set.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the two sets share a slot.
    #[inline]
    pub const fn intersects(self, other: SlotSet) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether every slot of `other` is in this set.
    #[inline]
    pub const fn is_superset(self, other: SlotSet) -> bool {
        self.0 & other.0 == other.0
    }

    /// The lowest slot in the set.
    #[inline]
    pub fn first(self) -> Option<Slot> {
        if self.0 == 0 {
            None
        } else {
            Some(Slot(self.0.trailing_zeros() as u8))
        }
    }

    /// The set moved by one click: every member in the click's orbit goes where the click takes
    /// it; the others stay.
    #[inline]
    pub fn clicked(self, click: Click) -> SlotSet {
        let [n, e, s, w] = click.rotor.orbit();
        let bit = |slot: Slot| (self.0 >> slot.0) & 1;
        let (bn, be, bs, bw) = (bit(n), bit(e), bit(s), bit(w));
        let (nn, ne, ns, nw) = match click.direction {
            // north→east→south→west→north
            Direction::Right => (bw, bn, be, bs),
            Direction::Left => (be, bs, bw, bn),
        };
        let kept = self.0 & !click.rotor.orbit_set().0;
        SlotSet(kept | (nn << n.0) | (ne << e.0) | (ns << s.0) | (nw << w.0))
    }

    /// Every slot touching some member of the set (members included if they touch one another).
    pub fn touching(self) -> SlotSet {
        let mut out = 0;
        for slot in self {
            out |= slot.touching().0;
        }
        SlotSet(out)
    }

    /// The members connected (by touching, within the set) to some member of `seeds`.
    pub fn connected_from(self, seeds: SlotSet) -> SlotSet {
        let mut reached = seeds & self;
        let mut frontier = reached;
        while !frontier.is_empty() {
            let mut grown = 0;
            for slot in frontier {
                grown |= slot.touching().0;
            }
            let new = SlotSet(grown) & self & !reached;
            reached |= new;
            frontier = new;
        }
        reached
    }
}

impl std::ops::BitOr for SlotSet {
    type Output = SlotSet;
    #[inline]
    fn bitor(self, rhs: SlotSet) -> SlotSet {
        SlotSet(self.0 | rhs.0)
    }
}
impl std::ops::BitOrAssign for SlotSet {
    #[inline]
    fn bitor_assign(&mut self, rhs: SlotSet) {
        self.0 |= rhs.0;
    }
}
impl std::ops::BitAnd for SlotSet {
    type Output = SlotSet;
    #[inline]
    fn bitand(self, rhs: SlotSet) -> SlotSet {
        SlotSet(self.0 & rhs.0)
    }
}
impl std::ops::BitAndAssign for SlotSet {
    #[inline]
    fn bitand_assign(&mut self, rhs: SlotSet) {
        self.0 &= rhs.0;
    }
}
impl std::ops::Not for SlotSet {
    type Output = SlotSet;
    #[inline]
    fn not(self) -> SlotSet {
        SlotSet(!self.0 & SlotSet::FULL.0)
    }
}
impl FromIterator<Slot> for SlotSet {
    fn from_iter<I: IntoIterator<Item = Slot>>(iter: I) -> SlotSet {
        let mut set = SlotSet::EMPTY;
        for slot in iter {
            set.insert(slot);
        }
        set
    }
}

/// Iterates a [`SlotSet`] in canonical order.
pub struct SlotIter(u64);

impl Iterator for SlotIter {
    type Item = Slot;
    #[inline]
    fn next(&mut self) -> Option<Slot> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Slot(i as u8))
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl IntoIterator for SlotSet {
    type Item = Slot;
    type IntoIter = SlotIter;
    #[inline]
    fn into_iter(self) -> SlotIter {
        SlotIter(self.0)
    }
}

impl RotorSet {
    /// No rotor.
    pub const EMPTY: RotorSet = RotorSet(0);
    /// All 25 rotors.
    pub const FULL: RotorSet = RotorSet((1 << ROTORS) - 1);

    /// Whether `rotor` is in the set.
    #[inline]
    pub const fn contains(self, rotor: Rotor) -> bool {
        self.0 & (1 << rotor.0) != 0
    }

    /// Number of rotors in the set.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rotors in index order.
    pub fn iter(self) -> impl Iterator<Item = Rotor> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let i = bits.trailing_zeros();
                bits &= bits - 1;
                Some(Rotor(i as u8))
            }
        })
    }

    /// Every slot of every member's orbit.
    pub fn orbit_slots(self) -> SlotSet {
        let mut out = SlotSet::EMPTY;
        for rotor in self.iter() {
            out |= rotor.orbit_set();
        }
        out
    }
}

const ORBITS: [[Slot; 4]; ROTORS] = {
    let mut t = [[Slot(0); 4]; ROTORS];
    let mut i = 0;
    while i < ROTORS {
        let (c, r) = ((i % 5) as u8, (i / 5) as u8);
        t[i] = [
            Slot((r + 1) * 5 + c),
            Slot(30 + (c + 1) * 5 + r),
            Slot(r * 5 + c),
            Slot(30 + c * 5 + r),
        ];
        i += 1;
    }
    t
};

const ORBIT_SETS: [SlotSet; ROTORS] = {
    let mut t = [SlotSet(0); ROTORS];
    let mut i = 0;
    while i < ROTORS {
        let o = ORBITS[i];
        t[i] = SlotSet((1 << o[0].0) | (1 << o[1].0) | (1 << o[2].0) | (1 << o[3].0));
        i += 1;
    }
    t
};

const SLOT_ROTORS: [RotorSet; SLOTS] = {
    let mut t = [RotorSet(0); SLOTS];
    let mut r = 0;
    while r < ROTORS {
        let mut k = 0;
        while k < 4 {
            let s = ORBITS[r][k].0 as usize;
            t[s] = RotorSet(t[s].0 | (1 << r));
            k += 1;
        }
        r += 1;
    }
    t
};

const fn shares_corner(a: Slot, b: Slot) -> bool {
    let ea = a.ends();
    let eb = b.ends();
    let mut i = 0;
    while i < 2 {
        let mut j = 0;
        while j < 2 {
            if ea[i].0 == eb[j].0 && ea[i].1 == eb[j].1 {
                return true;
            }
            j += 1;
        }
        i += 1;
    }
    false
}

const TOUCHING: [SlotSet; SLOTS] = {
    let mut t = [SlotSet(0); SLOTS];
    let mut i = 0;
    while i < SLOTS {
        let mut j = 0;
        while j < SLOTS {
            if i != j && shares_corner(Slot(i as u8), Slot(j as u8)) {
                t[i] = SlotSet(t[i].0 | (1 << j));
            }
            j += 1;
        }
        i += 1;
    }
    t
};

const IN_LINE: [SlotSet; SLOTS] = {
    let mut t = [SlotSet(0); SLOTS];
    let mut i = 0;
    while i < SLOTS {
        let mut j = 0;
        while j < SLOTS {
            let (a, b) = (Slot(i as u8), Slot(j as u8));
            if i != j && shares_corner(a, b) && a.is_horizontal() == b.is_horizontal() {
                t[i] = SlotSet(t[i].0 | (1 << j));
            }
            j += 1;
        }
        i += 1;
    }
    t
};

const fn touches_edge(slot: Slot, edge: Edge) -> bool {
    let ends = slot.ends();
    let mut k = 0;
    while k < 2 {
        let (x, y) = ends[k];
        let on = match edge {
            Edge::Bottom => y == 0,
            Edge::Left => x == 0,
            Edge::Top => y == 5,
            Edge::Right => x == 5,
        };
        if on {
            return true;
        }
        k += 1;
    }
    false
}

const fn lies_along_edge(slot: Slot, edge: Edge) -> bool {
    let [(x0, y0), (x1, y1)] = slot.ends();
    match edge {
        Edge::Bottom => y0 == 0 && y1 == 0,
        Edge::Left => x0 == 0 && x1 == 0,
        Edge::Top => y0 == 5 && y1 == 5,
        Edge::Right => x0 == 5 && x1 == 5,
    }
}

const EDGE_TOUCHING: [SlotSet; 4] = {
    let mut t = [SlotSet(0); 4];
    let edges = [Edge::Bottom, Edge::Left, Edge::Top, Edge::Right];
    let mut e = 0;
    while e < 4 {
        let mut i = 0;
        while i < SLOTS {
            if touches_edge(Slot(i as u8), edges[e]) {
                t[e] = SlotSet(t[e].0 | (1 << i));
            }
            i += 1;
        }
        e += 1;
    }
    t
};

const EDGE_BORDER: [SlotSet; 4] = {
    let mut t = [SlotSet(0); 4];
    let edges = [Edge::Bottom, Edge::Left, Edge::Top, Edge::Right];
    let mut e = 0;
    while e < 4 {
        let mut i = 0;
        while i < SLOTS {
            if lies_along_edge(Slot(i as u8), edges[e]) {
                t[e] = SlotSet(t[e].0 | (1 << i));
            }
            i += 1;
        }
        e += 1;
    }
    t
};

impl fmt::Debug for Rotor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Rotor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.column()) as char, self.row() + 1)
    }
}

impl fmt::Debug for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Every slot's canonical name, made once: names are written with every click event.
const SLOT_NAMES: [[u8; 3]; SLOTS] = {
    let mut names = [[0u8; 3]; SLOTS];
    let mut i = 0;
    while i < SLOTS {
        // The side of the rotor below / to the left (`n` or `e`), except on the bottom and
        // left borders (`s`, `w`).
        let (rotor, side) = if i < 30 {
            let (y, c) = (i / 5, i % 5);
            if y == 0 {
                (c, b's')
            } else {
                ((y - 1) * 5 + c, b'n')
            }
        } else {
            let (x, r) = ((i - 30) / 5, (i - 30) % 5);
            if x == 0 {
                (r * 5, b'w')
            } else {
                (r * 5 + x - 1, b'e')
            }
        };
        names[i] = [b'A' + (rotor % 5) as u8, b'1' + (rotor / 5) as u8, side];
        i += 1;
    }
    names
};

impl Slot {
    /// The canonical name, as `Display` prints it: `C2n`.
    pub fn name(self) -> &'static str {
        std::str::from_utf8(&SLOT_NAMES[self.0 as usize]).unwrap_or("?")
    }
}

impl fmt::Display for Slot {
    /// The canonical name: the side of the rotor below / to the left (`n` or `e`), except on
    /// the bottom and left borders (`s`, `w`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Click {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Click {
    /// Booklet form: `C4R`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = match self.direction {
            Direction::Right => 'R',
            Direction::Left => 'L',
        };
        write!(f, "{}{d}", self.rotor)
    }
}

impl fmt::Debug for SlotSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

impl fmt::Debug for RotorSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_inner_slot_lies_in_two_orbits_and_every_border_slot_in_one() {
        let mut border = 0;
        for slot in Slot::ALL {
            match slot.rotors().len() {
                1 => border += 1,
                2 => {}
                n => panic!("{slot} lies in {n} orbits"),
            }
        }
        assert_eq!(border, 20);
    }

    #[test]
    fn canonical_names_follow_the_spec() {
        assert_eq!(Slot::horizontal(0, 2).unwrap().to_string(), "C1s");
        assert_eq!(Slot::vertical(0, 2).unwrap().to_string(), "A3w");
        assert_eq!(
            Rotor::at(2, 1).unwrap().slot(Side::North).to_string(),
            "C2n"
        );
        assert_eq!(
            Rotor::at(2, 2).unwrap().slot(Side::South).to_string(),
            "C2n"
        );
        assert_eq!(Rotor::at(3, 1).unwrap().slot(Side::West).to_string(), "C2e");
    }

    #[test]
    fn a_slot_touches_six_others_inside_and_fewer_at_the_corners() {
        // An inner horizontal slot: 3 slots at each end.
        assert_eq!(Slot::horizontal(2, 2).unwrap().touching().len(), 6);
        // A corner border slot: 1 at the corner end and 2 at the other (on the edge).
        assert_eq!(Slot::horizontal(0, 0).unwrap().touching().len(), 3);
        assert_eq!(Slot::horizontal(2, 2).unwrap().in_line().len(), 2);
    }

    #[test]
    fn edges_are_touched_by_eleven_slots() {
        for edge in Edge::ALL {
            assert_eq!(edge.touching().len(), 11, "{edge:?}");
            assert_eq!(edge.border().len(), 5, "{edge:?}");
        }
    }

    #[test]
    fn rotating_the_board_four_times_is_the_identity() {
        for slot in Slot::ALL {
            let r = slot.rotated_cw().rotated_cw().rotated_cw().rotated_cw();
            assert_eq!(r, slot);
        }
        let bottom: SlotSet = Edge::Bottom
            .border()
            .into_iter()
            .map(Slot::rotated_cw)
            .collect();
        assert_eq!(bottom, Edge::Left.border());
    }
}
