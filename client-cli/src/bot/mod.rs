//! The bots, whatever the game system: how they play ([`Level`]) and offline self-play
//! ([`selfplay`], each system's own, tallied alike). A bot's policy is its system's
//! (`systems::*::bot`); playing through a server is `autoplay`'s.

pub mod level;
pub mod tally;

pub use level::Level;
pub use tally::Tally;

use crate::systems;

/// Plays `games` games of `game` between `a` and `b` with the engine alone (no network),
/// seating them alternately (`a` at the first seat in even games) so neither side always
/// moves first; `players` where the game lets the count vary.
pub fn selfplay(
    game: &str,
    players: Option<u8>,
    a: Level,
    b: Level,
    games: u32,
    seed: u64,
) -> Result<Tally, String> {
    let (system, _) = systems::named(game).ok_or_else(|| format!("unknown game `{game}`"))?;
    system.selfplay(game, players, a, b, games, seed)
}
