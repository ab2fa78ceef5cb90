//! The levels, 1 to 8, and `greedy`: who decides, and with what budget. The order is by
//! construction, each level the one below with more of the decisions made well: level 1
//! plays a uniformly random legal action, level 8 looks at the replies too
//! ([`crate::turns`]: the mover's best whole turns, every other player's best answers to
//! each, the worst assumed, its own next turn, `greedy`'s tied replies and a proof that its
//! turn leaves no forced win with two players), and levels 2 to 7 play one of the random
//! mover's, `greedy`'s (one whole turn ahead) or level 8's decisions with some odds and
//! another's otherwise, by the game's plan ([`crate::plan`]; by default `greedy`'s action with
//! probability 0.25, 0.45, 0.65 and 0.82 at levels 2 to 5, `greedy` at level 6, level 8's
//! decision with probability 0.7 at level 7). A level that may search never misses a win in
//! one action. Where a game is solved (two-player Auriga with the default die:
//! [`crate::systems::auriga_solved`]), level 8's decision is the solution's instead of the
//! search's. The way lichess's weaker Stockfish levels play the engine's move or a worse one:
//! mixing two players makes each level's games against the next decisive where levels that
//! differed by budget alone drew (BENCHMARKS.md, "Levels 5 to 7 as a mix"). By default
//! `greedy` sits at level 6, not 4, because the steps from the random mover to `greedy` are
//! large in most games and the steps from `greedy` to level 8 small (BENCHMARKS.md,
//! "`greedy` at level 6"); a game whose steps lie elsewhere says so in its plan.
//!
//! The Monte Carlo tree search ([`crate::search`]) that played levels 2–8 before is kept as a
//! library function but plays no level in any game: on the ladder it never beat `greedy` in
//! Hydra for Two, Lepus or Orion and lost Orbit and Hydra for Four, because its budget went
//! to further clicks of its own turn and seldom reached the reply; the turn search measured
//! better in every game where both were measured (Hydra for Two and Four, Lepus, Orion,
//! Orbit, Orbs; BENCHMARKS.md, "The AI ladder"). Budgets are positions evaluated, so a seed
//! gives the same game; in play a level is also held to [`MAX_THINK`] ([`Level::timed`]).

use crate::greedy::greedy;
use crate::history::History;
use crate::mcts::Budget;
use crate::plan::{Base, Blend, LevelPlan, DEFAULT};
use crate::state::{State, ToAct, View};
use crate::turns::{turn_search, Shape};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;
use thiserror::Error;

/// A level of play, 1 (random) to 8 (strongest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// Positions evaluated by one decision of level 8's search (and of a lower level when it
/// plays level 8's decision).
const EVALUATIONS: u32 = 200_000;

/// How widely and deeply level 8 looks.
const SHAPE: Shape = Shape {
    candidates: 40,
    reply_beam: 48,
    replies: 2,
    again: true,
    threats: true,
    proofs: 3,
    guesses: 4,
};

/// The most a level-8 decision may take in play.
pub const MAX_THINK: Duration = Duration::from_secs(2);

/// A level out of range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("level {0} does not exist: levels run from 1 to 8")]
pub struct NoSuchLevel(pub u32);

impl Level {
    /// The weakest: a random mover.
    pub const MIN: Level = Level(1);
    /// The strongest.
    pub const MAX: Level = Level(8);

    /// Level `n`, 1..=8.
    pub fn new(n: u8) -> Result<Level, NoSuchLevel> {
        if (1..=8).contains(&n) {
            Ok(Level(n))
        } else {
            Err(NoSuchLevel(u32::from(n)))
        }
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=8).map(Level)
    }

    /// The level's number.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The blend this level plays by `plan`: levels 2 to 7; `None` for level 1 (the random
    /// mover) and level 8 (the search), which play no blend.
    pub fn blend(self, plan: &LevelPlan) -> Option<Blend> {
        plan.get(usize::from(self.0).checked_sub(2)?).copied()
    }

    /// The budget of the level's search in positions evaluated alone, when it searches
    /// (`None` for level 1, the random mover; levels 2 to 7 search as level 8 does where
    /// their game's plan gives them a share of its decisions, and otherwise never use it).
    pub fn budget(self) -> Option<Budget> {
        (self.0 >= 2).then_some(Budget {
            iterations: EVALUATIONS,
            time: None,
        })
    }

    /// The budget with a time cap on top, for play: no decision takes over [`MAX_THINK`].
    pub fn timed(self) -> Option<Budget> {
        self.budget().map(|b| Budget {
            time: Some(MAX_THINK),
            ..b
        })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Level {
    type Err = NoSuchLevel;
    fn from_str(s: &str) -> Result<Level, NoSuchLevel> {
        let n: u32 = s.trim().parse().map_err(|_| NoSuchLevel(0))?;
        u8::try_from(n)
            .map_err(|_| NoSuchLevel(n))
            .and_then(Level::new)
    }
}

/// Who makes a seat's decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// One of the levels.
    Level(Level),
    /// One move ahead with the evaluation (the yardstick).
    Greedy,
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Level(l) => write!(f, "L{l}"),
            Player::Greedy => f.write_str("greedy"),
        }
    }
}

impl FromStr for Player {
    type Err = NoSuchLevel;
    fn from_str(s: &str) -> Result<Player, NoSuchLevel> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("greedy") {
            return Ok(Player::Greedy);
        }
        let n = s.strip_prefix(['L', 'l']).unwrap_or(s);
        n.parse().map(Player::Level)
    }
}

/// `player`'s decision for `view`'s player, or `None` when it has nothing to decide, with no
/// record of the game's earlier positions (see [`decide_with`]). The same view, player,
/// budget and seed give the same decision. `budget` overrides the level's own (`None`: the
/// level's iterations).
pub fn decide<V: View>(
    player: Player,
    view: &V,
    budget: Option<Budget>,
    seed: u64,
) -> Option<<V::State as State>::Action> {
    decide_with(player, view, &History::new(), budget, seed)
}

/// As [`decide`], knowing the positions the game's turns started from (`history`): a level
/// that plays level 8's decision judges, when it searches, a turn that returns to one of them
/// a little worse for each time the game has been there, so it does not repeat a cycle to the
/// round limit; `greedy` (the yardstick) and the random mover do not look at it. The same
/// view, history, player, budget and seed give the same decision.
pub fn decide_with<V: View>(
    player: Player,
    view: &V,
    history: &History,
    budget: Option<Budget>,
    seed: u64,
) -> Option<<V::State as State>::Action> {
    decide_planned(player, view, history, budget, seed, None)
}

/// The plan `state`'s game gives its levels 2 to 7: its own, or [`DEFAULT`].
pub fn plan_of<S: State>(state: &S) -> LevelPlan {
    state.level_plan().unwrap_or(DEFAULT)
}

/// As [`decide_with`], levels 2 to 7 playing `plan` where it is given, in place of the
/// game's own: the ladder's `--plan`, for trying a plan before a game has it. With `None`
/// the same decisions as [`decide_with`].
pub fn decide_planned<V: View>(
    player: Player,
    view: &V,
    history: &History,
    budget: Option<Budget>,
    seed: u64,
    plan: Option<&LevelPlan>,
) -> Option<<V::State as State>::Action> {
    let level = match player {
        Player::Greedy => return greedy(view, seed),
        Player::Level(level) => level,
    };
    if level == Level::MIN {
        return random(view, seed);
    }
    let budget = budget.or(level.budget());
    // The game as the level sees it: its plan, and a solved game's table.
    let determinized = || view.determinize(&mut ChaCha8Rng::seed_from_u64(seed));
    if level == Level::MAX {
        return sure_win(view, seed)
            .or_else(|| searched(view, &determinized(), history, budget?, seed));
    }
    let state = determinized();
    let plan = plan.copied().unwrap_or_else(|| plan_of(&state));
    // Levels 2 to 7 here: each plays its blend.
    let blend = level.blend(&plan)?;
    // A level that may play level 8's decision takes a win in one as level 8 does; its odds
    // are drawn from their own seed (the same decisions as when only level 7 searched).
    let salt = if blend.searches() {
        if let Some(win) = sure_win(view, seed) {
            return Some(win);
        }
        0x5ea5
    } else {
        0x0dd5
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ salt);
    let base = if rng.gen_bool(blend.odds) {
        blend.strong
    } else {
        blend.weak
    };
    match base {
        Base::Random => random(view, seed),
        Base::Greedy => greedy(view, seed),
        Base::Search => searched(
            view,
            &state,
            history,
            budget?.scaled(blend.search_share),
            seed,
        ),
    }
}

/// Level 8's decision where it has no win in one: a solved game's table (read from `state`,
/// the view's determinization with `seed`), or the turn search.
fn searched<V: View>(
    view: &V,
    state: &V::State,
    history: &History,
    budget: Budget,
    seed: u64,
) -> Option<<V::State as State>::Action> {
    if state.to_act() == ToAct::Player(view.player()) {
        if let Some(solved) = state.solved_action() {
            return Some(solved);
        }
    }
    turn_search(view, history, SHAPE, budget, seed)
}

/// A uniformly random legal action.
fn random<V: View>(view: &V, seed: u64) -> Option<<V::State as State>::Action> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let state = view.determinize(&mut rng);
    if state.to_act() != ToAct::Player(view.player()) {
        return None;
    }
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    legal.choose(&mut rng).copied()
}

/// Guesses of hidden information a sure win must survive.
const SURE: usize = 8;

/// An action that wins at once in every guess of what the player cannot see.
fn sure_win<V: View>(view: &V, seed: u64) -> Option<<V::State as State>::Action> {
    let me = view.player();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let guesses: Vec<V::State> = (0..SURE).map(|_| view.determinize(&mut rng)).collect();
    let first = guesses.first()?;
    if first.to_act() != ToAct::Player(me) {
        return None;
    }
    let mut legal = Vec::new();
    first.legal_actions(&mut legal);
    legal.into_iter().find(|&a| {
        guesses.iter().all(|g| {
            let mut after = g.clone();
            after.apply(a);
            after.to_act() == ToAct::Over && after.returns()[me] >= 1.0
        })
    })
}
