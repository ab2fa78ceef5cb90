//! What moderators read (an addition: README): an open report, a line of the audit log, and
//! a blocked player, as `reports`, `audit` and `blocks` carry them.

use serde::{Deserialize, Serialize};

/// A report of a player, open until a moderator resolves it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportEntry {
    /// The report's id (`report` in `resolve_report`).
    pub id: u64,
    /// Who reported (player id).
    pub reporter: String,
    /// The reporter's name.
    pub reporter_name: String,
    /// Who is reported (player id).
    pub player: String,
    /// The room it is about, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<String>,
    /// What he did, in the reporter's words.
    pub reason: String,
    /// When (ms since the Unix epoch).
    pub at: u64,
}

/// One moderator's action: who, what, when, why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditEntry {
    /// The entry's id (for paging with `before`).
    pub id: u64,
    /// The moderator's player id.
    pub moderator: String,
    /// The moderator's name.
    pub moderator_name: String,
    /// The request (`mute`, `kick`, `ban`, `unban`, `close_room`, `delete_chat`,
    /// `resolve_report`, `promote`, `demote`).
    pub action: String,
    /// What it was done to: a player id, a room id, `room#seq`, or a report id.
    pub target: String,
    /// Its terms, if any (`30 minutes`, `7 days`, `for good`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Why, in the moderator's words.
    pub reason: String,
    /// When (ms since the Unix epoch).
    pub at: u64,
}

/// A player an account blocks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockedPlayer {
    /// His player id.
    pub player: String,
    /// His name when he was blocked (his chat is hidden by it).
    pub name: String,
}
