//! The durable event log. Every room's seed, options and accepted actions are stored with
//! the events they caused, each batch committed before any of it is sent. On start the server
//! replays the actions of every unfinished room through a fresh game (the engine is
//! deterministic) and carries on from the last stored event. `Store` is a small trait so the
//! log can move to another database without touching the rooms.
//!
//! On SQLite (the default), one writer thread makes commits durable: appends from every room
//! queue up while it writes and go into the next group commit together, which is one
//! `write()` of checksummed records to the commit log (`commit_log`), a file of our own beside
//! the database; each room awaits its own [`Commit`] before sending anything. Nothing else is
//! on that path: a second thread, the archiver (`archiver`), owns the SQLite connection and
//! files the committed rows there, checkpoints, and deletes the commit log's segments once
//! SQLite holds them, all at its own pace, in short slices. On start whatever the commit
//! log holds is filed into SQLite first. Measurements in BENCHMARKS.md.
//!
//! PostgreSQL's writer is a task on a runtime of its own; both run the same group-commit loop
//! (`group_commit`), each store only saying how a group is made durable.

mod accounts;
mod accounts_pg;
mod accounts_sqlite;
mod accounts_upgrade;
mod archiver;
mod backup;
mod commit;
mod commit_log;
mod error;
mod fence;
mod group_commit;
mod journal;
mod lines;
mod moderation;
mod moderation_pg;
mod moderation_schema;
mod moderation_sqlite;
mod notify;
mod notify_pg;
mod notify_sqlite;
mod pg_schema;
mod postgres;
mod record;
mod schema;
mod sqlite;

use crate::clock::Millis;

pub use accounts::{
    AccountRecord, AccountStore, Claimed, PairWindow, RatedLine, RatingRecord, Recorded,
    SolvedLine, MAX_TOKENS_PER_ACCOUNT,
};
pub use backup::{backup, restore, BackupError, Copied};
pub use commit::Commit;
pub use commit_log::Durability;
pub use error::StoreError;
pub use fence::Fences;
pub use moderation::{ModerationStore, NewReport, SanctionKind, SanctionRecord};
pub use notify::{NotifyRecord, NotifyStore, PushRecord, Subscribed};
pub use postgres::PostgresStore;
pub use record::{
    ActionRecord, Append, ArchivedRoom, ArchivedSeat, GamesQuery, PlayerQuery, PlayerRecord,
    RoomRecord, SavedRoom,
};
pub use sqlite::SqliteStore;

/// Opens the store `db` names: a PostgreSQL URL (`postgres://user@host:port/db`, also
/// `postgresql://`), or else a SQLite file path or `:memory:`, with SQLite's commits as
/// durable as `durability` says (PostgreSQL's are its own). It blocks while it connects or
/// opens the file: call it off the runtime (`serve` uses `spawn_blocking`).
pub fn open_with(
    db: &str,
    durability: Durability,
) -> Result<std::sync::Arc<dyn Store>, StoreError> {
    if db.starts_with("postgres://") || db.starts_with("postgresql://") {
        Ok(std::sync::Arc::new(PostgresStore::connect(db)?))
    } else {
        Ok(std::sync::Arc::new(SqliteStore::open_with(db, durability)?))
    }
}

/// The event log and the player tokens (and, through [`AccountStore`], claimed names;
/// through [`NotifyStore`], notification settings; through [`ModerationStore`], moderators,
/// sanctions, reports, the audit log, blocks and deleted chat lines).
/// Async (through `async_trait`, which boxes each call's future, so the trait stays usable as
/// `dyn Store`): a store on the network waits without holding a runtime worker, and one on a
/// local thread answers through a oneshot.
#[async_trait::async_trait]
pub trait Store: AccountStore + NotifyStore + ModerationStore + Send + Sync + 'static {
    /// Records a new room.
    async fn create_room(&self, room: &RoomRecord) -> Result<(), StoreError>;
    /// Appends one room's events and the action that caused them, atomically and durably;
    /// nothing of it may be sent before the returned [`Commit`] resolves.
    fn append(&self, append: Append) -> Commit;
    /// Sets a room's status (`waiting`, `playing`, `finished`, `closed`) at server time `at`
    /// (an ended room's time decides when [`Store::prune`] deletes it).
    async fn set_status(&self, room: &str, status: &str, at: Millis) -> Result<(), StoreError>;
    /// Up to `limit` events of `room` with `seq > since`, in order.
    async fn events(
        &self,
        room: &str,
        since: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, StoreError>;
    /// A room's record and status, if it exists.
    async fn room(&self, room: &str) -> Result<Option<(RoomRecord, String)>, StoreError>;
    /// Every room that is waiting or playing, with its events and actions, in one read (a
    /// restart lists [`Store::unfinished_ids`] and reads each room with [`Store::saved`]).
    async fn unfinished(&self) -> Result<Vec<SavedRoom>, StoreError>;
    /// The ids of every room that is waiting or playing, in the order they were created:
    /// what a restart goes through, reading each room it may run with [`Store::saved`].
    async fn unfinished_ids(&self) -> Result<Vec<String>, StoreError>;
    /// One room, if it is waiting or playing, with its events and actions, to continue it
    /// here (after a restart, or on a node that takes it over); the store's order check
    /// holds for its appends from its last one on.
    async fn saved(&self, room: &str) -> Result<Option<SavedRoom>, StoreError>;
    /// Records (or renames) a player, seen at server time `at`.
    async fn put_player(
        &self,
        token: &str,
        player: &PlayerRecord,
        at: Millis,
    ) -> Result<(), StoreError>;
    /// The player a token stands for.
    async fn player(&self, token: &str) -> Result<Option<PlayerRecord>, StoreError>;
    /// Deletes what is older than `before` (server time): rooms that ended before it, with
    /// their events and chat, and players last seen before it, at most [`PRUNE_BATCH`] of
    /// each per call (it shares the writer with group commits). Returns how many rooms and
    /// players went.
    async fn prune(&self, before: Millis) -> Result<(u64, u64), StoreError>;
    /// Every accepted action of `room`, in order (a finished game's record is made of them).
    async fn actions(&self, room: &str) -> Result<Vec<ActionRecord>, StoreError>;
    /// Files a finished public game under the players who sat in it.
    async fn archive(&self, game: &ArchivedRoom) -> Result<(), StoreError>;
    /// A player's archived games, newest first; `None` when `before` names no archived game.
    async fn games(&self, query: &GamesQuery) -> Result<Option<Vec<ArchivedRoom>>, StoreError>;
    /// The kept record of finished room `room` (`records.rs`), if it was built.
    async fn record(&self, room: &str) -> Result<Option<String>, StoreError>;
    /// Keeps `text` as `room`'s record, unless one is kept already (a record never changes:
    /// the first one written stays). Pruned with the room.
    async fn keep_record(&self, room: &str, text: &str) -> Result<(), StoreError>;
    /// Answers once the store can serve a read (`GET /readyz`): by default, a lookup of a
    /// token no player has.
    async fn ping(&self) -> Result<(), StoreError> {
        self.player("").await.map(|_| ())
    }
}

/// Most rooms, and most players, one [`Store::prune`] deletes.
pub const PRUNE_BATCH: usize = 200;
