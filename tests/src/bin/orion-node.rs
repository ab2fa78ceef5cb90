//! A cluster node for the cluster tests, run as a process of its own so a test can
//! `kill -9` it: `orion-node --store postgres://… --bus nats://… --node NAME [--admin NAME]…`. Listens on a
//! free port of 127.0.0.1 and prints `listening ADDR` on its first line of output.
//! `ORION_LOG=info` (or any filter) logs to stderr.

use std::io::Write;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut store = None;
    let mut bus = None;
    let mut node = None;
    let mut admins = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next();
        match flag.as_str() {
            "--store" => store = value,
            "--bus" => bus = value,
            "--node" => node = value,
            "--admin" => admins.extend(value),
            other => anyhow::bail!("unknown flag {other}"),
        }
    }
    if let Ok(filter) = std::env::var("ORION_LOG") {
        tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::try_new(filter)?)
            .with_writer(std::io::stderr)
            .init();
    }
    let (Some(store), Some(bus)) = (store, bus) else {
        anyhow::bail!(
            "usage: orion-node --store postgres://… --bus nats://… [--node NAME] [--admin NAME]"
        );
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    println!("listening {}", listener.local_addr()?);
    std::io::stdout().flush()?;
    let config = orion_server::Config {
        db: store,
        retain: None,
        admins,
        ..Default::default()
    };
    let cluster = orion_server::ClusterConfig { bus, node };
    let stop = async {
        if let Ok(mut term) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            term.recv().await;
        }
    };
    orion_server::serve_cluster(listener, config, cluster, stop).await
}
