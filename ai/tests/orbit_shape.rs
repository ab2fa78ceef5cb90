//! Orbit's first drops: with nothing yet enclosed every drop gains the same territory, and the
//! evaluation's shape terms (near the centre, few groups) must still tell them apart, or a
//! search plays whichever drop it tries first and loses to the random mover.

use orion_ai::systems::orbit::OrbitState;
use orion_ai::{decide, Observe, Player, State, ToAct};
use orion_orbit::{Game, Move, Stone};

/// A board with two stones each near the centre, black to drop.
fn early() -> OrbitState {
    let board = orion_orbit::parse_position("g7:B j10:B g10:W j7:W").expect("a board");
    OrbitState::new(Game::from_board(board, Stone::Black).expect("a game"))
}

#[test]
fn early_drops_go_near_the_centre() {
    let s = early();
    assert_eq!(s.to_act(), ToAct::Player(0));
    for level in [2u8, 3, 4] {
        let player: Player = format!("L{level}").parse().expect("a level");
        let mv = decide(player, &s.view(0), None, 1).expect("a move");
        let Move::Drop(cell) = mv else {
            panic!("{player} played {mv:?}, not a drop");
        };
        let off = |x: u8| (f64::from(x) - 7.5).abs();
        let distance = off(cell.column()).max(off(cell.row()));
        assert!(
            distance <= 4.5,
            "{player} dropped on {cell:?}, far from the centre"
        );
    }
}
