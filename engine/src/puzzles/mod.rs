//! The booklet's puzzles (pages 24–31) as data: a start, a finish, which rotors may turn and
//! any per-click constraint, the booklet's target and printed solution. A [`PuzzleState`]
//! plays one click at a time (a one-player room drives it); [`Puzzle::replay`] checks a line.

mod aquarius;
mod aquila;
mod aurora;
mod binary_star;
mod herdsman;
mod orbit;
mod whirlpool;

pub use aquarius::{
    breaks, chain_rotors, is_valid_chain, random_chain, rotor_odds, score_try, valid_chains,
    AquariusTest, Try, CHAIN_ROTORS, TELEPATHY, TRIES,
};
pub use orbit::{orbit_a_wrong_orders, ORBIT_A_ROTORS, ORBIT_B_ROTORS};

use crate::board::{Click, Rotor, RotorSet, Slot, SlotSet};
use crate::notation::parse_slot;
use crate::piece::{Colour, Piece};
use crate::position::Position;
use rand::seq::SliceRandom;
use rand::RngCore;
use thiserror::Error;

/// Every puzzle name `orion puzzle` and `orion solve` accept, in booklet order.
pub const NAMES: [&str; 11] = [
    "aquila",
    "aurora-a",
    "aurora-b",
    "whirlpool",
    "herdsman",
    "binary-1",
    "binary-2",
    "binary-3",
    "binary-4",
    "orbit-a",
    "orbit-b",
];

/// The fewest clicks that solve each puzzle from its default start, as `orion solve` proves
/// them (docs/puzzles.md; the engine's tests check this table against
/// `tests/data/optimal.txt`, which the solvers' own tests check).
pub const OPTIMAL: [(&str, u32); 11] = [
    ("aquila", 24),
    ("aurora-a", 14),
    ("aurora-b", 12),
    ("whirlpool", 14),
    ("herdsman", 27),
    ("binary-1", 20),
    ("binary-2", 16),
    ("binary-3", 28),
    ("binary-4", 20),
    ("orbit-a", 11),
    ("orbit-b", 18),
];

/// The proven fewest clicks for `name` from its default start (see [`OPTIMAL`]).
pub fn optimum(name: &str) -> Option<u32> {
    OPTIMAL.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
}

/// The puzzle called `name` (see [`NAMES`]), with its default start.
pub fn find(name: &str) -> Option<Puzzle> {
    Some(match name.to_ascii_lowercase().as_str() {
        "aquila" => aquila::aquila(),
        "aurora-a" => aurora::aurora_a(),
        "aurora-b" => aurora::aurora_b(),
        "whirlpool" => whirlpool::whirlpool(),
        "herdsman" => herdsman::herdsman(),
        "binary-1" => binary_star::binary_star(1)?,
        "binary-2" => binary_star::binary_star(2)?,
        "binary-3" => binary_star::binary_star(3)?,
        "binary-4" => binary_star::binary_star(4)?,
        "orbit-a" => orbit::orbit_a(),
        "orbit-b" => orbit::orbit_b(),
        _ => return None,
    })
}

/// Every click puzzle, in booklet order.
pub fn all() -> Vec<Puzzle> {
    NAMES.iter().filter_map(|n| find(n)).collect()
}

/// What counts as solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The colours must lie in these slots; which numbered piece is where does not matter.
    Pattern(Position),
    /// Every numbered piece must be in its slot (Orbit Solitaire).
    Exact(Position),
}

impl Finish {
    /// The finish position itself.
    pub fn position(&self) -> &Position {
        match self {
            Finish::Pattern(p) | Finish::Exact(p) => p,
        }
    }

    /// Whether `position` meets this finish.
    pub fn reached(&self, position: &Position) -> bool {
        match self {
            Finish::Pattern(p) => Colour::ALL.iter().all(|&c| p.of(c) == position.of(c)),
            Finish::Exact(p) => p == position,
        }
    }
}

/// Aquila's constraint: after every click each piece of `holder` colour touches a piece of
/// `held` colour (both eagles hold the fish).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grip {
    /// The colour that holds (the eagles, red).
    pub holder: Colour,
    /// The colour held (the fish, blue).
    pub held: Colour,
}

impl Grip {
    /// Whether every holder touches a held piece in `position`.
    pub fn holds(&self, position: &Position) -> bool {
        let held = position.of(self.held);
        position
            .of(self.holder)
            .into_iter()
            .all(|s| s.touching().intersects(held))
    }
}

/// How a one-player room deals a puzzle's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deal {
    /// Always the puzzle's own start.
    Fixed,
    /// The finish with its last `n` pieces (in canonical slot order) put back in a random
    /// order other than their own: Orbit Solitaire A scrambles 5, 6, 7 (one of their five
    /// wrong orders), B all twelve.
    Scramble(usize),
}

/// One puzzle: its rules and the booklet's figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The name on the command line: `aquila`, `binary-3`.
    pub name: &'static str,
    /// The booklet's title.
    pub title: &'static str,
    /// The position the puzzle starts from.
    pub start: Position,
    /// What counts as solved.
    pub finish: Finish,
    /// The rotors that may ever turn.
    pub rotors: RotorSet,
    /// If set, a rotor may turn only while its orbit holds a piece of this colour (only the
    /// red pieces "can be moved directly").
    pub mover: Option<Colour>,
    /// If set, a constraint every position after a click must meet (Aquila).
    pub grip: Option<Grip>,
    /// The booklet's click count for its printed solution or challenge, if it gives one.
    pub target: Option<u32>,
    /// The booklet's printed solution (page 31), verbatim, if it prints one.
    pub booklet_solution: Option<&'static str>,
    /// How a room deals the start.
    pub deal: Deal,
}

/// Why a click is refused. Messages are for the player.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PuzzleError {
    /// A rotor outside the puzzle's rotors.
    #[error("rotor {0} may not turn in this puzzle")]
    Locked(Rotor),
    /// A rotor whose orbit holds no piece of the moving colour.
    #[error("rotor {rotor} holds no {colour} piece")]
    NoMover {
        /// The rotor clicked.
        rotor: Rotor,
        /// The colour it needed to hold.
        colour: Colour,
    },
    /// A click after which a holder no longer touches a held piece.
    #[error("after {click} a {holder} piece no longer touches the {held} piece: it lets go")]
    LetGo {
        /// The refused click.
        click: Click,
        /// The holding colour.
        holder: Colour,
        /// The held colour.
        held: Colour,
    },
}

/// A refused click within a replayed line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("click {click}: {reason}")]
pub struct ReplayError {
    /// Which click was refused, counting from 1.
    pub click: usize,
    /// Why.
    pub reason: PuzzleError,
    /// How many clicks were played before it.
    pub played: usize,
    /// Whether the position before the refused click met the finish.
    pub solved_before: bool,
}

/// Why a replacement start cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StartError {
    /// The pieces differ from the puzzle's own.
    #[error("the start must hold the same pieces as the puzzle's ({0})")]
    OtherPieces(String),
    /// A piece lies where the puzzle's rotors can never move it into place.
    #[error("{piece} on {slot} lies outside the puzzle's rotors")]
    OffThePuzzle {
        /// The piece.
        piece: Piece,
        /// Its slot.
        slot: Slot,
    },
    /// The start already breaks the puzzle's constraint.
    #[error("the start breaks the puzzle's rule: a {0} piece touches no {1} piece")]
    Constraint(Colour, Colour),
}

impl Puzzle {
    /// Whether `click` may be made in `position`, and the position after it.
    pub fn try_click(&self, position: &Position, click: Click) -> Result<Position, PuzzleError> {
        let rotor = click.rotor;
        if !self.rotors.contains(rotor) {
            return Err(PuzzleError::Locked(rotor));
        }
        if let Some(colour) = self.mover {
            if !position.of(colour).intersects(rotor.orbit_set()) {
                return Err(PuzzleError::NoMover { rotor, colour });
            }
        }
        let next = position.clicked(click);
        if let Some(grip) = self.grip {
            if !grip.holds(&next) {
                return Err(PuzzleError::LetGo {
                    click,
                    holder: grip.holder,
                    held: grip.held,
                });
            }
        }
        Ok(next)
    }

    /// Whether `position` meets the finish.
    pub fn solved(&self, position: &Position) -> bool {
        self.finish.reached(position)
    }

    /// Replays `clicks` from the start under the puzzle's rules: the position reached, or the
    /// first refused click.
    pub fn replay(&self, clicks: &[Click]) -> Result<Position, ReplayError> {
        let mut state = PuzzleState::new(self.clone());
        for (i, &c) in clicks.iter().enumerate() {
            if let Err(reason) = state.click(c) {
                return Err(ReplayError {
                    click: i + 1,
                    reason,
                    played: i,
                    solved_before: state.solved(),
                });
            }
        }
        Ok(state.position)
    }

    /// The same puzzle from another start holding the same pieces (`--position`).
    pub fn with_start(&self, start: Position) -> Result<Puzzle, StartError> {
        let same = match self.finish {
            Finish::Exact(_) => {
                let mut a: Vec<Piece> = self.start.pieces().map(|(_, p)| p).collect();
                let mut b: Vec<Piece> = start.pieces().map(|(_, p)| p).collect();
                a.sort();
                b.sort();
                a == b
            }
            Finish::Pattern(_) => Colour::ALL
                .iter()
                .all(|&c| self.start.count(c) == start.count(c)),
        };
        if !same {
            let mut pieces: Vec<Piece> = self.start.pieces().map(|(_, p)| p).collect();
            pieces.sort();
            let pieces: Vec<String> = pieces.iter().map(Piece::to_string).collect();
            return Err(StartError::OtherPieces(pieces.join(" ")));
        }
        if let Finish::Exact(_) = self.finish {
            let reach = self.rotors.orbit_slots();
            if let Some((slot, piece)) = start.pieces().find(|(s, _)| !reach.contains(*s)) {
                return Err(StartError::OffThePuzzle { piece, slot });
            }
        }
        if let Some(g) = self.grip {
            if !g.holds(&start) {
                return Err(StartError::Constraint(g.holder, g.held));
            }
        }
        Ok(Puzzle {
            start,
            ..self.clone()
        })
    }

    /// The start a one-player room plays from: the puzzle's own, or one drawn with `rng`
    /// (seeded by the room, so a replay deals it again) as [`Puzzle::deal`] says.
    pub fn dealt_start(&self, rng: &mut dyn RngCore) -> Position {
        let Deal::Scramble(n) = self.deal else {
            return self.start;
        };
        let home: Vec<(Slot, Piece)> = self.finish.position().pieces().collect();
        let keep = home.len().saturating_sub(n);
        let (fixed, moved) = home.split_at(keep);
        let mut pieces: Vec<Piece> = moved.iter().map(|&(_, p)| p).collect();
        if pieces.len() > 1 {
            // Uniform over the orders other than their own: draw until one is wrong.
            let own = pieces.clone();
            while pieces == own {
                pieces.shuffle(rng);
            }
        }
        let mut start = Position::empty();
        for &(slot, piece) in fixed {
            start.put(slot, piece);
        }
        for (&(slot, _), piece) in moved.iter().zip(pieces) {
            start.put(slot, piece);
        }
        start
    }

    /// The slots a piece can ever reach: the orbits of the puzzle's rotors, plus where the
    /// pieces start (a piece outside every turning orbit never moves).
    pub fn reachable_slots(&self) -> SlotSet {
        self.rotors.orbit_slots() | self.start.occupied()
    }
}

/// A puzzle being played: the position and the clicks made so far. A one-player room owns
/// one and feeds it clicks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleState {
    /// The puzzle's rules.
    puzzle: Puzzle,
    /// The position now.
    position: Position,
    /// Clicks accepted so far.
    clicks: u32,
}

impl PuzzleState {
    /// A fresh attempt at `puzzle`, at its start.
    pub fn new(puzzle: Puzzle) -> PuzzleState {
        let position = puzzle.start;
        PuzzleState {
            puzzle,
            position,
            clicks: 0,
        }
    }

    /// Makes one click, or refuses it and leaves the state as it was.
    pub fn click(&mut self, click: Click) -> Result<(), PuzzleError> {
        self.position = self.puzzle.try_click(&self.position, click)?;
        self.clicks += 1;
        Ok(())
    }

    /// Whether the finish is reached.
    pub fn solved(&self) -> bool {
        self.puzzle.solved(&self.position)
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Clicks accepted so far.
    pub fn clicks(&self) -> u32 {
        self.clicks
    }

    /// The puzzle being played.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }
}

/// Builds a position from fixed slot names (puzzle data, not user input): the pieces of
/// `colour` numbered from 1 in the order given.
fn place(position: &mut Position, colour: Colour, slots: &[&str]) {
    for (i, name) in slots.iter().enumerate() {
        let slot = parse_slot(name).expect("puzzle data names real slots");
        let piece = Piece::new(colour, i as u8 + 1).expect("puzzle data has at most 20 pieces");
        position.put(slot, piece);
    }
}

/// A position of two colours from fixed slot names.
fn two_colours(a: Colour, a_slots: &[&str], b: Colour, b_slots: &[&str]) -> Position {
    let mut p = Position::empty();
    place(&mut p, a, a_slots);
    place(&mut p, b, b_slots);
    p
}

/// The set of rotors named (puzzle data).
fn rotors(names: &[&str]) -> RotorSet {
    let mut set = RotorSet::EMPTY;
    for n in names {
        let r = crate::notation::parse_rotor(n).expect("puzzle data names real rotors");
        set = RotorSet(set.0 | r.bit().0);
    }
    set
}
