//! ORION (the twelve games of the 1971 booklet and its puzzles) as the client plays it: the
//! room ([`room::RoomState`]) and its screen, typed moves and board keys, the bots and their
//! copy of the game, the replay of a record. The only module that names the
//! `orion-engine` rules a room is played by.

pub mod board;
pub mod bot;
pub mod input;
pub mod mirror;
pub mod player;
pub mod replay;
pub mod room;
mod screen;
pub mod wire;

use super::base::Base;
use super::screen::TurnClock;
use super::{Player, Replay, Room, System};
use crate::bot::level::Level;
use crate::tui::key::Key;
use orion_engine::{games, Direction, Rotor, Slot};
use orion_protocol::{
    Event as Ev, GameRecord, Gap, Request, RoomOptions, Seat as WireSeat, Snapshot,
};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::Frame;
use room::RoomState;
use serde_json::Value;
use std::any::Any;

/// The ORION system.
pub struct Orion;

impl System for Orion {
    fn game_id(&self, word: &str) -> Option<String> {
        games::find_any(word).map(|g| g.id().to_string())
    }

    fn games(&self) -> Vec<&'static str> {
        games::ALL.iter().map(|g| g.id()).collect()
    }

    fn puzzles(&self) -> Vec<&'static str> {
        games::PUZZLES.iter().map(|g| g.id()).collect()
    }

    fn seats(&self, game: &str) -> Vec<String> {
        let made = games::find_any(game)
            .and_then(|rules| orion_engine::Game::new(rules, Default::default(), 0).ok());
        made.map(|g| g.seats().iter().map(|s| s.seat.to_string()).collect())
            .unwrap_or_default()
    }

    fn lobby_games(&self) -> Vec<String> {
        games::ALL
            .iter()
            .map(|g| {
                let p = g.players();
                if p.start() == p.end() {
                    format!("{} ({})", g.id(), p.start())
                } else {
                    format!("{} ({}-{})", g.id(), p.start(), p.end())
                }
            })
            .collect()
    }

    fn players(&self, _game: &str) -> (u8, u8) {
        (2, 4)
    }

    fn option_value(&self, key: &str, value: &str) -> Option<Result<Value, String>> {
        (key == "die").then(|| {
            let faces: Result<Vec<u64>, _> =
                value.split(',').map(|f| f.trim().parse::<u64>()).collect();
            faces
                .map(Value::from)
                .map_err(|_| format!("die=`{value}`: write faces like die=1,2,2,3,4,5"))
        })
    }

    fn help(&self) -> &'static [&'static str] {
        input::HELP
    }

    fn typed(&self, room: &str, line: &str) -> Result<Vec<Request>, String> {
        input::parse(line).map(|mv| input::requests(room, &mv))
    }

    fn room(&self, snap: &Snapshot, me: Option<WireSeat>) -> Box<dyn Room> {
        Box::new(OrionRoom {
            state: RoomState::from_snapshot(snap, me),
            cursor: Rotor::at(2, 2).unwrap_or(Rotor::ALL[12]),
            picked: None,
        })
    }

    fn player(&self, level: Level, seed: u64) -> Box<dyn Player> {
        Box::new(player::OrionPlayer::new(level, seed))
    }

    fn replay(
        &self,
        record: &GameRecord,
        options: &RoomOptions,
    ) -> Result<Box<dyn Replay>, String> {
        Ok(Box::new(replay::OrionReplay::new(record, options)?))
    }
}

/// An ORION room on screen: the room, and where the player points on its board.
pub struct OrionRoom {
    /// The room.
    pub state: RoomState,
    /// The rotor under the cursor.
    pub cursor: Rotor,
    /// The slot picked for placing.
    pub picked: Option<Slot>,
}

impl OrionRoom {
    fn click_cursor(&self, direction: Direction) -> Vec<Request> {
        let click = orion_engine::Click::new(self.cursor, direction);
        vec![Request::Click {
            room: self.state.room().to_string(),
            click: click.to_string(),
            piece: None,
        }]
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
        let room = &self.state;
        let eligible = room.eligible();
        if !eligible.is_empty() {
            return eligible.into_iter().collect();
        }
        if matches!(room.allowance(), Some(orion_engine::Allowance::Place(_))) {
            return self
                .cursor
                .orbit()
                .into_iter()
                .filter(|&s| room.position.get(s).is_none())
                .collect();
        }
        Vec::new()
    }
}

impl Room for OrionRoom {
    fn base(&self) -> &Base {
        &self.state.base
    }

    fn base_mut(&mut self) -> &mut Base {
        &mut self.state.base
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn take_over(&mut self, old: &dyn Room) {
        if old.base().room() == self.base().room() {
            self.state.base.log = old.base().log.clone();
        }
        if let Some(old) = old.as_any().downcast_ref::<OrionRoom>() {
            self.cursor = old.cursor;
            self.picked = old.picked;
        }
    }

    fn apply(&mut self, seq: u64, ev: &Ev<'_>) -> Result<(), Gap> {
        self.state.apply(seq, ev)?;
        if matches!(ev, Ev::Turn { .. } | Ev::Start { .. }) {
            self.picked = None;
        }
        Ok(())
    }

    fn animates(&self, ev: &Ev<'_>) -> bool {
        matches!(ev, Ev::Click { seat, .. } if crate::systems::orion::wire::seat(*seat) != self.state.me())
    }

    fn alert(&self, ev: &Ev<'_>) -> Option<String> {
        let Ev::Chain {
            colour,
            claim_until: Some(_),
        } = ev
        else {
            return None;
        };
        let mine = self.state.me().and_then(|s| self.state.colour_of(s));
        (mine.is_some() && orion_engine::Colour::parse(colour) == mine)
            .then(|| "A CHAIN FOR YOU: press ! to claim it now".to_string())
    }

    fn title(&self) -> String {
        self.head()
    }

    fn board_width(&self) -> u16 {
        board::WIDTH
    }

    fn draw_board(&self, f: &mut Frame, area: Rect) {
        f.render_widget(self.board(), area);
    }

    fn seat_lines(&self) -> Vec<Line<'static>> {
        self.players()
    }

    fn turn_height(&self) -> u16 {
        4
    }

    fn turn_lines(&self, clock: &TurnClock<'_>) -> Vec<Line<'static>> {
        self.turn(clock)
    }

    fn typed(&mut self, line: &str) -> Result<Vec<Request>, String> {
        let mv = input::parse(line)?;
        if let input::Move::Clicks(clicks, _) = &mv {
            if let Some(c) = clicks.last() {
                self.cursor = c.rotor;
            }
        }
        Ok(input::requests(self.state.room(), &mv))
    }

    fn position(&self) -> String {
        orion_engine::position_string(&self.state.position)
    }

    fn point_at(&mut self, request: &Request) -> Option<String> {
        Some(match request {
            Request::Click { click, .. } => {
                let click = orion_engine::parse_click(click).ok()?;
                self.cursor = click.rotor;
                let (key, way) = match click.direction {
                    Direction::Right => (']', "right"),
                    Direction::Left => ('[', "left"),
                };
                format!(
                    "rotor {} is under the cursor: {key} turns it {way} (or type {click})",
                    click.rotor
                )
            }
            Request::Place { slot, .. } => {
                let slot = orion_engine::parse_slot(slot).ok()?;
                self.picked = Some(slot);
                format!("slot {slot} is picked (+): Enter places there (or type {slot})")
            }
            Request::Claim { .. } => "! claims the chain (or type claim)".to_string(),
            Request::EndTurn { .. } => "type end to end the turn".to_string(),
            Request::Roll { .. } => "type roll to throw the die".to_string(),
            Request::Three { .. } => "type three to take three clicks".to_string(),
            Request::Secret { piece, .. } => format!("type secret {piece} to choose him"),
            Request::Challenge { piece, .. } => {
                format!("type challenge {piece} to name him the secret man")
            }
            _ => return None,
        })
    }

    fn key(&mut self, key: Key, typing: bool) -> Option<Vec<Request>> {
        match key {
            Key::Esc => {
                self.picked = None;
                None
            }
            Key::Enter if !typing => {
                let place = self.picked.take().map(|slot| Request::Place {
                    room: self.state.room().to_string(),
                    slot: slot.to_string(),
                    from: None,
                });
                Some(place.into_iter().collect())
            }
            Key::Up | Key::Down | Key::Left | Key::Right => {
                let (dc, dr) = match key {
                    Key::Up => (0, 1),
                    Key::Down => (0, -1),
                    Key::Left => (-1, 0),
                    _ => (1, 0),
                };
                self.move_cursor(dc, dr);
                Some(Vec::new())
            }
            Key::Tab => {
                let slots = self.placeable();
                self.picked = match self.picked.and_then(|p| slots.iter().position(|&s| s == p)) {
                    Some(i) => slots.get(i + 1).copied(),
                    None => slots.first().copied(),
                };
                Some(Vec::new())
            }
            Key::Char('[') if !typing => Some(self.click_cursor(Direction::Left)),
            Key::Char(']') if !typing => Some(self.click_cursor(Direction::Right)),
            Key::Char('!') if !typing => Some(vec![Request::Claim {
                room: self.state.room().to_string(),
            }]),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tui::input::{parse, Command};

    #[test]
    fn a_puzzle_is_created_never_quick_matched() {
        assert_eq!(
            parse("create Aquila"),
            Ok(Some(Command::Create {
                game: "aquila".into(),
                options: None,
                private: false
            }))
        );
        assert!(
            matches!(parse("new aquarius"), Ok(Some(Command::Create { game, .. })) if game == "aquarius")
        );
        let e = parse("quick orbit-b").unwrap_err();
        assert!(e.contains("puzzle") && e.contains("create orbit-b"), "{e}");
        let e = parse("create sudoku").unwrap_err();
        assert!(e.contains("puzzles: aquila"), "{e}");
    }
}
