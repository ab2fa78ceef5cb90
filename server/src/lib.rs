//! Orion Online server: a WebSocket lobby of rooms (one player for a puzzle, up to six for
//! Orbs) of every game system, where every move is validated by its engine, stored, and
//! broadcast as it happens (PROTOCOL.md version 1 and the README's additions). `serve` (a
//! `Config`), `serve_with` (any `Store` and `Directory`), `serve_cluster` (a node of a
//! cluster) and `run` (an in-memory store, for tests) are the whole server; `main` only
//! parses arguments. Layout: `server.rs` (accept, shutdown), `connection.rs` → `session/`
//! (one handler per request) → `room/` (one task per room) through the seam `system.rs` to
//! `systems/` (the only files naming an engine); `lobby/`, `store/`, `cluster/` behind
//! traits; `http.rs`, `assets.rs`, `catalogue.rs`, `export.rs`, `records.rs`, `lessons/`
//! (with a claimed account's progress) and `rules/` (the rules pages) for HTTP.
//! docs/architecture.md has the whole map.

mod api_answer;
mod assets;
mod bots;
mod catalogue;
mod clock;
mod cluster;
mod config_file;
mod connection;
mod export;
mod http;
mod lag;
mod lessons;
mod lobby;
mod metrics;
mod moderation;
mod notify;
mod options;
mod outbox;
mod password;
mod player;
mod protocol;
mod proxy;
mod rating;
mod readiness;
mod records;
mod retention;
mod revocations;
mod room;
mod rules;
mod scheduling;
mod server;
mod session;
mod shared;
mod store;
mod system;
mod systems;
mod text;
mod throttle;
mod token;

pub use bots::{BOT_WAIT, CLAIM_REACTION, MAX_BOT_GAMES};
pub use clock::{Clock, ManualClock, SystemClock};
pub use cluster::{serve_cluster, ClusterConfig, LEASE_TTL, RENEW_EVERY};
pub use config_file::{mask_url, parse as parse_options, printed as printed_options, ConfigError};
pub use connection::{HELLO_TIMEOUT, MAX_FRAME, MAX_STRIKES, RATE_BURST, SEND_QUEUE};
pub use http::{HANDSHAKE_TIMEOUT, RECORD_TIMEOUT};
pub use lobby::{Directory, LocalDirectory};
pub use lobby::{
    LOBBY_PAGE_BYTES, LOBBY_PAGE_ROOMS, MAX_CORRESPONDENCE_SEATS, MAX_ROOMS, MAX_SEATS_PER_PLAYER,
};
pub use moderation::{
    ADDRESS_BAN, CHAT_PER_MINUTE, MAX_BAN_DAYS, MAX_BLOCKS, MAX_MUTE_MINUTES, MAX_REASON,
    MAX_REPORTS_PER_HOUR,
};
pub use notify::{
    Notice, Notifier, NotifyConfig, EMAIL_TOKEN_LIFE, MAX_EMAIL_REQUESTS, MAX_PUSH_SUBSCRIPTIONS,
};
pub use options::{LogFormat, Options, SyncMode, Tool};
pub use outbox::MAX_OUT_FRAME;
pub use retention::DEFAULT_RETAIN;
pub use room::{RoomOptions, DEFAULT_SEAT_HOLD, MAX_SPECTATORS, MIN_TURN_CLOCK, WAITING_HOLD};
pub use scheduling::{run_on, share_cpus, CpuRange, SharedCpus};
pub use server::{run, serve, serve_with, Config, MAX_CONNECTIONS};
pub use session::{GAMES_PAGE, HISTORY_PAGE_BYTES, MAX_ROOMS_PER_CONNECTION};
pub use store::{backup, restore, BackupError, Copied};
pub use store::{AccountRecord, AccountStore, MAX_TOKENS_PER_ACCOUNT};
pub use store::{
    ActionRecord, Append, ArchivedRoom, ArchivedSeat, Commit, Durability, Fences, GamesQuery,
    PlayerQuery, PlayerRecord, PostgresStore, RoomRecord, SavedRoom, SqliteStore, Store,
    StoreError,
};
pub use store::{NotifyRecord, NotifyStore, PushRecord, Subscribed};
pub use text::{name_skeleton, MAX_CHAT, MAX_NAME};
pub use throttle::{Policy, PER_ACCOUNT, PER_ADDRESS};
pub use token::hash as token_hash;
