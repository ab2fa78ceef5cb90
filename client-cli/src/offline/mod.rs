//! The offline commands: ORION's in `orion` (ORION.md section 7: apply, analyze, puzzle,
//! solve), and with `--game` those of the game's system (its `systems::Offline`, in its own
//! module of the library). Each returns the one line to print, or the one-line error (printed
//! on stderr with exit status 2). Other tools call these: keep the output formats exactly as
//! the specs state them.

pub mod orion;

use orion_cli::systems::{self, Offline};

/// The offline commands of the system that plays `game`, if it has any.
fn of(game: &str) -> Option<&'static dyn Offline> {
    systems::named(game).and_then(|(s, _)| s.offline())
}

/// `orion apply`: ORION's mechanics without `--game`, else that game's rules.
pub fn apply(
    game: Option<&str>,
    players: Option<u8>,
    teams: bool,
    position: &str,
    moves: &str,
) -> Result<String, String> {
    match game {
        None if players.is_some() || teams => Err("--players and --teams need --game".into()),
        None => orion::apply(position, moves),
        Some(g) => match of(g) {
            Some(offline) => offline.apply(players, teams, position, moves),
            None => {
                let games: Vec<&str> = systems::ALL
                    .iter()
                    .filter(|s| s.offline().is_some())
                    .flat_map(|s| s.games())
                    .collect();
                Err(format!(
                    "--game: `{g}` has no apply ({}; none for ORION clicks)",
                    games.join(", ")
                ))
            }
        },
    }
}

/// `orion analyze`: the game's system's own analysis where it has one, else ORION's chains
/// and captures.
pub fn analyze(game: &str, position: &str, mover: Option<&str>) -> Result<String, String> {
    match of(game).and_then(|o| o.analyze(position, mover)) {
        Some(result) => result,
        None => orion::analyze(game, position, mover),
    }
}
