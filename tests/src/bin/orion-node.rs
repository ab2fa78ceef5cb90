//! A server node for the tests, run as a process of its own so a test can `kill -9` it:
//! `orion-node --store URL [--bus nats://… --node NAME] [--admin NAME]…` (a cluster node with `--bus`, else a
//! server alone). Listens on a free port of 127.0.0.1 and prints `listening ADDR` on its
//! first line of output. `--clock MS` runs it on a manual clock starting at MS that the test
//! moves by writing `advance N` lines to its stdin (each answered `now T` once moved);
//! `--smtp URL`, `--mail-from FROM`, `--allow-push-endpoint PREFIX` as the real server's.
//! `ORION_LOG=info` (or any filter) logs to stderr.

use std::io::Write;
use std::sync::Arc;
use tokio::io::AsyncBufReadExt;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut store = None;
    let mut bus = None;
    let mut node = None;
    let mut admins = Vec::new();
    let mut clock = None;
    let mut notify = orion_server::NotifyConfig::default();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next();
        match flag.as_str() {
            "--store" => store = value,
            "--bus" => bus = value,
            "--node" => node = value,
            "--admin" => admins.extend(value),
            "--clock" => clock = value.map(|v| v.parse::<u64>()).transpose()?,
            "--smtp" => notify.smtp = value,
            "--mail-from" => notify.mail_from = value,
            "--allow-push-endpoint" => notify.allow_push_endpoints.extend(value),
            other => anyhow::bail!("unknown flag {other}"),
        }
    }
    if let Ok(filter) = std::env::var("ORION_LOG") {
        tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::try_new(filter)?)
            .with_writer(std::io::stderr)
            .init();
    }
    let Some(store) = store else {
        anyhow::bail!("usage: orion-node --store URL [--bus nats://… --node NAME] [--clock MS] [--admin NAME]");
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    println!("listening {}", listener.local_addr()?);
    std::io::stdout().flush()?;
    let mut config = orion_server::Config {
        db: store,
        retain: None,
        admins,
        notify,
        ..Default::default()
    };
    if let Some(start) = clock {
        let manual = Arc::new(orion_server::ManualClock::new(start));
        config.clock = manual.clone();
        tokio::spawn(async move {
            let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
            let mut now = start;
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(ms) = line.strip_prefix("advance ").and_then(|n| n.parse().ok()) {
                    manual.advance(ms);
                    now += ms;
                    println!("now {now}");
                    let _ = std::io::stdout().flush();
                }
            }
        });
    }
    let stop = async {
        if let Ok(mut term) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            term.recv().await;
        }
    };
    match bus {
        Some(bus) => {
            let cluster = orion_server::ClusterConfig { bus, node };
            orion_server::serve_cluster(listener, config, cluster, stop).await
        }
        None => orion_server::serve(listener, config, stop).await,
    }
}
