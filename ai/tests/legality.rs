//! Every action a player returns is legal: many games of every game (ORION's twelve at each
//! number of players they seat, Orbit, Orbs with 2 to 6 players and with partners), every
//! seat played by the random mover, a small search or `greedy`, each decision checked against
//! the game's own list (the engine's `legal_actions`, which its `step` accepts) before it is
//! played.

use orion_ai::ladder::GameSpec;
use orion_ai::{Level, Player};
use proptest::prelude::*;

/// The games and player counts to try.
fn specs() -> Vec<GameSpec> {
    let mut out = Vec::new();
    for rules in orion_engine::games::ALL {
        for p in rules.players() {
            out.push(GameSpec::Orion(*rules, p));
        }
    }
    out.push(GameSpec::Orbit);
    for p in 2..=6 {
        out.push(GameSpec::Orbs(p, false));
    }
    out.push(GameSpec::Orbs(4, true));
    out.push(GameSpec::Orbs(6, true));
    out
}

/// Random, a search at a small budget, greedy: the three kinds of decision.
fn kinds(k: u64) -> Player {
    match k % 3 {
        0 => Player::Level(Level::MIN),
        1 => Player::Level(Level::new(2).expect("level 2")),
        _ => Player::Greedy,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_decision_is_legal(seed in 0u64..1_000_000) {
        for (i, spec) in specs().iter().enumerate() {
            let seats: Vec<Player> = (0..6).map(|k| kinds(seed.wrapping_add(i as u64 + k))).collect();
            // The ladder's game loop refuses (with an error) any action not in the list.
            let played = orion_ai::ladder::play_for(spec, &seats, seed, 0.2, 60);
            prop_assert!(played.is_ok(), "{}: {:?}", spec.name(), played.err());
        }
    }
}
