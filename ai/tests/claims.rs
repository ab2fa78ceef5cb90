//! A chain made for a player by someone else's click is claimed: every level that searches,
//! and `greedy`, answers with `claim` when it sees one, though the turn is not its own. The
//! position: N turns a rotor that carries S's man into the last gap of S's column.

mod common;

use common::{decision, game_at, searchers_of, state};
use orion_ai::{State, ToAct};
use orion_engine::{Action, Seat};

#[test]
fn a_chain_made_by_a_rival_is_claimed() {
    let base = "C1w:R1 C2w:R2 C3n:R3 C4w:R4 C5w:R5 A5n:B1";
    let s_game = game_at("hydra-2", None, base, Seat::S, 5);
    // The click that would complete S's column; N owns a man on the same rotor.
    let click = s_game
        .legal_actions(Seat::S, 0)
        .into_iter()
        .find_map(|a| {
            let Action::Click { click, .. } = a else {
                return None;
            };
            let mut g = s_game.clone();
            g.step(Seat::S, a, 0).ok()?;
            g.outcome().is_some().then_some(click)
        })
        .expect("S has a winning click");
    let rotor = click.rotor;
    let free = rotor
        .orbit_set()
        .into_iter()
        .find(|s| s_game.position().get(*s).is_none())
        .expect("a free slot on the rotor");
    let mut game = game_at("hydra-2", None, &format!("{base} {free}:B2"), Seat::N, 5);
    game.step(Seat::N, Action::Click { click, piece: None }, 0)
        .expect("N turns the rotor");
    assert!(game.outcome().is_none(), "the chain waits for S's claim");
    let s = state(game.clone());
    assert_eq!(s.to_act(), ToAct::Player(0));
    for (player, budget) in searchers_of(&s) {
        assert_eq!(
            decision(&game, Seat::S, player, budget, 3),
            Some(Action::Claim),
            "{player} did not claim"
        );
    }
    // N, whose turn it is, has no decision while S's claim is open.
    for (player, budget) in searchers_of(&s) {
        assert_eq!(
            decision(&game, Seat::N, player, budget, 3),
            None,
            "{player}"
        );
    }
}
