//! The ORION games whose levels are not the default plan ([`crate::plan::DEFAULT`]), each
//! set from the ladder (`ladder --game G --levels 1-8 --against below --games 20`, every
//! level winning 60 % or more of its games against the one below; BENCHMARKS.md, "A plan of
//! levels per game").

use super::auriga_solved;
use crate::plan::{Base, Blend, LevelPlan, DEFAULT};
use orion_engine::Game;

use Base::{Greedy, Random, Search};

/// Draco: a random click seldom loses, so the steps from the random mover to `greedy` are
/// short (two levels fit) and four lie between `greedy` and level 8.
const DRACO: LevelPlan = [
    Blend::mix(Greedy, 0.4, Random),
    Blend::mix(Greedy, 0.75, Random),
    Blend::only(Greedy),
    Blend::mix(Search, 0.35, Greedy),
    Blend::mix(Search, 0.6, Greedy),
    Blend::mix(Search, 0.82, Greedy),
];

/// Levels 2 to 6 playing `greedy`'s action with these odds (a random one otherwise) and
/// `greedy` at level 7: for a game where level 8 is one step above `greedy` and the steps
/// below it are wide.
const fn greedy_at_7(odds: [f64; 5]) -> LevelPlan {
    let mut plan = [Blend::only(Greedy); 6];
    let mut i = 0;
    while i < odds.len() {
        plan[i] = Blend::mix(Greedy, odds[i], Random);
        i += 1;
    }
    plan
}

/// Hydra for Partners, two against two: level 8 wins 57.5 % of its games against `greedy`
/// (40 games), room for one step at most. Below `greedy` a random click loses often (a
/// partner's slip is the other's loss too), and five steps fit.
const HYDRA_PARTNERS: LevelPlan = greedy_at_7([0.2, 0.35, 0.5, 0.7, 0.85]);

/// Hydra for Four, measured two against two (`ladder --seating halves`: an equal player wins
/// half the games): level 8 beat `greedy` 15–5, room for no level between them, and the
/// steps of `greedy`'s clicks over random ones are short near `greedy` (it beat 0.8 and 0.88
/// of itself only 11–9), so the six steps below it start low.
const HYDRA_FOUR: LevelPlan = greedy_at_7([0.1, 0.22, 0.38, 0.55, 0.72]);

/// Taurus: each share of `greedy`'s clicks is a wide step (level 2 at the default 0.25 drew
/// 13 of 20 games against the random mover at 400 rounds, neither finishing), and level 8
/// beats `greedy` in every game: `greedy` is level 7, and the five levels below it climb
/// from odds 0.5.
const TAURUS: LevelPlan = greedy_at_7([0.5, 0.65, 0.8, 0.9, 0.96]);

/// Orion: `greedy` is no better than itself with random clicks (it lost 4–10–6 to 82 % of
/// itself), so one level of `greedy`'s clicks over random ones is all the room below it;
/// every further share of level 8's decisions over `greedy`'s is a step.
const ORION: LevelPlan = [
    Blend::mix(Greedy, 0.3, Random),
    Blend::mix(Search, 0.12, Greedy),
    Blend::mix(Search, 0.25, Greedy),
    Blend::mix(Search, 0.4, Greedy),
    Blend::mix(Search, 0.6, Greedy),
    Blend::mix(Search, 0.82, Greedy),
];

/// Lepus: `greedy` is no better than itself with random clicks, and neither it nor the random
/// mover finishes a game against the other (two `greedy`s block each other's corners to the
/// round limit); a search of 20 positions does (it beat the random mover 20–0). So level 2 is
/// that short search, and levels 3–7 play level 8's decision over `greedy`'s with rising odds.
const LEPUS: LevelPlan = [
    Blend::search_with(0.0001),
    Blend::mix(Search, 0.2, Greedy),
    Blend::mix(Search, 0.4, Greedy),
    Blend::mix(Search, 0.6, Greedy),
    Blend::mix(Search, 0.8, Greedy),
    Blend::mix(Search, 0.92, Greedy),
];

/// The plan of `game`'s levels where it is not the default.
pub fn plan(game: &Game) -> Option<LevelPlan> {
    match game.rules().id() {
        "draco" => Some(DRACO),
        "hydra-partners" => Some(HYDRA_PARTNERS),
        "hydra-4" => Some(HYDRA_FOUR),
        "taurus" => Some(TAURUS),
        "orion" => Some(ORION),
        "lepus" => Some(LEPUS),
        // With level 8 playing the solved table, on 200 games a pairing: level 7 at 0.7 won
        // 70 % against `greedy` and lost 42 % to level 8; at 0.5, 66 % and 32 %.
        "auriga" if auriga_solved::applies(game) => {
            let mut plan = DEFAULT;
            plan[5] = Blend::mix(Search, 0.5, Greedy);
            Some(plan)
        }
        _ => None,
    }
}
