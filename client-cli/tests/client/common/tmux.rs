//! A detached tmux session running the `orion` binary, for the end-to-end tests of the
//! full-screen client: keys go in with `tmux send-keys`, the screen comes back with
//! `tmux capture-pane`. It needs tmux (`.ci/run` installs it when missing) and fails, never
//! skips, without it.

use std::process::Command;
use std::time::{Duration, Instant};

/// How long a test waits for text to show: generous, for a loaded machine (a wait, not an
/// assertion on time).
const PATIENCE: Duration = Duration::from_secs(60);

/// A tmux session, killed when dropped.
pub struct Session(pub String);

impl Session {
    /// Runs `tmux` with `args`; its standard output.
    pub fn tmux(args: &[&str]) -> String {
        let out = Command::new("tmux").args(args).output().expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).to_string()
    }

    /// Starts `command` in a new 120x36 session named `name`; fails the test without tmux.
    pub fn start(name: &str, command: &str) -> Session {
        if Command::new("tmux").arg("-V").output().is_err() {
            panic!("tmux is not installed: apt-get install -y tmux");
        }
        Self::tmux(&[
            "new-session",
            "-d",
            "-s",
            name,
            "-x",
            "120",
            "-y",
            "36",
            command,
        ]);
        Session(name.to_string())
    }

    /// Types `text` literally (so `end` is three letters, not tmux's End key), then Enter.
    pub fn line(&self, text: &str) {
        self.text(text);
        self.key("Enter");
    }

    /// Types `text` literally, no Enter.
    pub fn text(&self, text: &str) {
        Self::tmux(&["send-keys", "-t", &self.0, "-l", text]);
    }

    /// Presses one key by tmux's name for it (`Down`, `Enter`, `Escape`).
    pub fn key(&self, key: &str) {
        Self::tmux(&["send-keys", "-t", &self.0, key]);
    }

    /// The screen as it stands.
    pub fn screen(&self) -> String {
        Self::tmux(&["capture-pane", "-p", "-t", &self.0])
    }

    /// Polls the pane until `want` shows (the client is another process: there is no event
    /// to wait on but its screen); the screen then.
    pub async fn wait_for(&self, want: &str) -> String {
        self.wait_until(want, |s| s.contains(want)).await
    }

    /// Polls the pane until `ready` holds of it; `what` names what is awaited.
    pub async fn wait_until(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let s = self.screen();
            if ready(&s) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "`{what}` never showed; the screen:\n{s}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        Self::tmux(&["kill-session", "-t", &self.0]);
    }
}
