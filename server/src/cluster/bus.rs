//! The message bus between nodes: one NATS connection per node (`async-nats`, which
//! reconnects by itself when the NATS server comes back) and the subjects the nodes use.
//!
//! * `orion.node.<node>.cmd`: room commands for the rooms `<node>` owns (request/reply).
//! * `orion.node.<node>.frames`: frames rooms send to connections of `<node>`, each once
//!   with the ids of the connections it is for, in the order the rooms sent them.
//! * `orion.lobby`: every node's lobby changes and heartbeats (`peers`).
//! * `orion.node.<node>.lobby`: `<node>`'s whole lobby table, a page at a time (request/reply).

use async_nats::{Client, ConnectOptions};
use std::time::Duration;

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
    /// Connects to the NATS server at `url` (`nats://host:port`) as node `node`.
    pub async fn connect(url: &str, node: &str) -> Result<Bus, async_nats::ConnectError> {
        let client = ConnectOptions::new()
            .name(format!("orion-{node}"))
            .request_timeout(Some(REQUEST_TIMEOUT))
            .connect(url)
            .await?;
        Ok(Bus { client })
    }
}

/// The subject every node tells the others of its rooms on.
pub const LOBBY_SUBJECT: &str = "orion.lobby";

/// The subject `node` answers requests for its lobby table on.
pub fn table_subject(node: &str) -> String {
    format!("orion.node.{node}.lobby")
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
