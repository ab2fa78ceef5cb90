//! What the store keeps: rooms as created, accepted actions, appends (an action and the
//! events it caused), players. Plain data: no game's types, no database's.

use crate::clock::Millis;
use std::sync::Arc;

/// What a room is created with: enough to rebuild its game from scratch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomRecord {
    /// Room id.
    pub id: String,
    /// Game id (`hydra-2`).
    pub game: String,
    /// Room options as JSON (server and engine options).
    pub options: String,
    /// Seed of the game's random source.
    pub seed: u64,
    /// Unlisted room.
    pub private: bool,
    /// Invite code, for private rooms.
    pub code: Option<String>,
    /// Hex salt of the seed's commitment (published in `start`, revealed with the seed in
    /// `over`); `None` for rooms stored before commitments existed.
    pub salt: Option<String>,
}

/// One accepted action, in the order the room accepted it. Seat and action are text the
/// room's game system reads back (the store knows no game): stored as `SEAT AT ACTION`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRecord {
    /// Who acted (`S`).
    pub seat: String,
    /// What they did, as its game system writes it (ORION's booklet notation: `C4R R7`).
    pub action: String,
    /// The server clock when the room accepted it (claims depend on it).
    pub at: Millis,
}

/// An unfinished room as stored: its record, events and actions.
#[derive(Clone, Debug)]
pub struct SavedRoom {
    /// How it was created.
    pub record: RoomRecord,
    /// Its events in `seq` order, as `(seq, ev JSON)`.
    pub events: Vec<(u64, String)>,
    /// Its accepted game actions in order.
    pub actions: Vec<ActionRecord>,
    /// How many appends it has (the next is numbered one more).
    pub appends: u64,
}

/// A player identity: who a token stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRecord {
    /// Stable public id.
    pub id: String,
    /// Last name used.
    pub name: String,
}

/// One room's share of a group commit: an accepted action and the events (`(seq, ev JSON)`)
/// it caused, stored as one row.
#[derive(Debug)]
pub struct Append {
    /// The room.
    pub room: Arc<str>,
    /// This append's number within the room, from 1 ([`SavedRoom::appends`] after a restart).
    pub n: u64,
    /// The action that caused the events, if a game action did.
    pub action: Option<ActionRecord>,
    /// The events, in `seq` order.
    pub events: Vec<(u64, String)>,
    /// The room's last `seq` once they are added (its `seq` as it was, with no events).
    pub seq: u64,
}

/// One seat of a finished game as the archive keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchivedSeat {
    /// The seat (`S`).
    pub seat: String,
    /// The player id who held it when the game ended.
    pub player: String,
    /// His name then.
    pub name: String,
}

/// A finished public game, found by the players who sat in it (`games`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchivedRoom {
    /// Room id.
    pub room: String,
    /// Game id.
    pub game: String,
    /// When it ended (server time).
    pub ended_at: Millis,
    /// The winner as the wire writes it (`S`, `S+N`); `None`: nobody.
    pub winner: Option<String>,
    /// Who sat where.
    pub seats: Vec<ArchivedSeat>,
}

/// Whose games `games` lists: the seats a player id sat in, or the seats that showed a name
/// (guests share names; a claimed name is one account's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerQuery {
    /// By player id.
    Id(String),
    /// By the name a seat showed when the game ended.
    Name(String),
}

impl PlayerQuery {
    /// The id or the name.
    pub fn text(&self) -> &str {
        match self {
            PlayerQuery::Id(t) | PlayerQuery::Name(t) => t,
        }
    }
}

/// Which finished games `games` asks for: newest first, `limit` at most.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamesQuery {
    /// Whose games.
    pub player: PlayerQuery,
    /// Only this game id.
    pub game: Option<String>,
    /// Only games listed after this room (the last of the page before).
    pub before: Option<String>,
    /// Most games to return.
    pub limit: usize,
}
