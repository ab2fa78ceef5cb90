//! Orbit (seed 002, ORBIT.md) as the client plays it: the client's copy of a room's game
//! ([`copy::OrbitCopy`]) and what the room screen shows of it (the 16x16 grid, the opening and
//! the choice of colour, territory), typed moves (`h8`, `pass`, `black`/`white`), the bots (their moves the AI crate's),
//! the replay of a record. The only module that names the `orion-orbit` engine.

pub mod board;
pub mod copy;
pub mod offline;
pub mod replay;

use super::mover::{typed, GameCopy, MovePlayer, MoveRoom};
use super::{Offline, Player, Replay, Room, System};
use crate::bot::level::Level;
use crate::bot::Decider;
use board::OrbitBoard;
use copy::OrbitCopy;
use orion_ai::systems::orbit::OrbitState;
use orion_ai::Observe;
use orion_orbit::{Game, Stone, Turn};
use orion_protocol::{GameRecord, Request, RoomOptions, Seat as WireSeat, Snapshot, Status};
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::Frame;

/// The game id.
pub const GAME: &str = "orbit";

/// The Orbit system.
pub struct Orbit;

impl System for Orbit {
    fn game_id(&self, word: &str) -> Option<String> {
        word.eq_ignore_ascii_case(GAME).then(|| GAME.to_string())
    }

    fn games(&self) -> Vec<&'static str> {
        vec![GAME]
    }

    fn offline(&self) -> Option<&'static dyn Offline> {
        Some(&offline::OrbitOffline)
    }

    fn players(&self, _game: &str) -> (u8, u8) {
        (2, 2)
    }

    fn seats(&self, _game: &str) -> Vec<String> {
        vec!["S".to_string(), "N".to_string()]
    }

    fn help(&self) -> &'static [&'static str] {
        &["orbit: quick orbit · create orbit · moves h8, pass, black / white (the choice after the opening)"]
    }

    fn typed(&self, room: &str, line: &str) -> Result<Vec<Request>, String> {
        typed::<OrbitCopy>(room, line)
    }

    fn room(&self, snap: &Snapshot, me: Option<WireSeat>) -> Box<dyn Room> {
        Box::new(MoveRoom::<OrbitCopy>::from_snapshot(snap, me))
    }

    fn player(&self, level: Level, seed: u64) -> Box<dyn Player> {
        Box::new(MovePlayer::<OrbitCopy>::new(level, seed))
    }

    fn replay(&self, _: &GameRecord, _: &RoomOptions) -> Result<Box<dyn Replay>, String> {
        Ok(Box::new(replay::OrbitReplay(Game::new())))
    }
}

impl GameCopy for OrbitCopy {
    type Bot = Decider;
    const TAKES: &'static str = "captures";
    const NAME: &'static str = "Orbit";
    const WIDTH: u16 = board::WIDTH;

    fn from_view(view: &orion_protocol::RoomView) -> OrbitCopy {
        OrbitCopy::from_view(view)
    }

    fn follow(&mut self, seat: WireSeat, mv: &str, position: &str) -> bool {
        OrbitCopy::follow(self, seat, mv, position)
    }

    fn keep_last(&mut self, old: &OrbitCopy) {
        self.last_drop = old.last_drop;
    }

    fn seat_order(&self) -> Vec<WireSeat> {
        vec![WireSeat::S, WireSeat::N]
    }

    fn to_move(&self, me: WireSeat) -> bool {
        match self.game.turn() {
            Turn::Opening { .. } => me == WireSeat::S,
            Turn::Choice => me == WireSeat::N,
            Turn::Play(c) => self.colour_of(me) == Some(c),
            Turn::Over => false,
        }
    }

    fn position(&self) -> String {
        orion_orbit::position_string(self.board())
    }

    fn bot(level: Level, seed: u64) -> Decider {
        Decider::new(level, seed)
    }

    fn choose(&self, bot: &mut Decider) -> Option<String> {
        let seat = self.game.seat_to_move()?;
        let view = OrbitState::new(self.game.clone()).view(OrbitState::player_of_seat(seat));
        bot.decide(&view).map(|m| m.to_string())
    }

    fn draw_board(&self, status: Status, f: &mut Frame, area: Rect) {
        let playing = status == Status::Playing;
        let territory = |c: Stone| {
            self.game.board().vacant() & (self.game.prohibited(c.other()) - self.game.prohibited(c))
        };
        f.render_widget(
            OrbitBoard {
                stones: *self.board(),
                last: self.last_drop,
                to_drop: self.to_drop().filter(|_| playing),
                prohibited: if playing {
                    self.prohibited()
                } else {
                    Default::default()
                },
                black_territory: territory(Stone::Black),
                white_territory: territory(Stone::White),
            },
            area,
        );
    }

    fn colour_name(&self, seat: WireSeat) -> Option<String> {
        self.colour_of(seat).map(|s| s.name().to_string())
    }

    fn seat_mark(&self, seat: WireSeat) -> (&'static str, Style) {
        match self.colour_of(seat) {
            Some(Stone::Black) => ("● ", Style::default().fg(Color::LightMagenta)),
            Some(_) => ("○ ", Style::default().fg(Color::White)),
            None => ("  ", Style::default()),
        }
    }

    fn seat_score(&self, seat: WireSeat) -> String {
        match self.colour_of(seat) {
            Some(c) => format!("  {} · territory {}", c.name(), self.territory()[c]),
            None => "  colour not chosen yet".to_string(),
        }
    }

    fn move_line(&self) -> String {
        self.phase()
    }

    fn score_line(&self) -> Option<String> {
        let t = self.territory();
        Some(format!("territory: black {} · white {}", t.black, t.white))
    }

    fn typed(room: &str, line: &str) -> Option<Result<Request, String>> {
        let lower = line.trim().to_ascii_lowercase();
        let mv = |text: String| Request::Move {
            room: room.to_string(),
            mv: text,
        };
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
}
