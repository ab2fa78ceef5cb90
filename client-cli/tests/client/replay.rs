//! `orion replay FILE`, run as the binary on a record the server exported: two bots play a
//! Hydra for Two to the end, its `/g/ROOM.txt` is saved to a file and replayed; the output is
//! one line with the final position and result (`--turns` adds a line per turn), and a
//! tampered or foreign file gets a one-line error on stderr with exit status 2.

use crate::common::binary::orion;
use orion_cli::autoplay::{self, BotConfig, Entry};
use orion_cli::bot::Level;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A finished game's record from a real server, and the room's last position and winner as
/// the bots saw them.
async fn exported_game() -> (String, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(orion_server::run(listener, async {
        let _ = rx.await;
    }));
    let bots: Vec<_> = [Level::Greedy, Level::Random]
        .into_iter()
        .enumerate()
        .map(|(i, level)| {
            tokio::spawn(autoplay::run(BotConfig {
                server: format!("ws://{addr}/ws"),
                name: format!("bot{i}"),
                level,
                entry: Entry::Quick {
                    game: "hydra-2".into(),
                    players: Some(2),
                },
                seed: 7 + i as u64,
            }))
        })
        .collect();
    let mut report = None;
    for b in bots {
        report = Some(b.await.unwrap().expect("the bot plays to the end"));
    }
    let report = report.unwrap();
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("GET /g/{}.txt HTTP/1.1\r\nhost: test\r\n\r\n", report.room);
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let _ = stop.send(());
    let _ = server.await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    let body = response.split_once("\r\n\r\n").unwrap().1.to_string();
    (body, report.winner.unwrap_or_default())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exported_game_replays_from_its_file() {
    let (record, winner) = exported_game().await;
    let dir = std::env::temp_dir().join(format!("orion-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    std::fs::write(&file, &record).unwrap();
    let path = file.to_string_lossy().to_string();

    let o = orion(&["replay", &path]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(out.trim_end().lines().count(), 1, "{out}");
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(line["game"], "hydra-2");
    assert!(
        line["result"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{winner} wins")),
        "{line}"
    );
    let last = record.lines().rev().find(|l| l.ends_with(']')).unwrap();
    let last_position = &last[last.rfind('[').unwrap() + 1..last.len() - 1];
    assert_eq!(line["position"], last_position);
    let turns = line["turns"].as_u64().unwrap();

    let o = orion(&["replay", "--turns", &path]);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(out.lines().count() as u64, turns + 1, "{out}");
    assert!(out.starts_with("1. S: "), "{out}");

    // A changed click no longer reaches the recorded position: refused, with the turn named.
    let first = record.lines().find(|l| l.starts_with("1. S: ")).unwrap();
    let click = &first[6..9];
    let flipped = if click.ends_with('R') {
        click.replace('R', "L")
    } else {
        click.replace('L', "R")
    };
    let tampered = record.replacen(first, &first.replacen(click, &flipped, 1), 1);
    std::fs::write(&file, tampered).unwrap();
    let o = orion(&["replay", &path]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("turn 1"), "{err}");

    std::fs::write(&file, "hello\n").unwrap();
    let o = orion(&["replay", &path]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not an Orion Online game record"));
    let o = orion(&["replay", "/nonexistent/game.txt"]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}
