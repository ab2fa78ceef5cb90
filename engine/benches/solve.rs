//! Criterion benchmarks of the puzzle solvers: bidirectional search (Aquila, Binary Star 3),
//! IDA* with the pattern bounds (Aurora B), the Orbit Solitaire A table, the Orbit B pattern
//! databases and an IDA* solve of a 13-click shuffle, and permutation ranking. The Orbit B
//! census is a command, not a bench: `orion solve orbit-b --census` (BENCHMARKS.md).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use orion_engine::puzzles;
use orion_engine::solve::{self, rank, unrank, OrbitSpace, PatternDb};
use orion_engine::{parse_moves, Position};

fn orbit_b_from(scramble: &str) -> puzzles::Puzzle {
    let p = puzzles::find("orbit-b").expect("orbit-b");
    let mut start: Position = *p.finish.position();
    start.play(&parse_moves(scramble).expect("scramble"));
    p.with_start(start).expect("same pieces")
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve");
    g.sample_size(10);
    for name in ["aquila", "binary-3", "aurora-b", "orbit-a"] {
        let p = puzzles::find(name).expect("puzzle");
        g.bench_function(name, |b| b.iter(|| solve::solve(black_box(&p))));
    }
    let p = puzzles::find("orbit-b").expect("orbit-b");
    let space = OrbitSpace::new(&p).expect("space");
    g.bench_function("orbit-b pattern databases (2 x 665,280)", |b| {
        b.iter(|| PatternDb::for_space(black_box(&space)))
    });
    let db = PatternDb::for_space(&space);
    let q = orbit_b_from("A1R, B1R, A2L, B2R, A1R, B1L, A2R, B2R, A1L, B1R, A2R, B2L, A1R");
    let shuffled = OrbitSpace::new(&q).expect("space");
    g.bench_function("orbit-b IDA* (13-click shuffle)", |b| {
        b.iter(|| shuffled.solve_with(black_box(&db)))
    });
    g.finish();

    c.bench_function("rank + unrank 12 places", |b| {
        let mut arr = [0u8; 12];
        let mut r = 123_456_789u32;
        b.iter(|| {
            unrank(black_box(r), &mut arr);
            r = rank(&arr) ^ 1;
        })
    });
}

criterion_group!(solver, benches);
criterion_main!(solver);
