//! What the store's SQLite tests share: a room as they create it, appends, and a runtime to
//! wait on the store's futures.

use crate::store::record::{ActionRecord, Append, RoomRecord};
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

/// Room `room`'s append `n`: a click by north and its one event.
pub fn click(room: &str, n: u64) -> Append {
    Append {
        action: Some(ActionRecord {
            seat: "N".into(),
            action: format!("click C{}R", n % 5 + 1),
            at: n * 10,
        }),
        ..event(room, n)
    }
}
