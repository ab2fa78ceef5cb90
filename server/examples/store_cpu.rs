//! The durable store's CPU time per appended row in the steady state of a busy server:
//! 1,000 rooms in play, each group commit holding the few that clicked meanwhile, with the
//! journal's moves to `log` and its pruning running as they do under load. CPU time (user +
//! system, every thread of the process) rather than wall time, as the shared VM's steal
//! moves wall time far more; compare builds by running this on each, alternately.
//!
//! `cargo run --release -p orion-server --example store_cpu -- [rows per commit] [warm-up
//! rows] [measured rows]` (defaults 8, 80,000 and 160,000).

use orion_server::{Append, Commit, SqliteStore, Store};
use std::sync::Arc;
use std::time::Instant;

/// A click event of the size the server stores (the whole position string included).
fn click_event(seq: u64) -> String {
    let position: String = (0..40)
        .map(|i| format!("A{}e:R{} ", i % 5 + 1, i % 20 + 1))
        .collect();
    format!(r#"{{"kind":"click","seat":"S","click":"C3R","position":"{position}","n":{seq}}}"#)
}

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
    let store = SqliteStore::open(path.to_str().expect("utf-8 path")).expect("store");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let rooms = 1000;
    let ids: Vec<Arc<str>> = (0..rooms).map(|r| Arc::from(format!("r{r:08x}"))).collect();
    let mut appended = vec![0u64; rooms];
    let mut next = 0;
    let mut run = |count: usize| {
        for _ in 0..count / together {
            let commits: Vec<Commit> = (0..together)
                .map(|_| {
                    let r = next % rooms;
                    next += 1;
                    appended[r] += 1;
                    let n = appended[r];
                    store.append(Append {
                        room: ids[r].clone(),
                        n,
                        action: None,
                        events: vec![(n, click_event(n))],
                        seq: n,
                    })
                })
                .collect();
            runtime.block_on(async {
                for commit in commits {
                    commit.wait().await.expect("stored");
                }
            });
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
