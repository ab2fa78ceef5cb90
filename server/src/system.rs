//! The game-system seam: what the server's core (connections, sessions, lobby, rooms, clocks,
//! store, fan-out) asks of a game, and all it knows of one. A [`GameSystem`] names its games
//! and turns a player's game request into an action text; a [`Table`] is one game in play,
//! owned by its room's task. Actions are opaque text to the core (stored as they are and
//! replayed through the table after a restart); events come back serialized.
//!
//! Adding a game system: one file in `systems/` implementing both traits, one line in
//! `systems::all`. Nothing else in the core changes.

use crate::clock::Millis;
use crate::protocol::Refusal;
use orion_protocol::{Event, GameResult, Request, RoomOptions, Scores, Snapshot, Turn};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::RangeInclusive;

/// A seat at a table, named as on the wire (`S`, `N`, `SW` …). Every system's seat names are
/// static strings, so a seat is cheap to copy and compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(pub &'static str);

impl Seat {
    /// The seat as the protocol crate types it. Every system names its seats from the
    /// crate's compass points; a name outside them would be a system's bug, shown as `S`.
    pub fn wire(self) -> orion_protocol::Seat {
        orion_protocol::Seat::parse(self.0).unwrap_or(orion_protocol::Seat::S)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// One seat of a table: its name and its colour on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatInfo {
    /// The seat.
    pub seat: Seat,
    /// Its colour letter, as in position strings (`R`, `B` …).
    pub colour: &'static str,
}

/// A game a system offers.
#[derive(Clone, Debug)]
pub struct GameInfo {
    /// Its id on the wire (`hydra-2`, `aquila`).
    pub id: &'static str,
    /// Its name for people.
    pub name: &'static str,
    /// How many may play.
    pub players: RangeInclusive<u8>,
    /// How many play when the options do not say.
    pub default_players: u8,
    /// A puzzle for one: its room starts at once, and it is never quick-matched.
    pub solo: bool,
}

/// What an accepted action did.
#[derive(Debug, Default)]
pub struct Applied {
    /// The events it caused, each an `ev` object serialized, in order. The game's end is not
    /// among them: it is [`Applied::over`], and the room writes the `over` event itself.
    pub events: Vec<String>,
    /// The result when the action ended the game.
    pub over: Option<GameResult>,
    /// The action made a hidden choice for its seat, which only whoever made it may see.
    pub hidden: bool,
}

/// A puzzle's figures, for its leaderboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PuzzleFigures {
    /// The booklet's click count, if it gives one.
    pub target: Option<u32>,
    /// The proven fewest clicks from the room's start; `None` where rooms deal their start
    /// (no one count applies to every room).
    pub optimum: Option<u32>,
}

/// A demonstration for the front door (`/catalogue.json`'s `demo`): a puzzle solved on the
/// booklet's line, click by click.
#[derive(Clone, Debug, Serialize)]
pub struct Demo {
    /// The game or puzzle it is (its board module draws it).
    pub game: &'static str,
    /// The position it starts from.
    pub start: String,
    /// The clicks, in order, each one the puzzle takes.
    pub clicks: Vec<String>,
}

/// One of a system's own game options, as the lobby's form asks for it (`/catalogue.json`).
#[derive(Clone, Debug, Serialize)]
pub struct OptionField {
    /// Its key in a room's `options`.
    pub name: &'static str,
    /// What the form calls it.
    pub label: &'static str,
    /// One line for a player saying what it does (the page shows it under "More options").
    pub help: &'static str,
    /// What values it takes, with their bounds.
    #[serde(flatten)]
    pub kind: OptionKind,
    /// Another option that giving this one sets too (Orbs' `position` needs `opening`
    /// `position`), as `[name, value]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub implies: Option<(&'static str, &'static str)>,
}

/// The values an [`OptionField`] takes.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OptionKind {
    /// A whole number from `min` to `max`.
    Number {
        /// Least.
        min: u64,
        /// Most.
        max: u64,
    },
    /// At most `len` whole numbers, each from `min` to `max`.
    Numbers {
        /// Least value.
        min: u64,
        /// Most value.
        max: u64,
        /// Most values.
        len: usize,
    },
    /// Milliseconds from `min` to `max` (a form asks for seconds), or `auto` where `auto`.
    Millis {
        /// Least.
        min: u64,
        /// Most.
        max: u64,
        /// Whether `auto` is a value too.
        auto: bool,
    },
    /// On or off.
    Flag,
    /// A list of names (cells, holes).
    Names,
    /// Text (a position string).
    Text,
}

/// A puzzle's hint: the next click of an optimal line from the position it was asked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The click, in the game's notation (`C4R`).
    pub click: String,
    /// Clicks left on that optimal line, this one included.
    pub left: u32,
}

/// Work that finds a [`Hint`], given by the table and run off the room's task (on the
/// blocking pool): it owns what it needs, and stops by itself within its own budget. `Err`:
/// why there is none, for the player.
pub type HintJob = Box<dyn FnOnce() -> Result<Hint, String> + Send>;

/// The action text that takes back a puzzle's last click that stands (`undo`): the core
/// stores it like any action, and the table's replay folds it.
pub const UNDO: &str = "undo";

/// What a page may highlight for one viewer: named sets of board places (slots, cells,
/// holes) or move texts, computed by the engine (`hints`, README's protocol additions).
pub type Hints = BTreeMap<&'static str, Vec<String>>;

/// A computer player's decision, thought off the room's task (`bots::Pool`): given the level
/// and a seed, the action text for the seat it was made for, or `None` when the seat has
/// nothing to decide after all. It owns a copy of what the seat may see, never the table.
pub type BotJob = Box<dyn FnOnce(orion_ai::Level, u64) -> Option<BotMove> + Send>;

/// The job of a seat whose view hides nothing it needs and whose moves have no timing rule
/// but the turn (Orbit, Orbs): `orion_ai::decide` at the level it is run with, within the
/// level's time, its move taken at once.
pub fn decided_job<V>(view: V) -> BotJob
where
    V: orion_ai::View + Send + 'static,
    <V::State as orion_ai::State>::Action: std::fmt::Display,
{
    Box::new(move |level, seed| {
        let player = orion_ai::Player::Level(level);
        let mv = orion_ai::decide(player, &view, level.timed(), seed)?;
        Some(BotMove {
            action: mv.to_string(),
            reaction: 0,
        })
    })
}

/// What a computer player decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotMove {
    /// The action text, as [`GameSystem::action`] would give it.
    pub action: String,
    /// How long the room waits before taking it: a claim of a chain is made no faster than a
    /// person's reaction (`bots::CLAIM_REACTION`); anything else at once.
    pub reaction: Millis,
}

/// A family of games played on the same lobby (ORION's twelve and its puzzles; Orbit; Orbs).
pub trait GameSystem: Send + Sync + 'static {
    /// The system's id (`orion`, `orbit`, `orbs`): which board module a page draws its games
    /// with.
    fn id(&self) -> &'static str;

    /// The games it offers, puzzles included.
    fn games(&self) -> &[GameInfo];

    /// Its own game options beyond `players` and the server's clocks, with their bounds (the
    /// defaults are what [`GameSystem::options`] fills in).
    fn option_fields(&self) -> Vec<OptionField> {
        Vec::new()
    }

    /// The game with this id (or any name the system accepts for it).
    fn find(&self, game: &str) -> Option<&GameInfo> {
        self.games().iter().find(|g| g.id == game)
    }

    /// Checks a room's game options (`options` of `create` less the server's own) and
    /// returns them complete, defaults filled in, as they are stored and shown.
    fn options(&self, game: &GameInfo, options: RoomOptions) -> Result<RoomOptions, Refusal>;

    /// Sets up a game of `game` with its checked `options`; `seed` drives everything random in
    /// it, so the same seed and actions give the same game.
    fn table(
        &self,
        game: &GameInfo,
        options: &RoomOptions,
        seed: u64,
    ) -> Result<Box<dyn Table>, Refusal>;

    /// The action text of a game request (`click`, `place`, `move` …); `None` for a request
    /// that is not a game action of this system.
    fn action(&self, request: &Request) -> Option<Result<String, Refusal>>;

    /// A puzzle scored by clicks (its `over` gives the clicks used as the seat's score): its
    /// figures. `None` for games, and for puzzles scored otherwise (Aquarius counts hits).
    fn puzzle_figures(&self, _game: &GameInfo) -> Option<PuzzleFigures> {
        None
    }

    /// A puzzle's goal in one or two sentences for a player (the front door shows it); `None`
    /// for games.
    fn puzzle_goal(&self, _game: &GameInfo) -> Option<&'static str> {
        None
    }

    /// A short demonstration the front door replays when no game is on: a start and the
    /// clicks that follow it. `None`: the system has none.
    fn demo(&self) -> Option<Demo> {
        None
    }

    /// Whether computer players play this system's games (`add_bot`, `quick` with `bots`).
    fn has_bots(&self) -> bool {
        false
    }

    /// A stored action as a game record writes it, in the game's own notation (what `orion
    /// replay` reads back); the stored text itself where that is the notation already.
    fn notation(&self, action: &str) -> String {
        action.to_string()
    }
}

/// One game in play. Only its room's task touches it.
pub trait Table: Send {
    /// The seats, in turn order.
    fn seats(&self) -> &[SeatInfo];
    /// The seat to move.
    fn mover(&self) -> Seat;
    /// The round (with the mover, what the turn clock times).
    fn round(&self) -> u32;
    /// The seed the table was set up with.
    fn seed(&self) -> u64;
    /// Takes `seat`'s action (text from [`GameSystem::action`], or as stored) at server time
    /// `now`; on refusal nothing changed.
    fn apply(&mut self, seat: Seat, action: &str, now: Millis) -> Result<Applied, Refusal>;
    /// The action text that ends the mover's turn when his turn clock runs out.
    fn timeout_action(&self) -> &'static str;
    /// The position as its string.
    fn position(&self) -> String;
    /// The turn: whose move, its allowance, the round (and a puzzle's progress, Orbit's
    /// phase).
    fn turn(&self) -> Turn;
    /// Points by seat, for results and snapshots.
    fn scores(&self) -> Scores;
    /// Fills in what a snapshot adds for `viewer` (a seat, or `None` for a spectator): open
    /// claims, hidden choices of the viewer's own seat only, and the system's own fields.
    fn view(&self, viewer: Option<Seat>, snapshot: &mut Snapshot);
    /// The result once the game itself has ended.
    fn result(&self) -> Option<GameResult>;
    /// The result when `seat` loses on time: the other side wins where there is one.
    fn forfeit(&self, seat: Seat) -> GameResult;
    /// The result when every seat has given up: no winner.
    fn abandoned(&self) -> GameResult;
    /// The seat whose hidden choice a stored event of this game records (read on restore, so
    /// that only whoever made it is shown it).
    fn hidden_choice(&self, event: &Event<'_>) -> Option<Seat>;
    /// A copy, to roll back to if the store refuses the action's events.
    fn clone_table(&self) -> Box<dyn Table>;

    /// What `viewer`'s page may highlight now (a seat, or `None` for a spectator): where the
    /// seat may move if it is to move, and what the system shows everyone (Orbit's
    /// territory). Computed through the engine, so the page copies no rule.
    fn hints(&self, _viewer: Option<Seat>, _now: Millis) -> Hints {
        Hints::new()
    }

    /// A computer player's next decision for `seat` at server time `now`, as a job for the
    /// bot pool: `None` when the seat has nothing to decide now (cheap to ask: the room asks
    /// after every change), or the system has no computer players.
    fn bot_job(&self, _seat: Seat, _now: Millis) -> Option<BotJob> {
        None
    }

    /// A puzzle's hint from the position now, as work to run elsewhere; `None` where the
    /// game has no solver (games, Aquarius) or is over. The table also takes the action
    /// [`UNDO`] where it can take a click back, and refuses it in words where it cannot.
    fn hint_job(&self) -> Option<HintJob> {
        None
    }

    /// The winner's chain on the board, once the game has ended by one (ORION's games);
    /// `None` elsewhere.
    fn winning_chain(&self) -> Option<orion_protocol::WinningChain> {
        None
    }

    /// The sides that play against each other, for ratings: one seat each, or partners
    /// together. By default seats that move the same colour are partners (ORION's team games).
    fn sides(&self) -> Vec<Vec<Seat>> {
        let mut sides: Vec<(&str, Vec<Seat>)> = Vec::new();
        for info in self.seats() {
            match sides.iter_mut().find(|(c, _)| *c == info.colour) {
                Some((_, seats)) => seats.push(info.seat),
                None => sides.push((info.colour, vec![info.seat])),
            }
        }
        sides.into_iter().map(|(_, seats)| seats).collect()
    }
}
