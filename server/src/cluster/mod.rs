//! Several server nodes on one PostgreSQL database and one NATS server (`--bus nats://…`).
//! A room is still one task on one node, its owner, which holds the room's lease in
//! PostgreSQL (`lease`); a client may connect to any node, whose sessions reach rooms owned
//! elsewhere through proxies (`remote`) that forward their commands over the bus (`bus`,
//! `wire`) to the owner (`host`), which sends the room's frames back to each remote
//! member's node, where gaps in `seq` are refilled from the store (`fanout`). A node that
//! stops (`SIGTERM`) hands each room to another node at once (`handoff`); one that
//! dies stops renewing its leases; another takes each room over once its lease has expired
//! and restores it from the store, like a restart, under a new epoch that fences the old
//! owner's appends out; members anywhere are told to resume it there (`moved`). Every node
//! tells the others of its rooms (their lobby summaries and seated players) and lists
//! theirs with its own (`peers`); a node gone silent has its players marked away on every
//! owner and its quick-match entries dropped (`host`, `matchmaker`). A `logout_all` on one
//! node closes the account's other connections on every node (`revoked`); a `notify` message
//! reaches the account's connections on every node (`notified`).
//! The core sees all this only as a [`Directory`](crate::lobby::Directory) (`directory`),
//! given to `serve_boxed` (`serve_with` on a boxed signal to stop).

mod bus;
mod directory;
mod fanout;
mod handoff;
mod host;
mod lease;
mod matchmaker;
mod metrics;
mod moved;
mod notified;
mod peers;
mod remote;
mod revoked;
mod transit;
mod wire;

use crate::lobby::{Directory, LocalDirectory};
use crate::player::RoomId;
use crate::revocations::{Revocation, Revocations};
use crate::room::RoomHandle;
use crate::server::{serve_boxed, Config};
use crate::store::{Fences, PostgresStore, Store};
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
pub use lease::{LEASE_TTL, RENEW_EVERY, SERVE_MARGIN};

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
    /// The fencing token of each room this node runs, and whether it may serve them now
    /// (shared with the store, which sends the token with every append).
    fences: Arc<Fences>,
    /// Tokens revoked, told to this node's connections (and relayed to the other nodes).
    revocations: Revocations,
    /// Rooms on their way to or from this node: requests for them wait for them to land.
    transit: Arc<transit::Transit>,
    /// Stopping: it takes no new room and no expired lease (`handoff`).
    draining: std::sync::atomic::AtomicBool,
    /// Rooms being handed to other nodes, until their tasks have ended here.
    handoffs: DashMap<RoomId, handoff::Handoff>,
}

/// Runs a cluster node on `listener` until `shutdown` completes: the PostgreSQL store
/// `config.db` names, the bus and leases of `cluster`.
pub async fn serve_cluster(
    listener: TcpListener,
    config: Config,
    cluster: ClusterConfig,
    shutdown: impl Future + Send,
) -> anyhow::Result<()> {
    serve_node(listener, config, cluster, crate::server::boxed(shutdown)).await
}

/// [`serve_cluster`]'s body, on a boxed signal to stop (compiled once, here).
async fn serve_node(
    listener: TcpListener,
    mut config: Config,
    cluster: ClusterConfig,
    shutdown: crate::server::Shutdown<'_>,
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
    let name: Arc<str> = Arc::from(name);
    let fences = Arc::new(Fences::new(name.clone(), LEASE_TTL - SERVE_MARGIN));
    let db = url.clone();
    let fenced = fences.clone();
    let store: Arc<dyn Store> = Arc::new(
        tokio::task::spawn_blocking(move || PostgresStore::connect_fenced(&db, Some(fenced)))
            .await??,
    );
    let (bus, losses) = Bus::connect(&cluster.bus, &name).await?;
    let local = Arc::new(LocalDirectory::new(config.max_rooms));
    let leases = Arc::new(Leases::new(&url, name.clone()));
    let metrics = ClusterMetrics::new();
    let (revocations, revoked_here) = Revocations::relayed();
    let node = Arc::new(Node {
        name: name.clone(),
        bus: bus.clone(),
        leases: leases.clone(),
        local: local.clone(),
        proxies: DashMap::new(),
        members: Arc::new(Members::new(
            store.clone(),
            local.clone(),
            metrics.refills.clone(),
        )),
        metrics,
        peers: Arc::new(NodePeers::new(name.clone())),
        fences,
        revocations,
        transit: Arc::default(),
        draining: std::sync::atomic::AtomicBool::new(false),
        handoffs: DashMap::new(),
    });
    let host = Arc::new(host::Host::new(
        bus.clone(),
        local,
        node.transit.clone(),
        config.send_queue.max(1),
        node.metrics.clone(),
        node.fences.clone(),
        node.peers.clone(),
    ));
    let commands = bus.client.subscribe(bus::cmd_subject(&name)).await?;
    let frames = bus.client.subscribe(bus::frames_subject(&name)).await?;
    let moves = bus.client.subscribe(bus::MOVED_SUBJECT).await?;
    // Before the pings: a node that answers a ping takes handoffs.
    let adoptions = bus.client.subscribe(bus::adopt_subject(&name)).await?;
    let pings = bus.client.subscribe(bus::ping_subject(&name)).await?;
    let revoked_elsewhere = bus.client.subscribe(bus::REVOKED_SUBJECT).await?;
    let notified_elsewhere = bus.client.subscribe(bus::NOTIFY_SUBJECT).await?;
    let (notify_relay, notify_bus) = crate::notify::relay::NotifyRelay::new();
    config.notify.relay = Some(notify_relay);
    let matchmaker = Arc::new(ClusterMatchmaker::new(
        name.clone(),
        leases,
        &url,
        host.clone(),
        node.members.clone(),
        bus.clone(),
    ));
    let (taken_tx, taken_rx) = mpsc::channel(256);
    let (gone_tx, gone_rx) = mpsc::channel(64);
    let mut tasks = node.peers.start(&bus, gone_tx).await?;
    tasks.extend([
        tokio::spawn(node.clone().follow_moves(moves)),
        tokio::spawn(bus::answer_pings(bus.clone(), pings)),
        tokio::spawn(revoked::publish(bus.clone(), name.clone(), revoked_here)),
        tokio::spawn(revoked::follow(
            name.clone(),
            node.revocations.clone(),
            revoked_elsewhere,
        )),
        tokio::spawn(notified::relay(
            bus.clone(),
            name.clone(),
            notify_bus,
            notified_elsewhere,
        )),
        tokio::spawn(moved::bury(gone_rx, host.clone(), matchmaker.clone())),
        tokio::spawn(host.clone().serve(commands)),
        tokio::spawn(node.members.clone().serve(frames)),
        tokio::spawn(node.clone().resume_after_losses(host.clone(), losses)),
        tokio::spawn(handoff::adopt(node.clone(), adoptions, taken_tx.clone())),
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
        handed: std::sync::atomic::AtomicBool::new(false),
    });
    serve_boxed(listener, config, store, directory, shutdown).await
}

/// Every [`RENEW_EVERY`]: renews this node's leases (and marks its quick-match players
/// alive), ends the rooms it runs whose lease another node has taken meanwhile, and drops
/// relays no room holds; then takes over expired leases and hands their rooms to the server
/// to restore. After a stall longer than a lease (the process was paused), its connections in
/// rooms owned elsewhere are told to resume them: the owners may have marked them away.
async fn keep_leases(
    node: Arc<Node>,
    matchmaker: Arc<ClusterMatchmaker>,
    host: Arc<host::Host>,
    taken: mpsc::Sender<RoomId>,
) {
    let mut tick = tokio::time::interval(RENEW_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last = std::time::Instant::now();
    loop {
        tick.tick().await;
        if last.elapsed() > LEASE_TTL {
            tracing::warn!(stalled = ?last.elapsed(), "this node stalled longer than a lease");
            node.members.moved_all();
            node.revocations.heard(Revocation::Recheck);
        }
        last = std::time::Instant::now();
        host.sweep();
        let held = node.fences.held();
        let sent = std::time::Instant::now();
        match node.leases.renew().await {
            Ok(renewed) => {
                node.metrics
                    .rooms_owned
                    .set(i64::try_from(renewed.len()).unwrap_or(i64::MAX));
                let renewed: std::collections::HashMap<String, u64> = renewed.into_iter().collect();
                for (room, epoch) in held {
                    if renewed.get(&*room) != Some(&epoch) {
                        node.lose(&room, epoch).await;
                    }
                }
                node.fences.renewed(sent);
            }
            Err(e) => {
                tracing::warn!("could not renew the room leases: {e}");
                continue;
            }
        }
        if let Err(e) = matchmaker.refresh().await {
            tracing::warn!("could not refresh the quick-match queue: {e}");
        }
        if node.is_draining() {
            continue; // Its rooms go to other nodes; it takes none.
        }
        match node.leases.take_expired().await {
            Ok(rooms) => {
                for room in rooms {
                    let room: RoomId = Arc::from(room);
                    node.metrics.failovers.inc();
                    node.transit.take(room.clone());
                    // Our own room whose lease lapsed and that we took again: its task may
                    // have missed nothing, but another node may have run it meanwhile; it
                    // ends, and the room is restored from the store once it has.
                    if let Some(stale) = node.local.get(&room).await {
                        if let Some(epoch) = node.fences.epoch(&room) {
                            node.lose(&room, epoch).await;
                        }
                        let taken = taken.clone();
                        tokio::spawn(async move {
                            stale.tx.closed().await;
                            let _ = taken.send(room).await;
                        });
                        continue;
                    }
                    tracing::info!(%room, "taking over a room whose lease expired");
                    if taken.send(room).await.is_err() {
                        return;
                    }
                }
            }
            Err(e) => tracing::warn!("could not look for expired leases: {e}"),
        }
    }
}
