//! How a bot plays, whatever the game system: `random` takes a uniformly random legal move,
//! `greedy` looks one move ahead with its system's evaluation.

use std::fmt;
use std::str::FromStr;

/// How a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// A uniformly random legal action.
    Random,
    /// One move ahead with an evaluation.
    Greedy,
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        match s.to_ascii_lowercase().as_str() {
            "random" => Ok(Level::Random),
            "greedy" => Ok(Level::Greedy),
            other => Err(format!("unknown bot level `{other}` (random or greedy)")),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Random => "random",
            Level::Greedy => "greedy",
        })
    }
}
