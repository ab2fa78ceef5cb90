//! Seats are named by the board edge a player sits at. Turn order runs `S`, `W`, `N`, `E`
//! (clockwise as the booklet plays); each seat has a default colour and plays from its edge.

use crate::board::Edge;
use crate::piece::Colour;
use std::fmt;

/// A seat at the board, named by its edge.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Seat {
    S = 0,
    W = 1,
    N = 2,
    E = 3,
}

impl Seat {
    /// All seats in turn order.
    pub const ALL: [Seat; 4] = [Seat::S, Seat::W, Seat::N, Seat::E];

    /// The edge the seat plays from.
    pub const fn edge(self) -> Edge {
        match self {
            Seat::S => Edge::Bottom,
            Seat::W => Edge::Left,
            Seat::N => Edge::Top,
            Seat::E => Edge::Right,
        }
    }

    /// The seat's colour in games where every seat plays its own: `S` red, `W` green,
    /// `N` blue, `E` yellow.
    pub const fn colour(self) -> Colour {
        match self {
            Seat::S => Colour::Red,
            Seat::W => Colour::Green,
            Seat::N => Colour::Blue,
            Seat::E => Colour::Yellow,
        }
    }

    /// The seat across the board.
    pub const fn opposite(self) -> Seat {
        match self {
            Seat::S => Seat::N,
            Seat::W => Seat::E,
            Seat::N => Seat::S,
            Seat::E => Seat::W,
        }
    }

    /// Parses `S`, `W`, `N`, `E` (either case).
    pub fn parse(text: &str) -> Option<Seat> {
        match text.trim().as_bytes() {
            [b'S' | b's'] => Some(Seat::S),
            [b'W' | b'w'] => Some(Seat::W),
            [b'N' | b'n'] => Some(Seat::N),
            [b'E' | b'e'] => Some(Seat::E),
            _ => None,
        }
    }

    /// The seat's letter.
    pub const fn letter(self) -> char {
        match self {
            Seat::S => 'S',
            Seat::W => 'W',
            Seat::N => 'N',
            Seat::E => 'E',
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One seat of a game: who sits there and which colour they move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SeatInfo {
    /// The seat.
    pub seat: Seat,
    /// The colour this seat moves (its team's colour in partner games).
    pub colour: Colour,
}
