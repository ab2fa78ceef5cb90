//! What levels 2 to 7 are made of, per game: each plays one of three players' decisions
//! (the random mover, `greedy`, level 8's search) with some odds and another's otherwise.
//! How far a share of a stronger player's decisions moves a level depends on the game: where
//! a random click seldom loses, the steps from the random mover to `greedy` are short and
//! most of the levels belong above `greedy`; where `greedy` is no better than itself with
//! a few random clicks, mixing it with random ones orders nothing. So a game may set its own
//! plan ([`crate::State::level_plan`]); the rest play [`DEFAULT`]. Level 1 is always the
//! random mover and level 8 always the search (BENCHMARKS.md, "A plan of levels per game").

use thiserror::Error;

/// One of the players a level's decision may come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// A uniformly random legal action.
    Random,
    /// One whole turn ahead with the evaluation (the yardstick).
    Greedy,
    /// Level 8's decision: the turn search, or a solved game's table.
    Search,
}

/// A level's play: `strong`'s decision with probability `odds`, `weak`'s otherwise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blend {
    /// The better player.
    pub strong: Base,
    /// How often the level plays `strong`'s decision.
    pub odds: f64,
    /// The player of the other decisions.
    pub weak: Base,
    /// The share of level 8's budget (positions evaluated) the level's search may use when
    /// it plays [`Base::Search`]'s decision: 1 for level 8's own, less for a shorter look.
    pub search_share: f64,
}

impl Blend {
    /// `strong`'s decision with probability `odds`, `weak`'s otherwise.
    pub const fn mix(strong: Base, odds: f64, weak: Base) -> Blend {
        Blend {
            strong,
            odds,
            weak,
            search_share: 1.0,
        }
    }

    /// `player`'s decisions, every one.
    pub const fn only(player: Base) -> Blend {
        Blend::mix(player, 1.0, player)
    }

    /// Level 8's search on every decision, with `share` of its budget: where a shorter look
    /// is a weaker player and a share of `greedy`'s or random decisions orders nothing.
    pub const fn search_with(share: f64) -> Blend {
        Blend {
            search_share: share,
            ..Blend::only(Base::Search)
        }
    }

    /// Whether the level ever plays level 8's decision (and so searches and is given its
    /// budget).
    pub fn searches(&self) -> bool {
        self.strong == Base::Search || self.weak == Base::Search
    }
}

/// Levels 2 to 7, in order.
pub type LevelPlan = [Blend; 6];

/// The levels of a game that sets no plan of its own: `greedy`'s action with odds 0.25,
/// 0.45, 0.65 and 0.82 (random otherwise), `greedy` at level 6, level 8's decision with
/// odds 0.7 (`greedy`'s otherwise) at level 7.
pub const DEFAULT: LevelPlan = [
    Blend::mix(Base::Greedy, 0.25, Base::Random),
    Blend::mix(Base::Greedy, 0.45, Base::Random),
    Blend::mix(Base::Greedy, 0.65, Base::Random),
    Blend::mix(Base::Greedy, 0.82, Base::Random),
    Blend::only(Base::Greedy),
    Blend::mix(Base::Search, 0.7, Base::Greedy),
];

/// A plan written as the ladder's `--plan` takes it: six blends, levels 2 to 7, separated
/// by commas, each a player's letter (`R` the random mover, `G` `greedy`, `S` level 8's
/// search), alone for all of that player's decisions or followed by the odds and the other
/// player's letter, and last, where the level searches with less than level 8's budget,
/// `@` and its share: `G0.4R,G0.75R,G,S0.35G,S0.6G,S0.82G` is Draco's, `S@0.01` level 8's
/// search with a hundredth of its budget.
pub fn parse(text: &str) -> Result<LevelPlan, BadPlan> {
    let bad = || BadPlan(text.to_owned());
    let base = |c: char| match c.to_ascii_uppercase() {
        'R' => Some(Base::Random),
        'G' => Some(Base::Greedy),
        'S' => Some(Base::Search),
        _ => None,
    };
    let blends = text
        .split(',')
        .map(|step| {
            let step = step.trim();
            let (step, share) = match step.split_once('@') {
                Some((step, share)) => (step, share.parse().map_err(|_| bad())?),
                None => (step, 1.0),
            };
            if !(share > 0.0 && share <= 1.0) {
                return Err(bad());
            }
            let mut chars = step.chars();
            let strong = chars.next().and_then(base).ok_or_else(bad)?;
            let rest = chars.as_str();
            let blend = if rest.is_empty() {
                Blend::only(strong)
            } else {
                let weak = rest.chars().last().and_then(base).ok_or_else(bad)?;
                let odds: f64 = rest[..rest.len() - 1].parse().map_err(|_| bad())?;
                if !(0.0..=1.0).contains(&odds) {
                    return Err(bad());
                }
                Blend::mix(strong, odds, weak)
            };
            Ok(Blend {
                search_share: share,
                ..blend
            })
        })
        .collect::<Result<Vec<Blend>, BadPlan>>()?;
    blends.try_into().map_err(|_| bad())
}

/// A plan that is not six blends as [`parse`] reads them.
#[derive(Debug, Error)]
#[error("no plan of levels 2 to 7: {0:?} (six blends such as G0.4R,G0.75R,G,S0.35G,S0.6G,S0.82G)")]
pub struct BadPlan(String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_plan_reads_as_its_blends() {
        let plan = parse("G0.25R,G0.45R,G0.65R,G0.82R,G,S0.7G").unwrap();
        assert_eq!(plan, DEFAULT);
        let shorter = parse("S@0.001,S0.5R@0.25,G,G,G,S").unwrap();
        assert_eq!(shorter[0], Blend::search_with(0.001));
        assert_eq!(shorter[1].search_share, 0.25);
        assert_eq!(shorter[1].weak, Base::Random);
        assert_eq!(shorter[5].search_share, 1.0);
        for wrong in [
            "",
            "G,G,G,G,G",
            "G,G,G,G,G,G,G",
            "X0.5R,G,G,G,G,G",
            "G1.5R,G,G,G,G,G",
            "Gx,G,G,G,G,G",
            "S@0,G,G,G,G,G",
            "S@2,G,G,G,G,G",
            "S@x,G,G,G,G,G",
        ] {
            assert!(parse(wrong).is_err(), "{wrong:?}");
        }
    }
}
