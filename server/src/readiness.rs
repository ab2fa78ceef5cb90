//! `GET /readyz`: whether this server can serve players now, for a load balancer or an
//! orchestrator deciding where to send them. Ready means the store answered a read (and, in
//! a cluster, the bus is connected), each within [`PATIENCE`]; otherwise the reason. A server
//! whose PostgreSQL is down is not ready, and is again once it reconnects (the store's
//! writer reconnects by itself). `/healthz` stays what it was: the process answers HTTP.

use crate::shared::Shared;
use std::time::Duration;

/// How long the store has to answer before the server counts as not ready: far above a
/// healthy store's answer, and below a load balancer's usual probe timeout.
pub const PATIENCE: Duration = Duration::from_secs(2);

/// `Ok` when the store and the bus answer; the reason, in words, when one does not.
pub async fn check(shared: &Shared) -> Result<(), String> {
    match tokio::time::timeout(PATIENCE, shared.store.ping()).await {
        Err(_) => return Err(format!("the store did not answer within {PATIENCE:?}")),
        Ok(Err(e)) => return Err(format!("the store does not answer: {e}")),
        Ok(Ok(())) => {}
    }
    shared.lobby.rooms.ready()
}
