//! The durable store on its own, without sockets: what one group commit costs when rooms
//! append together, so store changes can be compared on CPU time rather than on end-to-end
//! latency, which the shared VM disk makes noisy. With `ORION_BENCH_PG=postgres://…` set, the
//! same cases also run on that PostgreSQL database (named `pg_…`; their rooms are new rows in
//! it each run).

mod workload;

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use orion_server::{Commit, PostgresStore, SqliteStore, Store};
use workload::Spread;

fn group_commit(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("orion-store-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let mut group = c.benchmark_group("store");
    cases(&mut group, "", "", &runtime, &|name| {
        let path = dir.join(format!("{name}.db"));
        let _ = std::fs::remove_file(&path);
        Box::new(SqliteStore::open(path.to_str().expect("utf-8 path")).expect("store"))
    });
    if let Ok(url) = std::env::var("ORION_BENCH_PG") {
        // Room ids no earlier run used, as the database outlives the run.
        let run = format!("{}-", std::process::id());
        cases(&mut group, "pg_", &run, &runtime, &|_| {
            Box::new(PostgresStore::connect(&url).expect("PostgreSQL store"))
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every case, each on a store `open` makes for it (given the case's name), the cases'
/// names prefixed with `label`, their room ids with `run`.
fn cases(
    group: &mut BenchmarkGroup<WallTime>,
    label: &str,
    run: &str,
    runtime: &tokio::runtime::Runtime,
    open: &dyn Fn(&str) -> Box<dyn Store>,
) {
    for rooms in [1u64, 64, 1000] {
        let store = open(&format!("b{rooms}"));
        let ids = workload::room_ids(&format!("{run}b{rooms}-"), rooms as usize);
        let mut n = 0u64;
        group.throughput(Throughput::Elements(rooms));
        group.bench_with_input(
            BenchmarkId::new(format!("{label}append_rooms_together"), rooms),
            &rooms,
            |b, _| {
                b.iter(|| {
                    n += 1;
                    // Every room queues one append before any is awaited: one group commit.
                    let commits: Vec<Commit> = ids
                        .iter()
                        .map(|room| workload::append(&*store, room, n))
                        .collect();
                    workload::wait_all(runtime, commits);
                })
            },
        );
    }
    // A busy server: 1,000 rooms in play, each commit holding the 8 that clicked meanwhile.
    // This is the steady state of the load test at ~8,000 clicks/s, moves to `log` and the
    // journal's pruning included, per row.
    let (rooms, together) = (1000usize, 8usize);
    let store = open("spread");
    let mut spread = Spread::new(&format!("{run}s-"), rooms);
    group.throughput(Throughput::Elements(together as u64));
    group.bench_function(
        BenchmarkId::new(format!("{label}append_spread"), "1000x8"),
        |b| b.iter(|| spread.commit(&*store, runtime, together)),
    );
}

criterion_group!(benches, group_commit);
criterion_main!(benches);
