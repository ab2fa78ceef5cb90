//! Rooms of the other game systems on the lobby, Orbit and Orbs: the protocol's [`RoomView`]
//! (seats, turn, result) with the client's copy of the game fed the room's `move` events
//! ([`orbit::OrbitCopy`], [`orbs::OrbsCopy`]), the last move, a standing draw offer and a log
//! in words. The terminal UI draws it and the bots play from it. When an event does not
//! follow from the copy (it never should), the copy is set up again from the view and
//! [`SystemRoom::resyncs`] counts it.

pub mod orbit;
pub mod orbs;

use orion_protocol::{Event as Ev, Gap, Request, RoomView, Seat as WireSeat, Snapshot, Status};
use std::collections::VecDeque;

/// Most log lines kept.
pub const MAX_LOG: usize = 500;

/// Whether `game` is one of the systems this module follows.
pub fn is_system(game: &str) -> bool {
    matches!(game, "orbit" | "orbs")
}

/// The game's copy, by system.
#[derive(Clone, Debug)]
pub enum GameCopy {
    /// Orbit.
    Orbit(orbit::OrbitCopy),
    /// Orbs.
    Orbs(Box<orbs::OrbsCopy>),
}

impl GameCopy {
    fn from_view(view: &RoomView) -> GameCopy {
        if view.game == "orbit" {
            GameCopy::Orbit(orbit::OrbitCopy::from_view(view))
        } else {
            GameCopy::Orbs(Box::new(orbs::OrbsCopy::from_view(view)))
        }
    }
}

/// One seat as the screen lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatLine {
    /// The seat.
    pub seat: WireSeat,
    /// Its colour's letter (`B`/`W` once chosen; `R`…`P`), if known.
    pub colour: Option<char>,
    /// Who sits there.
    pub name: Option<String>,
    /// Whether the sitter is connected.
    pub connected: bool,
    /// Orbit: territory; Orbs: orbs left.
    pub score: u32,
    /// Orbs: out of the game.
    pub out: bool,
}

/// A room of Orbit or Orbs as the client knows it.
#[derive(Clone, Debug)]
pub struct SystemRoom {
    /// What the wire has said.
    pub view: RoomView,
    /// This client's seat, if it plays.
    pub me: Option<WireSeat>,
    /// The copy of the game.
    pub copy: GameCopy,
    /// The last move: who and what (`h8`, `d2-e6`, `pass`).
    pub last_move: Option<(WireSeat, String)>,
    /// Orbs: the seats agreeing to the standing draw offer (empty: none stands).
    pub draw: Vec<WireSeat>,
    /// Times the copy had to be set up again from the view.
    pub resyncs: u32,
    /// Set up again at the next `turn`: the copy lost the thread at a move.
    stale: bool,
    /// What happened, newest last.
    pub log: VecDeque<String>,
}

impl SystemRoom {
    /// The room a snapshot shows, if its game is Orbit or Orbs.
    pub fn from_snapshot(snap: &Snapshot, me: Option<WireSeat>) -> Option<SystemRoom> {
        if !is_system(&snap.game) {
            return None;
        }
        let view = RoomView::from_snapshot(snap);
        Some(SystemRoom {
            copy: GameCopy::from_view(&view),
            view,
            me,
            last_move: None,
            draw: Vec::new(),
            resyncs: 0,
            stale: false,
            log: VecDeque::new(),
        })
    }

    /// Room id.
    pub fn room(&self) -> &str {
        &self.view.room
    }

    /// Game id.
    pub fn game(&self) -> &str {
        &self.view.game
    }

    /// The last event applied.
    pub fn seq(&self) -> u64 {
        self.view.seq
    }

    /// Where the room is in its life.
    pub fn status(&self) -> Status {
        self.view.status
    }

    /// Whether it is this client's move in a game in progress.
    pub fn my_turn(&self) -> bool {
        self.me.is_some() && self.view.mover() == self.me
    }

    /// The display name of `seat` (the seat itself when free).
    pub fn name_of(&self, seat: WireSeat) -> String {
        self.view
            .seats
            .get(&seat)
            .and_then(Option::as_ref)
            .map_or_else(|| seat.to_string(), |s| s.name.clone())
    }

    /// The seats in turn order.
    pub fn seat_order(&self) -> Vec<WireSeat> {
        match &self.copy {
            GameCopy::Orbit(_) => vec![WireSeat::S, WireSeat::N],
            GameCopy::Orbs(o) => o.seats().iter().map(|&s| orbs::wire(s)).collect(),
        }
    }

    /// Every seat with its sitter, colour and score.
    pub fn seats(&self) -> Vec<SeatLine> {
        self.seat_order()
            .into_iter()
            .map(|seat| {
                let sitter = self.view.seats.get(&seat).and_then(Option::as_ref);
                let (colour, score, out) = match &self.copy {
                    GameCopy::Orbit(o) => {
                        let c = o.colour_of(seat);
                        let score = c.map_or(0, |c| o.territory()[c]);
                        (c.map(|c| c.letter()), score, false)
                    }
                    GameCopy::Orbs(o) => (
                        o.colour_of(seat).map(|c| c.letter()),
                        o.orbs_of(seat) as u32,
                        o.is_out(seat),
                    ),
                };
                SeatLine {
                    seat,
                    colour,
                    name: sitter.map(|s| s.name.clone()),
                    connected: sitter.is_some_and(|s| s.connected),
                    score,
                    out,
                }
            })
            .collect()
    }

    fn say(&mut self, line: String) {
        if self.log.len() >= MAX_LOG {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    /// Notes a line of the client's own (errors, connection news).
    pub fn note(&mut self, line: impl Into<String>) {
        self.say(line.into());
    }

    /// Sets the copy up again from the view (the room is right; the copy followed it
    /// wrongly), counted in [`SystemRoom::resyncs`].
    pub fn rebuild(&mut self) {
        self.resync();
    }

    fn resync(&mut self) {
        let last = match &self.copy {
            GameCopy::Orbit(o) => (o.last_drop, None),
            GameCopy::Orbs(o) => (None, o.last),
        };
        self.copy = GameCopy::from_view(&self.view);
        match &mut self.copy {
            GameCopy::Orbit(o) => o.last_drop = last.0,
            GameCopy::Orbs(o) => o.last = last.1,
        }
        self.resyncs += 1;
    }

    /// Applies the event numbered `seq`: a repeat is ignored, a missing one is a [`Gap`] and
    /// nothing is applied (resume from [`SystemRoom::seq`]).
    pub fn apply(&mut self, seq: u64, ev: &Ev<'_>) -> Result<(), Gap> {
        if seq <= self.view.seq {
            return Ok(());
        }
        let line = self.line(ev);
        self.view.apply(seq, ev)?;
        match ev {
            Ev::Start { .. } => {
                self.copy = GameCopy::from_view(&self.view);
                self.stale = false;
            }
            Ev::Move {
                seat, mv, position, ..
            } => {
                let forced = self.forced_pass(*seat, mv);
                let followed = match &mut self.copy {
                    GameCopy::Orbit(o) => o.follow(*seat, mv, position),
                    GameCopy::Orbs(o) => o.follow(*seat, mv, position),
                };
                if !followed {
                    self.resync();
                    self.stale = true;
                }
                self.draw.clear();
                if !forced {
                    self.last_move = Some((*seat, mv.to_string()));
                }
            }
            Ev::Turn { .. } if self.stale => {
                // The view's turn now names the seat to move: set the copy up from it.
                self.copy = GameCopy::from_view(&self.view);
                self.stale = false;
            }
            Ev::Draw { agreed, .. } => self.draw = agreed.clone(),
            Ev::Over { .. } => self.draw.clear(),
            _ => {}
        }
        let line = match ev {
            Ev::Over { result, .. } => Some(match &result.winner {
                Some(w) => format!("game over: {} wins", self.winner_name(&w.to_string())),
                None => "game over: a draw".to_string(),
            }),
            _ => line,
        };
        if let Some(line) = line {
            self.say(line);
        }
        Ok(())
    }

    /// Whether a `pass` of `seat` is Orbs passing over a seat that cannot move (the copy has
    /// passed it already), not a turn given up.
    fn forced_pass(&self, seat: WireSeat, mv: &str) -> bool {
        match &self.copy {
            GameCopy::Orbs(o) if mv == "pass" => {
                o.game.as_ref().and_then(|g| g.mover()) != orbs::seat(seat)
            }
            _ => false,
        }
    }

    /// Names for a winner (`S` or a team `S+N`).
    pub fn winner_name(&self, winner: &str) -> String {
        winner
            .split('+')
            .map(|s| WireSeat::parse(s).map_or_else(|| s.to_string(), |s| self.name_of(s)))
            .collect::<Vec<_>>()
            .join(" and ")
    }

    /// The log line of an event, said before it is applied.
    fn line(&self, ev: &Ev<'_>) -> Option<String> {
        Some(match ev {
            Ev::Joined { seat, name, .. } => format!("{name} sits at {seat}"),
            Ev::Left { seat } => format!("{} left seat {seat}", self.name_of(*seat)),
            Ev::Start { .. } => "the game starts".to_string(),
            Ev::Chat { seat, name, text } => {
                let from = seat.map_or("watching".to_string(), |s| s.to_string());
                format!("<{name} {from}> {text}")
            }
            Ev::Move {
                seat, mv, removed, ..
            } => {
                let who = self.name_of(*seat);
                let taken = if removed.is_empty() {
                    String::new()
                } else {
                    let verb = if self.game() == "orbit" {
                        "captures"
                    } else {
                        "removes"
                    };
                    format!(" · {verb} {}", removed.join(" "))
                };
                match &**mv {
                    "pass" if self.forced_pass(*seat, mv) => {
                        format!("{who} cannot move and is passed over")
                    }
                    "pass" => format!("{who} passes"),
                    "black" | "white" => format!("{who} chooses {mv}"),
                    _ => format!("{who}: {mv}{taken}"),
                }
            }
            Ev::Draw { seat, accept, .. } => {
                let who = self.name_of(*seat);
                if *accept {
                    format!("{who} accepts the draw")
                } else {
                    format!("{who} offers a draw (draw accept to agree)")
                }
            }
            _ => return None,
        })
    }

    /// A typed line as this room's move, if it is one: Orbit `h8`, `pass`, `black`/`white`;
    /// Orbs `d2-e6`, `draw`, `draw accept`. `None`: not a move (the caller reads it as a
    /// command); an error: a move written wrong.
    pub fn request(&self, line: &str) -> Option<Result<Request, String>> {
        let line = line.trim();
        let lower = line.to_ascii_lowercase();
        let room = self.room().to_string();
        let mv = |text: String| Request::Move {
            room: room.clone(),
            mv: text,
        };
        match &self.copy {
            GameCopy::Orbit(_) => {
                if matches!(lower.as_str(), "pass" | "black" | "white") {
                    return Some(Ok(mv(lower)));
                }
                let mut chars = lower.chars();
                let looks_like_cell = chars.next().is_some_and(|c| c.is_ascii_lowercase())
                    && !chars.as_str().is_empty()
                    && chars.as_str().bytes().all(|b| b.is_ascii_digit());
                if !looks_like_cell {
                    return None;
                }
                Some(
                    lower
                        .parse::<orion_orbit::Move>()
                        .map(|m| mv(m.to_string()))
                        .map_err(|e| format!("{e} (cells a1..p16, pass, black or white)")),
                )
            }
            GameCopy::Orbs(_) => match lower.as_str() {
                "draw" | "offer draw" => Some(Ok(Request::Draw { room, accept: None })),
                "draw accept" | "accept draw" | "accept" => Some(Ok(Request::Draw {
                    room,
                    accept: Some(true),
                })),
                "pass" => Some(Err(
                    "no passing in Orbs: a player passes only when no orb of his can move"
                        .to_string(),
                )),
                _ if lower.contains('-') && !lower.contains(' ') => Some(
                    lower
                        .parse::<orion_orbs::Move>()
                        .map(|m| mv(m.to_string()))
                        .map_err(|e| e.to_string()),
                ),
                _ => None,
            },
        }
    }
}
