//! Libra's tug of war broken by the game's history: level 8 (S) against `greedy` (N), ladder
//! game 4 (seed 5), where level 8 without a history turned `greedy`'s man off one of `greedy`'s
//! targets each round and `greedy` turned him back, the same two positions from round 34 to
//! the round limit. Given the positions the game's turns started from, level 8 judges the
//! turn back into the cycle worse for each time it has been played and plays another.

use orion_ai::systems::orion::{position_key, OrionView};
use orion_ai::{decide_with, History, Level, Player};
use orion_engine::{games, parse_slot, Action, Game, Options, Seat};

/// The ladder's seed of game 4 (level 8 at S, the first seat).
const SEED: u64 = 5;

/// The game's actions to round 40, S to move, played by level 8 without a history (as the
/// ladder played game 4 before) and `greedy`: S holds B5n and E5n, and since round 34 its turn
/// has been `B1L A1R` and `greedy`'s `A1L A1L` (one turn taking the other back).
const LINE: &str = "C2R C4L E2R D2L D4R E4L D3R D3R D4L C5L C4L B4R C1R C2R B2L E3L E3L E2L C3L D3R D4L \
                    D2R D1R D1R E4R E5R D5L E4L D4L D5R D1R D2L E2R D1L end D2L D3L E3R C4L C3L B3R E3R \
                    E4R E4R C3L C2L B2R A3L A4L B4R C2L C1L B1R B5R A5L end C1L end C1L B1L B2L B1R end \
                    B1R B2L C2R B1L end E5R end C1R end B1R C1R C2R C1L end D2L D1L C1R A1R end B3R B3R \
                    B4R B1R end A1R B1R B2L D1R end A4L A5L end B1L end C1L D1R D1R D1L D1L end E1L E1L \
                    D1R D1L end D1R D2L E2R C1R end B1R C1L end C1R end C1R C1R D1R C2R B2R B1L C2L B2L \
                    B3R B1L C1L end C1L B1L B2L B1R end B5R end C1R end C2R C1L B1L A1L end A1R A2L B2R \
                    D1L end D1R D2R D2R D1L end D2L D1R E1R B1R end B2R B1L A1R A1R A1R end A1R B1L end \
                    B1L B1L end B1L A1R end A1R A1R end A1R B1L end B1R B1R end B1L A1R end A1L A1L end \
                    A1R B1L end B1R B1R end B1L A1R end A1L A1L end A1R B1L end B1L B1L end";

/// The ladder's seed of a decision (numbered from 1 in the game).
fn seed_of(decision: u64) -> u64 {
    SEED.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ decision
}

/// The game at round 40 with its history, and the decisions made so far.
fn replayed() -> (Game, History, u64) {
    let rules = games::find("libra").expect("libra");
    let options = Options {
        players: Some(2),
        ..Options::default()
    };
    let mut game = Game::new(rules, options, SEED).expect("a game");
    let mut history = History::new();
    history.extend(position_key(&game));
    let mut decisions = 0;
    for text in LINE.split_whitespace() {
        let action = Action::parse(text).expect("an action");
        let mover = game.mover();
        game.step(mover, action, 0).expect("a legal action");
        history.extend(position_key(&game));
        decisions += 1;
    }
    (game, history, decisions)
}

/// One whole turn of the seat to move, by `player` knowing `history` (the ladder's seeds);
/// the key of the position it ends in.
fn turn(game: &mut Game, player: Player, history: &History, decisions: &mut u64) -> Option<u64> {
    let mover = game.mover();
    while game.outcome().is_none() && game.mover() == mover {
        *decisions += 1;
        let view = OrionView::new(game, mover, 0).expect("seated");
        let action =
            decide_with(player, &view, history, None, seed_of(*decisions)).expect("a decision");
        game.step(mover, action, 0).expect("a legal action");
    }
    position_key(game)
}

/// S's targets (N's back line) that S holds.
fn targets_held(game: &Game) -> usize {
    let red = game
        .position()
        .of(game.colour_of(Seat::S).expect("S plays"));
    ["A5n", "B5n", "C5n", "D5n", "E5n"]
        .iter()
        .filter(|s| red.contains(parse_slot(s).expect("a slot")))
        .count()
}

#[test]
fn level_8_does_not_turn_back_into_the_cycle_it_knows() {
    let level_8 = Player::Level(Level::MAX);
    let (game, history, decisions) = replayed();
    assert_eq!((game.round(), game.mover()), (40, Seat::S));
    assert_eq!(targets_held(&game), 2, "S holds B5n and E5n");
    let seen = |key: Option<u64>| key.is_some_and(|k| history.keys().any(|h| h == k));

    // Without the history (as before): back to the position of round 39's turn.
    let mut old = game.clone();
    let back = turn(&mut old, level_8, &History::new(), &mut decisions.clone());
    assert!(seen(back), "without the history level 8 repeats the cycle");

    // With it: another turn, and for the next twenty rounds against `greedy` no turn of S's
    // returns to a position the game has been in, nor gives up a target S holds.
    let (mut game, mut history, mut decisions) = (game, history, decisions);
    while game.outcome().is_none() && game.round() < 60 {
        let mover = game.mover();
        let player = if mover == Seat::S {
            level_8
        } else {
            Player::Greedy
        };
        let key = turn(&mut game, player, &history, &mut decisions);
        if mover == Seat::S {
            let repeated = key.is_some_and(|k| history.keys().any(|h| h == k));
            assert!(
                !repeated,
                "level 8 returned to a position at round {}",
                game.round()
            );
        }
        history.extend(key);
    }
    assert!(
        targets_held(&game) >= 2,
        "S holds {} targets at round 60",
        targets_held(&game)
    );
}
