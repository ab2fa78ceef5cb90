//! `orion-server`: reads its settings (flags, environment, `--config` file: `options.rs`),
//! sets up logging, and runs the server until ctrl-c or SIGTERM, or runs a tool instead
//! (`backup`, `restore`).

use orion_server::{ConfigError, LogFormat, Tool};
use tokio::net::TcpListener;

fn main() -> anyhow::Result<()> {
    let options = match orion_server::parse_options() {
        Ok(options) => options,
        Err(ConfigError::Args(e)) => e.exit(),
        Err(e) => {
            // A mistake in the settings file: said plainly, like clap's own, not as a crash.
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    if options.print_config {
        print!("{}", orion_server::printed_options(&options));
        return Ok(());
    }
    if options.bot_cpus.is_empty() {
        one_malloc_arena();
    }
    match orion_server::share_cpus(&options.bot_cpus) {
        // The runtime's threads and the store's, started from this one, keep to the rooms'
        // CPUs (and the runtime takes a worker for each); the bots' threads move to theirs.
        Ok(Some(shared)) => orion_server::run_on(&shared.rooms)?,
        Ok(None) => {}
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(run(options))
}

/// Runs what `options` ask: the server, or one of its tools.
async fn run(options: orion_server::Options) -> anyhow::Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_new(&options.log)?;
    match options.log_format {
        LogFormat::Text => tracing_subscriber::fmt().with_env_filter(filter).init(),
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .with_env_filter(filter)
            .init(),
    }
    match &options.command {
        Some(Tool::Backup { store, file }) => {
            let (store, file) = (store.clone(), file.clone());
            let copied =
                tokio::task::spawn_blocking(move || orion_server::backup(&store, &file)).await??;
            println!("{copied}");
            return Ok(());
        }
        Some(Tool::Restore { file, store }) => {
            let (store, file) = (store.clone(), file.clone());
            let restored =
                tokio::task::spawn_blocking(move || orion_server::restore(&file, &store)).await??;
            println!("{restored}");
            return Ok(());
        }
        None => {}
    }
    let listener = TcpListener::bind(&options.listen).await?;
    // The one line a person starting the server needs: where to point a browser.
    println!("Orion Online: play at http://{}/", listener.local_addr()?);
    let config = options.config();
    match options.bus {
        Some(bus) => {
            let cluster = orion_server::ClusterConfig {
                bus,
                node: options.node,
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
/// Not when the computer players have CPUs of their own (`--bot-cpus`): a search allocates
/// all the time, and a bot thread sharing the rooms' arena from another core held them up on
/// its lock (the rooms' p99 +0.6 to +1.1 ms beside 100 level-8 games; with an arena of its own
/// −0.5 to +0.3 ms, for 2–3 MB more RSS).
fn one_malloc_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator tuning; it is called before any other thread
    // exists (parsing the options starts none).
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
