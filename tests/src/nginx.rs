//! A real nginx in front of a test's server: Debian's `nginx` run as this test's own child
//! process (`daemon off`, no root needed: `-p DIR -c FILE`, its pid file, logs and temp
//! files in a temporary directory) on a free loopback port, proxying to the server with the
//! configuration the README gives (`config`), optionally terminating TLS with a self-signed
//! certificate made by `openssl`. Stopped and removed on drop. Without nginx the test fails
//! and says what to install: nothing is skipped.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Debian's nginx binary.
const NGINX: &str = "/usr/sbin/nginx";
/// How long nginx has to listen.
const PATIENCE: Duration = Duration::from_secs(20);

/// An nginx running for one test.
pub struct Nginx {
    /// Its directory: `nginx.conf`, the pid file, the error log, temp files, the certificate.
    dir: PathBuf,
    /// The running nginx (its master process).
    child: Child,
    /// Where it listens, at 127.0.0.1.
    pub addr: SocketAddr,
    /// Whether it speaks TLS (`https://`, `wss://`).
    pub tls: bool,
}

impl Nginx {
    /// Starts nginx on a free port in front of the server at `upstream`, plain HTTP.
    pub fn start(upstream: SocketAddr) -> Nginx {
        Nginx::launch(upstream, false)
    }

    /// Starts nginx terminating TLS (a self-signed certificate for 127.0.0.1) in front of the
    /// server at `upstream`.
    pub fn start_tls(upstream: SocketAddr) -> Nginx {
        Nginx::launch(upstream, true)
    }

    /// The page's address through the proxy (`http://127.0.0.1:PORT`).
    pub fn base(&self) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }

    /// The WebSocket's address through the proxy (plain only: the test clients speak no TLS).
    pub fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// nginx's error log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("error.log")).unwrap_or_default()
    }

    fn launch(upstream: SocketAddr, tls: bool) -> Nginx {
        assert!(
            Path::new(NGINX).exists(),
            "{NGINX} is missing: this test needs a real nginx in front of the server; \
             install Debian's package (apt-get install nginx)"
        );
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "orion-nginx-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("nginx's temp dir");
        if tls {
            self_signed(&dir);
        }
        // A port bound and let go can be taken by another process before nginx binds it:
        // then nginx exits at once, and another port is tried.
        for _ in 0..5 {
            let port = TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .expect("a free port")
                .port();
            let conf = dir.join("nginx.conf");
            std::fs::write(&conf, config(&dir, port, upstream, tls)).expect("write nginx.conf");
            let mut child = Command::new(NGINX)
                .arg("-p")
                .arg(&dir)
                .arg("-c")
                .arg(&conf)
                .arg("-e")
                .arg(dir.join("error.log"))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("run nginx");
            let addr: SocketAddr = ([127, 0, 0, 1], port).into();
            let began = Instant::now();
            loop {
                if TcpStream::connect(addr).is_ok() {
                    return Nginx {
                        dir,
                        child,
                        addr,
                        tls,
                    };
                }
                if let Ok(Some(_)) = child.try_wait() {
                    break;
                }
                assert!(
                    began.elapsed() < PATIENCE,
                    "nginx did not listen on {addr}: {}",
                    std::fs::read_to_string(dir.join("error.log")).unwrap_or_default()
                );
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        panic!(
            "nginx did not start: {}",
            std::fs::read_to_string(dir.join("error.log")).unwrap_or_default()
        );
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // SIGTERM: nginx's fast shutdown (master and workers).
        // SAFETY: kill only signals our own child, not yet waited for.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM);
        }
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The README's configuration (README, "Behind nginx"), with this test's paths and ports:
/// every file nginx writes is under `dir`, it runs in the foreground, and it listens on
/// 127.0.0.1:`port` (with TLS, the `ssl_*` lines and a self-signed certificate).
pub fn config(dir: &Path, port: u16, upstream: SocketAddr, tls: bool) -> String {
    let d = dir.display();
    let (listen, ssl) = if tls {
        (
            format!("127.0.0.1:{port} ssl"),
            format!(
                "ssl_certificate {d}/cert.pem;\n        ssl_certificate_key {d}/key.pem;\n        \
                 ssl_protocols TLSv1.2 TLSv1.3;\n"
            ),
        )
    } else {
        (format!("127.0.0.1:{port}"), String::new())
    };
    format!(
        r#"daemon off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {d}/client_body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}
    server {{
        listen {listen};
        {ssl}
        location / {{
            proxy_pass http://{upstream};
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 1h;
        }}
    }}
}}
"#
    )
}

/// A self-signed certificate for 127.0.0.1 (`cert.pem`, `key.pem` in `dir`), by `openssl`.
fn self_signed(dir: &Path) {
    let out = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
        ])
        .arg(dir.join("key.pem"))
        .arg("-out")
        .arg(dir.join("cert.pem"))
        .output()
        .expect("run openssl (Debian's package `openssl`) to make a test certificate");
    assert!(
        out.status.success(),
        "openssl failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
