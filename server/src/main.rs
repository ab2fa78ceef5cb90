//! `orion-server`: parses arguments, sets up logging, and runs the server until ctrl-c or
//! SIGTERM.

use clap::Parser;
use tokio::net::TcpListener;

/// The Orion Online lobby server.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:7878")]
    listen: String,
    /// Where events are kept: a SQLite file (the default, embedded), `:memory:` for a
    /// throwaway store, or a PostgreSQL URL (`postgres://user[:password]@host:port/db`).
    #[arg(long = "store", visible_alias = "db", default_value = "orion.db")]
    store: String,
    /// Days to keep finished games (events, chat) and guest identities not seen since; 0
    /// keeps everything.
    #[arg(long, default_value_t = 90)]
    retain_days: u64,
    /// An origin, besides this server's own, whose web pages may open a WebSocket here
    /// (`https://orion.example`); repeatable. Clients that send no Origin (terminal client,
    /// bots) need none.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    allow_origin: Vec<String>,
    /// When a commit counts as stored, before its events are sent (SQLite store):
    /// `normal`, once written to the operating system (survives the server being killed; a
    /// power cut may lose the last seconds); `full`, once on the disk (an fdatasync per group
    /// commit; survives a power cut).
    #[arg(long, value_enum, default_value_t = SyncMode::Normal)]
    sync: SyncMode,
    /// Most spectators one room takes; more are refused with `full`.
    #[arg(long, default_value_t = orion_server::MAX_SPECTATORS)]
    max_spectators: usize,
    /// Join a cluster of nodes through this NATS server (`nats://host:port`); needs a
    /// PostgreSQL `--store`. Without it the server runs alone.
    #[arg(long, value_name = "URL")]
    bus: Option<String>,
    /// This node's name in the cluster (letters, digits, `-`, `_`); random if not given.
    #[arg(long, requires = "bus")]
    node: Option<String>,
    /// Threads computer players think on, apart from the rooms' runtime.
    #[arg(long, default_value_t = 1)]
    bot_threads: usize,
    /// Most games with computer players at once; past it `add_bot` and `quick` with `bots`
    /// are refused with `full`.
    #[arg(long, default_value_t = orion_server::MAX_BOT_GAMES)]
    max_bot_games: usize,
    /// How long `quick` with `bots: true` waits for people before computer players fill the
    /// missing seats, in milliseconds.
    #[arg(long, default_value_t = orion_server::BOT_WAIT)]
    bot_wait: u64,
    /// The SMTP relay notices and confirmation links are mailed through:
    /// `smtp://host:port` (plain), `smtp://user:password@host:587?tls=required` (STARTTLS) or
    /// `smtps://user:password@host:465`. Without it no e-mail is sent.
    #[arg(long, value_name = "URL", requires = "mail_from")]
    smtp: Option<String>,
    /// The sender of those mails (`Orion Online <orion@example.org>`).
    #[arg(long, value_name = "ADDRESS")]
    mail_from: Option<String>,
    /// The server's address as players reach it, for the links in notices and mails
    /// (`https://orion.example`); by default `http://` and the listen address.
    #[arg(long, value_name = "URL")]
    public_url: Option<String>,
    /// A Web Push endpoint prefix taken without the checks (https, not an address of this
    /// network): a push service run inside it, or a test's (`http://127.0.0.1:`); repeatable.
    #[arg(long = "allow-push-endpoint", value_name = "PREFIX")]
    allow_push_endpoint: Vec<String>,
    /// Log level or filter (`info`, `debug`, `orion_server=trace`).
    #[arg(long, default_value = "info")]
    log: String,
}

/// `--sync`: how durable a commit is when its events go out.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum SyncMode {
    /// Written to the operating system.
    Normal,
    /// On the disk.
    Full,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    one_malloc_arena();
    let args = Args::parse();
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_new(&args.log)?)
        .init();
    let listener = TcpListener::bind(&args.listen).await?;
    // The one line a person starting the server needs: where to point a browser.
    println!("Orion Online: play at http://{}/", listener.local_addr()?);
    let config = orion_server::Config {
        db: args.store,
        retain: (args.retain_days > 0).then(|| args.retain_days.saturating_mul(24 * 3_600_000)),
        allowed_origins: args.allow_origin,
        sync: match args.sync {
            SyncMode::Normal => orion_server::Durability::Normal,
            SyncMode::Full => orion_server::Durability::Full,
        },
        max_spectators: args.max_spectators,
        bot_threads: args.bot_threads,
        max_bot_games: args.max_bot_games,
        bot_wait: args.bot_wait,
        notify: orion_server::NotifyConfig {
            smtp: args.smtp,
            mail_from: args.mail_from,
            public_url: args.public_url,
            allow_push_endpoints: args.allow_push_endpoint,
            relay: None,
        },
        ..Default::default()
    };
    match args.bus {
        Some(bus) => {
            let cluster = orion_server::ClusterConfig {
                bus,
                node: args.node,
            };
            orion_server::serve_cluster(listener, config, cluster, shutdown_signal()).await
        }
        None => orion_server::serve(listener, config, shutdown_signal()).await,
    }
}

/// Keeps glibc's allocator to one arena. The runtime's worker, the threads that stand in for
/// it while it waits and the store's threads would each get an arena of their own, and the
/// freed memory scattered over them cost about 8 KB of RSS per connected client under load
/// (BENCHMARKS.md); the server allocates mostly on one thread, so one arena costs nothing.
fn one_malloc_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator tuning; it is called before any other thread
    // exists.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Completes on ctrl-c or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
