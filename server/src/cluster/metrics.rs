//! What `/metrics` shows of a cluster node: the rooms it owns, the rooms it took over from
//! dead nodes, the rooms draining nodes handed it, how long a forwarded command waits for its owner (the bus's lag, with the
//! owner's work), the events refilled from the store after a gap in `seq`, and the frames
//! relayed to other nodes with the bus messages that carried them.

use prometheus::core::Collector;
use prometheus::{Histogram, HistogramOpts, IntCounter, IntGauge};

/// A node's cluster metrics (registered into the server's `/metrics` by `serve_with`).
#[derive(Clone)]
pub struct ClusterMetrics {
    /// Rooms whose lease this node holds (`orion_rooms_owned`), set at each renewal.
    pub rooms_owned: IntGauge,
    /// Rooms taken over after their node's lease expired (`orion_failovers_total`).
    pub failovers: IntCounter,
    /// Rooms a draining node handed to this one (`orion_handoffs_total`).
    pub handoffs: IntCounter,
    /// Round trip of a command forwarded to a room's owner (`orion_bus_request_seconds`).
    pub bus_request: Histogram,
    /// Events a node read from the store to fill a gap in what the bus delivered
    /// (`orion_seq_gap_refills_total`).
    pub refills: IntCounter,
    /// Frames this node's rooms sent to connections on other nodes
    /// (`orion_relayed_frames_total`).
    pub relayed: IntCounter,
    /// Bus messages that carried them, each frame once per node
    /// (`orion_relay_messages_total`).
    pub relay_messages: IntCounter,
}

impl ClusterMetrics {
    /// Every metric at zero.
    pub fn new() -> ClusterMetrics {
        // Constant, well-formed names and help: none of these can fail.
        let gauge = |name: &str, help: &str| {
            IntGauge::new(name, help).unwrap_or_else(|_| unreachable!("metric {name}"))
        };
        let counter = |name: &str, help: &str| {
            IntCounter::new(name, help).unwrap_or_else(|_| unreachable!("metric {name}"))
        };
        let buckets = vec![0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 2.0];
        ClusterMetrics {
            rooms_owned: gauge("orion_rooms_owned", "Rooms whose lease this node holds."),
            failovers: counter(
                "orion_failovers_total",
                "Rooms this node took over after their node's lease expired.",
            ),
            handoffs: counter(
                "orion_handoffs_total",
                "Rooms a draining node handed to this node.",
            ),
            bus_request: Histogram::with_opts(
                HistogramOpts::new(
                    "orion_bus_request_seconds",
                    "Round trip of a room command forwarded over the bus to the room's owner.",
                )
                .buckets(buckets),
            )
            .unwrap_or_else(|_| unreachable!("metric orion_bus_request_seconds")),
            refills: counter(
                "orion_seq_gap_refills_total",
                "Events read from the store to fill a gap in what the bus delivered.",
            ),
            relayed: counter(
                "orion_relayed_frames_total",
                "Frames this node's rooms sent to connections on other nodes.",
            ),
            relay_messages: counter(
                "orion_relay_messages_total",
                "Bus messages carrying relayed frames (each frame once per node).",
            ),
        }
    }

    /// Each metric, to register.
    pub fn collectors(&self) -> Vec<Box<dyn Collector>> {
        vec![
            Box::new(self.rooms_owned.clone()),
            Box::new(self.failovers.clone()),
            Box::new(self.handoffs.clone()),
            Box::new(self.bus_request.clone()),
            Box::new(self.refills.clone()),
            Box::new(self.relayed.clone()),
            Box::new(self.relay_messages.clone()),
        ]
    }
}
