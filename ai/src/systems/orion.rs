//! ORION's twelve games (the `orion-engine` crate) as a search [`State`]: the engine's own
//! `legal_actions` and `step` judge every rule. The die is a chance node (`roll` leaves the
//! state waiting for a face, thrown by [`State::apply_chance`]); a chain made for another
//! player is his decision at once (`claim`, the only sensible answer, so a search sees a claim
//! it can make); Algol's secret men are chosen by each seat in turn before the first move.
//! A seat's view ([`OrionView`]) holds the engine's [`Game::seen_by`] copy: the other seats'
//! secret men are not in it, and a search guesses them ([`View::determinize`]: uniformly, as
//! `greedy` does; [`View::infer`]: the levels, a man nearer his goal likelier).

use super::{auriga_race, auriga_solved, orion_eval, orion_plans};
use crate::plan::LevelPlan;
use crate::state::{returns_of, Observe, State, ToAct, Values, View, MAX_PLAYERS};
use orion_engine::{Action, Game, Millis, Piece, Seat, Winner};
use rand::seq::SliceRandom;
use rand::RngCore;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// One of ORION's games in play, whole (every secret in it).
#[derive(Clone, Debug)]
pub struct OrionState {
    /// The engine's game.
    game: Game,
    /// The caller's clock, the same for the whole search: claim windows are judged against it.
    now: Millis,
    /// The mover chose to throw the die and chance has not yet thrown it.
    rolling: bool,
}

impl OrionState {
    /// `game` at time `now` (claims open at `now` can be claimed).
    pub fn new(game: Game, now: Millis) -> OrionState {
        OrionState {
            game,
            now,
            rolling: false,
        }
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The seat of player `i` (the game's turn order).
    pub fn seat(&self, i: usize) -> Seat {
        self.game.seats().get(i).map_or(Seat::S, |s| s.seat)
    }

    /// The player number of `seat`.
    pub fn player_of(&self, seat: Seat) -> Option<usize> {
        self.game.seats().iter().position(|s| s.seat == seat)
    }

    /// The seat that may claim a chain now, if any.
    fn claimer(&self) -> Option<Seat> {
        let claim = self.game.claimable(self.now).next()?;
        self.game.seats_of(claim.colour).next()
    }

    /// Algol: the first seat still to choose its secret man.
    fn choosing(&self) -> Option<Seat> {
        if self.game.rules().id() != "algol" {
            return None;
        }
        self.game
            .seats()
            .iter()
            .map(|s| s.seat)
            .find(|&s| self.game.in_play(s) && self.game.secret(s).is_none())
    }

    /// The seat whose decision it is (meaningless once over or at a chance node).
    fn actor(&self) -> Seat {
        self.claimer()
            .or_else(|| self.choosing())
            .unwrap_or_else(|| self.game.mover())
    }
}

impl State for OrionState {
    type Action = Action;
    type Chance = u8;

    fn players(&self) -> usize {
        self.game.seats().len().min(MAX_PLAYERS)
    }

    fn to_act(&self) -> ToAct {
        if self.game.outcome().is_some() {
            return ToAct::Over;
        }
        if self.rolling {
            return ToAct::Chance;
        }
        match self.player_of(self.actor()) {
            Some(i) => ToAct::Player(i),
            None => ToAct::Over,
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.game.outcome().is_some() || self.rolling {
            return;
        }
        if self.claimer().is_some() {
            out.push(Action::Claim);
            return;
        }
        if let Some(seat) = self.choosing() {
            let mut all = Vec::new();
            self.game.legal_actions_into(seat, self.now, &mut all);
            out.extend(
                all.into_iter()
                    .filter(|a| matches!(a, Action::Secret { .. })),
            );
            return;
        }
        let mark = out.len();
        self.game
            .legal_actions_into(self.game.mover(), self.now, out);
        // A claim of the mover's is listed above, as the claimer's decision.
        let mut i = mark;
        while i < out.len() {
            if matches!(out[i], Action::Claim | Action::Secret { .. }) {
                out.swap_remove(i);
            } else {
                i += 1;
            }
        }
        if out.len() == mark {
            // A move no click can end legally: the room's clock ends it.
            out.push(Action::Timeout);
        }
    }

    fn apply(&mut self, action: Action) {
        if action == Action::Roll {
            self.rolling = true;
            return;
        }
        let seat = match action {
            Action::Claim => self.claimer().unwrap_or_else(|| self.game.mover()),
            Action::Secret { .. } => self.choosing().unwrap_or_else(|| self.game.mover()),
            _ => self.game.mover(),
        };
        if self.game.step(seat, action, self.now).is_err() {
            // Not one of the legal actions: the turn ends as on a timeout, so play goes on.
            let mover = self.game.mover();
            let _ = self.game.step(mover, Action::Timeout, self.now);
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        let faces = &self.game.options().die;
        let p = 1.0 / faces.len().max(1) as f64;
        out.extend(faces.iter().map(|&f| (f, p)));
    }

    fn apply_chance(&mut self, face: u8) {
        self.rolling = false;
        let mover = self.game.mover();
        if self.game.step_roll(mover, face).is_err() {
            let _ = self.game.step(mover, Action::Three, self.now);
        }
    }

    fn returns(&self) -> Values {
        let winner = self.game.outcome().and_then(|o| o.winner);
        returns_of(self.players(), |i| {
            let seat = self.seat(i);
            match winner {
                Some(Winner::Seat(s)) => s == seat,
                Some(Winner::Team(a, b)) => a == seat || b == seat,
                None => false,
            }
        })
    }

    fn evaluate(&self) -> Values {
        orion_eval::evaluate(&self.game)
    }

    fn evaluate_for(&self, player: usize) -> f64 {
        orion_eval::evaluate_seat(&self.game, player)
    }

    fn judge_for(&self, player: usize) -> f64 {
        orion_eval::judge_seat(&self.game, player)
    }

    fn judges_throws(&self) -> bool {
        auriga_race::applies(&self.game)
    }

    fn solved_action(&self) -> Option<Action> {
        if self.rolling {
            return None;
        }
        auriga_solved::decide(&self.game)
    }

    fn level_plan(&self) -> Option<LevelPlan> {
        orion_plans::plan(&self.game)
    }

    fn turns(&self) -> u32 {
        self.game.round()
    }

    fn position_key(&self) -> Option<u64> {
        // The same key as a room's table records (it has no clock to see claims by).
        if self.rolling {
            return None;
        }
        position_key(&self.game)
    }

    fn forced(&self) -> Option<Action> {
        (!self.rolling && self.game.outcome().is_none() && self.claimer().is_some())
            .then_some(Action::Claim)
    }

    fn guessed_by(&self, player: usize, rng: &mut dyn RngCore) -> Self {
        if self.game.rules().id() != "algol" {
            return self.clone();
        }
        self.view(player).infer(rng)
    }

    fn guess_odds(&self, player: usize, other: usize) -> f64 {
        // As the levels guess (a man nearer his goal likelier): `greedy` guesses uniformly,
        // but a level or a person suspects the man pushed on, and a search must not count on
        // the weaker guesser.
        self.inferred_odds(player, other)
    }

    fn inferred_odds(&self, player: usize, other: usize) -> f64 {
        if self.game.rules().id() != "algol" || player == other {
            return 1.0;
        }
        let Some(&seat) = self.game.seats().get(other) else {
            return 1.0;
        };
        let weights = suspicion(&self.game, seat);
        let total: f64 = weights.iter().map(|(_, w)| w).sum();
        let guess = self.game.secret(seat.seat);
        weights
            .iter()
            .find(|(p, _)| Some(*p) == guess)
            .map_or(0.0, |(_, w)| w / total.max(f64::MIN_POSITIVE))
    }

    fn side(&self, player: usize) -> usize {
        self.game
            .seats()
            .get(player)
            .map_or(player, |s| s.colour as usize)
    }
}

/// One seat's view of one of ORION's games: the engine's copy made for that seat, holding no
/// other seat's secret man and no die to come.
#[derive(Clone, Debug)]
pub struct OrionView {
    /// The state with the seat's copy of the game in it.
    seen: OrionState,
    /// Whose view.
    player: usize,
}

impl OrionView {
    /// `seat`'s view of `game` at `now`.
    pub fn new(game: &Game, seat: Seat, now: Millis) -> Option<OrionView> {
        let seen = OrionState::new(game.seen_by(seat), now);
        let player = seen.player_of(seat)?;
        Some(OrionView { seen, player })
    }
}

/// The rounds past which the ladder calls a game of `rules` drawn. No ORION game has a limit
/// of its own; 400 only bounds a game that goes nowhere. Bootes has 1,000: a race of two
/// strong players that is still going somewhere at round 400 (of level 8's four games
/// against `greedy` at 400, two were won by round 1,000).
pub fn ladder_rounds(rules: &dyn orion_engine::Rules) -> u32 {
    match rules.id() {
        "bootes" => 1_000,
        _ => 400,
    }
}

/// `player`'s decision for `seat` in `game` at `now` (a room's clock), as a person would make
/// it: `None` when the seat has nothing to decide now, or when its move cannot be ended
/// legally (the room's clock ends it then; no player may send `timeout`).
pub fn think(
    game: &Game,
    seat: Seat,
    now: Millis,
    player: crate::Player,
    budget: Option<crate::Budget>,
    seed: u64,
) -> Option<Action> {
    think_with(
        game,
        seat,
        now,
        &crate::History::new(),
        player,
        budget,
        seed,
    )
}

/// As [`think`], knowing the positions the game's turns started from (`history`, recorded
/// with [`position_key`] after each action): levels 7 and 8 judge a turn back to one a little
/// worse each time, so they leave a cycle ([`crate::decide_with`]).
pub fn think_with(
    game: &Game,
    seat: Seat,
    now: Millis,
    history: &crate::History,
    player: crate::Player,
    budget: Option<crate::Budget>,
    seed: u64,
) -> Option<Action> {
    let view = OrionView::new(game, seat, now)?;
    match crate::decide_with(player, &view, history, budget, seed)? {
        Action::Timeout => None,
        action => Some(action),
    }
}

/// The key of `game`'s position for a [`crate::History`] where a turn starts from it: its
/// board and the seat to move (not the clock, a claim open or a secret man, which the board
/// does not show); `None` once over or after a click of the turn. A room's table records it
/// after each action, as the ladder records [`State::position_key`], which this is.
///
/// Libra's only, so far ([`KEEPS_HISTORY`]): the levels' cycles were measured there (the tug
/// of war over the targets, BENCHMARKS.md); every other game decides as without a history.
pub fn position_key(game: &Game) -> Option<u64> {
    if !KEEPS_HISTORY.contains(&game.rules().id())
        || game.outcome().is_some()
        || game.clicks().1 > 0
    {
        return None;
    }
    let mut hasher = DefaultHasher::new();
    game.position().hash(&mut hasher);
    game.mover().hash(&mut hasher);
    Some(hasher.finish())
}

/// The games whose positions have keys ([`position_key`]): the levels' search knows their
/// history. Another game joins once its ladder is measured with it.
pub const KEEPS_HISTORY: [&str; 1] = ["libra"];

/// How much the levels suspect each of `seat`'s men of being his secret (Algol): a man
/// nearer the edge he must reach more (the secret is the one he pushes on), by a factor of
/// [`SUSPICION`] a click. From the board alone, which every seat sees.
fn suspicion(game: &Game, seat: orion_engine::SeatInfo) -> Vec<(Piece, f64)> {
    let goal = seat.seat.edge().opposite();
    game.position()
        .of(seat.colour)
        .into_iter()
        .filter_map(|s| {
            let piece = game.position().get(s)?;
            let d = f64::from(super::places::edge_distance(s, goal));
            Some((piece, SUSPICION.powf(-d)))
        })
        .collect()
}

/// How many times likelier the levels take a man one click nearer his goal to be the secret.
const SUSPICION: f64 = 2.0;

impl Observe for OrionState {
    type View = OrionView;
    fn view(&self, player: usize) -> OrionView {
        OrionView {
            seen: OrionState {
                game: self.game.seen_by(self.seat(player)),
                ..self.clone()
            },
            player,
        }
    }
}

impl OrionView {
    /// What this player sees, with each other seat's hidden secret man supposed to be the
    /// one `guess` picks from the board (none picked: left unknown). Algol alone hides one.
    fn with_secrets_supposed(
        &self,
        mut guess: impl FnMut(&Game, orion_engine::SeatInfo) -> Option<Piece>,
    ) -> OrionState {
        let mut state = self.seen.clone();
        if state.game.rules().id() != "algol" {
            return state;
        }
        let me = state.seat(self.player);
        for info in self.seen.game.seats() {
            if info.seat == me || self.seen.game.secret(info.seat).is_none() {
                continue;
            }
            if let Some(piece) = guess(&self.seen.game, *info) {
                let _ = state.game.suppose_secret(info.seat, piece);
            }
        }
        state
    }
}

impl View for OrionView {
    type State = OrionState;

    fn player(&self) -> usize {
        self.player
    }

    fn hides(&self) -> bool {
        self.seen.game.rules().id() == "algol"
    }

    fn infer(&self, rng: &mut dyn RngCore) -> OrionState {
        self.with_secrets_supposed(|game, info| {
            let weights = suspicion(game, info);
            let total: f64 = weights.iter().map(|(_, w)| w).sum();
            let mut pick = rng.next_u64() as f64 / u64::MAX as f64 * total;
            let mut guess = weights.first().map(|(p, _)| *p);
            for &(piece, w) in &weights {
                guess = Some(piece);
                if pick < w {
                    break;
                }
                pick -= w;
            }
            guess
        })
    }

    fn determinize(&self, rng: &mut dyn RngCore) -> OrionState {
        self.with_secrets_supposed(|game, info| {
            let men: Vec<Piece> = (game.position().of(info.colour).into_iter())
                .filter_map(|s| game.position().get(s))
                .collect();
            men.choose(rng).copied()
        })
    }
}
