//! Seats are the six points of the star, named by compass; colours are the six orb sets.
//! Which seats play at each player count, their turn order (clockwise from `S`), partners
//! (opposite points) and the colour each seat plays.

use crate::hole::Hole;
use crate::holeset::HoleSet;
use std::fmt;

/// One of the six points of the star, where a player starts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Seat {
    /// The bottom point, rows `a`–`d`.
    S = 0,
    /// The lower left point, rows `e`–`h`.
    SW = 1,
    /// The upper left point, rows `j`–`m`.
    NW = 2,
    /// The top point, rows `n`–`q`.
    N = 3,
    /// The upper right point, rows `j`–`m`.
    NE = 4,
    /// The lower right point, rows `e`–`h`.
    SE = 5,
}

impl Seat {
    /// All six seats, clockwise round the star from `S` (as the board lies with `S` at the
    /// bottom: `S`, `SW`, `NW`, `N`, `NE`, `SE`).
    pub const ALL: [Seat; 6] = [Seat::S, Seat::SW, Seat::NW, Seat::N, Seat::NE, Seat::SE];

    /// The seats that play with `players` players, in turn order, or `None` outside 2–6.
    ///
    /// 2: `S`, `N`; 3: `S`, `NW`, `NE`; 4: `SW`, `NW`, `NE`, `SE` (the spec lists them
    /// `SW SE NE NW`; play goes clockwise from the first listed, `SW`); 5 (our choice, the
    /// spec leaves it open): every seat but `SE`, so the order is the six-player order cut
    /// short; 6: all.
    pub const fn for_players(players: u8) -> Option<&'static [Seat]> {
        match players {
            2 => Some(&[Seat::S, Seat::N]),
            3 => Some(&[Seat::S, Seat::NW, Seat::NE]),
            4 => Some(&[Seat::SW, Seat::NW, Seat::NE, Seat::SE]),
            5 => Some(&[Seat::S, Seat::SW, Seat::NW, Seat::N, Seat::NE]),
            6 => Some(&Seat::ALL),
            _ => None,
        }
    }

    /// The seat across the star: the partner in team games.
    pub const fn opposite(self) -> Seat {
        match self {
            Seat::S => Seat::N,
            Seat::SW => Seat::NE,
            Seat::NW => Seat::SE,
            Seat::N => Seat::S,
            Seat::NE => Seat::SW,
            Seat::SE => Seat::NW,
        }
    }

    /// The tip of the seat's point: `a1`, `e1`, `m1`, `q1`, `m13`, `e13`.
    pub fn tip(self) -> Hole {
        let (row, place) = match self {
            Seat::S => (0, 1),
            Seat::SW => (4, 1),
            Seat::NW => (12, 1),
            Seat::N => (16, 1),
            Seat::NE => (12, 13),
            Seat::SE => (4, 13),
        };
        Hole::from_row_place(row, place).unwrap_or(Hole::CENTRE)
    }

    /// The ten holes of the seat's point: those within three steps of its tip.
    pub fn point(self) -> HoleSet {
        let tip = self.tip();
        Hole::all().filter(|h| h.distance(tip) <= 3).collect()
    }

    /// The point's rows from the centre outward (4, 3, 2 and 1 holes), each left to right
    /// as the seat's owner sees it facing the centre.
    pub fn point_rows(self) -> [Vec<Hole>; 4] {
        let tip = self.tip();
        // Facing the centre from the tip, "right" is the facing direction turned clockwise.
        // Coordinates: x as in the notation, y = row · √3 (so the lattice is equilateral).
        let sqrt3 = 3f64.sqrt();
        let (tx, ty) = (tip.x() as f64, tip.row() as f64 * sqrt3);
        let (fx, fy) = (
            Hole::CENTRE.x() as f64 - tx,
            Hole::CENTRE.row() as f64 * sqrt3 - ty,
        );
        let rightward = |h: &Hole| (h.x() as f64 - tx) * fy - (h.row() as f64 * sqrt3 - ty) * fx;
        let mut rows: [Vec<Hole>; 4] = Default::default();
        for (i, row) in rows.iter_mut().enumerate() {
            let d = 3 - i as u32;
            row.extend(self.point().iter().filter(|h| h.distance(tip) == d));
            row.sort_by(|a, b| rightward(a).total_cmp(&rightward(b)));
        }
        rows
    }

    /// The seat's compass name.
    pub const fn name(self) -> &'static str {
        match self {
            Seat::S => "S",
            Seat::SW => "SW",
            Seat::NW => "NW",
            Seat::N => "N",
            Seat::NE => "NE",
            Seat::SE => "SE",
        }
    }

    /// Parses a compass name (either case).
    pub fn parse(text: &str) -> Option<Seat> {
        Seat::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(text.trim()))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One of the six orb sets. The k-th seat in turn order plays the k-th colour: red, blue,
/// green, yellow as in ORION, orange and purple for five and six players.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Colour {
    /// `R`.
    Red = 0,
    /// `B`.
    Blue = 1,
    /// `G`.
    Green = 2,
    /// `Y`.
    Yellow = 3,
    /// `O`.
    Orange = 4,
    /// `P`.
    Purple = 5,
}

impl Colour {
    /// All colours, in the order seats take them.
    pub const ALL: [Colour; 6] = [
        Colour::Red,
        Colour::Blue,
        Colour::Green,
        Colour::Yellow,
        Colour::Orange,
        Colour::Purple,
    ];

    /// The colour of the seat at `index` in turn order.
    pub const fn of_turn(index: usize) -> Colour {
        Colour::ALL[index % 6]
    }

    /// The letter in orb tokens: `R`, `B`, `G`, `Y`, `O`, `P`.
    pub const fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Blue => 'B',
            Colour::Green => 'G',
            Colour::Yellow => 'Y',
            Colour::Orange => 'O',
            Colour::Purple => 'P',
        }
    }

    /// The colour with this letter (either case).
    pub fn from_letter(letter: char) -> Option<Colour> {
        Colour::ALL
            .into_iter()
            .find(|c| c.letter() == letter.to_ascii_uppercase())
    }

    /// Lower-case English name.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Green => "green",
            Colour::Yellow => "yellow",
            Colour::Orange => "orange",
            Colour::Purple => "purple",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
