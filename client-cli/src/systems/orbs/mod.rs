//! Orbs (seed 003, ORBS.md) as the client plays it: the client's copy of a room's game
//! ([`copy::OrbsCopy`]) and what the room screen shows of it (the star, who is out, a draw
//! offer), typed moves (`d2-e6`, `draw`, `draw accept`), the bots (their moves the AI crate's), the replay of a record.
//! The only module that names the `orion-orbs` engine.

pub mod board;
pub mod copy;
pub mod offline;
pub mod replay;

use super::mover::{typed, GameCopy, MovePlayer, MoveRoom};
use super::{Offline, Player, Replay, Room, System};
use crate::bot::level::Level;
use crate::bot::Decider;
use board::OrbsBoard;
use copy::{seat as orbs_seat, wire, OrbsCopy};
use orion_ai::systems::orbs::OrbsState;
use orion_ai::Observe;
use orion_protocol::{GameRecord, Request, RoomOptions, Seat as WireSeat, Snapshot, Status};
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::Frame;
use serde_json::Value;

/// The game id.
pub const GAME: &str = "orbs";

/// The Orbs system.
pub struct Orbs;

impl System for Orbs {
    fn game_id(&self, word: &str) -> Option<String> {
        word.eq_ignore_ascii_case(GAME).then(|| GAME.to_string())
    }

    fn games(&self) -> Vec<&'static str> {
        vec![GAME]
    }

    fn offline(&self) -> Option<&'static dyn Offline> {
        Some(&offline::OrbsOffline)
    }

    fn players(&self, _game: &str) -> (u8, u8) {
        (2, 6)
    }

    fn seats(&self, _game: &str) -> Vec<String> {
        let game = orion_orbs::Game::new(Default::default());
        game.map(|g| g.seats().iter().map(|s| s.to_string()).collect())
            .unwrap_or_default()
    }

    fn option_value(&self, key: &str, value: &str) -> Option<Result<Value, String>> {
        // Holes out of play as a list, a start position with commas for its spaces.
        match key {
            "holes" => {
                let holes = value.split(',').filter(|h| !h.is_empty());
                Some(Ok(Value::from(
                    holes.map(str::to_string).collect::<Vec<_>>(),
                )))
            }
            "position" => Some(Ok(Value::String(value.replace(',', " ")))),
            _ => None,
        }
    }

    fn help(&self) -> &'static [&'static str] {
        &["orbs: quick orbs [2-6] · create orbs players=4 teams=true void=true holes=i5,i6 · moves d2-e6 · draw · draw accept"]
    }

    fn typed(&self, room: &str, line: &str) -> Result<Vec<Request>, String> {
        typed::<OrbsCopy>(room, line)
    }

    fn room(&self, snap: &Snapshot, me: Option<WireSeat>) -> Box<dyn Room> {
        Box::new(MoveRoom::<OrbsCopy>::from_snapshot(snap, me))
    }

    fn player(&self, level: Level, seed: u64) -> Box<dyn Player> {
        Box::new(MovePlayer::<OrbsCopy>::new(level, seed))
    }

    fn replay(
        &self,
        record: &GameRecord,
        options: &RoomOptions,
    ) -> Result<Box<dyn Replay>, String> {
        Ok(Box::new(replay::OrbsReplay::new(record, options)?))
    }
}

impl GameCopy for OrbsCopy {
    type Bot = Decider;
    const TAKES: &'static str = "removes";
    const NAME: &'static str = "Orbs";
    const WIDTH: u16 = board::WIDTH;

    fn from_view(view: &orion_protocol::RoomView) -> OrbsCopy {
        OrbsCopy::from_view(view)
    }

    fn follow(&mut self, seat: WireSeat, mv: &str, position: &str) -> bool {
        OrbsCopy::follow(self, seat, mv, position)
    }

    fn keep_last(&mut self, old: &OrbsCopy) {
        self.last = old.last;
    }

    fn forced_pass(&self, seat: WireSeat, mv: &str) -> bool {
        mv == "pass" && self.game.as_ref().and_then(|g| g.mover()) != orbs_seat(seat)
    }

    fn seat_order(&self) -> Vec<WireSeat> {
        self.seats().iter().map(|&s| wire(s)).collect()
    }

    fn to_move(&self, me: WireSeat) -> bool {
        self.game
            .as_ref()
            .is_some_and(|g| g.mover().is_some() && g.mover() == orbs_seat(me))
    }

    fn position(&self) -> String {
        self.position.to_string()
    }

    fn bot(level: Level, seed: u64) -> Decider {
        Decider::new(level, seed)
    }

    fn choose(&self, bot: &mut Decider) -> Option<String> {
        let game = self.game.as_ref()?;
        let state = OrbsState::new(game.clone());
        let view = state.view(state.player_of(game.mover()?)?);
        bot.decide(&view).map(|m| m.to_string())
    }

    fn draw_board(&self, _status: Status, f: &mut Frame, area: Rect) {
        f.render_widget(
            OrbsBoard {
                position: self.position.clone(),
                holes: self.holes,
                last: self.last,
            },
            area,
        );
    }

    fn colour_name(&self, seat: WireSeat) -> Option<String> {
        self.colour_of(seat).map(|c| c.name().to_string())
    }

    fn seat_mark(&self, seat: WireSeat) -> (&'static str, Style) {
        let colour = self.colour_of(seat).map_or(Color::Gray, board::colour);
        ("■ ", Style::default().fg(colour))
    }

    fn seat_score(&self, seat: WireSeat) -> String {
        if self.is_out(seat) {
            "  OUT".to_string()
        } else {
            format!("  {} orbs", self.orbs_of(seat))
        }
    }

    fn move_line(&self) -> String {
        "move: from-to (d2-e6) · draw".to_string()
    }

    fn typed(room: &str, line: &str) -> Option<Result<Request, String>> {
        let lower = line.trim().to_ascii_lowercase();
        let room = room.to_string();
        match lower.as_str() {
            "draw" | "offer draw" => Some(Ok(Request::Draw { room, accept: None })),
            "draw accept" | "accept draw" | "accept" => Some(Ok(Request::Draw {
                room,
                accept: Some(true),
            })),
            "pass" => Some(Err(
                "no passing in Orbs: a player passes only when no orb of his can move".to_string(),
            )),
            _ if lower.contains('-') && !lower.contains(' ') => Some(
                lower
                    .parse::<orion_orbs::Move>()
                    .map(|m| Request::Move {
                        room,
                        mv: m.to_string(),
                    })
                    .map_err(|e| e.to_string()),
            ),
            _ => None,
        }
    }
}
