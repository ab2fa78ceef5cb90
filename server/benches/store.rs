//! The durable store on its own, without sockets: what one group commit costs when rooms
//! append together, so store changes can be compared on CPU time rather than on end-to-end
//! latency, which the shared VM disk makes noisy.

mod workload;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use orion_server::{Commit, SqliteStore};
use workload::Spread;

fn group_commit(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("orion-store-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let mut group = c.benchmark_group("store");
    for rooms in [1u64, 64, 1000] {
        let path = dir.join(format!("b{rooms}.db"));
        let _ = std::fs::remove_file(&path);
        let store = SqliteStore::open(path.to_str().expect("utf-8 path")).expect("store");
        let ids = workload::room_ids(rooms as usize);
        let mut n = 0u64;
        group.throughput(Throughput::Elements(rooms));
        group.bench_with_input(
            BenchmarkId::new("append_rooms_together", rooms),
            &rooms,
            |b, _| {
                b.iter(|| {
                    n += 1;
                    // Every room queues one append before any is awaited: one group commit.
                    let commits: Vec<Commit> = ids
                        .iter()
                        .map(|room| workload::append(&store, room, n))
                        .collect();
                    workload::wait_all(&runtime, commits);
                })
            },
        );
    }
    // A busy server: 1,000 rooms in play, each commit holding the 8 that clicked meanwhile.
    // This is the steady state of the load test at ~8,000 clicks/s, moves to `log` and the
    // journal's pruning included, per row.
    let (rooms, together) = (1000usize, 8usize);
    let path = dir.join("spread.db");
    let store = SqliteStore::open(path.to_str().expect("utf-8 path")).expect("store");
    let mut spread = Spread::new(rooms);
    group.throughput(Throughput::Elements(together as u64));
    group.bench_function(BenchmarkId::new("append_spread", "1000x8"), |b| {
        b.iter(|| spread.commit(&store, &runtime, together))
    });
    group.finish();
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, group_commit);
criterion_main!(benches);
