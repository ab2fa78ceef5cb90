//! Orbit (the `orion-orbit` crate) as a search [`State`]: two players, `S` (player 0, the
//! pie's opening drops) and `N` (player 1, who then chooses a colour); no chance and nothing
//! hidden, so a view is the state. A game set up from a position has no seats, only colours:
//! black is then player 0. The evaluation is the territory lead (the terminal client's
//! `greedy` weighs drops by it) with captured stones on top, and a little for shape.

use crate::plan::{Base, Blend, LevelPlan};
use crate::state::{returns_of, squash, Observe, State, ToAct, Values, View, MAX_PLAYERS};
use orion_orbit::{groups, CellSet, Game, Move, Seat, Stone, Turn};
use rand::RngCore;

/// Orbit's levels 2 to 7: `greedy`'s drops with odds 0.25, 0.45 and 0.65 (random ones
/// otherwise), then level 8's decision with odds 0.3, 0.55 and 0.8 (`greedy`'s otherwise).
/// `greedy` itself is no level: in Orbit it is no better than itself with random drops (it
/// lost 5–15 to 82 % of itself), while each share of level 8's decisions over `greedy`'s is
/// a step (BENCHMARKS.md, "Orion and Orbit: level 8's decisions over `greedy`'s").
const LEVEL_PLAN: LevelPlan = [
    Blend::mix(Base::Greedy, 0.25, Base::Random),
    Blend::mix(Base::Greedy, 0.45, Base::Random),
    Blend::mix(Base::Greedy, 0.65, Base::Random),
    Blend::mix(Base::Search, 0.3, Base::Greedy),
    Blend::mix(Base::Search, 0.55, Base::Greedy),
    Blend::mix(Base::Search, 0.8, Base::Greedy),
];

/// A game of Orbit in play.
#[derive(Clone, Debug)]
pub struct OrbitState {
    /// The engine's game.
    game: Game,
}

impl OrbitState {
    /// `game`, as the search plays it.
    pub fn new(game: Game) -> OrbitState {
        OrbitState { game }
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The player number of `seat`.
    pub fn player_of_seat(seat: Seat) -> usize {
        match seat {
            Seat::S => 0,
            Seat::N => 1,
        }
    }

    /// The player who plays `colour`.
    pub fn player_of(&self, colour: Stone) -> usize {
        match self.game.holder(colour) {
            Some(seat) => Self::player_of_seat(seat),
            None => colour as usize,
        }
    }
}

impl State for OrbitState {
    type Action = Move;
    type Chance = ();

    fn players(&self) -> usize {
        2
    }

    fn level_plan(&self) -> Option<LevelPlan> {
        Some(LEVEL_PLAN)
    }

    fn to_act(&self) -> ToAct {
        match self.game.turn() {
            Turn::Opening { .. } => ToAct::Player(0),
            Turn::Choice => ToAct::Player(1),
            Turn::Play(colour) => ToAct::Player(self.player_of(colour)),
            Turn::Over => ToAct::Over,
        }
    }

    fn legal_actions(&self, out: &mut Vec<Move>) {
        out.extend(self.game.legal_moves().iter());
    }

    fn apply(&mut self, action: Move) {
        if self.game.play(action).is_err() {
            let _ = self.game.play(Move::Pass);
        }
    }

    fn chance_outcomes(&self, _out: &mut Vec<((), f64)>) {}

    fn apply_chance(&mut self, _outcome: ()) {}

    fn returns(&self) -> Values {
        let winner = self.game.outcome().and_then(|o| o.winner);
        returns_of(2, |i| winner.is_some_and(|w| self.player_of(w) == i))
    }

    fn evaluate(&self) -> Values {
        let mut v = [0.0; MAX_PLAYERS];
        if !matches!(self.game.turn(), Turn::Play(_)) {
            // The opening's three stones decide nothing yet; the pie makes it even.
            v[0] = 0.5;
            v[1] = 0.5;
            return v;
        }
        let t = self.game.territory();
        let board = self.game.board();
        for colour in Stone::ALL {
            let lead = f64::from(t[colour]) - f64::from(t[colour.other()]);
            let stones = board.of(colour).len() as f64 - board.of(colour.other()).len() as f64;
            let shape = shape(board.of(colour)) - shape(board.of(colour.other()));
            v[self.player_of(colour)] = squash(lead + 0.3 * stones + shape, 6.0);
        }
        v
    }

    fn turns(&self) -> u32 {
        self.game.drops()
    }
}

/// Worth less than a stone, so territory and stones decide when they differ: stones near the
/// centre (room to enclose on every side) and few groups (joined walls enclose more, as the
/// client's `greedy` rewards joining and extending). Without it every early drop is worth the
/// same and a small search plays whichever it tries first.
fn shape(stones: CellSet) -> f64 {
    let centre: f64 = stones
        .iter()
        .map(|c| {
            let dx = (f64::from(c.column()) - 7.5).abs();
            let dy = (f64::from(c.row()) - 7.5).abs();
            7.5 - dx.max(dy)
        })
        .sum();
    0.02 * centre - 0.1 * groups(stones).count() as f64
}

/// A view of Orbit: the state itself (nothing is hidden).
#[derive(Clone, Debug)]
pub struct OrbitView {
    /// The game.
    state: OrbitState,
    /// Whose view.
    player: usize,
}

impl Observe for OrbitState {
    type View = OrbitView;
    fn view(&self, player: usize) -> OrbitView {
        OrbitView {
            state: self.clone(),
            player,
        }
    }
}

impl View for OrbitView {
    type State = OrbitState;
    fn player(&self) -> usize {
        self.player
    }
    fn determinize(&self, _rng: &mut dyn RngCore) -> OrbitState {
        self.state.clone()
    }
}
