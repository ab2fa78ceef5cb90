//! What one connection has said and may do: its state (the player it speaks for after
//! `hello`, its token, the rooms it is in) and the dispatch of each request to one small
//! handler. The handlers live by request group, as mini-redis's `cmd/`: `identity.rs`
//! (hello), `accounts.rs` (register, login, logout_all), `rooms.rs` (lobby, membership and
//! game actions, forwarded to the room's task) and `archive.rs` (games, history, export,
//! leaderboard: answered from the store) and `notify.rs` (Web Push subscriptions, notification
//! settings, the e-mail address), `moderation.rs` (reports, blocks, moderators' actions) and
//! `seek.rs` (`quick` with `days_per_move`: a correspondence seek, which is a waiting
//! correspondence room).

mod accounts;
mod archive;
mod bots;
mod identity;
mod mine;
mod moderation;
mod notify;
mod rooms;
mod seek;

pub use archive::{GAMES_PAGE, HISTORY_PAGE_BYTES};
pub use rooms::MAX_ROOMS_PER_CONNECTION;

use crate::outbox::Outbox;
use crate::player::{Player, RoomId};
use crate::protocol::{self, check_id, Code, Refusal, ReplyTo};
use crate::revocations::Revocation;
use crate::room::handle::RoomHandle;
use crate::room::RoomCmd;
use crate::shared::Shared;
use crate::store::{PlayerRecord, StoreError};
use crate::system::{GameInfo, GameSystem};
use archive::whose;
use orion_protocol::{Envelope, Message, Request};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;

/// One connection's state.
pub struct Session {
    /// Server-wide state.
    shared: Arc<Shared>,
    /// Where this connection's replies go.
    outbox: Outbox,
    /// Who this connection speaks for, after `hello`.
    player: Option<Player>,
    /// The token it said hello with (or was given by `login`), as the client holds it:
    /// `register`'s `welcome` echoes it. Kept in memory only.
    token: Option<String>,
    /// That token's hash (`token::hash`), the store's key for it: to mark the player seen
    /// when the connection ends, and the one token `logout_all` keeps.
    token_hash: Option<String>,
    /// Whether the player is an account's (whose tokens `logout_all` may revoke).
    account: bool,
    /// The client's address, which the password throttle counts `login` tries by.
    peer: IpAddr,
    /// Rooms this connection joined or watches, to detach from when it goes.
    rooms: HashMap<RoomId, RoomHandle>,
    /// Whether `lobby` updates are wanted.
    watching: bool,
    /// Wrong passwords given on this connection (`login`), bounded by
    /// [`accounts::MAX_FAILED_LOGINS`].
    failed_logins: u32,
}

type Handled = Result<(), Refusal>;

/// A store that failed is the server's fault, told as such to the client.
fn server(e: StoreError) -> Refusal {
    Refusal::new(Code::Server, e.to_string())
}

impl Session {
    /// A session for a new connection.
    pub fn new(shared: Arc<Shared>, outbox: Outbox, peer: IpAddr) -> Session {
        Session {
            shared,
            outbox,
            player: None,
            token: None,
            token_hash: None,
            account: false,
            peer,
            rooms: HashMap::new(),
            watching: false,
            failed_logins: 0,
        }
    }

    /// Whether `hello` has succeeded (the connection's hello deadline stops here).
    pub fn has_player(&self) -> bool {
        self.player.is_some()
    }

    /// Whether `revocation` revoked the token this connection speaks with (for a `Recheck`,
    /// asked of the store: an error there keeps the connection, as a `hello` would be refused).
    pub async fn revoked_by(&self, revocation: &Revocation) -> bool {
        let (Some(player), Some(hash), true) = (&self.player, &self.token_hash, self.account)
        else {
            return false;
        };
        match revocation {
            Revocation::AllBut { account, keep } => *player.id == **account && **hash != **keep,
            Revocation::Pruned { account } if *player.id != **account => false,
            Revocation::Sanction(_) => false,
            Revocation::Pruned { .. } | Revocation::Recheck => {
                matches!(self.shared.store.account_by_token(hash).await, Ok(None))
            }
        }
    }

    /// Whether the client asked to follow the lobby.
    pub fn watching(&self) -> bool {
        self.watching
    }

    /// Handles one text frame; a refusal becomes exactly one `error` to the sender.
    pub async fn handle(&mut self, text: &str) {
        let Envelope { id: re, request } = match orion_protocol::parse_request(text) {
            Ok(envelope) => envelope,
            Err(e) => {
                self.outbox.refuse(&e.id, &Refusal::new(e.code, e.message));
                return;
            }
        };
        if let Err(refusal) = self.dispatch(&re, request).await {
            self.outbox.refuse(&re, &refusal);
        }
    }

    async fn dispatch(&mut self, re: &ReplyTo, request: Request) -> Handled {
        let player = match (&request, &self.player) {
            (Request::Hello { .. } | Request::Login { .. }, _) => None,
            (Request::Ping, _) => None,
            (_, Some(p)) => Some(p.clone()),
            (_, None) => return Err(Refusal::new(Code::BadRequest, "say hello first")),
        };
        let player = || {
            player
                .clone()
                .ok_or_else(|| Refusal::new(Code::Server, "no player"))
        };
        match request {
            Request::Hello {
                name,
                version,
                token,
            } => self.hello(re, name, version, token).await,
            Request::Ping => {
                self.outbox.send(protocol::reply(re, Message::Pong));
                Ok(())
            }
            Request::Register { password } => self.register(re, player()?, password).await,
            Request::Login {
                name,
                password,
                version,
            } => self.login(re, name, password, version).await,
            Request::LogoutAll => self.logout_all(re, player()?).await,
            Request::Leaderboard { game, after } => {
                self.leaderboard(re, player()?, &game, after.unwrap_or(0))
                    .await
            }
            Request::Mine => self.mine(re, player()?).await,
            Request::Lobby { watch, after } => {
                self.shared.lobby.refresh_waiting().await;
                self.lobby(re, watch.unwrap_or(false), after)
            }
            Request::Create {
                game,
                options,
                private,
                seat,
            } => {
                let private = private.unwrap_or(false);
                self.create(re, player()?, &game, options, private, seat)
                    .await
            }
            Request::Join { room, code, seat } => self.join(re, player()?, room, code, seat).await,
            Request::Quick {
                game,
                players,
                bots,
                days_per_move,
            } => {
                let bots = bots.unwrap_or(false);
                let queued = (self.quick(re, player()?, &game, players, bots, days_per_move)).await;
                self.shared.lobby.refresh_waiting().await;
                queued
            }
            Request::Unqueue => {
                let unqueued = self.shared.lobby.unqueue(self.outbox.id).await?;
                self.outbox.send(protocol::reply(re, unqueued));
                Ok(())
            }
            Request::Spectate { room, quiet } => self.spectate(re, player()?, &room, quiet).await,
            Request::Leave { room } => self.leave(re, player()?, &room).await,
            Request::Ready { room } => self.ready(re, player()?, &room).await,
            request @ (Request::Click { .. }
            | Request::Place { .. }
            | Request::EndTurn { .. }
            | Request::Roll { .. }
            | Request::Three { .. }
            | Request::Claim { .. }
            | Request::Secret { .. }
            | Request::Challenge { .. }
            | Request::Move { .. }
            | Request::Draw { .. }
            | Request::Hints { .. }
            | Request::AddBot { .. }
            | Request::RemoveBot { .. }
            | Request::Undo { .. }
            | Request::Hint { .. }
            | Request::Plan { .. }) => self.act(re, player()?, request).await,
            Request::Unspectate { room } => self.unspectate(re, player()?, room).await,
            Request::Chat { room, text } => self.chat(re, player()?, &room, &text).await,
            Request::Resume { room, since } => self.resume(re, player()?, &room, since).await,
            Request::History { room, since, code } => {
                self.history(re, &room, since.unwrap_or(0), code).await
            }
            Request::Games {
                player_id,
                player_name,
                player,
                game,
                before,
            } => {
                let who = whose(player_id, player_name, player)?;
                self.games(re, who, game, before).await
            }
            Request::Export { room, code } => self.export(re, room, code).await,
            Request::Rematch { room, accept } => {
                self.rematch(re, player()?, &room, accept.unwrap_or(true))
                    .await
            }
            Request::PushSubscribe { subscription } => {
                self.push_subscribe(re, player()?, subscription).await
            }
            Request::PushUnsubscribe { endpoint } => {
                self.push_unsubscribe(re, player()?, endpoint).await
            }
            Request::NotifySettings {
                your_turn,
                deadline,
                over,
                email,
                push,
            } => {
                let set = [your_turn, deadline, over, email, push];
                self.notify_settings(re, player()?, set).await
            }
            Request::Email { address } => self.email(re, player()?, address).await,
            request @ (Request::Report { .. }
            | Request::Reports { .. }
            | Request::ResolveReport { .. }
            | Request::Mute { .. }
            | Request::Kick { .. }
            | Request::Ban { .. }
            | Request::Unban { .. }
            | Request::CloseRoom { .. }
            | Request::DeleteChat { .. }
            | Request::Audit { .. }
            | Request::Promote { .. }
            | Request::Demote { .. }
            | Request::Block { .. }
            | Request::Unblock { .. }
            | Request::Blocks) => self.moderation(re, player()?, request).await,
        }
    }

    /// The game or puzzle a room may be created for, and its system.
    fn find_game(&self, game: &str) -> Result<(Arc<dyn GameSystem>, GameInfo), Refusal> {
        self.shared.find_game(game).ok_or_else(|| {
            let all = self.shared.systems.iter().flat_map(|s| s.games());
            let (puzzles, games): (Vec<&GameInfo>, Vec<&GameInfo>) = all.partition(|g| g.solo);
            let ids = |list: Vec<&GameInfo>| list.iter().map(|g| g.id).collect::<Vec<_>>();
            Refusal::new(
                Code::NotFound,
                format!(
                    "no game \"{}\" (games: {}; puzzles: {})",
                    game.chars().take(40).collect::<String>(),
                    ids(games).join(", "),
                    ids(puzzles).join(", ")
                ),
            )
        })
    }

    async fn room(&self, room: &str) -> Result<RoomHandle, Refusal> {
        let room = check_id("room", room)?;
        self.shared
            .lobby
            .rooms
            .get(room)
            .await
            .ok_or_else(|| Refusal::new(Code::NotFound, format!("no room {room}")))
    }

    async fn send(&self, handle: &RoomHandle, cmd: RoomCmd) -> Handled {
        handle
            .tx
            .send(cmd)
            .await
            .map_err(|_| Refusal::new(Code::NotFound, format!("room {} has closed", handle.id)))
    }

    /// The connection is gone: detach from every room and queue, and mark the player seen
    /// now (retention counts from his last connection).
    pub async fn close(&mut self) {
        let conn = self.outbox.id;
        if let (Some(player), true) = (&self.player, self.account) {
            self.shared.notifier.detach(&player.id, conn);
        }
        if let (Some(player), Some(token)) = (&self.player, &self.token_hash) {
            let record = PlayerRecord {
                id: player.id.to_string(),
                name: player.name.to_string(),
            };
            let now = self.shared.clock.now_ms();
            if let Err(e) = self.shared.store.put_player(token, &record, now).await {
                tracing::debug!("could not mark {} seen: {e}", player.id);
            }
        }
        if self.shared.lobby.matchmaker.unqueue(conn).await {
            self.shared.lobby.refresh_waiting().await;
        }
        let mut rooms: Vec<RoomHandle> = self.rooms.drain().map(|(_, h)| h).collect();
        // Rooms the connection is in without having asked (a quick match): here, where the
        // player holds a seat; on a cluster, also those run elsewhere that sent it frames.
        let mut others = self.shared.lobby.rooms.closed(conn);
        if let Some(player) = &self.player {
            others.extend(self.shared.lobby.seats_here(&player.id));
        }
        for id in others {
            if rooms.iter().all(|r| r.id != id) {
                if let Some(h) = self.shared.lobby.rooms.get(&id).await {
                    rooms.push(h);
                }
            }
        }
        for handle in rooms {
            let _ = handle.tx.send(RoomCmd::Detach { conn }).await;
        }
    }
}
