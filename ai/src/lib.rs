//! Computer opponents for ORION's twelve games, Orbit and Orbs: a turn search over a small
//! game trait of its own, levels 1 to 8, `greedy` as the yardstick, and a ladder that measures
//! them. No I/O: a server, a client, a test or the `ladder` binary drives the same code.
//!
//! Layout, bottom up:
//!
//! * `plan` — what levels 2 to 7 are made of in a game (shares of the random mover's,
//!   `greedy`'s and level 8's decisions): a game's own ([`State::level_plan`]) or the default;
//! * `state` — the game trait ([`State`]: who acts, legal actions, apply, chance, returns
//!   per player, an evaluation) and hidden information ([`Observe`], [`View`]);
//! * `systems/` — the adapters: `orion` (the engine's games; `orion_eval`, `places`: their
//!   evaluation), `orbit`, `orbs`; the only modules that name an engine;
//! * `greedy` — one whole turn ahead (the yardstick, and level 6); `turns` — the turn search
//!   of level 8, played by level 7 for a share of its decisions (the best turns, the
//!   others' best replies, the worst assumed); `mcts` — a Monte Carlo tree search, kept as a
//!   library function, playing no level;
//! * `history` — the positions a game has been in ([`History`]), so the levels' search
//!   does not repeat a cycle;
//! * `level` — levels 1–8 and [`decide`] ([`decide_with`] given the game's history), the
//!   entry points for a decision;
//! * `ladder` — games between players, win rates, ratings, think times.

mod greedy;
mod history;
pub mod ladder;
mod level;
mod mcts;
pub mod plan;
mod proof;
mod state;
pub mod systems;
mod turns;

pub use greedy::greedy;
pub use history::{History, RECENT};
pub use level::{
    decide, decide_planned, decide_with, plan_of, Level, NoSuchLevel, Player, MAX_THINK,
};
pub use mcts::{search, Budget, Thought};
pub use state::{returns_of, squash, Observe, State, ToAct, Values, View, MAX_PLAYERS};
