//! What the store's SQLite tests share: a room as they create it, appends, and a runtime to
//! wait on the store's futures.

use crate::store::record::{Append, RoomRecord};
use std::sync::Arc;

/// A Hydra room `r`, as the tests create it.
pub fn room_r() -> RoomRecord {
    RoomRecord {
        id: "r".into(),
        game: "hydra-2".into(),
        options: "{}".into(),
        seed: 7,
        private: false,
        code: None,
        salt: Some("00ff".into()),
    }
}

/// Waits for `f` on a runtime of its own.
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}

/// Room `room`'s append `seq`: one event, no action.
pub fn event(room: &str, seq: u64) -> Append {
    Append {
        room: Arc::from(room),
        n: seq,
        action: None,
        events: vec![(seq, format!("{{\"seq\":{seq}}}"))],
        seq,
    }
}
