//! Several server nodes on one PostgreSQL database and one NATS server (`--bus nats://…`).
//! A room is still one task on one node, its owner, which holds the room's lease in
//! PostgreSQL (`lease`); a client may connect to any node, whose sessions reach rooms owned
//! elsewhere through proxies (`remote`) that forward their commands over the bus (`bus`,
//! `wire`) to the owner (`host`), which sends the room's frames back to each remote
//! member's node, where gaps in `seq` are refilled from the store (`fanout`). A node that
//! dies stops renewing its leases; another takes each room over once its lease has expired
//! and restores it from the store, like a restart. Every node tells the others of its
//! rooms (their lobby summaries and seated players) and lists theirs with its own (`peers`).
//! The core sees all this only as a [`Directory`](crate::lobby::Directory) (`directory`),
//! given to `serve_with`.

mod bus;
mod directory;
mod fanout;
mod host;
mod lease;
mod matchmaker;
mod metrics;
mod peers;
mod remote;
mod wire;

use crate::lobby::{Directory, LocalDirectory};
use crate::player::RoomId;
use crate::room::RoomHandle;
use crate::server::{serve_with, Config};
use bus::Bus;
use dashmap::DashMap;
use fanout::Members;
use lease::Leases;
use matchmaker::ClusterMatchmaker;
use metrics::ClusterMetrics;
use peers::NodePeers;
use std::future::Future;
use std::sync::{Arc, Mutex};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

pub use directory::ClusterDirectory;
pub use lease::{LEASE_TTL, RENEW_EVERY};

/// How to join a cluster.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// The NATS server (`nats://host:port`).
    pub bus: String,
    /// This node's name, unique in the cluster (`--node`; a random one if `None`).
    pub node: Option<String>,
}

/// One node: what its directory, proxies and background tasks share.
pub struct Node {
    /// Its name in leases and bus subjects.
    name: Arc<str>,
    /// The bus.
    bus: Bus,
    /// Room ownership.
    leases: Arc<Leases>,
    /// The rooms this node runs.
    local: Arc<LocalDirectory>,
    /// Proxies of rooms owned elsewhere, by room id.
    proxies: DashMap<RoomId, RoomHandle>,
    /// This node's connections in rooms owned elsewhere.
    members: Arc<Members>,
    /// What `/metrics` shows of the cluster.
    metrics: ClusterMetrics,
    /// The lobby across nodes.
    peers: Arc<NodePeers>,
}

/// Runs a cluster node on `listener` until `shutdown` completes: the PostgreSQL store
/// `config.db` names, the bus and leases of `cluster`.
pub async fn serve_cluster(
    listener: TcpListener,
    config: Config,
    cluster: ClusterConfig,
    shutdown: impl Future,
) -> anyhow::Result<()> {
    let url = config.db.clone();
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        anyhow::bail!("a cluster (--bus) needs a PostgreSQL store (--store postgres://…)");
    }
    let name = cluster.node.clone().unwrap_or_else(|| {
        use rand::Rng;
        format!("n{:08x}", rand::thread_rng().gen::<u32>())
    });
    if !bus::valid_node_name(&name) {
        anyhow::bail!("--node must be 1 to 32 letters, digits, '-' or '_', not {name:?}");
    }
    let db = url.clone();
    let sync = config.sync;
    let store = tokio::task::spawn_blocking(move || crate::store::open_with(&db, sync)).await??;
    let bus = Bus::connect(&cluster.bus, &name).await?;
    let name: Arc<str> = Arc::from(name);
    let local = Arc::new(LocalDirectory::new(config.max_rooms));
    let leases = Arc::new(Leases::new(&url, name.clone()));
    let metrics = ClusterMetrics::new();
    let node = Arc::new(Node {
        name: name.clone(),
        bus: bus.clone(),
        leases: leases.clone(),
        local: local.clone(),
        proxies: DashMap::new(),
        members: Arc::new(Members::new(store.clone(), metrics.refills.clone())),
        metrics,
        peers: Arc::new(NodePeers::new(name.clone())),
    });
    let host = Arc::new(host::Host::new(
        bus.clone(),
        local,
        config.send_queue.max(1),
        node.metrics.clone(),
    ));
    let commands = bus.client.subscribe(bus::cmd_subject(&name)).await?;
    let frames = bus.client.subscribe(bus::frames_subject(&name)).await?;
    let matchmaker = Arc::new(ClusterMatchmaker::new(
        name.clone(),
        leases,
        &url,
        host.clone(),
        node.members.clone(),
    ));
    let (taken_tx, taken_rx) = mpsc::channel(256);
    let mut tasks = node.peers.start(&bus).await?;
    tasks.extend([
        tokio::spawn(host.clone().serve(commands)),
        tokio::spawn(node.members.clone().serve(frames)),
        tokio::spawn(keep_leases(
            node.clone(),
            matchmaker.clone(),
            host,
            taken_tx,
        )),
    ]);
    tracing::info!(node = %name, "joined the cluster");
    let directory: Arc<dyn Directory> = Arc::new(ClusterDirectory {
        node,
        takeovers: Mutex::new(Some(taken_rx)),
        matchmaker,
        tasks,
    });
    serve_with(listener, config, store, directory, shutdown).await
}

/// Every [`RENEW_EVERY`]: renews this node's leases (and marks its quick-match players
/// alive) and drops relays no room holds, then takes over expired ones and hands their rooms to the server to restore.
async fn keep_leases(
    node: Arc<Node>,
    matchmaker: Arc<ClusterMatchmaker>,
    host: Arc<host::Host>,
    taken: mpsc::Sender<RoomId>,
) {
    let mut tick = tokio::time::interval(RENEW_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        host.sweep();
        match node.leases.renew().await {
            Ok(owned) => node
                .metrics
                .rooms_owned
                .set(i64::try_from(owned).unwrap_or(i64::MAX)),
            Err(e) => {
                tracing::warn!("could not renew the room leases: {e}");
                continue;
            }
        }
        if let Err(e) = matchmaker.refresh().await {
            tracing::warn!("could not refresh the quick-match queue: {e}");
        }
        match node.leases.take_expired().await {
            Ok(rooms) => {
                for room in rooms {
                    // Our own room whose lease lapsed (the database was away): renewed now,
                    // and still running here.
                    if node.local.get(&room).await.is_some() {
                        continue;
                    }
                    tracing::info!(%room, "taking over a room whose lease expired");
                    node.metrics.failovers.inc();
                    if taken.send(Arc::from(room)).await.is_err() {
                        return;
                    }
                }
            }
            Err(e) => tracing::warn!("could not look for expired leases: {e}"),
        }
    }
}
