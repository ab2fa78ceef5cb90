//! Revoked tokens across nodes: a `logout_all` on one node closes the account's other
//! connections on every node (and a moderator's action reaches every node the same way). Each node publishes its own revocations on `orion.revoked` and
//! passes the others' to its connections. A revocation published while a node was cut off
//! from the bus is not heard again: that node's bus losses and stalls make every account
//! connection recheck its token with the store instead (`moved.rs`, `keep_leases`).

use super::bus::{Bus, REVOKED_SUBJECT};
use crate::moderation::Sanction;
use crate::revocations::{Revocation, Revocations};
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tokio::sync::mpsc;

/// `logout_all` of `account` on `node`, keeping the token hashed `keep`; without `keep`, some
/// of the account's tokens went (its oldest, at a login past the bound).
/// With `sanction`, a moderator's action instead (`account` empty).
#[derive(Debug, Serialize, Deserialize)]
struct Revoked {
    node: String,
    #[serde(default)]
    account: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    keep: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sanction: Option<Sanction>,
}

/// Publishes this node's revocations until the sender closes.
pub(super) async fn publish(
    bus: Bus,
    node: Arc<str>,
    mut outgoing: mpsc::UnboundedReceiver<Revocation>,
) {
    while let Some(revocation) = outgoing.recv().await {
        let (account, keep, sanction) = match revocation {
            Revocation::AllBut { account, keep } => (account, Some(keep.to_string()), None),
            Revocation::Pruned { account } => (account, None, None),
            Revocation::Sanction(s) => (Arc::from(""), None, Some((*s).clone())),
            Revocation::Recheck => continue, // this node's own business
        };
        let notice = Revoked {
            node: node.to_string(),
            account: account.to_string(),
            keep,
            sanction,
        };
        let Ok(payload) = serde_json::to_vec(&notice) else {
            continue;
        };
        if let Err(e) = bus.client.publish(REVOKED_SUBJECT, payload.into()).await {
            tracing::warn!(%account, "could not tell the other nodes of a revocation: {e}");
        }
    }
}

/// Passes the other nodes' revocations to this node's connections until the subscription
/// ends.
pub(super) async fn follow(
    node: Arc<str>,
    revocations: Revocations,
    mut sub: async_nats::Subscriber,
) {
    while let Some(msg) = sub.next().await {
        match serde_json::from_slice::<Revoked>(&msg.payload) {
            Ok(r) if *r.node == *node => {}
            Ok(r) => revocations.heard(match (r.sanction, r.keep) {
                (Some(sanction), _) => Revocation::Sanction(Arc::new(sanction)),
                (None, Some(keep)) => Revocation::AllBut {
                    account: Arc::from(r.account),
                    keep: Arc::from(keep),
                },
                (None, None) => Revocation::Pruned {
                    account: Arc::from(r.account),
                },
            }),
            Err(e) => tracing::warn!("a revocation notice that does not parse: {e}"),
        }
    }
}
