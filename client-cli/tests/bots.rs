//! Bots against bots through a real server (started in-process on a port-0 listener), to the
//! end of the game: Hydra for Two, Hydra for Four and Orion.

use orion_cli::autoplay::{self, BotConfig, Entry, Report};
use orion_cli::bot::Level;
use std::time::Duration;

/// A server on a free port; dropping the sender shuts it down.
async fn server() -> (String, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind port 0");
    let addr = listener.local_addr().expect("local address");
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        let _ = orion_server::run(listener, async {
            let _ = rx.await;
        })
        .await;
    });
    (format!("ws://{addr}/ws"), tx)
}

async fn play(game: &str, players: u8, levels: &[Level]) -> Vec<Report> {
    let (url, _stop) = server().await;
    let mut tasks = Vec::new();
    for (i, level) in levels.iter().enumerate() {
        let config = BotConfig {
            server: url.clone(),
            name: format!("{level}-{i}"),
            level: *level,
            entry: Entry::Quick {
                game: game.to_string(),
                players: Some(players),
            },
            seed: 11 + i as u64,
        };
        tasks.push(tokio::spawn(autoplay::run(config)));
    }
    let mut reports = Vec::new();
    for t in tasks {
        let r = tokio::time::timeout(Duration::from_secs(40), t)
            .await
            .expect("the game ends in time")
            .expect("the bot task does not panic")
            .expect("the bot plays to the end");
        reports.push(r);
    }
    reports
}

fn one_room_one_winner(reports: &[Report]) {
    let room = &reports[0].room;
    assert!(
        reports.iter().all(|r| &r.room == room),
        "all bots in one room"
    );
    let winner = &reports[0].winner;
    assert!(
        reports.iter().all(|r| &r.winner == winner),
        "all bots saw the same end"
    );
    for r in reports {
        println!("{}", r.line());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hydra_for_two_greedy_beats_random_through_the_server() {
    let reports = play("hydra-2", 2, &[Level::Greedy, Level::Random]).await;
    one_room_one_winner(&reports);
    assert!(reports[0].won(), "greedy wins: {}", reports[0].line());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hydra_for_four_four_bots_play_to_the_end() {
    let reports = play(
        "hydra-4",
        4,
        &[Level::Greedy, Level::Greedy, Level::Greedy, Level::Random],
    )
    .await;
    one_room_one_winner(&reports);
    assert!(reports[0].winner.is_some(), "someone wins Hydra for Four");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn orion_two_bots_play_to_the_end() {
    let reports = play("orion", 2, &[Level::Greedy, Level::Random]).await;
    one_room_one_winner(&reports);
}
