//! Iterative-deepening A*: depth-first searches bounded by clicks made plus an admissible
//! estimate, the bound raised to the smallest overrun each round. The first line found is
//! optimal. Clicks that only waste moves are never tried: undoing the previous click, a
//! third quarter turn of one rotor (one turn the other way does it), two left turns where
//! no rule looks at the position between them (two right turns do it), and — when no rule depends on the position — the second order of two
//! clicks on rotors whose orbits do not meet (they commute).

use super::space::Heuristic;
use super::{Solution, SolveError};
use crate::board::{Click, Direction};

/// What the depth-first pass knows about the clicks behind it.
struct Walk {
    path: Vec<Click>,
    nodes: u64,
    /// Nodes the search may generate before it gives up.
    budget: u64,
}

/// Whether `c` may follow the clicks already on `path`.
fn worth_trying(path: &[Click], c: Click, free: bool) -> bool {
    let Some(&last) = path.last() else {
        return true;
    };
    if last.rotor == c.rotor {
        // Two left turns equal two right turns, but only where no rule looks at the
        // position in between.
        if c != last || (free && c.direction == Direction::Left) {
            return false;
        }
        // A third turn the same way is one turn the other way.
        return !matches!(path.iter().rev().nth(1), Some(&p) if p.rotor == c.rotor);
    }
    if free
        && !last.rotor.orbit_set().intersects(c.rotor.orbit_set())
        && c.rotor.index() < last.rotor.index()
    {
        return false;
    }
    true
}

/// Searches below `bound`; `Ok(true)` when the goal is reached, else the least overrun.
fn dive<H: Heuristic>(
    space: &H,
    state: H::State,
    g: u32,
    bound: u32,
    walk: &mut Walk,
) -> Result<bool, u32> {
    let f = g + space.estimate(state);
    if f > bound {
        return Err(f);
    }
    if space.is_goal(state) {
        return Ok(true);
    }
    let mut next = Vec::with_capacity(16);
    space.neighbours(state, &mut next);
    walk.nodes += next.len() as u64;
    if walk.nodes > walk.budget {
        // Reported as an overrun no bound can satisfy; `ida_star` turns it into TooLarge.
        return Err(u32::MAX - 1);
    }
    let free = space.free();
    let mut least = u32::MAX;
    for (c, t) in next {
        if !worth_trying(&walk.path, c, free) {
            continue;
        }
        walk.path.push(c);
        match dive(space, t, g + 1, bound, walk) {
            Ok(true) => return Ok(true),
            Ok(false) => {}
            Err(over) => least = least.min(over),
        }
        walk.path.pop();
    }
    Err(least)
}

/// An optimal line from `start` to a goal of `space`, trying bounds up to `max_clicks` and
/// generating at most `max_nodes` nodes (a start far from any goal cannot run for ever).
pub fn ida_star<H: Heuristic>(
    space: &H,
    start: H::State,
    max_clicks: u32,
    max_nodes: u64,
) -> Result<Solution, SolveError> {
    let mut bound = space.estimate(start);
    let mut walk = Walk {
        path: Vec::new(),
        nodes: 0,
        budget: max_nodes,
    };
    loop {
        if bound > max_clicks {
            return Err(SolveError::Unreachable);
        }
        match dive(space, start, 0, bound, &mut walk) {
            Ok(_) => {
                return Ok(Solution {
                    clicks: walk.path,
                    states: walk.nodes,
                })
            }
            Err(u32::MAX) => return Err(SolveError::Unreachable),
            Err(_) if walk.nodes > walk.budget => return Err(SolveError::TooLarge(walk.budget)),
            Err(over) => bound = over,
        }
    }
}
