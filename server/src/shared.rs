//! What every connection and room task shares: the game systems, the lobby, the store, the
//! clock, the counters, the limits, and the shutdown signal.

use crate::clock::Clock;
use crate::lobby::Lobby;
use crate::metrics::Metrics;
use crate::revocations::Revocations;
use crate::store::Store;
use crate::system::{GameInfo, GameSystem};
use crate::throttle::Throttle;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// State every connection and room task shares.
pub struct Shared {
    /// The game systems on offer (`systems::all`).
    pub systems: Vec<Arc<dyn GameSystem>>,
    /// Rooms, listing, seats, matchmaker.
    pub lobby: Lobby,
    /// The event log.
    pub store: Arc<dyn Store>,
    /// The server clock.
    pub clock: Arc<dyn Clock>,
    /// How many password tries each account name and address may make (`throttle.rs`).
    pub throttle: Throttle,
    /// Tokens revoked while connections speak with them (`revocations.rs`).
    pub revocations: Revocations,
    /// Counters for `/metrics`.
    pub metrics: Arc<Metrics>,
    /// Becomes true when the server shuts down.
    pub(crate) shutdown: watch::Receiver<bool>,
    /// Next connection id.
    pub(crate) conn_ids: AtomicU64,
    /// Frames queued per connection before it is dropped as too slow.
    pub send_queue: usize,
    /// How long a new connection has for its HTTP request.
    pub handshake_timeout: Duration,
    /// How long an upgraded connection has to say `hello`.
    pub hello_timeout: Duration,
    /// Most spectators in one room.
    pub max_spectators: usize,
    /// Foreign origins allowed to open a WebSocket, normalised (`http::normalise_origin`).
    pub allowed_origins: Vec<String>,
    /// Reverse proxies whose forwarding headers are believed (`--trust-proxy`; `proxy.rs`).
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Finished games' records, built once (`records.rs`).
    pub records: crate::records::Records,
    /// How long a `/g/ROOM.txt` exchange has, once its record is ready, to be taken.
    pub record_timeout: Duration,
    /// The threads computer players think on, and the cap on games with them.
    pub bots: crate::bots::Pool,
    /// How long `quick` with `bots` waits for people before computer players fill the seats.
    pub bot_wait: crate::clock::Millis,
    /// Tells players of their games outside the page (`notify/`): rooms call
    /// `notifier.send`.
    pub notifier: crate::notify::Notifier,
    /// Held by every task through this struct: when the last `Shared` is dropped the
    /// receiver in `serve` sees the channel close, and shutdown is complete.
    /// The administrators (`--admin`): moderators who may make others moderators.
    pub admins: crate::moderation::Admins,
    /// Each player's recent chat lines, for the chat rate limit (`moderation::CHAT_PER_MINUTE`).
    pub chat_limit: crate::moderation::ChatLimit,
    pub(crate) _drain: mpsc::Sender<()>,
}

impl Shared {
    /// A fresh connection id.
    pub fn next_conn_id(&self) -> u64 {
        self.conn_ids.fetch_add(1, Ordering::Relaxed)
    }

    /// The game with this id (or a name its system accepts), and its system.
    pub fn find_game(&self, game: &str) -> Option<(Arc<dyn GameSystem>, GameInfo)> {
        self.systems
            .iter()
            .find_map(|s| Some((s.clone(), s.find(game)?.clone())))
    }

    /// A receiver that changes when the server shuts down.
    pub fn shutdown(&self) -> watch::Receiver<bool> {
        self.shutdown.clone()
    }
}
