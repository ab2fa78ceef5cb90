//! Level 8's search, which looks at the replies (and which level 7 plays for a share of
//! its decisions), does not walk into a loss `greedy` walks into: a Hydra for Two (from a
//! game of `greedy` against itself) where `greedy`'s best-looking turn leaves North a chain in
//! one turn, and every turn of level 8 leaves him none, by a look at every turn North could
//! play.

mod common;

use common::{game_at, state};
use orion_ai::systems::orion::OrionState;
use orion_ai::{decide, Level, Observe, Player, State, ToAct};
use orion_engine::Seat;

/// Positions with South to move and the round (three clicks a turn from round 3): from games
/// of `greedy` against itself, seeds 1 and 23. In the second, the Monte Carlo search that
/// played levels 5–8 before walks into the loss too.
const POSITIONS: [(&str, u32); 2] = [
    (
        "A1s:R1 B1s:R2 C1s:R4 D1s:R15 E1s:R5 A1n:R6 C1n:R14 C3n:B15 D3n:R9 A4n:B1 B4n:B2 \
         D4n:R10 E4n:B10 A5n:B6 B5n:B7 C5n:B8 E5n:B14 A1w:R11 A5w:B11 A1e:R12 A5e:B12 B1e:B4 \
         B3e:B5 B5e:B13 C1e:R3 C2e:R8 C4e:B3 C5e:B16 D1e:R7 D2e:R13 D4e:B9 E1e:R16",
        12,
    ),
    (
        "A1s:R13 C1s:R4 D1s:R15 E1s:R5 A1n:R9 B1n:R1 E1n:R10 A2n:B3 C2n:R11 B3n:B2 B4n:B16 \
         C4n:B11 D4n:R8 E4n:B10 B5n:B13 A1w:R3 A4w:B1 A5w:B12 A1e:B7 A4e:B8 A5e:B6 B1e:R7 \
         B2e:R14 B3e:B15 B5e:B14 C1e:R6 C5e:B5 D2e:R12 D3e:R2 D5e:B4 E1e:R16 E5e:B9",
        44,
    ),
];

/// `who` plays `player`'s whole turn, one decision a click.
fn whole_turn(mut s: OrionState, player: usize, who: Player, seed: u64) -> OrionState {
    for k in 0..8 {
        if s.to_act() != ToAct::Player(player) {
            break;
        }
        let action = decide(who, &s.view(player), None, seed + k).expect("a decision");
        s.apply(action);
    }
    s
}

/// Whether `player`, to move in `s`, has any turn that wins (every sequence of his actions
/// until the turn passes, tried).
fn can_win(s: &OrionState, player: usize, depth: usize) -> bool {
    match s.to_act() {
        ToAct::Over => return s.returns()[player] >= 1.0,
        ToAct::Player(p) if p == player && depth > 0 => {}
        _ => return false,
    }
    let mut actions = Vec::new();
    s.legal_actions(&mut actions);
    actions.into_iter().any(|a| {
        let mut after = s.clone();
        after.apply(a);
        can_win(&after, player, depth - 1)
    })
}

#[test]
fn greedy_leaves_north_a_chain_and_the_turn_search_does_not() {
    for (position, round) in POSITIONS {
        let start = state(game_at("hydra-2", None, position, Seat::S, round));
        let south = start.player_of(Seat::S).expect("south plays");
        let north = start.player_of(Seat::N).expect("north plays");
        assert!(
            !can_win(&start, south, 4),
            "South has no chain to make here"
        );

        let after_greedy = whole_turn(start.clone(), south, Player::Greedy, 7);
        assert!(
            can_win(&after_greedy, north, 4),
            "greedy's turn leaves North a chain (round {round})"
        );

        let level = Player::Level(Level::MAX);
        for seed in 0..3 {
            let after = whole_turn(start.clone(), south, level, seed * 10);
            assert_eq!(
                after.to_act(),
                ToAct::Player(north),
                "{level} ended its turn"
            );
            assert!(
                !can_win(&after, north, 4),
                "{level} (seed {seed}) left North a chain in one turn (round {round})"
            );
        }
    }
}
