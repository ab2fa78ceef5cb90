//! The client's screens as one state machine: the lobby (rooms, quick match, create, join by
//! code, watch) and the room (whatever its game system: board, players, turn, clocks, log
//! and chat). It takes keys, network reports and the time, and gives back requests to send
//! and frames to draw; no terminal or socket in here, so tests drive it directly.
//!
//! This file holds the state and what the network brings; `commands` what the player types
//! and presses; `plan` a whole turn tried on the server, shown, then sent; `frame`,
//! `lobby_screen` and `room_screen` what is drawn.

mod commands;
mod frame;
mod lobby_screen;
mod plan;
mod room_screen;

pub use super::key::Key;

use crate::net::NetEvent;
use crate::systems::{self, Room};
use orion_protocol::{Event as Ev, Message as Incoming, Request, RoomSummary, Seat as WireSeat};
use std::collections::VecDeque;

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
    /// The room on screen, followed by its game system (once its snapshot is in).
    pub room: Option<Box<dyn Room>>,
    /// The room left last, whose board pointer the next room of its system takes over.
    left: Option<Box<dyn Room>>,
    /// Its id (known before its snapshot arrives).
    pub room_id: Option<String>,
    /// Our seat in it, if we play.
    pub seat: Option<WireSeat>,
    /// Invite code of our private room.
    pub invite: Option<String>,
    /// The line being typed.
    pub input: String,
    /// The last message for the player, and whether it is an error.
    pub message: Option<(String, bool)>,
    /// Whether the connection is up.
    pub connected: bool,
    /// Our player id (from `welcome`): `games` with no name lists our own by it.
    pub player_id: Option<String>,
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
    /// `play --computer`: the level of the computer players to seat in the free seats of the
    /// room it asked for, once its snapshot is in.
    computer: Option<u8>,
    /// Who waits for a quick match, per game (the lobby's `waiting`), shown beside the lobby.
    pub waiting: Vec<orion_protocol::Waiting>,
    /// This client waits for a quick match (`cancel` stops it).
    pub queued: bool,
    /// A turn planned (`turn …`), on screen or being sent.
    plan: Option<plan::Plan>,
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
            left: None,
            room_id: None,
            seat: None,
            invite: None,
            resumed_from: None,
            board: Vec::new(),
            waiting: Vec::new(),
            queued: false,
            input: String::new(),
            message: None,
            connected: false,
            player_id: None,
            queue: VecDeque::new(),
            next_anim: 0,
            now,
            turn_since: now,
            quit: false,
            out: Vec::new(),
            help: false,
            scroll: 0,
            computer: None,
            plan: None,
        }
    }

    /// Opens a room of `game` for the computer (`play --computer LEVEL GAME [--seat N]`), the
    /// player sitting at `seat` (a number in turn order from 1, or a seat's name; left out:
    /// the first): once its snapshot is in, computer players of `level` take its other seats
    /// and the player is ready.
    pub fn play_computer(
        &mut self,
        game: &str,
        level: u8,
        seat: Option<&str>,
    ) -> Result<(), String> {
        if !(1..=8).contains(&level) {
            return Err(format!("--computer: the level is 1 to 8, not {level}"));
        }
        let (system, id) = systems::named(game).ok_or_else(|| format!("unknown game `{game}`"))?;
        if system.puzzles().contains(&id.as_str()) {
            return Err(format!(
                "{id} is a puzzle for one player: no computer plays it"
            ));
        }
        let seat = match seat {
            Some(wanted) => Some(seat_wanted(&system.seats(&id), &id, wanted)?),
            None => None,
        };
        self.computer = Some(level);
        self.out.push(Request::Create {
            game: id,
            options: None,
            private: None,
            seat,
        });
        Ok(())
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
            quiet: false,
            room: room.to_string(),
        });
        self.enter(room, None);
    }

    /// Leaves the room on screen, keeping it for its board pointer.
    fn drop_room(&mut self) {
        if let Some(room) = self.room.take() {
            self.left = Some(room);
        }
        self.queue.clear();
    }

    fn enter(&mut self, room: &str, seat: Option<WireSeat>) {
        if self.room_id.as_deref() != Some(room) {
            self.drop_room();
        }
        self.room_id = Some(room.to_string());
        self.seat = seat;
        if let Some(r) = self.room.as_mut() {
            r.base_mut().me = seat;
        }
        self.screen = Screen::Room;
        self.scroll = 0;
    }

    fn back_to_lobby(&mut self) {
        self.screen = Screen::Lobby;
        self.drop_room();
        self.room_id = None;
        self.seat = None;
        self.invite = None;
    }

    /// A report from the connection.
    pub fn on_net(&mut self, ev: NetEvent) {
        match ev {
            NetEvent::Welcome {
                player,
                rooms,
                again,
            } => {
                self.connected = true;
                self.player_id = Some(player);
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
                    r.base_mut()
                        .say(format!("? unreadable message from the server: {why}"));
                }
            }
        }
    }

    fn on_message(&mut self, m: Incoming<'static>) {
        match m {
            Incoming::Lobby { rooms, waiting, .. } => {
                self.rooms = rooms;
                self.waiting = waiting.unwrap_or_default();
                self.selected = self.selected.min(self.rooms.len().saturating_sub(1));
            }
            Incoming::Joined { room, seat, code } => {
                self.queued = false;
                self.enter(&room, Some(seat));
                self.invite = code.clone();
                let mut text = format!("you sit at {seat} in room {room}");
                if let Some(code) = code {
                    text.push_str(&format!(" · invite code {code}"));
                }
                self.info(text);
            }
            Incoming::Queued { .. } => {
                self.queued = true;
                self.info("looking for players… (the game starts when the table is full; cancel stops looking)")
            }
            Incoming::Unqueued => {
                self.queued = false;
                self.info("no longer looking for players")
            }
            // The room's panel shows the count its snapshot gave.
            Incoming::Spectators { .. } | Incoming::Unspectated { .. } => {}
            Incoming::Left { .. } => {
                self.back_to_lobby();
                self.info("you left the room");
            }
            Incoming::Snapshot(snap) => {
                if self.room_id.as_deref() == Some(snap.room.as_str()) {
                    self.plan_forget();
                    // `play --computer`: the room asked for is here; bots take its free seats.
                    if let Some(level) = self.computer.take() {
                        for _ in snap.seats.values().filter(|s| s.is_none()) {
                            self.out.push(Request::AddBot {
                                room: snap.room.clone(),
                                level: Some(level),
                                seat: None,
                            });
                        }
                        self.out.push(Request::Ready {
                            room: snap.room.clone(),
                        });
                    }
                    let mut room = systems::room(&snap, self.seat);
                    if let Some(old) = self.room.as_deref().or(self.left.as_deref()) {
                        room.take_over(old);
                    }
                    self.room = Some(room);
                    self.left = None;
                    self.queue.clear();
                    self.turn_since = self.now;
                }
            }
            Incoming::Event { room, seq, ev } => {
                if self.room_id.as_deref() == Some(&*room) {
                    self.plan_sees(&ev);
                    if self.queue.len() >= MAX_QUEUED {
                        self.flush();
                    }
                    self.queue.push_back((seq, ev));
                    self.pump();
                }
            }
            Incoming::Error { message, code, .. } => {
                let text = if message.is_empty() {
                    code.to_string()
                } else {
                    message
                };
                if self.plan_refused(&text) {
                    return;
                }
                if let Some(r) = self.room.as_mut() {
                    r.base_mut().say(format!("! {text}"));
                }
                self.error(text);
            }
            board @ Incoming::Leaderboard { .. } => {
                self.board = crate::lobby::board_lines(&board);
                self.info(self.board.first().cloned().unwrap_or_default());
            }
            Incoming::Welcome {
                name,
                player,
                account: Some(true),
                ..
            } => {
                self.player_id = Some(player);
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
            Incoming::Mine { games } => {
                let to_play = games.iter().filter(|g| g.your_turn).count();
                let mut lines = vec![format!("your games: {} ({to_play} to play)", games.len())];
                lines.extend(games.iter().map(crate::lobby::my_game_line));
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
            Incoming::LoggedOut { revoked } => self.info(format!(
                "logged out on every other device ({revoked} tokens revoked)"
            )),
            // The connection task resumes the room on its new server node by itself.
            Incoming::ChatDeleted { room, seq } => self.info(format!(
                "a moderator deleted chat line {seq} of room {room}"
            )),
            Incoming::Moved { room } => {
                self.info(format!("room {room} moved to another server: resuming"))
            }
            Incoming::BotAdded { seat, level, .. } => {
                self.info(format!("a computer player (level {level}) sits at {seat}"))
            }
            Incoming::BotRemoved { seat, .. } => {
                self.info(format!("the computer player left {seat}"))
            }
            // A notice about another of the account's games (its turn there, the game over).
            Incoming::Notify { text, .. } => self.info(text),
            Incoming::Planned {
                room,
                taken,
                refused,
                ends_turn,
                snapshot,
                ..
            } => self.on_planned(&room, taken, refused, ends_turn, snapshot),
            Incoming::Welcome { .. }
            | Incoming::History { .. }
            | Incoming::Hints { .. }
            | Incoming::PushSubscribed { .. }
            | Incoming::PushUnsubscribed { .. }
            | Incoming::NotifySettings(_)
            | Incoming::EmailSent { .. }
            | Incoming::Ok { .. }
            | Incoming::Reports { .. }
            | Incoming::Audit { .. }
            | Incoming::Blocks { .. }
            | Incoming::Pong => {}
        }
    }

    /// Lines for the player to read: in the room's log when a room is on screen, else on
    /// the message line.
    fn show_lines(&mut self, lines: Vec<String>) {
        if let Some(r) = self.room.as_mut() {
            for line in lines {
                r.base_mut().say(line);
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
            let animated = self.room.as_ref().is_some_and(|r| r.animates(ev));
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
        let Some(room) = self.room.as_mut() else {
            return;
        };
        if let Err(gap) = room.apply(seq, ev) {
            // Events went missing: catch up from the last one applied (once per gap).
            let since = room.base().seq();
            if self.resumed_from != Some(since) {
                self.resumed_from = Some(since);
                room.base_mut().say(format!("! {gap}"));
                self.out.push(Request::Resume {
                    room: room.base().room().to_string(),
                    since,
                });
            }
            return;
        }
        if let Some(alert) = room.alert(ev) {
            self.message = Some((alert, true));
        }
        match ev {
            Ev::Turn { .. } | Ev::Start { .. } => self.turn_since = self.now,
            Ev::Over { .. } => {
                let line = room.base().log.back().cloned().unwrap_or_default();
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
}

/// The seat `wanted` names among `seats` (turn order): its number from 1, or its name in
/// any case.
fn seat_wanted(seats: &[String], game: &str, wanted: &str) -> Result<WireSeat, String> {
    let named = match wanted.trim().parse::<usize>() {
        Ok(n) => n.checked_sub(1).and_then(|i| seats.get(i)),
        Err(_) => seats.iter().find(|s| s.eq_ignore_ascii_case(wanted.trim())),
    };
    let listed = (seats.iter().enumerate())
        .map(|(i, s)| format!("{} {s}", i + 1))
        .collect::<Vec<_>>()
        .join(", ");
    let why = || format!("--seat: {game} has no seat `{wanted}` (its seats: {listed})");
    let name = named.ok_or_else(why)?;
    WireSeat::parse(name).ok_or_else(why)
}
