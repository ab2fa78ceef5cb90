//! A connection's room requests: the lobby page, `create`, `join`, `quick`, `spectate`,
//! `resume` (becoming a member of a room, within the per-connection cap), and `leave`,
//! `ready`, `chat`, `rematch` and every game action (`act`), which go to the room's task as
//! they are: the room answers on the connection's outbox, in order with its events.

use super::{Handled, Session};
use crate::lobby::Queued;
use crate::outbox::Outbox;
use crate::player::Player;
use crate::protocol::{self, check_id, Code, Refusal, ReplyTo};
use crate::room::handle::RoomHandle;
use crate::room::{self, FirstSeat, RoomCmd, RoomOptions};
use crate::system::{GameInfo, GameSystem};
use orion_protocol::{Message, Request, RoomOptions as WireOptions, Seat};
use std::sync::Arc;
use tokio::sync::oneshot;

/// Most rooms one connection may be in at once (seated or watching).
pub const MAX_ROOMS_PER_CONNECTION: usize = 32;

impl Session {
    pub(super) fn lobby(&mut self, re: &ReplyTo, watch: bool, after: Option<String>) -> Handled {
        let after = after.as_deref().map(|a| check_id("after", a)).transpose()?;
        self.watching = watch;
        self.outbox.send(self.shared.lobby.page(after, re));
        Ok(())
    }

    /// The game a quick match may be made for: puzzles are played alone, never matched.
    fn find_match(&self, game: &str) -> Result<(Arc<dyn GameSystem>, GameInfo), Refusal> {
        let (system, info) = self.find_game(game)?;
        if info.solo {
            return Err(Refusal::new(
                Code::BadRequest,
                format!(
                    "{} is a puzzle for one player: create a room for it (quick match is for games)",
                    info.id
                ),
            ));
        }
        Ok((system, info))
    }

    pub(super) fn check_room_cap(&self) -> Handled {
        if self.rooms.len() >= MAX_ROOMS_PER_CONNECTION {
            return Err(Refusal::new(
                Code::Full,
                format!("one connection may be in at most {MAX_ROOMS_PER_CONNECTION} rooms"),
            ));
        }
        Ok(())
    }

    pub(super) async fn create(
        &mut self,
        re: &ReplyTo,
        player: Player,
        game: &str,
        options: Option<WireOptions>,
        private: bool,
        seat: Option<Seat>,
    ) -> Handled {
        self.check_room_cap()?;
        let (system, info) = self.find_game(game)?;
        let options = RoomOptions::parse(options.as_ref(), &*system, &info, None)?;
        (self.shared.lobby).may_sit(&player.id, options.days_per_move.is_some())?;
        // A puzzle's one seat is the creator's: it starts at once, no `ready` needed.
        let solo = info.solo;
        if !solo && !self.shared.lobby.may_open_waiting_room() {
            return Err(Refusal::new(
                Code::Full,
                "too many rooms are waiting for players: join one, or ask for a quick match",
            ));
        }
        let first = FirstSeat {
            queued: self.queued(re, player),
            seat: seat.map(|s| s.as_str().to_string()),
            ready: false,
        };
        self.open_room(first, (system, info, options), private, solo)
            .await?;
        Ok(())
    }

    /// This connection's player, answered `re`, as a room's first seat or a quick match's.
    pub(super) fn queued(&self, re: &ReplyTo, player: Player) -> Queued {
        Queued {
            player,
            outbox: self.outbox.clone(),
            re: re.clone(),
        }
    }

    /// A new room of `game` (its system, its info and the options parsed) with this
    /// connection's player seated `first`, kept among this connection's rooms: what `create`
    /// and a correspondence seek that found none to take both do.
    pub(super) async fn open_room(
        &mut self,
        first: FirstSeat,
        (system, info, options): (Arc<dyn GameSystem>, GameInfo, RoomOptions),
        private: bool,
        auto_start: bool,
    ) -> Result<RoomHandle, Refusal> {
        let handle = room::create(
            &self.shared,
            &system,
            &info,
            options,
            private,
            auto_start,
            vec![first],
        )
        .await?;
        self.rooms.insert(handle.id.clone(), handle.clone());
        Ok(handle)
    }

    pub(super) async fn join(
        &mut self,
        re: &ReplyTo,
        player: Player,
        room: Option<String>,
        code: Option<String>,
        seat: Option<Seat>,
    ) -> Handled {
        let handle = match (room, code) {
            // A private room is joined by its code; by its id only by whoever holds a seat
            // there already (coming back). To anyone else it does not exist.
            (Some(room), code) => {
                let handle = self.room(&room).await?;
                if let Some(secret) = &handle.code {
                    let knows = code.is_some_and(|c| c.eq_ignore_ascii_case(secret));
                    if !knows && !self.shared.lobby.seats_of(&player.id).contains(&handle.id) {
                        return Err(Refusal::new(
                            Code::NotFound,
                            format!("no room {}", handle.id),
                        ));
                    }
                }
                handle
            }
            (None, Some(code)) => {
                let code = check_id("code", &code)?.to_ascii_uppercase();
                self.shared
                    .lobby
                    .rooms
                    .by_code(&code)
                    .await
                    .ok_or_else(|| {
                        Refusal::new(Code::NotFound, format!("no room with code {code}"))
                    })?
            }
            (None, None) => {
                return Err(Refusal::new(
                    Code::BadRequest,
                    "join needs a room or a code",
                ))
            }
        };
        let seat = seat.map(|s| s.as_str().to_string());
        let outbox = self.outbox.clone();
        self.enter(handle, |done| RoomCmd::Join {
            re: re.clone(),
            player,
            seat,
            outbox,
            ready: false,
            done,
        })
        .await
    }

    /// Becomes a member of a room (seated, watching, or back after a reconnect): checks the
    /// per-connection room cap, sends the room `cmd` and remembers the room if it took us.
    async fn enter(
        &mut self,
        handle: RoomHandle,
        cmd: impl FnOnce(oneshot::Sender<bool>) -> RoomCmd,
    ) -> Handled {
        if !self.rooms.contains_key(&handle.id) {
            self.check_room_cap()?;
        }
        let (done, entered) = oneshot::channel();
        self.send(&handle, cmd(done)).await?;
        if entered.await.unwrap_or(false) {
            self.rooms.insert(handle.id.clone(), handle);
        }
        Ok(())
    }

    pub(super) async fn quick(
        &mut self,
        re: &ReplyTo,
        player: Player,
        game: &str,
        players: Option<u8>,
        bots: bool,
        days: Option<u8>,
    ) -> Handled {
        self.check_room_cap()?;
        let (system, info) = self.find_match(game)?;
        if let Some(days) = days {
            if bots {
                return Err(Refusal::new(
                    Code::BadRequest,
                    "a correspondence seek waits for people: leave bots out",
                ));
            }
            let n = players.unwrap_or(info.default_players);
            return self.seek(re, player, game, n, days).await;
        }
        if bots {
            self.check_bots(&system)?;
        }
        let n = players.unwrap_or(info.default_players);
        if !info.players.contains(&n) {
            return Err(Refusal::new(
                Code::BadRequest,
                format!(
                    "{} is played by {} to {} players, not {n}",
                    info.name,
                    info.players.start(),
                    info.players.end()
                ),
            ));
        }
        let options = RoomOptions::parse(None, &*system, &info, Some(n))?;
        let waiter = bots.then(|| (player.clone(), options.clone()));
        let entry = self.queued(re, player);
        let queued = protocol::reply(
            re,
            Message::Queued {
                game: info.id.into(),
                players: n,
            },
        );
        match self
            .shared
            .lobby
            .matchmaker
            .enqueue(info.id, n, entry)
            .await
        {
            Err(_) => Err(Refusal::new(
                Code::BadRequest,
                "you are already waiting for a match",
            )),
            Ok(None) => {
                self.outbox.send(queued);
                if let Some((player, options)) = waiter {
                    self.fill_with_bots_later(re, player, system, info, options);
                }
                Ok(())
            }
            Ok(Some(group)) => {
                self.outbox.send(queued);
                // If the room cannot be made, everyone in the group hears why, not only the
                // last to arrive (the others have left the queue with it).
                let others: Vec<(Outbox, ReplyTo)> = group
                    .iter()
                    .filter(|q| q.outbox.id != self.outbox.id)
                    .map(|q| (q.outbox.clone(), q.re.clone()))
                    .collect();
                let first = group.into_iter().map(FirstSeat::anywhere).collect();
                let made =
                    room::create(&self.shared, &system, &info, options, false, true, first).await;
                if let Err(refusal) = made {
                    for (outbox, re) in &others {
                        outbox.refuse(re, &refusal);
                    }
                    return Err(refusal);
                }
                Ok(())
            }
        }
    }

    pub(super) async fn spectate(
        &mut self,
        re: &ReplyTo,
        player: Player,
        room: &str,
        quiet: bool,
    ) -> Handled {
        let handle = self.room(room).await?;
        if handle.code.is_some() {
            return Err(Refusal::new(
                Code::NotFound,
                format!("no public room {room}"),
            ));
        }
        let outbox = self.outbox.clone();
        self.enter(handle, |done| RoomCmd::Spectate {
            re: re.clone(),
            player: player.id,
            outbox,
            done,
            quiet,
        })
        .await
    }

    /// `unspectate`: the room's task stops this connection watching; a room not live here
    /// (ended, or gone to another node) is watched by nobody, and is answered at once.
    pub(super) async fn unspectate(
        &mut self,
        re: &ReplyTo,
        player: Player,
        room: String,
    ) -> Handled {
        if self.room(&room).await.is_err() {
            check_id("room", &room)?;
            self.outbox
                .send(protocol::reply(re, Message::Unspectated { room }));
            return Ok(());
        }
        self.act(re, player, Request::Unspectate { room }).await
    }

    /// A game request: its room's game system reads it.
    pub(super) async fn act(&mut self, re: &ReplyTo, player: Player, request: Request) -> Handled {
        let room = request.room().unwrap_or_default();
        let handle = self.room(room).await?;
        let cmd = RoomCmd::Act {
            re: re.clone(),
            player,
            request: Box::new(request),
            outbox: self.outbox.clone(),
        };
        self.send(&handle, cmd).await
    }

    pub(super) async fn resume(
        &mut self,
        re: &ReplyTo,
        player: Player,
        room: &str,
        since: u64,
    ) -> Handled {
        let handle = self.room(room).await?;
        let outbox = self.outbox.clone();
        // Events relayed here from an owner elsewhere are in this connection's queue, ahead
        // of the answer: a client that had not read them yet is not sent them again (by a
        // copy of the room now run here, say, after a takeover).
        let since = since.max(self.shared.lobby.rooms.relayed(outbox.id, room));
        self.enter(handle, |done| RoomCmd::Resume {
            re: re.clone(),
            player,
            since,
            outbox,
            done,
        })
        .await
    }

    pub(super) async fn leave(&mut self, re: &ReplyTo, player: Player, room: &str) -> Handled {
        let handle = self.room(room).await?;
        self.rooms.remove(&handle.id);
        let cmd = RoomCmd::Leave {
            re: re.clone(),
            player,
            outbox: self.outbox.clone(),
        };
        self.send(&handle, cmd).await
    }

    /// Sends `cmd` to the task of `room` as it is: the room answers on this connection's
    /// outbox.
    async fn forward(&self, room: &str, cmd: RoomCmd) -> Handled {
        let handle = self.room(room).await?;
        self.send(&handle, cmd).await
    }

    pub(super) async fn ready(&mut self, re: &ReplyTo, player: Player, room: &str) -> Handled {
        let outbox = self.outbox.clone();
        let re = re.clone();
        self.forward(room, RoomCmd::Ready { re, player, outbox })
            .await
    }

    pub(super) async fn chat(
        &mut self,
        re: &ReplyTo,
        player: Player,
        room: &str,
        text: &str,
    ) -> Handled {
        let text = crate::text::chat(text)?;
        self.may_chat(&player).await?;
        let outbox = self.outbox.clone();
        let re = re.clone();
        self.forward(
            room,
            RoomCmd::Chat {
                re,
                player,
                text,
                outbox,
            },
        )
        .await
    }

    pub(super) async fn rematch(
        &mut self,
        re: &ReplyTo,
        player: Player,
        room: &str,
        accept: bool,
    ) -> Handled {
        let outbox = self.outbox.clone();
        let re = re.clone();
        let cmd = RoomCmd::Rematch {
            re,
            player,
            accept,
            outbox,
        };
        self.forward(room, cmd).await
    }
}
