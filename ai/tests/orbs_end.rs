//! Orbs endgames as the levels judge them: level 8 keeps the orbs that can still take the
//! enemy's last ones, and does not offer `greedy` a trade into a draw from a won ending.

use orion_ai::systems::orbs::OrbsState;
use orion_ai::systems::orbs_end::can_remove_all;
use orion_ai::{decide, Level, Observe, Player, State, ToAct};
use orion_orbs::{Element, Game, Opening, Options, Outcome, Position, Seat, Winner};

/// A two-player game of Orbs from `position`, `first` to move.
fn game_at(position: &str, first: Seat) -> OrbsState {
    let position: Position = position.parse().expect("a position");
    let options = Options {
        opening: Opening::Position(Box::new(position)),
        first: Some(first),
        ..Options::default()
    };
    OrbsState::new(Game::new(options).expect("a game"))
}

/// Plays level 8 (S) against `greedy` (N) from `state` for at most `moves` moves.
fn play_out(mut state: OrbsState, seed: u64, moves: u32) -> OrbsState {
    for d in 0..moves {
        let ToAct::Player(p) = state.to_act() else {
            break;
        };
        let player = if p == 0 {
            Player::Level(Level::MAX)
        } else {
            Player::Greedy
        };
        let action = decide(player, &state.view(p), None, seed + u64::from(d)).expect("a move");
        state.apply(action);
    }
    state
}

/// Move 174 of the ladder's game 16 (seed 17): S's water, air and earth against N's fire
/// and water. Only the air can take N's water. Level 8 before the endgame judgement stepped the air
/// next to the fire (`e8-f7`), took the fire with its earth after the fire burnt the air, and
/// was left with water and earth against water: two orbs to one, and a draw (every seed).
const AIR_KEPT: &str = "e7:RW e8:RA f6:BF f8:RE n2:BW";

/// Level 8, South to move from `position`, wins against `greedy` with every seed in `seeds`.
fn level_8_wins_from(position: &str, seeds: std::ops::Range<u64>) {
    for seed in seeds {
        let end = play_out(game_at(position, Seat::S), seed, 200);
        assert_eq!(
            end.game().outcome(),
            Some(Outcome::Win(Winner::Seat(Seat::S))),
            "seed {seed}: level 8 wins from {position} (ended at {})",
            end.game().position()
        );
    }
}

#[test]
fn level_8_keeps_the_only_orb_that_can_take_the_last_water() {
    level_8_wins_from(AIR_KEPT, 0..2);
}

/// Move 174 of the ladder's game 10 (seed 11): S's water and air against N's earth and
/// water. S cannot lose (nothing of N's can take its water) and wins if its air takes N's
/// water; the air trading with the earth leaves water against water, a draw. Level 8
/// stepped the air next to the earth (`g4-h3`), foreseeing `greedy` would not take a draw
/// its count found worse than its position; `greedy` took it.
const NO_TRADE: &str = "c3:RW g4:RA h4:BE q1:BW";

#[test]
fn level_8_does_not_offer_greedy_the_trade_into_a_draw() {
    for seed in 0..4 {
        let state = play_out(game_at(NO_TRADE, Seat::S), seed, 2);
        assert_ne!(
            state.to_act(),
            ToAct::Over,
            "seed {seed}: the game goes on after level 8's move and `greedy`'s reply ({})",
            state.game().position()
        );
    }
}

/// Move 185 of the ladder's game 72 (seed 73), S to move: S's water and air against N's earth
/// and water, where only S's air can take N's water. Level 8 before its further round and its
/// care for an essential orb let N's earth chase the air along the edge (`h5` to `m1`) and
/// trade it off: water against water, a draw (with three of the four first seeds).
const AIR_CHASED: &str = "a1:RW h5:RA k7:BE q1:BW";

#[test]
fn level_8_keeps_its_air_from_the_earth_that_trades_with_it() {
    level_8_wins_from(AIR_CHASED, 0..3);
}

#[test]
fn who_can_still_take_whom() {
    use Element::{Air as A, Earth as E, Fire as F, Water as W};
    // Water and earth against water: nothing takes the water.
    assert!(!can_remove_all(&[W, E], &[W]));
    // Water and air against water: the air does.
    assert!(can_remove_all(&[W, A], &[W]));
    // A lone water trading with a lone fire leaves nobody: no win.
    assert!(!can_remove_all(&[W], &[F]));
    assert!(can_remove_all(&[W, W], &[F]));
    // Earth and air against earth and air: each trade costs one, nothing is left over.
    assert!(!can_remove_all(&[E, A], &[E, A]));
    // Earth beats fire and survives to trade with the air.
    assert!(can_remove_all(&[E, W], &[F, A]));
}
