//! Measures failover on this machine: a room is made on a node that is then `kill -9`ed,
//! and its player, reconnected to the surviving node, sends `resume` every 50 ms until the
//! room answers. Prints each kill's time and the summary (BENCHMARKS.md):
//! `cargo build -p orion-tests --bins && target/debug/failover-bench 20`.
//! Runs its own PostgreSQL and nats-server, like the tests.

use orion_tests::cluster::{resume_once, ClusterNode};
use orion_tests::nats::Nats;
use orion_tests::pg::Postgres;
use serde_json::json;
use std::time::{Duration, Instant};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let kills: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    let exe = std::env::current_exe()?;
    let bin = exe
        .parent()
        .map(|d| d.join("orion-node"))
        .ok_or_else(|| anyhow::anyhow!("no directory for {exe:?}"))?;
    let bin = bin.to_string_lossy().to_string();
    let pg = Postgres::start();
    let nats = Nats::start();
    let survivor = ClusterNode::start(&bin, &pg.url(), &nats.url(), "survivor");
    let mut times = Vec::new();
    for i in 0..kills {
        let mut victim = ClusterNode::start(&bin, &pg.url(), &nats.url(), &format!("v{i}"));
        let mut p = victim.player("p").await;
        let made = p.request(json!({"t": "create", "game": "hydra-2"})).await;
        let room = made["room"].as_str().unwrap_or_default().to_string();
        // A renewal or two, so the kill lands anywhere in the renewal period.
        tokio::time::sleep(Duration::from_millis(1_000 + 97 * i as u64 % 1_000)).await;
        let killed = Instant::now();
        victim.kill();
        let mut back = survivor.reconnect("p", &p.token).await;
        loop {
            let reply = resume_once(&mut back, &room, 0).await;
            if reply["t"] != "error" {
                break;
            }
            anyhow::ensure!(killed.elapsed() < Duration::from_secs(30), "no takeover");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let took = killed.elapsed();
        println!("kill {i}: room back after {:.2} s", took.as_secs_f64());
        times.push(took.as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    println!(
        "failover over {kills} kills: min {:.2} s, median {median:.2} s, max {:.2} s",
        times[0],
        times[times.len() - 1]
    );
    Ok(())
}
