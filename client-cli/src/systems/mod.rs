//! The client's game-system seam, as `GameSystem`/`Table` are the server's: what the screens,
//! the bots, `orion replay` and self-play ask of a game system, and all they know of one. A
//! [`System`] names its games and makes the rest: a [`Room`] (one room followed event by event
//! into its view, drawn, typed into), a [`Player`] (a bot's side of a room), a [`Replay`] (a
//! record played again through the engine) and offline self-play.
//!
//! Adding a game system: one module here implementing the four traits, one line in [`ALL`].
//! Nothing else in the client changes (its offline commands, if any, are its [`Offline`],
//! in its module: the binary's `offline/` finds them here).

pub mod base;
pub mod mover;
pub mod orbit;
pub mod orbs;
pub mod orion;
pub mod paint;
pub mod screen;

use crate::bot::level::Level;
use crate::tui::key::Key;
use base::Base;
use orion_protocol::{
    Event as Ev, GameRecord, GameResult, Gap, Request, RoomOptions, Seat as WireSeat, Snapshot,
};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::Frame;
use screen::TurnClock;
use serde_json::Value;
use std::any::Any;

/// Every game system this client plays, the default first: ORION, whose notation a line
/// typed outside any room is read in.
pub static ALL: [&dyn System; 3] = [&orion::Orion, &orbit::Orbit, &orbs::Orbs];

/// A family of games played on the same lobby (ORION's twelve and its puzzles; Orbit; Orbs).
pub trait System: Sync {
    /// The id of this system's game (or puzzle) that `word` names, in any case or by any
    /// name the system accepts; `None` when it names none.
    fn game_id(&self, word: &str) -> Option<String>;
    /// Its games' ids, in the order the help lists them.
    fn games(&self) -> Vec<&'static str>;
    /// Its puzzles' ids (rooms of one player, created and never quick-matched).
    fn puzzles(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// Its games with their player counts for the lobby's side panel (`hydra-2 (2)`,
    /// `orion (2-4)`); none where the help names them.
    fn lobby_games(&self) -> Vec<String> {
        Vec::new()
    }
    /// How many may play `game` (a quick match's `players` is checked against it).
    fn players(&self, game: &str) -> (u8, u8);
    /// The seats of `game` with its default number of players, in turn order (`S`, `N`):
    /// what `play --computer … --seat N` counts.
    fn seats(&self, game: &str) -> Vec<String>;
    /// A `create` option `key=value` as its JSON value, where this system writes it its own
    /// way (a list, a position); `None`: the usual reading (a number, a flag, a word).
    fn option_value(&self, _key: &str, _value: &str) -> Option<Result<Value, String>> {
        None
    }
    /// Its lines of the help: how its moves are typed, how its rooms are made.
    fn help(&self) -> &'static [&'static str];
    /// A typed line that is no lobby command, as a move in `room` whatever the room holds:
    /// the requests, or what is wrong with it.
    fn typed(&self, room: &str, line: &str) -> Result<Vec<Request>, String>;
    /// A room of one of its games known from its snapshot; `me` is this client's seat.
    fn room(&self, snap: &Snapshot, me: Option<WireSeat>) -> Box<dyn Room>;
    /// A bot's side of a room of one of its games, playing at `level` with `seed`.
    fn player(&self, level: Level, seed: u64) -> Box<dyn Player>;
    /// A finished game's record, ready to be played again through the engine.
    fn replay(&self, record: &GameRecord, options: &RoomOptions)
        -> Result<Box<dyn Replay>, String>;
    /// Its own offline commands (`orion apply --game GAME`, `orion analyze --game GAME`);
    /// `None`: it has none (ORION's need no `--game`: the binary's `offline/orion.rs`).
    fn offline(&self) -> Option<&'static dyn Offline> {
        None
    }
}

/// A system's offline commands, run by the `orion` binary: one line out, or a one-line error.
pub trait Offline: Sync {
    /// `moves` played under the system's rules from `position` (`players`, `teams` where its
    /// games have seats to choose): the position after them.
    fn apply(
        &self,
        players: Option<u8>,
        teams: bool,
        position: &str,
        moves: &str,
    ) -> Result<String, String>;
    /// What `position` holds by the system's rules; `None`: it has no analysis of its own.
    fn analyze(&self, _position: &str, _mover: Option<&str>) -> Option<Result<String, String>> {
        None
    }
}

/// The system that plays `game` (an id, or any name a system accepts), with the game's id.
pub fn named(word: &str) -> Option<(&'static dyn System, String)> {
    ALL.iter().find_map(|&s| s.game_id(word).map(|id| (s, id)))
}

/// The board's width while a room's snapshot is on its way (the default system's).
pub const WAITING_WIDTH: u16 = orion::board::WIDTH;

/// The system whose notation a line typed outside any room is read in.
pub fn default() -> &'static dyn System {
    ALL[0]
}

/// The room a snapshot shows, followed by the system of its game (the default system's when
/// this client knows no system of that game: its view and log still follow).
pub fn room(snap: &Snapshot, me: Option<WireSeat>) -> Box<dyn Room> {
    named(&snap.game)
        .map_or_else(default, |(s, _)| s)
        .room(snap, me)
}

/// The lines of the help for every system, ahead of the lobby's own (the default system's
/// first, then the lobby's, then the others').
pub fn help(lobby: &[&'static str], tail: &[&'static str]) -> Vec<&'static str> {
    let mut lines: Vec<&'static str> = default().help().to_vec();
    lines.extend_from_slice(lobby);
    for s in &ALL[1..] {
        lines.extend_from_slice(s.help());
    }
    lines.extend_from_slice(tail);
    lines
}

/// One room as this client follows it: the view and log every system has ([`Base`]), the
/// system's own copy of the game, and what the room screen shows of it.
pub trait Room: Any + Send {
    /// The view, this client's seat and the log.
    fn base(&self) -> &Base;
    /// The same, to change.
    fn base_mut(&mut self) -> &mut Base;
    /// Itself, for [`Room::take_over`] to recognize a room of its own system.
    fn as_any(&self) -> &dyn Any;
    /// Takes over what a fresh snapshot does not bring from the room shown before: the log of
    /// the same room (and, in a system's own rooms, where the player was pointing).
    fn take_over(&mut self, old: &dyn Room) {
        if old.base().room() == self.base().room() {
            self.base_mut().log = old.base().log.clone();
        }
    }
    /// Applies the event numbered `seq`: a repeat is ignored, a missing one is a [`Gap`] and
    /// nothing is applied (resume from the view's seq).
    fn apply(&mut self, seq: u64, ev: &Ev<'_>) -> Result<(), Gap>;
    /// Whether `ev` is shown one at a time, after a pause (another player's click).
    fn animates(&self, _ev: &Ev<'_>) -> bool {
        false
    }
    /// What the player must be told at once after `ev` (a chain to claim now).
    fn alert(&self, _ev: &Ev<'_>) -> Option<String> {
        None
    }
    /// The title bar: the game, the room, this client's seat.
    fn title(&self) -> String;
    /// The board's width on screen.
    fn board_width(&self) -> u16;
    /// Draws the board in `area`.
    fn draw_board(&self, f: &mut Frame, area: Rect);
    /// One line per seat, in turn order: mover, sitter, colour, score.
    fn seat_lines(&self) -> Vec<Line<'static>>;
    /// Lines the turn box has room for.
    fn turn_height(&self) -> u16;
    /// The turn box: whose move and what kind, the clock, the system's own news.
    fn turn_lines(&self, clock: &TurnClock<'_>) -> Vec<Line<'static>>;
    /// A typed line that is no lobby command, as this room's move: the requests, or what is
    /// wrong with it.
    fn typed(&mut self, line: &str) -> Result<Vec<Request>, String>;
    /// A key on the board (not typing when `typing` is false): the requests it makes, or
    /// `None` when the board does not take it (then it is typed).
    fn key(&mut self, _key: Key, _typing: bool) -> Option<Vec<Request>> {
        None
    }
    /// Marks on the board what `request` acts on, as a lesson marks the element to act on
    /// (the web page's `data-hint`): the cursor put on a click's rotor, a slot picked to place
    /// on. Says in words what is marked and which key acts on it; `None` when this board has
    /// no mark for such a request (the lesson then shows its hint in words).
    fn point_at(&mut self, _request: &Request) -> Option<String> {
        None
    }
    /// The board's position as the system writes it (the client's copy of the game).
    fn position(&self) -> String {
        self.base().view.position.clone()
    }
    /// Times the client's copy of the game had to be set up again from the view (it lost
    /// the thread of the events: it never should).
    fn resyncs(&self) -> u32 {
        0
    }
}

/// How a bot is faring in its room, shared by every system's [`Player`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Tries {
    /// Nothing has come for a while: stop waiting for the rest of a step.
    pub quiet: bool,
    /// Refusals since the last event.
    pub in_a_row: u32,
    /// Refusals in the whole game.
    pub refused: u32,
}

/// Refusals in a row after which a bot stops trying until something happens.
pub const MAX_REFUSALS: u32 = 6;

/// How a game a bot played ended: the room, the winner as the wire writes it, points by seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Room id.
    pub room: String,
    /// The winner (`S`, a team `S+N`), `None` for a draw.
    pub winner: Option<String>,
    /// Final points per seat.
    pub scores: Vec<(String, u64)>,
}

/// A bot's side of one room: it follows the room and its own copy of the game, and decides
/// when the room has caught up.
pub trait Player: Send {
    /// This bot sits at `seat`.
    fn joined(&mut self, seat: WireSeat);
    /// The room as a snapshot shows it.
    fn snapshot(&mut self, snap: &Snapshot);
    /// The event numbered `seq`: requests to send at once (a chain's claim), or a [`Gap`]
    /// (resume from [`Player::seq`]).
    fn event(&mut self, seq: u64, ev: &Ev<'_>) -> Result<Vec<Request>, Gap>;
    /// The last event followed, once there is a room.
    fn seq(&self) -> Option<u64>;
    /// The server refused the last request for the rate only: send it again later.
    fn rate_limited(&mut self) {}
    /// The server refused the last request.
    fn refused(&mut self) {}
    /// What to send now, if anything.
    fn decide(&mut self, tries: &mut Tries) -> Option<Request>;
    /// How the game ended, once it has.
    fn ending(&self) -> Option<Ending>;
}

/// How a replayed game stands: over by the rules (with the winner as the wire writes it),
/// or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The rules ended it.
    Rules(Option<String>),
    /// Not over.
    On,
}

/// A record played again through a system's engine.
pub trait Replay {
    /// The position as its string.
    fn position(&self) -> String;
    /// Takes `seat`'s action in the record's notation: `true` when it ended the game though
    /// the rules did not (a seat lost on time where it could not pass).
    fn apply(&mut self, seat: &str, action: &str) -> Result<bool, String>;
    /// How the game stands.
    fn end(&self) -> End;
    /// The whole result, where the engine makes it (ORION's scores and revealed secrets): the
    /// replay checks all of it, not only the winner.
    fn result(&self) -> Option<GameResult> {
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::tui::input::{parse, Command};
    use serde_json::Value;

    #[test]
    fn orbit_and_orbs_rooms_with_their_options() {
        assert_eq!(
            parse("quick Orbs 5"),
            Ok(Some(Command::Quick {
                game: "orbs".into(),
                players: Some(5),
                days: None,
            }))
        );
        assert!(parse("quick orbs 7").unwrap_err().contains("2 to 6"));
        assert!(parse("quick orbit 3").unwrap_err().contains("2 to 2"));
        let Ok(Some(Command::Create { game, options, .. })) =
            parse("create orbs players=4 teams=true holes=i5,i6 position=a1:RW,q1:BW")
        else {
            panic!("create orbs")
        };
        assert_eq!(game, "orbs");
        let options = options.expect("options");
        assert_eq!(options.players, Some(Some(4)));
        assert_eq!(options.extra["teams"], Value::Bool(true));
        assert_eq!(options.extra["holes"], serde_json::json!(["i5", "i6"]));
        assert_eq!(options.extra["position"], "a1:RW q1:BW");
        assert!(
            matches!(parse("create orbit"), Ok(Some(Command::Create { game, .. })) if game == "orbit")
        );
    }
}
