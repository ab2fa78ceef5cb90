//! A server alone (not a cluster) run as a child process of the test, the `orion-node`
//! binary without `--bus`, on a manual clock the test moves through the process's stdin: so a
//! test can `kill -9` it like a machine dying, start it again on the same store at the time
//! the clock had reached, and still drive days of game time without waiting.

use crate::{Client, PATIENCE};
use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;

/// A server process on a manual clock.
pub struct SoloServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The process (`None` once killed).
    child: Option<Child>,
    /// Where `advance` lines go.
    stdin: Option<ChildStdin>,
    /// Its output after the first line: `now T` answers.
    answers: mpsc::Receiver<String>,
    /// The manual clock's time, as last answered.
    pub now: u64,
    /// Binary, store and the extra flags it was started with, to start it again.
    how: (String, String, Vec<String>),
}

impl SoloServer {
    /// Starts `bin` on the store `store` with its clock at `now` and `flags` (`--smtp …`),
    /// and waits until it listens.
    pub fn start(bin: &str, store: &str, now: u64, flags: &[String]) -> SoloServer {
        let mut child = Command::new(bin)
            .args(["--store", store, "--clock", &now.to_string()])
            .args(flags)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("run orion-node");
        let out = child.stdout.take().expect("stdout");
        let (tx, answers) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let line = answers
            .recv_timeout(PATIENCE * 3)
            .expect("the server starts");
        let addr = line
            .trim()
            .strip_prefix("listening ")
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("the server did not start: {line:?}"));
        SoloServer {
            addr,
            stdin: child.stdin.take(),
            child: Some(child),
            answers,
            now,
            how: (bin.to_owned(), store.to_owned(), flags.to_vec()),
        }
    }

    /// Moves the server's clock `ms` on, and waits until it has.
    pub fn advance(&mut self, ms: u64) {
        let stdin = self.stdin.as_mut().expect("a running server");
        writeln!(stdin, "advance {ms}").expect("the server reads its clock");
        stdin.flush().expect("flush");
        self.now += ms;
        let want = format!("now {}", self.now);
        let answer = tokio::task::block_in_place(|| self.answers.recv_timeout(PATIENCE))
            .expect("the clock moved");
        assert_eq!(answer, want);
    }

    /// `kill -9` and a new process on the same store, its clock where this one's was.
    pub fn kill_and_restart(&mut self) {
        self.kill();
        let (bin, store, flags) = self.how.clone();
        *self = SoloServer::start(&bin, &store, self.now, &flags);
    }

    /// `kill -9`: the process dies where it stands.
    pub fn kill(&mut self) {
        self.stdin = None;
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// The WebSocket URL.
    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// Connects a client and says hello as `name` (with `token`: as that player again).
    pub async fn player(&self, name: &str, token: Option<&str>) -> Client {
        let mut c = Client::connect(&self.url()).await;
        let mut hello = serde_json::json!({"t": "hello", "name": name, "version": 1});
        if let Some(token) = token {
            hello["token"] = token.into();
        }
        let welcome = c.request(hello).await;
        assert_eq!(welcome["t"], "welcome", "{welcome}");
        c.token = welcome["token"].as_str().unwrap_or_default().to_string();
        c
    }
}

impl Drop for SoloServer {
    fn drop(&mut self) {
        self.kill();
    }
}
