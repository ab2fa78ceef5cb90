//! Rooms and bots of the systems whose turn is one `move` event: the view with
//! the client's copy of the game ([`GameCopy`], its engine fed the room's `move` events), the
//! last move, a standing draw offer and the log in words; and a bot that plays one move per
//! turn of its own. When an event does not follow from the copy (it never should), the copy
//! is set up again from the view and [`MoveRoom::resyncs`] counts it.

use super::base::Base;
use super::screen::{self as common, SeatMarks, TurnClock};
use super::{Ending, Player, Room, Tries, MAX_REFUSALS};
use crate::bot::level::Level;
use orion_protocol::{Event as Ev, Gap, Request, RoomView, Seat as WireSeat, Snapshot, Status};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::Frame;
use std::any::Any;

/// The client's copy of one game of a move-per-turn system.
pub trait GameCopy: Clone + Send + 'static {
    /// The system's bot policy.
    type Bot: Send;
    /// The verb of a move's `removed` men (`captures`, `removes`).
    const TAKES: &'static str;
    /// The game a view describes.
    fn from_view(view: &RoomView) -> Self;
    /// Follows one `move` event of `seat`; `false` when the copy could not (the caller sets
    /// it up again from the view).
    fn follow(&mut self, seat: WireSeat, mv: &str, position: &str) -> bool;
    /// Keeps what a copy set up again from the view cannot know: the last move to highlight.
    fn keep_last(&mut self, old: &Self);
    /// Whether a `pass` of `seat` is the engine passing over a seat that cannot move (the
    /// copy has passed it already), not a turn given up.
    fn forced_pass(&self, _seat: WireSeat, _mv: &str) -> bool {
        false
    }
    /// The seats in turn order.
    fn seat_order(&self) -> Vec<WireSeat>;
    /// Whether the copy has `me` to move.
    fn to_move(&self, me: WireSeat) -> bool;
    /// The position as its string.
    fn position(&self) -> String;
    /// A bot of `level` whose random choices follow `seed`.
    fn bot(level: Level, seed: u64) -> Self::Bot;
    /// The move `bot` plays in the copy, in the game's notation; `None` when over.
    fn choose(&self, bot: &mut Self::Bot) -> Option<String>;

    /// The system's name for people (the title bar).
    const NAME: &'static str;
    /// The board's width on screen.
    const WIDTH: u16;
    /// Draws the board in `area`, the room being `status`.
    fn draw_board(&self, status: Status, f: &mut Frame, area: Rect);
    /// The colour `seat` plays, in words, once known.
    fn colour_name(&self, seat: WireSeat) -> Option<String>;
    /// A seat line's mark of `seat`'s colour, and its style.
    fn seat_mark(&self, seat: WireSeat) -> (&'static str, Style);
    /// What a seat line says of `seat`'s standing (its score, or that it is out).
    fn seat_score(&self, seat: WireSeat) -> String;
    /// The turn box's line under whose move it is: what kind of move is due.
    fn move_line(&self) -> String;
    /// A line of the score for the turn box once the game has started, if the system has
    /// one.
    fn score_line(&self) -> Option<String> {
        None
    }
    /// A typed line as a move in `room`, if it is one: the request, or what is wrong with it;
    /// `None`: not a move of this system.
    fn typed(room: &str, line: &str) -> Option<Result<Request, String>>;
}

/// A room of a move-per-turn system as the client knows it.
#[derive(Clone, Debug)]
pub struct MoveRoom<C> {
    /// The view, this client's seat and the log.
    pub base: Base,
    /// The copy of the game.
    pub copy: C,
    /// The last move: who and what (`h8`, `d2-e6`, `pass`).
    pub last_move: Option<(WireSeat, String)>,
    /// The seats agreeing to the standing draw offer (empty: none stands).
    pub draw: Vec<WireSeat>,
    /// Times the copy had to be set up again from the view.
    pub resyncs: u32,
    /// Set up again at the next `turn`: the copy lost the thread at a move.
    stale: bool,
}

impl<C: GameCopy> MoveRoom<C> {
    /// The room a snapshot shows, seen from `me`.
    pub fn from_snapshot(snap: &Snapshot, me: Option<WireSeat>) -> MoveRoom<C> {
        let base = Base::from_snapshot(snap, me);
        MoveRoom {
            copy: C::from_view(&base.view),
            base,
            last_move: None,
            draw: Vec::new(),
            resyncs: 0,
            stale: false,
        }
    }

    /// Whether it is this client's move in a game in progress.
    pub fn my_turn(&self) -> bool {
        self.base.me.is_some() && self.base.view.mover() == self.base.me
    }

    /// Sets the copy up again from the view (the room is right; the copy followed it
    /// wrongly), counted in [`MoveRoom::resyncs`].
    pub fn rebuild(&mut self) {
        let old = std::mem::replace(&mut self.copy, C::from_view(&self.base.view));
        self.copy.keep_last(&old);
        self.resyncs += 1;
    }

    /// Applies the event numbered `seq`: a repeat is ignored, a missing one is a [`Gap`] and
    /// nothing is applied.
    pub fn apply(&mut self, seq: u64, ev: &Ev<'_>) -> Result<(), Gap> {
        if seq <= self.base.seq() {
            return Ok(());
        }
        let line = self.line(ev);
        self.base.apply(seq, ev)?;
        match ev {
            Ev::Start { .. } => {
                self.copy = C::from_view(&self.base.view);
                self.stale = false;
            }
            Ev::Move {
                seat, mv, position, ..
            } => {
                let forced = self.copy.forced_pass(*seat, mv);
                if !self.copy.follow(*seat, mv, position) {
                    self.rebuild();
                    self.stale = true;
                }
                self.draw.clear();
                if !forced {
                    self.last_move = Some((*seat, mv.to_string()));
                }
            }
            Ev::Turn { .. } if self.stale => {
                // The view's turn now names the seat to move: set the copy up from it.
                self.copy = C::from_view(&self.base.view);
                self.stale = false;
            }
            Ev::Draw { agreed, .. } => self.draw = agreed.clone(),
            Ev::Over { .. } => self.draw.clear(),
            _ => {}
        }
        let line = match ev {
            Ev::Over { .. } => Some(self.base.over_line()),
            _ => line,
        };
        if let Some(line) = line {
            self.base.say(line);
        }
        Ok(())
    }

    /// The log line of an event, said before it is applied.
    fn line(&self, ev: &Ev<'_>) -> Option<String> {
        if let Some(line) = self.base.line(ev) {
            return Some(line);
        }
        Some(match ev {
            Ev::Move {
                seat, mv, removed, ..
            } => {
                let who = self.base.name_of(*seat);
                let taken = if removed.is_empty() {
                    String::new()
                } else {
                    format!(" · {} {}", C::TAKES, removed.join(" "))
                };
                match &**mv {
                    "pass" if self.copy.forced_pass(*seat, mv) => {
                        format!("{who} cannot move and is passed over")
                    }
                    "pass" => format!("{who} passes"),
                    "black" | "white" => format!("{who} chooses {mv}"),
                    _ => format!("{who}: {mv}{taken}"),
                }
            }
            Ev::Draw { seat, accept, .. } => {
                let who = self.base.name_of(*seat);
                if *accept {
                    format!("{who} accepts the draw")
                } else {
                    format!("{who} offers a draw (draw accept to agree)")
                }
            }
            _ => return None,
        })
    }
}

/// A typed line that is no lobby command as a move of `C`'s system in `room`.
pub fn typed<C: GameCopy>(room: &str, line: &str) -> Result<Vec<Request>, String> {
    match C::typed(room, line) {
        Some(r) => r.map(|r| vec![r]),
        None => Err(format!(
            "`{}` is not a move of {} or a command; type help",
            line.trim(),
            C::NAME
        )),
    }
}

/// A bot of a move-per-turn system in its room: one move per turn of its own (until the
/// room's next `turn`, or a refusal), the policy's choice in the copy. After a refusal the
/// copy is set up again from the room; after two, a random legal move is tried instead.
pub struct MovePlayer<C: GameCopy> {
    /// The policy.
    bot: C::Bot,
    /// The seed of its choices, for the random fallback.
    seed: u64,
    /// This bot's seat.
    seat: Option<WireSeat>,
    /// The room, once its snapshot is in.
    room: Option<MoveRoom<C>>,
    /// The round (move number) of the last move sent.
    acted_round: Option<u32>,
}

impl<C: GameCopy> MovePlayer<C> {
    /// A bot of `level` whose random choices follow `seed`.
    pub fn new(level: Level, seed: u64) -> MovePlayer<C> {
        MovePlayer {
            bot: C::bot(level, seed),
            seed,
            seat: None,
            room: None,
            acted_round: None,
        }
    }
}

impl<C: GameCopy> Player for MovePlayer<C> {
    fn joined(&mut self, seat: WireSeat) {
        self.seat = Some(seat);
    }

    fn snapshot(&mut self, snap: &Snapshot) {
        self.room = Some(MoveRoom::from_snapshot(snap, self.seat));
        self.acted_round = None;
    }

    fn event(&mut self, seq: u64, ev: &Ev<'_>) -> Result<Vec<Request>, Gap> {
        if let Some(room) = self.room.as_mut() {
            room.apply(seq, ev)?;
        }
        Ok(Vec::new())
    }

    fn seq(&self) -> Option<u64> {
        self.room.as_ref().map(|r| r.base.seq())
    }

    fn refused(&mut self) {
        if let Some(room) = self.room.as_mut() {
            // The copy may have lost the thread: set it up again, and decide afresh.
            room.rebuild();
            self.acted_round = None;
        }
    }

    fn decide(&mut self, tries: &mut Tries) -> Option<Request> {
        let (room, me) = (self.room.as_mut()?, self.seat?);
        if room.base.status() != Status::Playing || !room.my_turn() {
            return None;
        }
        let round = room.base.view.turn.round;
        if self.acted_round == Some(round) || tries.in_a_row >= MAX_REFUSALS {
            return None;
        }
        if !room.copy.to_move(me) {
            // The room says it is our turn and the copy does not: the room is right.
            room.rebuild();
            if !room.copy.to_move(me) {
                return None;
            }
        }
        let mv = if tries.in_a_row >= 2 {
            let seed = self.seed ^ (u64::from(tries.refused) << 32);
            room.copy.choose(&mut C::bot(Level::Random, seed))
        } else {
            room.copy.choose(&mut self.bot)
        }?;
        self.acted_round = Some(round);
        Some(Request::Move {
            room: room.base.room().to_string(),
            mv,
        })
    }

    fn ending(&self) -> Option<Ending> {
        let room = self.room.as_ref()?;
        if room.base.status() != Status::Finished {
            return None;
        }
        let result = room.base.view.result.as_ref()?;
        Some(Ending {
            room: room.base.room().to_string(),
            winner: result.winner.as_ref().map(|w| w.to_string()),
            scores: result
                .scores
                .iter()
                .map(|(s, p)| (s.to_string(), u64::from(*p)))
                .collect(),
        })
    }
}

impl<C: GameCopy> Room for MoveRoom<C> {
    fn base(&self) -> &Base {
        &self.base
    }

    fn base_mut(&mut self) -> &mut Base {
        &mut self.base
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn apply(&mut self, seq: u64, ev: &Ev<'_>) -> Result<(), Gap> {
        MoveRoom::apply(self, seq, ev)
    }

    fn title(&self) -> String {
        let me = self.base.me.map(|s| {
            let colour = self
                .copy
                .colour_name(s)
                .map_or(String::new(), |c| format!(" ({c})"));
            format!("you play {s}{colour}")
        });
        format!(
            " ORION · {} · room {} · {}",
            C::NAME,
            self.base.room(),
            me.unwrap_or_else(|| "watching".to_string())
        )
    }

    fn board_width(&self) -> u16 {
        C::WIDTH
    }

    fn draw_board(&self, f: &mut Frame, area: Rect) {
        self.copy.draw_board(self.base.status(), f, area);
    }

    fn seat_lines(&self) -> Vec<Line<'static>> {
        self.copy
            .seat_order()
            .into_iter()
            .map(|seat| {
                let marks = SeatMarks::of(&self.base, seat, self.base.view.mover() == Some(seat));
                let (mark, style) = self.copy.seat_mark(seat);
                Line::from(vec![
                    Span::raw(format!("{}{:<2} ", marks.arrow, seat)),
                    Span::styled(mark, style),
                    Span::raw(format!(
                        "{}{}{}{}",
                        marks.name,
                        marks.you,
                        marks.off,
                        self.copy.seat_score(seat)
                    )),
                ])
            })
            .collect()
    }

    fn turn_height(&self) -> u16 {
        6
    }

    fn turn_lines(&self, clock: &TurnClock<'_>) -> Vec<Line<'static>> {
        let view = &self.base.view;
        let mut out = Vec::new();
        match self.base.status() {
            Status::Waiting => {
                let free = (self.copy.seat_order().iter())
                    .filter(|s| view.seats.get(s).and_then(Option::as_ref).is_none())
                    .count();
                out.push(clock.waiting(free, self.base.ready()));
            }
            Status::Finished | Status::Closed => {
                out.push(common::over(common::over_text(&self.base)))
            }
            Status::Playing => {
                let time = clock.text(view.options.turn_clock.flatten());
                let who = if self.my_turn() {
                    "YOUR TURN".to_string()
                } else {
                    let mover = view.turn.seat;
                    format!("{} ({mover}) to move", self.base.name_of(mover))
                };
                out.push(Line::styled(
                    format!("{who} · move {} · {time}", view.turn.round),
                    common::turn_style(self.my_turn()),
                ));
                out.push(Line::from(self.copy.move_line()));
            }
        }
        if self.base.status() != Status::Waiting {
            if let Some(score) = self.copy.score_line() {
                out.push(Line::from(score));
            }
        }
        if let Some((seat, mv)) = &self.last_move {
            out.push(Line::from(format!(
                "last: {} {mv}",
                self.base.name_of(*seat)
            )));
        }
        if !self.draw.is_empty() {
            let agreed: Vec<String> = self.draw.iter().map(|s| s.to_string()).collect();
            out.push(Line::styled(
                format!("draw offered · agreed: {} (draw accept)", agreed.join(" ")),
                Style::default()
                    .fg(Color::LightRed)
                    .add_modifier(Modifier::BOLD),
            ));
        }
        out
    }

    fn typed(&mut self, line: &str) -> Result<Vec<Request>, String> {
        typed::<C>(self.base.room(), line)
    }

    fn point_at(&mut self, request: &Request) -> Option<String> {
        match request {
            Request::Move { mv, .. } => Some(format!("type {mv}")),
            _ => None,
        }
    }

    fn resyncs(&self) -> u32 {
        self.resyncs
    }

    fn position(&self) -> String {
        self.copy.position()
    }
}
