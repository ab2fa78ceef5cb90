//! Orbs (the `orion-orbs` crate) as a search [`State`]: two to six players in the game's turn
//! order, partners sharing returns; no chance and nothing hidden. A draw offer is not a move
//! a search makes. The evaluation is the terminal client's `greedy` ([`super::orbs_eval`]);
//! the levels judge by [`super::orbs_end`].

use super::orbs_end::judged;
use super::orbs_eval::{raw, SQUASH};
use crate::plan::{Base, Blend, LevelPlan};
use crate::state::{returns_of, squash, Observe, State, ToAct, Values, View, MAX_PLAYERS};
use orion_orbs::{Game, Move, Outcome, Seat};
use rand::RngCore;

/// Rounds level 8 looks past its own next turn: one step a turn makes a plan several turns
/// long, and with one more round (`greedy`'s reply and level 8's turn) level 8 won 68 of the
/// ladder's first 80 games against `greedy`, 59 without, 76 with the essential orbs of
/// [`super::orbs_end`] too (BENCHMARKS.md, "Orbs of two: level 8 on eighty games").
const FURTHER_ROUNDS: usize = 1;

/// Orbs' levels 2 to 7: `greedy`'s moves with odds 0.25, 0.45, 0.65, 0.8 and 0.92 (random
/// ones otherwise), then level 8's decision with odds 0.7 (`greedy`'s otherwise). `greedy`
/// itself is no level: level 7 draws with it (7–5–8), and level 8's games against anything
/// near itself are drawn, while a few random moves a game are there to be punished: level 7
/// beat 92 % of `greedy` 19–0–1 (BENCHMARKS.md, "Orbs of two: the whole chain").
const LEVEL_PLAN: LevelPlan = [
    Blend::mix(Base::Greedy, 0.25, Base::Random),
    Blend::mix(Base::Greedy, 0.45, Base::Random),
    Blend::mix(Base::Greedy, 0.65, Base::Random),
    Blend::mix(Base::Greedy, 0.8, Base::Random),
    Blend::mix(Base::Greedy, 0.92, Base::Random),
    Blend::mix(Base::Search, 0.7, Base::Greedy),
];

/// A game of Orbs in play.
#[derive(Clone, Debug)]
pub struct OrbsState {
    /// The engine's game.
    game: Game,
}

impl OrbsState {
    /// `game`, as the search plays it.
    pub fn new(game: Game) -> OrbsState {
        OrbsState { game }
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The player number of `seat`.
    pub fn player_of(&self, seat: Seat) -> Option<usize> {
        self.game.seats().iter().position(|&s| s == seat)
    }
}

impl State for OrbsState {
    type Action = Move;
    type Chance = ();

    fn players(&self) -> usize {
        self.game.seats().len().min(MAX_PLAYERS)
    }

    fn level_plan(&self) -> Option<LevelPlan> {
        Some(LEVEL_PLAN)
    }

    fn to_act(&self) -> ToAct {
        match self.game.mover().and_then(|s| self.player_of(s)) {
            Some(i) => ToAct::Player(i),
            None => ToAct::Over,
        }
    }

    fn legal_actions(&self, out: &mut Vec<Move>) {
        out.extend(self.game.legal_moves());
    }

    fn apply(&mut self, action: Move) {
        if self.game.play(action).is_err() {
            let _ = self.game.pass();
        }
    }

    fn chance_outcomes(&self, _out: &mut Vec<((), f64)>) {}

    fn apply_chance(&mut self, _outcome: ()) {}

    fn returns(&self) -> Values {
        let seats = self.game.seats();
        let outcome = self.game.outcome();
        returns_of(
            self.players(),
            |i| matches!(outcome, Some(Outcome::Win(w)) if w.includes(seats[i])),
        )
    }

    fn evaluate(&self) -> Values {
        let mut v = [0.0; MAX_PLAYERS];
        for (i, &seat) in self.game.seats().iter().enumerate().take(MAX_PLAYERS) {
            v[i] = squash(raw(&self.game, seat) as f64, SQUASH);
        }
        v
    }

    fn evaluate_for(&self, player: usize) -> f64 {
        match self.game.seats().get(player) {
            Some(&seat) => squash(raw(&self.game, seat) as f64, SQUASH),
            None => 0.5,
        }
    }

    fn judge_for(&self, player: usize) -> f64 {
        match self.game.seats().get(player) {
            Some(&seat) => judged(&self.game, seat, self.players()),
            None => 0.5,
        }
    }

    fn others_draw_as_greedy(&self) -> bool {
        true
    }

    fn further_rounds(&self) -> usize {
        FURTHER_ROUNDS
    }

    fn turns(&self) -> u32 {
        self.game.moves_played()
    }

    fn side(&self, player: usize) -> usize {
        let seats = self.game.seats();
        match seats.get(player) {
            Some(&seat) if self.game.teams() => {
                let partner = self.player_of(seat.opposite()).unwrap_or(player);
                player.min(partner)
            }
            _ => player,
        }
    }
}

/// A view of Orbs: the state itself (nothing is hidden).
#[derive(Clone, Debug)]
pub struct OrbsView {
    /// The game.
    state: OrbsState,
    /// Whose view.
    player: usize,
}

impl Observe for OrbsState {
    type View = OrbsView;
    fn view(&self, player: usize) -> OrbsView {
        OrbsView {
            state: self.clone(),
            player,
        }
    }
}

impl View for OrbsView {
    type State = OrbsState;
    fn player(&self) -> usize {
        self.player
    }
    fn determinize(&self, _rng: &mut dyn RngCore) -> OrbsState {
        self.state.clone()
    }
}
