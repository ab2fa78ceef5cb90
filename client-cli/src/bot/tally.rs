//! The result of offline self-play, whatever the game system.

/// The result of offline self-play: wins of each side and games that hit the move limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won by the first level.
    pub first: u32,
    /// Games won by the second level.
    pub second: u32,
    /// Draws and games stopped at the turn limit.
    pub unfinished: u32,
    /// Actions taken in all the games (clicks, placements, ends of turns...): how long the
    /// games are, each action being one request over the wire.
    pub actions: u64,
}
