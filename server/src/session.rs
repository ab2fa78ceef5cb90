//! What one connection has said and may do: its player identity after `hello`, the rooms it
//! is in, and one small handler per request type. Room requests are forwarded to the room's
//! task, which answers on the connection's outbox in order with its events.

use crate::connection::Outbox;
use crate::lobby::{Player, Queued, RoomHandle, RoomId};
use crate::protocol::{self, check_id, Code, Refusal, ReplyTo, Request, MAX_CHAT, MAX_NAME};
use crate::room::{self, RoomCmd, RoomOptions};
use crate::server::Shared;
use crate::store::{blocking, PlayerRecord};
use orion_engine::{games, parse_click, parse_piece, parse_slot, Action, Rules, Seat};
use rand::Rng;
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::oneshot;

/// Most rooms one connection may be in at once (seated or watching).
pub const MAX_ROOMS_PER_CONNECTION: usize = 32;
/// Most events a `history` reply carries; ask again with `since` for more.
pub const HISTORY_PAGE: usize = 500;

/// One connection's state.
pub struct Session {
    /// Server-wide state.
    shared: Arc<Shared>,
    /// Where this connection's replies go.
    outbox: Outbox,
    /// Who this connection speaks for, after `hello`.
    player: Option<Player>,
    /// Rooms this connection joined or watches, to detach from when it goes.
    rooms: HashMap<RoomId, RoomHandle>,
    /// Whether `lobby` updates are wanted.
    watching: bool,
}

type Handled = Result<(), Refusal>;

impl Session {
    /// A session for a new connection.
    pub fn new(shared: Arc<Shared>, outbox: Outbox) -> Session {
        Session {
            shared,
            outbox,
            player: None,
            rooms: HashMap::new(),
            watching: false,
        }
    }

    /// Whether `hello` has succeeded (the connection's hello deadline stops here).
    pub fn has_player(&self) -> bool {
        self.player.is_some()
    }

    /// Whether the client asked to follow the lobby.
    pub fn watching(&self) -> bool {
        self.watching
    }

    /// Handles one text frame; a refusal becomes exactly one `error` to the sender.
    pub async fn handle(&mut self, text: &str) {
        let (re, request) = match protocol::parse(text) {
            Ok(parsed) => parsed,
            Err((re, refusal)) => {
                self.outbox.refuse(&re, &refusal);
                return;
            }
        };
        if let Err(refusal) = self.dispatch(&re, request).await {
            self.outbox.refuse(&re, &refusal);
        }
    }

    async fn dispatch(&mut self, re: &ReplyTo, request: Request) -> Handled {
        let player = match (&request, &self.player) {
            (Request::Hello { .. }, _) => None,
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
            } => self.hello(re, name, version, token),
            Request::Ping => {
                self.outbox.send(protocol::reply(re, json!({"t": "pong"})));
                Ok(())
            }
            Request::Lobby { watch } => self.lobby(re, watch),
            Request::Create {
                game,
                options,
                private,
            } => self.create(re, player()?, &game, options, private),
            Request::Join { room, code, seat } => self.join(re, player()?, room, code, seat).await,
            Request::Quick { game, players } => self.quick(re, player()?, &game, players),
            Request::Spectate { room } => self.spectate(re, &room).await,
            Request::Leave { room } => {
                let handle = self.room(&room)?;
                self.rooms.remove(&handle.id);
                let cmd = RoomCmd::Leave {
                    re: re.clone(),
                    player: player()?,
                    outbox: self.outbox.clone(),
                };
                self.send(&handle, cmd).await
            }
            Request::Ready { room } => {
                let handle = self.room(&room)?;
                let cmd = RoomCmd::Ready {
                    re: re.clone(),
                    player: player()?,
                    outbox: self.outbox.clone(),
                };
                self.send(&handle, cmd).await
            }
            Request::Click { room, click, piece } => {
                let click = parse_click(&click)
                    .map_err(|e| Refusal::new(Code::BadRequest, format!("click: {e}")))?;
                let piece = match piece {
                    Some(p) => Some(
                        parse_piece(&p)
                            .map_err(|e| Refusal::new(Code::BadRequest, format!("piece: {e}")))?,
                    ),
                    None => None,
                };
                self.act(re, player()?, &room, Action::Click { click, piece })
                    .await
            }
            Request::Place { room, slot, from } => {
                let slot = parse_slot(&slot)
                    .map_err(|e| Refusal::new(Code::BadRequest, format!("slot: {e}")))?;
                let from = match from {
                    Some(f) => Some(
                        parse_slot(&f)
                            .map_err(|e| Refusal::new(Code::BadRequest, format!("from: {e}")))?,
                    ),
                    None => None,
                };
                self.act(re, player()?, &room, Action::Place { slot, from })
                    .await
            }
            Request::EndTurn { room } => self.act(re, player()?, &room, Action::EndTurn).await,
            Request::Roll { room } => self.act(re, player()?, &room, Action::Roll).await,
            Request::Three { room } => self.act(re, player()?, &room, Action::Three).await,
            Request::Claim { room } => self.act(re, player()?, &room, Action::Claim).await,
            Request::Secret { room, piece } => {
                let piece = parse_piece(&piece)
                    .map_err(|e| Refusal::new(Code::BadRequest, format!("piece: {e}")))?;
                self.act(re, player()?, &room, Action::Secret { piece })
                    .await
            }
            Request::Challenge { room, piece } => {
                let piece = parse_piece(&piece)
                    .map_err(|e| Refusal::new(Code::BadRequest, format!("piece: {e}")))?;
                self.act(re, player()?, &room, Action::Challenge { piece })
                    .await
            }
            Request::Chat { room, text } => {
                let text = text.trim().to_string();
                if text.is_empty() || text.chars().count() > MAX_CHAT {
                    return Err(Refusal::new(
                        Code::BadRequest,
                        format!("chat text must be 1 to {MAX_CHAT} characters"),
                    ));
                }
                let handle = self.room(&room)?;
                let cmd = RoomCmd::Chat {
                    re: re.clone(),
                    player: player()?,
                    text,
                    outbox: self.outbox.clone(),
                };
                self.send(&handle, cmd).await
            }
            Request::Resume { room, since } => self.resume(re, player()?, &room, since).await,
            Request::History { room, since } => self.history(re, &room, since),
        }
    }

    fn hello(
        &mut self,
        re: &ReplyTo,
        name: String,
        version: u64,
        token: Option<String>,
    ) -> Handled {
        if version != protocol::VERSION {
            return Err(Refusal::new(
                Code::Version,
                format!(
                    "this server speaks protocol version {}, not {version}",
                    protocol::VERSION
                ),
            ));
        }
        let name = name.trim().to_string();
        if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control)
        {
            return Err(Refusal::new(
                Code::BadRequest,
                format!("name must be 1 to {MAX_NAME} printable characters"),
            ));
        }
        let store = &self.shared.store;
        let server = |e: crate::store::StoreError| Refusal::new(Code::Server, e.to_string());
        let (token, id) = match token {
            Some(token) => {
                let token = check_id("token", &token)?.to_string();
                let known = blocking(|| store.player(&token))
                    .map_err(server)?
                    .ok_or_else(|| {
                        Refusal::new(
                            Code::NotFound,
                            "unknown token: say hello without one for a new identity",
                        )
                    })?;
                (token, known.id)
            }
            None => {
                let mut rng = rand::thread_rng();
                let token = hex::encode(rng.gen::<[u8; 16]>());
                let id = format!("p{}", hex::encode(rng.gen::<[u8; 4]>()));
                (token, id)
            }
        };
        let record = PlayerRecord {
            id: id.clone(),
            name: name.clone(),
        };
        blocking(|| store.put_player(&token, &record)).map_err(server)?;
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
        self.player = Some(player);
        self.outbox.send(protocol::reply(
            re,
            json!({"t": "welcome", "player": id, "name": name, "token": token, "rooms": rooms}),
        ));
        Ok(())
    }

    fn lobby(&mut self, re: &ReplyTo, watch: bool) -> Handled {
        self.watching = watch;
        let rooms = self.shared.lobby.list();
        self.outbox
            .send(protocol::reply(re, json!({"t": "lobby", "rooms": &*rooms})));
        Ok(())
    }

    /// The game or puzzle a room may be created for.
    fn find_game(game: &str) -> Result<&'static dyn Rules, Refusal> {
        let rules = games::find_any(game).ok_or_else(|| {
            let ids = |list: &[&dyn Rules]| list.iter().map(|g| g.id()).collect::<Vec<_>>();
            Refusal::new(
                Code::NotFound,
                format!(
                    "no game \"{}\" (games: {}; puzzles: {})",
                    game.chars().take(40).collect::<String>(),
                    ids(games::ALL).join(", "),
                    ids(games::PUZZLES).join(", ")
                ),
            )
        })?;
        Ok(rules)
    }

    /// The game a quick match may be made for: puzzles are played alone, never matched.
    fn find_match(game: &str) -> Result<&'static dyn Rules, Refusal> {
        if let Some(puzzle) = games::find_puzzle(game) {
            return Err(Refusal::new(
                Code::BadRequest,
                format!(
                    "{} is a puzzle for one player: create a room for it (quick match is for games)",
                    puzzle.id()
                ),
            ));
        }
        Self::find_game(game)
    }

    fn check_room_cap(&self) -> Handled {
        if self.rooms.len() >= MAX_ROOMS_PER_CONNECTION {
            return Err(Refusal::new(
                Code::Full,
                format!("one connection may be in at most {MAX_ROOMS_PER_CONNECTION} rooms"),
            ));
        }
        Ok(())
    }

    fn create(
        &mut self,
        re: &ReplyTo,
        player: Player,
        game: &str,
        options: Option<serde_json::Value>,
        private: bool,
    ) -> Handled {
        self.check_room_cap()?;
        let rules = Self::find_game(game)?;
        let options = RoomOptions::parse(options.as_ref())?;
        if self.shared.lobby.seats_of(&player.id).len() >= crate::lobby::MAX_SEATS_PER_PLAYER {
            return Err(Refusal::new(
                Code::Full,
                format!(
                    "you hold seats in {} rooms already",
                    crate::lobby::MAX_SEATS_PER_PLAYER
                ),
            ));
        }
        let first = Queued {
            player,
            outbox: self.outbox.clone(),
            re: re.clone(),
        };
        // A puzzle's one seat is the creator's: it starts at once, no `ready` needed.
        let solo = games::find_puzzle(rules.id()).is_some();
        let handle = room::create(
            &self.shared,
            rules,
            options,
            private,
            solo,
            vec![(first, None)],
        )?;
        self.rooms.insert(handle.id.clone(), handle);
        Ok(())
    }

    async fn join(
        &mut self,
        re: &ReplyTo,
        player: Player,
        room: Option<String>,
        code: Option<String>,
        seat: Option<String>,
    ) -> Handled {
        let handle = match (room, code) {
            (Some(room), _) => self.room(&room)?,
            (None, Some(code)) => {
                let code = check_id("code", &code)?.to_ascii_uppercase();
                self.shared.lobby.rooms.by_code(&code).ok_or_else(|| {
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
        let seat =
            match seat {
                Some(s) => Some(Seat::parse(&s).ok_or_else(|| {
                    Refusal::new(Code::BadRequest, "seat must be one of S, W, N, E")
                })?),
                None => None,
            };
        let outbox = self.outbox.clone();
        self.enter(handle, |done| RoomCmd::Join {
            re: re.clone(),
            player,
            seat,
            outbox,
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

    fn quick(&mut self, re: &ReplyTo, player: Player, game: &str, players: Option<u8>) -> Handled {
        self.check_room_cap()?;
        let rules = Self::find_match(game)?;
        let n = players.unwrap_or_else(|| rules.default_players());
        if !(2..=4).contains(&n) || !rules.players().contains(&n) {
            return Err(Refusal::new(
                Code::BadRequest,
                format!(
                    "{} is played by {} to {} players, not {n}",
                    rules.name(),
                    rules.players().start(),
                    rules.players().end()
                ),
            ));
        }
        let entry = Queued {
            player,
            outbox: self.outbox.clone(),
            re: re.clone(),
        };
        let queued = protocol::reply(re, json!({"t": "queued", "game": rules.id(), "players": n}));
        match self.shared.lobby.enqueue(rules.id(), n, entry) {
            Err(_) => Err(Refusal::new(
                Code::BadRequest,
                "you are already waiting for a match",
            )),
            Ok(None) => {
                self.outbox.send(queued);
                Ok(())
            }
            Ok(Some(group)) => {
                self.outbox.send(queued);
                let options = RoomOptions {
                    players: Some(n),
                    ..RoomOptions::default()
                };
                let first = group.into_iter().map(|q| (q, None)).collect();
                room::create(&self.shared, rules, options, false, true, first)?;
                Ok(())
            }
        }
    }

    async fn spectate(&mut self, re: &ReplyTo, room: &str) -> Handled {
        let handle = self.room(room)?;
        if handle.code.is_some() {
            return Err(Refusal::new(
                Code::NotFound,
                format!("no public room {room}"),
            ));
        }
        let outbox = self.outbox.clone();
        self.enter(handle, |done| RoomCmd::Spectate {
            re: re.clone(),
            outbox,
            done,
        })
        .await
    }

    async fn act(&mut self, re: &ReplyTo, player: Player, room: &str, action: Action) -> Handled {
        let handle = self.room(room)?;
        let cmd = RoomCmd::Act {
            re: re.clone(),
            player,
            action,
            outbox: self.outbox.clone(),
        };
        self.send(&handle, cmd).await
    }

    async fn resume(&mut self, re: &ReplyTo, player: Player, room: &str, since: u64) -> Handled {
        let handle = self.room(room)?;
        let outbox = self.outbox.clone();
        self.enter(handle, |done| RoomCmd::Resume {
            re: re.clone(),
            player,
            since,
            outbox,
            done,
        })
        .await
    }

    fn history(&mut self, re: &ReplyTo, room: &str, since: u64) -> Handled {
        let room = check_id("room", room)?;
        let server = |e: crate::store::StoreError| Refusal::new(Code::Server, e.to_string());
        let store = &self.shared.store;
        let (record, status) = blocking(|| store.room(room))
            .map_err(server)?
            .ok_or_else(|| Refusal::new(Code::NotFound, format!("no room {room}")))?;
        let events = blocking(|| store.events(room, since, HISTORY_PAGE + 1)).map_err(server)?;
        let more = events.len() > HISTORY_PAGE;
        let mut list = Vec::with_capacity(events.len().min(HISTORY_PAGE));
        for (seq, ev) in events.into_iter().take(HISTORY_PAGE) {
            let ev: serde_json::Value = serde_json::from_str(&ev)
                .map_err(|e| Refusal::new(Code::Server, format!("stored event {seq}: {e}")))?;
            list.push(json!({"seq": seq, "ev": ev}));
        }
        self.outbox.send(protocol::reply(
            re,
            json!({"t": "history", "room": record.id, "game": record.game, "status": status,
                   "events": list, "more": more}),
        ));
        Ok(())
    }

    fn room(&self, room: &str) -> Result<RoomHandle, Refusal> {
        let room = check_id("room", room)?;
        self.shared
            .lobby
            .rooms
            .get(room)
            .ok_or_else(|| Refusal::new(Code::NotFound, format!("no room {room}")))
    }

    async fn send(&self, handle: &RoomHandle, cmd: RoomCmd) -> Handled {
        handle
            .tx
            .send(cmd)
            .await
            .map_err(|_| Refusal::new(Code::NotFound, format!("room {} has closed", handle.id)))
    }

    /// The connection is gone: detach from every room and queue.
    pub async fn close(&mut self) {
        let conn = self.outbox.id;
        self.shared.lobby.unqueue(conn);
        let mut rooms: Vec<RoomHandle> = self.rooms.drain().map(|(_, h)| h).collect();
        if let Some(player) = &self.player {
            for id in self.shared.lobby.seats_of(&player.id) {
                if rooms.iter().all(|r| r.id != id) {
                    if let Some(h) = self.shared.lobby.rooms.get(&id) {
                        rooms.push(h);
                    }
                }
            }
        }
        for handle in rooms {
            let _ = handle.tx.send(RoomCmd::Detach { conn }).await;
        }
    }
}
