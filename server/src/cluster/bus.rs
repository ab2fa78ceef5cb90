//! The message bus between nodes: one NATS connection per node (`async-nats`, which
//! reconnects by itself when the NATS server comes back) and the subjects the nodes use.
//!
//! * `orion.node.<node>.cmd`: room commands for the rooms `<node>` owns (request/reply).
//! * `orion.node.<node>.frames`: frames rooms send to connections of `<node>`, each once
//!   with the ids of the connections it is for, in the order the rooms sent them.
//! * `orion.lobby`: every node's lobby changes and heartbeats (`peers`).
//! * `orion.node.<node>.lobby`: `<node>`'s whole lobby table, a page at a time (request/reply).
//! * `orion.moved`: a room restored on a node after another ran it (`moved`).
//! * `orion.revoked`: an account's tokens revoked (`logout_all`) on a node (`revoked`).
//! * `orion.node.<node>.adopt`: a room a draining node handed to `<node>`, to restore at once
//!   (request/reply; `handoff`).
//! * `orion.notify`: `notify` messages for an account's connections on other nodes
//!   (`notified`).
//! * `orion.node.<node>.ping`: answered at once while `<node>` lives (request/reply; a dead
//!   node's has no responder, which NATS says at once).

use async_nats::{Client, ConnectOptions, Event};
use futures::StreamExt;
use std::time::Duration;
use tokio::sync::mpsc;

/// How long a forwarded command waits for the owner's answer before it is refused with a
/// `server` error (the owner may have died; another node takes its rooms over).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(2);

/// A node's connection to the bus.
#[derive(Clone, Debug)]
pub struct Bus {
    /// The NATS client (cheap to clone; one TCP connection).
    pub client: Client,
}

impl Bus {
    /// Connects to the NATS server at `url` (`nats://host:port`) as node `node`. The
    /// receiver hears of each moment messages may have been lost: the connection came back
    /// after a break (what was published to this node meanwhile is gone), or the server
    /// dropped messages for a subscription too slow to take them.
    pub async fn connect(
        url: &str,
        node: &str,
    ) -> Result<(Bus, mpsc::UnboundedReceiver<()>), async_nats::ConnectError> {
        let (lost, losses) = mpsc::unbounded_channel();
        let client = ConnectOptions::new()
            .name(format!("orion-{node}"))
            .request_timeout(Some(REQUEST_TIMEOUT))
            .event_callback(move |event| {
                let lost = lost.clone();
                async move {
                    match event {
                        Event::Connected | Event::SlowConsumer(_) => {
                            tracing::info!("bus: {event}; frames may have been lost");
                            let _ = lost.send(());
                        }
                        Event::Disconnected | Event::Closed => tracing::warn!("bus: {event}"),
                        _ => tracing::info!("bus: {event}"),
                    }
                }
            })
            .connect(url)
            .await?;
        Ok((Bus { client }, losses))
    }
}

/// The subject every node tells the others of its rooms on.
pub const LOBBY_SUBJECT: &str = "orion.lobby";

/// The subject `node` answers requests for its lobby table on.
pub fn table_subject(node: &str) -> String {
    format!("orion.node.{node}.lobby")
}

/// The subject `node` is asked to restore a room handed to it on (`handoff`).
pub fn adopt_subject(node: &str) -> String {
    format!("orion.node.{node}.adopt")
}

/// The subject `node` takes room commands on.
pub fn cmd_subject(node: &str) -> String {
    format!("orion.node.{node}.cmd")
}

/// The subject frames for connections of `node` go to (each message: the connections'
/// ids, comma-separated, a newline, and the frame).
pub fn frames_subject(node: &str) -> String {
    format!("orion.node.{node}.frames")
}

/// Whether `name` may name a node (it is part of bus subjects): 1 to 32 letters, digits,
/// `-` or `_`.
pub fn valid_node_name(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The subject a node restoring a room another node ran says so on.
pub const MOVED_SUBJECT: &str = "orion.moved";

/// The subject a node that revoked an account's tokens says so on.
pub const REVOKED_SUBJECT: &str = "orion.revoked";

/// The subject a node relays the `notify` messages it delivered on.
pub const NOTIFY_SUBJECT: &str = "orion.notify";

/// The subject `node` answers pings on.
pub fn ping_subject(node: &str) -> String {
    format!("orion.node.{node}.ping")
}

/// How long a ping waits for its answer (a paused node's never comes).
pub const PING_TIMEOUT: Duration = Duration::from_millis(500);

/// Answers pings until the subscription ends.
pub async fn answer_pings(bus: Bus, mut sub: async_nats::Subscriber) {
    while let Some(msg) = sub.next().await {
        if let Some(reply) = msg.reply {
            let _ = bus.client.publish(reply, "".into()).await;
        }
    }
}

impl Bus {
    /// Whether `node` answers a ping within [`PING_TIMEOUT`].
    pub async fn alive(&self, node: &str) -> bool {
        let asked = self.client.request(ping_subject(node), "".into());
        matches!(tokio::time::timeout(PING_TIMEOUT, asked).await, Ok(Ok(_)))
    }
}
