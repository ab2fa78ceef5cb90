//! Auriga judged as a race: level 8 throws the die where only a throw can win before the
//! other chariot finishes.

use orion_ai::systems::auriga_race::needed;
use orion_ai::systems::orion::OrionView;
use orion_ai::{decide, Level, Player};
use orion_engine::{games, Action, Allowance, Game, Options, Seat};

/// Two-player Auriga seed 18, `greedy` playing both seats (its decision seed the decision's
/// number), up to the first die-or-three choice of `seat` at `round`.
fn greedy_game_until(seat: Seat, round: u32) -> Game {
    let rules = games::find("auriga").expect("auriga");
    let mut g = Game::new(rules, Options::default(), 18).expect("a game");
    let mut k = 0u64;
    while g.outcome().is_none() {
        let mover = g.mover();
        if mover == seat
            && g.round() == round
            && g.allowance() == Allowance::DieOrThree
            && g.clicks().1 == 0
        {
            return g;
        }
        let view = OrionView::new(&g, mover, 0).expect("seated");
        let a = decide(Player::Greedy, &view, None, k).expect("a decision");
        g.step(mover, a, 0).expect("legal");
        k += 1;
    }
    panic!("the game ended before round {round}");
}

/// S needs four clicks, N two and leads. S (red) is on B2n and N on B1n (= B2s), both in
/// B2's orbit: two clicks of B2R swap the chariots (S to B1n needing two, N to B2n needing
/// four) and a third, B1R, leaves S one click from home with N four away. The fourth pass
/// read this position with the chariots the other way round and asserted the die (a 4 or a 5
/// finishing S at once); the solution (`auriga_solved`) values three clicks at 0.649 and the
/// die at 0.596 for S, and level 8 now plays the solution.
#[test]
fn level_8_swaps_the_chariots_round_b2_rather_than_throw() {
    let mut g = greedy_game_until(Seat::S, 18);
    assert_eq!(needed(&g)[..2], [4, 2], "S needs 4 clicks, N 2");
    let view = OrionView::new(&g, Seat::S, 0).expect("seated");
    let level_8 = Player::Level(Level::MAX);
    for seed in 0..4 {
        assert_eq!(
            decide(level_8, &view, None, seed),
            Some(Action::Three),
            "seed {seed}"
        );
    }
    g.step(Seat::S, Action::Three, 0).expect("legal");
    for _ in 0..3 {
        let view = OrionView::new(&g, Seat::S, 0).expect("seated");
        let a = decide(level_8, &view, None, 0).expect("a click");
        g.step(Seat::S, a, 0).expect("legal");
    }
    assert_eq!(needed(&g)[..2], [1, 4], "S one click from home, N four");
}
