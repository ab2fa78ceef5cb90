//! The ladder's turn limit: a game past it counts as drawn, and a longer limit (`--turn-limit`)
//! plays on the games a shorter one drew while every game that ended before both is the same.

use orion_ai::ladder::{
    parse_game, play_within, run_ladder_with, turn_limit, Pairing, Seating, Sitting,
};
use orion_ai::{Level, Player};

fn level(n: u8) -> Player {
    Player::Level(Level::new(n).expect("a level"))
}

fn pairing(turn_limit: Option<u32>) -> Pairing {
    let spec = parse_game("hydra-2", None, false).expect("a game");
    let sitting = Sitting {
        games: 4,
        seed: 5,
        scale: 1.0,
        threads: 2,
        per_pairing: None,
        turn_limit,
        seating: Seating::Alone,
        plan: None,
    };
    let report = run_ladder_with(&spec, &[(level(5), level(1))], &sitting, |_| {}).expect("plays");
    report.pairings[0].clone()
}

#[test]
fn a_game_past_the_turn_limit_is_drawn_and_a_longer_limit_plays_it_on() {
    // Three rounds are too few for anyone to cross the Hydra board: every game is drawn.
    let short = pairing(Some(3));
    assert_eq!((short.wins, short.losses, short.draws), (0, 0, 4));
    // The ladder's own limit (400 rounds) lets a mostly-`greedy` player win against a random one.
    let whole = pairing(None);
    assert_eq!(whole.unfinished, 0);
    assert!(whole.wins >= 3, "level 5 against level 1: {whole:?}");
    // A limit past every game's end changes nothing.
    let longer = pairing(Some(10_000));
    assert_eq!(
        (longer.wins, longer.losses, longer.draws),
        (whole.wins, whole.losses, whole.draws)
    );
}

#[test]
fn a_bootes_race_goes_on_past_round_400() {
    // Two random movers never bring their men home in Bootes: the game runs to the limit.
    let bootes = parse_game("bootes", None, false).expect("a game");
    let seats = [level(1), level(1)];
    let at = |turns| play_within(&bootes, &seats, 3, 1.0, turns, None, None).expect("plays");
    let own = at(turn_limit(&bootes));
    let at_400 = at(400);
    assert_eq!(own.returns[..2], [0.5, 0.5], "drawn at the limit");
    // The same game, played on: its first 400 rounds are the 400-round game's, and it is
    // more than twice as long.
    assert_eq!(own.actions[..at_400.actions.len()], at_400.actions[..]);
    assert!(
        own.actions.len() > 2 * at_400.actions.len(),
        "{} actions at the game's own limit, {} at 400",
        own.actions.len(),
        at_400.actions.len()
    );
}
