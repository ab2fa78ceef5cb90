//! The two colours of stones and the two seats. [`ByStone`] holds one value per colour
//! without a map; seats are tied to colours only once `N` has chosen (the pie rule).

use std::fmt;

/// A stone's colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Stone {
    /// Black: two stones in the opening, so a stone ahead.
    Black = 0,
    /// White: moves first after the opening.
    White = 1,
}

impl Stone {
    /// Both colours, black first.
    pub const ALL: [Stone; 2] = [Stone::Black, Stone::White];

    /// The other colour.
    #[inline]
    pub const fn other(self) -> Stone {
        match self {
            Stone::Black => Stone::White,
            Stone::White => Stone::Black,
        }
    }

    /// The letter in position strings: `B` or `W`.
    pub const fn letter(self) -> char {
        match self {
            Stone::Black => 'B',
            Stone::White => 'W',
        }
    }

    /// Lower-case English name, as moves write the choice of colour.
    pub const fn name(self) -> &'static str {
        match self {
            Stone::Black => "black",
            Stone::White => "white",
        }
    }

    /// The colour named by a letter or a word, either case: `B`, `black`, `W`, `white`.
    pub fn parse(text: &str) -> Option<Stone> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Stone::Black),
            "w" | "white" => Some(Stone::White),
            _ => None,
        }
    }
}

impl fmt::Display for Stone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByStone<T> {
    /// Black's value.
    pub black: T,
    /// White's value.
    pub white: T,
}

impl<T> ByStone<T> {
    /// A value for each colour from `f`.
    pub fn new_with(mut f: impl FnMut(Stone) -> T) -> ByStone<T> {
        ByStone {
            black: f(Stone::Black),
            white: f(Stone::White),
        }
    }
}

impl<T> std::ops::Index<Stone> for ByStone<T> {
    type Output = T;
    #[inline]
    fn index(&self, stone: Stone) -> &T {
        match stone {
            Stone::Black => &self.black,
            Stone::White => &self.white,
        }
    }
}

impl<T> std::ops::IndexMut<Stone> for ByStone<T> {
    #[inline]
    fn index_mut(&mut self, stone: Stone) -> &mut T {
        match stone {
            Stone::Black => &mut self.black,
            Stone::White => &mut self.white,
        }
    }
}

/// A seat at the board. `S` makes the opening drops, `N` then chooses a colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Seat {
    /// South: drops the three opening stones and plays the colour `N` leaves.
    S = 0,
    /// North: chooses the colour after the opening.
    N = 1,
}

impl Seat {
    /// Both seats, `S` first.
    pub const ALL: [Seat; 2] = [Seat::S, Seat::N];

    /// The other seat.
    pub const fn other(self) -> Seat {
        match self {
            Seat::S => Seat::N,
            Seat::N => Seat::S,
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Seat::S => "S",
            Seat::N => "N",
        })
    }
}
