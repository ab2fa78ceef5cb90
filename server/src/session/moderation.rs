//! The moderation requests (an addition: README): `report` and `block`/`unblock`/`blocks` for
//! everyone; `reports`, `resolve_report`, `mute`, `kick`, `ban`, `unban`, `close_room`,
//! `delete_chat` and `audit` for moderators (each action with a reason, answered `ok` and
//! written to the audit log); `promote`/`demote` for administrators. Also the checks other
//! requests make: a banned player's `hello` or `login`, a muted or flooding player's chat, and
//! what a connection does when a moderator's action concerns it (`sanctioned`).

use super::{server, Handled, Session};
use crate::moderation::{self, Sanction, MAX_BLOCKS, MAX_REASON, PAGE};
use crate::player::Player;
use crate::protocol::{self, check_id, Code, Refusal, ReplyTo};
use crate::revocations::Revocation;
use crate::store::{NewReport, SanctionKind, SanctionRecord};
use orion_protocol::{AuditEntry, BlockedPlayer, Message, Request};
use std::sync::Arc;

const MINUTE: u64 = 60_000;
const DAY: u64 = 24 * 60 * MINUTE;

/// A player a request names.
struct Target {
    /// His player id.
    id: String,
    /// His name (a guest's id when only that is known).
    name: String,
    /// Whether he is an account.
    account: bool,
}

/// A reason as given: trimmed, 1 to [`MAX_REASON`] characters, no control characters.
fn reason(text: &str) -> Result<String, Refusal> {
    let t = text.trim();
    let n = t.chars().count();
    if n == 0 || n > MAX_REASON || t.chars().any(char::is_control) {
        return Err(Refusal::new(
            Code::BadRequest,
            format!("give a reason of 1 to {MAX_REASON} characters, on one line"),
        ));
    }
    Ok(t.to_string())
}

/// What a banned player is told: why, and until when.
pub(super) fn banned(ban: &SanctionRecord, now: u64) -> Refusal {
    let message = match ban.until {
        Some(until) => format!(
            "you are banned until {}: {}",
            moderation::when(until),
            ban.reason
        ),
        None => format!("you are banned for good: {}", ban.reason),
    };
    Refusal {
        code: Code::Banned,
        message,
        retry_ms: ban.until.map(|u| u.saturating_sub(now)),
    }
}

/// How long, in words.
fn minutes(ms: u64) -> String {
    let m = ms.div_ceil(MINUTE);
    if m == 1 {
        "1 minute".into()
    } else {
        format!("{m} minutes")
    }
}

impl Session {
    /// Answers a moderation request (any of those in the module doc).
    pub(super) async fn moderation(
        &mut self,
        re: &ReplyTo,
        me: Player,
        request: Request,
    ) -> Handled {
        let now = self.shared.clock.now_ms();
        let store = self.shared.store.clone();
        match request {
            Request::Report {
                player,
                room,
                reason: why,
            } => {
                let why = reason(&why)?;
                let target = self.target(&player).await?;
                let room = match room {
                    Some(r) => Some(check_id("room", &r)?.to_string()),
                    None => None,
                };
                let report = NewReport {
                    reporter: me.id.to_string(),
                    reporter_name: me.name.to_string(),
                    player: target.id,
                    room,
                    reason: why,
                    at: now,
                };
                let since = now.saturating_sub(60 * MINUTE);
                let most = moderation::MAX_REPORTS_PER_HOUR;
                match store.add_report(&report, since, most).await.map_err(server)? {
                    Some(id) => self.ok(re, "report", Some(id)),
                    None => Err(Refusal::new(
                        Code::RateLimited,
                        format!("at most {most} reports an hour: the moderators have yours; report again later"),
                    )),
                }
            }
            Request::Block { player } => {
                self.an_account("block")?;
                let target = self.target(&player).await?;
                if *target.id == *me.id {
                    return Err(Refusal::new(Code::BadRequest, "you cannot block yourself"));
                }
                let blocks = store.blocks(&me.id).await.map_err(server)?;
                if blocks.len() >= MAX_BLOCKS && blocks.iter().all(|b| b.player != target.id) {
                    return Err(Refusal::new(
                        Code::Full,
                        format!("you block {MAX_BLOCKS} players already: unblock one first"),
                    ));
                }
                let blocked = BlockedPlayer {
                    player: target.id,
                    name: target.name,
                };
                store
                    .set_block(&me.id, &blocked, true, now)
                    .await
                    .map_err(server)?;
                self.sanction(Sanction::Blocks {
                    player: me.id.to_string(),
                });
                self.blocks(re, &me).await
            }
            Request::Unblock { player } => {
                self.an_account("unblock")?;
                let player = check_id("player", &player)?.to_string();
                let id = match self.target(&player).await {
                    Ok(t) => t.id,
                    Err(_) => player,
                };
                let blocked = BlockedPlayer {
                    player: id,
                    name: String::new(),
                };
                store
                    .set_block(&me.id, &blocked, false, now)
                    .await
                    .map_err(server)?;
                self.sanction(Sanction::Blocks {
                    player: me.id.to_string(),
                });
                self.blocks(re, &me).await
            }
            Request::Blocks => {
                self.an_account("blocks")?;
                self.blocks(re, &me).await
            }
            Request::Promote {
                player,
                reason: why,
            } => self.promote(re, me, &player, &why, true, now).await,
            Request::Demote {
                player,
                reason: why,
            } => self.promote(re, me, &player, &why, false, now).await,
            other => self.moderate(re, me, other, now).await,
        }
    }

    /// A moderator's request: refused to anyone else, then carried out, audited, answered.
    async fn moderate(&mut self, re: &ReplyTo, me: Player, request: Request, now: u64) -> Handled {
        self.a_moderator(&me).await?;
        let store = self.shared.store.clone();
        match request {
            Request::Reports { after } => {
                let mut reports = store
                    .open_reports(after.unwrap_or(0), PAGE + 1)
                    .await
                    .map_err(server)?;
                let more = reports.len() > PAGE;
                reports.truncate(PAGE);
                self.outbox
                    .send(protocol::reply(re, Message::Reports { reports, more }));
                Ok(())
            }
            Request::Audit { before } => {
                let mut entries = store.audit_log(before, PAGE + 1).await.map_err(server)?;
                let more = entries.len() > PAGE;
                entries.truncate(PAGE);
                self.outbox
                    .send(protocol::reply(re, Message::Audit { entries, more }));
                Ok(())
            }
            Request::ResolveReport {
                report: id,
                reason: why,
            } => {
                let why = reason(&why)?;
                if !store.resolve_report(id, now).await.map_err(server)? {
                    return Err(Refusal::new(Code::NotFound, format!("no open report {id}")));
                }
                self.audit(&me, "resolve_report", id.to_string(), None, why, now)
                    .await?;
                self.ok(re, "resolve_report", None)
            }
            Request::Mute {
                player,
                minutes: m,
                reason: why,
            } => {
                let why = reason(&why)?;
                let target = self.target(&player).await?;
                if m > moderation::MAX_MUTE_MINUTES {
                    return Err(Refusal::new(
                        Code::BadRequest,
                        format!(
                            "minutes must be 0 (lifts a mute) to {}",
                            moderation::MAX_MUTE_MINUTES
                        ),
                    ));
                }
                let detail = if m == 0 {
                    store
                        .lift_sanction(SanctionKind::Mute, &target.id)
                        .await
                        .map_err(server)?;
                    "lifted".to_string()
                } else {
                    let mute = SanctionRecord {
                        target: target.id.clone(),
                        until: Some(now + u64::from(m) * MINUTE),
                        reason: why.clone(),
                        by: me.id.to_string(),
                        at: now,
                    };
                    store
                        .put_sanction(SanctionKind::Mute, &mute)
                        .await
                        .map_err(server)?;
                    minutes(u64::from(m) * MINUTE)
                };
                self.audit(&me, "mute", target.id, Some(detail), why, now)
                    .await?;
                self.ok(re, "mute", None)
            }
            Request::Kick {
                player,
                reason: why,
            } => {
                let why = reason(&why)?;
                let target = self.target(&player).await?;
                self.audit(&me, "kick", target.id.clone(), None, why, now)
                    .await?;
                self.sanction(Sanction::Kick { player: target.id });
                self.ok(re, "kick", None)
            }
            Request::Ban {
                player,
                days,
                reason: why,
            } => {
                let why = reason(&why)?;
                let target = self.target(&player).await?;
                if *target.id == *me.id {
                    return Err(Refusal::new(Code::BadRequest, "you cannot ban yourself"));
                }
                if days.is_some_and(|d| d == 0 || d > moderation::MAX_BAN_DAYS) {
                    return Err(Refusal::new(
                        Code::BadRequest,
                        format!(
                            "days must be 1 to {} (left out: for good)",
                            moderation::MAX_BAN_DAYS
                        ),
                    ));
                }
                let until = days.map(|d| now + u64::from(d) * DAY);
                let ban = SanctionRecord {
                    target: target.id.clone(),
                    until,
                    reason: why.clone(),
                    by: me.id.to_string(),
                    at: now,
                };
                store
                    .put_sanction(SanctionKind::Ban, &ban)
                    .await
                    .map_err(server)?;
                let detail = match until {
                    Some(u) => format!("until {}", moderation::when(u)),
                    None => "for good".to_string(),
                };
                self.audit(
                    &me,
                    "ban",
                    target.id.clone(),
                    Some(detail),
                    why.clone(),
                    now,
                )
                .await?;
                self.sanction(Sanction::Ban {
                    player: target.id,
                    reason: why,
                    until,
                });
                self.ok(re, "ban", None)
            }
            Request::Unban {
                player,
                reason: why,
            } => {
                let why = reason(&why)?;
                let target = self.target(&player).await?;
                let lifted = store
                    .lift_sanction(SanctionKind::Ban, &target.id)
                    .await
                    .map_err(server)?;
                if !lifted {
                    return Err(Refusal::new(
                        Code::NotFound,
                        format!("{} is not banned", target.name),
                    ));
                }
                self.audit(&me, "unban", target.id, None, why, now).await?;
                self.ok(re, "unban", None)
            }
            Request::CloseRoom { room, reason: why } => {
                let why = reason(&why)?;
                let handle = self.room(&room).await?;
                self.audit(&me, "close_room", handle.id.to_string(), None, why, now)
                    .await?;
                self.sanction(Sanction::CloseRoom {
                    room: handle.id.to_string(),
                });
                self.ok(re, "close_room", None)
            }
            Request::DeleteChat {
                room,
                seq,
                reason: why,
            } => {
                let why = reason(&why)?;
                let room = check_id("room", &room)?.to_string();
                let events = store
                    .events(&room, seq.saturating_sub(1), 1)
                    .await
                    .map_err(server)?;
                let is_chat = events.first().is_some_and(|(s, ev)| {
                    *s == seq
                        && matches!(
                            serde_json::from_str::<orion_protocol::Event<'_>>(ev),
                            Ok(orion_protocol::Event::Chat { .. })
                        )
                });
                if !is_chat {
                    return Err(Refusal::new(
                        Code::NotFound,
                        format!("room {room} has no chat line {seq}"),
                    ));
                }
                store.redact(&room, seq, now).await.map_err(server)?;
                self.audit(&me, "delete_chat", format!("{room}#{seq}"), None, why, now)
                    .await?;
                self.sanction(Sanction::DeleteChat { room, seq });
                self.ok(re, "delete_chat", None)
            }
            other => Err(Refusal::new(
                Code::Server,
                format!("{} is not a moderation request", other.kind()),
            )),
        }
    }

    /// `promote` (`on`) or `demote`: an administrator makes an account a moderator or not.
    async fn promote(
        &mut self,
        re: &ReplyTo,
        me: Player,
        player: &str,
        why: &str,
        on: bool,
        now: u64,
    ) -> Handled {
        let action = if on { "promote" } else { "demote" };
        if !(self.account && self.shared.admins.contains(&me.name)) {
            return Err(Refusal::new(
                Code::Forbidden,
                format!("only an administrator (--admin) may {action} moderators"),
            ));
        }
        let why = reason(why)?;
        let target = self.target(player).await?;
        if !target.account {
            return Err(Refusal::new(
                Code::BadRequest,
                format!(
                    "{} is a guest: only an account can be a moderator",
                    target.name
                ),
            ));
        }
        let store = &self.shared.store;
        store
            .set_moderator(&target.id, on, now)
            .await
            .map_err(server)?;
        self.audit(&me, action, target.id, None, why, now).await?;
        self.ok(re, action, None)
    }

    /// Refuses a guest.
    fn an_account(&self, what: &str) -> Handled {
        if self.account {
            return Ok(());
        }
        Err(Refusal::new(
            Code::Forbidden,
            format!("{what} is for accounts: register your name first"),
        ))
    }

    /// Whether `me` is a moderator now: an administrator, or an account the store names (asked
    /// at every request, so a `demote` takes effect at once on every node).
    pub(super) async fn is_moderator(&self, me: &Player) -> bool {
        if !self.account {
            return false;
        }
        if self.shared.admins.contains(&me.name) {
            return true;
        }
        self.shared
            .store
            .is_moderator(&me.id)
            .await
            .unwrap_or(false)
    }

    /// Refuses anyone but a moderator.
    async fn a_moderator(&self, me: &Player) -> Handled {
        if self.is_moderator(me).await {
            return Ok(());
        }
        Err(Refusal::new(Code::Forbidden, "only moderators may do this"))
    }

    /// The player `who` names: a player id, or an account's name.
    async fn target(&self, who: &str) -> Result<Target, Refusal> {
        let who = who.trim();
        if who.is_empty()
            || who.chars().count() > crate::text::MAX_NAME.max(crate::protocol::MAX_ID)
        {
            return Err(Refusal::new(
                Code::BadRequest,
                "name a player by his id or his account's name",
            ));
        }
        let store = &self.shared.store;
        if crate::text::looks_like_id(who) {
            let id = who.to_ascii_lowercase();
            return Ok(match store.account_by_id(&id).await.map_err(server)? {
                Some(a) => Target {
                    id: a.id,
                    name: a.name,
                    account: true,
                },
                None => Target {
                    name: id.clone(),
                    id,
                    account: false,
                },
            });
        }
        let skeleton = crate::text::name_skeleton(who);
        match store.account_by_skeleton(&skeleton).await.map_err(server)? {
            Some(a) => Ok(Target {
                id: a.id,
                name: a.name,
                account: true,
            }),
            None => Err(Refusal::new(
                Code::NotFound,
                format!("no account named {who}: name a guest by his player id"),
            )),
        }
    }

    /// Writes a moderator's action to the audit log.
    async fn audit(
        &self,
        me: &Player,
        action: &str,
        target: String,
        detail: Option<String>,
        reason: String,
        now: u64,
    ) -> Handled {
        let entry = AuditEntry {
            id: 0,
            moderator: me.id.to_string(),
            moderator_name: me.name.to_string(),
            action: action.to_string(),
            target,
            detail,
            reason,
            at: now,
        };
        self.shared.store.add_audit(&entry).await.map_err(server)?;
        tracing::info!(moderator = %me.id, action, target = %entry.target, "moderation");
        Ok(())
    }

    /// Tells every node (this one included) of a moderator's action.
    fn sanction(&self, sanction: Sanction) {
        self.shared
            .revocations
            .revoked(Revocation::Sanction(Arc::new(sanction)));
    }

    fn ok(&self, re: &ReplyTo, done: &str, id: Option<u64>) -> Handled {
        let ok = Message::Ok {
            done: done.to_string(),
            report: id,
        };
        self.outbox.send(protocol::reply(re, ok));
        Ok(())
    }

    /// Answers with the players `me` blocks, and hides their chat on this connection.
    async fn blocks(&self, re: &ReplyTo, me: &Player) -> Handled {
        let players = self.shared.store.blocks(&me.id).await.map_err(server)?;
        self.outbox
            .blocked()
            .set(players.iter().map(|b| b.player.as_str()));
        self.outbox
            .send(protocol::reply(re, Message::Blocks { players }));
        Ok(())
    }

    /// Loads the players this connection's account blocks (none for a guest).
    pub(super) async fn load_blocks(&self, id: &str, account: bool) -> Handled {
        if !account {
            self.outbox.blocked().set([]);
            return Ok(());
        }
        let players = self.shared.store.blocks(id).await.map_err(server)?;
        self.outbox
            .blocked()
            .set(players.iter().map(|b| b.player.as_str()));
        Ok(())
    }

    /// Refuses a banned player (by id; a guest also by his address).
    pub(super) async fn check_not_banned(&self, id: &str, account: bool) -> Handled {
        let now = self.shared.clock.now_ms();
        let store = &self.shared.store;
        if let Some(ban) = store
            .sanction(SanctionKind::Ban, id, now)
            .await
            .map_err(server)?
        {
            return Err(banned(&ban, now));
        }
        if !account {
            let address = self.peer.to_string();
            if let Some(ban) = store
                .sanction(SanctionKind::Address, &address, now)
                .await
                .map_err(server)?
            {
                return Err(banned(&ban, now));
            }
        }
        Ok(())
    }

    /// Refuses a chat line from a muted player, or one over the chat rate limit.
    pub(super) async fn may_chat(&self, me: &Player) -> Handled {
        let now = self.shared.clock.now_ms();
        let store = &self.shared.store;
        if let Some(mute) = store
            .sanction(SanctionKind::Mute, &me.id, now)
            .await
            .map_err(server)?
        {
            let left = mute.until.unwrap_or(now).saturating_sub(now);
            return Err(Refusal {
                code: Code::Muted,
                message: format!(
                    "a moderator muted you: you may chat again in {} ({})",
                    minutes(left),
                    mute.reason
                ),
                retry_ms: Some(left),
            });
        }
        if let Err(wait) = self.shared.chat_limit.take(&me.id, now) {
            return Err(Refusal::wait(
                format!(
                    "at most {} chat lines a minute: wait {} s",
                    moderation::CHAT_PER_MINUTE,
                    wait.div_ceil(1000)
                ),
                wait,
            ));
        }
        Ok(())
    }

    /// Sanctions may have been missed (`Revocation::Recheck`): the refusal to close this
    /// connection with if its player is banned now.
    pub async fn banned_now(&self) -> Option<Refusal> {
        let player = self.player.as_ref()?;
        let refused = self.check_not_banned(&player.id, true).await.err()?;
        (refused.code == Code::Banned).then_some(refused)
    }

    /// A moderator's action concerns this connection: a kick or a ban of its player closes
    /// it (the refusal to send and the close frame's reason); a deleted chat line of a room it
    /// is in is taken off its page. And its player's blocks changed on another connection:
    /// whom he blocks is loaded again, so their chat is hidden here too, and sent unasked
    /// (`blocks`).
    pub async fn sanctioned(&self, sanction: &Sanction) -> Option<(Refusal, &'static str)> {
        let player = self.player.as_ref()?;
        match sanction {
            Sanction::Kick { player: p } if **p == *player.id => Some((
                Refusal::new(Code::Forbidden, "a moderator closed your connection"),
                "kicked",
            )),
            Sanction::Ban {
                player: p,
                reason,
                until,
            } if **p == *player.id => {
                let now = self.shared.clock.now_ms();
                let ban = SanctionRecord {
                    target: self.peer.to_string(),
                    until: Some(until.unwrap_or(u64::MAX).min(now + moderation::ADDRESS_BAN)),
                    reason: reason.clone(),
                    by: String::new(),
                    at: now,
                };
                if !self.account {
                    // A guest is banned by his address too, which only his connection knows.
                    let store = &self.shared.store;
                    if let Err(e) = store.put_sanction(SanctionKind::Address, &ban).await {
                        tracing::warn!("could not ban a guest's address: {e}");
                    }
                }
                let ban = SanctionRecord {
                    until: *until,
                    ..ban
                };
                Some((banned(&ban, now), "banned"))
            }
            Sanction::DeleteChat { room, seq } => {
                let id: Arc<str> = Arc::from(room.as_str());
                let here = self.rooms.contains_key(&id)
                    || self.shared.lobby.seats_of(&player.id).contains(&id);
                if here {
                    let deleted = Message::ChatDeleted {
                        room: room.clone(),
                        seq: *seq,
                    };
                    self.outbox.send(protocol::reply(&None, deleted));
                }
                None
            }
            Sanction::Blocks { player: p } if **p == *player.id && self.account => {
                // The list as it is now, to hide chat by and to tell the page (unasked).
                if let Err(e) = self.blocks(&None, player).await {
                    tracing::warn!("could not load a player's blocks again: {}", e.message);
                }
                None
            }
            _ => None,
        }
    }
}
