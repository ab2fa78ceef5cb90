//! Colours and pieces: the four colours of the set, and a piece as a colour plus its printed
//! number 1..=20. `ByColour` holds one value per colour without a map.

use std::fmt;

/// One of the four colours of the set. Seat colours: `S` red, `W` green, `N` blue, `E` yellow.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Colour {
    Red = 0,
    Blue = 1,
    Green = 2,
    Yellow = 3,
}

impl Colour {
    /// All colours.
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Blue, Colour::Green, Colour::Yellow];

    /// The colour's letter in piece tokens: `R`, `B`, `G`, `Y`.
    pub const fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Blue => 'B',
            Colour::Green => 'G',
            Colour::Yellow => 'Y',
        }
    }

    /// The colour named by a letter (either case) or a word (`red`, `blue`, …).
    pub fn parse(text: &str) -> Option<Colour> {
        match text.to_ascii_lowercase().as_str() {
            "r" | "red" => Some(Colour::Red),
            "b" | "blue" => Some(Colour::Blue),
            "g" | "green" => Some(Colour::Green),
            "y" | "yellow" => Some(Colour::Yellow),
            _ => None,
        }
    }

    /// Lower-case English name.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Green => "green",
            Colour::Yellow => "yellow",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The highest number printed on a piece; also each colour's supply.
pub const PIECES_PER_COLOUR: u8 = 20;

/// A piece: its colour and its number (1..=20).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    colour: Colour,
    number: u8,
}

impl Piece {
    /// The piece of `colour` numbered `number`, if the number is 1..=20.
    pub const fn new(colour: Colour, number: u8) -> Option<Piece> {
        if number >= 1 && number <= PIECES_PER_COLOUR {
            Some(Piece { colour, number })
        } else {
            None
        }
    }

    /// Its colour.
    #[inline]
    pub const fn colour(self) -> Colour {
        self.colour
    }

    /// Its number.
    #[inline]
    pub const fn number(self) -> u8 {
        self.number
    }

    /// Appends the token form (`R7`) to `out`, without the formatting machinery.
    pub fn push_name(self, out: &mut String) {
        out.push(self.colour.letter());
        if self.number >= 10 {
            out.push((b'0' + self.number / 10) as char);
        }
        out.push((b'0' + self.number % 10) as char);
    }
}

impl fmt::Display for Piece {
    /// The token form: `R7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.colour.letter(), self.number)
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// One value per colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByColour<T>(pub [T; 4]);

impl<T> std::ops::Index<Colour> for ByColour<T> {
    type Output = T;
    #[inline]
    fn index(&self, colour: Colour) -> &T {
        &self.0[colour as usize]
    }
}

impl<T> std::ops::IndexMut<Colour> for ByColour<T> {
    #[inline]
    fn index_mut(&mut self, colour: Colour) -> &mut T {
        &mut self.0[colour as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_named_as_in_position_strings() {
        let mut names = Vec::new();
        for colour in Colour::ALL {
            for number in 1..=PIECES_PER_COLOUR {
                let mut name = String::new();
                Piece::new(colour, number).unwrap().push_name(&mut name);
                names.push(name);
            }
        }
        assert_eq!(names.len(), 80);
        assert_eq!(names[0], "R1");
        assert_eq!(names[19], "R20");
        assert_eq!(names[29], "B10");
        assert_eq!(names[79], "Y20");
    }
}
