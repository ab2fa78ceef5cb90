//! An ORION room as the client sees it: the view and log every room has ([`Base`]) with what
//! this client adds for ORION — the game's rules, the board parsed, the seats in turn order
//! with their colours, and the log's lines of ORION's events. Both the terminal UI and the
//! bots read it. What the rules make of the turn (the move before, the same-piece rule, what
//! is legal) is the engine's: a bot asks its copy of the game (the `mirror` module).

use crate::systems::base::Base;
use crate::systems::orion::wire::{seat as engine_seat, wire_seat};
use orion_engine::puzzles::TRIES;
use orion_engine::{
    games, parse_click, parse_position, parse_slot, Allowance, ClaimWindow, Click, Colour, Options,
    Piece, Position, PuzzleProgress, Rules, Seat, SeatInfo, SlotSet,
};
use orion_protocol::{
    ClaimWindow as WireWindow, Event as Ev, GameResult, Gap, RoomOptions, Seat as WireSeat,
    Snapshot,
};

pub use orion_protocol::Status;

/// One seat at the table, as the view tells it.
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
    /// The sitter's rating in this game (an account's), and how a rated game's end moved it.
    pub rating: Option<(i32, Option<i32>)>,
}

/// An open chance to claim a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenClaim {
    /// Whose chain.
    pub colour: Colour,
    /// When the window closes (ms since epoch).
    pub until: u64,
}

/// An ORION room as the client knows it.
#[derive(Clone)]
pub struct RoomState {
    /// The view, this client's seat and the log.
    pub base: Base,
    /// The game's rules, when this client knows the game.
    pub rules: Option<&'static dyn Rules>,
    /// Seats in turn order, with the colour each moves.
    pub order: Vec<SeatInfo>,
    /// The board: the view's position parsed (Aquarius: the chain just tried, once shown).
    pub position: Position,
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
    pub fn from_snapshot(snap: &Snapshot, me: Option<WireSeat>) -> RoomState {
        let base = Base::from_snapshot(snap, me);
        let view = &base.view;
        let rules = games::find_any(&view.game);
        let seat_letters: Vec<Seat> = view.seats.keys().filter_map(|s| engine_seat(*s)).collect();
        let order = seat_colours(rules, &seat_letters)
            .into_iter()
            .map(|info| SeatInfo {
                seat: info.seat,
                colour: view
                    .colour_of(wire_seat(info.seat))
                    .and_then(Colour::parse)
                    .unwrap_or(info.colour),
            })
            .collect();
        let position = parse_position(&view.position).unwrap_or_default();
        RoomState {
            rules,
            order,
            position,
            base,
        }
    }

    /// Room id.
    pub fn room(&self) -> &str {
        self.base.room()
    }

    /// The last event applied.
    pub fn seq(&self) -> u64 {
        self.base.seq()
    }

    /// Where the room is in its life.
    pub fn status(&self) -> Status {
        self.base.status()
    }

    /// This client's seat, if it plays (as the engine names it).
    pub fn me(&self) -> Option<Seat> {
        self.base.me.and_then(engine_seat)
    }

    /// The seat to move (also before the start: the one the game will begin with).
    pub fn mover(&self) -> Option<Seat> {
        engine_seat(self.base.view.turn.seat)
    }

    /// Clicks allowed this turn (`None`: die or three still to choose, or a puzzle).
    pub fn clicks(&self) -> Option<u8> {
        self.base.view.turn.clicks
    }

    /// Clicks made this turn (a puzzle: in the whole puzzle; Aquarius: tries).
    pub fn used(&self) -> u8 {
        u8::try_from(self.base.view.turn.used).unwrap_or(u8::MAX)
    }

    /// Round, 1-based.
    pub fn round(&self) -> u32 {
        self.base.view.turn.round.max(1)
    }

    /// Slots the mover may build on now.
    pub fn eligible(&self) -> SlotSet {
        self.base
            .view
            .eligible
            .iter()
            .filter_map(|s| parse_slot(s).ok())
            .collect()
    }

    /// The last click made, to highlight.
    pub fn last_click(&self) -> Option<Click> {
        parse_click(&self.base.view.last_click.as_ref()?.click).ok()
    }

    /// Chains open to be claimed.
    pub fn claims(&self) -> Vec<OpenClaim> {
        self.base
            .view
            .claims
            .iter()
            .filter_map(|c| {
                Colour::parse(&c.colour).map(|colour| OpenClaim {
                    colour,
                    until: c.until,
                })
            })
            .collect()
    }

    /// The result, once over.
    pub fn result(&self) -> Option<&GameResult> {
        self.base.view.result.as_ref()
    }

    /// A puzzle room's progress: clicks used (Aquarius: tries made) and the booklet's
    /// target; `None` in a game.
    pub fn puzzle(&self) -> Option<PuzzleProgress> {
        games::find_puzzle(&self.base.view.game).map(|_| PuzzleProgress {
            clicks: self.base.view.turn.used,
            target: self.base.view.turn.systems.orion.target.flatten(),
        })
    }

    /// Every seat in turn order: who sits there and its points.
    pub fn seats(&self) -> Vec<SeatState> {
        self.order
            .iter()
            .map(|info| {
                let wire = wire_seat(info.seat);
                let sitter = self.base.view.seats.get(&wire).and_then(Option::as_ref);
                SeatState {
                    seat: info.seat,
                    colour: info.colour,
                    name: sitter.map(|s| s.name.clone()),
                    player: sitter.map(|s| s.player.clone()),
                    connected: sitter.is_some_and(|s| s.connected),
                    score: u64::from(self.base.view.scores.get(&wire).copied().unwrap_or(0)),
                    rating: sitter.and_then(|s| s.rating).map(|r| {
                        let delta = self.base.view.ratings.as_ref().and_then(|d| d.get(&wire));
                        (r, delta.map(|d| d.delta))
                    }),
                }
            })
            .collect()
    }

    /// The colour `seat` moves.
    pub fn colour_of(&self, seat: Seat) -> Option<Colour> {
        self.order.iter().find(|s| s.seat == seat).map(|s| s.colour)
    }

    /// The display name of `seat` (its letter when empty).
    pub fn name_of(&self, seat: Seat) -> String {
        self.base.name_of(wire_seat(seat))
    }

    /// The engine options of this room.
    pub fn engine_options(&self) -> Options {
        engine_options(&self.base.view.options)
    }

    /// How the current turn is to be used, as the rules say, with a thrown die's clicks.
    pub fn allowance(&self) -> Option<Allowance> {
        let rules = self.rules?;
        let mover = self.mover()?;
        let a = rules.allowance(mover, self.round(), &self.engine_options());
        Some(match (a, self.clicks()) {
            (Allowance::DieOrThree | Allowance::Die, Some(n)) => Allowance::Clicks(n),
            (a, _) => a,
        })
    }

    /// Whether it is this client's turn in a game in progress.
    pub fn my_turn(&self) -> bool {
        self.base.view.status == Status::Playing && self.me().is_some() && self.me() == self.mover()
    }

    /// The turn clock option in ms, if the room has one.
    pub fn turn_clock(&self) -> Option<u64> {
        self.base.view.options.turn_clock.flatten()
    }

    fn seat_name(&self, seat: WireSeat) -> String {
        self.base.name_of(seat)
    }

    /// Applies one event. Events at or before the last seq seen are ignored (a resume may
    /// repeat them); a missing one is a [`Gap`], and nothing is applied: resume from
    /// [`RoomState::seq`].
    pub fn apply(&mut self, seq: u64, ev: &Ev<'_>) -> Result<(), Gap> {
        // Names as they were before the event (a `left` seat has none after it).
        let line = self.line(ev);
        if !self.base.apply(seq, ev)? {
            return Ok(());
        }
        match ev {
            Ev::Start { .. }
            | Ev::Click { .. }
            | Ev::Undo { .. }
            | Ev::Place { .. }
            | Ev::Capture { .. }
            | Ev::Challenge { .. } => {
                if let Ok(p) = parse_position(&self.base.view.position) {
                    self.position = p;
                }
            }
            Ev::Try { chain, .. } => {
                // The board shows the chain just tried, now that it may be seen.
                let mut shown = Position::empty();
                let slots = chain.iter().filter_map(|s| parse_slot(s).ok());
                for (i, slot) in slots.enumerate() {
                    if let Some(piece) = Piece::new(Colour::Red, i as u8 + 1) {
                        shown.put(slot, piece);
                    }
                }
                self.position = shown;
            }
            _ => {}
        }
        let line = match ev {
            // The result's line reads the result.
            Ev::Over { .. } => Some(match self.puzzle() {
                Some(_) => self.puzzle_result(),
                None => self.base.over_line(),
            }),
            _ => line,
        };
        if let Some(line) = line {
            self.base.say(line);
        }
        Ok(())
    }

    /// The log line for an event, if it has one.
    fn line(&self, ev: &Ev<'_>) -> Option<String> {
        if let Some(line) = self.base.line(ev) {
            return Some(line);
        }
        Some(match ev {
            Ev::Click { seat, click, .. } => format!("{}: {click}", self.seat_name(*seat)),
            Ev::Place {
                seat, slot, piece, ..
            } => format!("{} places {piece} on {slot}", self.seat_name(*seat)),
            Ev::Roll { seat, value } => {
                format!("{} throws the die: {value}", self.seat_name(*seat))
            }
            Ev::Chain {
                colour,
                claim_until,
            } => {
                let colour = Colour::parse(colour)?;
                match claim_until {
                    Some(_) => format!("a {colour} chain! {colour} may claim it"),
                    None => format!("a {colour} chain"),
                }
            }
            Ev::Claim { seat, ok } => {
                let how = if *ok {
                    "claims the chain"
                } else {
                    "claims in vain"
                };
                format!("{} {how}", self.seat_name(*seat))
            }
            Ev::Capture {
                seat,
                slots,
                points,
                ..
            } => format!(
                "{} captures {} ({points} points)",
                self.seat_name(*seat),
                slots.join(" ")
            ),
            Ev::Try {
                click,
                hit,
                chain,
                tries,
                ..
            } => {
                let how = if *hit { "a hit" } else { "a miss" };
                format!(
                    "try {tries}: {click} · {how} · the chain was {}",
                    chain.join(" ")
                )
            }
            Ev::Secret { seat, .. } => {
                format!("{} has chosen a secret man", self.seat_name(*seat))
            }
            Ev::Challenge {
                seat, piece, hit, ..
            } => {
                let how = if *hit { "the secret man!" } else { "wrong" };
                format!("{} challenges {piece}: {how}", self.seat_name(*seat))
            }
            Ev::Undo {
                seat, click, used, ..
            } => format!(
                "{} takes back {click}: {}",
                self.seat_name(*seat),
                match used {
                    1 => "1 click stands".to_string(),
                    n => format!("{n} clicks stand"),
                }
            ),
            Ev::Hint { click, left, .. } => format!(
                "hint: {click} ({left} clicks to the finish on a shortest line; a hinted solve is not on the board)"
            ),
            Ev::Rematch {
                seat,
                accept,
                agreed,
                room,
            } => match (room, accept, agreed.len()) {
                (Some(room), _, _) => format!("the rematch starts in room {room}"),
                (None, false, _) => format!("{} declines the rematch", self.seat_name(*seat)),
                (None, true, 1) => format!(
                    "{} offers a rematch (type rematch to accept)",
                    self.seat_name(*seat)
                ),
                (None, true, _) => format!("{} accepts the rematch", self.seat_name(*seat)),
            },
            // Said once the result is in the view; the rest by every system alike.
            Ev::Over { .. }
            | Ev::Joined { .. }
            | Ev::Ready { .. }
            | Ev::Left { .. }
            | Ev::Start { .. }
            | Ev::Deadline { .. }
            | Ev::Chat { .. } => return None,
            // Their clicks are the turn box's; other systems' moves and draws are never an
            // ORION room's.
            Ev::Eligible { .. } | Ev::Turn { .. } | Ev::Move { .. } | Ev::Draw { .. } => {
                return None
            }
        })
    }

    /// Whether this room is Aquarius, the telepathy test (tries and hits, not clicks).
    pub fn is_test(&self) -> bool {
        self.rules.is_some_and(|r| r.id() == "aquarius")
    }

    /// How a finished puzzle room ended, in words.
    pub fn puzzle_result(&self) -> String {
        let Some(p) = self.puzzle() else {
            return String::new();
        };
        let won = self.result().is_some_and(|r| r.winner.is_some());
        let target = p.target.map_or(String::new(), |t| format!(" (target {t})"));
        let score = self.seats().first().map_or(0, |s| s.score);
        match (self.is_test(), won) {
            (true, true) => format!("the test is over: {score} hits of {TRIES}: telepathy?"),
            (true, false) => format!("the test is over: {score} hits of {TRIES}"),
            (false, true) => match self.base.view.hints {
                0 => format!("solved in {score} clicks{target}"),
                n => format!("solved in {score} clicks{target} with {n} hints (not on the board)"),
            },
            (false, false) => format!("over, not solved after {score} clicks"),
        }
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
                rating: None,
                ready: false,
                bot: None,
            })
        };
        Snapshot {
            room: "r".into(),
            seq: 2,
            game: "hydra-2".into(),
            options: RoomOptions::default(),
            status: Status::Playing,
            seats: [(WireSeat::S, sitter("ann")), (WireSeat::N, sitter("bob"))].into(),
            spectators: 0,
            position: "C1s:R1 C5n:B1".into(),
            turn: Turn {
                seat: WireSeat::S,
                clicks: Some(1),
                used: 0,
                round: 1,
                systems: Default::default(),
            },
            scores: Default::default(),
            claims: vec![],
            result: None,
            deadline: None,
            systems: Default::default(),
        }
    }

    #[test]
    fn events_follow_the_turns_and_a_gap_is_not_papered_over() {
        let mut r = RoomState::from_snapshot(&snap(), Some(WireSeat::S));
        assert!(r.my_turn());
        r.apply(
            3,
            &Ev::Click {
                seat: WireSeat::S,
                click: "C1R".into(),
                position: "C1w:R1 C5n:B1".into(),
            },
        )
        .unwrap();
        assert_eq!(r.position, parse_position("C1w:R1 C5n:B1").unwrap());
        assert_eq!(r.last_click(), parse_click("C1R").ok());
        r.apply(
            4,
            &Ev::Turn {
                seat: WireSeat::N,
                clicks: Some(1),
                round: 1,
                used: None,
                systems: Default::default(),
            },
        )
        .unwrap();
        assert!(!r.my_turn());
        assert_eq!((r.mover(), r.used()), (Some(Seat::N), 0));
        // A repeated event is ignored.
        r.apply(
            4,
            &Ev::Turn {
                seat: WireSeat::S,
                clicks: Some(2),
                round: 2,
                used: None,
                systems: Default::default(),
            },
        )
        .unwrap();
        assert_eq!(r.mover(), Some(Seat::N));
        assert_eq!(r.base.log.back().map(String::as_str), Some("ann: C1R"));
        // A missing event: nothing is applied, the caller resumes from seq 4.
        let gap = r.apply(
            6,
            &Ev::Turn {
                seat: WireSeat::S,
                clicks: Some(2),
                round: 2,
                used: None,
                systems: Default::default(),
            },
        );
        assert_eq!(gap.map_err(|g| g.expected), Err(5));
        assert_eq!((r.seq(), r.mover()), (4, Some(Seat::N)));
    }

    #[test]
    fn a_lepus_hop_lengthens_the_move_and_a_challenge_changes_the_board() {
        let mut snapshot = snap();
        snapshot.game = "lepus".into();
        snapshot.turn.clicks = Some(2);
        let mut r = RoomState::from_snapshot(&snapshot, Some(WireSeat::S));
        r.apply(
            3,
            &Ev::Click {
                seat: WireSeat::S,
                click: "C1R".into(),
                position: "C1w:R1 C5n:B1".into(),
            },
        )
        .unwrap();
        // The hop: the same seat and round, two more clicks; the move goes on.
        r.apply(
            4,
            &Ev::Turn {
                seat: WireSeat::S,
                clicks: Some(4),
                round: 1,
                used: None,
                systems: Default::default(),
            },
        )
        .unwrap();
        assert_eq!((r.clicks(), r.used()), (Some(4), 1));
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
        )
        .unwrap();
        assert_eq!(r.position, parse_position("C5n:B1").unwrap());
        assert_eq!(
            r.base.log.back().map(String::as_str),
            Some("ann challenges B1: wrong")
        );
    }
}
