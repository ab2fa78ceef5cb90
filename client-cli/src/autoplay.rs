//! A bot at a server: joins by quick match or by room id, follows the room event by event
//! through its game system's [`Player`] (the system's copy of the game and its policy),
//! asks it what to send whenever the room has caught up, paces its requests under the
//! server's rate, resumes after a gap or a dropped connection, and returns when the game is
//! over. With `ORION_BOT_DEBUG` set in the environment it prints every event, request and
//! refusal to stderr.

use crate::bot::Level;
use crate::net::{self, NetEvent, TokenStore};
use crate::systems::{self, Player as SystemPlayer, Tries};
use orion_protocol::{Code, Message as Incoming, Request, Seat as WireSeat};

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

/// Whether to print what the bot sees and does.
fn debug() -> bool {
    std::env::var_os("ORION_BOT_DEBUG").is_some()
}

/// Plays one game and reports how it ended.
pub async fn run(config: BotConfig) -> Result<Report, String> {
    let mut client = net::connect(&config.server, &config.name, TokenStore::Memory).await?;
    let first = match &config.entry {
        Entry::Quick { game, players } => Request::Quick {
            game: game.clone(),
            players: *players,
            bots: None,
            days_per_move: None,
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
        level: config.level,
        seed: config.seed,
        room: None,
        seat: None,
        player: None,
        pending: false,
        tries: Tries::default(),
        out: Vec::new(),
        ready_needed: matches!(config.entry, Entry::Room(_)),
        reconnects: 0,
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
                me.tries.quiet = true;
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
            if debug() {
                let seq = me.player.as_ref().and_then(|p| p.seq()).unwrap_or(0);
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

/// The bot's side of the room, whatever its game system.
struct Player {
    /// How it plays, and the seed of its choices (for its system's player, made at the
    /// room's first snapshot).
    level: Level,
    seed: u64,
    /// The room, once joined.
    room: Option<String>,
    /// The seat, once joined.
    seat: Option<WireSeat>,
    /// The room's game system's player, once the snapshot has said which game it is.
    player: Option<Box<dyn SystemPlayer>>,
    /// A request was sent and neither its event nor its refusal has come back.
    pending: bool,
    /// Quiet, refusals in a row and in all.
    tries: Tries,
    /// Requests to send.
    out: Vec<Request>,
    /// Joined by room id: say `ready` once seated.
    ready_needed: bool,
    /// Reconnections so far.
    reconnects: u32,
    /// Requests sent in the room.
    requests: u32,
    /// The seq a `resume` was last asked from after a gap (asked once per gap).
    resumed_from: Option<u64>,
}

impl Player {
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
                if debug() {
                    eprintln!("DEBUG {:?} got a malformed frame: {why}", self.seat);
                }
                return Ok(());
            }
        };
        match msg {
            Incoming::Joined { room, seat, .. }
                if self.room.as_deref().is_none_or(|r| r == room) =>
            {
                self.seat = Some(seat);
                if let Some(p) = self.player.as_mut() {
                    p.joined(seat);
                }
                if self.ready_needed {
                    self.out.push(Request::Ready { room: room.clone() });
                    self.ready_needed = false;
                }
                self.room = Some(room);
            }
            Incoming::Snapshot(snap) if self.room.as_deref() == Some(snap.room.as_str()) => {
                let player = self.player.get_or_insert_with(|| {
                    let system =
                        systems::named(&snap.game).map_or_else(systems::default, |(s, _)| s);
                    system.player(self.level, self.seed)
                });
                if let Some(seat) = self.seat {
                    player.joined(seat);
                }
                player.snapshot(&snap);
                self.pending = false;
            }
            Incoming::Event { room, seq, ev } => {
                if self.room.as_deref() != Some(&*room) {
                    return Ok(());
                }
                if debug() {
                    eprintln!("DEBUG {:?} in {room} sees {seq} {ev:?}", self.seat);
                }
                let followed = match self.player.as_mut() {
                    Some(p) => p.event(seq, &ev),
                    None => Ok(Vec::new()),
                };
                match followed {
                    Ok(requests) => {
                        self.pending = false;
                        self.tries.quiet = false;
                        self.tries.in_a_row = 0;
                        self.out.extend(requests);
                    }
                    Err(gap) => {
                        // Events went missing: catch up from the last one applied, once per
                        // gap (the events after it are missing the same one).
                        if debug() {
                            eprintln!("DEBUG {:?} in {room}: {gap}", self.seat);
                        }
                        let since = self.player.as_ref().and_then(|p| p.seq()).unwrap_or(0);
                        if self.resumed_from != Some(since) {
                            self.resumed_from = Some(since);
                            self.out.push(Request::Resume {
                                room: room.to_string(),
                                since,
                            });
                        }
                    }
                }
            }
            Incoming::Error {
                code: Code::RateLimited,
                ..
            } => {
                if debug() {
                    eprintln!("DEBUG {:?} rate limited", self.seat);
                }
                // Not a judgement on the move: send it again once the bucket has refilled.
                self.pending = false;
                if let Some(p) = self.player.as_mut() {
                    p.rate_limited();
                }
            }
            Incoming::Error { message, .. } => {
                if debug() {
                    let room = self.room.as_deref().unwrap_or("-");
                    eprintln!("DEBUG {:?} in {room} refused: {message}", self.seat);
                }
                self.pending = false;
                self.tries.refused += 1;
                self.tries.in_a_row += 1;
                if let Some(p) = self.player.as_mut() {
                    p.refused();
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn finished(&self) -> Option<Report> {
        let ending = self.player.as_ref()?.ending()?;
        Some(Report {
            room: ending.room,
            seat: self.seat?,
            winner: ending.winner,
            scores: ending.scores,
            refused: self.tries.refused,
            reconnects: self.reconnects,
            requests: self.requests,
        })
    }

    fn decide(&mut self) {
        if self.pending {
            return;
        }
        let Some(p) = self.player.as_mut() else {
            return;
        };
        if let Some(r) = p.decide(&mut self.tries) {
            self.out.push(r);
            self.pending = true;
        }
    }
}
