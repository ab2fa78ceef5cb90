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

/// S needs four clicks, N two and leads (so must throw: any face but 1 finishes him). Three
/// clicks cannot finish S, and cannot set N back: every click that moves N turns B2 (S, on
/// B1n, reaches N's other rotor only through B2), and round B2 every slot is further on than
/// N's B2n. So after three clicks N wins five times in six, while the die finishes S at once
/// with a 4 or a 5, one time in three. The level 8 of `main` took three clicks with two of
/// these four seeds (it judged by laps, and N's reply by one throw of N's die).
#[test]
fn level_8_throws_where_only_a_throw_wins_the_race() {
    let g = greedy_game_until(Seat::S, 18);
    assert_eq!(needed(&g)[..2], [4, 2], "S needs 4 clicks, N 2");
    let view = OrionView::new(&g, Seat::S, 0).expect("seated");
    for seed in 0..4 {
        let level_8 = Player::Level(Level::MAX);
        assert_eq!(
            decide(level_8, &view, None, seed),
            Some(Action::Roll),
            "seed {seed}"
        );
    }
}
