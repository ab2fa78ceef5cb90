//! Measures a server's start-up on a SQLite store holding many unfinished rooms (the
//! correspondence games that keep rooms open for days make a restart, and so a deploy's
//! downtime, as long as this): the rooms are made through a real server (a quarter waiting
//! for a second player, the rest Hydra for Two games two moves in), then each server binary
//! given is started on its own copy of that store, in turn, and timed from its start to its
//! `listening` line (every room restored) and to its first `/readyz` 200 (BENCHMARKS.md):
//! `cargo build --release -p orion-tests --bin startup-bench &&
//!  target/release/startup-bench 2000 3 target/release/orion-server`.

use orion_server::ManualClock;
use orion_tests::{http_get, play_moves, start_room, TestServer, HYDRA_TWO, T0};
use serde_json::json;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Rooms one player creates: as many as he may play live at once.
const ROOMS_PER_CREATOR: usize = 8;
/// Of those, rooms left waiting for a second player; the rest are started and played into.
const WAITING_PER_CREATOR: usize = 2;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: startup-bench ROOMS RUNS SERVER...";
    let rooms: usize = args
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| anyhow::anyhow!(usage))?;
    let runs: usize = args
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| anyhow::anyhow!(usage))?;
    let servers: Vec<String> = args.collect();
    anyhow::ensure!(!servers.is_empty(), usage);
    let dir = std::env::temp_dir().join(format!("orion-startup-bench-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("made"))?;
    let made = dir.join("made").join("orion.db");
    let making = Instant::now();
    let unfinished = make_rooms(&made, rooms).await;
    println!(
        "{unfinished} unfinished rooms made in {:.1} s",
        making.elapsed().as_secs_f64()
    );
    let mut times: Vec<Vec<(f64, f64)>> = vec![Vec::new(); servers.len()];
    for run in 0..runs {
        for (i, server) in servers.iter().enumerate() {
            let copy = dir.join(format!("run-{run}-{i}"));
            copy_store(&made, &copy)?;
            let (listening, ready, restored) = time_start(server, &copy.join("orion.db")).await?;
            println!(
                "run {run} {server}: {restored} rooms restored, listening after {listening:.2} s, /readyz 200 after {ready:.2} s"
            );
            times[i].push((listening, ready));
            std::fs::remove_dir_all(&copy)?;
        }
    }
    for (server, mut t) in servers.iter().zip(times) {
        t.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (listening, ready) = t[t.len() / 2];
        println!(
            "{server}: {unfinished} unfinished rooms, median of {runs}: listening after {listening:.2} s, /readyz 200 after {ready:.2} s"
        );
    }
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}

/// Makes about `rooms` unfinished rooms in a SQLite store at `db` through a real server, shut
/// down gracefully after; returns how many.
async fn make_rooms(db: &Path, rooms: usize) -> usize {
    let server = TestServer::start_on(&db.to_string_lossy(), Arc::new(ManualClock::new(T0)));
    let mut made = 0;
    let mut pair = 0;
    while made < rooms {
        let mut players = vec![
            server.player(&format!("south{pair}")).await,
            server.player(&format!("north{pair}")).await,
        ];
        for i in 0..ROOMS_PER_CREATOR.min(rooms - made) {
            if i < WAITING_PER_CREATOR {
                let joined = players[0]
                    .request(json!({"t": "create", "game": "hydra-2"}))
                    .await;
                assert_eq!(joined["t"], "joined", "{joined}");
            } else {
                let room = start_room(&mut players, "hydra-2", json!({})).await;
                let [s, n] = &mut players[..] else {
                    unreachable!("two players")
                };
                play_moves(s, n, &room, &HYDRA_TWO[..2], false).await;
            }
            made += 1;
        }
        pair += 1;
    }
    server.shutdown();
    made
}

/// Copies the store at `db` (the database and its commit log's segments) into a fresh `to`.
fn copy_store(db: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    let from = db.parent().unwrap_or(Path::new("."));
    for entry in std::fs::read_dir(from)? {
        let path = entry?.path();
        if let Some(name) = path.file_name() {
            std::fs::copy(&path, to.join(name))?;
        }
    }
    Ok(())
}

/// Starts `server` on the store at `db` and times it, in seconds from the start: to its
/// `listening` line, and to its first `/readyz` 200, and the rooms that line says it restored;
/// then kills it.
async fn time_start(server: &str, db: &PathBuf) -> anyhow::Result<(f64, f64, String)> {
    let started = Instant::now();
    let mut child = std::process::Command::new(server)
        .args(["--listen", "127.0.0.1:0", "--log", "info", "--store"])
        .arg(db)
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()?;
    let out = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let mut lines = out.lines();
    let mut found = None;
    for line in lines.by_ref() {
        let line = line?;
        if line.contains("listening") {
            found = Some((started.elapsed(), line));
            break;
        }
    }
    // The rest of its log read until it ends, so that it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    let Some((listening, line)) = found else {
        let _ = child.kill();
        let _ = child.wait();
        anyhow::bail!("{server} ended before listening");
    };
    let port: u16 = line
        .split("127.0.0.1:")
        .nth(1)
        .map(|rest| {
            rest.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|p| p.parse().ok())
        .ok_or_else(|| anyhow::anyhow!("no address in {line}"))?;
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let ready = loop {
        if http_get(addr, "/readyz").await.starts_with("HTTP/1.1 200") {
            break started.elapsed();
        }
        anyhow::ensure!(
            started.elapsed() < Duration::from_secs(3_600),
            "never ready"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    let _ = child.kill();
    let _ = child.wait();
    let restored = line
        .split("rooms=")
        .nth(1)
        .map(|rest| rest.chars().take_while(char::is_ascii_digit).collect())
        .unwrap_or_default();
    Ok((listening.as_secs_f64(), ready.as_secs_f64(), restored))
}
