//! The bots, whatever the game system: how they play ([`Level`]: the AI crate's levels, and
//! `greedy`) and offline self-play ([`selfplay`], the AI crate's games between two of them,
//! tallied). A bot's decisions are `orion_ai`'s, asked by its system's player
//! (`systems::*::player`/`bot`); playing through a server is `autoplay`'s.

pub mod decider;
pub mod level;
pub mod tally;

pub use decider::Decider;
pub use level::Level;
pub use tally::Tally;

use orion_ai::ladder;

/// Plays `games` games of `game` between `a` and `b` with the engine alone (no network),
/// through the AI crate (`orion_ai::ladder::play`: the levels' iterations, no time cap, so a
/// seed gives the same games). `a` takes one seat and `b` every other, `a`'s seat moving one
/// on each game (so neither side always moves first); `players` where the game lets the count
/// vary. A game past the ladder's turn limit, or drawn, is unfinished.
pub fn selfplay(
    game: &str,
    players: Option<u8>,
    a: Level,
    b: Level,
    games: u32,
    seed: u64,
) -> Result<Tally, String> {
    let spec = ladder::parse_game(game, players, false).map_err(|e| e.to_string())?;
    let seats = match spec {
        ladder::GameSpec::Orion(_, n) | ladder::GameSpec::Orbs(n, _) => usize::from(n),
        ladder::GameSpec::Orbit => 2,
    };
    let mut tally = Tally::default();
    for g in 0..games {
        let mine = g as usize % seats;
        let who: Vec<orion_ai::Player> = (0..seats)
            .map(|i| if i == mine { a.player() } else { b.player() })
            .collect();
        let game_seed = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(g);
        let played = ladder::play(&spec, &who, game_seed, 1.0).map_err(|e| e.to_string())?;
        tally.actions += played.actions.len() as u64;
        let won = |i: usize| played.returns.get(i).is_some_and(|r| *r > 0.999);
        if won(mine) {
            tally.first += 1;
        } else if (0..seats).any(won) {
            tally.second += 1;
        } else {
            tally.unfinished += 1;
        }
    }
    Ok(tally)
}
