//! What a search needs to know about a puzzle's state graph. Every puzzle graph is
//! undirected: each click's inverse is legal from where it leads (the rules test orbits and
//! positions, both kept by a click), which the bidirectional search relies on.

use crate::board::Click;

/// A puzzle's states and legal clicks.
pub trait Space {
    /// A compact, ordered state.
    type State: Copy + Ord + std::hash::Hash + std::fmt::Debug;

    /// Appends every legal click from `state` with the state it leads to; clicks that change
    /// nothing are left out.
    fn neighbours(&self, state: Self::State, out: &mut Vec<(Click, Self::State)>);

    /// Whether any click order may be pruned freely (no rule depends on the position), so
    /// that IDA* may skip one order of two commuting clicks.
    fn free(&self) -> bool {
        false
    }
}

/// A space with a goal and an admissible estimate of the clicks left.
pub trait Heuristic: Space {
    /// Whether `state` is solved.
    fn is_goal(&self, state: Self::State) -> bool;

    /// A lower bound on the clicks from `state` to a goal.
    fn estimate(&self, state: Self::State) -> u32;
}
