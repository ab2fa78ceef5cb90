//! `greedy`, the yardstick: one move ahead, as the terminal client's `greedy` bot plays. It
//! tries the acting player's whole turn (every sequence of its own actions until the turn
//! passes, a beam of the best partial turns kept at each step; a die thrown once, by the
//! search's random source) and takes the first action of the turn whose end the game's
//! evaluation likes best. A forced answer of another player (a claim) is followed, so a click
//! that hands a rival his chain is seen as lost. No look at the replies.

use crate::state::{State, ToAct, View};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A partial turn: its value so far, where it stands, and its first action.
type Partial<S> = (f64, S, Option<<S as State>::Action>);

/// Partial turns kept at each step.
const BEAM: usize = 48;
/// The most actions one turn is looked into.
const DEPTH: usize = 8;
/// Forced replies followed after a turn.
const FORCED: usize = 4;

/// The first action of the best whole turn for `view`'s player, by the evaluation; `None`
/// when the player has nothing to decide.
pub fn greedy<V: View>(view: &V, seed: u64) -> Option<<V::State as State>::Action> {
    let me = view.player();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let root = view.determinize(&mut rng);
    if root.to_act() != ToAct::Player(me) {
        return None;
    }
    let mut legal = Vec::new();
    root.legal_actions(&mut legal);
    if legal.len() <= 1 {
        return legal.first().copied();
    }
    let mut best: Option<(f64, <V::State as State>::Action)> = None;
    let mut frontier = vec![(root, None)];
    for depth in 0..DEPTH {
        // The sooner the better, between turns worth the same (a win now before a win later).
        let sooner = depth as f64 * 1e-3;
        let mut next: Vec<Partial<V::State>> = Vec::new();
        for (state, first) in &frontier {
            let mut actions = Vec::new();
            state.legal_actions(&mut actions);
            for action in actions {
                let mut after = state.clone();
                after.apply(action);
                let first = first.or(Some(action));
                throw(&mut after, &mut rng);
                let jitter = rng.gen::<f64>() * 1e-6;
                if after.to_act() == ToAct::Player(me) {
                    let v = value(&after, me) + jitter;
                    next.push((v, after, first));
                    continue;
                }
                let v = settled(after, me) + jitter - sooner;
                if let Some(a) = first {
                    if best.map_or(true, |(b, _)| v > b) {
                        best = Some((v, a));
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        next.sort_by(|a, b| b.0.total_cmp(&a.0));
        next.truncate(BEAM);
        frontier = next.into_iter().map(|(_, s, f)| (s, f)).collect();
    }
    // Turns longer than the look: the best partial one.
    if best.is_none() {
        let first = frontier.first().and_then(|(_, f)| *f);
        return first.or(legal.first().copied());
    }
    best.map(|(_, a)| a)
}

/// Throws any die the turn is waiting for (by `rng`).
pub(crate) fn throw<S: State>(state: &mut S, rng: &mut impl Rng) {
    let mut odds = Vec::new();
    while state.to_act() == ToAct::Chance {
        odds.clear();
        state.chance_outcomes(&mut odds);
        let Some(&(face, _)) = odds.get(rng.gen_range(0..odds.len().max(1))) else {
            return;
        };
        state.apply_chance(face);
    }
}

/// The value of a state for `me`: its returns once over, else the evaluation.
pub(crate) fn value<S: State>(state: &S, me: usize) -> f64 {
    match state.to_act() {
        ToAct::Over => state.returns()[me] * 2.0 - 0.5,
        _ => state.evaluate()[me],
    }
}

/// The value after the turn, once the other players' forced answers are made.
fn settled<S: State>(state: S, me: usize) -> f64 {
    value(&settle(state), me)
}

/// The state once the other players' forced answers (claims) are made.
pub(crate) fn settle<S: State>(mut state: S) -> S {
    for _ in 0..FORCED {
        match state.forced() {
            Some(a) if state.to_act() != ToAct::Over => state.apply(a),
            _ => break,
        }
    }
    state
}
