//! The rules of ORION (Parker Brothers, 1971), exact: the board and its clicks, the five basic
//! rules, live resolution of chains, claims, captures and building, and every game.
//! No I/O and no async: a server, a test, a bot or a solver drives the same code.

mod board;
mod chain;
mod fence;
mod game;
pub mod games;
mod movegen;
mod notation;
mod piece;
mod position;
pub mod puzzles;
mod rules;
mod seat;
mod secret;
pub mod solve;

pub use board::{
    Click, Direction, Edge, Rotor, RotorSet, Side, Slot, SlotIter, SlotSet, ROTORS, SLOTS,
};
pub use chain::{chain_pieces, has_chain};
pub use fence::{evaluate as evaluate_fences, regions, Capture, MAX_FENCED_ROTORS};
pub use game::{
    Action, ActionError, Allowance, ClaimWindow, Claimable, Event, Game, Mechanics, Millis,
    Options, Outcome, PlaceRule, PreviousMove, PuzzleProgress, Reveal, Rules, SetupError, Winner,
    MAX_CLICKS, MAX_DIE_FACES, MAX_MOVE_CLICKS,
};
pub use movegen::{move_count, moves, perft};
pub use notation::{
    format_moves, parse_click, parse_moves, parse_piece, parse_position, parse_rotor, parse_slot,
    position_string, NotationError,
};
pub use piece::{ByColour, Colour, Piece, PIECES_PER_COLOUR};
pub use position::Position;
pub use rules::{reverses, standard_start, Die, LastMove, MoveState, RuleError};
pub use seat::{Seat, SeatInfo};
pub use secret::{commitment, seed_commitment};
