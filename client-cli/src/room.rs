//! A room as the client sees it: the state of a snapshot, brought up to date event by event.
//! Both the terminal UI and the bots read it. It also follows what the rules need to choose a
//! legal move (the same-piece candidates, the move before, building) so a bot can ask the
//! engine what it may do without a copy of the server's game.

use crate::wire::seat as engine_seat;
use orion_engine::puzzles::TRIES;
use orion_engine::{
    games, parse_click, parse_position, parse_slot, Allowance, ClaimWindow, Click, Colour,
    LastMove, MoveState, Options, Piece, Position, PuzzleProgress, Rules, Seat, SeatInfo, SlotSet,
};
use orion_protocol::{
    ClaimWindow as WireWindow, Event as Ev, GameResult, RoomOptions, Seat as WireSeat, Snapshot,
    Status as WireStatus,
};
use std::collections::VecDeque;

/// Most log lines kept; older lines scroll away.
pub const MAX_LOG: usize = 500;

/// Where the room is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Seats are being filled.
    Waiting,
    /// The game is on.
    Playing,
    /// The game is over.
    Finished,
}

/// One seat at the table.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatState {
    /// The seat.
    pub seat: Seat,
    /// The colour it moves.
    pub colour: Colour,
    /// Who sits there.
    pub name: Option<String>,
    /// Player id of the sitter.
    pub player: Option<String>,
    /// Whether the sitter is connected.
    pub connected: bool,
    /// Points.
    pub score: u64,
}

/// An open chance to claim a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenClaim {
    /// Whose chain.
    pub colour: Colour,
    /// When the window closes (ms since epoch).
    pub until: u64,
}

/// A room as the client knows it.
#[derive(Clone)]
pub struct RoomState {
    /// Room id.
    pub room: String,
    /// Last event seq applied.
    pub seq: u64,
    /// Game id.
    pub game: String,
    /// The game's rules, when this client knows the game.
    pub rules: Option<&'static dyn Rules>,
    /// Room options as sent.
    pub options: RoomOptions,
    /// Where the room is.
    pub status: Status,
    /// Seats in turn order.
    pub seats: Vec<SeatState>,
    /// Spectators.
    pub spectators: u64,
    /// The board.
    pub position: Position,
    /// The mover.
    pub mover: Option<Seat>,
    /// Clicks allowed this turn (`None`: die or three still to choose).
    pub clicks: Option<u8>,
    /// Round, 1-based.
    pub round: u32,
    /// The same-piece rule's state of the move in progress.
    pub moving: MoveState,
    /// Slots the mover may build on now.
    pub eligible: SlotSet,
    /// The position when this turn began.
    pub turn_before: Position,
    /// Whether this move has entered a new piece.
    pub turn_entered: bool,
    /// The previous move, for the no-reversal rule (unknown after a snapshot).
    pub last_move: Option<LastMove>,
    /// The last click made, to highlight.
    pub last_click: Option<Click>,
    /// Chains open to be claimed.
    pub claims: Vec<OpenClaim>,
    /// The result, once over.
    pub result: Option<GameResult>,
    /// This client's seat, if it plays.
    pub me: Option<Seat>,
    /// A puzzle room's progress: clicks used (Aquarius: tries made) and the booklet's
    /// target; `None` in a game.
    pub puzzle: Option<PuzzleProgress>,
    /// What happened, newest last (bounded by [`MAX_LOG`]).
    pub log: VecDeque<String>,
}

fn seat_colours(rules: Option<&'static dyn Rules>, seats: &[Seat]) -> Vec<SeatInfo> {
    if let Some(rules) = rules {
        let n = seats.len() as u8;
        if rules.players().contains(&n) {
            return rules.seats(n);
        }
    }
    seats
        .iter()
        .map(|&seat| SeatInfo {
            seat,
            colour: seat.colour(),
        })
        .collect()
}

/// The engine options of a room's options (the server adds clocks the engine ignores).
pub fn engine_options(options: &RoomOptions) -> Options {
    let mut o = Options::default();
    if let Some(Some(c)) = options.clicks {
        o.clicks = Some(c.min(6));
    }
    if let Some(faces) = options.die.as_ref().filter(|f| !f.is_empty()) {
        o.die = faces.iter().map(|f| (*f).min(6)).collect();
    }
    match options.claim_window {
        Some(WireWindow::Auto) => o.claim_window = ClaimWindow::Auto,
        Some(WireWindow::Millis(ms)) => o.claim_window = ClaimWindow::Millis(ms),
        None => {}
    }
    if let Some(Some(p)) = options.players {
        o.players = Some(p.min(4));
    }
    o
}

impl RoomState {
    /// A room known from its snapshot; `me` is this client's seat if it plays.
    pub fn from_snapshot(snap: &Snapshot, me: Option<Seat>) -> RoomState {
        let rules = games::find_any(&snap.game);
        let puzzle = games::find_puzzle(&snap.game).map(|_| PuzzleProgress {
            clicks: snap.turn.used,
            target: snap.turn.target.flatten(),
        });
        let seat_letters: Vec<Seat> = snap.seats.keys().filter_map(|s| engine_seat(*s)).collect();
        let infos = seat_colours(rules, &seat_letters);
        let seats = infos
            .iter()
            .map(|info| {
                let view = snap
                    .seats
                    .iter()
                    .find(|(s, _)| engine_seat(**s) == Some(info.seat))
                    .and_then(|(_, v)| v.as_ref());
                let colour = view
                    .and_then(|v| Colour::parse(&v.colour))
                    .unwrap_or(info.colour);
                let score = snap
                    .scores
                    .iter()
                    .find(|(k, _)| engine_seat(**k) == Some(info.seat))
                    .map_or(0, |(_, p)| u64::from(*p));
                SeatState {
                    seat: info.seat,
                    colour,
                    name: view.map(|v| v.name.clone()),
                    player: view.map(|v| v.player.clone()),
                    connected: view.is_some_and(|v| v.connected),
                    score,
                }
            })
            .collect();
        let position = parse_position(&snap.position).unwrap_or_default();
        let status = match snap.status {
            WireStatus::Playing => Status::Playing,
            WireStatus::Finished => Status::Finished,
            WireStatus::Waiting => Status::Waiting,
        };
        let mut room = RoomState {
            room: snap.room.clone(),
            seq: snap.seq,
            game: snap.game.clone(),
            rules,
            options: snap.options.clone(),
            status,
            seats,
            spectators: u64::from(snap.spectators),
            position,
            mover: engine_seat(snap.turn.seat),
            clicks: snap.turn.clicks,
            round: snap.turn.round.max(1),
            moving: MoveState::new(0, SlotSet::EMPTY),
            eligible: SlotSet::EMPTY,
            turn_before: position,
            turn_entered: false,
            last_move: None,
            last_click: None,
            claims: snap
                .claims
                .iter()
                .filter_map(|c| {
                    Colour::parse(&c.colour).map(|colour| OpenClaim {
                        colour,
                        until: c.until,
                    })
                })
                .collect(),
            result: snap.result.clone(),
            me,
            puzzle,
            log: VecDeque::new(),
        };
        room.reset_moving(snap.turn.clicks.unwrap_or(0));
        room.moving.used = u8::try_from(snap.turn.used).unwrap_or(u8::MAX);
        room
    }

    fn reset_moving(&mut self, allowed: u8) {
        let own = self
            .mover
            .and_then(|s| self.colour_of(s))
            .map_or(SlotSet::EMPTY, |c| self.position.of(c));
        self.moving = MoveState::new(allowed, own);
        self.moving.narrows = self.rules.is_none_or(|r| r.same_piece());
    }

    /// The colour `seat` moves.
    pub fn colour_of(&self, seat: Seat) -> Option<Colour> {
        self.seats.iter().find(|s| s.seat == seat).map(|s| s.colour)
    }

    /// The display name of `seat` (its letter when empty).
    pub fn name_of(&self, seat: Seat) -> String {
        self.seats
            .iter()
            .find(|s| s.seat == seat)
            .and_then(|s| s.name.clone())
            .unwrap_or_else(|| seat.to_string())
    }

    /// The engine options of this room.
    pub fn engine_options(&self) -> Options {
        engine_options(&self.options)
    }

    /// How the current turn is to be used, as the rules say, with a thrown die's clicks.
    pub fn allowance(&self) -> Option<Allowance> {
        let rules = self.rules?;
        let mover = self.mover?;
        let a = rules.allowance(mover, self.round, &self.engine_options());
        Some(match (a, self.clicks) {
            (Allowance::DieOrThree | Allowance::Die, Some(n)) => Allowance::Clicks(n),
            (a, _) => a,
        })
    }

    /// The position the mover may not end on (no-reversal rule), if any.
    pub fn forbidden(&self) -> Option<Position> {
        let rules = self.rules?;
        let m = self.last_move?;
        (m.changed && rules.reversal_applies(m.entered, self.turn_entered)).then_some(m.before)
    }

    /// Whether it is this client's turn in a game in progress.
    pub fn my_turn(&self) -> bool {
        self.status == Status::Playing && self.me.is_some() && self.me == self.mover
    }

    /// The turn clock option in ms, if the room has one.
    pub fn turn_clock(&self) -> Option<u64> {
        self.options.turn_clock.flatten()
    }

    fn say(&mut self, line: String) {
        if self.log.len() >= MAX_LOG {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    fn seat_name(&self, seat: WireSeat) -> String {
        engine_seat(seat).map_or_else(|| seat.to_string(), |s| self.name_of(s))
    }

    fn set_position(&mut self, text: &str) {
        if let Ok(p) = parse_position(text) {
            self.position = p;
        }
    }

    fn new_turn(&mut self, seat: Option<Seat>, clicks: Option<u8>, round: u32) {
        self.last_move = Some(LastMove {
            before: self.turn_before,
            changed: self.turn_before != self.position,
            entered: self.turn_entered,
        });
        self.turn_before = self.position;
        self.turn_entered = false;
        self.eligible = SlotSet::EMPTY;
        self.mover = seat;
        self.clicks = clicks;
        self.round = round.max(1);
        self.reset_moving(clicks.unwrap_or(0));
    }

    /// Applies one event. Events at or before the last seq seen are ignored (a resume may
    /// repeat them).
    pub fn apply(&mut self, seq: u64, ev: &Ev<'_>) {
        if seq != 0 && seq <= self.seq {
            return;
        }
        self.seq = seq.max(self.seq);
        match ev {
            Ev::Joined { seat, player, name } => {
                if let Some(s) = self
                    .seats
                    .iter_mut()
                    .find(|s| engine_seat(*seat) == Some(s.seat))
                {
                    s.name = Some(name.to_string());
                    s.player = Some(player.to_string());
                    s.connected = true;
                }
                self.say(format!("{name} sits at {seat}"));
            }
            Ev::Left { seat } => {
                let who = self.seat_name(*seat);
                if let Some(s) = self
                    .seats
                    .iter_mut()
                    .find(|s| engine_seat(*seat) == Some(s.seat))
                {
                    s.name = None;
                    s.player = None;
                    s.connected = false;
                }
                self.say(format!("{who} left seat {seat}"));
            }
            Ev::Start { position, turn, .. } => {
                self.set_position(position);
                self.status = Status::Playing;
                self.turn_before = self.position;
                self.last_move = None;
                self.mover = engine_seat(turn.seat);
                self.clicks = turn.clicks;
                self.round = turn.round.max(1);
                self.reset_moving(turn.clicks.unwrap_or(0));
                if let Some(p) = self.puzzle.as_mut() {
                    p.clicks = turn.used;
                    p.target = turn.target.flatten();
                }
                self.say("the game starts".to_string());
            }
            Ev::Click {
                seat,
                click,
                position,
            } => {
                if let Ok(c) = parse_click(click) {
                    self.last_click = Some(c);
                    if let Some(p) = self.puzzle.as_mut() {
                        p.clicks = p.clicks.saturating_add(1);
                    } else if engine_seat(*seat) == self.mover {
                        self.moving.advance(c);
                    }
                }
                self.set_position(position);
                let who = self.seat_name(*seat);
                self.say(format!("{who}: {click}"));
            }
            Ev::Place {
                seat,
                slot,
                piece,
                position,
                ..
            } => {
                self.set_position(position);
                if let Ok(s) = parse_slot(slot) {
                    self.eligible.remove(s);
                }
                self.turn_entered = true;
                let who = self.seat_name(*seat);
                self.say(format!("{who} places {piece} on {slot}"));
            }
            Ev::Eligible { slots } => {
                self.eligible = slots.iter().filter_map(|s| parse_slot(s).ok()).collect();
            }
            Ev::Roll { seat, value } => {
                let who = self.seat_name(*seat);
                self.say(format!("{who} throws the die: {value}"));
            }
            Ev::Turn {
                seat,
                clicks,
                round,
            } => {
                let seat = engine_seat(*seat);
                if seat == self.mover && *round == self.round {
                    // The same turn, its clicks now known (the die or three was chosen) or
                    // more of them (a Lepus hop): a seat never moves twice in one round.
                    self.clicks = *clicks;
                    self.moving.allowed = clicks.unwrap_or(0);
                } else {
                    self.new_turn(seat, *clicks, *round);
                }
            }
            Ev::Chain {
                colour,
                claim_until,
            } => {
                let c = Colour::parse(colour);
                match (c, claim_until) {
                    (Some(colour), Some(until)) => {
                        self.claims.retain(|o| o.colour != colour);
                        self.claims.push(OpenClaim {
                            colour,
                            until: *until,
                        });
                        self.say(format!("a {colour} chain! {colour} may claim it"));
                    }
                    (Some(colour), None) => self.say(format!("a {colour} chain")),
                    _ => {}
                }
            }
            Ev::Claim { seat, ok } => {
                let who = self.seat_name(*seat);
                if let Some(c) = engine_seat(*seat).and_then(|s| self.colour_of(s)) {
                    self.claims.retain(|o| o.colour != c);
                }
                let how = if *ok {
                    "claims the chain"
                } else {
                    "claims in vain"
                };
                self.say(format!("{who} {how}"));
            }
            Ev::Capture {
                seat,
                slots,
                points,
                position,
            } => {
                self.set_position(position);
                if let Some(s) = self
                    .seats
                    .iter_mut()
                    .find(|s| engine_seat(*seat) == Some(s.seat))
                {
                    s.score += u64::from(*points);
                }
                let who = self.seat_name(*seat);
                self.say(format!(
                    "{who} captures {} ({points} points)",
                    slots.join(" ")
                ));
            }
            Ev::Try {
                seat,
                click,
                hit,
                chain,
                tries,
                hits,
            } => {
                self.last_click = parse_click(click).ok();
                // The board shows the chain just tried, now that it may be seen.
                let mut shown = Position::empty();
                let slots = chain.iter().filter_map(|s| parse_slot(s).ok());
                for (i, slot) in slots.enumerate() {
                    if let Some(piece) = Piece::new(Colour::Red, i as u8 + 1) {
                        shown.put(slot, piece);
                    }
                }
                self.position = shown;
                if let Some(p) = self.puzzle.as_mut() {
                    p.clicks = u32::from(*tries);
                }
                if let Some(s) = self
                    .seats
                    .iter_mut()
                    .find(|s| engine_seat(*seat) == Some(s.seat))
                {
                    s.score = u64::from(*hits);
                }
                let how = if *hit { "a hit" } else { "a miss" };
                self.say(format!(
                    "try {tries}: {click} · {how} · the chain was {}",
                    chain.join(" ")
                ));
            }
            Ev::Chat { seat, name, text } => {
                let from = seat.map_or("watching".to_string(), |s| s.to_string());
                self.say(format!("<{name} {from}> {text}"));
            }
            Ev::Secret { seat, .. } => {
                let who = self.seat_name(*seat);
                self.say(format!("{who} has chosen a secret man"));
            }
            Ev::Challenge {
                seat,
                piece,
                hit,
                position,
                ..
            } => {
                self.set_position(position);
                let who = self.seat_name(*seat);
                let how = if *hit { "the secret man!" } else { "wrong" };
                self.say(format!("{who} challenges {piece}: {how}"));
            }
            Ev::Over { result, .. } => {
                self.status = Status::Finished;
                self.claims.clear();
                for (k, p) in &result.scores {
                    if let Some(s) = self
                        .seats
                        .iter_mut()
                        .find(|s| engine_seat(*k) == Some(s.seat))
                    {
                        s.score = u64::from(*p);
                    }
                }
                self.result = Some(result.clone());
                let line = match (&self.puzzle, &result.winner) {
                    (Some(_), _) => self.puzzle_result(),
                    (None, Some(w)) => {
                        format!("game over: {} wins", self.winner_name(&w.to_string()))
                    }
                    (None, None) => "game over: a draw".to_string(),
                };
                self.say(line);
            }
            // Other game systems' moves: this client follows ORION rooms only.
            // Orbit's and Orbs's events: this client plays ORION only.
            Ev::Move { .. } | Ev::Draw { .. } => {}
        }
    }

    /// Whether this room is Aquarius, the telepathy test (tries and hits, not clicks).
    pub fn is_test(&self) -> bool {
        self.rules.is_some_and(|r| r.id() == "aquarius")
    }

    /// How a finished puzzle room ended, in words.
    pub fn puzzle_result(&self) -> String {
        let Some(p) = self.puzzle else {
            return String::new();
        };
        let won = self.result.as_ref().is_some_and(|r| r.winner.is_some());
        let target = p.target.map_or(String::new(), |t| format!(" (target {t})"));
        let score = self.seats.first().map_or(0, |s| s.score);
        match (self.is_test(), won) {
            (true, true) => format!("the test is over: {score} hits of {TRIES}: telepathy?"),
            (true, false) => format!("the test is over: {score} hits of {TRIES}"),
            (false, true) => format!("solved in {score} clicks{target}"),
            (false, false) => format!("over, not solved after {score} clicks"),
        }
    }

    /// Names for a winner field (`S` or a team `S+N`).
    pub fn winner_name(&self, winner: &str) -> String {
        winner
            .split('+')
            .map(|s| match WireSeat::parse(s) {
                Some(seat) => self.seat_name(seat),
                None => s.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" and ")
    }

    /// Notes a line of the client's own in the log (errors, connection news).
    pub fn note(&mut self, line: impl Into<String>) {
        self.say(line.into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use orion_protocol::{SeatView, Turn};

    fn snap() -> Snapshot {
        let sitter = |name: &str| {
            Some(SeatView {
                player: format!("p-{name}"),
                name: name.into(),
                colour: String::new(),
                connected: false,
            })
        };
        Snapshot {
            room: "r".into(),
            seq: 2,
            game: "hydra-2".into(),
            options: RoomOptions::default(),
            status: WireStatus::Playing,
            seats: [(WireSeat::S, sitter("ann")), (WireSeat::N, sitter("bob"))].into(),
            spectators: 0,
            position: "C1s:R1 C5n:B1".into(),
            turn: Turn {
                seat: WireSeat::S,
                clicks: Some(1),
                used: 0,
                round: 1,
                target: None,
            },
            scores: Default::default(),
            claims: vec![],
            result: None,
            secret: None,
        }
    }

    #[test]
    fn events_follow_the_turns_and_the_move_before() {
        let mut r = RoomState::from_snapshot(&snap(), Some(Seat::S));
        assert!(r.my_turn());
        r.apply(
            3,
            &Ev::Click {
                seat: WireSeat::S,
                click: "C1R".into(),
                position: "C1w:R1 C5n:B1".into(),
            },
        );
        r.apply(
            4,
            &Ev::Turn {
                seat: WireSeat::N,
                clicks: Some(1),
                round: 1,
            },
        );
        assert!(!r.my_turn());
        // Blue may not simply undo red's move.
        assert_eq!(r.forbidden(), parse_position("C1s:R1 C5n:B1").ok());
        // A repeated event is ignored.
        r.apply(
            4,
            &Ev::Turn {
                seat: WireSeat::S,
                clicks: Some(2),
                round: 2,
            },
        );
        assert_eq!(r.mover, Some(Seat::N));
        assert_eq!(r.log.back().map(String::as_str), Some("ann: C1R"));
    }

    #[test]
    fn a_lepus_hop_lengthens_the_move_and_a_challenge_changes_the_board() {
        let mut snapshot = snap();
        snapshot.game = "lepus".into();
        snapshot.turn.clicks = Some(2);
        let mut r = RoomState::from_snapshot(&snapshot, Some(Seat::S));
        r.apply(
            3,
            &Ev::Click {
                seat: WireSeat::S,
                click: "C1R".into(),
                position: "C1w:R1 C5n:B1".into(),
            },
        );
        // The hop: the same seat and round, two more clicks; the move goes on.
        r.apply(
            4,
            &Ev::Turn {
                seat: WireSeat::S,
                clicks: Some(4),
                round: 1,
            },
        );
        assert_eq!((r.moving.allowed, r.moving.used), (4, 1));
        assert!(r.my_turn());
        r.apply(
            5,
            &Ev::Challenge {
                seat: WireSeat::S,
                piece: "B1".into(),
                hit: false,
                removed: vec!["C1w".into()],
                position: "C5n:B1".into(),
            },
        );
        assert_eq!(r.position, parse_position("C5n:B1").unwrap());
        assert_eq!(
            r.log.back().map(String::as_str),
            Some("ann challenges B1: wrong")
        );
    }
}
