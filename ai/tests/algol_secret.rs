//! Algol's secret men: a search is given its own seat's view only. Two games identical but
//! for the opponent's secret man give the same decision with the same seed, at every level;
//! and the view's guesses of that secret range over the opponent's men instead of finding it.

mod common;

use common::searchers_of;
use orion_ai::systems::orion::{OrionState, OrionView};
use orion_ai::{decide, Observe, State, View};
use orion_engine::{games, Action, Game, Options, Piece, Seat};
use rand::SeedableRng;
use std::collections::HashSet;

/// A two-player Algol, S's secret R3 and N's `north`, after `moves` (greedy's, recorded in
/// the first copy and replayed in the others, so the copies differ in N's secret alone).
fn algol(north: Piece, moves: &mut Vec<(Seat, Action)>) -> Game {
    let rules = games::find("algol").expect("algol");
    let mut g = Game::new(rules, Options::default(), 11).expect("a game");
    let r3 = g
        .position()
        .pieces()
        .map(|(_, p)| p)
        .find(|p| p.to_string() == "R3")
        .expect("R3");
    g.step(Seat::S, Action::Secret { piece: r3 }, 0)
        .expect("S chooses");
    g.step(Seat::N, Action::Secret { piece: north }, 0)
        .expect("N chooses");
    if moves.is_empty() {
        for k in 0..8 {
            let mover = g.mover();
            let view = OrionView::new(&g, mover, 0).expect("seated");
            let Some(a) = decide(orion_ai::Player::Greedy, &view, None, k) else {
                break;
            };
            g.step(mover, a, 0).expect("legal");
            moves.push((mover, a));
        }
    } else {
        for &(seat, a) in moves.iter() {
            g.step(seat, a, 0).expect("legal in the copy too");
        }
    }
    g
}

fn blue(n: u8) -> Piece {
    Piece::new(orion_engine::Colour::Blue, n).expect("a blue man")
}

#[test]
fn the_opponents_secret_does_not_change_the_decision() {
    let mut moves = Vec::new();
    let a = algol(blue(2), &mut moves);
    let b = algol(blue(7), &mut moves);
    assert_eq!(a.position(), b.position(), "the same public game");
    assert_ne!(a.secret(Seat::N), b.secret(Seat::N));
    let mover = a.mover();
    for (player, budget) in searchers_of(&OrionState::new(a.clone(), 0)) {
        for seed in 0..3 {
            let va = OrionView::new(&a, mover, 0).expect("seated");
            let vb = OrionView::new(&b, mover, 0).expect("seated");
            assert_eq!(
                decide(player, &va, budget, seed),
                decide(player, &vb, budget, seed),
                "{player} with seed {seed} read the other seat's secret"
            );
        }
    }
}

#[test]
fn a_view_guesses_the_secret_it_cannot_see() {
    let g = algol(blue(2), &mut Vec::new());
    let view = OrionState::new(g.clone(), 0).view(0);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let guesses: HashSet<Piece> = (0..60)
        .filter_map(|_| view.determinize(&mut rng).game().secret(Seat::N))
        .collect();
    assert!(guesses.len() >= 4, "guesses: {guesses:?}");
    // Its own secret it knows.
    for _ in 0..10 {
        assert_eq!(
            view.determinize(&mut rng).game().secret(Seat::S),
            g.secret(Seat::S)
        );
    }
}

#[test]
fn level_8_suspects_the_man_pushed_toward_the_edge() {
    // `greedy` (S) pushes its secret man toward the far edge from its first turn; level 8
    // (N), from the board alone, takes the man nearest his goal for the likeliest secret and
    // challenges it as soon as it can: found within its first three turns, the game won.
    let rules = games::find("algol").expect("algol");
    for seed in [2u64, 4, 6] {
        let mut g = Game::new(
            rules,
            Options {
                players: Some(2),
                ..Options::default()
            },
            seed,
        )
        .expect("a game");
        let l8 = orion_ai::Player::Level(orion_ai::Level::MAX);
        let mut found = false;
        for k in 0..24u64 {
            if g.outcome().is_some() || g.round() > 4 {
                break;
            }
            let state = OrionState::new(g.clone(), 0);
            let orion_ai::ToAct::Player(p) = state.to_act() else {
                break;
            };
            let mover = state.seat(p);
            let player = if mover == Seat::N {
                l8
            } else {
                orion_ai::Player::Greedy
            };
            let view = OrionView::new(&g, mover, 0).expect("seated");
            let a = decide(player, &view, None, seed * 100 + k).expect("a decision");
            if let (Seat::N, Action::Challenge { piece }) = (mover, a) {
                assert_eq!(
                    Some(piece),
                    g.secret(Seat::S),
                    "seed {seed}: level 8 challenged a man it had no reason to suspect"
                );
                found = true;
            }
            g.step(mover, a, 0).expect("legal");
        }
        assert!(
            found,
            "seed {seed}: level 8 did not challenge the man greedy pushed forward"
        );
        let winner = g.outcome().and_then(|o| o.winner);
        assert_eq!(
            winner,
            Some(orion_engine::Winner::Seat(Seat::N)),
            "seed {seed}"
        );
    }
}
