//! One think per level in two games (Hydra for Two, Orbs), from a position a few moves in:
//! what each level costs a turn. `cargo bench -p orion-ai`.

use criterion::{criterion_group, criterion_main, Criterion};
use orion_ai::systems::{orbs::OrbsState, orion::OrionState};
use orion_ai::{decide, Level, Observe, Player, ToAct};

/// A Hydra for Two a few actions in.
fn hydra() -> OrionState {
    let rules = orion_engine::games::find("hydra-2").expect("hydra-2");
    let game = orion_engine::Game::new(rules, orion_engine::Options::default(), 7).expect("game");
    advance(OrionState::new(game, 0), 6)
}

/// A two-player Orbs a few moves in.
fn orbs() -> OrbsState {
    let game = orion_orbs::Game::new(orion_orbs::Options::default()).expect("game");
    advance(OrbsState::new(game), 6)
}

/// `n` decisions of greedy.
fn advance<S: Observe>(mut state: S, n: usize) -> S {
    for k in 0..n {
        match state.to_act() {
            ToAct::Player(p) => {
                if let Some(a) = decide(Player::Greedy, &state.view(p), None, k as u64) {
                    state.apply(a);
                }
            }
            ToAct::Chance => {
                let mut odds = Vec::new();
                state.chance_outcomes(&mut odds);
                if let Some(&(c, _)) = odds.first() {
                    state.apply_chance(c);
                }
            }
            ToAct::Over => break,
        }
    }
    state
}

fn think<S: Observe>(c: &mut Criterion, name: &str, state: &S) {
    let ToAct::Player(p) = state.to_act() else {
        return;
    };
    let view = state.view(p);
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    for level in Level::all() {
        group.bench_function(format!("level {level}"), |b| {
            b.iter(|| decide(Player::Level(level), &view, None, 1))
        });
    }
    group.bench_function("greedy", |b| {
        b.iter(|| decide(Player::Greedy, &view, None, 1))
    });
    group.finish();
}

fn bench(c: &mut Criterion) {
    think(c, "think hydra-2", &hydra());
    think(c, "think orbs-2", &orbs());
}

criterion_group!(benches, bench);
criterion_main!(benches);
