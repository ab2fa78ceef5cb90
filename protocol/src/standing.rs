//! Where players stand: a seat's rating change in `over`, and the lines of a `leaderboard`
//! reply (a rated game's board, or a puzzle's fewest clicks).

use crate::room::Millis;
use serde::{Deserialize, Serialize};

/// One seat's rating after a rated game, in `over`'s `ratings`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingChange {
    /// The rating shown from now on (60 × the Weng-Lin μ, rounded: 1500 for a newcomer).
    pub rating: i32,
    /// How far it moved with this game (new shown rating less the old).
    pub delta: i32,
    /// Rated games of this game played, this one included.
    pub games: u32,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderEntry {
    /// Place on the board, from 1.
    pub rank: u32,
    /// The account's name.
    pub name: String,
    /// The account's player id.
    pub player: String,
    /// A game's board: the shown rating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    /// A game's board: rated games played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u32>,
    /// A puzzle's board: the fewest clicks this player solved it in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clicks: Option<u32>,
    /// A puzzle's board: when that count was first reached, ms since the epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Millis>,
}
