//! What the player types and presses, turned into requests: a lobby command (`tui::input`),
//! else a move in the notation of the room's game system, and the keys of the lobby's list
//! and of the room's board.

use super::{App, Key, Screen};
use crate::lobby::taken;
use crate::systems;
use crate::tui::input::{self, Command};
use orion_protocol::{Request, Status as WireStatus};

/// Longest line that may be typed.
const MAX_INPUT: usize = 300;

impl App {
    /// Runs one typed line.
    pub fn submit(&mut self, line: &str) {
        let command = match input::parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return self.typed_move(line),
            Err(e) => return self.error(e),
        };
        self.message = None;
        let room = self.room_id.clone();
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
            Command::Unqueue => self.out.push(Request::Unqueue),
            Command::Quick {
                game,
                players,
                days,
            } => {
                self.out.push(Request::Quick {
                    game,
                    players,
                    bots: None,
                    days_per_move: days,
                });
            }
            Command::Turn(words) => self.plan_turn(words),
            Command::SendPlan => self.send_plan(),
            Command::DropPlan => self.drop_plan(),
            Command::Create {
                game,
                options,
                private,
            } => self.out.push(Request::Create {
                game,
                options,
                private: Some(private),
                seat: None,
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
            } => {
                // One's own games by id (a guest's name is shared); another's by name.
                let (player_id, player_name) = match player {
                    Some(name) => (None, Some(name)),
                    None => match &self.player_id {
                        Some(id) => (Some(id.clone()), None),
                        None => (None, Some(self.name.clone())),
                    },
                };
                self.out.push(Request::Games {
                    player_id,
                    player_name,
                    player: None,
                    game,
                    before,
                })
            }
            Command::LogoutAll => self.out.push(Request::LogoutAll),
            Command::Mine => self.out.push(Request::Mine),
            Command::Export(room) => {
                let code = (self.room_id.as_deref() == Some(room.as_str()))
                    .then(|| self.invite.clone())
                    .flatten();
                self.out.push(Request::Export { room, code });
            }
            Command::Leave => {
                if let Some(room) = room {
                    self.out.push(Request::Leave { room });
                }
                self.back_to_lobby();
            }
            Command::Say(text) => self.in_room(|room| Request::Chat { room, text }),
            Command::Ready => self.in_room(|room| Request::Ready { room }),
            Command::Bot(level) => self.in_room(|room| Request::AddBot {
                room,
                level: Some(level),
                seat: None,
            }),
            Command::Rematch(accept) => self.in_room(|room| Request::Rematch {
                room,
                accept: Some(accept),
            }),
        }
    }

    /// Sends the request `make` makes for the room on screen, or says there is none.
    fn in_room(&mut self, make: impl FnOnce(String) -> Request) {
        match self.room_id.clone() {
            Some(room) => self.out.push(make(room)),
            None => self.error(NOT_IN_A_ROOM),
        }
    }

    /// A line that is no lobby command: a move of the room's game system (of the default
    /// system while the room's snapshot is on its way, or outside any room).
    fn typed_move(&mut self, line: &str) {
        let requests = match (self.room.as_mut(), &self.room_id) {
            (Some(room), _) => room.typed(line),
            (None, Some(room)) => systems::default().typed(room, line),
            (None, None) => systems::default()
                .typed("", line)
                .and_then(|_| Err(NOT_IN_A_ROOM.to_string())),
        };
        match requests {
            Ok(requests) => {
                self.message = None;
                self.out.extend(requests);
            }
            Err(e) => self.error(e),
        }
    }

    /// One key.
    pub fn on_key(&mut self, key: Key) {
        let typing = !self.input.is_empty();
        match key {
            Key::Interrupt => self.quit = true,
            Key::Esc => {
                self.input.clear();
                self.help = false;
                if let Some(room) = self.room.as_mut() {
                    room.key(Key::Esc, typing);
                }
            }
            Key::Backspace => {
                self.input.pop();
            }
            Key::Enter if typing => {
                let line = std::mem::take(&mut self.input);
                self.submit(&line);
            }
            Key::PageUp => self.scroll = self.scroll.saturating_add(5),
            Key::PageDown => self.scroll = self.scroll.saturating_sub(5),
            Key::Enter if self.screen == Screen::Lobby => self.enter_selected(),
            Key::Up if self.screen == Screen::Lobby => {
                self.selected = self.selected.saturating_sub(1)
            }
            Key::Down if self.screen == Screen::Lobby => {
                self.selected = (self.selected + 1).min(self.rooms.len().saturating_sub(1))
            }
            _ => {
                let on_board = match self.room.as_mut() {
                    Some(room) if self.screen == Screen::Room => room.key(key, typing),
                    _ => None,
                };
                match (on_board, key) {
                    (Some(requests), _) => self.out.extend(requests),
                    (None, Key::Char(c)) if self.input.chars().count() < MAX_INPUT => {
                        self.input.push(c)
                    }
                    _ => {}
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
}

/// What a room's command or move typed outside any room is told.
const NOT_IN_A_ROOM: &str = "you are not in a room: quick, create, join or watch one first";
