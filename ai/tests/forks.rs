//! Level 8 does not make a turn after which `greedy` can force a win it would need more than
//! its look to see: a Cassiopeia from the ladder (seed 8, `greedy` South), where South's
//! first piece stands on D1s and North places his. Placed where level 8 placed it before
//! (D5n on `main`, B2e with the finer evaluation alone), South forces a W within three of his turns whatever North does, and
//! `greedy` found it; level 8 now places where South cannot, by a look at every turn of both.

mod common;

use common::{game_at, state};
use orion_ai::systems::orion::OrionState;
use orion_ai::{decide, Level, Observe, Player, State, ToAct};
use orion_engine::{parse_slot, Action, Seat};

/// Every whole turn of `p` from `s`, where it ends.
fn turns(s: &OrionState, p: usize, out: &mut Vec<OrionState>) {
    let mut actions = Vec::new();
    s.legal_actions(&mut actions);
    for a in actions {
        let mut after = s.clone();
        after.apply(a);
        if after.to_act() == ToAct::Player(p) {
            turns(&after, p, out);
        } else {
            out.push(after);
        }
    }
}

/// Whether `p`, to move in `s`, wins within `k` of his turns whatever the other does.
fn forces_win(s: &OrionState, p: usize, k: u32) -> bool {
    let mut mine = Vec::new();
    turns(s, p, &mut mine);
    mine.iter().any(|t| {
        if t.to_act() == ToAct::Over {
            return t.returns()[p] >= 1.0;
        }
        let ToAct::Player(other) = t.to_act() else {
            return false;
        };
        if k <= 1 {
            return false;
        }
        let mut answers = Vec::new();
        turns(t, other, &mut answers);
        answers.iter().all(|a| {
            if a.to_act() == ToAct::Over {
                a.returns()[p] >= 1.0
            } else {
                forces_win(a, p, k - 1)
            }
        })
    })
}

/// North's placement by `player`.
fn north_places(start: &OrionState, north: usize, player: Player, seed: u64) -> OrionState {
    let mut s = start.clone();
    let action = decide(player, &s.view(north), None, seed).expect("a decision");
    s.apply(action);
    s
}

/// North's placement on `slot`.
fn placed(start: &OrionState, slot: &str) -> OrionState {
    let mut s = start.clone();
    let slot = parse_slot(slot).expect("a slot");
    s.apply(Action::Place { slot, from: None });
    s
}

#[test]
fn level_8_leaves_south_no_forced_w() {
    let start = state(game_at("cassiopeia", None, "D1s:R1", Seat::N, 1));
    let south = start.player_of(Seat::S).expect("south plays");
    let north = start.player_of(Seat::N).expect("north plays");
    assert_eq!(start.to_act(), ToAct::Player(north));

    for before in ["D5n", "B2e"] {
        let s = placed(&start, before);
        assert_eq!(s.to_act(), ToAct::Player(south));
        assert!(
            forces_win(&s, south, 3),
            "North on {before}: South forces a W within three turns"
        );
    }

    let level = Player::Level(Level::MAX);
    for seed in 0..3 {
        let s = north_places(&start, north, level, seed);
        assert_eq!(
            s.to_act(),
            ToAct::Player(south),
            "a placement ends the turn"
        );
        assert!(
            !forces_win(&s, south, 3),
            "level 8 (seed {seed}) placed where South forces a W within three turns"
        );
    }
}
