//! Seats as the wire names them (compass letters) and a game's winner (`S`, or a team `S+N`).
//! One closed set for every game system: ORION's four seats, Orbit's two, Orbs's six.

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// A seat at the table, by compass point. Ordered as clients list them: `S`, `W`, `N`, `E`,
/// then the four points between them (Orbs's star).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Seat {
    /// South.
    S,
    /// West.
    W,
    /// North.
    N,
    /// East.
    E,
    /// South-west (Orbs).
    SW,
    /// North-west (Orbs).
    NW,
    /// North-east (Orbs).
    NE,
    /// South-east (Orbs).
    SE,
}

impl Seat {
    /// Every seat, in the order above.
    pub const ALL: [Seat; 8] = [
        Seat::S,
        Seat::W,
        Seat::N,
        Seat::E,
        Seat::SW,
        Seat::NW,
        Seat::NE,
        Seat::SE,
    ];

    /// The seat's name on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Seat::S => "S",
            Seat::W => "W",
            Seat::N => "N",
            Seat::E => "E",
            Seat::SW => "SW",
            Seat::NW => "NW",
            Seat::NE => "NE",
            Seat::SE => "SE",
        }
    }

    /// The seat named `text`, exactly as on the wire.
    pub fn parse(text: &str) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who won: one seat, or a team of seats written `S+N`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Winner(Vec<Seat>);

impl Winner {
    /// One seat won.
    pub fn seat(seat: Seat) -> Winner {
        Winner(vec![seat])
    }

    /// A team won. `None` for no seats.
    pub fn team(seats: impl IntoIterator<Item = Seat>) -> Option<Winner> {
        let seats: Vec<Seat> = seats.into_iter().collect();
        (!seats.is_empty()).then_some(Winner(seats))
    }

    /// The winning seats (one, or a team's).
    pub fn seats(&self) -> &[Seat] {
        &self.0
    }

    /// Reads `S` or `S+N`.
    pub fn parse(text: &str) -> Option<Winner> {
        let seats: Option<Vec<Seat>> = text.split('+').map(Seat::parse).collect();
        Winner::team(seats?)
    }
}

impl fmt::Display for Winner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            f.write_str(s.as_str())?;
        }
        Ok(())
    }
}

impl Serialize for Winner {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Winner {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Winner, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Winner;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a winner: a seat (`S`) or a team (`S+N`)")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Winner, E> {
                Winner::parse(v).ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
            }
        }
        deserializer.deserialize_str(V)
    }
}
