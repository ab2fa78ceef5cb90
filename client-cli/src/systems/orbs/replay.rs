//! An Orbs record played again through the `orion-orbs` engine from the record's start (void
//! orbs and the opening are on it already), as the terminal client's copy of an Orbs room
//! starts: moves, passes, a clock's timeout, draw offers and acceptances.

use super::copy::seat as orbs_seat;
use crate::systems::{End, Replay};
use orion_orbs::{Game, HoleSet, Move, Opening, Options, Outcome, Position, Winner};
use orion_protocol::{GameRecord, RoomOptions, Seat as WireSeat};
use serde_json::Value;

/// An Orbs game being replayed.
pub struct OrbsReplay(Game);

impl OrbsReplay {
    /// The game the record starts: its start position, holes out of play, players, teams,
    /// and the first turn's seat.
    pub fn new(record: &GameRecord, options: &RoomOptions) -> Result<OrbsReplay, String> {
        let start = record.start.as_deref().unwrap_or_default();
        let position: Position = start.parse().map_err(|e| format!("start: {e}"))?;
        let mut holes = HoleSet::EMPTY;
        if let Some(Value::Array(list)) = options.extra.get("holes") {
            for h in list.iter().filter_map(Value::as_str) {
                holes.insert(h.parse().map_err(|e| format!("holes: {e}"))?);
            }
        }
        let first = (record.turns.first())
            .and_then(|t| WireSeat::parse(&t.seat))
            .and_then(orbs_seat);
        let game = Game::new(Options {
            players: options.players.flatten().unwrap_or(2),
            opening: Opening::Position(Box::new(position)),
            void: false,
            holes,
            teams: options.extra.get("teams") == Some(&Value::Bool(true)),
            first,
        })
        .map_err(|e| format!("options: {e}"))?;
        Ok(OrbsReplay(game))
    }
}

impl Replay for OrbsReplay {
    fn position(&self) -> String {
        self.0.position().to_string()
    }

    fn apply(&mut self, seat: &str, action: &str) -> Result<bool, String> {
        let game = &mut self.0;
        let seat = WireSeat::parse(seat)
            .and_then(orbs_seat)
            .ok_or_else(|| format!("no seat {seat}"))?;
        let refused = |e: &dyn std::fmt::Display| format!("refused: {e}");
        match action {
            "draw" => game.offer_draw(seat).map(|_| ()).map_err(|e| refused(&e)),
            "draw accept" => game.accept_draw(seat).map(|_| ()).map_err(|e| refused(&e)),
            _ if game.mover() != Some(seat) => Err(format!("it is not {seat}'s turn")),
            "timeout" | "pass" => game.pass().map(|_| ()).map_err(|e| refused(&e)),
            text => {
                let mv: Move = text.parse().map_err(|e| format!("{e}"))?;
                game.play(mv).map(|_| ()).map_err(|e| refused(&e))
            }
        }
        .map(|()| false)
    }

    fn end(&self) -> End {
        self.0.outcome().map_or(End::On, |o| {
            End::Rules(match o {
                Outcome::Win(Winner::Seat(s)) => Some(s.to_string()),
                Outcome::Win(Winner::Team(a, b)) => Some(format!("{a}+{b}")),
                Outcome::Draw(_) => None,
            })
        })
    }
}
