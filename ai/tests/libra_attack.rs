//! Libra judged by the levels: level 8 brings its men up to the target slots it does not hold
//! yet, instead of keeping its own back line full against `greedy` until the round limit.

use orion_ai::systems::orion::OrionView;
use orion_ai::{decide, Level, Player};
use orion_engine::{games, parse_position, Game, Options, Seat};

/// Round 75 of a game level 8 (S) played against `greedy` (N) before the levels judged Libra
/// themselves: S holds A5n, C5n and E5n of its five targets and has held them since round 50;
/// that level 8 shuffled its men at home from here to the round limit (150).
const STUCK: &str = "A1s:R15 B1s:B3 C1s:R8 D1s:R13 A1n:R6 B1n:R12 C1n:R3 E1n:R11 D2n:R4 \
                     E2n:R14 C3n:B4 D3n:B5 E3n:B16 A4n:B11 D4n:B9 E4n:B10 A5n:R9 B5n:B12 \
                     C5n:R5 D5n:B8 E5n:R16 A5w:B6 A1e:R2 A5e:R7 B1e:R1 B5e:B7 C1e:B1 C5e:R10 \
                     D1e:B13 D5e:B2 E4e:B14 E5e:B15";

#[test]
fn level_8_takes_the_targets_it_lacks_instead_of_shuffling_at_home() {
    let rules = games::find("libra").expect("libra");
    let position = parse_position(STUCK).expect("a position");
    let mut g = Game::from_position(rules, Options::default(), 1, position, Seat::S, 75)
        .expect("a game from the position");
    let mut decision = 0u64;
    while g.outcome().is_none() && g.round() < 150 {
        let mover = g.mover();
        let player = match mover {
            Seat::S => Player::Level(Level::MAX),
            _ => Player::Greedy,
        };
        let view = OrionView::new(&g, mover, 0).expect("seated");
        let action = decide(player, &view, None, decision).expect("a decision");
        g.step(mover, action, 0).expect("a legal action");
        decision += 1;
    }
    let winner = g.outcome().and_then(|o| o.winner);
    assert_eq!(
        winner,
        Some(orion_engine::Winner::Seat(Seat::S)),
        "level 8 fills the far back line before round 150 (at round {})",
        g.round()
    );
}
