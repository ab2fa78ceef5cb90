//! One task per room: it alone owns the game, the seats, the spectators, the per-room `seq`
//! and the clocks. Sessions send it commands; it answers on the sender's outbox, appends
//! every event to the store before broadcasting it, and serializes each event once for all
//! members. Claims are timed by the server clock as the room accepts them, so a claim racing
//! the mover's next click is settled in arrival order by the engine.

use crate::clock::Millis;
use crate::connection::Outbox;
use crate::lobby::{Player, PlayerId, Queued, RoomHandle, RoomId};
use crate::protocol::{self, Code, Frame, Refusal, ReplyTo, Request};
use crate::server::Shared;
use crate::store::{ActionRecord, Append, RoomRecord, SavedRoom, StoreError};
use crate::system::{GameInfo, GameSystem, Seat, Table};
use rand::Rng;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// Commands queued for one room before senders wait (a flooder is bounded by its rate limit
/// long before this).
pub const ROOM_QUEUE: usize = 256;
/// Most spectators in one room; more are refused with `full`.
pub const MAX_SPECTATORS: usize = 1_000;
/// Most events a `resume` replays (and at most 3/4 of the send queue); a client further
/// behind gets a snapshot.
pub const MAX_RESUME: usize = 2_000;
/// Default seat hold for a disconnected player (PROTOCOL.md: 120 s).
pub const DEFAULT_SEAT_HOLD: Millis = 120_000;
/// Bounds on the clock options, in milliseconds.
const MAX_CLOCK: Millis = 24 * 3_600_000;
/// Shortest turn clock: each expiry stores events, so a 1 ms clock would store a thousand a
/// second (and the clock is paused anyway while every seat is away).
pub const MIN_TURN_CLOCK: Millis = 1_000;
/// How long a room that has not started keeps the seat of a player who went away, whatever
/// its `seat_hold`: a waiting room with nobody connected is closed after this, so rooms made
/// and left cannot pile up.
pub const WAITING_HOLD: Millis = 60_000;

/// A room's options: the server's clocks and holds, and the game's own options (checked and
/// completed by its game system). On the wire and in the store they are one flat object.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomOptions {
    /// Milliseconds per turn; on expiry the turn ends. `None`: no clock.
    pub turn_clock: Option<Millis>,
    /// Extra milliseconds per seat for the whole game, drawn once a turn clock runs out;
    /// when it runs out too, that seat loses the game. `None`: no bank.
    pub time_bank: Option<Millis>,
    /// How long a disconnected player's seat is held, in ms.
    pub seat_hold: Millis,
    /// The game's options as its system completed them (an object).
    pub game: Value,
}

/// The options the server keeps for itself; every other key is the game system's.
const SERVER_OPTIONS: [&str; 3] = ["turn_clock", "time_bank", "seat_hold"];

impl RoomOptions {
    /// Reads the `options` of a `create` (or a stored room's) for `game` of `system`,
    /// saying what was wrong. `players` (a quick match's count) overrides the options'.
    pub fn parse(
        value: Option<&Value>,
        system: &dyn GameSystem,
        game: &GameInfo,
        players: Option<u8>,
    ) -> Result<RoomOptions, Refusal> {
        let bad = |m: String| Refusal::new(Code::BadRequest, format!("options: {m}"));
        let mut rest = match value {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(map)) => map.clone(),
            Some(other) => return Err(bad(format!("expected an object, not {other}"))),
        };
        let ms = |rest: &mut Map<String, Value>, key: &str| -> Result<Option<Millis>, Refusal> {
            match rest.remove(key) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => v
                    .as_u64()
                    .map(Some)
                    .ok_or_else(|| bad(format!("{key} must be a whole number of ms, not {v}"))),
            }
        };
        let turn_clock = ms(&mut rest, SERVER_OPTIONS[0])?;
        let time_bank = ms(&mut rest, SERVER_OPTIONS[1])?;
        let seat_hold = ms(&mut rest, SERVER_OPTIONS[2])?.unwrap_or(DEFAULT_SEAT_HOLD);
        if turn_clock.is_some_and(|ms| !(MIN_TURN_CLOCK..=MAX_CLOCK).contains(&ms)) {
            return Err(bad(format!(
                "turn_clock must be {MIN_TURN_CLOCK} to {MAX_CLOCK} ms"
            )));
        }
        if time_bank.is_some_and(|ms| !(1..=MAX_CLOCK).contains(&ms)) {
            return Err(bad(format!("time_bank must be 1 to {MAX_CLOCK} ms")));
        }
        if seat_hold > MAX_CLOCK {
            return Err(bad(format!("seat_hold must be at most {MAX_CLOCK} ms")));
        }
        if let Some(n) = players {
            rest.insert("players".into(), json!(n));
        }
        Ok(RoomOptions {
            turn_clock,
            time_bank,
            seat_hold,
            game: system.options(game, rest)?,
        })
    }

    /// The options as one object, as clients are shown them and the store keeps them.
    pub fn to_json(&self) -> Value {
        let mut all = match &self.game {
            Value::Object(map) => map.clone(),
            _ => Map::new(),
        };
        all.insert("turn_clock".into(), json!(self.turn_clock));
        all.insert("time_bank".into(), json!(self.time_bank));
        all.insert("seat_hold".into(), json!(self.seat_hold));
        Value::Object(all)
    }
}

/// What a session asks of a room. Replies and errors go to the outbox in the command, in
/// order with the room's events.
#[derive(Debug)]
pub enum RoomCmd {
    /// Take a seat (or reattach to one's own).
    Join {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Player,
        /// The seat wanted, by name.
        seat: Option<String>,
        /// His connection.
        outbox: Outbox,
        /// True once he is a member.
        done: oneshot::Sender<bool>,
    },
    /// Watch.
    Spectate {
        /// Request id.
        re: ReplyTo,
        /// Who watches.
        player: PlayerId,
        /// The watcher's connection.
        outbox: Outbox,
        /// True once he is a member.
        done: oneshot::Sender<bool>,
    },
    /// Give up a seat or stop watching.
    Leave {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Player,
        /// His connection.
        outbox: Outbox,
    },
    /// Ready to start.
    Ready {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Player,
        /// His connection.
        outbox: Outbox,
    },
    /// A game action.
    Act {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Player,
        /// The game request (`click`, `place`, `move` …), for the room's game system to read.
        request: Request,
        /// His connection.
        outbox: Outbox,
    },
    /// A chat line.
    Chat {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Player,
        /// The line (checked for length by the session).
        text: String,
        /// His connection.
        outbox: Outbox,
    },
    /// Catch up after a reconnect.
    Resume {
        /// Request id.
        re: ReplyTo,
        /// Who.
        player: Player,
        /// Last seq seen.
        since: u64,
        /// His new connection.
        outbox: Outbox,
        /// True once he is a member.
        done: oneshot::Sender<bool>,
    },
    /// A connection went away.
    Detach {
        /// Its id.
        conn: u64,
    },
}

/// Where a room is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Seats are being filled.
    Waiting,
    /// The game is on.
    Playing,
    /// The game has ended.
    Finished,
}

impl Status {
    /// As on the wire and in the store.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Finished => "finished",
        }
    }
}

/// A filled seat.
#[derive(Debug)]
struct Occupant {
    /// Who sits there.
    player: Player,
    /// His live connection; `None` while he is away.
    conn: Option<Outbox>,
    /// He said `ready`.
    ready: bool,
    /// While away: when his seat is given up.
    hold_until: Option<Millis>,
}

/// The turn clock's state.
#[derive(Debug, Default)]
struct TurnClock {
    /// The turn it is timing: mover and round.
    turn: Option<(Seat, u32)>,
    /// When the current allowance runs out.
    deadline: Option<Millis>,
    /// Since when the mover is drawing on his time bank.
    overdraft_since: Option<Millis>,
    /// Time bank left per seat.
    banks: BTreeMap<Seat, Millis>,
    /// While every seat is away the clock stands still: what was left of the allowance, and
    /// whether it was the mover's time bank.
    paused: Option<(Millis, bool)>,
}

/// One room, owned by its task.
struct Room {
    /// Room id.
    id: RoomId,
    /// Invite code of a private room.
    code: Option<Arc<str>>,
    /// Unlisted.
    private: bool,
    /// Options, and their JSON for snapshots and the lobby.
    options: RoomOptions,
    /// `options` as sent to clients.
    options_json: Value,
    /// The game system that plays here.
    system: Arc<dyn GameSystem>,
    /// The game's id (`hydra-2`).
    game_id: &'static str,
    /// The game (set up at creation; actions are accepted once it is playing).
    table: Box<dyn Table>,
    /// Waiting, playing or finished.
    status: Status,
    /// Start without `ready` (quick matches).
    auto_start: bool,
    /// Filled seats.
    seats: BTreeMap<Seat, Occupant>,
    /// Watchers by connection id.
    spectators: HashMap<u64, Outbox>,
    /// Who has watched (by player id), so that a watcher whose connection dropped may
    /// `resume`; bounded (cleared past twice [`MAX_SPECTATORS`]).
    watched_by: HashSet<PlayerId>,
    /// The last event's seq (0 before the first).
    seq: u64,
    /// Appends stored so far (they are numbered from 1 in the store).
    appends: u64,
    /// The turn clock.
    clock: TurnClock,
    /// The summary last sent to the lobby, to skip republishing an unchanged one (a publish
    /// marks the public list for a rebuild and may wake its watchers).
    published: Option<Published>,
    /// A result the server decided (time forfeit, abandoned game), which the engine's game
    /// does not know about.
    result: Option<Value>,
    /// Hex salt of the seed's commitment: the commitment goes out in `start`, seed and salt
    /// in `over`, so anyone can check every throw and random start (`None`: an older room).
    salt: Option<String>,
    /// Who chose each seat's hidden choice (Algol's secret man): only he is shown it, not a
    /// later occupant of the seat.
    secret_owners: BTreeMap<Seat, PlayerId>,
    /// Server-wide state.
    shared: Arc<Shared>,
}

/// Creates a room for `game` of `system`, seats `first` in order (the creator, or a quick
/// match's players), stores it and starts its task.
pub fn create(
    shared: &Arc<Shared>,
    system: &Arc<dyn GameSystem>,
    game: &GameInfo,
    options: RoomOptions,
    private: bool,
    auto_start: bool,
    first: Vec<(Queued, Option<String>)>,
) -> Result<RoomHandle, Refusal> {
    let seed: u64 = rand::thread_rng().gen();
    let table = system.table(game, &options.game, seed)?;
    let id: RoomId = Arc::from(format!("r{:08x}", rand::thread_rng().gen::<u32>()));
    let code: Option<Arc<str>> = private.then(invite_code);
    let salt = hex::encode(rand::thread_rng().gen::<[u8; 16]>());
    let options_json = options.to_json();
    let record = RoomRecord {
        id: id.to_string(),
        game: game.id.to_string(),
        options: options_json.to_string(),
        seed,
        private,
        code: code.as_ref().map(|c| c.to_string()),
        salt: Some(salt.clone()),
    };
    crate::store::blocking(|| shared.store.create_room(&record))
        .map_err(|e| Refusal::new(Code::Server, e.to_string()))?;
    let mut room = Room::new(
        shared.clone(),
        Setup {
            id,
            code,
            private,
            options,
            options_json,
            system: system.clone(),
            game_id: game.id,
            table,
        },
    );
    room.salt = Some(salt);
    room.auto_start = auto_start;
    let (handle, rx) = room.handle();
    if !shared.lobby.rooms.insert(handle.clone()) {
        let now = shared.clock.now_ms();
        let _ = crate::store::blocking(|| shared.store.set_status(&record.id, "closed", now));
        return Err(Refusal::new(
            Code::Full,
            "the server has no room for more rooms",
        ));
    }
    // The first seats are taken by the room's own task, before any other command reaches it.
    tokio::spawn(room.run(Some(first), rx));
    Ok(handle)
}

/// Rebuilds an unfinished room from the store (replaying its actions) and starts its task.
pub fn restore(shared: &Arc<Shared>, saved: SavedRoom) -> Result<RoomHandle, String> {
    let rec = saved.record;
    let (system, game) = shared
        .find_game(&rec.game)
        .ok_or_else(|| format!("unknown game {}", rec.game))?;
    let stored: Value = serde_json::from_str(&rec.options).map_err(|e| format!("options: {e}"))?;
    let options =
        RoomOptions::parse(Some(&stored), &*system, &game, None).map_err(|e| e.to_string())?;
    let table = system
        .table(&game, &options.game, rec.seed)
        .map_err(|e| e.to_string())?;
    let options_json = options.to_json();
    let mut room = Room::new(
        shared.clone(),
        Setup {
            id: Arc::from(rec.id.as_str()),
            code: rec.code.as_deref().map(Arc::from),
            private: rec.private,
            options,
            options_json,
            system: system.clone(),
            game_id: game.id,
            table,
        },
    );
    room.salt = rec.salt.clone();
    let now = shared.clock.now_ms();
    for (seq, ev) in &saved.events {
        room.seq = *seq;
        let Ok(ev) = serde_json::from_str::<Value>(ev) else {
            continue;
        };
        let seat = ev["seat"].as_str().and_then(|s| room.seat_named(s));
        match (ev["kind"].as_str(), seat) {
            (Some("joined"), Some(seat)) => {
                let player = Player {
                    id: Arc::from(ev["player"].as_str().unwrap_or_default()),
                    name: Arc::from(ev["name"].as_str().unwrap_or_default()),
                };
                room.seats.insert(
                    seat,
                    Occupant {
                        player,
                        conn: None,
                        ready: false,
                        hold_until: None,
                    },
                );
            }
            (Some("left"), Some(seat)) => {
                room.seats.remove(&seat);
            }
            // The seat's occupant at the time chose its secret.
            (Some("secret"), Some(seat)) => {
                if let Some(o) = room.seats.get(&seat) {
                    room.secret_owners.insert(seat, o.player.id.clone());
                }
            }
            (Some("start"), _) => room.status = Status::Playing,
            (Some("over"), _) => room.status = Status::Finished,
            _ => {}
        }
    }
    room.appends = saved.appends;
    for a in &saved.actions {
        let Some(seat) = room.seat_named(&a.seat) else {
            tracing::warn!(room = %room.id, "replayed action of no seat: {}", a.seat);
            continue;
        };
        if let Err(e) = room.table.apply(seat, &a.action, a.at) {
            tracing::warn!(room = %room.id, "replayed action refused: {e}");
        }
    }
    let hold = room.hold();
    for occupant in room.seats.values_mut() {
        occupant.hold_until = Some(now.saturating_add(hold));
        shared.lobby.take_seat(&occupant.player.id, &room.id);
    }
    room.arm_clock(now);
    room.pause_clock_while_away(now);
    let (handle, rx) = room.handle();
    if !shared.lobby.rooms.insert(handle.clone()) {
        return Err("directory full".into());
    }
    room.publish();
    tokio::spawn(room.run(None, rx));
    Ok(handle)
}

/// What a room is made of, new or restored.
struct Setup {
    /// Room id.
    id: RoomId,
    /// Invite code of a private room.
    code: Option<Arc<str>>,
    /// Unlisted.
    private: bool,
    /// Options.
    options: RoomOptions,
    /// `options` as sent to clients.
    options_json: Value,
    /// The game system that plays here.
    system: Arc<dyn GameSystem>,
    /// The game's id.
    game_id: &'static str,
    /// The game.
    table: Box<dyn Table>,
}

/// The commitment to a room's seed: hex SHA-256 of `"{seed}:{salt hex}"` (the seed in
/// decimal), published in `start`; `over` reveals seed and salt.
fn seed_commitment(seed: u64, salt: &[u8]) -> String {
    hex::encode(Sha256::digest(format!("{seed}:{}", hex::encode(salt))))
}

/// A six-letter invite code without look-alike letters.
fn invite_code() -> Arc<str> {
    const LETTERS: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::thread_rng();
    let code: String = (0..6)
        .map(|_| LETTERS[rng.gen_range(0..LETTERS.len())] as char)
        .collect();
    Arc::from(code)
}

impl Room {
    fn new(shared: Arc<Shared>, setup: Setup) -> Room {
        let mut clock = TurnClock::default();
        if let Some(bank) = setup.options.time_bank {
            for s in setup.table.seats() {
                clock.banks.insert(s.seat, bank);
            }
        }
        Room {
            id: setup.id,
            code: setup.code,
            private: setup.private,
            options: setup.options,
            options_json: setup.options_json,
            system: setup.system,
            game_id: setup.game_id,
            table: setup.table,
            status: Status::Waiting,
            auto_start: false,
            seats: BTreeMap::new(),
            spectators: HashMap::new(),
            watched_by: HashSet::new(),
            seq: 0,
            appends: 0,
            clock,
            result: None,
            salt: None,
            secret_owners: BTreeMap::new(),
            published: None,
            shared,
        }
    }

    /// The seat of this game named `name` (`S`), if it plays here.
    fn seat_named(&self, name: &str) -> Option<Seat> {
        self.table
            .seats()
            .iter()
            .map(|s| s.seat)
            .find(|s| s.0.eq_ignore_ascii_case(name))
    }

    fn handle(&self) -> (RoomHandle, mpsc::Receiver<RoomCmd>) {
        let (tx, rx) = mpsc::channel(ROOM_QUEUE);
        let handle = RoomHandle {
            id: self.id.clone(),
            code: self.code.clone(),
            tx,
        };
        (handle, rx)
    }

    /// The room's task: seats `first` for a new room (the creator, or a quick match's
    /// players), then takes commands until the room ends. The room lives in this one future
    /// (a block around it would keep a second copy).
    async fn run(
        mut self,
        first: Option<Vec<(Queued, Option<String>)>>,
        mut rx: mpsc::Receiver<RoomCmd>,
    ) {
        if let Some(first) = first {
            for (q, seat) in first {
                self.join(q.re, q.player, seat, q.outbox).await;
            }
            self.maybe_start().await;
            self.publish();
        }
        let mut shutdown = self.shared.shutdown();
        loop {
            if self.is_done() {
                break;
            }
            let timer = match self.next_deadline() {
                Some(at) => self.shared.clock.sleep_until(at),
                None => Box::pin(std::future::pending()),
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle_cmd(cmd).await,
                    None => break,
                },
                _ = timer => self.on_timer().await,
                _ = shutdown.changed() => break,
            }
        }
        if self.status == Status::Waiting && self.seats.is_empty() {
            self.set_status("closed");
        }
        self.shared.lobby.rooms.remove(&self.id);
        self.shared.lobby.publish(&self.id, None);
        for o in self.seats.values() {
            if self.status == Status::Finished {
                self.shared.lobby.free_seat(&o.player.id, &self.id);
            }
        }
        tracing::debug!(room = %self.id, "room task ended");
    }

    /// A room ends when it can no longer be played or seen: before the start, when no seat
    /// is held (watchers alone do not keep a room open, or one connection could hold rooms
    /// made and left without bound); after the end, when nobody is connected.
    fn is_done(&self) -> bool {
        let connected =
            self.seats.values().any(|o| o.conn.is_some()) || !self.spectators.is_empty();
        match self.status {
            Status::Waiting => self.seats.is_empty(),
            Status::Playing => false,
            Status::Finished => !connected,
        }
    }

    fn next_deadline(&self) -> Option<Millis> {
        let holds = self.seats.values().filter_map(|o| o.hold_until);
        holds.chain(self.clock.deadline).min()
    }

    async fn handle_cmd(&mut self, cmd: RoomCmd) {
        match cmd {
            RoomCmd::Join {
                re,
                player,
                seat,
                outbox,
                done,
            } => {
                let ok = self.join(re, player, seat, outbox).await;
                let _ = done.send(ok);
                self.maybe_start().await;
                self.publish();
            }
            RoomCmd::Spectate {
                re,
                player,
                outbox,
                done,
            } => {
                let _ = done.send(self.spectate(re, player, outbox));
                self.publish();
            }
            RoomCmd::Leave { re, player, outbox } => {
                self.leave(re, player, outbox).await;
                self.publish();
            }
            RoomCmd::Ready { re, player, outbox } => self.ready(re, player, outbox).await,
            RoomCmd::Act {
                re,
                player,
                request,
                outbox,
            } => self.act(re, player, request, outbox).await,
            RoomCmd::Chat {
                re,
                player,
                text,
                outbox,
            } => self.chat(re, player, text, outbox).await,
            RoomCmd::Resume {
                re,
                player,
                since,
                outbox,
                done,
            } => {
                let _ = done.send(self.resume(re, player, since, outbox));
                self.publish();
            }
            RoomCmd::Detach { conn } => self.detach(conn),
        }
    }

    fn seat_of(&self, player: &PlayerId) -> Option<Seat> {
        self.seats
            .iter()
            .find(|(_, o)| &o.player.id == player)
            .map(|(s, _)| *s)
    }

    fn refuse(&self, re: &ReplyTo, outbox: &Outbox, code: Code, message: impl Into<String>) {
        outbox.refuse(re, &Refusal::new(code, message));
    }

    async fn join(
        &mut self,
        re: ReplyTo,
        player: Player,
        want: Option<String>,
        outbox: Outbox,
    ) -> bool {
        if let Some(seat) = self.seat_of(&player.id) {
            self.attach(seat, outbox.clone());
            self.reply_joined(&re, seat, &outbox);
            return true;
        }
        if self.status == Status::Finished {
            self.refuse(&re, &outbox, Code::Illegal, "the game is over");
            return false;
        }
        let all: Vec<Seat> = self.table.seats().iter().map(|s| s.seat).collect();
        let free: Vec<Seat> = all
            .iter()
            .copied()
            .filter(|s| !self.seats.contains_key(s))
            .collect();
        let want = want.map(|w| self.seat_named(&w).ok_or(w));
        let seat = match want {
            Some(Err(w)) => {
                let names: Vec<String> = all.iter().map(|s| s.to_string()).collect();
                self.refuse(
                    &re,
                    &outbox,
                    Code::BadRequest,
                    format!(
                        "seat {} does not play in this game (seats: {})",
                        w.chars().take(8).collect::<String>(),
                        names.join(", ")
                    ),
                );
                return false;
            }
            Some(Ok(w)) if !free.contains(&w) => {
                self.refuse(&re, &outbox, Code::Full, format!("seat {w} is taken"));
                return false;
            }
            Some(Ok(w)) => w,
            None => match free.first() {
                Some(s) => *s,
                None => {
                    self.refuse(&re, &outbox, Code::Full, "every seat is taken");
                    return false;
                }
            },
        };
        if !self.shared.lobby.take_seat(&player.id, &self.id) {
            self.refuse(
                &re,
                &outbox,
                Code::Full,
                format!(
                    "you hold seats in {} rooms already",
                    crate::lobby::MAX_SEATS_PER_PLAYER
                ),
            );
            return false;
        }
        let ev = json!({"kind": "joined", "seat": json!(seat.0),
                        "player": &*player.id, "name": &*player.name});
        if let Err(e) = self.emit(vec![ev.to_string()], None).await {
            self.shared.lobby.free_seat(&player.id, &self.id);
            self.refuse(&re, &outbox, Code::Server, e.to_string());
            return false;
        }
        let conn = (!outbox.is_closed()).then(|| outbox.clone());
        let hold_until = conn
            .is_none()
            .then(|| self.shared.clock.now_ms().saturating_add(self.hold()));
        self.seats.insert(
            seat,
            Occupant {
                player,
                conn,
                ready: false,
                hold_until,
            },
        );
        self.reply_joined(&re, seat, &outbox);
        true
    }

    fn reply_joined(&self, re: &ReplyTo, seat: Seat, outbox: &Outbox) {
        let mut body = json!({"t": "joined", "room": &*self.id, "seat": json!(seat.0)});
        if let Some(code) = &self.code {
            body["code"] = json!(&**code);
        }
        outbox.send(protocol::reply(re, body));
        outbox.send(self.snapshot(&None, Some(seat)));
    }

    fn attach(&mut self, seat: Seat, outbox: Outbox) {
        self.spectators.remove(&outbox.id);
        if let Some(o) = self.seats.get_mut(&seat) {
            o.conn = Some(outbox);
            o.hold_until = None;
        }
        self.pause_clock_while_away(self.shared.clock.now_ms());
    }

    /// How long the seat of a player who went away is held: the room's `seat_hold`, but at
    /// most [`WAITING_HOLD`] before the game starts.
    fn hold(&self) -> Millis {
        match self.status {
            Status::Waiting => self.options.seat_hold.min(WAITING_HOLD),
            _ => self.options.seat_hold,
        }
    }

    /// Stops the turn clock while no seated player is connected (nobody can move, and each
    /// expiry would store events for nobody), and starts it again, with what was left, when
    /// one comes back.
    fn pause_clock_while_away(&mut self, now: Millis) {
        if self.status != Status::Playing {
            return;
        }
        let anyone = self.seats.values().any(|o| o.conn.is_some());
        match (anyone, self.clock.paused) {
            (false, None) => {
                let Some(deadline) = self.clock.deadline.take() else {
                    return;
                };
                let overdraft = match (self.clock.turn, self.clock.overdraft_since.take()) {
                    (Some((seat, _)), Some(since)) => {
                        if let Some(bank) = self.clock.banks.get_mut(&seat) {
                            *bank = bank.saturating_sub(now.saturating_sub(since));
                        }
                        true
                    }
                    _ => false,
                };
                self.clock.paused = Some((deadline.saturating_sub(now), overdraft));
            }
            (true, Some((left, overdraft))) => {
                self.clock.paused = None;
                self.clock.deadline = Some(now.saturating_add(left));
                if overdraft {
                    self.clock.overdraft_since = Some(now);
                }
            }
            _ => {}
        }
    }

    fn spectate(&mut self, re: ReplyTo, player: PlayerId, outbox: Outbox) -> bool {
        if !self.add_spectator(&re, player, &outbox) {
            return false;
        }
        outbox.send(self.snapshot(&re, None));
        true
    }

    /// Makes `outbox` a watcher, unless the room has all it can take.
    fn add_spectator(&mut self, re: &ReplyTo, player: PlayerId, outbox: &Outbox) -> bool {
        if self.spectators.len() >= MAX_SPECTATORS {
            self.refuse(
                re,
                outbox,
                Code::Full,
                "this room has all the spectators it can take",
            );
            return false;
        }
        if self.watched_by.len() >= 2 * MAX_SPECTATORS {
            // Forget old watchers rather than grow: they can still `spectate` again.
            self.watched_by.clear();
        }
        self.watched_by.insert(player);
        self.spectators.insert(outbox.id, outbox.clone());
        true
    }

    async fn leave(&mut self, re: ReplyTo, player: Player, outbox: Outbox) {
        let was_watching = self.spectators.remove(&outbox.id).is_some();
        let seat = self.seat_of(&player.id);
        if seat.is_none() && !was_watching {
            self.refuse(
                &re,
                &outbox,
                Code::NotAPlayer,
                format!("you are not in room {}", self.id),
            );
            return;
        }
        if let Some(seat) = seat {
            self.vacate(seat).await;
        }
        outbox.send(protocol::reply(
            &re,
            json!({"t": "left", "room": &*self.id}),
        ));
    }

    /// Gives up a seat: a `left` event; a game in progress carries on with the seat empty
    /// (anyone may `join` it); with every seat empty it ends without a winner.
    async fn vacate(&mut self, seat: Seat) {
        let Some(o) = self.seats.remove(&seat) else {
            return;
        };
        self.shared.lobby.free_seat(&o.player.id, &self.id);
        let _ = self
            .emit(
                vec![json!({"kind": "left", "seat": json!(seat.0)}).to_string()],
                None,
            )
            .await;
        if self.status == Status::Playing && self.seats.is_empty() {
            let result = self.table.abandoned();
            let mut ev = self.over_event(result.clone());
            ev["reason"] = json!("abandoned");
            self.result = Some(result);
            let _ = self.emit(vec![ev.to_string()], None).await;
            self.finish();
        }
    }

    async fn ready(&mut self, re: ReplyTo, player: Player, outbox: Outbox) {
        let Some(seat) = self.seat_of(&player.id) else {
            self.refuse(
                &re,
                &outbox,
                Code::NotAPlayer,
                format!("you hold no seat in room {}", self.id),
            );
            return;
        };
        if self.status != Status::Waiting {
            self.refuse(&re, &outbox, Code::Illegal, "the game has already started");
            return;
        }
        if let Some(o) = self.seats.get_mut(&seat) {
            o.ready = true;
        }
        self.maybe_start().await;
        self.publish();
    }

    async fn maybe_start(&mut self) {
        if self.status != Status::Waiting {
            return;
        }
        let full = self
            .table
            .seats()
            .iter()
            .all(|s| self.seats.contains_key(&s.seat));
        let ready = self.auto_start || self.seats.values().all(|o| o.ready);
        if !(full && ready) {
            return;
        }
        let mut ev = json!({"kind": "start", "position": self.table.position(),
                        "turn": self.table.turn()});
        if let Some(salt) = self.salt.as_deref().and_then(|s| hex::decode(s).ok()) {
            ev["seed_commitment"] = json!(seed_commitment(self.table.seed(), &salt));
        }
        if self.emit(vec![ev.to_string()], None).await.is_err() {
            return;
        }
        self.status = Status::Playing;
        self.set_status("playing");
        let now = self.shared.clock.now_ms();
        self.arm_clock(now);
    }

    async fn act(&mut self, re: ReplyTo, player: Player, request: Request, outbox: Outbox) {
        let action = match self.system.action(&request) {
            Some(Ok(action)) => action,
            Some(Err(refusal)) => return outbox.refuse(&re, &refusal),
            None => {
                return self.refuse(
                    &re,
                    &outbox,
                    Code::BadRequest,
                    format!("{} is not a move in {}", request.name(), self.game_id),
                )
            }
        };
        let Some(seat) = self.seat_of(&player.id) else {
            self.refuse(
                &re,
                &outbox,
                Code::NotAPlayer,
                format!(
                    "you hold no seat in room {}: spectators cannot move",
                    self.id
                ),
            );
            return;
        };
        match self.status {
            Status::Waiting => {
                self.refuse(
                    &re,
                    &outbox,
                    Code::Illegal,
                    "the game has not started: every seat must be filled and ready",
                );
                return;
            }
            Status::Finished => {
                self.refuse(&re, &outbox, Code::Illegal, "the game is over");
                return;
            }
            Status::Playing => {}
        }
        let now = self.shared.clock.now_ms();
        if self.step(seat, &action, now, Some((&re, &outbox))).await == Some(true) {
            self.secret_owners.insert(seat, player.id);
        }
    }

    /// Steps the game and publishes what it caused; a refusal goes to `sender` alone. Once
    /// the action is taken and stored: whether it made a hidden choice for its seat.
    async fn step(
        &mut self,
        seat: Seat,
        action: &str,
        now: Millis,
        sender: Option<(&ReplyTo, &Outbox)>,
    ) -> Option<bool> {
        let before = self.table.clone_table();
        let applied = match self.table.apply(seat, action, now) {
            Ok(applied) => applied,
            Err(refusal) => {
                if let Some((re, outbox)) = sender {
                    outbox.refuse(re, &refusal);
                }
                return None;
            }
        };
        let mut evs = applied.events;
        if let Some(result) = &applied.over {
            evs.push(self.over_event(result.clone()).to_string());
        }
        let record = ActionRecord {
            seat: seat.0.to_string(),
            action: action.to_string(),
            at: now,
        };
        if let Err(e) = self.emit(evs, Some(record)).await {
            self.table = before;
            if let Some((re, outbox)) = sender {
                self.refuse(re, outbox, Code::Server, e.to_string());
            }
            return None;
        }
        if applied.over.is_some() {
            self.finish();
        } else {
            self.arm_clock(now);
        }
        Some(applied.hidden)
    }

    /// An `over` event with `result`, revealing the room's seed and the salt of its
    /// commitment (the seed as a decimal string: it does not fit a JSON number exactly).
    fn over_event(&self, result: Value) -> Value {
        let mut ev = json!({"kind": "over", "result": result});
        if let Some(salt) = &self.salt {
            ev["seed"] = json!(self.table.seed().to_string());
            ev["salt"] = json!(salt);
        }
        ev
    }

    async fn chat(&mut self, re: ReplyTo, player: Player, text: String, outbox: Outbox) {
        let seat = self.seat_of(&player.id);
        if seat.is_none() && !self.spectators.contains_key(&outbox.id) {
            self.refuse(
                &re,
                &outbox,
                Code::NotAPlayer,
                format!("you are not in room {}", self.id),
            );
            return;
        }
        let ev = json!({"kind": "chat", "seat": seat.map(|s| s.0),
                        "name": &*player.name, "text": text});
        if let Err(e) = self.emit(vec![ev.to_string()], None).await {
            self.refuse(&re, &outbox, Code::Server, e.to_string());
        }
    }

    fn resume(&mut self, re: ReplyTo, player: Player, since: u64, outbox: Outbox) -> bool {
        if since > self.seq {
            self.refuse(
                &re,
                &outbox,
                Code::BadRequest,
                format!("since {since} is past this room's last event {}", self.seq),
            );
            return false;
        }
        let seat = self.seat_of(&player.id);
        match seat {
            Some(seat) => self.attach(seat, outbox.clone()),
            None if self.private => {
                self.refuse(&re, &outbox, Code::NotFound, format!("no room {}", self.id));
                return false;
            }
            // A watcher whose connection dropped carries on watching; `resume` never makes
            // anyone a spectator who was not one.
            None if self.watched_by.contains(&player.id) => {
                if !self.add_spectator(&re, player.id, &outbox) {
                    return false;
                }
            }
            None => {
                self.refuse(
                    &re,
                    &outbox,
                    Code::NotAPlayer,
                    format!("you are not in room {}: spectate it to watch", self.id),
                );
                return false;
            }
        }
        // Replaying more than fits in the client's send queue would only get it dropped as
        // slow: past that, a snapshot.
        let limit = MAX_RESUME.min(self.shared.send_queue * 3 / 4);
        let missed = self.seq - since;
        if missed as usize > limit {
            outbox.send(self.snapshot(&re, seat));
            return true;
        }
        match crate::store::blocking(|| self.shared.store.events(&self.id, since, limit)) {
            Ok(events) => {
                for (seq, ev) in events {
                    outbox.send(protocol::event_frame(&self.id, seq, &ev));
                }
            }
            Err(e) => {
                tracing::warn!(room = %self.id, "resume from store failed: {e}");
                outbox.send(self.snapshot(&re, seat));
            }
        }
        true
    }

    fn detach(&mut self, conn: u64) {
        let now = self.shared.clock.now_ms();
        let hold = self.hold();
        let mut changed = self.spectators.remove(&conn).is_some();
        for o in self.seats.values_mut() {
            if o.conn.as_ref().is_some_and(|c| c.id == conn) {
                o.conn = None;
                o.hold_until = Some(now.saturating_add(hold));
                changed = true;
            }
        }
        if changed {
            self.pause_clock_while_away(now);
            self.publish();
        }
    }

    async fn on_timer(&mut self) {
        let now = self.shared.clock.now_ms();
        let expired: Vec<Seat> = self
            .seats
            .iter()
            .filter(|(_, o)| o.hold_until.is_some_and(|t| t <= now))
            .map(|(s, _)| *s)
            .collect();
        for seat in expired {
            self.vacate(seat).await;
        }
        // A late wake-up may find both the turn clock and the bank run out.
        for _ in 0..2 {
            match self.clock.deadline {
                Some(at) if at <= now && self.status == Status::Playing => {
                    self.clock_expired(at).await
                }
                _ => break,
            }
        }
        self.publish();
    }

    /// Starts timing a new turn when the mover or round changed; settles a time bank.
    fn arm_clock(&mut self, now: Millis) {
        if self.status != Status::Playing {
            self.clock.deadline = None;
            return;
        }
        let turn = (self.table.mover(), self.table.round());
        if self.clock.turn == Some(turn) {
            return;
        }
        if let (Some((seat, _)), Some(since)) = (self.clock.turn, self.clock.overdraft_since) {
            if let Some(bank) = self.clock.banks.get_mut(&seat) {
                *bank = bank.saturating_sub(now.saturating_sub(since));
            }
        }
        self.clock.turn = Some(turn);
        self.clock.overdraft_since = None;
        self.clock.deadline = self.options.turn_clock.map(|ms| now.saturating_add(ms));
    }

    /// The turn clock (or the bank) ran out at `now`, the deadline itself.
    async fn clock_expired(&mut self, now: Millis) {
        let seat = self.table.mover();
        if self.options.time_bank.is_some() {
            if self.clock.overdraft_since.is_none() {
                let left = self.clock.banks.get(&seat).copied().unwrap_or(0);
                if left > 0 {
                    self.clock.overdraft_since = Some(now);
                    self.clock.deadline = Some(now.saturating_add(left));
                    return;
                }
            }
            self.clock.banks.insert(seat, 0);
            self.forfeit(seat).await;
            return;
        }
        self.clock.deadline = None;
        let timeout = self.table.timeout_action();
        self.step(seat, timeout, now, None).await;
    }

    /// `seat` ran out of time: the other side wins (no winner with several other sides).
    async fn forfeit(&mut self, seat: Seat) {
        let result = self.table.forfeit(seat);
        let mut ev = self.over_event(result.clone());
        ev["reason"] = json!("time");
        ev["seat"] = json!(seat.0);
        self.result = Some(result);
        if self.emit(vec![ev.to_string()], None).await.is_ok() {
            self.finish();
        }
    }

    fn finish(&mut self) {
        self.status = Status::Finished;
        self.clock.deadline = None;
        self.set_status("finished");
        for o in self.seats.values() {
            self.shared.lobby.free_seat(&o.player.id, &self.id);
        }
    }

    fn set_status(&self, status: &str) {
        let now = self.shared.clock.now_ms();
        if let Err(e) =
            crate::store::blocking(|| self.shared.store.set_status(&self.id, status, now))
        {
            tracing::error!(room = %self.id, "could not store status {status}: {e}");
        }
    }

    /// Stores `evs` (with the action that caused them) under the next seqs, waits for the
    /// group commit that holds them, then sends each, serialized once, to every member.
    /// Nothing is sent if the store refuses. The room takes no other command meanwhile, so
    /// nobody sees a state that is not stored.
    async fn emit(
        &mut self,
        evs: Vec<String>,
        action: Option<ActionRecord>,
    ) -> Result<(), StoreError> {
        let mut events = Vec::with_capacity(evs.len());
        let mut frames = Vec::with_capacity(evs.len());
        for (i, text) in evs.into_iter().enumerate() {
            let seq = self.seq + 1 + i as u64;
            frames.push(protocol::event_frame(&self.id, seq, &text));
            events.push((seq, text));
        }
        let seq = self.seq + frames.len() as u64;
        let append = Append {
            room: self.id.clone(),
            n: self.appends + 1,
            action,
            events,
            seq,
        };
        self.shared.store.append(append).wait().await?;
        self.appends += 1;
        self.seq = seq;
        self.shared
            .metrics
            .events_total
            .fetch_add(frames.len() as u64, std::sync::atomic::Ordering::Relaxed);
        for frame in &frames {
            self.broadcast(frame);
        }
        Ok(())
    }

    /// Sends a frame to every member. A member whose queue is full has been disconnected by
    /// its outbox; it is dropped here too and may `resume` later.
    fn broadcast(&mut self, frame: &Frame) {
        let now = self.shared.clock.now_ms();
        let hold = self.hold();
        let mut lost = false;
        for o in self.seats.values_mut() {
            if let Some(conn) = &o.conn {
                if !conn.send(frame.clone()) {
                    o.conn = None;
                    o.hold_until = Some(now.saturating_add(hold));
                    lost = true;
                }
            }
        }
        self.spectators.retain(|_, conn| conn.send(frame.clone()));
        if lost {
            self.pause_clock_while_away(now);
        }
    }

    /// The room as it is now, for one recipient: `seat` gets his own hidden choices (Algol's
    /// secret man), if he made them, and nobody else's.
    fn snapshot(&self, re: &ReplyTo, seat: Option<Seat>) -> Frame {
        let mut seats = Map::new();
        for info in self.table.seats() {
            let v = match self.seats.get(&info.seat) {
                Some(o) => json!({"player": &*o.player.id, "name": &*o.player.name,
                                  "colour": info.colour, "connected": o.conn.is_some()}),
                None => Value::Null,
            };
            seats.insert(info.seat.to_string(), v);
        }
        let mut body = json!({
            "t": "snapshot", "room": &*self.id, "seq": self.seq,
            "game": self.game_id, "options": self.options_json,
            "status": self.status.as_str(), "seats": seats,
            "spectators": self.spectators.len(),
            "position": self.table.position(),
            "turn": self.table.turn(), "scores": self.table.scores(),
        });
        if let Some(result) = self.table.result().or_else(|| self.result.clone()) {
            body["result"] = result;
        }
        // A later occupant of the seat does not see what the last one chose.
        let chooser = seat.filter(|s| {
            let owner = self.secret_owners.get(s);
            owner.is_some() && owner == self.seats.get(s).map(|o| &o.player.id)
        });
        if let Value::Object(body) = &mut body {
            body.extend(self.table.view(chooser));
        }
        protocol::reply(re, body)
    }

    fn publish(&mut self) {
        // Called after every timer and seat change: compare what the listing shows before
        // building any JSON.
        let seen = Published {
            status: self.status.as_str(),
            seats: self
                .table
                .seats()
                .iter()
                .map(|info| self.seats.get(&info.seat).map(|o| o.player.name.clone()))
                .collect(),
            spectators: self.spectators.len(),
        };
        if self.published.as_ref() == Some(&seen) {
            return;
        }
        let mut seats = Map::new();
        for (info, name) in self.table.seats().iter().zip(&seen.seats) {
            let name = name.as_ref().map(|n| json!(&**n));
            seats.insert(info.seat.to_string(), name.unwrap_or(Value::Null));
        }
        let summary = json!({"room": &*self.id, "game": self.game_id,
            "status": self.status.as_str(), "seats": seats,
            "spectators": self.spectators.len(), "options": self.options_json});
        self.published = Some(seen);
        self.shared.lobby.publish(
            &self.id,
            Some((self.status.as_str(), self.private, summary)),
        );
    }
}

/// What a room's lobby listing shows that can change: compared before a listing is rebuilt.
#[derive(Debug, PartialEq, Eq)]
struct Published {
    /// `waiting`, `playing`, `finished`.
    status: &'static str,
    /// Each seat's player name, in seat order.
    seats: Vec<Option<Arc<str>>>,
    /// How many watch.
    spectators: usize,
}
