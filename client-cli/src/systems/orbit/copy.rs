//! The client's copy of an Orbit game (ORBIT.md), fed the room's `move` events: the board,
//! whose colour drops, the opening phase, the cells prohibited for the colour to drop and the
//! territory all come from the `orion-orbit` engine, never from guesses about the wire.

use orion_orbit::{
    parse_position, position_string, Board, ByStone, CellSet, Game, Move, Stone, Turn,
};
use orion_protocol::{RoomView, Seat as WireSeat};

/// An Orbit game as the room's events tell it.
#[derive(Clone, Debug)]
pub struct OrbitCopy {
    /// The engine's game.
    pub game: Game,
    /// The colour `S` plays, once `N` has chosen.
    pub s_colour: Option<Stone>,
    /// The last drop, to highlight.
    pub last_drop: Option<orion_orbit::Cell>,
}

impl OrbitCopy {
    /// The game a view describes: after the opening, its board with the colour of the seat to
    /// move; in the opening, its stones dropped again in the opening's order (two black, then
    /// white: three stones cannot capture).
    pub fn from_view(view: &RoomView) -> OrbitCopy {
        let board = parse_position(&view.position).unwrap_or_default();
        let s_colour = colour_letter(view.colour_of(WireSeat::S))
            .or_else(|| colour_letter(view.colour_of(WireSeat::N)).map(Stone::other));
        let game = match s_colour {
            Some(s) => {
                let to_move = if view.turn.seat == WireSeat::S {
                    s
                } else {
                    s.other()
                };
                Game::from_board(board, to_move).unwrap_or_default()
            }
            None => opening(&board).unwrap_or_else(|| {
                // More stones than an opening drops, and nobody has said the colours: a
                // board to show, black to move.
                Game::from_board(board, Stone::Black).unwrap_or_default()
            }),
        };
        OrbitCopy {
            game,
            s_colour,
            last_drop: None,
        }
    }

    /// Follows one `move` event of `seat`; `false` when the copy could not (the event's
    /// position differs from the engine's, or the move is refused): the caller rebuilds it.
    pub fn follow(&mut self, seat: WireSeat, text: &str, position: &str) -> bool {
        let Ok(mv) = text.parse::<Move>() else {
            return false;
        };
        if let Move::Choose(c) = mv {
            // `N` plays the colour it chose; `S` the other.
            self.s_colour = Some(if seat == WireSeat::N { c.other() } else { c });
        }
        self.last_drop = match mv {
            Move::Drop(cell) => Some(cell),
            _ => self.last_drop,
        };
        if self.game.play(mv).is_err() {
            return false;
        }
        position_string(self.game.board()) == position
    }

    /// The board.
    pub fn board(&self) -> &Board {
        self.game.board()
    }

    /// The colour `seat` plays, once chosen.
    pub fn colour_of(&self, seat: WireSeat) -> Option<Stone> {
        let s = self.s_colour?;
        match seat {
            WireSeat::S => Some(s),
            WireSeat::N => Some(s.other()),
            _ => None,
        }
    }

    /// The colour to drop now, if a drop is due.
    pub fn to_drop(&self) -> Option<Stone> {
        match self.game.turn() {
            Turn::Opening { colour, .. } | Turn::Play(colour) => Some(colour),
            Turn::Choice | Turn::Over => None,
        }
    }

    /// Empty cells the colour to drop may not drop on.
    pub fn prohibited(&self) -> CellSet {
        match self.to_drop() {
            Some(c) => self.game.prohibited(c) & self.game.board().vacant(),
            None => CellSet::EMPTY,
        }
    }

    /// Each colour's territory now.
    pub fn territory(&self) -> ByStone<u32> {
        self.game.territory()
    }

    /// What the turn is, in words: the opening drop, the choice, or a colour to drop.
    pub fn phase(&self) -> String {
        match self.game.turn() {
            Turn::Opening { drop, colour } => {
                format!("opening: S drops stone {drop} of 3 ({colour})")
            }
            Turn::Choice => "N chooses a colour: black or white".to_string(),
            Turn::Play(colour) => format!("{colour} to drop (a cell) or pass"),
            Turn::Over => "over".to_string(),
        }
    }
}

/// `B` or `W` as a stone.
fn colour_letter(letter: Option<&str>) -> Option<Stone> {
    letter.and_then(Stone::parse)
}

/// The opening game that leads to `board`, if it has at most the opening's three stones.
fn opening(board: &Board) -> Option<Game> {
    let blacks = board.of(Stone::Black);
    let whites = board.of(Stone::White);
    if blacks.len() > 2 || whites.len() > 1 || (!whites.is_empty() && blacks.len() < 2) {
        return None;
    }
    let mut game = Game::new();
    for cell in blacks.iter().chain(whites.iter()) {
        game.play(Move::Drop(cell)).ok()?;
    }
    Some(game)
}
