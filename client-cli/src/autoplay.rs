//! A bot at a server: joins by quick match or by room id, follows the room event by event
//! (with its own copy of the game, [`crate::mirror`]), asks [`crate::bot::Bot`] what to do
//! whenever it is its turn and the events of the last step are all in, claims a chain made
//! for it the moment it appears, and returns when the game is over. In an Orbit or Orbs room
//! it follows the room with [`SystemRoom`] (an engine copy fed the `move` events) and plays
//! the policies of [`crate::bot::orbit`] and [`crate::bot::orbs`]. With `ORION_BOT_DEBUG`
//! set in the environment it prints every event, request and refusal to stderr.

use crate::bot::orbit::OrbitBot;
use crate::bot::orbs::OrbsBot;
use crate::bot::{self, Bot, Level};
use crate::mirror::Mirror;
use crate::net::{self, NetEvent, TokenStore};
use crate::room::{RoomState, Status};
use crate::system::{orbs::seat as orbs_seat, GameCopy, SystemRoom};
use crate::wire::seat as engine_seat;
use orion_engine::{parse_piece, Action, Colour, Seat};
use orion_protocol::{Code, Event as Ev, Message as Incoming, Request, Seat as WireSeat};

/// How the bot finds its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Quick match in a game, with a player count.
    Quick {
        /// Game id.
        game: String,
        /// Players.
        players: Option<u8>,
    },
    /// A seat in this room.
    Room(String),
}

/// What the bot needs to play.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// `ws://HOST:PORT/ws`.
    pub server: String,
    /// Display name.
    pub name: String,
    /// How it plays.
    pub level: Level,
    /// How it finds its game.
    pub entry: Entry,
    /// Seed of its random choices.
    pub seed: u64,
}

/// How a bot's game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Room id.
    pub room: String,
    /// The bot's seat.
    pub seat: WireSeat,
    /// The winner (`S`, or a team `S+N`), `None` for a draw.
    pub winner: Option<String>,
    /// Final scores per seat letter.
    pub scores: Vec<(String, u64)>,
    /// Moves the server refused (a bot that knows the rules makes few).
    pub refused: u32,
    /// Times the connection dropped and was resumed.
    pub reconnects: u32,
    /// Requests the bot sent in the room: how long its game was.
    pub requests: u32,
}

impl Report {
    /// Whether the bot's seat won (alone or with its team).
    pub fn won(&self) -> bool {
        self.winner
            .as_deref()
            .is_some_and(|w| w.split('+').any(|s| WireSeat::parse(s) == Some(self.seat)))
    }

    /// One line for the terminal.
    pub fn line(&self) -> String {
        let scores: Vec<String> = self
            .scores
            .iter()
            .map(|(s, p)| format!("{s} {p}"))
            .collect();
        format!(
            "room {}: seat {}, winner {}, scores [{}], {} ({} requests, {} refused)",
            self.room,
            self.seat,
            self.winner.as_deref().unwrap_or("none (draw)"),
            scores.join(", "),
            if self.won() { "won" } else { "did not win" },
            self.requests,
            self.refused
        )
    }
}

/// Turns a bot's action into the request that asks for it.
pub fn request(room: &str, action: Action) -> Request {
    let room = room.to_string();
    match action {
        Action::Click { click, piece } => Request::Click {
            room,
            click: click.to_string(),
            piece: piece.map(|p| p.to_string()),
        },
        Action::Place { slot, from } => Request::Place {
            room,
            slot: slot.to_string(),
            from: from.map(|s| s.to_string()),
        },
        Action::EndTurn | Action::Timeout => Request::EndTurn { room },
        Action::Roll => Request::Roll { room },
        Action::Three => Request::Three { room },
        Action::Claim => Request::Claim { room },
        Action::Secret { piece } => Request::Secret {
            room,
            piece: piece.to_string(),
        },
        Action::Challenge { piece } => Request::Challenge {
            room,
            piece: piece.to_string(),
        },
    }
}

/// The server's request rate (PROTOCOL: flooders are refused, then closed), kept a little
/// under so a bot is never refused for speed.
const RATE_PER_SEC: f64 = 18.0;
/// Requests that may go at once.
const RATE_BURST: f64 = 30.0;

/// A token bucket pacing the bot's requests.
struct Bucket {
    tokens: f64,
    at: tokio::time::Instant,
}

impl Bucket {
    fn new() -> Bucket {
        Bucket {
            tokens: RATE_BURST,
            at: tokio::time::Instant::now(),
        }
    }

    /// Waits until a request may go, without taking it.
    async fn ready(&mut self) {
        let now = tokio::time::Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * RATE_PER_SEC;
        self.tokens = (self.tokens + refill).min(RATE_BURST);
        self.at = now;
        if self.tokens < 1.0 {
            let wait = (1.0 - self.tokens) / RATE_PER_SEC;
            tokio::time::sleep(std::time::Duration::from_secs_f64(wait)).await;
            self.tokens = 1.0;
            self.at = tokio::time::Instant::now();
        }
    }

    /// Waits until a request may go, and takes it.
    async fn take(&mut self) {
        self.ready().await;
        self.tokens -= 1.0;
    }
}

/// Runs the bot's thinking (a search can take a while) where it does not hold up the other
/// tasks of a multi-threaded runtime, such as a server in the same process.
fn think<T>(f: impl FnOnce() -> T) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    let threaded =
        Handle::try_current().is_ok_and(|h| h.runtime_flavor() == RuntimeFlavor::MultiThread);
    if threaded {
        tokio::task::block_in_place(f)
    } else {
        f()
    }
}

/// Silence after which a bot waiting on a reply looks at the room again.
const QUIET: std::time::Duration = std::time::Duration::from_secs(2);

/// Refusals in a row after which the bot stops trying until something happens.
const MAX_REFUSALS: u32 = 6;

/// Plays one game and reports how it ended.
pub async fn run(config: BotConfig) -> Result<Report, String> {
    let mut client = net::connect(&config.server, &config.name, TokenStore::Memory).await?;
    let first = match &config.entry {
        Entry::Quick { game, players } => Request::Quick {
            game: game.clone(),
            players: *players,
        },
        Entry::Room(room) => Request::Join {
            room: Some(room.clone()),
            code: None,
            seat: None,
        },
    };
    if !client.send(first).await {
        return Err("the connection closed".to_string());
    }
    let mut me = Player {
        bot: Bot::new(config.level, config.seed),
        level: config.level,
        seed: config.seed,
        room: None,
        seat: None,
        wire_seat: None,
        other: None,
        other_bot: None,
        acted_round: None,
        state: None,
        mirror: Mirror::new(None),
        secret_sent: false,
        pending: false,
        refused: 0,
        in_a_row: 0,
        failed: Vec::new(),
        out: Vec::new(),
        ready_needed: matches!(config.entry, Entry::Room(_)),
        retry: None,
        reconnects: 0,
        quiet: false,
        requests: 0,
        resumed_from: None,
    };
    let mut bucket = Bucket::new();
    loop {
        match tokio::time::timeout(QUIET, client.recv()).await {
            Ok(Some(ev)) => me.handle(ev)?,
            Ok(None) => return Err("the connection closed".to_string()),
            // Nothing for a while: whatever we were waiting for is not coming.
            Err(_) => {
                me.pending = false;
                me.quiet = true;
            }
        }
        while let Ok(ev) = client.rx.try_recv() {
            me.handle(ev)?;
        }
        if let Some(report) = me.finished() {
            return Ok(report);
        }
        // Decide only once a request may go at once: a decision sent after a wait could be
        // about a room that has moved on meanwhile.
        bucket.ready().await;
        while let Ok(ev) = client.rx.try_recv() {
            me.handle(ev)?;
        }
        if let Some(report) = me.finished() {
            return Ok(report);
        }
        think(|| me.decide());
        for r in me.out.drain(..) {
            if std::env::var_os("ORION_BOT_DEBUG").is_some() {
                let seq = me.state.as_ref().map_or(0, |s| s.seq());
                eprintln!("DEBUG {:?} at {seq} sends {}", me.seat, r.to_json());
            }
            bucket.take().await;
            me.requests += 1;
            if !client.send(r).await {
                return Err("the connection closed".to_string());
            }
        }
    }
}

/// The bot's side of the room.
struct Player {
    bot: Bot,
    /// How it plays, and the seed of its choices (for the Orbit and Orbs bots).
    level: Level,
    seed: u64,
    room: Option<String>,
    seat: Option<Seat>,
    /// The seat as the wire names it (Orbs's seats are no ORION seats).
    wire_seat: Option<WireSeat>,
    /// The room, when it is an Orbit or Orbs room (then `state` stays `None`).
    other: Option<SystemRoom>,
    /// The Orbit or Orbs policy.
    other_bot: Option<OtherBot>,
    /// The round (move number) of the last move sent in an Orbit or Orbs room: one move per
    /// turn, until the room's next `turn` (or a refusal).
    acted_round: Option<u32>,
    state: Option<RoomState>,
    /// The bot's copy of the game, for the engine to judge its moves.
    mirror: Mirror,
    /// A secret man was asked for (Algol): never twice.
    secret_sent: bool,
    /// An action was sent and neither its event nor its refusal has come back.
    pending: bool,
    refused: u32,
    /// Refusals since the last event.
    in_a_row: u32,
    /// Actions refused since the last event, not to be tried again.
    failed: Vec<Action>,
    /// Requests to send.
    out: Vec<Request>,
    /// Joined by room id: say `ready` once seated.
    ready_needed: bool,
    /// An action refused for the rate only, to send again.
    retry: Option<Action>,
    /// Reconnections so far.
    reconnects: u32,
    /// Nothing has come for a while: stop waiting for the rest of a step.
    quiet: bool,
    /// Requests sent in the room.
    requests: u32,
    /// The seq a `resume` was last asked from after a gap (asked once per gap).
    resumed_from: Option<u64>,
}

impl Player {
    fn my_colour(&self) -> Option<Colour> {
        let s = self.state.as_ref()?;
        s.colour_of(self.seat?)
    }

    fn handle(&mut self, ev: NetEvent) -> Result<(), String> {
        let msg = match ev {
            NetEvent::Message(m) => m,
            NetEvent::Gone(why) => return Err(why),
            NetEvent::Welcome { again: true, .. } => {
                self.reconnects += 1;
                // Whatever was in flight may be lost: ask again once the room catches up.
                self.pending = false;
                return Ok(());
            }
            NetEvent::Dropped(_) | NetEvent::Welcome { .. } => return Ok(()),
            NetEvent::Malformed(why) => {
                if std::env::var_os("ORION_BOT_DEBUG").is_some() {
                    eprintln!("DEBUG {:?} got a malformed frame: {why}", self.seat);
                }
                return Ok(());
            }
        };
        match msg {
            Incoming::Joined { room, seat, .. }
                if self.room.as_deref().is_none_or(|r| r == room) =>
            {
                self.wire_seat = Some(seat);
                self.seat = engine_seat(seat);
                if let Some(seat) = self.seat {
                    self.mirror.seat(seat);
                }
                if self.ready_needed {
                    self.out.push(Request::Ready { room: room.clone() });
                    self.ready_needed = false;
                }
                self.room = Some(room);
            }
            Incoming::Snapshot(snap) if self.room.as_deref() == Some(snap.room.as_str()) => {
                if let Some(other) = SystemRoom::from_snapshot(&snap, self.wire_seat) {
                    if self.other_bot.is_none() {
                        self.other_bot = Some(if other.game() == "orbit" {
                            OtherBot::Orbit(OrbitBot::new(self.level, self.seed))
                        } else {
                            OtherBot::Orbs(OrbsBot::new(self.level, self.seed))
                        });
                    }
                    self.other = Some(other);
                    self.pending = false;
                    self.acted_round = None;
                    return Ok(());
                }
                let state = RoomState::from_snapshot(&snap, self.seat);
                if let Some(piece) = snap.secret.as_deref().and_then(|p| parse_piece(p).ok()) {
                    self.mirror.secret(piece);
                    self.secret_sent = true;
                }
                self.mirror.reset(&state);
                self.state = Some(state);
                self.pending = false;
            }
            Incoming::Event { room, seq, ev } => {
                if self.room.as_deref() != Some(&*room) {
                    return Ok(());
                }
                if std::env::var_os("ORION_BOT_DEBUG").is_some() {
                    eprintln!("DEBUG {:?} in {room} sees {seq} {ev:?}", self.wire_seat);
                }
                if let Some(other) = self.other.as_mut() {
                    if let Err(gap) = other.apply(seq, &ev) {
                        if std::env::var_os("ORION_BOT_DEBUG").is_some() {
                            eprintln!("DEBUG {:?} in {room}: {gap}", self.wire_seat);
                        }
                        if self.resumed_from != Some(other.seq()) {
                            self.resumed_from = Some(other.seq());
                            self.out.push(Request::Resume {
                                room: room.to_string(),
                                since: other.seq(),
                            });
                        }
                        return Ok(());
                    }
                    self.pending = false;
                    self.quiet = false;
                    self.in_a_row = 0;
                    return Ok(());
                }
                if let Some(s) = self.state.as_mut() {
                    // A resume may repeat events the room has already seen.
                    if seq > s.seq() {
                        match s.apply(seq, &ev) {
                            Ok(()) => self.mirror.follow(s, &ev),
                            Err(gap) => {
                                // Events went missing: catch up from the last one applied.
                                if std::env::var_os("ORION_BOT_DEBUG").is_some() {
                                    eprintln!("DEBUG {:?} in {room}: {gap}", self.seat);
                                }
                                // Once per gap: the events after it are missing the same one.
                                if self.resumed_from != Some(s.seq()) {
                                    self.resumed_from = Some(s.seq());
                                    self.out.push(Request::Resume {
                                        room: room.to_string(),
                                        since: s.seq(),
                                    });
                                }
                                return Ok(());
                            }
                        }
                    }
                }
                self.pending = false;
                self.quiet = false;
                self.in_a_row = 0;
                self.failed.clear();
                // A move refused for the rate is decided afresh in the room as it now is.
                self.retry = None;
                if let Ev::Chain {
                    colour,
                    claim_until: Some(_),
                } = &ev
                {
                    if Colour::parse(colour).is_some() && Colour::parse(colour) == self.my_colour()
                    {
                        self.out.push(Request::Claim {
                            room: room.into_owned(),
                        });
                    }
                }
            }
            Incoming::Error {
                code: Code::RateLimited,
                ..
            } => {
                if std::env::var_os("ORION_BOT_DEBUG").is_some() {
                    eprintln!(
                        "DEBUG {:?} rate limited {:?}",
                        self.seat,
                        self.failed.last()
                    );
                }
                // Not a judgement on the move: send it again once the bucket has refilled.
                self.pending = false;
                if let Some(a) = self.failed.pop() {
                    self.retry = Some(a);
                }
            }
            Incoming::Error { message, .. } => {
                if std::env::var_os("ORION_BOT_DEBUG").is_some() {
                    let room = self.room.as_deref().unwrap_or("-");
                    let last = self.failed.last();
                    eprintln!(
                        "DEBUG {:?} in {room} refused {last:?}: {message}",
                        self.seat
                    );
                }
                self.pending = false;
                self.refused += 1;
                self.in_a_row += 1;
                if let Some(other) = self.other.as_mut() {
                    // The copy may have lost the thread: set it up again, and decide afresh.
                    other.rebuild();
                    self.acted_round = None;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn finished(&self) -> Option<Report> {
        if let Some(o) = &self.other {
            if o.status() != Status::Finished {
                return None;
            }
            let result = o.view.result.as_ref()?;
            return Some(Report {
                room: o.room().to_string(),
                seat: self.wire_seat?,
                winner: result.winner.as_ref().map(|w| w.to_string()),
                scores: result
                    .scores
                    .iter()
                    .map(|(s, p)| (s.to_string(), u64::from(*p)))
                    .collect(),
                refused: self.refused,
                reconnects: self.reconnects,
                requests: self.requests,
            });
        }
        let s = self.state.as_ref()?;
        if s.status() != Status::Finished {
            return None;
        }
        Some(Report {
            room: s.room().to_string(),
            seat: self.wire_seat?,
            winner: s
                .result()
                .and_then(|r| r.winner.as_ref().map(|w| w.to_string())),
            scores: s
                .seats()
                .iter()
                .map(|x| (x.seat.to_string(), x.score))
                .collect(),
            refused: self.refused,
            reconnects: self.reconnects,
            requests: self.requests,
        })
    }

    /// Whether the room is in the middle of a step whose other events are still on their way
    /// (the server sends them one by one): a turn whose clicks are used up with nothing to
    /// build ends by itself, and the copy of the game may know the step's end already.
    fn mid_step(&self, state: &RoomState) -> bool {
        let allowed = state.clicks().unwrap_or(0);
        let used_up = allowed > 0 && state.used() >= allowed && state.eligible().is_empty();
        used_up || self.mirror.ahead(state)
    }

    fn decide(&mut self) {
        if self.pending {
            return;
        }
        if self.other.is_some() {
            return self.decide_other();
        }
        let Some(state) = self.state.as_ref() else {
            return;
        };
        let room = state.room().to_string();
        if !self.secret_sent && state.status() == Status::Playing {
            // Algol: the secret man is chosen at the start, whoever's turn it is.
            let sit = bot::situation(state, self.mirror.game(state));
            if let Some(a @ Action::Secret { piece }) = sit.and_then(|s| self.bot.secret(&s)) {
                self.secret_sent = true;
                self.mirror.secret(piece);
                self.out.push(request(&room, a));
                self.pending = true;
                return;
            }
        }
        if !state.my_turn() {
            return;
        }
        if !self.quiet && self.mid_step(state) {
            return;
        }
        if let Some(a) = self.retry.take() {
            self.failed.push(a);
            self.out.push(request(&room, a));
            self.pending = true;
            return;
        }
        if self.in_a_row >= MAX_REFUSALS {
            // Lost: give the turn up rather than stall the table.
            self.in_a_row = 0;
            self.out.push(Request::EndTurn { room });
            self.pending = true;
            return;
        }
        let Some(sit) = bot::situation(state, self.mirror.game(state)) else {
            return;
        };
        let mut action = self.bot.act(&sit);
        if action.is_none_or(|a| self.failed.contains(&a)) {
            // The server refused it: end the turn (it cannot hand anyone a chain) if the move
            // may end, else any other action a random player would take.
            action = if self.failed.contains(&Action::EndTurn) || !sit.may_end() {
                let mut other = None;
                for i in 0..20u64 {
                    let a = Bot::new(Level::Random, u64::from(self.refused) * 64 + i).act(&sit);
                    if a.is_some_and(|a| !self.failed.contains(&a)) {
                        other = a;
                        break;
                    }
                }
                if other.is_none() {
                    // Everything refused: start over rather than stall the table.
                    self.failed.clear();
                }
                other
            } else {
                Some(Action::EndTurn)
            };
        }
        if let Some(a) = action {
            self.failed.push(a);
            self.out.push(request(&room, a));
            self.pending = true;
        }
    }
}

/// The policy of an Orbit or Orbs bot.
enum OtherBot {
    /// Orbit.
    Orbit(OrbitBot),
    /// Orbs.
    Orbs(OrbsBot),
}

impl Player {
    /// The move of an Orbit or Orbs bot, once per turn of its own: the policy's choice in the
    /// copy of the game. After a refusal the copy is set up again from the room; after two,
    /// a random legal move is tried instead.
    fn decide_other(&mut self) {
        let (Some(room), Some(me)) = (self.other.as_mut(), self.wire_seat) else {
            return;
        };
        if room.status() != Status::Playing || !room.my_turn() {
            return;
        }
        let round = room.view.turn.round;
        if self.acted_round == Some(round) || self.in_a_row >= MAX_REFUSALS {
            return;
        }
        if !copy_moves(&room.copy, me) {
            // The room says it is our turn and the copy does not: the room is right.
            room.rebuild();
            if !copy_moves(&room.copy, me) {
                return;
            }
        }
        let fallback = self.in_a_row >= 2;
        let seed = self.seed ^ (u64::from(self.refused) << 32);
        let mv = match (&room.copy, self.other_bot.as_mut()) {
            (GameCopy::Orbit(o), Some(OtherBot::Orbit(b))) => if fallback {
                OrbitBot::new(Level::Random, seed).choose(&o.game)
            } else {
                b.choose(&o.game)
            }
            .map(|m| m.to_string()),
            (GameCopy::Orbs(o), Some(OtherBot::Orbs(b))) => o.game.as_ref().and_then(|g| {
                if fallback {
                    OrbsBot::new(Level::Random, seed).choose(g)
                } else {
                    b.choose(g)
                }
                .map(|m| m.to_string())
            }),
            _ => None,
        };
        let Some(mv) = mv else {
            return;
        };
        self.acted_round = Some(round);
        self.out.push(Request::Move {
            room: room.room().to_string(),
            mv,
        });
        self.pending = true;
    }
}

/// Whether the copy of the game has `me` to move.
fn copy_moves(copy: &GameCopy, me: WireSeat) -> bool {
    match copy {
        GameCopy::Orbit(o) => match o.game.turn() {
            orion_orbit::Turn::Opening { .. } => me == WireSeat::S,
            orion_orbit::Turn::Choice => me == WireSeat::N,
            orion_orbit::Turn::Play(c) => o.colour_of(me) == Some(c),
            orion_orbit::Turn::Over => false,
        },
        GameCopy::Orbs(o) => o
            .game
            .as_ref()
            .is_some_and(|g| g.mover().is_some() && g.mover() == orbs_seat(me)),
    }
}
