//! Moderation (an addition: README): who the moderators are, and the policies and bounds a
//! player meets. Administrators are the accounts named by `--admin`; they make other accounts
//! moderators in the store (`promote`, `demote`). The requests themselves are answered in
//! `session/moderation.rs`; here live what they share: the bounds ([`MAX_REPORTS_PER_HOUR`],
//! [`CHAT_PER_MINUTE`] …), the chat rate limit (`chat_limit.rs`), what a moderator's action
//! tells every node (`sanction.rs`), the blocked names a connection hides (`blocked.rs`) and
//! the deleted chat lines taken out of what clients are shown (`redact.rs`).

mod blocked;
mod chat_limit;
mod redact;
mod sanction;

pub use blocked::Blocked;
pub use chat_limit::ChatLimit;
pub use redact::{redact_frame_text, redact_logged};
pub use sanction::{follow, Sanction};

use crate::clock::Millis;

/// Reports one player may file in an hour (past it: `rate_limited`).
pub const MAX_REPORTS_PER_HOUR: u32 = 10;
/// Chat lines one player may send in a minute, across every room (past it: `rate_limited`
/// with the wait in `retry_ms`). Counted per node.
pub const CHAT_PER_MINUTE: usize = 20;
/// Longest reason a report or a moderator's action may give (characters).
pub const MAX_REASON: usize = 500;
/// Reports, or audit lines, on one page of `reports` or `audit`.
pub const PAGE: usize = 50;
/// Most players one account may block.
pub const MAX_BLOCKS: usize = 200;
/// Longest mute (30 days), in minutes.
pub const MAX_MUTE_MINUTES: u32 = 30 * 24 * 60;
/// Longest ban with an end (10 years), in days; a ban without `days` is for good.
pub const MAX_BAN_DAYS: u32 = 3650;
/// How long a banned guest's address stays banned (a day, or less if his ban is shorter):
/// long enough to stop a new guest name at once, short enough not to shut out whoever gets the
/// address next.
pub const ADDRESS_BAN: Millis = 24 * 60 * 60 * 1000;

/// The administrators (`--admin NAME`, compared by their names' caseless keys).
#[derive(Clone, Debug, Default)]
pub struct Admins {
    /// The names' keys (`text::name_key`).
    keys: Vec<String>,
}

impl Admins {
    /// The accounts named `names`.
    pub fn new(names: &[String]) -> Admins {
        Admins {
            keys: names
                .iter()
                .map(|n| crate::text::name_key(n.trim()))
                .collect(),
        }
    }

    /// Whether the account named `name` is an administrator.
    pub fn contains(&self, name: &str) -> bool {
        let key = crate::text::name_key(name);
        self.keys.contains(&key)
    }
}

/// A time as the player reads it: `2026-12-03 10:00 UTC`.
pub fn when(at: Millis) -> String {
    let t = time::OffsetDateTime::from_unix_timestamp((at / 1000) as i64)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02} UTC",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute()
    )
}
