//! The game trait the search plays (after OpenSpiel's `State`): whose decision it is (a
//! player, chance, or nobody once over), the legal actions, applying one, chance outcomes
//! with their odds, the returns per player at the end and a heuristic estimate before it.
//! Players are numbered `0..players()` in the game's turn order; partners get equal returns.
//!
//! Hidden information enters through [`Observe`]: a search is given one player's
//! [`Observe::View`], never the state, and plays from states the view samples
//! ([`View::determinize`]), so it cannot read what that player may not see.

use crate::plan::LevelPlan;
use rand::RngCore;
use std::fmt::Debug;

/// The most players any game here seats (Orbs: six).
pub const MAX_PLAYERS: usize = 6;

/// A value per player, in `0.0..=1.0` (1 a win, 0 a loss).
pub type Values = [f64; MAX_PLAYERS];

/// Who acts now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToAct {
    /// This player chooses among [`State::legal_actions`].
    Player(usize),
    /// Chance chooses among [`State::chance_outcomes`] (a thrown die).
    Chance,
    /// The game is over: see [`State::returns`].
    Over,
}

/// One game in play, as the search sees it.
pub trait State: Clone {
    /// A player's decision.
    type Action: Copy + Eq + Debug;
    /// What chance may bring (a die's face).
    type Chance: Copy + Eq + Debug;

    /// How many players the game seats.
    fn players(&self) -> usize;
    /// Who acts now.
    fn to_act(&self) -> ToAct;
    /// The actions of the player to act, appended to `out` (never empty while a player acts).
    fn legal_actions(&self, out: &mut Vec<Self::Action>);
    /// Applies one of [`State::legal_actions`].
    fn apply(&mut self, action: Self::Action);
    /// Chance's outcomes with their probabilities (summing to 1), when chance acts.
    fn chance_outcomes(&self, out: &mut Vec<(Self::Chance, f64)>);
    /// Applies one of [`State::chance_outcomes`].
    fn apply_chance(&mut self, outcome: Self::Chance);
    /// The result per player once over: 1 for the winners, 0 for the others, equal shares
    /// for a draw.
    fn returns(&self) -> Values;
    /// A guess of [`State::returns`] before the end, from the game's own evaluation.
    fn evaluate(&self) -> Values;
    /// One player's part of [`State::evaluate`] (a game may compute it alone, cheaper).
    fn evaluate_for(&self, player: usize) -> f64 {
        self.evaluate()[player]
    }
    /// The levels' own judgement of `player`'s prospects, where a game has one finer than
    /// [`State::evaluate_for`] (which `greedy`, the yardstick, keeps unchanged); the turn
    /// search judges its own player's turns and outcomes by it. By default the same.
    fn judge_for(&self, player: usize) -> f64 {
        self.evaluate_for(player)
    }
    /// Whether the turn search, foreseeing another player's turn, values a draw he can make
    /// as `greedy` does (twice his share less a half: even, with two players) rather than with
    /// the searcher's own contempt for draws, which hid `greedy`'s taking a draw from a
    /// position it judged worse (Orbs). By default not: the games measured before keep their
    /// decisions.
    fn others_draw_as_greedy(&self) -> bool {
        false
    }
    /// Whether [`State::judge_for`] already takes every throw of the die still to come by its
    /// expectation (Auriga's race odds): the turn search then takes the replies' throws by
    /// expectation too, and looks no further than the replies. By default not.
    fn judges_throws(&self) -> bool {
        false
    }
    /// Rounds (every other player's reply, then the searcher's turn) the turn search of
    /// level 8 looks past the searcher's own next turn, each of his turns there one of his
    /// few best by his judgement. By default none: the look ends at his next turn (the games
    /// measured before keep their decisions).
    fn further_rounds(&self) -> usize {
        0
    }
    /// The action a solved game's table plays here, where the game is solved (Auriga of
    /// two: [`crate::systems::auriga_solved`]); the levels that search play it instead. By
    /// default none.
    fn solved_action(&self) -> Option<Self::Action> {
        None
    }
    /// What levels 2 to 7 play in this game, where the ladder put them elsewhere than the
    /// levels' default ([`crate::plan::DEFAULT`]; `None`): how far a share of a stronger
    /// player's decisions moves a level depends on the game.
    fn level_plan(&self) -> Option<LevelPlan> {
        None
    }
    /// Moves made so far in a sense the game chooses (for a ladder's turn limit).
    fn turns(&self) -> u32;
    /// A key of this position where a turn starts from it: the same key for the same board
    /// with the same player to move, so a game's [`crate::History`] tells the levels' search
    /// which of its turns return to a position already played. `None` mid-turn, and for a
    /// game that keeps no history (the default: its decisions are as without one).
    fn position_key(&self) -> Option<u64> {
        None
    }
    /// An action another player is bound to take at once, if any (a claim of a chain made
    /// for him): the search and `greedy` follow it before judging a position.
    fn forced(&self) -> Option<Self::Action> {
        None
    }
    /// The side `player` plays for: its own number, or the same as its partner's.
    fn side(&self, player: usize) -> usize {
        player
    }
    /// This state as `player` may take it to be: what he cannot see (another seat's secret)
    /// guessed with `rng`, as his own determinization would ([`Observe::view`] then
    /// [`View::determinize`]). A search imagines another player's turn on it, so the turn
    /// it foresees is chosen on his knowledge, not on the searcher's. By default the state.
    fn guessed_by(&self, player: usize, rng: &mut dyn RngCore) -> Self {
        let _ = (player, rng);
        self.clone()
    }
    /// The chance that one guess of `player`'s of what he cannot see of `other`'s (a secret
    /// man) is right: 1 where he sees it all.
    fn guess_odds(&self, player: usize, other: usize) -> f64 {
        let _ = (player, other);
        1.0
    }
    /// The odds, by [`View::infer`]'s weighting from `player`'s view, of the guess this state
    /// holds of `other`'s secret (1 where nothing is guessed).
    fn inferred_odds(&self, player: usize, other: usize) -> f64 {
        let _ = (player, other);
        1.0
    }
}

/// A state some players cannot see whole.
pub trait Observe: State {
    /// What one player may know.
    type View: View<State = Self>;
    /// `player`'s view of this state: the only thing a search for `player` is given.
    fn view(&self, player: usize) -> Self::View;
}

/// One player's knowledge of a game.
pub trait View: Clone {
    /// The game it is a view of.
    type State: State;
    /// The player whose view it is.
    fn player(&self) -> usize;
    /// A full state agreeing with everything the player knows, the rest guessed with `rng`
    /// (a determinization); a game without hidden information gives its state back.
    fn determinize(&self, rng: &mut dyn RngCore) -> Self::State;
    /// A determinization as the levels' search guesses: the likelier guesses drawn more
    /// often (Algol: a man nearer his goal more likely the secret one), from what the player
    /// sees alone. By default [`View::determinize`] (`greedy` keeps that one).
    fn infer(&self, rng: &mut dyn RngCore) -> Self::State {
        self.determinize(rng)
    }
    /// Whether [`View::determinize`] guesses anything (a search then tries several guesses).
    fn hides(&self) -> bool {
        false
    }
}

/// Returns for a finished game from its winners: `winners[i]` true for each winning player;
/// nobody winning is a draw, shared equally.
pub fn returns_of(players: usize, winners: impl Fn(usize) -> bool) -> Values {
    let mut v = [0.0; MAX_PLAYERS];
    let won: Vec<usize> = (0..players).filter(|&i| winners(i)).collect();
    if won.is_empty() {
        for x in v.iter_mut().take(players) {
            *x = 1.0 / players as f64;
        }
    } else {
        for i in won {
            v[i] = 1.0;
        }
    }
    v
}

/// A raw evaluation (greater is better, 0 even) squashed into `0..1`; `scale` is what a
/// clear advantage measures in the game's own units.
pub fn squash(raw: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-raw / scale).exp())
}
