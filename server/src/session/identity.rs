//! Who a connection speaks for: `hello` (a new guest, or the player or account a token
//! stands for), and what `register` and `login` (in `accounts.rs`) end with too: the player
//! recorded as seen and told so in `welcome`. Apart from the accounts because every
//! connection passes here, with or without a password.

use super::{server, Handled, Session};
use crate::player::Player;
use crate::protocol::{self, check_id, Code, Refusal, ReplyTo};
use crate::store::PlayerRecord;
use orion_protocol::Message;
use rand::Rng;
use std::sync::Arc;

/// Refuses a protocol version other than this server's.
pub(super) fn check_version(version: u64) -> Result<(), Refusal> {
    if version != orion_protocol::VERSION {
        return Err(Refusal::new(
            Code::Version,
            format!(
                "this server speaks protocol version {}, not {version}",
                orion_protocol::VERSION
            ),
        ));
    }
    Ok(())
}

impl Session {
    pub(super) async fn hello(
        &mut self,
        re: &ReplyTo,
        name: String,
        version: u64,
        token: Option<String>,
    ) -> Handled {
        check_version(version)?;
        // One identity per connection: a fresh `hello` would otherwise be a fresh player with
        // fresh seats, and one connection could open rooms without bound.
        if let Some(p) = &self.player {
            return Err(Refusal::new(
                Code::BadRequest,
                format!(
                    "this connection already said hello as {}: open another connection to be someone else",
                    p.id
                ),
            ));
        }
        // Shown as it is only if an account's token replaces it; a guest's name is checked
        // as a new name below.
        let name = crate::text::name(&name)?;
        let store = &self.shared.store;
        let unknown = || {
            Refusal::new(
                Code::NotFound,
                "unknown token: say hello without one for a new identity (or log in again)",
            )
        };
        let (token, id, name, account) = match token {
            Some(token) => {
                let token = check_id("token", &token)?.to_string();
                let hash = crate::token::hash(&token);
                // An account's token stands for the account, under its claimed name, even
                // after its guest row was pruned.
                if let Some(account) = store.account_by_token(&hash).await.map_err(server)? {
                    (token, account.id, account.name, true)
                } else {
                    let known = store.player(&hash).await.map_err(server)?;
                    let known = known.ok_or_else(unknown)?;
                    // An account's token that was revoked is nobody, not its guest.
                    if store
                        .account_by_id(&known.id)
                        .await
                        .map_err(server)?
                        .is_some()
                    {
                        return Err(unknown());
                    }
                    self.check_unclaimed(&name).await?;
                    let name = crate::text::new_name(&name)?;
                    (token, known.id, name, false)
                }
            }
            None => {
                // A claimed name's look-alike is told so first, whatever else is wrong.
                self.check_unclaimed(&name).await?;
                let name = crate::text::new_name(&name)?;
                let id = format!("p{}", hex::encode(rand::thread_rng().gen::<[u8; 4]>()));
                (crate::token::fresh(), id, name, false)
            }
        };
        self.become_player(re, token, id, name, account).await
    }

    /// A guest may not go by a claimed name, in any case or width, nor by a look-alike of one
    /// (the same confusable skeleton).
    async fn check_unclaimed(&self, name: &str) -> Handled {
        let skeleton = crate::text::name_skeleton(name);
        let store = &self.shared.store;
        let claimed = store.account_by_skeleton(&skeleton).await.map_err(server)?;
        match claimed {
            Some(account) => Err(Refusal::new(
                Code::BadRequest,
                format!(
                    "the name {} is claimed: log in with its password, or choose another name",
                    account.name
                ),
            )),
            None => Ok(()),
        }
    }

    /// This connection speaks for player `id` from now on, by `token` (kept as its hash):
    /// recorded as seen, and told so in `welcome` with the seats he holds.
    pub(super) async fn become_player(
        &mut self,
        re: &ReplyTo,
        token: String,
        id: String,
        name: String,
        account: bool,
    ) -> Handled {
        self.check_not_banned(&id, account).await?;
        let record = PlayerRecord {
            id: id.clone(),
            name: name.clone(),
        };
        let now = self.shared.clock.now_ms();
        let store = &self.shared.store;
        let hash = crate::token::hash(&token);
        store
            .put_player(&hash, &record, now)
            .await
            .map_err(server)?;
        let player = Player {
            id: Arc::from(id.as_str()),
            name: Arc::from(name.as_str()),
        };
        let rooms: Vec<String> = self
            .shared
            .lobby
            .seats_of(&player.id)
            .iter()
            .map(|r| r.to_string())
            .collect();
        // An account's connections are told its notices (the one this connection spoke for
        // before a `login` no longer is).
        if let (Some(before), true) = (&self.player, self.account) {
            self.shared.notifier.detach(&before.id, self.outbox.id);
        }
        if account {
            self.shared.notifier.attach(&player.id, self.outbox.clone());
        }
        self.load_blocks(&id, account).await?;
        self.player = Some(player);
        self.token = Some(token.clone());
        self.token_hash = Some(hash);
        self.account = account;
        let moderator = match &self.player {
            Some(p) => self.is_moderator(p).await,
            None => false,
        };
        self.outbox.send(protocol::reply(
            re,
            Message::Welcome {
                player: id,
                name,
                token,
                rooms,
                account: account.then_some(true),
                vapid_key: account.then(|| self.shared.notifier.vapid_key()),
                moderator: moderator.then_some(true),
            },
        ));
        Ok(())
    }
}
