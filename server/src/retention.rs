//! How long the store keeps what no one plays any more: finished and closed rooms (their
//! events and chat) and guest identities not seen for the retention period are deleted, once
//! at start and then every [`PRUNE_EVERY`] of server time. Without it the database only
//! grows. The period is `Config::retain` (`--retain-days`; none keeps everything).

use crate::clock::Clock;
use crate::clock::Millis;
use crate::store::{Store, PRUNE_BATCH};
use std::sync::Arc;
use tokio::sync::watch;

/// How often the store is pruned (server time).
pub const PRUNE_EVERY: Millis = 3_600_000;
/// The default retention: 90 days.
pub const DEFAULT_RETAIN: Millis = 90 * 24 * 3_600_000;

/// Prunes the store every [`PRUNE_EVERY`] until the server shuts down.
pub async fn prune_loop(
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    retain: Millis,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        let now = clock.now_ms();
        let before = now.saturating_sub(retain);
        // A batch at a time, so group commits get the writer in between.
        loop {
            match store.prune(before).await {
                Ok((rooms, players)) => {
                    if rooms + players > 0 {
                        tracing::info!(rooms, players, "pruned past retention");
                    }
                    if rooms < PRUNE_BATCH as u64 && players < PRUNE_BATCH as u64 {
                        break;
                    }
                    tokio::task::yield_now().await;
                }
                Err(e) => {
                    tracing::warn!("pruning the store failed: {e}");
                    break;
                }
            }
        }
        tokio::select! {
            _ = clock.sleep_until(now.saturating_add(PRUNE_EVERY)) => {}
            _ = shutdown.changed() => return,
        }
    }
}
