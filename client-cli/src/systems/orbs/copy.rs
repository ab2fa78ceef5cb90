//! The client's copy of an Orbs game (ORBS.md), fed the room's `move` events: the orbs, who
//! moves, who is out and what is legal come from the `orion-orbs` engine. A copy set up from
//! a position (a snapshot, a `start`) starts its quiet-moves count afresh; the server's
//! `over` says when that draw comes.

use orion_orbs::{Colour, Game, Hole, HoleSet, Move, Opening, Options, Position, Seat};
use orion_protocol::{RoomView, Seat as WireSeat};
use serde_json::Value;

/// An Orbs game as the room's events tell it.
#[derive(Clone, Debug)]
pub struct OrbsCopy {
    /// The engine's game; `None` before there are orbs on the board (a room still waiting).
    pub game: Option<Game>,
    /// Players.
    pub players: u8,
    /// Opposite seats are partners.
    pub teams: bool,
    /// Holes out of play.
    pub holes: HoleSet,
    /// The position as last shown (also without a game).
    pub position: Position,
    /// The last move, to highlight.
    pub last: Option<Move>,
}

/// The Orbs seat of a wire seat.
pub fn seat(seat: WireSeat) -> Option<Seat> {
    Seat::parse(seat.as_str())
}

/// The wire seat of an Orbs seat.
pub fn wire(seat: Seat) -> WireSeat {
    WireSeat::parse(seat.name()).unwrap_or(WireSeat::S)
}

impl OrbsCopy {
    /// The game a view describes: its orbs, its options (players, teams, holes out of play;
    /// void orbs are on the board already) and the seat to move.
    pub fn from_view(view: &RoomView) -> OrbsCopy {
        let players = view
            .options
            .players
            .flatten()
            .unwrap_or(view.seats.len() as u8)
            .clamp(2, 6);
        let teams = view.options.extra.get("teams") == Some(&Value::Bool(true));
        let mut holes = HoleSet::EMPTY;
        if let Some(Value::Array(list)) = view.options.extra.get("holes") {
            for h in list.iter().filter_map(Value::as_str) {
                if let Ok(hole) = h.parse::<Hole>() {
                    holes.insert(hole);
                }
            }
        }
        let position: Position = view.position.parse().unwrap_or_default();
        let game = Game::new(Options {
            players,
            opening: Opening::Position(Box::new(position.clone())),
            void: false,
            holes,
            teams,
            first: seat(view.turn.seat),
        })
        .ok();
        OrbsCopy {
            game,
            players,
            teams,
            holes,
            position,
            last: None,
        }
    }

    /// Follows one `move` event of `seat`; `false` when the copy could not: the caller
    /// rebuilds it. A `pass` of the seat to move is a turn given up (its clock ran out); of
    /// another seat, one the engine has passed over already (it could not move).
    pub fn follow(&mut self, who: WireSeat, text: &str, position: &str) -> bool {
        if let Ok(p) = position.parse() {
            self.position = p;
        }
        let Some(game) = self.game.as_mut() else {
            return false;
        };
        let mover = game.mover();
        if text == "pass" {
            if mover == seat(who) && game.pass().is_err() {
                return false;
            }
        } else {
            let Ok(mv) = text.parse::<Move>() else {
                return false;
            };
            self.last = Some(mv);
            if mover != seat(who) || game.play(mv).is_err() {
                return false;
            }
        }
        game.position().to_string() == position
    }

    /// The seats in turn order.
    pub fn seats(&self) -> &'static [Seat] {
        Seat::for_players(self.players).unwrap_or(&[Seat::S, Seat::N])
    }

    /// The colour `seat` plays.
    pub fn colour_of(&self, who: WireSeat) -> Option<Colour> {
        let s = seat(who)?;
        self.seats()
            .iter()
            .position(|&x| x == s)
            .map(Colour::of_turn)
    }

    /// Orbs `seat` has on the board.
    pub fn orbs_of(&self, who: WireSeat) -> usize {
        self.colour_of(who).map_or(0, |c| self.position.count(c))
    }

    /// Whether `seat` has lost its last orb (once there are orbs on the board).
    pub fn is_out(&self, who: WireSeat) -> bool {
        !self.position.is_empty() && self.orbs_of(who) == 0
    }
}
