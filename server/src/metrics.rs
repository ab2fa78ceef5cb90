//! Counters for `/metrics`, kept as atomics so any task can bump them without a lock, and
//! rendered in the Prometheus text format on request.

use crate::protocol::Code;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};

/// The server's counters and gauges.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Open WebSocket connections (gauge).
    pub connections: AtomicU64,
    /// WebSocket connections accepted since start.
    pub connections_total: AtomicU64,
    /// Events appended and broadcast since start (Prometheus derives events/s with `rate`).
    pub events_total: AtomicU64,
    /// Connections dropped because their send queue was full.
    pub slow_disconnects: AtomicU64,
    /// Replies not sent because they were over `connection::MAX_OUT_FRAME` (each one a bug
    /// to fix by paging that reply).
    pub oversized_replies: AtomicU64,
    /// Errors sent, one counter per code in `Code::ALL` order.
    errors: [AtomicU64; 12],
}

impl Metrics {
    /// Counts one error reply.
    pub fn error(&self, code: Code) {
        if let Some(i) = Code::ALL.iter().position(|c| *c == code) {
            self.errors[i].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The Prometheus text exposition; `rooms` is the count of live rooms per status.
    pub fn render(&self, rooms: &[(&str, usize)]) -> String {
        let mut out = String::new();
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let _ = writeln!(out, "# HELP orion_connections Open WebSocket connections.");
        let _ = writeln!(out, "# TYPE orion_connections gauge");
        let _ = writeln!(out, "orion_connections {}", get(&self.connections));
        let _ = writeln!(
            out,
            "# HELP orion_connections_total WebSocket connections accepted."
        );
        let _ = writeln!(out, "# TYPE orion_connections_total counter");
        let _ = writeln!(
            out,
            "orion_connections_total {}",
            get(&self.connections_total)
        );
        let _ = writeln!(out, "# HELP orion_rooms Live rooms by status.");
        let _ = writeln!(out, "# TYPE orion_rooms gauge");
        for (status, n) in rooms {
            let _ = writeln!(out, "orion_rooms{{status=\"{status}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP orion_events_total Room events stored and broadcast."
        );
        let _ = writeln!(out, "# TYPE orion_events_total counter");
        let _ = writeln!(out, "orion_events_total {}", get(&self.events_total));
        let _ = writeln!(out, "# HELP orion_errors_total Error replies by code.");
        let _ = writeln!(out, "# TYPE orion_errors_total counter");
        for (code, n) in Code::ALL.iter().zip(&self.errors) {
            let _ = writeln!(
                out,
                "orion_errors_total{{code=\"{}\"}} {}",
                code.as_str(),
                get(n)
            );
        }
        let _ = writeln!(
            out,
            "# HELP orion_slow_client_disconnects_total Connections dropped for a full send queue."
        );
        let _ = writeln!(out, "# TYPE orion_slow_client_disconnects_total counter");
        let _ = writeln!(
            out,
            "orion_slow_client_disconnects_total {}",
            get(&self.slow_disconnects)
        );
        let _ = writeln!(
            out,
            "# HELP orion_oversized_replies_total Replies replaced by an error for being over the frame limit."
        );
        let _ = writeln!(out, "# TYPE orion_oversized_replies_total counter");
        let _ = writeln!(
            out,
            "orion_oversized_replies_total {}",
            get(&self.oversized_replies)
        );
        out
    }
}
