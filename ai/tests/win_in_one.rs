//! Every level that searches, and `greedy`, takes a win in one whenever there is one: a table
//! of positions from several games (Hydra for two, four and partners, Algol, Orbit, Orbs),
//! each with one action that ends the game in the player's favour among many that do not.

mod common;

use common::{decision, game_at, searchers_of, state};
use orion_ai::systems::{orbit::OrbitState, orbs::OrbsState};
use orion_ai::{decide, Observe, State, ToAct};
use orion_engine::{Action, Click, Colour, Edge, Game, Piece, Position, Seat, Slot};

/// Plays `player`'s decision for `seat` in `game` and says whether `seat` won by it.
fn wins_orion(game: &Game, seat: Seat) {
    let s = state(game.clone());
    let me = s.player_of(seat).expect("seated");
    for (player, budget) in searchers_of(&s) {
        for seed in 0..3 {
            let action = decision(game, seat, player, budget, seed).expect("a decision");
            let mut after = s.clone();
            after.apply(action);
            assert_eq!(after.to_act(), ToAct::Over, "{player} played {action}");
            assert_eq!(
                after.returns()[me],
                1.0,
                "{player} played {action} and did not win"
            );
        }
    }
}

#[test]
fn hydra_for_two_completes_the_chain() {
    // One click of C3 brings R3 into the column C1w..C5w.
    let g = game_at(
        "hydra-2",
        None,
        "C1w:R1 C2w:R2 C3n:R3 C4w:R4 C5w:R5 A5n:B1 E5n:B2",
        Seat::S,
        5,
    );
    wins_orion(&g, Seat::S);
}

#[test]
fn hydra_for_four_and_partners_complete_the_chain() {
    let pos = "C1w:R1 C2w:R2 C3n:R3 C4w:R4 C5w:R5 A5n:B1 E1s:G1 A2w:Y1";
    for id in ["hydra-4", "hydra-partners"] {
        let mut g = game_at(id, Some(4), pos, Seat::S, 5);
        // These games open each turn with the die or three: take three, then win.
        if g.legal_actions(Seat::S, 0).contains(&Action::Three) {
            g.step(Seat::S, Action::Three, 0).expect("three clicks");
        }
        wins_orion(&g, Seat::S);
    }
}

#[test]
fn algol_carries_the_secret_man_across() {
    // A slot one click from the top edge (N's), not touching it yet.
    let top = Edge::Top.touching();
    let (from, _) = Slot::ALL
        .iter()
        .filter(|s| !top.contains(**s) && !Edge::Bottom.touching().contains(**s))
        .find_map(|&s| {
            Click::ALL
                .iter()
                .find(|c| c.destination(s).is_some_and(|d| top.contains(d)))
                .map(|&c| (s, c))
        })
        .expect("a slot next to the top edge");
    let mut p = Position::empty();
    let r1 = Piece::new(Colour::Red, 1).expect("R1");
    let r2 = Piece::new(Colour::Red, 2).expect("R2");
    let b1 = Piece::new(Colour::Blue, 1).expect("B1");
    p.put(from, r1);
    p.put(Slot::ALL[0], r2);
    p.put(Slot::ALL[59], b1);
    let text = orion_engine::position_string(&p);
    let mut g = game_at("algol", None, &text, Seat::S, 3);
    g.step(Seat::S, Action::Secret { piece: r1 }, 0)
        .expect("S's secret");
    g.step(Seat::N, Action::Secret { piece: b1 }, 0)
        .expect("N's secret");
    wins_orion(&g, Seat::S);
}

#[test]
fn orbs_burns_the_last_enemy_orb() {
    let position = "i5:RF i6:BA a1:RW".parse().expect("a position");
    let game = orion_orbs::Game::new(orion_orbs::Options {
        opening: orion_orbs::Opening::Position(Box::new(position)),
        ..orion_orbs::Options::default()
    })
    .expect("a game");
    let s = OrbsState::new(game);
    for (player, budget) in searchers_of(&s) {
        let mv = decide(player, &s.view(0), budget, 1).expect("a move");
        let mut after = s.clone();
        after.apply(mv);
        assert_eq!(after.returns()[0], 1.0, "{player} played {mv}");
    }
}

#[test]
fn orbit_passes_to_end_a_won_game() {
    // White passed; black leads by the cell its half-orbit holds: black's pass wins.
    let board = orion_orbit::parse_position("a4:B b5:B a6:B").expect("a board");
    let mut game = orion_orbit::Game::from_board(board, orion_orbit::Stone::White).expect("a game");
    game.play(orion_orbit::Move::Pass).expect("white passes");
    let s = OrbitState::new(game);
    assert_eq!(s.to_act(), ToAct::Player(0));
    for (player, budget) in searchers_of(&s) {
        let mv = decide(player, &s.view(0), budget, 1).expect("a move");
        let mut after = s.clone();
        after.apply(mv);
        assert_eq!(after.to_act(), ToAct::Over, "{player} played {mv}");
        assert_eq!(after.returns()[0], 1.0, "{player} played {mv}");
    }
}
