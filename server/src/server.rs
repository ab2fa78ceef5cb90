//! The listener: accepts TCP connections (bounded by a semaphore, a permit held for the
//! connection's whole life, upgraded or not), serves each one's HTTP exchange (`http`) and
//! then, if it upgraded, its WebSocket `Connection`; reloads unfinished rooms from the store
//! on start, and on shutdown stops accepting, tells every connection and room, and waits for
//! them to drain.

use crate::clock::Millis;
use crate::clock::{Clock, SystemClock};
use crate::connection;
use crate::http;
use crate::lobby::{Directory, Lobby, LocalDirectory, LocalMatchmaker, PublicList, LISTING_EVERY};
use crate::metrics::Metrics;
use crate::player::RoomId;
use crate::retention;
use crate::room;
use crate::shared::Shared;
use crate::store::Store;
use crate::throttle::Throttle;
use futures::StreamExt;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch, Semaphore};

/// Most connections served at once (the default of `Config::max_connections`), counting those
/// still in their HTTP exchange: further clients wait in the kernel's accept backlog until a
/// connection ends. The handshake and hello timeouts bound how long a client that never
/// becomes a player can hold a place.
pub const MAX_CONNECTIONS: usize = 10_000;
/// How long shutdown waits for connections and rooms to finish.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(5);

/// How to run a server.
pub struct Config {
    /// The store: a SQLite path, `:memory:`, or a PostgreSQL URL (`postgres://…`).
    pub db: String,
    /// Where time comes from (tests use a `ManualClock`).
    pub clock: Arc<dyn Clock>,
    /// Frames queued per connection before a client counts as too slow.
    pub send_queue: usize,
    /// How long ended rooms and unseen guests are kept (`None`: for ever); see `retention`.
    pub retain: Option<Millis>,
    /// Most live rooms at once (`lobby::MAX_ROOMS`).
    pub max_rooms: usize,
    /// Connections served at once (`MAX_CONNECTIONS`).
    pub max_connections: usize,
    /// How long a new connection has for its HTTP request (`http::HANDSHAKE_TIMEOUT`).
    pub handshake_timeout: Duration,
    /// How long an upgraded connection has to say `hello` (`connection::HELLO_TIMEOUT`).
    pub hello_timeout: Duration,
    /// Origins, besides the server's own, whose pages may open a WebSocket
    /// (`--allow-origin`, e.g. `https://orion.example`).
    pub allowed_origins: Vec<String>,
    /// How durable a SQLite commit is when the room sends its events (`--sync`).
    pub sync: crate::store::Durability,
    /// Most spectators in one room (`--max-spectators`, `room::MAX_SPECTATORS`).
    pub max_spectators: usize,
    /// How long a reader of `/g/ROOM.txt` has to take the record (`http::RECORD_TIMEOUT`).
    pub record_timeout: Duration,
    /// Threads computer players think on (`--bot-threads`; at least one).
    pub bot_threads: usize,
    /// The CPUs computer players think on (`--bot-cpus`; empty: any).
    pub bot_cpus: Vec<usize>,
    /// Most games with computer players at once (`--max-bot-games`, `bots::MAX_BOT_GAMES`).
    pub max_bot_games: usize,
    /// How long `quick` with `bots` waits for people, in ms (`--bot-wait`, `bots::BOT_WAIT`).
    pub bot_wait: Millis,
    /// The administrators' account names (`--admin`, `moderation/`).
    pub admins: Vec<String>,
    /// How players are told of their games outside the page (`--smtp`, `--mail-from`,
    /// `--public-url`, `--allow-push-endpoint`; `notify/`).
    pub notify: crate::notify::NotifyConfig,
    /// Reverse proxies whose forwarding headers are believed (`--trust-proxy`; `proxy.rs`).
    pub trusted_proxies: Vec<ipnet::IpNet>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            db: ":memory:".into(),
            clock: Arc::new(SystemClock),
            send_queue: connection::SEND_QUEUE,
            retain: Some(retention::DEFAULT_RETAIN),
            max_rooms: crate::lobby::MAX_ROOMS,
            max_connections: MAX_CONNECTIONS,
            handshake_timeout: http::HANDSHAKE_TIMEOUT,
            hello_timeout: connection::HELLO_TIMEOUT,
            allowed_origins: Vec::new(),
            sync: crate::store::Durability::default(),
            max_spectators: crate::room::MAX_SPECTATORS,
            record_timeout: http::RECORD_TIMEOUT,
            bot_threads: 1,
            bot_cpus: Vec::new(),
            max_bot_games: crate::bots::MAX_BOT_GAMES,
            bot_wait: crate::bots::BOT_WAIT,
            notify: crate::notify::NotifyConfig::default(),
            trusted_proxies: Vec::new(),
            admins: Vec::new(),
        }
    }
}

/// Runs a server on `listener` with a throwaway in-memory store until `shutdown` completes.
pub async fn run(listener: TcpListener, shutdown: impl Future + Send) -> anyhow::Result<()> {
    serve(listener, Config::default(), shutdown).await
}

/// Runs a server on `listener` with `config` until `shutdown` completes, on the store
/// `config.db` names and a directory of this process's rooms.
pub async fn serve(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future + Send,
) -> anyhow::Result<()> {
    serve_until(listener, config, boxed(shutdown)).await
}

/// A server's signal to stop, boxed: the servers' bodies take it so that they are compiled
/// once, in this crate, not again for each caller's kind of future (a binary that called the
/// generic body compiled the whole of it again: 90 s of a clean test build).
pub type Shutdown<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// `shutdown` as a [`Shutdown`].
pub fn boxed<'a>(shutdown: impl Future + Send + 'a) -> Shutdown<'a> {
    Box::pin(async move {
        shutdown.await;
    })
}

/// [`serve`]'s body.
async fn serve_until(
    listener: TcpListener,
    config: Config,
    shutdown: Shutdown<'_>,
) -> anyhow::Result<()> {
    let db = config.db.clone();
    let sync = config.sync;
    let store = tokio::task::spawn_blocking(move || crate::store::open_with(&db, sync)).await??;
    let directory: Arc<dyn Directory> = Arc::new(LocalDirectory::new(config.max_rooms));
    serve_boxed(listener, config, store, directory, shutdown).await
}

/// Runs a server on `listener` with `config` until `shutdown` completes, on the given store
/// and room directory (`config.db` is not read): the entry point for a store or directory
/// made outside the core, such as a cluster's.
pub async fn serve_with(
    listener: TcpListener,
    config: Config,
    store: Arc<dyn Store>,
    directory: Arc<dyn Directory>,
    shutdown: impl Future + Send,
) -> anyhow::Result<()> {
    serve_boxed(listener, config, store, directory, boxed(shutdown)).await
}

/// [`serve_with`]'s body, on a boxed signal to stop.
pub async fn serve_boxed(
    listener: TcpListener,
    config: Config,
    store: Arc<dyn Store>,
    directory: Arc<dyn Directory>,
    shutdown: Shutdown<'_>,
) -> anyhow::Result<()> {
    let matchmaker = directory
        .matchmaker()
        .unwrap_or_else(|| Arc::new(LocalMatchmaker::default()));
    let revocations = directory.revocations().unwrap_or_default();
    let metrics = Arc::new(Metrics::default());
    for collector in directory.collectors() {
        metrics.register(collector);
    }
    let (notify, shutdown_rx) = watch::channel(false);
    let (drain, mut drained) = mpsc::channel::<()>(1);
    let records = crate::records::Records::new(&metrics);
    let notifier = crate::notify::Notifier::start(
        store.clone(),
        config.clock.clone(),
        &config.notify,
        listener.local_addr().ok(),
        shutdown_rx.clone(),
    )
    .await?;
    let shared = Arc::new(Shared {
        systems: crate::systems::all(),
        lobby: Lobby::new(directory, matchmaker, config.max_rooms),
        store: store.clone(),
        clock: config.clock.clone(),
        throttle: Throttle::default(),
        revocations,
        metrics,
        shutdown: shutdown_rx,
        conn_ids: AtomicU64::new(1),
        send_queue: config.send_queue.max(1),
        handshake_timeout: config.handshake_timeout,
        hello_timeout: config.hello_timeout,
        max_spectators: config.max_spectators.max(1),
        allowed_origins: config
            .allowed_origins
            .iter()
            .map(|o| http::normalise_origin(o))
            .chain(
                config
                    .notify
                    .public_url
                    .as_deref()
                    .and_then(http::origin_of),
            )
            .collect(),
        trusted_proxies: config.trusted_proxies.clone(),
        records,
        record_timeout: config.record_timeout,
        bots: crate::bots::Pool::new(config.bot_threads, config.max_bot_games, &config.bot_cpus),
        bot_wait: config.bot_wait,
        notifier,
        admins: crate::moderation::Admins::new(&config.admins),
        chat_limit: crate::moderation::ChatLimit::default(),
        _drain: drain,
    });
    tokio::spawn(crate::moderation::follow(
        Arc::downgrade(&shared),
        shared.revocations.subscribe(),
        shared.shutdown(),
    ));
    tokio::spawn(flush_listing(Arc::downgrade(&shared)));
    if let Some(peers) = shared.lobby.peer_listing() {
        tokio::spawn(follow_peers(Arc::downgrade(&shared), peers));
    }
    let lag = crate::lag::histogram();
    shared.metrics.register(Box::new(lag.clone()));
    tokio::spawn(crate::lag::watch(lag, shared.shutdown()));
    if let Some(retain) = config.retain {
        let (store, clock) = (store.clone(), shared.clock.clone());
        tokio::spawn(retention::prune_loop(
            store,
            clock,
            retain,
            shared.shutdown(),
        ));
    }
    // The ids only, then each room read once it is ours: on a cluster another node may run
    // it, or may have run it on and handed it here since the list was read (restored from an
    // older read, it would go back to an older seq while its members had seen later events).
    let unfinished = store.unfinished_ids().await?;
    let mut n = 0;
    for id in unfinished {
        if !shared.lobby.rooms.claim(&id).await {
            continue;
        }
        let room = match store.saved(&id).await {
            Ok(Some(room)) => room,
            Ok(None) => {
                shared.lobby.rooms.remove(&id).await;
                continue;
            }
            Err(e) => {
                tracing::error!(room = %id, "could not read the room to restore it: {e}");
                shared.lobby.rooms.give_back(&id).await;
                continue;
            }
        };
        match room::restore(&shared, room).await {
            Ok(_) => n += 1,
            Err(e) => tracing::error!(room = %id, "could not restore: {e}"),
        }
    }
    if let Some(taken) = shared.lobby.rooms.takeovers() {
        tokio::spawn(take_over(Arc::downgrade(&shared), taken));
    }
    tracing::info!(addr = ?listener.local_addr().ok(), rooms = n, "listening");
    let limit = Arc::new(Semaphore::new(config.max_connections.max(1)));
    tokio::select! {
        res = accept_loop(&listener, &shared, &limit) => res?,
        _ = shutdown => tracing::info!("shutting down"),
    }
    drop(listener);
    // On a cluster the rooms go to other nodes first, while their members are still
    // connected here: they follow them (`moved`) before their connections close.
    shared.lobby.rooms.drain().await;
    let _ = notify.send(true);
    drop(shared);
    if tokio::time::timeout(DRAIN_TIMEOUT, drained.recv())
        .await
        .is_err()
    {
        tracing::warn!("some tasks did not finish in time");
    }
    Ok(())
}

async fn accept_loop(
    listener: &TcpListener,
    shared: &Arc<Shared>,
    limit: &Arc<Semaphore>,
) -> anyhow::Result<()> {
    loop {
        let permit = limit.clone().acquire_owned().await?;
        let (stream, addr) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors and the like: back off instead of spinning.
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let shared = shared.clone();
        tokio::spawn(async move {
            if let Err(e) = handle(stream, addr.ip(), shared).await {
                tracing::debug!(%addr, "connection error: {e}");
            }
            drop(permit);
        });
    }
}

/// Serves one TCP connection: its HTTP exchange, then its WebSocket if it upgraded.
async fn handle(stream: TcpStream, peer: IpAddr, shared: Arc<Shared>) -> anyhow::Result<()> {
    let _ = stream.set_nodelay(true);
    // Boxed so that hyper's connection state is freed once the exchange is over, instead of
    // sitting inside this task's future for the WebSocket's whole life.
    let Some((ws, peer)) = Box::pin(http::handshake(stream, peer, &shared)).await? else {
        return Ok(());
    };
    shared.metrics.connections.inc();
    shared.metrics.connections_total.inc();
    let shutdown = shared.shutdown();
    connection::serve(ws, shared.clone(), peer, shutdown).await;
    shared.metrics.connections.dec();
    Ok(())
}

/// Rooms restored at once while taking over or adopting (a draining node hands its rooms over
/// all together; one restore mostly waits on the store).
const RESTORES_AT_ONCE: usize = 8;

/// Restores the rooms the directory hands over while the server runs (a dead node's, or a
/// stopping node's, on a cluster), [`RESTORES_AT_ONCE`] at a time; one that has ended
/// meanwhile is given back. Ends with the server.
async fn take_over(shared: Weak<Shared>, taken: mpsc::Receiver<RoomId>) {
    let rooms = futures::stream::unfold(taken, |mut taken| async move {
        taken.recv().await.map(|id| (id, taken))
    });
    // A room handed over twice (taken over, then adopted) is restored once: two restores at
    // once would both take its lease and both run.
    let restoring = &std::sync::Mutex::new(std::collections::HashSet::new());
    rooms
        .for_each_concurrent(RESTORES_AT_ONCE, |id| {
            let shared = shared.clone();
            async move {
                let Some(shared) = shared.upgrade() else {
                    return;
                };
                if *shared.shutdown.borrow() {
                    return;
                }
                let first = restoring.lock().is_ok_and(|mut r| r.insert(id.clone()));
                if !first {
                    return;
                }
                take_over_one(&shared, id.clone()).await;
                if let Ok(mut r) = restoring.lock() {
                    r.remove(&id);
                }
            }
        })
        .await;
}

/// Restores one room taken over, or gives it back if it has ended or could not be read.
async fn take_over_one(shared: &Arc<Shared>, id: RoomId) {
    match shared.store.saved(&id).await {
        Ok(Some(saved)) => match room::restore(shared, saved).await {
            Ok(_) => tracing::info!(room = %id, "took the room over"),
            Err(e) => tracing::error!(room = %id, "could not take over: {e}"),
        },
        Ok(None) => shared.lobby.rooms.remove(&id).await,
        Err(e) => {
            tracing::warn!(room = %id, "could not read the room to take it over: {e}");
            shared.lobby.rooms.give_back(&id).await;
        }
    }
}

/// Lists the other servers' rooms (a cluster's other nodes) as they change. Ends with the
/// server.
async fn follow_peers(shared: Weak<Shared>, mut peers: watch::Receiver<Arc<PublicList>>) {
    while peers.changed().await.is_ok() {
        match shared.upgrade() {
            Some(s) => s.lobby.peers_changed(),
            None => return,
        }
    }
}

/// Publishes the listing changes [`Lobby::publish`] held back, one rebuild per
/// [`LISTING_EVERY`] at most. Ends with the server.
async fn flush_listing(shared: Weak<Shared>) {
    let Some(flush) = shared.upgrade().map(|s| s.lobby.flush_signal()) else {
        return;
    };
    loop {
        flush.notified().await;
        tokio::time::sleep(LISTING_EVERY).await;
        match shared.upgrade() {
            Some(s) => s.lobby.flush(),
            None => return,
        }
    }
}
