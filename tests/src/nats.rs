//! A real NATS server for a test: the Debian package's `nats-server`, run as this test's own
//! child process on a free port of 127.0.0.1, stopped on drop, and restartable on the same
//! port (the cluster tests stop the bus mid-game). A missing binary fails the test.

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long the server has to start accepting connections.
const PATIENCE: Duration = Duration::from_secs(20);

/// A NATS server running for one test.
pub struct Nats {
    /// Its port on 127.0.0.1.
    pub port: u16,
    /// The running server (`None` while stopped).
    child: Option<Child>,
}

impl Nats {
    /// Starts `nats-server` on a free port. Panics, saying what to install, if it is missing.
    pub fn start() -> Nats {
        let mut nats = Nats {
            port: crate::pg::free_port(),
            child: None,
        };
        nats.run();
        nats
    }

    /// The URL a node's `--bus` takes.
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Stops the server (SIGKILL: clients see the connection drop).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port.
    pub fn restart(&mut self) {
        self.stop();
        self.run();
    }

    fn run(&mut self) {
        let child = Command::new("nats-server")
            .args(["-a", "127.0.0.1", "-p", &self.port.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot run nats-server ({e}): install the Debian package `nats-server`")
            });
        self.child = Some(child);
        let began = Instant::now();
        while began.elapsed() < PATIENCE {
            if TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("nats-server did not start on port {}", self.port);
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        self.stop();
    }
}
