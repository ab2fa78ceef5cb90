//! An Orbit record played again through the `orion-orbit` engine from the empty board. A
//! turn clock that ran out is a pass after the opening; in the opening (no pass there) the
//! seat out of time lost, and the room ended the game.

use crate::systems::{End, Replay};
use orion_orbit::{Game, Move, Turn};

/// An Orbit game being replayed.
pub struct OrbitReplay(pub Game);

impl Replay for OrbitReplay {
    fn position(&self) -> String {
        orion_orbit::position_string(self.0.board())
    }

    fn apply(&mut self, seat: &str, action: &str) -> Result<bool, String> {
        let game = &mut self.0;
        let mover = game.seat_to_move().map(|s| s.to_string());
        if mover.as_deref() != Some(seat) {
            return Err(format!("it is not {seat}'s turn"));
        }
        let mv = match (action, game.turn()) {
            ("timeout", Turn::Play(_)) => Move::Pass,
            // No pass in the opening: the seat out of time lost.
            ("timeout", _) => return Ok(true),
            (text, _) => text.parse().map_err(|e| format!("{e}"))?,
        };
        game.play(mv)
            .map(|_| false)
            .map_err(|e| format!("refused: {e}"))
    }

    fn end(&self) -> End {
        let g = &self.0;
        g.outcome().map_or(End::On, |o| {
            End::Rules(o.winner.and_then(|c| g.holder(c)).map(|s| s.to_string()))
        })
    }
}
