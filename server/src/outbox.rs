//! The sending side of one connection: a bounded queue that the connection's write loop
//! drains, cheap to clone into rooms, so a client that stops reading can never delay a room
//! (a full queue disconnects it).

use crate::metrics::Metrics;
use crate::protocol::{self, Code, Frame, Refusal};
use std::sync::Arc;
use tokio::sync::{mpsc, Notify};

/// Largest frame the server sends (256 KiB). Replies that grow with the server's state (the
/// lobby, a room's history) are paged far below it; one over it all the same is not sent: the
/// client gets a `server` error in its place, the server logs a warning and counts it in
/// `/metrics`, and the connection stays open.
pub const MAX_OUT_FRAME: usize = 256 * 1024;

/// An item of a client's send queue.
#[derive(Debug, Clone)]
pub enum Out {
    /// A text frame.
    Text(Frame),
    /// A close frame with its code and reason; nothing is sent after it.
    Close(u16, &'static str),
}

/// The sending side of one connection, cheap to clone into rooms.
#[derive(Debug, Clone)]
pub struct Outbox {
    /// The connection's id, to tell members apart.
    pub id: u64,
    /// The bounded queue the write loop drains.
    tx: mpsc::Sender<Out>,
    /// Rung when the queue overflowed: the write loop drops the connection.
    kick: Arc<Notify>,
    /// Where slow-client disconnects are counted.
    metrics: Arc<Metrics>,
    /// Its frames cross a bus that may drop some (a cluster relay, `cluster::fanout`); the
    /// far end skips a `seq` it has delivered already, so a room may send one again.
    lossy: bool,
    /// The players its account blocks: their chat lines are not sent (`moderation/blocked.rs`).
    blocked: Arc<crate::moderation::Blocked>,
}

impl Outbox {
    /// A new outbox and the receiving end for the write loop.
    pub fn new(id: u64, metrics: Arc<Metrics>, capacity: usize) -> (Outbox, mpsc::Receiver<Out>) {
        let (tx, rx) = mpsc::channel(capacity.max(1));
        let outbox = Outbox {
            id,
            tx,
            kick: Arc::new(Notify::new()),
            metrics,
            lossy: false,
            blocked: Arc::default(),
        };
        (outbox, rx)
    }

    /// The same outbox, marked as crossing a bus that may drop frames (see [`Outbox::lossy`]).
    pub fn crossing_a_bus(self) -> Outbox {
        Outbox {
            lossy: true,
            ..self
        }
    }

    /// Whether frames sent here may be lost on their way (a cluster relay over pub/sub): a
    /// room then sends again what its member asks for, and the member's node skips what it
    /// delivered already. A local connection loses nothing while it lives.
    pub fn lossy(&self) -> bool {
        self.lossy
    }

    /// Queues a frame without waiting. False if the client is gone or too slow; a slow
    /// client is disconnected. A frame over `MAX_OUT_FRAME` is replaced by an error saying so.
    pub fn send(&self, frame: Frame) -> bool {
        if self.blocked.hides(&frame) {
            return true;
        }
        let frame = if frame.len() > MAX_OUT_FRAME {
            self.oversized(&frame)
        } else {
            frame
        };
        match self.tx.try_send(Out::Text(frame)) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.metrics.slow_disconnects.inc();
                self.kick.notify_one();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// The error sent in place of a reply over `MAX_OUT_FRAME` (answering the same request).
    fn oversized(&self, frame: &Frame) -> Frame {
        /// The fields of a reply that say what it was.
        #[derive(serde::Deserialize)]
        struct Head {
            /// Its type, for the log.
            #[serde(default)]
            t: Option<String>,
            /// The request it answers, if any.
            #[serde(default)]
            re: Option<orion_protocol::RequestId>,
        }
        let head: Option<Head> = serde_json::from_str(frame.as_str()).ok();
        let (t, re) = head.map(|h| (h.t, h.re)).unwrap_or_default();
        tracing::warn!(
            conn = self.id,
            t = t.as_deref().unwrap_or("?"),
            bytes = frame.len(),
            "reply over MAX_OUT_FRAME not sent"
        );
        self.metrics.oversized_replies.inc();
        let refusal = Refusal::new(
            Code::Server,
            format!(
                "a reply of {} bytes is over the {MAX_OUT_FRAME}-byte limit",
                frame.len()
            ),
        );
        self.metrics.error(refusal.code);
        protocol::error(&re, &refusal)
    }

    /// The players whose chat this connection is not sent.
    pub fn blocked(&self) -> &crate::moderation::Blocked {
        &self.blocked
    }

    /// Queues an error reply.
    pub fn refuse(&self, re: &protocol::ReplyTo, refusal: &Refusal) {
        self.metrics.error(refusal.code);
        self.send(protocol::error(re, refusal));
    }

    /// Queues a close frame.
    pub fn close(&self, code: u16, reason: &'static str) {
        if self.tx.try_send(Out::Close(code, reason)).is_err() {
            self.kick.notify_one();
        }
    }

    /// Rung when the queue overflows: the connection's write loop waits on it to drop a
    /// client too slow to read.
    pub fn kicked(&self) -> Arc<Notify> {
        self.kick.clone()
    }

    /// Whether the connection has gone away.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// How many handles to this outbox are held (by the connection, by rooms …).
    pub fn holders(&self) -> usize {
        self.tx.strong_count()
    }
}
