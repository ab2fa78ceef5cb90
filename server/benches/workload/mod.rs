//! The store workloads shared by the `store` bench and the `store_cpu` example: appends of a
//! click event of the size the server stores, committed together and awaited.

use orion_server::{Append, Commit, Store};
use std::sync::Arc;

/// A click event of the size the server stores (the whole position string included).
pub fn click_event(seq: u64) -> String {
    let position: String = (0..40)
        .map(|i| format!("A{}e:R{} ", i % 5 + 1, i % 20 + 1))
        .collect();
    format!(r#"{{"kind":"click","seat":"S","click":"C3R","position":"{position}","n":{seq}}}"#)
}

/// `count` room ids, as the server makes them, after `tag` (to keep runs apart in a
/// database that outlives them).
pub fn room_ids(tag: &str, count: usize) -> Vec<Arc<str>> {
    (0..count)
        .map(|r| Arc::from(format!("{tag}r{r:08x}")))
        .collect()
}

/// Queues `room`'s append number `n` (one click event).
pub fn append(store: &dyn Store, room: &Arc<str>, n: u64) -> Commit {
    store.append(Append {
        room: room.clone(),
        n,
        action: None,
        events: vec![(n, click_event(n))],
        seq: n,
    })
}

/// Waits for every commit, which all went into the store's queue before the first is awaited.
pub fn wait_all(runtime: &tokio::runtime::Runtime, commits: Vec<Commit>) {
    runtime.block_on(async {
        for commit in commits {
            commit.wait().await.expect("stored");
        }
    });
}

/// A busy server's steady state: rooms in play, each group commit holding the few that
/// clicked meanwhile, in turn.
pub struct Spread {
    ids: Vec<Arc<str>>,
    appended: Vec<u64>,
    next: usize,
}

impl Spread {
    /// `rooms` rooms with no appends yet, their ids after `tag`.
    pub fn new(tag: &str, rooms: usize) -> Spread {
        Spread {
            ids: room_ids(tag, rooms),
            appended: vec![0; rooms],
            next: 0,
        }
    }

    /// One group commit of the next `together` rooms' appends, awaited.
    pub fn commit(
        &mut self,
        store: &dyn Store,
        runtime: &tokio::runtime::Runtime,
        together: usize,
    ) {
        let commits = (0..together)
            .map(|_| {
                let r = self.next % self.ids.len();
                self.next += 1;
                self.appended[r] += 1;
                append(store, &self.ids[r], self.appended[r])
            })
            .collect();
        wait_all(runtime, commits);
    }
}
