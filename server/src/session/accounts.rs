//! A connection's account requests: `register` (claim the name this player said hello
//! with), `login` (become a claimed account's player, on a new device, with a token of its
//! own) and `logout_all` (revoke every other device's token). Passwords go straight to
//! `password.rs` and are never logged or echoed; a `login` passes the password throttle
//! (`throttle.rs`) before anything else.

use super::identity::check_version;
use super::{server, Handled, Session};
use crate::password::{Password, DUMMY_HASH};
use crate::player::Player;
use crate::protocol::{self, Code, Refusal, ReplyTo};
use crate::revocations::Revocation;
use crate::store::{AccountRecord, Claimed};
use orion_protocol::Message;
use std::sync::Arc;

/// Wrong passwords one connection may give; after that every `login` on it is refused with
/// `rate_limited`. Reconnecting does not help a guesser: the throttle (`throttle.rs`) counts
/// tries per account name and per address, across connections.
pub const MAX_FAILED_LOGINS: u32 = 5;

impl Session {
    pub(super) async fn register(
        &mut self,
        re: &ReplyTo,
        player: Player,
        password: String,
    ) -> Handled {
        let password = Password::new(password)?;
        // Held to the rules of new names (a guest's hello was), whatever this connection
        // said hello with.
        let name = crate::text::new_name(&player.name)?;
        let store = self.shared.store.clone();
        let id = player.id.to_string();
        if let Some(mine) = store.account_by_id(&id).await.map_err(server)? {
            return Err(Refusal::new(
                Code::BadRequest,
                format!("you have claimed the name {} already", mine.name),
            ));
        }
        let key = crate::text::name_key(&name);
        let skeleton = crate::text::name_skeleton(&name);
        let taken = |name: &str| {
            Refusal::new(
                Code::BadRequest,
                format!("the name {name} is claimed by another player: say hello with another name to claim it"),
            )
        };
        if let Some(other) = store.account_by_skeleton(&skeleton).await.map_err(server)? {
            return Err(taken(&other.name));
        }
        if let Some(other) = store.account_by_key(&key).await.map_err(server)? {
            return Err(taken(&other.name));
        }
        let (Some(token), Some(token_hash)) = (self.token.clone(), self.token_hash.clone()) else {
            return Err(Refusal::new(Code::Server, "no token"));
        };
        let hash = password.hash().await?;
        let account = AccountRecord {
            id,
            name,
            key,
            skeleton,
            hash,
        };
        let now = self.shared.clock.now_ms();
        match store
            .claim(&account, &token_hash, now)
            .await
            .map_err(server)?
        {
            Claimed::Done => {}
            Claimed::NameTaken => return Err(taken(&account.name)),
            Claimed::AccountExists => {
                return Err(Refusal::new(
                    Code::BadRequest,
                    "you have claimed a name already",
                ))
            }
        }
        tracing::info!(player = %account.id, "name claimed");
        self.become_player(re, token, account.id, account.name, true)
            .await
    }

    pub(super) async fn login(
        &mut self,
        re: &ReplyTo,
        name: String,
        password: String,
        version: Option<u64>,
    ) -> Handled {
        if let Some(v) = version {
            check_version(v)?;
        }
        if self.failed_logins >= MAX_FAILED_LOGINS {
            return Err(Refusal::new(
                Code::RateLimited,
                format!(
                    "{MAX_FAILED_LOGINS} wrong passwords on this connection: open a new one to try again"
                ),
            ));
        }
        // A guest may become an account only while he holds nothing that would be left behind.
        if let Some(p) = &self.player {
            if !self.rooms.is_empty() || !self.shared.lobby.seats_of(&p.id).is_empty() {
                return Err(Refusal::new(
                    Code::BadRequest,
                    "leave your rooms first, or log in on a new connection",
                ));
            }
        }
        // Names claimed before today's rules still log in: only a display name's checks.
        let name = crate::text::name(&name)?;
        let key = crate::text::name_key(&name);
        let shared = self.shared.clone();
        let now = shared.clock.now_ms();
        // Before the store or a hash: a throttled try costs the server nothing.
        let attempt = shared.throttle.begin(&key, self.peer, now).map_err(|wait| {
            shared.metrics.logins_throttled.inc();
            Refusal::wait(
                format!(
                    "too many wrong passwords for this name or from this address: try again in {} s",
                    wait.div_ceil(1000)
                ),
                wait,
            )
        })?;
        let password = Password::new(password);
        let account = shared.store.account_by_key(&key).await.map_err(server)?;
        let ok = match password {
            // An unknown name is checked against a dummy hash of the same cost, so it takes
            // as long as a wrong password for a real one.
            Ok(p) => {
                shared.metrics.password_checks.inc();
                let phc = account.as_ref().map_or(DUMMY_HASH, |a| a.hash.as_str());
                p.matches(phc.to_string()).await? && account.is_some()
            }
            // A password that could never have been set is wrong all the same.
            Err(_) => false,
        };
        let Some(account) = account.filter(|_| ok) else {
            self.failed_logins += 1;
            tracing::info!(failed = self.failed_logins, "login refused");
            return Err(Refusal::new(
                Code::NotFound,
                "no account with that name and password",
            ));
        };
        shared.throttle.succeeded(attempt);
        // Each login is a device of its own: a fresh token, kept only as its hash.
        let token = crate::token::fresh();
        let hash = crate::token::hash(&token);
        (shared.store.add_token(&account.id, &hash, now).await).map_err(server)?;
        // Past the bound, the account's oldest token went: a device still connected with it
        // is closed as if logged out.
        (shared.revocations).revoked(Revocation::Pruned {
            account: Arc::from(&*account.id),
        });
        if let Some(p) = &self.player {
            if *p.id != *account.id {
                // The guest this connection was goes; the account takes the connection.
                self.shared.lobby.matchmaker.unqueue(self.outbox.id).await;
                self.player = None;
            }
        }
        self.become_player(re, token, account.id, account.name, true)
            .await
    }

    /// Revokes every token of this connection's account but its own: other devices must log
    /// in again, and their open connections, on every node, are closed.
    pub(super) async fn logout_all(&mut self, re: &ReplyTo, player: Player) -> Handled {
        let store = self.shared.store.clone();
        let id = player.id.to_string();
        if store.account_by_id(&id).await.map_err(server)?.is_none() {
            return Err(Refusal::new(
                Code::BadRequest,
                "a guest has one token only: claim your name with register first",
            ));
        }
        let keep =
            (self.token_hash.clone()).ok_or_else(|| Refusal::new(Code::Server, "no token"))?;
        let revoked = store.revoke_tokens(&id, &keep).await.map_err(server)?;
        self.shared.revocations.revoked(Revocation::AllBut {
            account: Arc::from(id.as_str()),
            keep: Arc::from(keep.as_str()),
        });
        tracing::info!(player = %id, revoked, "logged out everywhere else");
        self.outbox
            .send(protocol::reply(re, Message::LoggedOut { revoked }));
        Ok(())
    }
}
