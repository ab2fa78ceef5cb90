//! The durable store's CPU time per appended row in the steady state of a busy server:
//! 1,000 rooms in play, each group commit holding the few that clicked meanwhile, with the
//! journal's moves to `log` and its pruning running as they do under load. CPU time (user +
//! system, every thread of the process) rather than wall time, as the shared VM's steal
//! moves wall time far more; compare builds by running this on each, alternately.
//!
//! `cargo run --release -p orion-server --example store_cpu -- [rows per commit] [warm-up
//! rows] [measured rows] [store]` (defaults 8, 80,000, 160,000 and a fresh SQLite file; a
//! `postgres://…` URL measures that database instead, whose own processes' CPU is not counted
//! here: read it from the server's side).

#[path = "../benches/workload/mod.rs"]
mod workload;

use orion_server::{PostgresStore, SqliteStore, Store};
use std::time::Instant;
use workload::Spread;

/// CPU time used so far by the whole process, in microseconds.
fn cpu_us() -> f64 {
    // SAFETY: getrusage only writes the struct it is given, which is zeroed and ours.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let us = |t: libc::timeval| t.tv_sec as f64 * 1e6 + t.tv_usec as f64;
    us(usage.ru_utime) + us(usage.ru_stime)
}

fn main() {
    let arg = |i: usize, default: usize| {
        std::env::args()
            .nth(i)
            .map_or(default, |a| a.parse().expect("a count"))
    };
    let (together, warm, rows) = (arg(1, 8).max(1), arg(2, 80_000), arg(3, 160_000));
    let path = std::env::temp_dir().join(format!("orion-store-cpu-{}.db", std::process::id()));
    let url = std::env::args().nth(4);
    let store: Box<dyn Store> = match &url {
        Some(url) => Box::new(PostgresStore::connect(url).expect("PostgreSQL store")),
        None => Box::new(SqliteStore::open(path.to_str().expect("utf-8 path")).expect("store")),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    // A database outlives the run: its rooms get ids no earlier run used.
    let tag = url
        .as_ref()
        .map_or(String::new(), |_| format!("{}-", std::process::id()));
    let mut spread = Spread::new(&tag, 1000);
    let mut run = |count: usize| {
        for _ in 0..count / together {
            spread.commit(&*store, &runtime, together);
        }
    };
    run(warm);
    let (cpu, wall) = (cpu_us(), Instant::now());
    run(rows);
    let (cpu, wall) = (cpu_us() - cpu, wall.elapsed());
    println!(
        "{together} rows per commit: {:.1} µs of CPU per row ({:.1} µs wall)",
        cpu / rows as f64,
        wall.as_secs_f64() * 1e6 / rows as f64
    );
    drop(store);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}
