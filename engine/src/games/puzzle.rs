//! The booklet's click puzzles as one-player rooms (ORION.md section 6): each puzzle of
//! `puzzles/` as a [`Rules`] with one seat, so a server hosts it like a game. A click is
//! checked by the puzzle's own rule (which rotors turn, Aquila's grip), never by the games'
//! basic rules; each click scores one point, so the score is the clicks used; reaching the
//! finish ends the game with the player as winner.

use crate::board::Click;
use crate::game::{Action, ActionError, Allowance, Event, Game, Options, PuzzleProgress, Rules};
use crate::piece::Colour;
use crate::position::Position;
use crate::puzzles::{self, Puzzle};
use crate::rules::RuleError;
use crate::seat::{Seat, SeatInfo};
use rand::RngCore;
use std::ops::RangeInclusive;
use std::sync::OnceLock;

/// A click puzzle as a room's rules: the puzzle's name, its data built on first use.
pub struct PuzzleRoom {
    /// The puzzle's name (`aquila`), one of [`puzzles::NAMES`].
    name: &'static str,
    /// The puzzle, built once from its name.
    puzzle: OnceLock<Puzzle>,
}

impl PuzzleRoom {
    /// The rules for the puzzle called `name` (one of [`puzzles::NAMES`]).
    pub const fn new(name: &'static str) -> PuzzleRoom {
        PuzzleRoom {
            name,
            puzzle: OnceLock::new(),
        }
    }

    /// The puzzle being played.
    pub fn data(&self) -> &Puzzle {
        self.puzzle.get_or_init(|| {
            // The registry lists only names of `puzzles::NAMES` (a test checks every one).
            puzzles::find(self.name).expect("a puzzle room names a puzzle")
        })
    }
}

/// The one seat of a puzzle room: `S`, playing red (the colour the puzzles move).
pub(crate) fn solo_seat() -> Vec<SeatInfo> {
    vec![SeatInfo {
        seat: Seat::S,
        colour: Colour::Red,
    }]
}

impl Rules for PuzzleRoom {
    fn id(&self) -> &'static str {
        self.name
    }

    // `Rules::name` is the booklet's name, which for a puzzle is its title.
    #[allow(clippy::misnamed_getters)]
    fn name(&self) -> &'static str {
        self.data().title
    }

    fn players(&self) -> RangeInclusive<u8> {
        1..=1
    }

    fn seats(&self, _players: u8) -> Vec<SeatInfo> {
        solo_seat()
    }

    fn start(&self, _seats: &[SeatInfo], _options: &Options, rng: &mut dyn RngCore) -> Position {
        self.data().dealt_start(rng)
    }

    /// Unused: a puzzle's clicks are not counted against an allowance.
    fn allowance(&self, _seat: Seat, _round: u32, _options: &Options) -> Allowance {
        Allowance::Clicks(0)
    }

    fn goal(&self, game: &Game, _turn_end: bool) -> Vec<Colour> {
        if self.data().solved(game.position()) {
            game.seats().iter().map(|s| s.colour).take(1).collect()
        } else {
            Vec::new()
        }
    }

    fn check_click(&self, game: &Game, click: Click) -> Result<(), RuleError> {
        self.data().try_click(game.position(), click)?;
        Ok(())
    }

    fn special(
        &self,
        game: &mut Game,
        seat: Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let Action::Click { click, .. } = action else {
            return Err(ActionError::Phase("a puzzle is played by clicks alone"));
        };
        let next = self
            .data()
            .try_click(game.position(), click)
            .map_err(RuleError::from)?;
        *game.position_mut() = next;
        if let Some(clicks) = game.scores.first_mut() {
            *clicks = clicks.saturating_add(1);
        }
        events.push(Event::Click {
            seat,
            click,
            position: next,
        });
        Ok(())
    }

    fn progress(&self, game: &Game) -> Option<PuzzleProgress> {
        Some(PuzzleProgress {
            clicks: game.scores.first().copied().unwrap_or(0),
            target: self.data().target,
        })
    }
}

/// Aquila, the Eagle.
pub static AQUILA: PuzzleRoom = PuzzleRoom::new("aquila");
/// Aurora Borealis A.
pub static AURORA_A: PuzzleRoom = PuzzleRoom::new("aurora-a");
/// Aurora Borealis B.
pub static AURORA_B: PuzzleRoom = PuzzleRoom::new("aurora-b");
/// The Whirlpool Galaxy (as designed here).
pub static WHIRLPOOL: PuzzleRoom = PuzzleRoom::new("whirlpool");
/// The Herdsman.
pub static HERDSMAN: PuzzleRoom = PuzzleRoom::new("herdsman");
/// Binary Star 1.
pub static BINARY_1: PuzzleRoom = PuzzleRoom::new("binary-1");
/// Binary Star 2.
pub static BINARY_2: PuzzleRoom = PuzzleRoom::new("binary-2");
/// Binary Star 3.
pub static BINARY_3: PuzzleRoom = PuzzleRoom::new("binary-3");
/// Binary Star 4.
pub static BINARY_4: PuzzleRoom = PuzzleRoom::new("binary-4");
/// Orbit Solitaire A (two orbits).
pub static ORBIT_A: PuzzleRoom = PuzzleRoom::new("orbit-a");
/// Orbit Solitaire B (four orbits).
pub static ORBIT_B: PuzzleRoom = PuzzleRoom::new("orbit-b");
