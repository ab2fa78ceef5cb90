//! Finished games' records, built once and kept: a game's record cannot change once its
//! `over` is stored (later rematch offers and chat are not in it), so the first request builds
//! it (`export::text`, which replays the whole game), the store keeps the text
//! (`Store::keep_record`, pruned with the room), and every later request, on this server or
//! after a restart, reads it back instead of building it again. This module is the memory
//! side: the cache, the builds in flight, the body that serves a record.
//!
//! Memory, per policy: every request for one record shares one copy of its text
//! ([`hyper::body::Bytes`], counted references), from a cache of the most recently asked
//! records bounded by [`CACHE_BYTES`]; requests that arrive while a record is being built or
//! read wait for that one build. `/g/ROOM.txt` hands the shared text to hyper in
//! [`CHUNK`]-byte slices ([`RecordBody`]), and hyper asks for the next slice only once its
//! write buffer (16 KiB, `http.rs`) has room: a reader that stops reading holds some 32 KiB
//! of its own, not a copy of the record, until the exchange's deadline drops it
//! (`Config::record_timeout`, `http.rs`). Builds are counted in `orion_records_built_total`.

use crate::protocol::Refusal;
use hyper::body::{Body, Bytes, Frame, SizeHint};
use lru::LruCache;
use prometheus::IntCounter;
use std::collections::HashMap;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::sync::OnceCell;

/// Most bytes of records kept in memory (least recently asked dropped first; the store still
/// has them). 32 MiB holds some 400 long games' records (a 200-turn game's is some 80 KB).
pub const CACHE_BYTES: usize = 32 << 20;
/// Bytes handed to hyper at a time while serving a record.
pub const CHUNK: usize = 16 * 1024;

/// One build or store read in flight, shared by everyone asking for that record meanwhile.
pub(crate) type Pending = Arc<OnceCell<Result<Bytes, Refusal>>>;

/// The kept records of one server.
pub struct Records {
    /// Records by room id, most recently asked first, with their total size.
    kept: Mutex<(LruCache<String, Bytes>, usize)>,
    /// Records being built or read, by room id.
    pending: Mutex<HashMap<String, Pending>>,
    /// Records built (not read back from the store) since start.
    built: IntCounter,
}

impl Records {
    /// An empty cache whose build counter is registered in `metrics`.
    pub fn new(metrics: &crate::metrics::Metrics) -> Records {
        let built = IntCounter::new(
            "orion_records_built_total",
            "Game records built from the log (each finished game's once; later ones are read back).",
        )
        .unwrap_or_else(|_| unreachable!("metric orion_records_built_total"));
        metrics.register(Box::new(built.clone()));
        Records {
            kept: Mutex::new((LruCache::unbounded(), 0)),
            pending: Mutex::new(HashMap::new()),
            built,
        }
    }

    /// A record was built (counted in `orion_records_built_total`).
    pub(crate) fn note_built(&self) {
        self.built.inc();
    }

    /// A kept record, marked as recently asked.
    pub(crate) fn cached(&self, room: &str) -> Option<Bytes> {
        let mut kept = self.kept.lock().ok()?;
        kept.0.get(room).cloned()
    }

    /// Keeps `text` in memory, dropping the least recently asked records past the budget (a
    /// record larger than the whole budget is not kept: the store has it).
    pub(crate) fn keep(&self, room: &str, text: &Bytes) {
        if text.len() > CACHE_BYTES {
            return;
        }
        let Ok(mut kept) = self.kept.lock() else {
            return;
        };
        let (cache, bytes) = &mut *kept;
        if let Some(old) = cache.put(room.to_string(), text.clone()) {
            *bytes -= old.len();
        }
        *bytes += text.len();
        while *bytes > CACHE_BYTES {
            match cache.pop_lru() {
                Some((_, gone)) => *bytes -= gone.len(),
                None => break,
            }
        }
    }

    /// The build or read of `room`'s record that everyone asking now shares.
    pub(crate) fn pending(&self, room: &str) -> Option<Pending> {
        let mut pending = self.pending.lock().ok()?;
        Some(pending.entry(room.to_string()).or_default().clone())
    }

    /// `room`'s build or read is over (whatever came of it).
    pub(crate) fn settled(&self, room: &str) {
        if let Ok(mut pending) = self.pending.lock() {
            pending.remove(room);
        }
    }
}

/// A kept record as an HTTP body: the shared text, handed out [`CHUNK`] bytes at a time
/// (each a counted reference into it, never a copy), with its exact length.
pub struct RecordBody {
    /// What is left to send.
    rest: Bytes,
}

impl RecordBody {
    /// The body of `text`.
    pub fn new(text: Bytes) -> RecordBody {
        RecordBody { rest: text }
    }
}

impl Body for RecordBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        if self.rest.is_empty() {
            return Poll::Ready(None);
        }
        let n = self.rest.len().min(CHUNK);
        Poll::Ready(Some(Ok(Frame::data(self.rest.split_to(n)))))
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.rest.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[tokio::test]
    async fn a_record_body_is_the_text_in_chunks_that_share_it() {
        let text = Bytes::from("x".repeat(CHUNK * 2 + 5));
        let mut body = RecordBody::new(text.clone());
        assert_eq!(body.size_hint().exact(), Some(text.len() as u64));
        let mut sizes = Vec::new();
        let mut joined = Vec::new();
        while let Some(frame) = body.frame().await {
            let data = frame.unwrap().into_data().unwrap();
            // A slice of the one text, not a copy of it.
            assert!(text.as_ptr_range().contains(&data.as_ptr()));
            sizes.push(data.len());
            joined.extend_from_slice(&data);
        }
        assert_eq!(sizes, [CHUNK, CHUNK, 5]);
        assert_eq!(joined, text);
    }

    #[test]
    fn the_cache_keeps_the_most_recently_asked_within_its_budget() {
        let records = Records::new(&crate::metrics::Metrics::new());
        let big = Bytes::from(vec![b'a'; CACHE_BYTES / 2 - 1]);
        records.keep("r1", &big);
        records.keep("r2", &big);
        assert!(records.cached("r1").is_some());
        records.keep("r3", &big);
        // r2 was asked least recently: it went.
        assert!(records.cached("r2").is_none());
        assert!(records.cached("r1").is_some() && records.cached("r3").is_some());
        records.keep("huge", &Bytes::from(vec![b'b'; CACHE_BYTES + 1]));
        assert!(records.cached("huge").is_none());
    }
}
