//! What the store keeps for moderation (`moderation/`): the accounts an administrator made
//! moderators, the sanctions in force (bans, mutes, a guest's address banned), players'
//! reports, the moderators' audit log, each account's blocked players, and the chat lines a
//! moderator deleted (a stored redaction, applied whenever a room's events are shown). A trait
//! of its own beside [`super::Store`], implemented by both stores (`moderation_sqlite.rs`,
//! `moderation_pg.rs`); everything here survives a restart and is shared by every node.

use super::error::StoreError;
use crate::clock::Millis;
pub use orion_protocol::{AuditEntry, BlockedPlayer, ReportEntry};

/// What a sanction stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SanctionKind {
    /// A player (account or guest, by player id) may not say hello or log in.
    Ban,
    /// A player's chat is refused.
    Mute,
    /// A banned guest's address: no new guest from it.
    Address,
}

impl SanctionKind {
    /// The name the store keeps it under.
    pub fn as_str(self) -> &'static str {
        match self {
            SanctionKind::Ban => "ban",
            SanctionKind::Mute => "mute",
            SanctionKind::Address => "address",
        }
    }
}

/// A sanction in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanctionRecord {
    /// A player id, or an address for [`SanctionKind::Address`].
    pub target: String,
    /// When it ends (server time); `None`: never.
    pub until: Option<Millis>,
    /// Why, as the moderator said it (shown to the player).
    pub reason: String,
    /// The moderator's player id.
    pub by: String,
    /// When it was given.
    pub at: Millis,
}

/// A report as filed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewReport {
    /// The reporter's player id.
    pub reporter: String,
    /// His name.
    pub reporter_name: String,
    /// The reported player's id.
    pub player: String,
    /// The room, if any.
    pub room: Option<String>,
    /// What he did.
    pub reason: String,
    /// When.
    pub at: Millis,
}

/// Moderators, sanctions, reports, the audit log, blocks and chat redactions.
#[async_trait::async_trait]
pub trait ModerationStore: Send + Sync + 'static {
    /// Whether an administrator made `account` a moderator.
    async fn is_moderator(&self, account: &str) -> Result<bool, StoreError>;
    /// Makes `account` a moderator (`on`) or an ordinary account again.
    async fn set_moderator(&self, account: &str, on: bool, at: Millis) -> Result<(), StoreError>;
    /// Puts a sanction in force, replacing one of the same kind on the same target.
    async fn put_sanction(&self, kind: SanctionKind, s: &SanctionRecord) -> Result<(), StoreError>;
    /// The sanction of `kind` on `target` in force at `now`, if any.
    async fn sanction(
        &self,
        kind: SanctionKind,
        target: &str,
        now: Millis,
    ) -> Result<Option<SanctionRecord>, StoreError>;
    /// Lifts a sanction; false if there was none.
    async fn lift_sanction(&self, kind: SanctionKind, target: &str) -> Result<bool, StoreError>;
    /// Files a report unless its reporter filed `most` since `since` (then `None`).
    async fn add_report(
        &self,
        report: &NewReport,
        since: Millis,
        most: u32,
    ) -> Result<Option<u64>, StoreError>;
    /// Up to `limit` open reports with an id above `after`, oldest first.
    async fn open_reports(&self, after: u64, limit: usize) -> Result<Vec<ReportEntry>, StoreError>;
    /// Closes an open report; false if there is no open report `id`.
    async fn resolve_report(&self, id: u64, at: Millis) -> Result<bool, StoreError>;
    /// Adds a line to the audit log (its `id` is given by the store and returned).
    async fn add_audit(&self, entry: &AuditEntry) -> Result<u64, StoreError>;
    /// Up to `limit` lines of the audit log with an id below `before`, newest first.
    async fn audit_log(
        &self,
        before: Option<u64>,
        limit: usize,
    ) -> Result<Vec<AuditEntry>, StoreError>;
    /// `account` blocks (`on`) or unblocks a player.
    async fn set_block(
        &self,
        account: &str,
        player: &BlockedPlayer,
        on: bool,
        at: Millis,
    ) -> Result<(), StoreError>;
    /// The players `account` blocks, oldest block first.
    async fn blocks(&self, account: &str) -> Result<Vec<BlockedPlayer>, StoreError>;
    /// Deletes the chat line `seq` of `room` from what clients are shown.
    async fn redact(&self, room: &str, seq: u64, at: Millis) -> Result<(), StoreError>;
    /// The deleted chat lines of `room`, by `seq`.
    async fn redactions(&self, room: &str) -> Result<Vec<u64>, StoreError>;
}
