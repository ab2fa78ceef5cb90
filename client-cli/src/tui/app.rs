//! The client's screens as one state machine: the lobby (rooms, quick match, create, join by
//! code, watch) and the room (board, players, turn, clocks, log and chat). It takes keys,
//! network reports and the time, and gives back requests to send and frames to draw; no
//! terminal or socket in here, so tests drive it directly.

mod system_screen;

use super::board::{self, Board};
use super::input::{self, Command, HELP};
use crate::lobby::{seat_list, taken};
use crate::net::NetEvent;
use crate::room::{RoomState, Status};
use crate::system::SystemRoom;
use crate::wire::seat as engine_seat;
use orion_engine::{games, Allowance, Click, Direction, Rotor, Seat, Slot};
use orion_protocol::{
    Event as Ev, Message as Incoming, Request, RoomSummary, Seat as WireSeat, Status as WireStatus,
};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;
use std::collections::VecDeque;

/// A key, as the terminal layer hands it over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A printable character.
    Char(char),
    /// Enter.
    Enter,
    /// Backspace.
    Backspace,
    /// Escape.
    Esc,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Tab.
    Tab,
    /// Page up (log).
    PageUp,
    /// Page down (log).
    PageDown,
    /// Ctrl-C.
    Interrupt,
}

/// Which screen is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// The room list.
    Lobby,
    /// A room: playing or watching.
    Room,
}

/// Most events waiting to be shown; past this the animation catches up at once.
const MAX_QUEUED: usize = 32;
/// Milliseconds between two animated clicks of other players.
const ANIMATION_MS: u64 = 180;
/// Longest line that may be typed.
const MAX_INPUT: usize = 300;

/// The whole client.
pub struct App {
    /// Player name.
    pub name: String,
    /// Which screen is up.
    pub screen: Screen,
    /// The lobby's rooms.
    pub rooms: Vec<RoomSummary>,
    /// Selected row of the lobby.
    pub selected: usize,
    /// The room on screen.
    pub room: Option<RoomState>,
    /// Its id (known before its snapshot arrives).
    pub room_id: Option<String>,
    /// Our seat in it, if we play.
    pub seat: Option<Seat>,
    /// Our seat as the wire names it (Orbs's seats are no ORION seats).
    pub wire_seat: Option<WireSeat>,
    /// The room on screen when it is an Orbit or Orbs room (then `room` is `None`).
    pub other: Option<SystemRoom>,
    /// Invite code of our private room.
    pub invite: Option<String>,
    /// The line being typed.
    pub input: String,
    /// The last message for the player, and whether it is an error.
    pub message: Option<(String, bool)>,
    /// The rotor under the cursor.
    pub cursor: Rotor,
    /// The slot picked for placing.
    pub picked: Option<Slot>,
    /// Whether the connection is up.
    pub connected: bool,
    /// Room events not yet shown (other players' clicks animate one at a time).
    queue: VecDeque<(u64, Ev<'static>)>,
    /// When the next animated click may be shown (ms).
    next_anim: u64,
    /// The time now (ms since the epoch), as the caller last said.
    pub now: u64,
    /// When the current turn began (ms), for the clock.
    turn_since: u64,
    /// Set when the player asks to quit.
    pub quit: bool,
    /// Requests to send.
    pub out: Vec<Request>,
    /// Whether the help is shown.
    pub help: bool,
    /// Lines the log is scrolled back.
    pub scroll: usize,
    /// The seq a `resume` was last asked from after a gap in the room's events (once a gap).
    resumed_from: Option<u64>,
    /// The last leaderboard asked for, as lines, shown beside the lobby.
    pub board: Vec<String>,
}

impl App {
    /// A client for `name`, starting in the lobby at time `now`.
    pub fn new(name: &str, now: u64) -> App {
        App {
            name: name.to_string(),
            screen: Screen::Lobby,
            rooms: Vec::new(),
            selected: 0,
            room: None,
            room_id: None,
            seat: None,
            wire_seat: None,
            other: None,
            invite: None,
            resumed_from: None,
            board: Vec::new(),
            input: String::new(),
            message: None,
            cursor: Rotor::at(2, 2).unwrap_or(Rotor::ALL[12]),
            picked: None,
            connected: false,
            queue: VecDeque::new(),
            next_anim: 0,
            now,
            turn_since: now,
            quit: false,
            out: Vec::new(),
            help: false,
            scroll: 0,
        }
    }

    fn info(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), false));
    }

    fn error(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), true));
    }

    /// Watches `room` (as `orion watch` does at start).
    pub fn watch(&mut self, room: &str) {
        self.out.push(Request::Spectate {
            room: room.to_string(),
        });
        self.enter(room, None);
    }

    fn enter(&mut self, room: &str, seat: Option<WireSeat>) {
        if self.room_id.as_deref() != Some(room) {
            self.room = None;
            self.other = None;
            self.queue.clear();
        }
        self.room_id = Some(room.to_string());
        self.seat = seat.and_then(engine_seat);
        self.wire_seat = seat;
        if let Some(other) = self.other.as_mut() {
            other.me = seat;
        }
        self.screen = Screen::Room;
        self.scroll = 0;
    }

    fn back_to_lobby(&mut self) {
        self.screen = Screen::Lobby;
        self.room = None;
        self.other = None;
        self.room_id = None;
        self.seat = None;
        self.wire_seat = None;
        self.invite = None;
        self.queue.clear();
    }

    /// A report from the connection.
    pub fn on_net(&mut self, ev: NetEvent) {
        match ev {
            NetEvent::Welcome { rooms, again, .. } => {
                self.connected = true;
                if again {
                    self.info("reconnected: catching up on the room");
                } else {
                    self.out.push(Request::Lobby {
                        watch: Some(true),
                        after: None,
                    });
                    if let (Some(room), None) = (rooms.first(), &self.room_id) {
                        // A seat held from an earlier session: sit down again.
                        self.out.push(Request::Join {
                            room: Some(room.clone()),
                            code: None,
                            seat: None,
                        });
                        self.info(format!("back to your seat in room {room}"));
                    }
                }
            }
            NetEvent::Dropped(why) => {
                self.connected = false;
                self.error(format!("{why}; reconnecting…"));
            }
            NetEvent::Gone(why) => {
                self.connected = false;
                self.error(format!("{why}; the connection is gone (quit with q)"));
            }
            NetEvent::Message(m) => self.on_message(m),
            // Shown in the room's log, otherwise ignored: nothing the server sends is fatal.
            NetEvent::Malformed(why) => {
                if let Some(r) = self.room.as_mut() {
                    r.note(format!("? unreadable message from the server: {why}"));
                }
            }
        }
    }

    fn on_message(&mut self, m: Incoming<'static>) {
        match m {
            Incoming::Lobby { rooms, .. } => {
                self.rooms = rooms;
                self.selected = self.selected.min(self.rooms.len().saturating_sub(1));
            }
            Incoming::Joined { room, seat, code } => {
                self.enter(&room, Some(seat));
                self.invite = code.clone();
                let mut text = format!("you sit at {seat} in room {room}");
                if let Some(code) = code {
                    text.push_str(&format!(" · invite code {code}"));
                }
                self.info(text);
            }
            Incoming::Queued { .. } => {
                self.info("looking for players… (the game starts when the table is full)")
            }
            Incoming::Left { .. } => {
                self.back_to_lobby();
                self.info("you left the room");
            }
            Incoming::Snapshot(snap) => {
                if self.room_id.as_deref() == Some(snap.room.as_str()) {
                    if let Some(mut other) = SystemRoom::from_snapshot(&snap, self.wire_seat) {
                        if let Some(old) = &self.other {
                            other.log = old.log.clone();
                        }
                        self.other = Some(other);
                        self.room = None;
                        self.queue.clear();
                        self.turn_since = self.now;
                        return;
                    }
                    let mut state = RoomState::from_snapshot(&snap, self.seat);
                    if let Some(old) = &self.room {
                        state.log = old.log.clone();
                    }
                    self.room = Some(state);
                    self.queue.clear();
                    self.turn_since = self.now;
                }
            }
            Incoming::Event { room, seq, ev } => {
                if self.room_id.as_deref() == Some(&*room) {
                    if self.queue.len() >= MAX_QUEUED {
                        self.flush();
                    }
                    self.queue.push_back((seq, ev));
                    self.pump();
                }
            }
            Incoming::Error { message, code } => {
                let text = if message.is_empty() {
                    code.to_string()
                } else {
                    message
                };
                if let Some(r) = self.room.as_mut() {
                    r.note(format!("! {text}"));
                }
                if let Some(r) = self.other.as_mut() {
                    r.note(format!("! {text}"));
                }
                self.error(text);
            }
            board @ Incoming::Leaderboard { .. } => {
                self.board = crate::lobby::board_lines(&board);
                self.info(self.board.first().cloned().unwrap_or_default());
            }
            Incoming::Welcome {
                name,
                account: Some(true),
                ..
            } => {
                self.info(format!(
                    "you are {name}: your name is claimed, your rating kept"
                ));
                self.name = name;
            }
            Incoming::Games {
                player,
                games,
                more,
            } => {
                let mut lines: Vec<String> = games
                    .iter()
                    .map(|g| {
                        let seats: Vec<String> =
                            g.seats.iter().map(|(s, n)| format!("{s} {n}")).collect();
                        let winner = g.winner.as_deref().unwrap_or("nobody");
                        format!(
                            "{} {} · {} · won by {winner}",
                            g.room,
                            g.game,
                            seats.join(", ")
                        )
                    })
                    .collect();
                if lines.is_empty() {
                    lines.push(format!("no finished games of {player}"));
                } else if more {
                    let last = games.last().map_or("", |g| g.room.as_str());
                    lines.push(format!("more: games {player} before={last}"));
                }
                self.show_lines(lines);
            }
            Incoming::Export { room, text } => {
                let file = format!("{room}.txt");
                match std::fs::write(&file, text) {
                    Ok(()) => {
                        self.info(format!("saved {file} (orion replay {file} plays it back)"))
                    }
                    Err(e) => self.error(format!("could not save {file}: {e}")),
                }
            }
            Incoming::Welcome { .. }
            | Incoming::History { .. }
            | Incoming::Hints { .. }
            | Incoming::Pong => {}
        }
    }

    /// Lines for the player to read: in the room's log when a room is on screen, else on
    /// the message line.
    fn show_lines(&mut self, lines: Vec<String>) {
        if let Some(r) = self.room.as_mut() {
            for line in lines {
                r.note(line);
            }
        } else if let Some(r) = self.other.as_mut() {
            for line in lines {
                r.note(line);
            }
        } else {
            self.info(lines.join(" | "));
        }
    }

    fn flush(&mut self) {
        while let Some((seq, ev)) = self.queue.pop_front() {
            self.show(seq, &ev);
        }
    }

    /// Shows queued events: everything up to the next click of another player, which waits
    /// for its turn in the animation.
    fn pump(&mut self) {
        while let Some((_, ev)) = self.queue.front() {
            let animated = matches!(ev, Ev::Click { seat, .. } if engine_seat(*seat) != self.seat);
            if animated && self.now < self.next_anim {
                break;
            }
            let Some((seq, ev)) = self.queue.pop_front() else {
                break;
            };
            self.show(seq, &ev);
            if animated {
                self.next_anim = self.now + ANIMATION_MS;
            }
        }
    }

    fn show(&mut self, seq: u64, ev: &Ev<'_>) {
        if self.other.is_some() {
            return self.show_other(seq, ev);
        }
        let Some(room) = self.room.as_mut() else {
            return;
        };
        if let Err(gap) = room.apply(seq, ev) {
            // Events went missing: catch up from the last one applied (once per gap).
            if self.resumed_from != Some(room.seq()) {
                self.resumed_from = Some(room.seq());
                room.note(format!("! {gap}"));
                self.out.push(Request::Resume {
                    room: room.room().to_string(),
                    since: room.seq(),
                });
            }
            return;
        }
        match ev {
            Ev::Turn { .. } | Ev::Start { .. } => {
                self.turn_since = self.now;
                self.picked = None;
            }
            Ev::Chain {
                colour,
                claim_until: Some(_),
            } => {
                let mine = self.seat.and_then(|s| room.colour_of(s));
                if mine.is_some() && orion_engine::Colour::parse(colour) == mine {
                    self.message = Some(("A CHAIN FOR YOU: press ! to claim it now".into(), true));
                }
            }
            Ev::Over { .. } => {
                let line = room.log.back().cloned().unwrap_or_default();
                self.info(format!("{line} · leave to go back to the lobby"));
            }
            _ => {}
        }
        self.scroll = 0;
    }

    /// An event of an Orbit or Orbs room.
    fn show_other(&mut self, seq: u64, ev: &Ev<'_>) {
        let Some(room) = self.other.as_mut() else {
            return;
        };
        if let Err(gap) = room.apply(seq, ev) {
            if self.resumed_from != Some(room.seq()) {
                self.resumed_from = Some(room.seq());
                room.note(format!("! {gap}"));
                self.out.push(Request::Resume {
                    room: room.room().to_string(),
                    since: room.seq(),
                });
            }
            return;
        }
        match ev {
            Ev::Turn { .. } | Ev::Start { .. } => self.turn_since = self.now,
            Ev::Over { .. } => {
                let line = room.log.back().cloned().unwrap_or_default();
                self.info(format!("{line} · leave to go back to the lobby"));
            }
            _ => {}
        }
        self.scroll = 0;
    }

    /// The clock moved on.
    pub fn tick(&mut self, now: u64) {
        self.now = now;
        self.pump();
    }

    fn room_or_error(&mut self) -> Option<String> {
        let id = self.room_id.clone();
        if id.is_none() {
            self.error("you are not in a room: quick, create, join or watch one first");
        }
        id
    }

    /// Runs one typed line.
    pub fn submit(&mut self, line: &str) {
        // In an Orbit or Orbs room a move in the game's notation comes first.
        if let Some(request) = self.other.as_ref().and_then(|r| r.request(line)) {
            match request {
                Ok(r) => {
                    self.message = None;
                    self.out.push(r);
                }
                Err(e) => self.error(e),
            }
            return;
        }
        let command = match input::parse(line) {
            Ok(c) => c,
            Err(e) => return self.error(e),
        };
        self.message = None;
        match command {
            Command::Help => self.help = !self.help,
            Command::Top { game, after } => self.out.push(Request::Leaderboard { game, after }),
            Command::Register(password) => self.out.push(Request::Register { password }),
            Command::Login { name, password } => self.out.push(Request::Login {
                name,
                password,
                version: Some(orion_protocol::VERSION),
            }),
            Command::Quit => self.quit = true,
            Command::Quick { game, players } => {
                self.out.push(Request::Quick { game, players });
            }
            Command::Create {
                game,
                options,
                private,
            } => self.out.push(Request::Create {
                game,
                options,
                private: Some(private),
            }),
            Command::Join { room, seat } => self.out.push(Request::Join {
                room: Some(room),
                code: None,
                seat,
            }),
            Command::Code(code) => self.out.push(Request::Join {
                room: None,
                code: Some(code),
                seat: None,
            }),
            Command::Watch(room) => self.watch(&room),
            Command::Games {
                player,
                game,
                before,
            } => self.out.push(Request::Games {
                player: player.unwrap_or_else(|| self.name.clone()),
                game,
                before,
            }),
            Command::Export(room) => {
                let code = (self.room_id.as_deref() == Some(room.as_str()))
                    .then(|| self.invite.clone())
                    .flatten();
                self.out.push(Request::Export { room, code });
            }
            Command::Leave => {
                if let Some(room) = self.room_id.clone() {
                    self.out.push(Request::Leave { room });
                }
                self.back_to_lobby();
            }
            other => {
                let Some(room) = self.room_or_error() else {
                    return;
                };
                match other {
                    Command::Clicks(clicks, piece) => {
                        for (i, c) in clicks.iter().enumerate() {
                            self.out.push(Request::Click {
                                room: room.clone(),
                                click: c.to_string(),
                                piece: if i == 0 {
                                    piece.map(|p| p.to_string())
                                } else {
                                    None
                                },
                            });
                        }
                        if let Some(c) = clicks.last() {
                            self.cursor = c.rotor;
                        }
                    }
                    Command::Place { slot, from } => self.out.push(Request::Place {
                        room,
                        slot: slot.to_string(),
                        from: from.map(|s| s.to_string()),
                    }),
                    Command::End => self.out.push(Request::EndTurn { room }),
                    Command::Roll => self.out.push(Request::Roll { room }),
                    Command::Three => self.out.push(Request::Three { room }),
                    Command::Claim => self.out.push(Request::Claim { room }),
                    Command::Say(text) => self.out.push(Request::Chat { room, text }),
                    Command::Ready => self.out.push(Request::Ready { room }),
                    Command::Rematch(accept) => self.out.push(Request::Rematch {
                        room,
                        accept: Some(accept),
                    }),
                    _ => {}
                }
            }
        }
    }

    fn click_cursor(&mut self, direction: Direction) {
        if let Some(room) = self.room_id.clone() {
            let click = Click::new(self.cursor, direction);
            self.out.push(Request::Click {
                room,
                click: click.to_string(),
                piece: None,
            });
        }
    }

    fn move_cursor(&mut self, dc: i8, dr: i8) {
        let c = (self.cursor.column() as i8 + dc).clamp(0, 4) as u8;
        let r = (self.cursor.row() as i8 + dr).clamp(0, 4) as u8;
        if let Some(rotor) = Rotor::at(c, r) {
            self.cursor = rotor;
        }
    }

    /// Slots Tab cycles through: the eligible ones when building, else (in a placement turn)
    /// the empty slots round the cursor.
    fn placeable(&self) -> Vec<Slot> {
        let Some(room) = &self.room else {
            return Vec::new();
        };
        let eligible = room.eligible();
        if !eligible.is_empty() {
            return eligible.into_iter().collect();
        }
        if matches!(room.allowance(), Some(Allowance::Place(_))) {
            return self
                .cursor
                .orbit()
                .into_iter()
                .filter(|&s| room.position.get(s).is_none())
                .collect();
        }
        Vec::new()
    }

    /// One key.
    pub fn on_key(&mut self, key: Key) {
        let typing = !self.input.is_empty();
        match key {
            Key::Interrupt => self.quit = true,
            Key::Esc => {
                self.input.clear();
                self.help = false;
                self.picked = None;
            }
            Key::Backspace => {
                self.input.pop();
            }
            Key::Enter if typing => {
                let line = std::mem::take(&mut self.input);
                self.submit(&line);
            }
            Key::Enter => match self.screen {
                Screen::Lobby => self.enter_selected(),
                Screen::Room => {
                    if let (Some(slot), Some(room)) = (self.picked, self.room_id.clone()) {
                        self.out.push(Request::Place {
                            room,
                            slot: slot.to_string(),
                            from: None,
                        });
                        self.picked = None;
                    }
                }
            },
            Key::Up if self.screen == Screen::Lobby => {
                self.selected = self.selected.saturating_sub(1)
            }
            Key::Down if self.screen == Screen::Lobby => {
                self.selected = (self.selected + 1).min(self.rooms.len().saturating_sub(1))
            }
            Key::Up => self.move_cursor(0, 1),
            Key::Down => self.move_cursor(0, -1),
            Key::Left => self.move_cursor(-1, 0),
            Key::Right => self.move_cursor(1, 0),
            Key::Tab => {
                let slots = self.placeable();
                self.picked = match self.picked.and_then(|p| slots.iter().position(|&s| s == p)) {
                    Some(i) => slots.get(i + 1).copied(),
                    None => slots.first().copied(),
                };
            }
            Key::PageUp => self.scroll = self.scroll.saturating_add(5),
            Key::PageDown => self.scroll = self.scroll.saturating_sub(5),
            Key::Char('[') if !typing && self.screen == Screen::Room && self.other.is_none() => {
                self.click_cursor(Direction::Left)
            }
            Key::Char(']') if !typing && self.screen == Screen::Room && self.other.is_none() => {
                self.click_cursor(Direction::Right)
            }
            Key::Char('!') if !typing && self.screen == Screen::Room && self.other.is_none() => {
                self.submit("claim")
            }
            Key::Char(c) => {
                if self.input.chars().count() < MAX_INPUT {
                    self.input.push(c);
                }
            }
        }
    }

    fn enter_selected(&mut self) {
        let Some(r) = self.rooms.get(self.selected).cloned() else {
            self.error("no room selected: quick GAME, or create GAME");
            return;
        };
        if r.status == WireStatus::Waiting && taken(&r) < r.seats.len() {
            self.out.push(Request::Join {
                room: Some(r.room.clone()),
                code: None,
                seat: None,
            });
        } else {
            self.watch(&r.room);
        }
    }

    /// Draws the screen.
    pub fn draw(&self, f: &mut Frame) {
        let area = f.area();
        let [title, body, message, input] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(5),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(area);
        let conn = if self.connected { "" } else { " · offline" };
        let head = match (&self.room, self.screen) {
            (None, Screen::Room) if self.other.is_some() => {
                let r = self
                    .other
                    .as_ref()
                    .map(|r| self.other_head(r))
                    .unwrap_or_default();
                format!("{r}{conn}")
            }
            (Some(r), Screen::Room) => {
                let game = r
                    .rules
                    .map_or(r.view.game.clone(), |g| g.name().to_string());
                let who = match self.seat.and_then(|s| r.colour_of(s).map(|c| (s, c))) {
                    Some((s, c)) => format!("you play {s} ({c})"),
                    None => "watching".to_string(),
                };
                format!(" ORION · {game} · room {} · {who}{conn}", r.room())
            }
            _ => format!(" ORION ONLINE · {}{conn}", self.name),
        };
        f.render_widget(
            Paragraph::new(head).style(
                Style::default()
                    .bg(Color::Blue)
                    .fg(Color::White)
                    .add_modifier(Modifier::BOLD),
            ),
            title,
        );
        if self.help {
            let lines: Vec<Line> = HELP.iter().map(|l| Line::from(*l)).collect();
            f.render_widget(
                Paragraph::new(lines).wrap(Wrap { trim: false }).block(
                    Block::default()
                        .borders(Borders::ALL)
                        .title(" help (Esc closes) "),
                ),
                body,
            );
        } else {
            match self.screen {
                Screen::Lobby => self.draw_lobby(f, body),
                Screen::Room if self.other.is_some() => self.draw_other_room(f, body),
                Screen::Room => self.draw_room(f, body),
            }
        }
        if let Some((text, err)) = &self.message {
            let style = if *err {
                Style::default()
                    .fg(Color::LightRed)
                    .add_modifier(Modifier::BOLD)
            } else {
                Style::default().fg(Color::LightGreen)
            };
            f.render_widget(Paragraph::new(format!(" {text}")).style(style), message);
        }
        let prompt = Line::from(vec![
            Span::styled("> ", Style::default().fg(Color::Cyan)),
            Span::raw(self.input.as_str()),
            Span::styled("█", Style::default().fg(Color::DarkGray)),
        ]);
        f.render_widget(Paragraph::new(prompt), input);
    }

    fn draw_lobby(&self, f: &mut Frame, area: Rect) {
        let [list, side] =
            Layout::horizontal([Constraint::Min(40), Constraint::Length(34)]).areas(area);
        let mut lines = vec![Line::styled(
            format!(
                " {:<10} {:<16} {:<9} {:<6} {}",
                "room", "game", "status", "seats", "watching"
            ),
            Style::default().add_modifier(Modifier::BOLD),
        )];
        if self.rooms.is_empty() {
            lines.push(Line::from(" no open rooms yet: quick GAME or create GAME"));
        }
        for (i, r) in self.rooms.iter().enumerate() {
            let text = format!(
                " {:<10} {:<16} {:<9} {:<6} {:<3} {}",
                r.room,
                r.game,
                r.status.as_str(),
                format!("{}/{}", taken(r), r.seats.len()),
                r.spectators,
                seat_list(r)
            );
            let style = if i == self.selected {
                Style::default().bg(Color::Indexed(238)).fg(Color::White)
            } else {
                Style::default()
            };
            lines.push(Line::styled(text, style));
        }
        f.render_widget(
            Paragraph::new(lines).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(" rooms · Up/Down, Enter joins (or watches a full room) "),
            ),
            list,
        );
        let list_of_games: Vec<String> = games::ALL
            .iter()
            .map(|g| {
                let p = g.players();
                if p.start() == p.end() {
                    format!("{} ({})", g.id(), p.start())
                } else {
                    format!("{} ({}-{})", g.id(), p.start(), p.end())
                }
            })
            .collect();
        let mut help: Vec<Line> = vec![
            Line::styled(
                "games (players)",
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Line::from(list_of_games.join(" · ")),
            Line::from(""),
        ];
        for l in [
            "quick GAME [players]",
            "create GAME [private] [k=v…]",
            "  clicks= players= turn_clock=MS",
            "  claim_window=auto|MS",
            "join ROOM [SEAT] · code INVITE",
            "watch ROOM · help · quit",
        ] {
            help.push(Line::from(l));
        }
        let puzzles: Vec<&str> = games::PUZZLES.iter().map(|p| p.id()).collect();
        help.push(Line::from(""));
        help.push(Line::styled(
            "puzzles (alone): create PUZZLE",
            Style::default().add_modifier(Modifier::BOLD),
        ));
        help.push(Line::from(puzzles.join(" · ")));
        // The last board asked for (`top GAME`) takes the place of the game list.
        let (help, title) = if self.board.is_empty() {
            (help, " play ")
        } else {
            let lines = self.board.iter().map(|l| Line::from(l.as_str())).collect();
            (lines, " leaderboard (top GAME) ")
        };
        f.render_widget(
            Paragraph::new(help)
                .wrap(Wrap { trim: false })
                .block(Block::default().borders(Borders::ALL).title(title)),
            side,
        );
    }

    fn draw_room(&self, f: &mut Frame, area: Rect) {
        let [left, right] =
            Layout::horizontal([Constraint::Length(board::WIDTH + 1), Constraint::Min(20)])
                .areas(area);
        let Some(room) = &self.room else {
            f.render_widget(Paragraph::new(" waiting for the room…"), right);
            return;
        };
        let widget = Board {
            position: room.position,
            cursor: (self.seat.is_some() && room.status() == Status::Playing)
                .then_some(self.cursor),
            last_click: room.last_click(),
            eligible: if room.my_turn() {
                room.eligible()
            } else {
                Default::default()
            },
            picked: self.picked,
        };
        f.render_widget(widget, left);
        let seats = room.seats();
        let seats_h = seats.len() as u16 + 2;
        let [players, turn, log] = Layout::vertical([
            Constraint::Length(seats_h),
            Constraint::Length(4),
            Constraint::Min(3),
        ])
        .areas(right);
        let mut lines = Vec::new();
        for s in &seats {
            let arrow = if room.mover() == Some(s.seat) && room.status() == Status::Playing {
                "▶"
            } else {
                " "
            };
            let name = s.name.clone().unwrap_or_else(|| "(empty)".to_string());
            let off = if s.name.is_some() && !s.connected {
                " (away)"
            } else {
                ""
            };
            let you = if Some(s.seat) == self.seat {
                " (you)"
            } else {
                ""
            };
            // A puzzle's progress is in the turn box; a game's seats show their points.
            let points = match room.puzzle() {
                Some(_) => String::new(),
                None => format!("  {} pts", s.score),
            };
            let rating = crate::lobby::rating_text(s.rating);
            lines.push(Line::from(vec![
                Span::raw(format!("{arrow}{} ", s.seat)),
                Span::styled("■ ", Style::default().fg(board::colour(s.colour))),
                Span::raw(format!("{name}{rating}{you}{off}{points}")),
            ]));
        }
        f.render_widget(
            Paragraph::new(lines).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(format!(" players · {} watching ", room.view.spectators)),
            ),
            players,
        );
        f.render_widget(
            Paragraph::new(self.turn_lines(room))
                .block(Block::default().borders(Borders::ALL).title(" turn ")),
            turn,
        );
        let height = log.height.saturating_sub(2) as usize;
        let end = room.log.len().saturating_sub(self.scroll);
        let start = end.saturating_sub(height);
        let lines: Vec<Line> = room
            .log
            .iter()
            .skip(start)
            .take(end - start)
            .map(|l| {
                let style = if l.starts_with('<') {
                    Style::default().fg(Color::Cyan)
                } else if l.starts_with('!') {
                    Style::default().fg(Color::LightRed)
                } else {
                    Style::default()
                };
                Line::styled(l.clone(), style)
            })
            .collect();
        let title = if self.scroll > 0 {
            " log (PgDn) "
        } else {
            " log & chat "
        };
        f.render_widget(
            Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
            log,
        );
    }

    /// A puzzle in progress: clicks used against the booklet's target (Aquarius: tries and
    /// hits, and how to name a rotor), and the time since it started.
    fn puzzle_lines(&self, room: &RoomState) -> Vec<Line<'static>> {
        let p = room.puzzle().unwrap_or(orion_engine::PuzzleProgress {
            clicks: 0,
            target: None,
        });
        let elapsed = self.now.saturating_sub(self.turn_since) / 1000;
        let clock = format!("{}:{:02}", elapsed / 60, elapsed % 60);
        let who = match (room.my_turn(), room.mover()) {
            (true, _) => "YOU".to_string(),
            (false, Some(s)) => room.name_of(s),
            (false, None) => "?".to_string(),
        };
        let text = if room.is_test() {
            let hits = room.seats().first().map_or(0, |s| s.score);
            let of = p.target.unwrap_or(0);
            format!(
                "{who} · try {} of {of} · hits: {hits} · {clock}",
                p.clicks + 1
            )
        } else {
            let target = p
                .target
                .map_or("no booklet target".to_string(), |t| format!("target {t}"));
            format!("{who} · {} clicks used · {target} · {clock}", p.clicks)
        };
        let style = if room.my_turn() {
            Style::default()
                .fg(Color::LightGreen)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::default()
        };
        let mut lines = vec![Line::styled(text, style)];
        if room.is_test() && room.my_turn() {
            lines.push(Line::from("name a rotor: ] on it, or type it (C3R)"));
        }
        lines
    }

    fn turn_lines(&self, room: &RoomState) -> Vec<Line<'static>> {
        let mut out = Vec::new();
        match room.status() {
            Status::Waiting => {
                let free = room.seats().iter().filter(|s| s.name.is_none()).count();
                let mut l = format!("waiting for {free} more player(s); type ready when set");
                if let Some(code) = &self.invite {
                    l.push_str(&format!(" · invite code {code}"));
                }
                out.push(Line::from(l));
            }
            Status::Finished | Status::Closed => {
                let l = match room.result().and_then(|r| r.winner.as_ref()) {
                    _ if room.puzzle().is_some() => room.puzzle_result(),
                    Some(w) => format!("game over · {} wins", room.winner_name(&w.to_string())),
                    None => "game over · a draw".to_string(),
                };
                out.push(Line::styled(
                    l,
                    Style::default().add_modifier(Modifier::BOLD),
                ));
            }
            Status::Playing if room.puzzle().is_some() => out.extend(self.puzzle_lines(room)),
            Status::Playing => {
                let mover = room.mover().map_or("?".to_string(), |s| room.name_of(s));
                let what = match room.allowance() {
                    Some(Allowance::Clicks(n)) => {
                        format!("{} of {n} clicks left", n.saturating_sub(room.used()))
                    }
                    Some(Allowance::Place(_)) => "place a piece".to_string(),
                    Some(Allowance::DieOrThree) => "roll or three?".to_string(),
                    Some(Allowance::Die) => "roll the die".to_string(),
                    None => String::new(),
                };
                let elapsed = self.now.saturating_sub(self.turn_since) / 1000;
                let clock = match room.turn_clock() {
                    Some(ms) => {
                        let left = (ms / 1000).saturating_sub(elapsed);
                        format!("{}:{:02} left", left / 60, left % 60)
                    }
                    None => format!("{}:{:02}", elapsed / 60, elapsed % 60),
                };
                let style = if room.my_turn() {
                    Style::default()
                        .fg(Color::LightGreen)
                        .add_modifier(Modifier::BOLD)
                } else {
                    Style::default()
                };
                let who = if room.my_turn() {
                    "YOUR TURN".to_string()
                } else {
                    format!("{mover} to move")
                };
                out.push(Line::styled(
                    format!("{who} · round {} · {what} · {clock}", room.round()),
                    style,
                ));
            }
        }
        let mine = self.seat.and_then(|s| room.colour_of(s));
        for c in &room.claims() {
            let left = c.until.saturating_sub(self.now);
            if left == 0 {
                continue;
            }
            let text = if Some(c.colour) == mine {
                format!(
                    "CHAIN FOR YOU! press ! to claim · {:.1} s",
                    left as f64 / 1000.0
                )
            } else {
                format!(
                    "{} may claim a chain · {:.1} s",
                    c.colour,
                    left as f64 / 1000.0
                )
            };
            out.push(Line::styled(
                text,
                Style::default()
                    .fg(Color::LightRed)
                    .add_modifier(Modifier::BOLD | Modifier::SLOW_BLINK),
            ));
        }
        out
    }
}
