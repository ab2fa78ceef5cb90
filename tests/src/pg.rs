//! A real PostgreSQL for a test: the Debian package's server, run as this test's own child
//! process on a free port with its data in a temporary directory, stopped (fast shutdown)
//! and removed on drop. As root, `initdb` and `postgres` refuse to run, so they run as the
//! `postgres` user the package creates. Missing binaries fail the test: nothing is skipped.

use std::net::TcpListener;
use std::os::unix::fs::chown;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// How long the server has to start accepting connections (or to stop).
const PATIENCE: Duration = Duration::from_secs(60);
/// The database the tests' servers use.
const DATABASE: &str = "orion";

/// A PostgreSQL server running for one test.
pub struct Postgres {
    /// The directory holding the data (`data/`), the socket and the log (`log`).
    dir: PathBuf,
    /// Where the server's binaries are (`/usr/lib/postgresql/VERSION/bin`).
    bin: PathBuf,
    /// The user to run as (`Some` when this process is root).
    user: Option<(u32, u32)>,
    /// The TCP port it listens on, at 127.0.0.1.
    pub port: u16,
    /// The running server (`None` while stopped).
    child: Option<Child>,
}

impl Postgres {
    /// Creates a cluster in a fresh temporary directory, starts it, and creates the
    /// database [`Postgres::url`] names. Panics, saying what to install, if PostgreSQL is
    /// not installed.
    pub fn start() -> Postgres {
        let bin = bin_dir();
        // SAFETY: geteuid has no preconditions and cannot fail.
        let root = unsafe { libc::geteuid() } == 0;
        let user = root.then(postgres_user);
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "orion-pg-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir for PostgreSQL");
        if let Some((uid, gid)) = user {
            chown(&dir, Some(uid), Some(gid)).expect("chown the PostgreSQL dir");
        }
        let mut pg = Postgres {
            dir,
            bin,
            user,
            port: 0,
            child: None,
        };
        let initdb = pg
            .command("initdb")
            .args(["-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"])
            .arg("-D")
            .arg(pg.data())
            .output()
            .expect("run initdb");
        assert!(
            initdb.status.success(),
            "initdb failed: {}",
            String::from_utf8_lossy(&initdb.stderr)
        );
        pg.run();
        let created = Command::new(pg.bin.join("createdb"))
            .args(["-h", "127.0.0.1", "-U", "postgres", "-p"])
            .arg(pg.port.to_string())
            .arg(DATABASE)
            .output()
            .expect("run createdb");
        assert!(
            created.status.success(),
            "createdb failed: {}",
            String::from_utf8_lossy(&created.stderr)
        );
        pg
    }

    /// The URL a server's `--store` takes.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{DATABASE}", self.port)
    }

    /// The URL of another database `name` on this server (made with [`Postgres::createdb`]).
    pub fn url_of(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// A client program of this PostgreSQL (`pg_dump`, `pg_restore`, `createdb`, `psql`),
    /// of the same version as the server, pointed at it (`-h`, `-p`, `-U postgres`).
    pub fn client(&self, name: &str) -> Command {
        let mut cmd = Command::new(self.bin.join(name));
        cmd.args(["-h", "127.0.0.1", "-U", "postgres", "-p"])
            .arg(self.port.to_string());
        cmd
    }

    /// Creates the empty database `name`.
    pub fn createdb(&self, name: &str) {
        let out = self
            .client("createdb")
            .arg(name)
            .output()
            .expect("run createdb");
        assert!(
            out.status.success(),
            "createdb failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Stops the server (fast shutdown: sessions are cut, committed data kept).
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        // SAFETY: kill only sends a signal to our own child, whose pid is still ours as we
        // have not waited for it.
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGINT);
        }
        let began = Instant::now();
        while began.elapsed() < PATIENCE {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
    }

    /// Starts the server again on the same data and port.
    pub fn restart(&mut self) {
        self.stop();
        self.run();
    }

    /// Starts the server again after [`Postgres::stop`], on the same data and port.
    pub fn start_again(&mut self) {
        self.run();
    }

    /// Starts `postgres` on the data directory (on a free port the first time) and waits
    /// until it accepts connections.
    fn run(&mut self) {
        for _ in 0..5 {
            let port = if self.port == 0 {
                free_port()
            } else {
                self.port
            };
            let log = std::fs::File::create(self.dir.join("log")).expect("PostgreSQL log file");
            let err = log.try_clone().expect("PostgreSQL log file");
            let child = self
                .command("postgres")
                .arg("-D")
                .arg(self.data())
                .args(["-p", &port.to_string(), "-k"])
                .arg(&self.dir)
                .args([
                    "-c",
                    "listen_addresses=127.0.0.1",
                    "-c",
                    "max_connections=20",
                    "-c",
                    "shared_buffers=16MB",
                ])
                .stdin(Stdio::null())
                .stdout(log)
                .stderr(err)
                .spawn()
                .expect("run postgres");
            self.child = Some(child);
            if self.wait_ready(port) {
                self.port = port;
                return;
            }
            self.stop();
        }
        panic!("PostgreSQL did not start; its log:\n{}", self.log());
    }

    /// Waits until the server on `port` accepts connections; false if it exited first.
    fn wait_ready(&mut self, port: u16) -> bool {
        let began = Instant::now();
        while began.elapsed() < PATIENCE {
            if let Some(Ok(Some(_))) = self.child.as_mut().map(Child::try_wait) {
                return false;
            }
            let ready = Command::new(self.bin.join("pg_isready"))
                .args(["-q", "-h", "127.0.0.1", "-U", "postgres", "-p"])
                .arg(port.to_string())
                .status()
                .is_ok_and(|s| s.success());
            if ready {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    /// The server's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("log")).unwrap_or_default()
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// A command running the server binary `name`, as the `postgres` user when root.
    fn command(&self, name: &str) -> Command {
        let mut cmd = Command::new(self.bin.join(name));
        cmd.current_dir(&self.dir);
        if let Some((uid, gid)) = self.user {
            // The standard library drops root's supplementary groups before setuid.
            cmd.uid(uid).gid(gid);
        }
        cmd
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The newest `/usr/lib/postgresql/VERSION/bin` holding a `postgres` binary; panics saying
/// to install the package if there is none.
fn bin_dir() -> PathBuf {
    let root = Path::new("/usr/lib/postgresql");
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("postgres").exists().then_some((version, bin))
        })
        .collect();
    found.sort();
    match found.pop() {
        Some((_, bin)) => bin,
        None => panic!(
            "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/postgres): these tests \
             need a real server; install it with `apt-get install postgresql`"
        ),
    }
}

/// The uid and gid of the `postgres` user (made by the Debian package).
fn postgres_user() -> (u32, u32) {
    let id = |flag: &str| -> u32 {
        let out = Command::new("id")
            .args([flag, "postgres"])
            .output()
            .expect("run id");
        assert!(
            out.status.success(),
            "running as root, the tests need the `postgres` user to run PostgreSQL as \
             (install the package `postgresql`)"
        );
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .expect("a numeric id")
    };
    (id("-u"), id("-g"))
}

/// A port nobody listens on now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}
