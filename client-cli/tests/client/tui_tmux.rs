//! The terminal UI end to end, driven in tmux: `orion play` in a detached tmux session
//! against a real server (in-process, port 0) and a greedy bot, or two of them playing a
//! correspondence game (a seek taken, a turn planned then sent); keys go in with
//! `tmux send-keys`, the screen comes back with `tmux capture-pane`.
//!
//! It needs tmux (`.ci/run` installs it when missing) and fails, never skips, without it.

use crate::common;

use common::tmux::Session;
use orion_cli::autoplay::{self, BotConfig, Entry};
use orion_cli::bot::Level;

/// A server on a free loopback port, in this process: its WebSocket URL, and what stops it
/// when dropped.
async fn serve() -> (String, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/ws", listener.local_addr().unwrap());
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(orion_server::run(listener, async {
        let _ = rx.await;
    }));
    (url, stop)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_a_turn_in_the_terminal_ui() {
    let (url, _stop) = serve().await;
    let config = std::env::temp_dir().join(format!("orion-tui-{}", std::process::id()));
    let name = format!("orion-test-{}", std::process::id());
    let command = format!(
        "env ORION_CONFIG_DIR={} {} play --server {url} --name ann",
        config.display(),
        env!("CARGO_BIN_EXE_orion")
    );
    let s = Session::start(&name, &command);
    s.wait_for("ORION ONLINE").await;
    s.line("quick hydra-2");
    s.wait_for("looking for players").await;
    let bot = tokio::spawn(autoplay::run(BotConfig {
        server: url.clone(),
        name: "robot".into(),
        level: Level::Greedy,
        entry: Entry::Quick {
            game: "hydra-2".into(),
            players: Some(2),
        },
        seed: 3,
    }));
    let screen = s.wait_for("YOUR TURN").await;
    assert!(screen.contains("Hydra for Two"), "{screen}");
    assert!(
        screen.contains("R16") && screen.contains("B16"),
        "the pieces are drawn:\n{screen}"
    );
    // C3 holds nobody's pieces at the start: the refusal shows in words.
    s.line("C3R");
    s.wait_for("rotor C3 holds none of your pieces").await;
    // Pass; the bot moves; our turn comes back.
    s.line("end");
    s.wait_for("robot:").await;
    s.line("quit");
    bot.abort();
    // The token was saved for the next session.
    assert!(config.join("tokens.json").exists());
    let _ = std::fs::remove_dir_all(config);
}

/// `orion play` as `name` in a tmux session of its own, against `url`.
fn terminal(url: &str, name: &str, config: &std::path::Path) -> Session {
    let command = format!(
        "env ORION_CONFIG_DIR={} {} play --server {url} --name {name}",
        config.join(name).display(),
        env!("CARGO_BIN_EXE_orion")
    );
    Session::start(
        &format!("orion-test-{}-{name}", std::process::id()),
        &command,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_turn_is_planned_then_sent_from_the_terminal() {
    let (url, _stop) = serve().await;
    let config = std::env::temp_dir().join(format!("orion-tui-plan-{}", std::process::id()));
    // Two claimed names: Ann's seek waits, Bob's takes it and the game starts.
    let ann = terminal(&url, "ann", &config);
    let bob = terminal(&url, "bob", &config);
    for s in [&ann, &bob] {
        s.wait_for("ORION ONLINE").await;
        s.line("register correct-horse-battery");
    }
    ann.wait_for("claimed").await;
    bob.wait_for("claimed").await;
    // Ann's seek waits, her seat ready as it sat: the screen says so, not "type ready".
    ann.line("quick hydra-2 days=3");
    ann.wait_for("waiting for 1 more player(s); you are ready")
        .await;
    bob.line("quick hydra-2 days=3");
    ann.wait_for("YOUR TURN").await;
    // The opening's first move is one click; Bob passes.
    ann.line("A2L");
    bob.wait_for("YOUR TURN").await;
    bob.line("end");
    ann.wait_for("YOUR TURN").await;
    // Ann plans her turn: tried on the server's copy, nothing played, Bob sees nothing.
    ann.line("turn A2L A2L");
    ann.wait_for("plan (not played): 2 moves").await;
    let clicks = |screen: &str| screen.matches("ann: A2L").count();
    let before = bob.screen();
    assert_eq!(
        clicks(&before),
        1,
        "only the opening click is played:\n{before}"
    );
    // Sent, both clicks are played in order and Bob's turn comes, with its days.
    ann.line("send");
    ann.wait_for("turn sent").await;
    let after = bob
        .wait_until("ann's two clicks and Bob's turn", |s| {
            clicks(s) == 3 && s.contains("YOUR TURN · round 2")
        })
        .await;
    assert!(after.contains("bob to move by"), "{after}");
    let _ = std::fs::remove_dir_all(config);
}
