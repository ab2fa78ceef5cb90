//! Helpers the test files share: setting up ORION games from positions and asking a player
//! for its decision.

#![allow(dead_code)]

use orion_ai::plan::{Base, Blend};
use orion_ai::systems::orion::OrionState;
use orion_ai::{plan_of, Budget, Level, Player, State};
use orion_engine::{games, parse_position, Action, Game, Options, Seat};

/// The players bound to take a win in one and to claim a chain they see, in `state`'s game:
/// every level whose decisions the game's plan makes all by level 8's search or by `greedy`
/// (a level that searches for some of them takes a win in one first; level 8 always), with
/// a budget a test can afford (5,000 positions: their look at the replies, narrowed), and
/// `greedy`. A level that plays a random action for some of its decisions may miss one.
pub fn searchers_of<S: State>(state: &S) -> Vec<(Player, Option<Budget>)> {
    let small = Budget {
        iterations: 5_000,
        time: None,
    };
    let plan = plan_of(state);
    let mut out: Vec<(Player, Option<Budget>)> = Level::all()
        .filter_map(|l| {
            let Some(blend) = l.blend(&plan) else {
                return (l == Level::MAX).then_some((Player::Level(l), Some(small)));
            };
            if blend.searches() {
                Some((Player::Level(l), Some(small)))
            } else {
                (blend == Blend::only(Base::Greedy)).then_some((Player::Level(l), None))
            }
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
