//! The positions a game has been in, for the levels' search: a level sees one position, not
//! the game, so where two players each undo the other's last turn it cannot tell the repeat
//! from progress and plays the same two positions to the round limit (Libra's tug of war,
//! BENCHMARKS.md). Whoever plays the game (the ladder, a room's table) records each position
//! a turn starts from ([`State::position_key`]); the search judges its own turn that returns
//! to one of them a little worse for each time the game has been there, so after a few rounds
//! of a cycle it tries something else.

use crate::state::State;
use std::collections::VecDeque;

/// Turn-start positions remembered: with two players, the last 128 rounds (a cycle the
/// levels fall into is a few rounds long; a game with no round limit keeps a bounded record).
pub const RECENT: usize = 256;

/// The keys ([`State::position_key`]) of the latest [`RECENT`] positions a game's turns
/// started from, oldest first. Empty for a game that gives no keys, and where the caller has
/// no record (then the levels decide as they did without one).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    keys: VecDeque<u64>,
}

impl History {
    /// No position seen.
    pub fn new() -> History {
        History::default()
    }

    /// Records `state`'s position if a turn starts from it (it has a key); the oldest is
    /// forgotten past [`RECENT`].
    pub fn record<S: State>(&mut self, state: &S) {
        if let Some(key) = state.position_key() {
            self.push(key);
        }
    }

    /// Records a position by its key ([`State::position_key`]).
    pub fn push(&mut self, key: u64) {
        if self.keys.len() >= RECENT {
            self.keys.pop_front();
        }
        self.keys.push_back(key);
    }

    /// The keys remembered, oldest first.
    pub fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.keys.iter().copied()
    }

    /// Each key remembered with how often it was recorded, sorted by key (to look a
    /// position up by binary search).
    pub fn counts(&self) -> Vec<(u64, u32)> {
        let mut keys: Vec<u64> = self.keys().collect();
        keys.sort_unstable();
        let mut counts: Vec<(u64, u32)> = Vec::new();
        for k in keys {
            match counts.last_mut() {
                Some((last, n)) if *last == k => *n += 1,
                _ => counts.push((k, 1)),
            }
        }
        counts
    }
}

impl Extend<u64> for History {
    /// Records each key in turn (a room's table: `extend(position_key(&game))` after an
    /// action, nothing when the turn has not started afresh).
    fn extend<I: IntoIterator<Item = u64>>(&mut self, keys: I) {
        for key in keys {
            self.push(key);
        }
    }
}
