//! A completed move as the game remembers it: for the no-reversal rule, and for clients to
//! show (and bots to read) what the previous player did.

use crate::board::Click;
use crate::position::Position;
use crate::rules::LastMove;
use crate::seat::Seat;

/// The most clicks one move can hold: Lepus's two plus five hops of two.
pub const MAX_MOVE_CLICKS: usize = 12;

/// A completed move: who made it, from which position to which, and its clicks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreviousMove {
    /// The seat that moved.
    pub seat: Seat,
    /// The round it was made in (1-based).
    pub round: u32,
    /// The board when the move began (after any captures at the turn's start).
    pub before: Position,
    /// The board when the move ended (captures it made included; captures at the start of the
    /// next turn not).
    pub after: Position,
    /// Whether it entered a new piece (a placement or building).
    pub entered: bool,
    /// The clicks, in order; only the first `len` are made.
    clicks: [Click; MAX_MOVE_CLICKS],
    /// How many clicks the move made (none for a pass, a placement, or a move the turn clock
    /// undid).
    len: u8,
}

impl PreviousMove {
    /// A move with no clicks yet; [`PreviousMove::push_click`] records them.
    pub(crate) fn new(
        seat: Seat,
        round: u32,
        before: Position,
        after: Position,
        entered: bool,
    ) -> PreviousMove {
        PreviousMove {
            seat,
            round,
            before,
            after,
            entered,
            clicks: [Click::ALL[0]; MAX_MOVE_CLICKS],
            len: 0,
        }
    }

    /// Records the move's next click (beyond [`MAX_MOVE_CLICKS`], none is kept).
    pub(crate) fn push_click(&mut self, click: Click) {
        if let Some(slot) = self.clicks.get_mut(self.len as usize) {
            *slot = click;
            self.len += 1;
        }
    }

    /// The clicks of the move, in order (empty for a pass or a placement).
    pub fn clicks(&self) -> &[Click] {
        &self.clicks[..self.len as usize]
    }

    /// Whether the move changed the board (a pass cannot be reversed).
    pub fn changed(&self) -> bool {
        self.before != self.after
    }

    /// The move as the no-reversal rule sees it.
    pub fn as_last_move(&self) -> LastMove {
        LastMove {
            before: self.before,
            changed: self.changed(),
            entered: self.entered,
        }
    }
}
