//! Criterion benchmarks of the engine's hot paths: one click, the legality of one click, chain
//! detection for every seat, Orion capture evaluation, and enumerating every legal 3-click
//! move from the Hydra start. Figures and the command are in BENCHMARKS.md.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use orion_engine::{
    evaluate_fences, games, has_chain, moves, parse_click, parse_position, Action, Colour, Game,
    MoveState, Options, Seat,
};

fn hydra_start() -> Game {
    Game::new(games::find("hydra-2").unwrap(), Options::default(), 1).unwrap()
}

fn benches(c: &mut Criterion) {
    let start = *hydra_start().position();
    let click = parse_click("C2R").unwrap();

    c.bench_function("click apply", |b| {
        let mut p = start;
        b.iter(|| {
            p.click(black_box(click));
        })
    });

    c.bench_function("click legality", |b| {
        let own = start.of(Colour::Red);
        let state = MoveState::new(3, own);
        b.iter(|| {
            black_box(state)
                .check(black_box(own), black_box(click))
                .is_ok()
        })
    });

    // A Hydra for Four position where every colour touches both its edges, so each check
    // floods: red holds the booklet's serpentine chain, the others are broken.
    let busy = parse_position(
        "A1e:R1 A2e:R2 B2e:R3 C2e:R4 C1n:R5 B2n:R6 D2n:R7 D3e:R8 D3n:R9 C4e:R10 C4n:R11 B5e:R12 \
         A1n:G1 B1n:G2 B1e:G3 D1n:G4 E1n:G5 A4n:G6 B4n:G7 A3e:G8 \
         D5e:B1 D4e:B2 D1e:B3 E2n:B4 E3n:B5 \
         E4n:Y1 A5n:Y2 A5w:Y3 E5e:Y4 E2e:Y5 A2w:Y6 B3n:Y7",
    )
    .unwrap();
    c.bench_function("chain check, every seat", |b| {
        b.iter(|| {
            let p = black_box(&busy);
            Seat::ALL
                .iter()
                .filter(|s| has_chain(p.of(s.colour()), s.edge()))
                .count()
        })
    });

    let fenced = parse_position(
        "A3n:R1 B3n:R2 B3e:R3 C2n:R4 D2n:R5 E2n:R6 C4n:R7 C4e:R8 D4n:R9 \
         A1s:B1 E5n:B2 C3n:B3 D1n:G1 B5n:Y1",
    )
    .unwrap();
    c.bench_function("orion capture evaluation", |b| {
        b.iter(|| evaluate_fences(black_box(&fenced), Colour::Red))
    });

    // One click through the whole game driver: rules, chain checks for every seat, events.
    let game = hydra_start();
    c.bench_function("game step: one click (Hydra for Two)", |b| {
        let mut events = Vec::with_capacity(8);
        b.iter_batched_ref(
            || game.clone(),
            |g| {
                events.clear();
                g.step_into(
                    Seat::S,
                    Action::Click { click, piece: None },
                    0,
                    &mut events,
                )
                .is_ok()
            },
            BatchSize::SmallInput,
        )
    });

    c.bench_function("all legal 3-click moves from the Hydra start", |b| {
        b.iter(|| moves(black_box(&start), Colour::Red, 3, None).len())
    });
}

criterion_group!(engine, benches);
criterion_main!(engine);
