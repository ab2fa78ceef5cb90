//! The options a room sets for its game (clicks, die, claim window, players) and their
//! bounds. Options are checked once, by `Game::new`; unknown fields are refused so typos show.

use crate::rules::Die;
use serde::{Deserialize, Serialize};

/// The most clicks any option may grant in one move (the earlier server's bound).
pub const MAX_CLICKS: u8 = 6;
/// Most faces a die option may have: the booklet's die has six, and a bound keeps a room's
/// options (sent in every listing and snapshot) small.
pub const MAX_DIE_FACES: usize = 12;

/// How long another player has to claim a chain made for him by someone else's click.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimWindow {
    /// The chain wins at once, no claim needed.
    Auto,
    /// Milliseconds from the click that made the chain.
    Millis(u64),
}

impl Default for ClaimWindow {
    fn default() -> Self {
        ClaimWindow::Millis(5_000)
    }
}

impl Serialize for ClaimWindow {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ClaimWindow::Auto => s.serialize_str("auto"),
            ClaimWindow::Millis(ms) => s.serialize_u64(*ms),
        }
    }
}

impl<'de> Deserialize<'de> for ClaimWindow {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Ms(u64),
            Word(String),
        }
        match Raw::deserialize(d)? {
            Raw::Ms(ms) if ms <= 600_000 => Ok(ClaimWindow::Millis(ms)),
            Raw::Ms(_) => Err(serde::de::Error::custom(
                "claim window must be at most 600000 ms",
            )),
            Raw::Word(w) if w == "auto" => Ok(ClaimWindow::Auto),
            Raw::Word(w) => Err(serde::de::Error::custom(format!(
                "claim window must be milliseconds or \"auto\", not \"{w}\""
            ))),
        }
    }
}

/// Options a room may set for its game. Unknown fields are refused so typos are noticed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Clicks per move where the game has a fixed number (1..=6); `None` is the game's own.
    pub clicks: Option<u8>,
    /// Faces of the special die.
    pub die: Vec<u8>,
    /// The claim window for chains made by someone else's click.
    pub claim_window: ClaimWindow,
    /// Number of players, where the game allows a range; `None` is the game's smallest.
    pub players: Option<u8>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            clicks: None,
            die: Die::default().faces,
            claim_window: ClaimWindow::default(),
            players: None,
        }
    }
}
