//! The terminal UI end to end, driven in tmux: `orion play` in a detached tmux session
//! against a real server (in-process, port 0) and a greedy bot; keys go in with
//! `tmux send-keys`, the screen comes back with `tmux capture-pane`.
//!
//! It needs tmux (`.ci/run` installs it when missing) and fails, never skips, without it.

mod common;

use common::tmux::Session;
use orion_cli::autoplay::{self, BotConfig, Entry};
use orion_cli::bot::Level;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_a_turn_in_the_terminal_ui() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/ws", listener.local_addr().unwrap());
    let (_stop, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(orion_server::run(listener, async {
        let _ = rx.await;
    }));
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
