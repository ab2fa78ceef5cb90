//! `--bot-cpus`: the real `orion-server` gives its computer players the CPUs named and keeps
//! everything else (the rooms' runtime, the store's threads) off them, as the operator reads
//! it in `/proc`; a list that is not the process's to give, or leaves the rooms none, is
//! refused at start, saying why.

use orion_server::CpuRange;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_orion-server");

/// The CPUs a `Cpus_allowed_list` line names (`0-1,3`: the list `--bot-cpus` takes).
fn cpus(list: &str) -> Vec<usize> {
    let ranges: Vec<CpuRange> = (list.trim().split(',').filter(|p| !p.is_empty()))
        .map(|p| p.parse().expect("a CPU range"))
        .collect();
    CpuRange::expand(&ranges)
}

/// This process's CPUs, as the server started from it inherits them.
fn ours() -> Vec<usize> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .unwrap();
    cpus(line)
}

/// Each thread of `pid`: its name and the CPUs it may run on.
fn threads(pid: u32) -> Vec<(String, Vec<usize>)> {
    let mut out = Vec::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).unwrap() {
        let dir = task.unwrap().path();
        let name = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
        let status = std::fs::read_to_string(dir.join("status")).unwrap_or_default();
        if let Some(list) = status
            .lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        {
            out.push((name.trim().to_owned(), cpus(list)));
        }
    }
    out
}

/// The server started with `args`, once it listens.
fn start(args: &[&str]) -> Child {
    let mut child = Command::new(BIN)
        .args([
            "--listen",
            "127.0.0.1:0",
            "--store",
            ":memory:",
            "--log",
            "warn",
        ])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("run orion-server");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("play at"), "did not start: {line:?}");
    child
}

#[test]
fn the_computer_players_think_on_their_cpus_and_nothing_else_runs_there() {
    let mine = ours();
    assert!(
        mine.len() >= 2,
        "this test needs two CPUs to give one to the bots; it has {mine:?}"
    );
    let bot = *mine.last().unwrap();
    let mut server = start(&["--bot-cpus", &bot.to_string(), "--bot-threads", "2"]);
    // The bots' threads start with the server's shared state, just after the line it prints,
    // and move themselves.
    let mut seen = threads(server.id());
    for _ in 0..100 {
        let moved = (seen.iter())
            .filter(|(n, on)| n.starts_with("orion-bot") && on == &[bot])
            .count();
        if moved == 2 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        seen = threads(server.id());
    }
    let _ = server.kill();
    let _ = server.wait();
    let bots: Vec<_> = seen
        .iter()
        .filter(|(n, _)| n.starts_with("orion-bot"))
        .collect();
    assert_eq!(bots.len(), 2, "two bot threads: {seen:?}");
    for (name, on) in &bots {
        assert_eq!(on, &[bot], "{name} thinks on CPU {bot} alone: {seen:?}");
    }
    let rest: Vec<_> = seen
        .iter()
        .filter(|(n, _)| !n.starts_with("orion-bot"))
        .collect();
    assert!(
        rest.iter().any(|(n, _)| n.starts_with("tokio-rt-worker")),
        "{seen:?}"
    );
    for (name, on) in &rest {
        assert!(
            !on.contains(&bot),
            "{name} keeps off the bots' CPU {bot}: {seen:?}"
        );
    }
}

#[test]
fn a_cpu_list_the_server_cannot_use_is_refused_saying_why() {
    let mine = ours();
    let all = mine
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let foreign = (0..).find(|c| !mine.contains(c)).unwrap().to_string();
    for (list, says) in [
        (all.as_str(), "leaves no CPU for the rooms"),
        (foreign.as_str(), "may not run on"),
        ("3-1", "from the lower CPU to the higher"),
    ] {
        let out = Command::new(BIN)
            .args([
                "--listen",
                "127.0.0.1:0",
                "--store",
                ":memory:",
                "--bot-cpus",
                list,
            ])
            .stdin(Stdio::null())
            .output()
            .expect("run orion-server");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--bot-cpus {list}: {err}");
        assert!(err.contains(says), "--bot-cpus {list}: {err}");
    }
}
