//! `notify` messages across a cluster: an account may be connected to any node, while the
//! notice is made on the node that owns the room. The node that delivers a notice hands its
//! `notify` frame to the relay, which the cluster publishes on the bus (`cluster/notified.rs`);
//! what the other nodes publish comes back through the relay to this node's connections of
//! that account. Web Push and e-mail are sent once, by the delivering node, as before.
//!
//! Bounded both ways: [`RELAY_QUEUE`] frames wait for the bus, and as many from it; a full
//! queue drops the frame (the notice still went by push and e-mail, and `mine` lists the game).

use crate::protocol::Frame;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// Frames waiting each way between the notifier and the bus.
pub const RELAY_QUEUE: usize = 1_024;

/// One `notify` frame for an account's connections on other nodes (or from them).
#[derive(Debug)]
pub struct Relayed {
    /// The account.
    pub account: Arc<str>,
    /// The `notify` message, serialized.
    pub frame: Frame,
}

/// The notifier's side of the relay (in [`super::NotifyConfig`] on a cluster node).
#[derive(Clone, Debug)]
pub struct NotifyRelay {
    /// Frames delivered here, for the bus.
    out: mpsc::Sender<Relayed>,
    /// Frames from the bus, taken once by the notifier as it starts.
    incoming: Arc<Mutex<Option<mpsc::Receiver<Relayed>>>>,
}

/// The bus's side of the relay: what to publish, and where to put what is heard.
pub struct BusSide {
    /// Frames this node delivered, to publish.
    pub outgoing: mpsc::Receiver<Relayed>,
    /// Frames other nodes published, for this node's connections.
    pub heard: mpsc::Sender<Relayed>,
}

impl NotifyRelay {
    /// A relay and the bus's side of it.
    pub fn new() -> (NotifyRelay, BusSide) {
        let (out, outgoing) = mpsc::channel(RELAY_QUEUE);
        let (heard, incoming) = mpsc::channel(RELAY_QUEUE);
        let relay = NotifyRelay {
            out,
            incoming: Arc::new(Mutex::new(Some(incoming))),
        };
        (relay, BusSide { outgoing, heard })
    }

    /// Hands a frame delivered here to the other nodes (never waits).
    pub(super) fn relay(&self, account: &Arc<str>, frame: &Frame) {
        let relayed = Relayed {
            account: account.clone(),
            frame: frame.clone(),
        };
        if self.out.try_send(relayed).is_err() {
            tracing::warn!(%account, "a notice was not relayed to the other nodes: queue full");
        }
    }

    /// What the other nodes relay, for the notifier to deliver here (once).
    pub(super) fn take_incoming(&self) -> Option<mpsc::Receiver<Relayed>> {
        self.incoming.lock().ok().and_then(|mut i| i.take())
    }
}
