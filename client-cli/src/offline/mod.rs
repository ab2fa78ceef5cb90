//! The offline commands, one file per game system that has them: `orion` (ORION.md section
//! 7: apply, analyze, puzzle, solve), `orbit` and `orbs` (`--game`). Each returns the one line
//! to print, or the one-line error (printed on stderr with exit status 2). Other tools call
//! these: keep the output formats exactly as the specs state them.

pub mod orbit;
pub mod orbs;
pub mod orion;

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
        Some(g) if g.eq_ignore_ascii_case(orbs::GAME) => {
            orbs::apply(players, teams, position, moves)
        }
        Some(g) if orbit::is_orbit(g) => {
            if players.is_some() || teams {
                Err("--players and --teams are for orbs; orbit is for two".into())
            } else {
                orbit::apply(position, moves)
            }
        }
        Some(other) => Err(format!(
            "--game: `{other}` has no apply (orbit, orbs; none for ORION clicks)"
        )),
    }
}

/// `orion analyze`: Orbit's prohibited cells and territory, or ORION's chains and captures.
pub fn analyze(game: &str, position: &str, mover: Option<&str>) -> Result<String, String> {
    if orbit::is_orbit(game) {
        orbit::analyze(position, mover)
    } else {
        orion::analyze(game, position, mover)
    }
}
