//! A connection's notification requests (an addition: README "Notifications"):
//! `push_subscribe`, `push_unsubscribe`, `notify_settings` and `email`, accounts only. The
//! work is the notifier's (`notify/`); here, who may ask and what the reply says.

use super::{Handled, Session};
use crate::player::Player;
use crate::protocol::{self, Code, Refusal, ReplyTo};
use orion_protocol::{Message, PushSubscription};

impl Session {
    /// The asker's account id, or a refusal saying why a guest is not told.
    fn account_only(&self, player: &Player) -> Result<String, Refusal> {
        if self.account {
            Ok(player.id.to_string())
        } else {
            Err(Refusal::new(
                Code::BadRequest,
                "notifications are for accounts: claim your name with register (or log in) first",
            ))
        }
    }

    pub(super) async fn push_subscribe(
        &mut self,
        re: &ReplyTo,
        player: Player,
        subscription: PushSubscription,
    ) -> Handled {
        let account = self.account_only(&player)?;
        let endpoint = subscription.endpoint.clone();
        self.shared
            .notifier
            .subscribe(&account, subscription)
            .await?;
        self.outbox
            .send(protocol::reply(re, Message::PushSubscribed { endpoint }));
        Ok(())
    }

    pub(super) async fn push_unsubscribe(
        &mut self,
        re: &ReplyTo,
        player: Player,
        endpoint: String,
    ) -> Handled {
        let account = self.account_only(&player)?;
        let removed = self
            .shared
            .notifier
            .unsubscribe(&account, &endpoint)
            .await?;
        self.outbox.send(protocol::reply(
            re,
            Message::PushUnsubscribed { endpoint, removed },
        ));
        Ok(())
    }

    pub(super) async fn notify_settings(
        &mut self,
        re: &ReplyTo,
        player: Player,
        set: [Option<bool>; 5],
    ) -> Handled {
        let account = self.account_only(&player)?;
        let settings = self.shared.notifier.settings(&account, set).await?;
        self.outbox
            .send(protocol::reply(re, Message::NotifySettings(settings)));
        Ok(())
    }

    pub(super) async fn email(&mut self, re: &ReplyTo, player: Player, address: String) -> Handled {
        let account = self.account_only(&player)?;
        let address = self.shared.notifier.email(&account, &address).await?;
        self.outbox
            .send(protocol::reply(re, Message::EmailSent { address }));
        Ok(())
    }
}
