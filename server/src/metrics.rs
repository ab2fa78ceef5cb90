//! The server's counters and gauges for `/metrics`, kept in a `prometheus` registry of their
//! own (one per server, so servers in one test process do not share counts). Each is an
//! atomic behind a handle made once, so bumping one on the hot path is one atomic add.

use orion_protocol::{Code, Status};
use prometheus::{Encoder, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts, Registry};

/// The server's counters and gauges.
#[derive(Clone, Debug)]
pub struct Metrics {
    /// Where every metric below is registered, for rendering.
    registry: Registry,
    /// Open WebSocket connections.
    pub connections: IntGauge,
    /// WebSocket connections accepted since start.
    pub connections_total: IntCounter,
    /// Events appended and broadcast since start (Prometheus derives events/s with `rate`).
    pub events_total: IntCounter,
    /// Connections dropped because their send queue was full.
    pub slow_disconnects: IntCounter,
    /// Replies not sent because they were over `outbox::MAX_OUT_FRAME` (each one a bug to fix
    /// by paging that reply).
    pub oversized_replies: IntCounter,
    /// Passwords checked against a stored hash (Argon2id, the costly part of a `login`);
    /// a throttled `login` checks none.
    pub password_checks: IntCounter,
    /// `login`s refused by the password throttle before any check (`throttle.rs`).
    pub logins_throttled: IntCounter,
    /// Error replies, one counter per code in `Code::ALL` order (looked up once, here, so
    /// counting an error takes no label lookup).
    errors: [IntCounter; Code::ALL.len()],
    /// Live rooms by status, set when `/metrics` is read.
    rooms: IntGaugeVec,
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

impl Metrics {
    /// Every metric at zero, registered.
    pub fn new() -> Metrics {
        let registry = Registry::new();
        // The names and help are constants, each registered once into a fresh registry: none
        // of these can fail.
        let register = |c: Box<dyn prometheus::core::Collector>| {
            let _ = registry.register(c);
        };
        let gauge = |name: &str, help: &str| {
            IntGauge::new(name, help).unwrap_or_else(|_| unreachable!("metric {name}"))
        };
        let counter = |name: &str, help: &str| {
            IntCounter::new(name, help).unwrap_or_else(|_| unreachable!("metric {name}"))
        };
        let connections = gauge("orion_connections", "Open WebSocket connections.");
        let connections_total =
            counter("orion_connections_total", "WebSocket connections accepted.");
        let rooms = IntGaugeVec::new(
            Opts::new("orion_rooms", "Live rooms by status."),
            &["status"],
        )
        .unwrap_or_else(|_| unreachable!("metric orion_rooms"));
        let events_total = counter("orion_events_total", "Room events stored and broadcast.");
        let errors_vec = IntCounterVec::new(
            Opts::new("orion_errors_total", "Error replies by code."),
            &["code"],
        )
        .unwrap_or_else(|_| unreachable!("metric orion_errors_total"));
        let errors = Code::ALL.map(|code| errors_vec.with_label_values(&[code.as_str()]));
        let slow_disconnects = counter(
            "orion_slow_client_disconnects_total",
            "Connections dropped for a full send queue.",
        );
        let oversized_replies = counter(
            "orion_oversized_replies_total",
            "Replies replaced by an error for being over the frame limit.",
        );
        let password_checks = counter(
            "orion_password_checks_total",
            "Passwords checked against a stored Argon2id hash (login).",
        );
        let logins_throttled = counter(
            "orion_logins_throttled_total",
            "Logins refused by the password throttle without a check.",
        );
        for status in [Status::Waiting, Status::Playing, Status::Finished] {
            rooms.with_label_values(&[status.as_str()]).set(0);
        }
        register(Box::new(connections.clone()));
        register(Box::new(connections_total.clone()));
        register(Box::new(rooms.clone()));
        register(Box::new(events_total.clone()));
        register(Box::new(errors_vec));
        register(Box::new(slow_disconnects.clone()));
        register(Box::new(oversized_replies.clone()));
        register(Box::new(password_checks.clone()));
        register(Box::new(logins_throttled.clone()));
        Metrics {
            password_checks,
            logins_throttled,
            registry,
            connections,
            connections_total,
            events_total,
            slow_disconnects,
            oversized_replies,
            errors,
            rooms,
        }
    }

    /// Adds a metric made elsewhere (a cluster's); one whose name is taken is left out.
    pub fn register(&self, collector: Box<dyn prometheus::core::Collector>) {
        if let Err(e) = self.registry.register(collector) {
            tracing::warn!("metric not registered: {e}");
        }
    }

    /// Counts one error reply.
    pub fn error(&self, code: Code) {
        if let Some(i) = Code::ALL.iter().position(|c| *c == code) {
            self.errors[i].inc();
        }
    }

    /// The Prometheus text exposition (format 0.0.4); `rooms` is the count of live rooms per
    /// status.
    pub fn render(&self, rooms: &[(&str, usize)]) -> String {
        for (status, n) in rooms {
            let n = i64::try_from(*n).unwrap_or(i64::MAX);
            self.rooms.with_label_values(&[status]).set(n);
        }
        let mut out = Vec::new();
        // Writing to a `Vec` fails only on a malformed metric, and these are all well formed.
        let _ = prometheus::TextEncoder::new().encode(&self.registry.gather(), &mut out);
        String::from_utf8(out).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_keep_their_names_and_labels() {
        let m = Metrics::new();
        m.connections.inc();
        m.error(Code::NotYourTurn);
        m.events_total.inc_by(3);
        let text = m.render(&[("playing", 2)]);
        for line in [
            "orion_connections 1",
            "orion_connections_total 0",
            "orion_rooms{status=\"playing\"} 2",
            "orion_rooms{status=\"waiting\"} 0",
            "orion_events_total 3",
            "orion_errors_total{code=\"not_your_turn\"} 1",
            "orion_errors_total{code=\"bad_json\"} 0",
            "orion_slow_client_disconnects_total 0",
            "orion_oversized_replies_total 0",
            "# TYPE orion_errors_total counter",
        ] {
            assert!(
                text.lines().any(|l| l == line),
                "{line} missing from\n{text}"
            );
        }
    }
}
