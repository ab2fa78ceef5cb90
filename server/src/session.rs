//! What one connection has said and may do: its player identity after `hello`, the rooms it
//! is in, and one small handler per request type. Room requests are forwarded to the room's
//! task, which answers on the connection's outbox in order with its events.

mod accounts;

use crate::lobby::Queued;
use crate::outbox::Outbox;
use crate::player::{Player, RoomId};
use crate::protocol::{self, check_id, Code, Refusal, ReplyTo};
use crate::room::handle::RoomHandle;
use crate::room::{self, RoomCmd, RoomOptions};
use crate::shared::Shared;
use crate::store::{GamesQuery, PlayerQuery, PlayerRecord};
use crate::system::{GameInfo, GameSystem};
use orion_protocol::{
    ArchivedGame, Envelope, Event, Logged, Message, Request, RoomOptions as WireOptions, Seat,
    Status,
};
use rand::Rng;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use tokio::sync::oneshot;

/// Most rooms one connection may be in at once (seated or watching).
pub const MAX_ROOMS_PER_CONNECTION: usize = 32;
/// Most events a `history` reply carries; ask again with `since` for more.
pub const HISTORY_PAGE: usize = 500;
/// Most bytes of events a `history` reply carries (an event is bounded by the position,
/// names and chat limits), far below the largest frame a client is sent.
pub const HISTORY_PAGE_BYTES: usize = 48 * 1024;

/// Refuses a protocol version other than this server's.
fn check_version(version: u64) -> Result<(), Refusal> {
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

/// Most games a `games` reply lists (each a few hundred bytes); ask again with `before`.
pub const GAMES_PAGE: usize = 20;
/// Longest `player` a `games` request may name (names are at most 32 characters).
const MAX_PLAYER_QUERY: usize = 64;

/// Whose games a `games` request asks for: `player_id`, `player_name`, or the older `player`
/// (an id if it has an id's shape, which no name may have since names that look like ids are
/// refused; else a name). Exactly one must be given, 1 to 64 characters.
fn whose(
    id: Option<String>,
    name: Option<String>,
    either: Option<String>,
) -> Result<PlayerQuery, Refusal> {
    let trim = |t: String| t.trim().to_string();
    let who = match (id, name, either) {
        (Some(id), None, None) => PlayerQuery::Id(trim(id)),
        (None, Some(name), None) => PlayerQuery::Name(trim(name)),
        (None, None, Some(p)) if crate::text::looks_like_id(p.trim()) => PlayerQuery::Id(trim(p)),
        (None, None, Some(p)) => PlayerQuery::Name(trim(p)),
        _ => {
            return Err(Refusal::new(
                Code::BadRequest,
                "games needs one of player_id or player_name",
            ))
        }
    };
    let count = who.text().chars().count();
    if count == 0 || count > MAX_PLAYER_QUERY {
        return Err(Refusal::new(
            Code::BadRequest,
            format!("a player id or name must be 1 to {MAX_PLAYER_QUERY} characters"),
        ));
    }
    Ok(who)
}

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

impl Session {
    /// A session for a new connection.
    pub fn new(shared: Arc<Shared>, outbox: Outbox, peer: IpAddr) -> Session {
        Session {
            shared,
            outbox,
            player: None,
            token: None,
            token_hash: None,
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
            Request::Lobby { watch, after } => {
                self.shared.lobby.refresh_waiting().await;
                self.lobby(re, watch.unwrap_or(false), after)
            }
            Request::Create {
                game,
                options,
                private,
            } => {
                self.create(re, player()?, &game, options, private.unwrap_or(false))
                    .await
            }
            Request::Join { room, code, seat } => self.join(re, player()?, room, code, seat).await,
            Request::Quick { game, players } => {
                let queued = self.quick(re, player()?, &game, players).await;
                self.shared.lobby.refresh_waiting().await;
                queued
            }
            Request::Unqueue => {
                let unqueued = self.shared.lobby.unqueue(self.outbox.id).await?;
                self.outbox.send(protocol::reply(re, unqueued));
                Ok(())
            }
            Request::Spectate { room } => self.spectate(re, player()?, &room).await,
            Request::Leave { room } => {
                let handle = self.room(&room).await?;
                self.rooms.remove(&handle.id);
                let cmd = RoomCmd::Leave {
                    re: re.clone(),
                    player: player()?,
                    outbox: self.outbox.clone(),
                };
                self.send(&handle, cmd).await
            }
            Request::Ready { room } => {
                let handle = self.room(&room).await?;
                let cmd = RoomCmd::Ready {
                    re: re.clone(),
                    player: player()?,
                    outbox: self.outbox.clone(),
                };
                self.send(&handle, cmd).await
            }
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
            | Request::Hints { .. }) => self.act(re, player()?, request).await,
            Request::Chat { room, text } => {
                let text = crate::text::chat(&text)?;
                let handle = self.room(&room).await?;
                let cmd = RoomCmd::Chat {
                    re: re.clone(),
                    player: player()?,
                    text,
                    outbox: self.outbox.clone(),
                };
                self.send(&handle, cmd).await
            }
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
            Request::Export { room, code } => {
                let record = crate::export::text(&self.shared, &room, code.as_deref()).await?;
                // Checked before the copy a reply needs: a record too big for one frame is
                // the `/g/ROOM.txt` reader's.
                if record.len() > crate::outbox::MAX_OUT_FRAME {
                    return Err(Refusal::new(
                        Code::Server,
                        format!("the record is too big for one frame: GET /g/{room}.txt"),
                    ));
                }
                let text = String::from_utf8_lossy(&record).into_owned();
                let room = room.trim().to_string();
                self.outbox
                    .send(protocol::reply(re, Message::Export { room, text }));
                Ok(())
            }
            Request::Rematch { room, accept } => {
                let handle = self.room(&room).await?;
                let cmd = RoomCmd::Rematch {
                    re: re.clone(),
                    player: player()?,
                    accept: accept.unwrap_or(true),
                    outbox: self.outbox.clone(),
                };
                self.send(&handle, cmd).await
            }
        }
    }

    /// A page of a player's finished public games, newest first.
    async fn games(
        &mut self,
        re: &ReplyTo,
        who: PlayerQuery,
        game: Option<String>,
        before: Option<String>,
    ) -> Handled {
        let player = who.text().to_string();
        let game = match game {
            Some(g) => Some(self.find_game(&g)?.1.id.to_string()),
            None => None,
        };
        let before = before
            .as_deref()
            .map(|b| check_id("before", b).map(str::to_string))
            .transpose()?;
        let query = GamesQuery {
            player: who,
            game,
            before: before.clone(),
            limit: GAMES_PAGE + 1,
        };
        let store = &self.shared.store;
        let mut games = (store.games(&query).await)
            .map_err(|e| Refusal::new(Code::Server, e.to_string()))?
            .ok_or_else(|| {
                Refusal::new(
                    Code::NotFound,
                    format!(
                        "before: no game {} in the archive",
                        before.unwrap_or_default()
                    ),
                )
            })?;
        let more = games.len() > GAMES_PAGE;
        games.truncate(GAMES_PAGE);
        let games = games
            .into_iter()
            .map(|g| ArchivedGame {
                room: g.room,
                game: g.game,
                ended: g.ended_at,
                seats: (g.seats.into_iter())
                    .filter_map(|s| Some((Seat::parse(&s.seat)?, s.name)))
                    .collect(),
                winner: g.winner,
            })
            .collect();
        let page = Message::Games {
            player,
            games,
            more,
        };
        self.outbox.send(protocol::reply(re, page));
        Ok(())
    }

    async fn hello(
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
        let server = |e: crate::store::StoreError| Refusal::new(Code::Server, e.to_string());
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
        let claimed = store
            .account_by_skeleton(&skeleton)
            .await
            .map_err(|e| Refusal::new(Code::Server, e.to_string()))?;
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
    async fn become_player(
        &mut self,
        re: &ReplyTo,
        token: String,
        id: String,
        name: String,
        account: bool,
    ) -> Handled {
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
            .map_err(|e| Refusal::new(Code::Server, e.to_string()))?;
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
        self.token = Some(token.clone());
        self.token_hash = Some(hash);
        self.outbox.send(protocol::reply(
            re,
            Message::Welcome {
                player: id,
                name,
                token,
                rooms,
                account: account.then_some(true),
            },
        ));
        Ok(())
    }

    fn lobby(&mut self, re: &ReplyTo, watch: bool, after: Option<String>) -> Handled {
        let after = after.as_deref().map(|a| check_id("after", a)).transpose()?;
        self.watching = watch;
        self.outbox.send(self.shared.lobby.page(after, re));
        Ok(())
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

    fn check_room_cap(&self) -> Handled {
        if self.rooms.len() >= MAX_ROOMS_PER_CONNECTION {
            return Err(Refusal::new(
                Code::Full,
                format!("one connection may be in at most {MAX_ROOMS_PER_CONNECTION} rooms"),
            ));
        }
        Ok(())
    }

    async fn create(
        &mut self,
        re: &ReplyTo,
        player: Player,
        game: &str,
        options: Option<WireOptions>,
        private: bool,
    ) -> Handled {
        self.check_room_cap()?;
        let (system, info) = self.find_game(game)?;
        let options = RoomOptions::parse(options.as_ref(), &*system, &info, None)?;
        if self.shared.lobby.seats_of(&player.id).len() >= crate::lobby::MAX_SEATS_PER_PLAYER {
            return Err(Refusal::new(
                Code::Full,
                format!(
                    "you hold seats in {} rooms already",
                    crate::lobby::MAX_SEATS_PER_PLAYER
                ),
            ));
        }
        // A puzzle's one seat is the creator's: it starts at once, no `ready` needed.
        let solo = info.solo;
        if !solo && !self.shared.lobby.may_open_waiting_room() {
            return Err(Refusal::new(
                Code::Full,
                "too many rooms are waiting for players: join one, or ask for a quick match",
            ));
        }
        let first = Queued {
            player,
            outbox: self.outbox.clone(),
            re: re.clone(),
        };
        let handle = room::create(
            &self.shared,
            &system,
            &info,
            options,
            private,
            solo,
            vec![(first, None)],
        )
        .await?;
        self.rooms.insert(handle.id.clone(), handle);
        Ok(())
    }

    async fn join(
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

    async fn quick(
        &mut self,
        re: &ReplyTo,
        player: Player,
        game: &str,
        players: Option<u8>,
    ) -> Handled {
        self.check_room_cap()?;
        let (system, info) = self.find_match(game)?;
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
        let entry = Queued {
            player,
            outbox: self.outbox.clone(),
            re: re.clone(),
        };
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
                let first = group.into_iter().map(|q| (q, None)).collect();
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

    async fn spectate(&mut self, re: &ReplyTo, player: Player, room: &str) -> Handled {
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
        })
        .await
    }

    /// A game request: its room's game system reads it.
    async fn act(&mut self, re: &ReplyTo, player: Player, request: Request) -> Handled {
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

    async fn resume(&mut self, re: &ReplyTo, player: Player, room: &str, since: u64) -> Handled {
        let handle = self.room(room).await?;
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

    async fn history(
        &mut self,
        re: &ReplyTo,
        room: &str,
        since: u64,
        code: Option<String>,
    ) -> Handled {
        let room = check_id("room", room)?;
        let server = |e: crate::store::StoreError| Refusal::new(Code::Server, e.to_string());
        let store = &self.shared.store;
        let not_found = || Refusal::new(Code::NotFound, format!("no room {room}"));
        let (record, status) = store
            .room(room)
            .await
            .map_err(server)?
            .ok_or_else(not_found)?;
        // A private room's history is its players' (they were given the code on joining).
        if let Some(secret) = &record.code {
            if !code.is_some_and(|c| c.eq_ignore_ascii_case(secret)) {
                return Err(not_found());
            }
        }
        let events = store
            .events(room, since, HISTORY_PAGE + 1)
            .await
            .map_err(server)?;
        let total = events.len();
        let mut list = Vec::with_capacity(total.min(HISTORY_PAGE));
        let mut bytes = 0;
        for (seq, ev) in events.into_iter().take(HISTORY_PAGE) {
            if !list.is_empty() && bytes + ev.len() > HISTORY_PAGE_BYTES {
                break;
            }
            bytes += ev.len();
            let ev = serde_json::from_str::<Event<'_>>(&ev)
                .map_err(|e| Refusal::new(Code::Server, format!("stored event {seq}: {e}")))?;
            list.push(Logged {
                seq,
                ev: ev.into_owned(),
            });
        }
        let more = total > list.len();
        let status = match status.as_str() {
            "waiting" => Status::Waiting,
            "playing" => Status::Playing,
            "finished" => Status::Finished,
            "closed" => Status::Closed,
            other => {
                let e = format!("room {room} has status {other}");
                return Err(Refusal::new(Code::Server, e));
            }
        };
        let history = Message::History {
            room: record.id,
            game: record.game,
            status,
            events: list,
            more,
        };
        self.outbox.send(protocol::reply(re, history));
        Ok(())
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
