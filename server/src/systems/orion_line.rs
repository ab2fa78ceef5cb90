//! A click puzzle's line in an ORION room: the game as it started and the clicks that stand,
//! so that the solver may take clicks back (`undo`, replayed from the start), and the hint
//! job (`hint`): the engine's optimal solver from the position now, within a budget.

use crate::protocol::{Code, Refusal};
use crate::system::{Hint, HintJob};
use orion_engine::puzzles::{self, Puzzle};
use orion_engine::solve::{self, SolveError};
use orion_engine::{Action, Game, Millis, Position, Seat as EngineSeat};

/// Most clicks kept to take back; past it the oldest is folded into the start (a solver
/// who clicked 2,000 times undoes the last 2,000).
pub(super) const MAX_UNDO: usize = 2_000;

/// States a hint's breadth-first search may hold (16 bytes each: some 100 MB), so a hint
/// asked far from the finish ends with "too far" instead of running on.
pub const HINT_STATES: u64 = 6_000_000;

/// Nodes a hint's IDA* search may generate (about ten seconds of one core).
pub const HINT_NODES: u64 = 20_000_000;

/// A click puzzle's start and the clicks that stand since.
#[derive(Clone)]
pub(super) struct Line {
    /// The game as it stood before the first click kept.
    start: Game,
    /// The clicks that stand, with the time each was made (a replay steps them again).
    clicks: Vec<(Action, Millis)>,
}

impl Line {
    /// The line of `game` if it is a click puzzle (not a game, nor Aquarius, whose tries
    /// are not clicks to take back).
    pub(super) fn of(game: &Game) -> Option<Box<Line>> {
        let click_puzzle = game.is_puzzle() && puzzles::find(game.rules().id()).is_some();
        click_puzzle.then(|| {
            Box::new(Line {
                start: game.clone(),
                clicks: Vec::new(),
            })
        })
    }

    /// Keeps a click that was taken.
    pub(super) fn push(&mut self, seat: EngineSeat, action: Action, at: Millis) {
        if !matches!(action, Action::Click { .. }) {
            return;
        }
        if self.clicks.len() >= MAX_UNDO {
            let (first, when) = self.clicks.remove(0);
            // It was taken from this very position before: it is taken again.
            let _ = self.start.step(seat, first, when);
        }
        self.clicks.push((action, at));
    }

    /// Takes the last click back: the game replayed from the start without it, and the click.
    pub(super) fn undo(
        &mut self,
        seat: EngineSeat,
        game: &Game,
    ) -> Result<(Game, Action), Refusal> {
        if game.outcome().is_some() {
            return Err(Refusal::new(
                Code::Illegal,
                "the puzzle is solved: its clicks stand",
            ));
        }
        let Some((last, at)) = self.clicks.pop() else {
            return Err(Refusal::new(
                Code::Illegal,
                "nothing to undo: no click of yours stands",
            ));
        };
        let mut replayed = self.start.clone();
        for (action, when) in &self.clicks {
            if let Err(e) = replayed.step(seat, *action, *when) {
                self.clicks.push((last, at));
                return Err(Refusal::new(
                    Code::Server,
                    format!("the clicks before could not be replayed: {e}"),
                ));
            }
        }
        Ok((replayed, last))
    }

    /// The hint job for `game`'s position now; `None` once it is solved.
    pub(super) fn hint_job(game: &Game) -> Option<HintJob> {
        if game.outcome().is_some() {
            return None;
        }
        let puzzle = puzzles::find(game.rules().id())?;
        let here = *game.position();
        Some(Box::new(move || hint(&puzzle, here)))
    }
}

/// The next click of an optimal line from `here`, within [`HINT_STATES`] and [`HINT_NODES`].
pub fn hint(puzzle: &Puzzle, here: Position) -> Result<Hint, String> {
    let from_here = puzzle
        .with_start(here)
        .map_err(|e| format!("no hint from this position: {e}"))?;
    match solve::solve_within(&from_here, HINT_STATES, HINT_NODES) {
        Ok(line) => {
            let first = line.clicks.first().ok_or("the puzzle is solved already")?;
            Ok(Hint {
                click: first.to_string(),
                left: line.clicks.len() as u32,
            })
        }
        Err(SolveError::TooLarge(_)) => Err(
            "no hint from here: the finish is too far for the hint's search (undo a few clicks or \
             play nearer the finish, then ask again)"
                .to_string(),
        ),
        Err(SolveError::Unreachable) => {
            Err("the finish cannot be reached from this position: undo some clicks".to_string())
        }
        Err(e) => Err(format!("no hint: {e}")),
    }
}
