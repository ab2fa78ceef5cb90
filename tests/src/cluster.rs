//! A cluster node for a test: the `orion-node` binary (this crate's) run as a child process
//! on the test's PostgreSQL and NATS, so a test can `kill -9` it like a machine dying, or
//! stop it with `SIGTERM` as an operator does.

use crate::nats::Nats;
use crate::pg::Postgres;
use crate::{Client, PATIENCE};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// How long a node may take to stop on `SIGTERM` (handing its rooms over) before it is
/// killed: a stop that hangs fails its test instead of hanging it.
pub const STOP_LIMIT: Duration = Duration::from_secs(60);

/// A fresh PostgreSQL, a NATS server, and nodes of `bin` named `names` on them, in order. Keep
/// the first two alive (bound to names, not `_`) for as long as the nodes run.
pub fn start_cluster<const N: usize>(
    bin: &str,
    names: [&str; N],
) -> (Postgres, Nats, [ClusterNode; N]) {
    let pg = Postgres::start();
    let nats = Nats::start();
    let nodes = names.map(|name| ClusterNode::start(bin, &pg.url(), &nats.url(), name));
    (pg, nats, nodes)
}

/// A node running as a child process.
pub struct ClusterNode {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The process (`None` once killed).
    child: Option<Child>,
    /// How it was started, to start it again: binary, store, bus, name.
    how: [String; 4],
    /// Further flags it was started with (`--admin NAME`).
    extra: Vec<String>,
}

impl ClusterNode {
    /// Starts `bin` (the test's `env!("CARGO_BIN_EXE_orion-node")`) as node `name` on the
    /// store `store` and the bus `bus`, and waits until it listens.
    pub fn start(bin: &str, store: &str, bus: &str, name: &str) -> ClusterNode {
        ClusterNode::start_with(bin, store, bus, name, &[])
    }

    /// [`ClusterNode::start`] with further flags (`["--admin", "boss"]`).
    pub fn start_with(
        bin: &str,
        store: &str,
        bus: &str,
        name: &str,
        extra: &[&str],
    ) -> ClusterNode {
        let mut child = Command::new(bin)
            .args(["--store", store, "--bus", bus, "--node", name])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run orion-node");
        // Its log (`ORION_LOG`), each line marked with the node's name.
        let err = child.stderr.take().expect("stderr");
        let mark = name.to_owned();
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                eprintln!("[{mark}] {line}");
            }
        });
        let out = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(out).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(PATIENCE * 3).expect("the node starts");
        let addr = line
            .trim()
            .strip_prefix("listening ")
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("the node did not start: {line:?}"));
        ClusterNode {
            addr,
            child: Some(child),
            how: [bin, store, bus, name].map(str::to_owned),
            extra: extra.iter().map(|e| e.to_string()).collect(),
        }
    }

    /// Starts the node again after a kill (or a [`ClusterNode::terminate`]), under the same
    /// name (on a new port).
    pub fn restart(&mut self) {
        self.kill();
        let [bin, store, bus, name] = &self.how;
        let extra: Vec<&str> = self.extra.iter().map(String::as_str).collect();
        *self = ClusterNode::start_with(bin, store, bus, name, &extra);
    }

    /// `SIGTERM`, as an operator (or systemd, or Kubernetes) stops a node; waits until the
    /// process has exited and returns how. A node still running after [`STOP_LIMIT`] is
    /// killed, as systemd would, and that is what it returns (a failure, never a hang).
    /// [`ClusterNode::restart`] starts it again.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        self.signal(libc::SIGTERM);
        let mut child = self.child.take().expect("the node runs");
        let began = std::time::Instant::now();
        while began.elapsed() < STOP_LIMIT {
            if let Some(status) = child.try_wait().expect("wait for the node") {
                return status;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        eprintln!(
            "node {} did not stop within {STOP_LIMIT:?}: killed",
            self.how[3]
        );
        let _ = child.kill();
        child.wait().expect("wait for the node")
    }

    /// Whether the process runs (it was not killed).
    pub fn is_running(&self) -> bool {
        self.child.is_some()
    }

    /// `SIGSTOP`: the node freezes where it stands, its sockets open (a GC pause, a VM
    /// migration), until [`ClusterNode::cont`].
    pub fn pause(&self) {
        self.signal(libc::SIGSTOP);
    }

    /// `SIGCONT`: a paused node runs on.
    pub fn cont(&self) {
        self.signal(libc::SIGCONT);
    }

    fn signal(&self, sig: libc::c_int) {
        if let Some(child) = &self.child {
            let pid = libc::pid_t::try_from(child.id()).expect("a pid");
            // SAFETY: kill has no memory preconditions; the pid is our own child's.
            let done = unsafe { libc::kill(pid, sig) };
            assert_eq!(done, 0, "signal {sig} to node {pid} failed");
        }
    }

    /// The WebSocket URL.
    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// `kill -9`: the node dies where it stands.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Connects a client and says hello as `name`.
    pub async fn player(&self, name: &str) -> Client {
        let mut c = Client::connect(&self.url()).await;
        let welcome = c
            .request(json!({"t": "hello", "name": name, "version": 1}))
            .await;
        assert_eq!(welcome["t"], "welcome", "{welcome}");
        c.token = welcome["token"].as_str().unwrap_or_default().to_string();
        c
    }

    /// Reconnects as the player holding `token`.
    pub async fn reconnect(&self, name: &str, token: &str) -> Client {
        let mut c = Client::connect(&self.url()).await;
        let welcome = c
            .request(json!({"t": "hello", "name": name, "version": 1, "token": token}))
            .await;
        assert_eq!(welcome["t"], "welcome", "{welcome}");
        c.token = token.to_string();
        c
    }
}

impl Drop for ClusterNode {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Sends `resume` once and returns its answer: the reply to it, or the room's first event
/// (a room that takes the player back sends its events before the reply).
pub async fn resume_once(c: &mut Client, room: &str, since: u64) -> Value {
    let id = c
        .send_with_id(json!({"t": "resume", "room": room, "since": since}))
        .await;
    c.expect(|m| m["re"] == json!(id) || (m["t"] == "event" && m["room"] == room))
        .await
}

/// Sends `resume` until the room answers (while its node is being replaced the answer is a
/// `server` error saying to try again); returns the first answer that is not one.
pub async fn resume_until_taken(c: &mut Client, room: &str, since: u64) -> Value {
    let began = std::time::Instant::now();
    loop {
        let reply = resume_once(c, room, since).await;
        if reply["t"] != "error" {
            return reply;
        }
        assert!(
            reply["code"] == "server" || reply["code"] == "not_found",
            "{reply}"
        );
        assert!(
            began.elapsed() < PATIENCE * 2,
            "the room was not taken over in time: {reply}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// Sends `req` until it is not refused with a `server` error (what a client is told while
/// the bus or the database is away), then waits for `done`; panics on any other refusal or
/// if it takes too long.
pub async fn until_accepted(c: &mut Client, req: Value, done: impl Fn(&Value) -> bool) -> Value {
    let began = std::time::Instant::now();
    loop {
        let id = c.send_with_id(req.clone()).await;
        let reply = c.expect(|m| m["re"] == json!(id) || done(m)).await;
        if reply["t"] != "error" {
            return reply;
        }
        assert_eq!(reply["code"], "server", "{req}: {reply}");
        assert!(
            began.elapsed().as_secs() < 20,
            "{req} still refused: {reply}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}
