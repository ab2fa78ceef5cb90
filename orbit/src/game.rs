//! A game of Orbit from the empty board to the score (ORBIT.md "Play"): the pie-rule opening,
//! turns of drops and passes, captures, prohibition, the two-pass end and the 1,000-drop end.
//! `Game::play` checks a move and applies it, or leaves the game untouched and says why not.

use crate::board::Board;
use crate::cell::Cell;
use crate::cellset::CellSet;
use crate::moves::{Move, Moves};
use crate::stone::{ByStone, Seat, Stone};
use crate::structure::{groups, Structure};
use std::fmt;
use thiserror::Error;

/// Drops after which the game ends and is scored, the opening's three included.
pub const MAX_DROPS: u32 = 1000;

/// Stones `S` drops in the opening.
pub const OPENING_DROPS: u8 = 3;

/// Whose move it is and what kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Turn {
    /// The opening: `S` drops opening stone `drop` (1..=3) of `colour`. Drops 1 and 2 are
    /// black, drop 3 white, so the order of the pie is fixed and needs no colour in the move.
    Opening {
        /// 1, 2 or 3.
        drop: u8,
        /// Black for drops 1 and 2, white for drop 3.
        colour: Stone,
    },
    /// `N` chooses black or white.
    Choice,
    /// The holder of this colour drops or passes.
    Play(Stone),
    /// The game is over; see [`Game::outcome`].
    Over,
}

/// Why the game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum End {
    /// Two passes in a row.
    Passes,
    /// The 1,000th drop.
    DropLimit,
}

/// The score of a finished game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// Each colour's territory as the board stood at the end.
    pub territory: ByStone<u32>,
    /// The colour with more territory; `None` for a draw.
    pub winner: Option<Stone>,
    /// How the game ended.
    pub end: End,
}

impl Outcome {
    /// The score of `board` at an end of kind `end`.
    pub fn score(board: &Board, end: End) -> Outcome {
        let territory = board.territory();
        let winner = match territory.black.cmp(&territory.white) {
            std::cmp::Ordering::Greater => Some(Stone::Black),
            std::cmp::Ordering::Less => Some(Stone::White),
            std::cmp::Ordering::Equal => None,
        };
        Outcome {
            territory,
            winner,
            end,
        }
    }
}

/// What one move did.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Effect {
    /// The move.
    pub mv: Move,
    /// The colour of the dropped stone or of the passing player; for a choice, the colour
    /// `N` chose.
    pub colour: Stone,
    /// The enemy stones the drop captured.
    pub removed: CellSet,
    /// The score, if the move ended the game.
    pub outcome: Option<Outcome>,
}

/// The kind of structure that makes a cell prohibited.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum StructureKind {
    /// An orbit: a group closed all round.
    Orbit,
    /// A half-orbit: a group closed with one side of the board.
    HalfOrbit,
}

impl fmt::Display for StructureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StructureKind::Orbit => "orbit",
            StructureKind::HalfOrbit => "half-orbit",
        })
    }
}

/// Why a move was refused.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Error)]
pub enum OrbitError {
    /// Nothing can be played after the end.
    #[error("the game is over")]
    Over,
    /// A drop on a stone.
    #[error("{cell} already holds a {stone} stone")]
    Occupied {
        /// The cell.
        cell: Cell,
        /// The stone on it.
        stone: Stone,
    },
    /// A drop inside the other colour's structure.
    #[error("{cell} is prohibited for {colour}: it lies in {}'s {kind}", colour.other())]
    Prohibited {
        /// The cell.
        cell: Cell,
        /// The colour that may not drop there.
        colour: Stone,
        /// What of the other colour's it lies in (an orbit wins over a half-orbit).
        kind: StructureKind,
    },
    /// A pass during the opening.
    #[error("no passing in the opening: drop opening stone {drop} ({colour})")]
    OpeningPass {
        /// The opening drop due, 1..=3.
        drop: u8,
        /// Its colour.
        colour: Stone,
    },
    /// A choice of colour when there is none to make.
    #[error("there is no colour to choose now: the colours were chosen after the opening")]
    NoChoiceNow,
    /// Anything but a choice when `N` must choose.
    #[error("N must now choose a colour: black or white")]
    MustChoose,
}

/// Why a board cannot be the position of a game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Error)]
pub enum SetupError {
    /// Orbits capture every enemy stone inside them as they close, and no stone may be
    /// dropped inside an enemy orbit: such a stone cannot be there.
    #[error("{cell} holds a {stone} stone inside a {} orbit: that cannot happen in a game", stone.other())]
    InsideOrbit {
        /// The cell.
        cell: Cell,
        /// The stone's colour.
        stone: Stone,
    },
}

/// A game of Orbit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The stones.
    board: Board,
    /// Whose move and what kind.
    turn: Turn,
    /// Which seat holds each colour: known once `N` has chosen; `None` for a game set up from
    /// a position, where only colours move.
    holders: Option<ByStone<Seat>>,
    /// Drops so far (opening included), for the 1,000-drop end.
    drops: u32,
    /// Passes in a row just before now; two end the game.
    passes: u8,
    /// The last move and what it did.
    last: Option<Effect>,
    /// The score, once over.
    outcome: Option<Outcome>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A new game: the empty board, `S` to make the first opening drop.
    pub fn new() -> Game {
        Game {
            board: Board::empty(),
            turn: Turn::Opening {
                drop: 1,
                colour: Stone::Black,
            },
            holders: None,
            drops: 0,
            passes: 0,
            last: None,
            outcome: None,
        }
    }

    /// A game after the opening, with these stones and `to_move` to play; which seat holds
    /// which colour is unknown and the drop count starts at zero. Any board whose stones could
    /// have come from play is accepted.
    pub fn from_board(board: Board, to_move: Stone) -> Result<Game, SetupError> {
        for stone in Stone::ALL {
            let enemy_orbits = board.structures(stone.other()).orbits;
            if let Some(cell) = (board.of(stone) & enemy_orbits).first() {
                return Err(SetupError::InsideOrbit { cell, stone });
            }
        }
        Ok(Game {
            turn: Turn::Play(to_move),
            board,
            ..Game::new()
        })
    }

    /// The same game with `drops` drops already made, for the 1,000-drop end (a game
    /// restored from a record, or a test near the limit).
    pub fn with_drops(mut self, drops: u32) -> Game {
        self.drops = drops;
        self
    }

    /// The stones on the board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whose move it is and what kind.
    pub fn turn(&self) -> Turn {
        self.turn
    }

    /// The seat to move, if the game is on and the seat is known.
    pub fn seat_to_move(&self) -> Option<Seat> {
        match self.turn {
            Turn::Opening { .. } => Some(Seat::S),
            Turn::Choice => Some(Seat::N),
            Turn::Play(colour) => self.holders.map(|h| h[colour]),
            Turn::Over => None,
        }
    }

    /// The seat holding `colour`, once chosen.
    pub fn holder(&self, colour: Stone) -> Option<Seat> {
        self.holders.map(|h| h[colour])
    }

    /// Drops so far, the opening's included.
    pub fn drops(&self) -> u32 {
        self.drops
    }

    /// Passes in a row just before now.
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The last move and what it did.
    pub fn last_move(&self) -> Option<&Effect> {
        self.last.as_ref()
    }

    /// The score, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The cells prohibited for `colour` now (occupied ones included).
    pub fn prohibited(&self, colour: Stone) -> CellSet {
        self.board.prohibited(colour)
    }

    /// Each colour's territory now.
    pub fn territory(&self) -> ByStone<u32> {
        self.board.territory()
    }

    /// The legal moves now.
    pub fn legal_moves(&self) -> Moves {
        let drops_for = |c: Stone| self.board.vacant() - self.board.prohibited(c);
        match self.turn {
            Turn::Opening { colour, .. } => Moves {
                drops: drops_for(colour),
                ..Moves::default()
            },
            Turn::Choice => Moves {
                choose: true,
                ..Moves::default()
            },
            Turn::Play(colour) => Moves {
                drops: drops_for(colour),
                pass: true,
                choose: false,
            },
            Turn::Over => Moves::default(),
        }
    }

    /// Plays `mv` for whoever is to move. On an error the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Effect, OrbitError> {
        let effect = match (self.turn, mv) {
            (Turn::Over, _) => return Err(OrbitError::Over),
            (Turn::Choice, Move::Choose(colour)) => {
                self.holders = Some(ByStone::new_with(|c| {
                    if c == colour {
                        Seat::N
                    } else {
                        Seat::S
                    }
                }));
                self.turn = Turn::Play(Stone::White);
                Effect {
                    mv,
                    colour,
                    removed: CellSet::EMPTY,
                    outcome: None,
                }
            }
            (Turn::Choice, _) => return Err(OrbitError::MustChoose),
            (_, Move::Choose(_)) => return Err(OrbitError::NoChoiceNow),
            (Turn::Opening { drop, colour }, Move::Pass) => {
                return Err(OrbitError::OpeningPass { drop, colour })
            }
            (Turn::Play(colour), Move::Pass) => {
                self.passes += 1;
                self.turn = Turn::Play(colour.other());
                let outcome = (self.passes >= 2).then(|| self.finish(End::Passes));
                Effect {
                    mv,
                    colour,
                    removed: CellSet::EMPTY,
                    outcome,
                }
            }
            (Turn::Opening { colour, .. } | Turn::Play(colour), Move::Drop(cell)) => {
                let removed = self.drop_stone(colour, cell)?;
                self.drops += 1;
                self.passes = 0;
                self.turn = match self.turn {
                    Turn::Opening { drop, .. } if drop < OPENING_DROPS => Turn::Opening {
                        drop: drop + 1,
                        colour: if drop + 1 < OPENING_DROPS {
                            Stone::Black
                        } else {
                            Stone::White
                        },
                    },
                    Turn::Opening { .. } => Turn::Choice,
                    _ => Turn::Play(colour.other()),
                };
                let outcome = (self.drops >= MAX_DROPS).then(|| self.finish(End::DropLimit));
                Effect {
                    mv,
                    colour,
                    removed,
                    outcome,
                }
            }
        };
        self.last = Some(effect);
        Ok(effect)
    }

    /// Checks and makes a drop; returns the captured cells.
    fn drop_stone(&mut self, colour: Stone, cell: Cell) -> Result<CellSet, OrbitError> {
        if let Some(stone) = self.board.get(cell) {
            return Err(OrbitError::Occupied { cell, stone });
        }
        let theirs = self.board.structures(colour.other());
        let kind = if theirs.orbits.contains(cell) {
            Some(StructureKind::Orbit)
        } else if theirs.halves.contains(cell) {
            Some(StructureKind::HalfOrbit)
        } else {
            None
        };
        if let Some(kind) = kind {
            return Err(OrbitError::Prohibited { cell, colour, kind });
        }
        self.board.put(cell, colour);
        let removed = captures(&self.board, colour);
        self.board.clear_all(removed);
        Ok(removed)
    }

    /// Ends the game and scores it.
    fn finish(&mut self, end: End) -> Outcome {
        let outcome = Outcome::score(&self.board, end);
        self.turn = Turn::Over;
        self.outcome = Some(outcome);
        outcome
    }
}

/// The enemy stones lying in the region of any orbit of `mover` on `board`.
pub fn captures(board: &Board, mover: Stone) -> CellSet {
    let enemy = board.of(mover.other());
    if enemy.is_empty() {
        return CellSet::EMPTY;
    }
    let mut inside = CellSet::EMPTY;
    for group in groups(board.of(mover)) {
        inside |= Structure::orbit_of(group);
    }
    inside & enemy
}
