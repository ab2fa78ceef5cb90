//! What an action caused, in order: the events every member of a room is told (clicks with
//! the board after them, placements, chains, captures, turns) and the end of the game.

use crate::board::{Click, Slot, SlotSet};
use crate::piece::{Colour, Piece};
use crate::position::Position;
use crate::seat::Seat;
use std::fmt;

/// Milliseconds since the Unix epoch, as the caller's clock reads them.
pub type Millis = u64;

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// One seat.
    Seat(Seat),
    /// A team of partners, by its seats.
    Team(Seat, Seat),
}

impl fmt::Display for Winner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Winner::Seat(s) => write!(f, "{s}"),
            Winner::Team(a, b) => write!(f, "{a}+{b}"),
        }
    }
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Winner>,
    /// Points per seat, in seat order (all zero in games without scores).
    pub scores: Vec<(Seat, u32)>,
    /// Hidden choices revealed at the end (Algol's secret men), so anyone can check them
    /// against the commitments published at the start.
    pub reveals: Vec<Reveal>,
}

/// A secret revealed at the end of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reveal {
    /// Whose secret.
    pub seat: Seat,
    /// The secret man.
    pub piece: Piece,
    /// The salt, in hex, that was hashed with the piece's number.
    pub salt: String,
    /// The commitment published when it was chosen: SHA-256 of `"{number}:{salt}"`, in hex.
    pub commitment: String,
}

/// One state change, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A rotor turned; `position` is the board after it.
    Click {
        seat: Seat,
        click: Click,
        position: Position,
    },
    /// A piece was placed (or moved from `from` when the supply is empty).
    Place {
        seat: Seat,
        slot: Slot,
        piece: Piece,
        from: Option<Slot>,
        position: Position,
    },
    /// The slots the mover may now build on.
    Eligible { slots: SlotSet },
    /// The die was thrown.
    Roll { seat: Seat, value: u8 },
    /// A turn begins (or, after a die or three, its clicks are known).
    Turn {
        seat: Seat,
        /// Clicks allowed, `None` while the mover still chooses die or three, `Some(0)` for a
        /// placement turn.
        clicks: Option<u8>,
        round: u32,
    },
    /// A chain of `colour` exists; `claim_until` is when its claim window closes, `None`
    /// when it was awarded at once.
    Chain {
        colour: Colour,
        claim_until: Option<Millis>,
    },
    /// A claim was made.
    Claim { seat: Seat, ok: bool },
    /// The mover captured pieces.
    Capture {
        seat: Seat,
        slots: SlotSet,
        points: u32,
        position: Position,
    },
    /// The game ended.
    Over { outcome: Outcome },
    /// Algol: a seat chose its secret man; only the commitment is public.
    Secret { seat: Seat, commitment: String },
    /// Algol: `seat` challenged `piece`; `hit` if it was the secret man. `removed` is the
    /// challenger's piece taken off after a wrong challenge, or every slot of the found-out
    /// player's men after a right one.
    Challenge {
        seat: Seat,
        piece: Piece,
        hit: bool,
        removed: SlotSet,
        position: Position,
    },
    /// Aquarius: one try of the telepathy test. `chain` is the chain it was made against,
    /// shown only now the try is made (the next one stays hidden); `tries` and `hits` count
    /// the test so far.
    Try {
        seat: Seat,
        click: Click,
        hit: bool,
        chain: SlotSet,
        tries: u8,
        hits: u8,
    },
}
