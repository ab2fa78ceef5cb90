//! `notify` messages across nodes: the notices a node delivers are published on
//! `orion.notify` for the account's connections on the other nodes, and what the others
//! publish is handed to this node's notifier (`notify/relay.rs`). Best effort, as pub/sub is:
//! a frame lost while a node was cut off from the bus is not sent again (the notice went by
//! push and e-mail too, and the player's `mine` lists the game).

use super::bus::{Bus, NOTIFY_SUBJECT};
use crate::notify::relay::{BusSide, Relayed};
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One relayed `notify` frame on the bus.
#[derive(Debug, Serialize, Deserialize)]
struct Notified {
    /// The node that delivered it (which ignores its own).
    node: String,
    /// The account it is for.
    account: String,
    /// The `notify` message, as its connections there were sent it.
    frame: String,
}

/// Publishes this node's `notify` frames, and hands the other nodes' to this node's notifier,
/// until the relay or the subscription ends.
pub(super) async fn relay(
    bus: Bus,
    node: Arc<str>,
    side: BusSide,
    mut sub: async_nats::Subscriber,
) {
    let BusSide {
        mut outgoing,
        heard,
    } = side;
    loop {
        tokio::select! {
            mine = outgoing.recv() => {
                let Some(Relayed { account, frame }) = mine else { break };
                let notified = Notified {
                    node: node.to_string(),
                    account: account.to_string(),
                    frame: frame.to_string(),
                };
                let Ok(payload) = serde_json::to_vec(&notified) else {
                    continue;
                };
                if let Err(e) = bus.client.publish(NOTIFY_SUBJECT, payload.into()).await {
                    tracing::warn!(%account, "could not relay a notice to the other nodes: {e}");
                }
            }
            theirs = sub.next() => {
                let Some(msg) = theirs else { break };
                match serde_json::from_slice::<Notified>(&msg.payload) {
                    Ok(n) if *n.node == *node => {}
                    Ok(n) => {
                        let relayed = Relayed {
                            account: Arc::from(n.account),
                            frame: n.frame.into(),
                        };
                        if heard.try_send(relayed).is_err() {
                            tracing::warn!("a relayed notice was dropped: queue full");
                        }
                    }
                    Err(e) => tracing::warn!("a relayed notice that does not parse: {e}"),
                }
            }
        }
    }
}
