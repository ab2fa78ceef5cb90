//! A bot's decisions in any game system: the AI crate's ([`orion_ai::decide`]) at the bot's
//! level, each decision with a seed of its own drawn from the bot's, held to the AI's time cap
//! as the server's computer players are (a person at the table waits for it).

use super::level::Level;
use orion_ai::{Budget, State, View};

/// Who decides for a bot, and with what budget and seeds.
#[derive(Clone, Debug)]
pub struct Decider {
    /// How it plays.
    pub level: Level,
    /// Each decision's budget (`None`: the player's own).
    budget: Option<Budget>,
    /// The seed each decision's seed is drawn from.
    seed: u64,
    /// Decisions made so far.
    decisions: u64,
}

impl Decider {
    /// A bot of `level` whose choices follow `seed`.
    pub fn new(level: Level, seed: u64) -> Decider {
        Decider {
            level,
            budget: level.budget(true),
            seed,
            decisions: 0,
        }
    }

    /// The view's player's decision, or `None` when it has nothing to decide.
    pub fn decide<V: View>(&mut self, view: &V) -> Option<<V::State as State>::Action> {
        self.decisions += 1;
        let seed = (self.seed ^ self.decisions.wrapping_mul(0x9e37_79b9_7f4a_7c15)).rotate_left(7);
        orion_ai::decide(self.level.player(), view, self.budget, seed)
    }
}
