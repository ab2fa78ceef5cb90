//! A seed and a budget of iterations fix every decision: the same game played twice with the
//! same seeds is the same game, action for action (a die included: the ladder throws it from
//! its own seed), and a different seed gives a different game.

use orion_ai::ladder::{parse_game, play_for};
use orion_ai::{Level, Player};

#[test]
fn the_same_seed_plays_the_same_game() {
    let l3 = Player::Level(Level::new(3).expect("level 3"));
    for (game, players) in [("hydra-2", None), ("orion", None), ("orbs", Some(3))] {
        let spec = parse_game(game, players, false).expect("a game");
        let seats = [l3, Player::Greedy, l3];
        let a = play_for(&spec, &seats, 9, 0.3, 40).expect("plays");
        let b = play_for(&spec, &seats, 9, 0.3, 40).expect("plays");
        assert_eq!(a.actions, b.actions, "{game}");
        assert_eq!(a.returns, b.returns, "{game}");
        let c = play_for(&spec, &seats, 10, 0.3, 40).expect("plays");
        assert_ne!(a.actions, c.actions, "{game}: another seed, another game");
    }
}
