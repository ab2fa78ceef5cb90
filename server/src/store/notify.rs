//! What the store keeps for notifications (`notify/`): each account's choices and e-mail
//! address (with the hash of its pending confirmation token), its browsers' Web Push
//! subscriptions, and the server's own secrets for them (the VAPID key pair, the key that
//! signs unsubscribe links), made once and shared by every node. A trait of its own beside
//! [`super::Store`], implemented by both stores (`notify_sqlite.rs`, `notify_pg.rs`).

use super::error::StoreError;
use crate::clock::Millis;

/// One account's notification choices and address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotifyRecord {
    /// The account's player id.
    pub account: String,
    /// Told when it becomes his turn.
    pub your_turn: bool,
    /// Told a day before a move is due.
    pub deadline: bool,
    /// Told when a game ends.
    pub over: bool,
    /// By e-mail, once an address is confirmed.
    pub email: bool,
    /// By Web Push, to every subscribed browser.
    pub push: bool,
    /// The address given with `email`.
    pub address: Option<String>,
    /// Whether its confirmation link was followed.
    pub confirmed: bool,
    /// The SHA-256 of the pending confirmation token (never the token).
    pub token_hash: Option<String>,
    /// When that token stops confirming (server time).
    pub token_expires: Millis,
}

impl NotifyRecord {
    /// An account that chose nothing yet: every kind on, both channels on (nothing goes by
    /// e-mail before an address is confirmed, nor by push before a browser subscribes: those
    /// are the opt-ins).
    pub fn fresh(account: &str) -> NotifyRecord {
        NotifyRecord {
            account: account.to_string(),
            your_turn: true,
            deadline: true,
            over: true,
            email: true,
            push: true,
            address: None,
            confirmed: false,
            token_hash: None,
            token_expires: 0,
        }
    }
}

/// One browser's Web Push subscription.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushRecord {
    /// Where its push service takes messages (unique: one browser, one account).
    pub endpoint: String,
    /// The browser's P-256 public key, base64url.
    pub p256dh: String,
    /// Its authentication secret, base64url.
    pub auth: String,
}

/// What became of a subscription.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subscribed {
    /// Kept (or kept already; an endpoint another account had moves to this one).
    Done,
    /// The account has `most` subscriptions already.
    Full,
}

/// Notification settings, subscriptions and the server's notification secrets.
#[async_trait::async_trait]
pub trait NotifyStore: Send + Sync + 'static {
    /// The secret stored under `name`, or `fresh` stored under it now if there is none (the
    /// first writer wins on every node, so all of them use one key).
    async fn notify_secret(&self, name: &str, fresh: &str) -> Result<String, StoreError>;
    /// The choices and address of `account`, if it ever set any.
    async fn notify_record(&self, account: &str) -> Result<Option<NotifyRecord>, StoreError>;
    /// Stores `record` whole.
    async fn put_notify_record(&self, record: &NotifyRecord) -> Result<(), StoreError>;
    /// Confirms the address whose pending token hashes to `token_hash`, if it has not
    /// expired by `now`: the account's id and the address.
    async fn confirm_email(
        &self,
        token_hash: &str,
        now: Millis,
    ) -> Result<Option<(String, String)>, StoreError>;
    /// The Web Push subscriptions of `account`, oldest first.
    async fn push_subscriptions(&self, account: &str) -> Result<Vec<PushRecord>, StoreError>;
    /// Keeps `push` for `account` at server time `at`, unless it has `most` others already.
    async fn add_push_subscription(
        &self,
        account: &str,
        push: &PushRecord,
        most: usize,
        at: Millis,
    ) -> Result<Subscribed, StoreError>;
    /// Drops `account`'s subscription at `endpoint`; whether there was one.
    async fn remove_push_subscription(
        &self,
        account: &str,
        endpoint: &str,
    ) -> Result<bool, StoreError>;
    /// Drops the subscription at `endpoint`, whoever's (its push service said it is gone).
    async fn drop_push_endpoint(&self, endpoint: &str) -> Result<(), StoreError>;
}
