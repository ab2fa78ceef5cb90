//! Notifications on the wire (an addition, README "Notifications"): a browser's Web Push
//! subscription as `push_subscribe` carries it, an account's choices of what it is told and
//! how (`notify_settings`), and the kinds of notice a `notify` message names. A notice never
//! carries a move or a hidden choice: only that something happened in a room.

use serde::{Deserialize, Serialize};

/// The keys of a Web Push subscription, as `PushSubscription.toJSON()` has them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushKeys {
    /// The browser's P-256 public key, uncompressed, base64url (65 bytes).
    pub p256dh: String,
    /// The browser's authentication secret, base64url (16 bytes).
    pub auth: String,
}

/// A browser's Web Push subscription: `PushSubscription.toJSON()` (its `expirationTime` is
/// read and ignored).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushSubscription {
    /// Where the push service takes messages for this browser.
    pub endpoint: String,
    /// The keys a message is encrypted to.
    pub keys: PushKeys,
}

/// What a notice is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoticeKind {
    /// It became the player's turn.
    YourTurn,
    /// The player's move is due within a day.
    Deadline,
    /// The game ended.
    Over,
}

impl NoticeKind {
    /// The kind's name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            NoticeKind::YourTurn => "your_turn",
            NoticeKind::Deadline => "deadline",
            NoticeKind::Over => "over",
        }
    }
}

/// What an account is told and how: each kind and each channel on or off (open connections
/// are always told of a kind that is on), and its e-mail address, if it gave one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotifySettings {
    /// Told when it becomes his turn.
    pub your_turn: bool,
    /// Told a day before a move is due.
    pub deadline: bool,
    /// Told when a game ends.
    pub over: bool,
    /// By e-mail (to a confirmed address).
    pub email: bool,
    /// By Web Push (to every subscribed browser).
    pub push: bool,
    /// The address given with `email`; `null`: none.
    #[serde(deserialize_with = "crate::fields::required")]
    pub address: Option<String>,
    /// Whether that address was confirmed by its link.
    pub confirmed: bool,
    /// Browsers subscribed to Web Push.
    pub subscriptions: u32,
}
