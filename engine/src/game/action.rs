//! What a seat asks the game to do: the actions of a turn (clicks, placements, the die,
//! ending it), a claim, and the actions of one game (Algol's secret and challenge).

use crate::board::{Click, Slot};
use crate::piece::Piece;

/// What a seat asks to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Turn a rotor; optionally naming the piece being moved.
    Click { click: Click, piece: Option<Piece> },
    /// Place a new piece on `slot` (a placement turn, or building); `from` moves one of the
    /// mover's pieces instead, when all 20 are on the board.
    Place { slot: Slot, from: Option<Slot> },
    /// End the move now.
    EndTurn,
    /// Throw the die for the number of clicks.
    Roll,
    /// Take three clicks instead of the die.
    Three,
    /// Claim a chain made by another player's click.
    Claim,
    /// The mover's turn clock ran out (sent by the server, not a player).
    Timeout,
    /// Algol: choose one's secret man (before the first move; hidden until the end).
    Secret { piece: Piece },
    /// Algol: challenge an opponent's piece that one of the mover's pieces is in line with.
    Challenge { piece: Piece },
}
