//! How a bot plays, whatever the game system: the AI crate's levels (`orion_ai::Level`, 1
//! random … 8 strongest), or `greedy` (`orion_ai::greedy`, one move ahead: the yardstick).
//! `random` is level 1 by its older name.

use orion_ai::{Budget, Player};
use std::fmt;
use std::str::FromStr;

/// How a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// A uniformly random legal action (level 1).
    Random,
    /// One move ahead with its game's evaluation (`orion_ai::greedy`).
    Greedy,
    /// One of the AI's levels, 1 to 8.
    Ai(orion_ai::Level),
}

impl Level {
    /// Who decides, as the AI crate names it.
    pub fn player(self) -> Player {
        match self {
            Level::Random => Player::Level(orion_ai::Level::MIN),
            Level::Greedy => Player::Greedy,
            Level::Ai(level) => Player::Level(level),
        }
    }

    /// The budget of a decision: the level's iterations, and with `timed` (a bot at a
    /// server, where a person waits) the AI's time cap on top.
    pub fn budget(self, timed: bool) -> Option<Budget> {
        match (self.player(), timed) {
            (Player::Level(level), true) => level.timed(),
            (Player::Level(level), false) => level.budget(),
            (Player::Greedy, _) => None,
        }
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "random" => Ok(Level::Random),
            "greedy" => Ok(Level::Greedy),
            other => {
                let n = other.strip_prefix('l').unwrap_or(other);
                n.parse::<orion_ai::Level>().map(Level::Ai).map_err(|_| {
                    format!(
                        "unknown bot level `{other}` (1 random … 8 strongest, random or greedy)"
                    )
                })
            }
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Random => f.write_str("random"),
            Level::Greedy => f.write_str("greedy"),
            Level::Ai(level) => write!(f, "L{level}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_read_by_number_and_by_their_older_names() {
        assert_eq!("random".parse(), Ok(Level::Random));
        assert_eq!("Greedy".parse(), Ok(Level::Greedy));
        let eight = orion_ai::Level::new(8).unwrap();
        assert_eq!("8".parse(), Ok(Level::Ai(eight)));
        assert_eq!("L8".parse(), Ok(Level::Ai(eight)));
        assert_eq!(Level::Random.player(), Player::Level(orion_ai::Level::MIN));
        assert_eq!(Level::Greedy.player(), Player::Greedy);
        let e = "9".parse::<Level>().unwrap_err();
        assert!(e.contains("1 random … 8 strongest"), "{e}");
    }
}
