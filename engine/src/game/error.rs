//! Why a game could not be set up or an action was refused, in words a player can read.

use super::options::{MAX_CLICKS, MAX_DIE_FACES};
use crate::board::Slot;
use crate::rules::RuleError;
use crate::seat::Seat;
use thiserror::Error;

/// Why an action was refused. Nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ActionError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// Another seat is moving.
    #[error("it is {0}'s turn")]
    NotYourTurn(Seat),
    /// A seat that is not in this game.
    #[error("seat {0} does not play in this game")]
    NoSuchSeat(Seat),
    /// A basic or game rule.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// The action does not fit this moment of the turn.
    #[error("{0}")]
    Phase(&'static str),
    /// A placement on a slot that may not take it.
    #[error("{slot} {why}")]
    BadPlace { slot: Slot, why: &'static str },
    /// A claim with nothing to claim.
    #[error("no chain of yours is open to claim")]
    NothingToClaim,
    /// A throw fed in ([`crate::Game::step_roll`]) that the room's die cannot show.
    #[error("the die has no face {0}")]
    NoSuchFace(u8),
}

impl ActionError {
    /// The protocol error code for this refusal.
    pub fn code(&self) -> &'static str {
        match self {
            ActionError::NotYourTurn(_) => "not_your_turn",
            ActionError::NoSuchSeat(_) => "not_a_player",
            _ => "illegal",
        }
    }
}

/// Why a game could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    /// A player count the game does not allow.
    #[error("{game} is played by {min} to {max} players, not {players}")]
    Players {
        game: &'static str,
        min: u8,
        max: u8,
        players: u8,
    },
    /// A clicks option out of range.
    #[error("clicks must be 1 to {MAX_CLICKS}, not {0}")]
    Clicks(u8),
    /// A die with a face out of range.
    #[error("a die has 1 to {MAX_DIE_FACES} faces, each 1 to {MAX_CLICKS}")]
    Die,
    /// A mover who does not play in this game.
    #[error("seat {0} does not play in this game")]
    NoSuchSeat(Seat),
}
