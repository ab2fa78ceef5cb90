//! "Log out everywhere" closes the other devices' open connections, not only their next
//! `hello`: a revoked token stops speaking for its account at once (so does the oldest token of
//! an account, dropped by a login past the bound on its tokens). Every connection that
//! speaks for an account follows one broadcast of revocations; a cluster relays this node's
//! revocations to the others and hears theirs (`cluster/revoked.rs`). Where revocations may
//! have been missed (a lagging receiver, a bus that lost messages, a node that stalled), a
//! `Recheck` makes every account's connection ask the store whether its token still stands.
//! Moderators' actions (a kick, a ban, a deleted chat line, a closed room) travel the same way.

use std::sync::Arc;
use tokio::sync::{broadcast, mpsc};

/// Revocations a connection may fall behind on before it rechecks its token instead.
const BACKLOG: usize = 256;

/// What was revoked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Revocation {
    /// Every token of `account` but the one hashed `keep` (`logout_all`).
    AllBut {
        /// The account's player id.
        account: Arc<str>,
        /// The hash of the token that stays (the device that asked).
        keep: Arc<str>,
    },
    /// Some tokens of `account` were revoked (a login past the bound on an account's tokens
    /// dropped its oldest): the account's connections check their own token.
    Pruned {
        /// The account's player id.
        account: Arc<str>,
    },
    /// Revocations may have been missed: every account connection checks its own token.
    Recheck,
    /// A moderator acted (`moderation/sanction.rs`): the connections and rooms concerned act
    /// on it, on every node.
    Sanction(Arc<crate::moderation::Sanction>),
}

/// The broadcast of revocations, and where this node's own go to reach other nodes.
#[derive(Clone, Debug)]
pub struct Revocations {
    local: broadcast::Sender<Revocation>,
    relay: Option<mpsc::UnboundedSender<Revocation>>,
}

impl Default for Revocations {
    fn default() -> Self {
        Revocations {
            local: broadcast::channel(BACKLOG).0,
            relay: None,
        }
    }
}

impl Revocations {
    /// Revocations whose own (those [`Revocations::revoked`] is told of) also come out of the
    /// receiver, for a cluster to publish.
    pub fn relayed() -> (Revocations, mpsc::UnboundedReceiver<Revocation>) {
        let (relay, outgoing) = mpsc::unbounded_channel();
        let revocations = Revocations {
            relay: Some(relay),
            ..Revocations::default()
        };
        (revocations, outgoing)
    }

    /// A connection's view of every revocation from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Revocation> {
        self.local.subscribe()
    }

    /// This node revoked tokens: its connections and (in a cluster) the other nodes' hear it.
    pub fn revoked(&self, revocation: Revocation) {
        if let Some(relay) = &self.relay {
            let _ = relay.send(revocation.clone());
        }
        self.heard(revocation);
    }

    /// Another node revoked tokens, or revocations may have been missed: told to this node's
    /// connections only.
    pub fn heard(&self, revocation: Revocation) {
        // No receiver: no connection speaks for anyone at the moment.
        let _ = self.local.send(revocation);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_revocation_reaches_every_connection_and_only_own_ones_are_relayed() {
        let (revocations, mut outgoing) = Revocations::relayed();
        let mut a = revocations.subscribe();
        let mut b = revocations.subscribe();
        let all_but = Revocation::AllBut {
            account: Arc::from("p1"),
            keep: Arc::from("h"),
        };
        revocations.revoked(all_but.clone());
        revocations.heard(Revocation::Recheck);
        assert_eq!(a.recv().await.unwrap(), all_but);
        assert_eq!(b.recv().await.unwrap(), all_but);
        assert_eq!(a.recv().await.unwrap(), Revocation::Recheck);
        assert_eq!(outgoing.recv().await.unwrap(), all_but);
        assert!(
            outgoing.try_recv().is_err(),
            "what was heard is not relayed back"
        );
    }
}
