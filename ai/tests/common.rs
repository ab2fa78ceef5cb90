//! Helpers the test files share: setting up ORION games from positions and asking a player
//! for its decision.

#![allow(dead_code)]

use orion_ai::systems::orion::OrionState;
use orion_ai::{Budget, Level, Player};
use orion_engine::{games, parse_position, Action, Game, Options, Seat};

/// Level 6 (`greedy`), the levels that search, and `greedy`, with a budget a test can afford
/// (levels 7 and 8 at 5,000 positions: their look at the replies, narrowed; levels 1–6 have
/// no budget, and 2 to 5 play `greedy` or at random by the seed).
pub fn searchers() -> Vec<(Player, Option<Budget>)> {
    let small = Budget {
        iterations: 5_000,
        time: None,
    };
    let mut out: Vec<(Player, Option<Budget>)> = Level::all()
        .skip(5)
        .map(|l| {
            let budget = if l.number() <= 6 { None } else { Some(small) };
            (Player::Level(l), budget)
        })
        .collect();
    out.push((Player::Greedy, None));
    out
}

/// A game of `id` from `position` with `mover` to move in `round`.
pub fn game_at(id: &str, players: Option<u8>, position: &str, mover: Seat, round: u32) -> Game {
    let rules = games::find(id).expect("a game");
    let options = Options {
        players,
        ..Options::default()
    };
    let p = parse_position(position).expect("a position");
    Game::from_position(rules, options, 1, p, mover, round).expect("a game from the position")
}

/// `player`'s decision for `seat` in `game` at time 0.
pub fn decision(
    game: &Game,
    seat: Seat,
    player: Player,
    budget: Option<Budget>,
    seed: u64,
) -> Option<Action> {
    orion_ai::systems::orion::think(game, seat, 0, player, budget, seed)
}

/// The state of `game` at time 0.
pub fn state(game: Game) -> OrionState {
    OrionState::new(game, 0)
}
