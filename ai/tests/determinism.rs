//! A seed and a budget of iterations fix every decision: the same game played twice with the
//! same seeds is the same game, action for action (a die included: the ladder throws it from
//! its own seed), and a different seed gives a different game.

use orion_ai::ladder::{parse_game, play_for, run_ladder_on};
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

#[test]
fn two_threads_report_what_one_does() {
    let spec = parse_game("hydra-2", None, false).expect("a game");
    let l1 = Player::Level(Level::MIN);
    let l2 = Player::Level(Level::new(2).expect("level 2"));
    let pairs = [(l2, l1), (l1, Player::Greedy)];
    let one = run_ladder_on(&spec, &pairs, 3, 5, 0.5, 1, |_| {}).expect("plays");
    let two = run_ladder_on(&spec, &pairs, 3, 5, 0.5, 2, |_| {}).expect("plays");
    assert_eq!(one.pairings, two.pairings);
    assert_eq!(one.ratings, two.ratings);
    assert_eq!(one.pairings[0].games(), 3);
}
