//! What the server says about a room: its options, its status, its listing in the lobby, its
//! snapshot (seats, turn, scores, open claims) and a finished game's result.

use crate::fields;
use crate::seat::{Seat, Winner};
use crate::systems::{OrbitResult, OrionResult, SnapshotParts, TurnParts};
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

/// Milliseconds (durations) or milliseconds since the Unix epoch (deadlines).
pub type Millis = u64;

/// Points per seat (`{"S": 3, "N": 0}`).
pub type Scores = BTreeMap<Seat, u32>;

/// A room's options: the game's (`clicks`, `die`, `claim_window`, `players`) and the room's
/// clocks and holds. In `create` any may be left out (the game's default); the server's
/// `snapshot` and lobby listing carry all of them, `null` where a setting is off or the
/// game's own. The engine's `Options` and the server's room options convert from this.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomOptions {
    /// Clicks per move where the game has a fixed number; `null`: the game's.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "fields::tristate"
    )]
    pub clicks: Option<Option<u8>>,
    /// Faces of the special die.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub die: Option<Vec<u8>>,
    /// How long a chain may be claimed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim_window: Option<ClaimWindow>,
    /// Players, where the game allows a range; `null`: the game's default.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "fields::tristate"
    )]
    pub players: Option<Option<u8>>,
    /// Milliseconds per turn; `null`: no clock.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "fields::tristate"
    )]
    pub turn_clock: Option<Option<Millis>>,
    /// Extra milliseconds per seat for the whole game; `null`: no bank.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "fields::tristate"
    )]
    pub time_bank: Option<Option<Millis>>,
    /// How long a disconnected player's seat is held, in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_hold: Option<Millis>,
    /// A correspondence room: the days each turn may take (1, 2, 3, 5, 7 or 14). Its seats
    /// are kept while their players are away, and a player whose days run out loses (an
    /// addition: README).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days_per_move: Option<u8>,
    /// Whether the game changes its players' ratings: `true` rates it even with guests
    /// seated, `false` never; left out (`null` as shown): rated when every seat is a claimed
    /// account as the game starts. Puzzle rooms are never rated.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "fields::tristate"
    )]
    pub rated: Option<Option<bool>>,
    /// Options this crate does not know: kept so a client can read a newer server's rooms,
    /// and so a server can refuse them by name.
    #[serde(flatten, skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
}

/// How long the seat that made a chain may claim it: milliseconds, or `"auto"` (awarded at
/// once).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClaimWindow {
    /// Awarded at once, no claim needed.
    Auto,
    /// Open for this many milliseconds.
    Millis(Millis),
}

impl Serialize for ClaimWindow {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ClaimWindow::Auto => s.serialize_str("auto"),
            ClaimWindow::Millis(ms) => s.serialize_u64(*ms),
        }
    }
}

impl<'de> Deserialize<'de> for ClaimWindow {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ClaimWindow, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = ClaimWindow;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a claim window: milliseconds or \"auto\"")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ClaimWindow, E> {
                Ok(ClaimWindow::Millis(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ClaimWindow, E> {
                u64::try_from(v)
                    .map(ClaimWindow::Millis)
                    .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ClaimWindow, E> {
                match v {
                    "auto" => Ok(ClaimWindow::Auto),
                    _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// Where a room is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Seats are being filled.
    Waiting,
    /// The game is on.
    Playing,
    /// The game is over.
    Finished,
    /// The room is closed (history of a room no longer open).
    Closed,
}

impl Status {
    /// The status as sent on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Finished => "finished",
            Status::Closed => "closed",
        }
    }
}

/// One public room in a `lobby` message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomSummary {
    /// Room id.
    pub room: String,
    /// Game id.
    pub game: String,
    /// Where the room is in its life.
    pub status: Status,
    /// Every seat of the game, with the name of whoever sits there (`null`: free).
    pub seats: BTreeMap<Seat, Option<String>>,
    /// How many watch.
    pub spectators: u32,
    /// The room's options.
    pub options: RoomOptions,
    /// Each seated account's rating in this game (guests have none).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ratings: BTreeMap<Seat, i32>,
    /// The seats computer players hold, with their levels (an addition: README).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub bots: BTreeMap<Seat, u8>,
}

/// One seat in a snapshot, when taken.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// Player id.
    pub player: String,
    /// Display name.
    pub name: String,
    /// The colour the seat moves (`R`, `B`, `G`, `Y`; other systems' own letters).
    pub colour: String,
    /// Whether the sitter's connection is up (a seat is held a while after it drops).
    pub connected: bool,
    /// The sitter's rating in this game, if he has claimed his name (guests have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    /// Before the start: the sitter said `ready` (an addition: README; absent: not ready).
    #[serde(default, skip_serializing_if = "fields::is_false")]
    pub ready: bool,
    /// A computer player: its level, 1 to 8 (an addition: README).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<u8>,
}

/// The turn, as `start` and `snapshot` describe it: every system's fields, then each
/// system's own (flattened: on the wire they are the turn's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Who moves.
    pub seat: Seat,
    /// Clicks allowed this move; `null` while the mover chooses the die or three clicks, and
    /// in a puzzle room (no clicks rule).
    #[serde(deserialize_with = "fields::required")]
    pub clicks: Option<u8>,
    /// Clicks made this move (in a puzzle room: in the whole puzzle; Aquarius: tries made).
    pub used: u32,
    /// Round, from 1.
    pub round: u32,
    /// Each system's own fields (a puzzle's target; Orbit's phase and drop).
    #[serde(flatten)]
    pub systems: TurnParts,
}

/// A chain that may still be claimed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    /// The chain's colour letter.
    pub colour: String,
    /// When the window closes, ms since the epoch.
    pub until: Millis,
}

/// How a game ended: every system's fields, then each system's own (flattened).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The winning seat or team; `null`: nobody (a draw, an abandoned game).
    #[serde(deserialize_with = "fields::required")]
    pub winner: Option<Winner>,
    /// Points per seat (a puzzle room: clicks used; Aquarius: hits).
    pub scores: Scores,
    /// ORION's: Algol's secrets revealed.
    #[serde(flatten)]
    pub orion: OrionResult,
    /// How the game ended, where its system says (Orbit, Orbs: `passes`, `drop_limit`,
    /// `time`, `abandoned`, `last_standing`, `no_capture` …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<String>,
    /// Orbit's: the territory.
    #[serde(flatten)]
    pub orbit: OrbitResult,
}

/// A room's whole state, as one recipient may see it: every system's fields, then each
/// system's own (flattened: on the wire they are the snapshot's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Room id.
    pub room: String,
    /// The last event included (0: none yet).
    pub seq: u64,
    /// Game id.
    pub game: String,
    /// The room's options.
    pub options: RoomOptions,
    /// Where the room is in its life.
    pub status: Status,
    /// Every seat of the game (`null`: free).
    pub seats: BTreeMap<Seat, Option<SeatView>>,
    /// How many watch.
    pub spectators: u32,
    /// The position string.
    pub position: String,
    /// The turn.
    pub turn: Turn,
    /// Points per seat.
    pub scores: Scores,
    /// Chains open to be claimed.
    pub claims: Vec<Claim>,
    /// The result, once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// A correspondence room in play: when the mover's days run out, ms since the epoch (an
    /// addition: README).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<Millis>,
    /// Each system's own fields (Algol's secret; Orbit's prohibited cells and territory;
    /// Orbs' seats out and draw offer).
    #[serde(flatten)]
    pub systems: SnapshotParts,
}
