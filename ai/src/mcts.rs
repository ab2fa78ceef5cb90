//! The search: Monte Carlo tree search with UCT selection, open loop (a node is the sequence of
//! decisions and chance outcomes leading to it, not a stored state), so one tree serves every
//! determinization of a hidden-information game (single-observer information-set MCTS) and
//! every face of a die (chance nodes, sampled by their odds). Each iteration samples a full
//! state from the player's view, walks down by UCB1 on the acting player's own value (max^n:
//! every player maximises its own return, so three to six players and partners need nothing
//! more), expands one action, and scores the leaf with the game's evaluation (or its returns
//! at the end), without random playouts: a click game's random playout says little.

use crate::state::{State, ToAct, Values, View, MAX_PLAYERS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// How long a search may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Positions judged (each a node added to the tree), the budget tests use: with a seed,
    /// the same decision.
    pub iterations: u32,
    /// A wall-clock cap on top, for play (`None`: iterations alone, deterministic).
    pub time: Option<Duration>,
}

impl Budget {
    /// The budget with `factor` times the positions (at least one), the time cap kept.
    pub fn scaled(self, factor: f64) -> Budget {
        let iterations = (f64::from(self.iterations) * factor).round();
        Budget {
            iterations: (iterations as u32).max(1),
            ..self
        }
    }
}

/// The exploration constant of UCB1 on values in `0..1`.
const EXPLORATION: f64 = 0.4;

/// The deepest a walk goes before scoring where it stands (a guard: budgets end walks first).
const MAX_DEPTH: usize = 400;

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Thought<A> {
    /// The action to take, `None` when the player has nothing to decide.
    pub action: Option<A>,
    /// Iterations made.
    pub iterations: u32,
    /// The chosen action's estimated value for the player.
    pub value: f64,
}

/// An edge out of a node: a player's action or chance's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key<A, C> {
    Act(A),
    Chance(C),
}

/// One node: how often it was visited and the summed values for every player.
struct Node<A, C> {
    visits: u32,
    total: Values,
    children: Vec<(Key<A, C>, usize)>,
}

impl<A, C> Node<A, C> {
    fn new() -> Self {
        Node {
            visits: 0,
            total: [0.0; MAX_PLAYERS],
            children: Vec::new(),
        }
    }
}

/// Thinks for `view`'s player within `budget`; the same view, budget (without time) and
/// seed give the same thought.
pub fn search<V: View>(
    view: &V,
    budget: Budget,
    seed: u64,
) -> Thought<<V::State as State>::Action> {
    type A<V> = <<V as View>::State as State>::Action;
    type C<V> = <<V as View>::State as State>::Chance;
    let me = view.player();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let started = Instant::now();
    let first = view.determinize(&mut rng);
    let mut root_actions: Vec<A<V>> = Vec::new();
    if first.to_act() == ToAct::Player(me) {
        first.legal_actions(&mut root_actions);
    }
    let none = Thought {
        action: root_actions.first().copied(),
        iterations: 0,
        value: 0.5,
    };
    if root_actions.len() <= 1 {
        return none;
    }
    let mut nodes: Vec<Node<A<V>, C<V>>> = vec![Node::new()];
    let mut legal: Vec<A<V>> = Vec::new();
    let mut odds: Vec<(C<V>, f64)> = Vec::new();
    let mut path: Vec<usize> = Vec::new();
    let mut iterations = 0;
    let mut evaluations = 0u32;
    while evaluations < budget.iterations.max(1) {
        if let Some(limit) = budget.time {
            if iterations % 16 == 0 && started.elapsed() >= limit {
                break;
            }
        }
        iterations += 1;
        let mut state = if iterations == 1 {
            first.clone()
        } else {
            view.determinize(&mut rng)
        };
        path.clear();
        path.push(0);
        let mut at = 0;
        let value = loop {
            if path.len() > MAX_DEPTH {
                break state.evaluate();
            }
            match state.to_act() {
                ToAct::Over => break state.returns(),
                ToAct::Chance => {
                    odds.clear();
                    state.chance_outcomes(&mut odds);
                    let Some(outcome) = pick(&odds, &mut rng) else {
                        break state.evaluate();
                    };
                    let key = Key::Chance(outcome);
                    at = child(&mut nodes, at, key);
                    path.push(at);
                    state.apply_chance(outcome);
                }
                ToAct::Player(p) => {
                    legal.clear();
                    state.legal_actions(&mut legal);
                    if legal.is_empty() {
                        break state.evaluate();
                    }
                    let fresh = !nodes[at]
                        .children
                        .iter()
                        .any(|(k, _)| matches!(k, Key::Act(_)));
                    if fresh {
                        // A new decision: every action is tried and judged at once, and the
                        // best of them is what this node is worth to its player so far.
                        let mut best: Option<Values> = None;
                        for &action in &legal {
                            let mut after = state.clone();
                            after.apply(action);
                            let v = judge(after);
                            evaluations += 1;
                            let i = child(&mut nodes, at, Key::Act(action));
                            nodes[i].visits = 1;
                            nodes[i].total = v;
                            if best.map_or(true, |b| v[p] > b[p]) {
                                best = Some(v);
                            }
                        }
                        break best.unwrap_or_else(|| state.evaluate());
                    }
                    let node = &nodes[at];
                    if let Some(&action) = legal
                        .iter()
                        .find(|a| !node.children.iter().any(|(k, _)| *k == Key::Act(**a)))
                    {
                        // An action this guess of the hidden allows and earlier ones did not.
                        at = child(&mut nodes, at, Key::Act(action));
                        path.push(at);
                        state.apply(action);
                        evaluations += 1;
                        break judge(state);
                    }
                    let ln = f64::from(node.visits.max(1)).ln();
                    let mut best = (f64::NEG_INFINITY, 0, legal[0]);
                    for &(key, i) in &node.children {
                        let Key::Act(a) = key else { continue };
                        if !legal.contains(&a) {
                            continue;
                        }
                        let c = &nodes[i];
                        let n = f64::from(c.visits.max(1));
                        let ucb = c.total[p] / n + EXPLORATION * (ln / n).sqrt();
                        if ucb > best.0 {
                            best = (ucb, i, a);
                        }
                    }
                    at = best.1;
                    path.push(at);
                    state.apply(best.2);
                }
            }
        };
        for &i in &path {
            let node = &mut nodes[i];
            node.visits += 1;
            for (t, v) in node.total.iter_mut().zip(value.iter()) {
                *t += v;
            }
        }
    }
    let mut best: Option<(u32, f64, A<V>)> = None;
    for &(key, i) in &nodes[0].children {
        let Key::Act(a) = key else { continue };
        if !root_actions.contains(&a) {
            continue;
        }
        let c = &nodes[i];
        let mean = c.total[me] / f64::from(c.visits.max(1));
        if best.map_or(true, |(v, m, _)| (c.visits, mean) > (v, m)) {
            best = Some((c.visits, mean, a));
        }
    }
    match best {
        Some((_, value, action)) => Thought {
            action: Some(action),
            iterations,
            value,
        },
        None => Thought { iterations, ..none },
    }
}

/// Forced answers followed before a position is judged.
const FORCED: usize = 4;

/// What a position reached by an action is worth to every player: its returns if over
/// (after any forced answer, such as a rival's claim), else the evaluation.
fn judge<S: State>(mut state: S) -> Values {
    for _ in 0..FORCED {
        match state.forced() {
            Some(a) if state.to_act() != ToAct::Over => state.apply(a),
            _ => break,
        }
    }
    match state.to_act() {
        ToAct::Over => state.returns(),
        _ => state.evaluate(),
    }
}

/// The child of `at` along `key`, made if new.
fn child<A: PartialEq + Copy, C: PartialEq + Copy>(
    nodes: &mut Vec<Node<A, C>>,
    at: usize,
    key: Key<A, C>,
) -> usize {
    if let Some(&(_, i)) = nodes[at].children.iter().find(|(k, _)| *k == key) {
        return i;
    }
    let i = nodes.len();
    nodes.push(Node::new());
    nodes[at].children.push((key, i));
    i
}

/// One outcome drawn by its odds.
fn pick<C: Copy>(odds: &[(C, f64)], rng: &mut impl Rng) -> Option<C> {
    let total: f64 = odds.iter().map(|(_, p)| p).sum();
    let mut x = rng.gen::<f64>() * total;
    for &(c, p) in odds {
        if x < p {
            return Some(c);
        }
        x -= p;
    }
    odds.last().map(|(c, _)| *c)
}
