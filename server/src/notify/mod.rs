//! Telling a player that something happened in one of his games while he may not be looking:
//! it became his turn, his move is due within a day, the game ended. [`Notifier::send`] is
//! the one entry point rooms call; it only queues (a full queue drops the notice, counted in
//! the log), and a task of its own delivers, each notice to every open connection of the
//! account (a `notify` message), every Web Push subscription (`push.rs`), and its confirmed
//! e-mail address (`mail.rs`), as the account chose (`notify_settings`). A slow push service
//! or SMTP server delays only other deliveries, never a room: at most [`MAX_DELIVERIES`] run
//! at once, each bounded by its client's timeout. A notice says which room and what, never a
//! move or a hidden choice. Accounts only: a guest cannot subscribe or give an address.
//!
//! `endpoint.rs` says which push endpoints the server posts to; `routes.rs` serves the
//! links mails carry (`/email/confirm`, `/email/unsubscribe`); `relay.rs` carries `notify`
//! messages to the account's connections on a cluster's other nodes.

mod endpoint;
mod mail;
mod push;
pub mod relay;
pub mod routes;

use endpoint::Allowed;

use crate::clock::{Clock, Millis};
use crate::outbox::Outbox;
use crate::protocol::{self, Code, Refusal};
use crate::store::{NotifyRecord, PushRecord, Store, StoreError, Subscribed};
use hmac::{Hmac, Mac};
use mail::{Letter, Mail};
use orion_protocol::{Message, NoticeKind, NotifySettings, PushSubscription};
use push::{Push, Pushed};
use sha2::Sha256;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;

/// Notices and confirmation mails queued for delivery; past it [`Notifier::send`] drops the
/// notice (a notification is a courtesy: the game itself is never held up for one).
pub const QUEUE: usize = 1024;
/// Deliveries in flight at once; the queue waits behind them.
pub const MAX_DELIVERIES: usize = 16;
/// Web Push subscriptions one account may keep (one per browser); `push_subscribe` past it is
/// refused until one is dropped.
pub const MAX_PUSH_SUBSCRIPTIONS: usize = 10;
/// `email` requests one account may make in an hour (each mails a confirmation link).
pub const MAX_EMAIL_REQUESTS: usize = 3;
/// How long a confirmation link confirms.
pub const EMAIL_TOKEN_LIFE: Millis = 24 * 60 * 60 * 1000;
/// An hour, in ms: the window of [`MAX_EMAIL_REQUESTS`].
const HOUR: Millis = 60 * 60 * 1000;
/// Accounts whose recent `email` requests are remembered (in memory, per node); past it the
/// oldest windows are forgotten.
const EMAIL_WINDOWS: usize = 10_000;
/// The store's name for the key unsubscribe links are signed with.
const LINK_SECRET: &str = "link_key";

/// How to reach players outside the page.
#[derive(Clone, Debug, Default)]
pub struct NotifyConfig {
    /// The SMTP relay (`--smtp`): none, no e-mail.
    pub smtp: Option<String>,
    /// The sender (`--mail-from`).
    pub mail_from: Option<String>,
    /// Where links point (`--public-url`): none, `http://` and the listen address.
    pub public_url: Option<String>,
    /// Push endpoint prefixes taken without checks (`--allow-push-endpoint`).
    pub allow_push_endpoints: Vec<String>,
    /// On a cluster node: `notify` messages to and from the other nodes (`relay.rs`).
    pub relay: Option<relay::NotifyRelay>,
}

/// Something that happened in a room, for one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// It became his turn.
    YourTurn {
        /// The room.
        room: String,
        /// Its game id.
        game: String,
        /// The other players' names.
        opponents: Vec<String>,
    },
    /// His move is due within a day.
    Deadline {
        /// The room.
        room: String,
        /// Its game id.
        game: String,
    },
    /// The game ended.
    Over {
        /// The room.
        room: String,
        /// Its game id.
        game: String,
        /// The result in words ("alice wins"), as everyone in the room saw it.
        result: String,
    },
}

impl Notice {
    /// What it is about.
    pub fn kind(&self) -> NoticeKind {
        match self {
            Notice::YourTurn { .. } => NoticeKind::YourTurn,
            Notice::Deadline { .. } => NoticeKind::Deadline,
            Notice::Over { .. } => NoticeKind::Over,
        }
    }

    /// Its room and game.
    fn place(&self) -> (&str, &str) {
        match self {
            Notice::YourTurn { room, game, .. }
            | Notice::Deadline { room, game }
            | Notice::Over { room, game, .. } => (room, game),
        }
    }

    /// In words.
    pub fn text(&self) -> String {
        let (room, game) = self.place();
        match self {
            Notice::YourTurn { opponents, .. } if !opponents.is_empty() => format!(
                "Your turn in room {room} ({game}) against {}",
                opponents.join(", ")
            ),
            Notice::YourTurn { .. } => format!("Your turn in room {room} ({game})"),
            Notice::Deadline { .. } => {
                format!("Your move in room {room} ({game}) is due within a day")
            }
            Notice::Over { result, .. } => {
                format!("The game in room {room} ({game}) is over: {result}")
            }
        }
    }
}

/// Work for the delivery task.
enum Job {
    /// A notice for an account.
    Notice(Arc<str>, Notice),
    /// A confirmation link for an address.
    Confirm {
        /// The address.
        address: String,
        /// The link.
        link: String,
    },
}

/// The notifier: cheap to clone, one per server.
#[derive(Clone)]
pub struct Notifier {
    /// Where [`Notifier::send`] queues.
    jobs: mpsc::Sender<Job>,
    /// What delivering needs.
    inner: Arc<Inner>,
}

/// What delivering needs, shared by the requests and the delivery task.
struct Inner {
    /// Settings, addresses, subscriptions.
    store: Arc<dyn Store>,
    /// Server time (token expiry, the `email` window).
    clock: Arc<dyn Clock>,
    /// Every open connection of each account on this node.
    connections: Mutex<HashMap<Arc<str>, Vec<Outbox>>>,
    /// Web Push.
    push: Push,
    /// E-mail, if `--smtp` was given.
    mail: Option<Mail>,
    /// Where links point, without a trailing `/`.
    public_url: String,
    /// The key unsubscribe links are signed with.
    link_key: Vec<u8>,
    /// Each account's recent `email` requests (server times), for [`MAX_EMAIL_REQUESTS`].
    email_requests: Mutex<HashMap<String, Vec<Millis>>>,
    /// On a cluster: where `notify` frames for the other nodes' connections go.
    relay: Option<relay::NotifyRelay>,
}

/// A lock that outlives a panic elsewhere (the maps stay consistent: each change is one call).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn server(e: StoreError) -> Refusal {
    Refusal::new(Code::Server, e.to_string())
}

impl Notifier {
    /// Sets up push (the VAPID keys read from the store, made on first start) and mail, and
    /// starts the delivery task, which ends when `shutdown` turns true. `listen` is the
    /// address links point to when `config.public_url` is unset.
    pub async fn start(
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        config: &NotifyConfig,
        listen: Option<std::net::SocketAddr>,
        shutdown: watch::Receiver<bool>,
    ) -> anyhow::Result<Notifier> {
        let mail = match &config.smtp {
            Some(url) => {
                let from = config
                    .mail_from
                    .as_deref()
                    .ok_or_else(|| anyhow::anyhow!("--smtp needs --mail-from"))?;
                Some(Mail::new(url, from)?)
            }
            None => None,
        };
        let public_url = match (&config.public_url, listen) {
            (Some(url), _) => url.trim_end_matches('/').to_string(),
            (None, Some(addr)) => format!("http://{addr}"),
            (None, None) => "http://localhost".to_string(),
        };
        let contact = match &mail {
            Some(m) => format!("mailto:{}", m.from()),
            None => public_url.clone(),
        };
        let allowed = Allowed::new(config.allow_push_endpoints.clone());
        let push = Push::load(&store, contact, allowed).await?;
        let link_key = store
            .notify_secret(LINK_SECRET, &crate::token::fresh())
            .await?
            .into_bytes();
        let inner = Arc::new(Inner {
            store,
            clock,
            connections: Mutex::new(HashMap::new()),
            push,
            mail,
            public_url,
            link_key,
            email_requests: Mutex::new(HashMap::new()),
            relay: config.relay.clone(),
        });
        let (jobs, queue) = mpsc::channel(QUEUE);
        if let Some(heard) = config.relay.as_ref().and_then(|r| r.take_incoming()) {
            tokio::spawn(deliver_relayed(inner.clone(), heard, shutdown.clone()));
        }
        tokio::spawn(deliver_loop(inner.clone(), queue, shutdown));
        Ok(Notifier { jobs, inner })
    }

    /// Queues `notice` for `account` (never waits: a full queue drops it).
    pub fn send(&self, account: &str, notice: Notice) {
        if let Err(e) = self.jobs.try_send(Job::Notice(Arc::from(account), notice)) {
            tracing::warn!(%account, "notice dropped: {e}");
        }
    }

    /// The VAPID public key, for `welcome`.
    pub fn vapid_key(&self) -> String {
        self.inner.push.public_key().to_string()
    }

    /// Where links point (`--public-url`).
    pub fn public_url(&self) -> &str {
        &self.inner.public_url
    }

    /// `account` has a connection open at `outbox`: it is told notices from now on.
    pub fn attach(&self, account: &str, outbox: Outbox) {
        let mut all = lock(&self.inner.connections);
        let list = all.entry(Arc::from(account)).or_default();
        list.retain(|o| !o.is_closed() && o.id != outbox.id);
        list.push(outbox);
    }

    /// `account`'s connection `conn` ended.
    pub fn detach(&self, account: &str, conn: u64) {
        let mut all = lock(&self.inner.connections);
        if let Some(list) = all.get_mut(account) {
            list.retain(|o| o.id != conn && !o.is_closed());
            if list.is_empty() {
                all.remove(account);
            }
        }
    }

    /// `push_subscribe`: keeps `sub` for `account` once its endpoint and keys are checked.
    pub async fn subscribe(&self, account: &str, sub: PushSubscription) -> Result<(), Refusal> {
        let record = PushRecord {
            endpoint: sub.endpoint,
            p256dh: sub.keys.p256dh,
            auth: sub.keys.auth,
        };
        let refused = |e: String| Refusal::new(Code::BadRequest, e);
        (self.inner.push.check_endpoint(&record.endpoint).await)
            .map_err(|e| refused(e.to_string()))?;
        push::check_keys(&record).map_err(|e| refused(e.to_string()))?;
        let now = self.inner.clock.now_ms();
        let store = &self.inner.store;
        match store
            .add_push_subscription(account, &record, MAX_PUSH_SUBSCRIPTIONS, now)
            .await
            .map_err(server)?
        {
            Subscribed::Done => Ok(()),
            Subscribed::Full => Err(Refusal::new(
                Code::BadRequest,
                format!(
                    "an account keeps at most {MAX_PUSH_SUBSCRIPTIONS} browsers subscribed: unsubscribe one first"
                ),
            )),
        }
    }

    /// `push_unsubscribe`: whether `account` had a subscription at `endpoint`.
    pub async fn unsubscribe(&self, account: &str, endpoint: &str) -> Result<bool, Refusal> {
        (self
            .inner
            .store
            .remove_push_subscription(account, endpoint)
            .await)
            .map_err(server)
    }

    /// `notify_settings`: sets what is given, returns all.
    pub async fn settings(
        &self,
        account: &str,
        set: [Option<bool>; 5],
    ) -> Result<NotifySettings, Refusal> {
        let store = &self.inner.store;
        let mut record = self.record(account).await?;
        if set.iter().any(Option::is_some) {
            let [your_turn, deadline, over, email, push] = set;
            record.your_turn = your_turn.unwrap_or(record.your_turn);
            record.deadline = deadline.unwrap_or(record.deadline);
            record.over = over.unwrap_or(record.over);
            record.email = email.unwrap_or(record.email);
            record.push = push.unwrap_or(record.push);
            store.put_notify_record(&record).await.map_err(server)?;
        }
        let subs = store.push_subscriptions(account).await.map_err(server)?;
        Ok(NotifySettings {
            your_turn: record.your_turn,
            deadline: record.deadline,
            over: record.over,
            email: record.email,
            push: record.push,
            address: record.address,
            confirmed: record.confirmed,
            subscriptions: subs.len() as u32,
        })
    }

    async fn record(&self, account: &str) -> Result<NotifyRecord, Refusal> {
        let found = self.inner.store.notify_record(account).await;
        Ok(found
            .map_err(server)?
            .unwrap_or_else(|| NotifyRecord::fresh(account)))
    }

    /// `email`: keeps `address` unconfirmed for `account` and queues its confirmation link.
    /// Returns the address as kept.
    pub async fn email(&self, account: &str, address: &str) -> Result<String, Refusal> {
        if self.inner.mail.is_none() {
            return Err(Refusal::new(
                Code::BadRequest,
                "this server sends no e-mail (it was started without --smtp)",
            ));
        }
        let address = mail::check_address(address)
            .map_err(|e| Refusal::new(Code::BadRequest, e.to_string()))?
            .to_string();
        let now = self.inner.clock.now_ms();
        self.count_email_request(account, now)?;
        let token = crate::token::fresh();
        let mut record = self.record(account).await?;
        record.address = Some(address.clone());
        record.confirmed = false;
        record.token_hash = Some(crate::token::hash(&token));
        record.token_expires = now + EMAIL_TOKEN_LIFE;
        (self.inner.store.put_notify_record(&record).await).map_err(server)?;
        let link = format!("{}/email/confirm?token={token}", self.inner.public_url);
        let job = Job::Confirm {
            address: address.clone(),
            link,
        };
        self.jobs.try_send(job).map_err(|_| {
            Refusal::new(
                Code::Server,
                "the server is busy sending notices: try again in a minute",
            )
        })?;
        Ok(address)
    }

    /// Counts one `email` request of `account` at `now`, refusing it past the hour's bound.
    fn count_email_request(&self, account: &str, now: Millis) -> Result<(), Refusal> {
        let mut windows = lock(&self.inner.email_requests);
        if windows.len() >= EMAIL_WINDOWS && !windows.contains_key(account) {
            windows.retain(|_, times| times.iter().any(|t| now.saturating_sub(*t) < HOUR));
            if windows.len() >= EMAIL_WINDOWS {
                windows.clear();
            }
        }
        let times = windows.entry(account.to_string()).or_default();
        times.retain(|t| now.saturating_sub(*t) < HOUR);
        if times.len() >= MAX_EMAIL_REQUESTS {
            let wait = times
                .first()
                .map_or(HOUR, |t| HOUR - now.saturating_sub(*t));
            return Err(Refusal::wait(
                format!(
                    "at most {MAX_EMAIL_REQUESTS} e-mail addresses an hour: try again in {} min",
                    wait.div_ceil(60_000)
                ),
                wait,
            ));
        }
        times.push(now);
        Ok(())
    }

    /// Follows a confirmation link: the address it confirmed, if the token stands.
    pub async fn confirm(&self, token: &str) -> Result<Option<String>, StoreError> {
        let now = self.inner.clock.now_ms();
        let hash = crate::token::hash(token);
        let found = self.inner.store.confirm_email(&hash, now).await?;
        Ok(found.map(|(_, address)| address))
    }

    /// Follows an unsubscribe link: the address that will get no more notices, if the link
    /// stands for the account's address now.
    pub async fn unsubscribe_email(&self, token: &str) -> Result<Option<String>, StoreError> {
        let Some((account, _)) = token.split_once('.') else {
            return Ok(None);
        };
        let store = &self.inner.store;
        let Some(mut record) = store.notify_record(account).await? else {
            return Ok(None);
        };
        let Some(address) = record.address.clone() else {
            return Ok(None);
        };
        if self.inner.unsubscribe_token(account, &address) != token {
            return Ok(None);
        }
        record.email = false;
        store.put_notify_record(&record).await?;
        Ok(Some(address))
    }
}

impl Inner {
    /// The token of `account`'s unsubscribe link for `address`: `ACCOUNT.MAC`, the MAC
    /// (HMAC-SHA-256 under the stored link key) binding both, so it needs no row of its own
    /// and stops working once the address changes.
    fn unsubscribe_token(&self, account: &str, address: &str) -> String {
        // Any key length is accepted by HMAC.
        let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(&self.link_key) else {
            return String::new();
        };
        mac.update(b"unsubscribe\0");
        mac.update(account.as_bytes());
        mac.update(b"\0");
        mac.update(address.as_bytes());
        format!("{account}.{}", hex::encode(mac.finalize().into_bytes()))
    }

    /// The open connections of `account` (dropping closed ones).
    fn connections(&self, account: &str) -> Vec<Outbox> {
        let mut all = lock(&self.connections);
        let Some(list) = all.get_mut(account) else {
            return Vec::new();
        };
        list.retain(|o| !o.is_closed());
        list.clone()
    }

    /// Delivers one job.
    async fn run(&self, job: Job) {
        match job {
            Job::Notice(account, notice) => self.deliver(&account, &notice).await,
            Job::Confirm { address, link } => {
                let Some(mail) = &self.mail else { return };
                let letter = Letter {
                    to: &address,
                    subject: "Confirm your address for Orion Online",
                    text: format!(
                        "Someone (we hope you) gave this address to be told about their games on \
                         Orion Online.\n\nTo confirm it, open this link within a day:\n\n{link}\n\n\
                         If it was not you, ignore this message: nothing will be sent.\n"
                    ),
                    unsubscribe: None,
                };
                if let Err(e) = mail.send(letter).await {
                    tracing::warn!("confirmation mail not sent: {e}");
                }
            }
        }
    }

    /// Delivers `notice` to `account` by every channel it chose.
    async fn deliver(&self, account: &str, notice: &Notice) {
        let record = match self.store.notify_record(account).await {
            Ok(found) => found.unwrap_or_else(|| NotifyRecord::fresh(account)),
            Err(e) => {
                tracing::warn!(%account, "notice not delivered: {e}");
                return;
            }
        };
        let wanted = match notice.kind() {
            NoticeKind::YourTurn => record.your_turn,
            NoticeKind::Deadline => record.deadline,
            NoticeKind::Over => record.over,
        };
        if !wanted {
            return;
        }
        let (room, game) = notice.place();
        let url = format!("{}/r/{room}", self.public_url);
        let text = notice.text();
        let frame = protocol::reply(
            &None,
            Message::Notify {
                kind: notice.kind(),
                room: room.to_string(),
                game: game.to_string(),
                text: text.clone(),
                url: url.clone(),
            },
        );
        for outbox in self.connections(account) {
            outbox.send(frame.clone());
        }
        if let Some(relay) = &self.relay {
            relay.relay(&Arc::from(account), &frame);
        }
        if record.push {
            self.push(account, notice, &text, &url).await;
        }
        if let (true, true, Some(address), Some(mail)) =
            (record.email, record.confirmed, &record.address, &self.mail)
        {
            let unsubscribe = format!(
                "{}/email/unsubscribe?token={}",
                self.public_url,
                self.unsubscribe_token(account, address)
            );
            let letter = Letter {
                to: address,
                subject: &text,
                text: format!(
                    "{text}.\n\nOpen the room: {url}\n\n--\nYou get this because you asked to be \
                     told about your games on Orion Online. To stop these messages: {unsubscribe}\n"
                ),
                unsubscribe: Some(unsubscribe.clone()),
            };
            if let Err(e) = mail.send(letter).await {
                tracing::warn!(%account, "notice not mailed: {e}");
            }
        }
    }

    /// Pushes `notice` to every browser `account` subscribed, one after another (oldest
    /// first), dropping those their push service says are gone.
    async fn push(&self, account: &str, notice: &Notice, text: &str, url: &str) {
        let subs = match self.store.push_subscriptions(account).await {
            Ok(subs) => subs,
            Err(e) => {
                tracing::warn!(%account, "no push: {e}");
                return;
            }
        };
        let (room, game) = notice.place();
        let payload = serde_json::json!({
            "title": "Orion Online",
            "body": text,
            "kind": notice.kind(),
            "room": room,
            "game": game,
            "url": url,
        })
        .to_string();
        for sub in subs {
            match self.push.send(&sub, payload.as_bytes()).await {
                Pushed::Sent => {}
                Pushed::Gone => {
                    tracing::info!(%account, "a push subscription is gone: dropped");
                    if let Err(e) = self.store.drop_push_endpoint(&sub.endpoint).await {
                        tracing::warn!("could not drop a push subscription: {e}");
                    }
                }
                Pushed::Failed(e) => tracing::info!(%account, "push not delivered: {e}"),
            }
        }
    }
}

/// The delivery task: takes jobs in order, runs up to [`MAX_DELIVERIES`] at once, ends at
/// shutdown (deliveries still running are dropped).
/// Delivers the `notify` frames other nodes relay to this node's connections of each account,
/// until `shutdown` turns true or the bus's side closes.
async fn deliver_relayed(
    inner: Arc<Inner>,
    mut heard: mpsc::Receiver<relay::Relayed>,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        tokio::select! {
            _ = shutdown.wait_for(|s| *s) => break,
            relayed = heard.recv() => {
                let Some(relayed) = relayed else { break };
                for outbox in inner.connections(&relayed.account) {
                    outbox.send(relayed.frame.clone());
                }
            }
        }
    }
}

async fn deliver_loop(
    inner: Arc<Inner>,
    mut queue: mpsc::Receiver<Job>,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut running = JoinSet::new();
    loop {
        tokio::select! {
            _ = shutdown.wait_for(|s| *s) => break,
            Some(_) = running.join_next(), if !running.is_empty() => {}
            job = queue.recv(), if running.len() < MAX_DELIVERIES => {
                let Some(job) = job else { break };
                let inner = inner.clone();
                running.spawn(async move { inner.run(job).await });
            }
        }
    }
    running.abort_all();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_names_the_room_and_nothing_hidden() {
        let notice = Notice::YourTurn {
            room: "r7".into(),
            game: "hydra-2".into(),
            opponents: vec!["bob".into()],
        };
        assert_eq!(notice.text(), "Your turn in room r7 (hydra-2) against bob");
        assert_eq!(notice.kind(), NoticeKind::YourTurn);
    }
}
