//! Optimal solvers for the puzzles: a layered bidirectional breadth-first search for the
//! colour-pattern puzzles with few pieces, IDA* for Aurora Borealis (40 pieces) and for
//! single Orbit Solitaire B positions (with pattern databases), full breadth-first tables
//! for Orbit Solitaire A, and the packed 2-bit census of all 12! Orbit B arrangements.

mod bidirectional;
mod ida;
mod orbit;
mod pattern;
mod perm;
mod space;

pub use bidirectional::bidirectional;
pub use ida::ida_star;
pub use orbit::{census, census_with, Census, OrbitSpace, PackedDistances, PatternDb};
pub use pattern::PatternSpace;
pub use perm::{factorial, rank, unrank};
pub use space::{Heuristic, Space};

use crate::board::Click;
use crate::puzzles::{Finish, Puzzle};
use thiserror::Error;

/// An optimal line and what it cost to find.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The clicks, in order; no shorter line solves the puzzle.
    pub clicks: Vec<Click>,
    /// States the search generated (for the benchmarks).
    pub states: u64,
}

/// Why no solution was produced.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SolveError {
    /// The finish cannot be reached from this start.
    #[error("the finish cannot be reached from this start")]
    Unreachable,
    /// The search would need more states than the solver allows itself.
    #[error("the search passed its limit of {0} states without meeting")]
    TooLarge(u64),
    /// A puzzle shape the solver has no method for.
    #[error("no solver for this puzzle: {0}")]
    Unsupported(String),
}

/// States a bidirectional search may hold before it gives up (about 0.8 GB at 16 bytes, plus
/// scratch). The booklet's puzzles need at most 12 M (Herdsman).
pub const STATE_LIMIT: u64 = 50_000_000;

/// Nodes an IDA* search may generate before it gives up (some 20 minutes). Aurora A, the
/// largest booklet search, needs 314 M.
pub const NODE_LIMIT: u64 = 2_000_000_000;

/// Solves `puzzle` optimally from its start.
pub fn solve(puzzle: &Puzzle) -> Result<Solution, SolveError> {
    solve_within(puzzle, STATE_LIMIT, NODE_LIMIT)
}

/// Solves `puzzle` optimally from its start, holding at most `states` states in a
/// breadth-first search and generating at most `nodes` in an IDA* one: a caller with a time
/// bound (a room's hint) gives up with [`SolveError::TooLarge`] rather than running on.
pub fn solve_within(puzzle: &Puzzle, states: u64, nodes: u64) -> Result<Solution, SolveError> {
    match puzzle.finish {
        Finish::Exact(_) => {
            let space = OrbitSpace::new(puzzle)?;
            if space.len() <= 8 {
                space.solve_by_table()
            } else {
                let db = PatternDb::for_space(&space);
                space.solve_with_limit(&db, nodes)
            }
        }
        Finish::Pattern(_) => {
            let space = PatternSpace::new(puzzle)?;
            if puzzle.start.occupied().len() > 16 {
                let start = space.start();
                ida_star(&space, start, 40, nodes)
            } else {
                bidirectional(&space, space.start(), space.goal(), states)
            }
        }
    }
}
