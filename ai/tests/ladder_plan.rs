//! The ladder's `--plan`: levels 2 to 7 play the plan it is given, not the game's own.

use orion_ai::ladder::{parse_game, play_within, turn_limit};
use orion_ai::plan::parse;
use orion_ai::{Level, Player};

fn level(n: u8) -> Player {
    Player::Level(Level::new(n).unwrap())
}

#[test]
fn a_plan_given_to_the_ladder_is_what_the_levels_play() {
    let spec = parse_game("hydra-2", None, false).unwrap();
    let random_everywhere = parse("R,R,R,R,R,R").unwrap();
    let play = |seats: &[Player], plan| {
        play_within(&spec, seats, 7, 1.0, turn_limit(&spec), None, plan)
            .expect("plays")
            .actions
    };
    let two_random_movers = play(&[level(1), level(1)], None);
    // Level 2 told to play the random mover's every decision plays level 1's game...
    assert_eq!(
        play(&[level(2), level(1)], Some(&random_everywhere)),
        two_random_movers
    );
    // ...and without the plan plays `greedy`'s action a share of the time.
    assert_ne!(play(&[level(2), level(1)], None), two_random_movers);
}
