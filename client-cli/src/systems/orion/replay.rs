//! An ORION record played again: the game set up from the record's seed and options, each
//! action in booklet notation stepped through the engine, the whole result (scores, Algol's
//! revealed men) the engine's. A puzzle's `undo` steps back to the game before its last
//! click that stands.

use super::room::engine_options;
use crate::systems::{End, Replay};
use orion_engine::{games, position_string, Action, Game, Seat};
use orion_protocol::{GameRecord, GameResult, RoomOptions};

/// An ORION game being replayed.
pub struct OrionReplay(Box<Game>, Vec<Game>);

impl OrionReplay {
    /// The game the record was played with: its rules, options and seed.
    pub fn new(record: &GameRecord, options: &RoomOptions) -> Result<OrionReplay, String> {
        let id = record.game.as_str();
        let rules = games::find_any(id).ok_or_else(|| format!("unknown game `{id}`"))?;
        let game = Game::new(rules, engine_options(options), record.seed())
            .map_err(|e| format!("options: {e}"))?;
        Ok(OrionReplay(Box::new(game), Vec::new()))
    }
}

impl Replay for OrionReplay {
    fn position(&self) -> String {
        position_string(self.0.position())
    }

    fn apply(&mut self, seat: &str, action: &str) -> Result<bool, String> {
        let seat = Seat::parse(seat).ok_or_else(|| format!("no seat {seat}"))?;
        if action == "undo" && self.0.is_puzzle() {
            let before = self.1.pop().ok_or("undo with no click to take back")?;
            *self.0 = before;
            return Ok(false);
        }
        if self.0.is_puzzle() {
            self.1.push((*self.0).clone());
        }
        let action = Action::parse(action).map_err(|e| e.to_string())?;
        // Claims were accepted inside their window when played; the replay's clock stands
        // still, so each claim is inside it again.
        self.0
            .step(seat, action, 0)
            .map(|_| false)
            .map_err(|e| format!("refused: {e}"))
    }

    fn end(&self) -> End {
        self.result()
            .map_or(End::On, |r| End::Rules(r.winner.map(|w| w.to_string())))
    }

    fn result(&self) -> Option<GameResult> {
        self.0.outcome().map(orion_protocol::engine::result)
    }
}
