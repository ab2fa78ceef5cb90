//! The turn-level search: the same open-loop Monte Carlo tree search as [`super::search`], but
//! a node's edges are a player's whole turns (every action of his until another player or
//! chance acts), not single clicks. A node's turns are the best few found by a beam over the
//! evaluation (as `greedy` looks at one turn), so the tree's depth counts turns: the strong
//! levels see their own turn, the reply and their next turn, where the click tree spent its
//! budget among the permutations of one turn's clicks.

use super::{judge, pick, Budget, Thought, EXPLORATION, MAX_DEPTH};
use crate::state::{State, ToAct, Values, View};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// Partial turns kept at each step of a turn's generation.
const BEAM: usize = 48;
/// Whole turns kept as a node's edges.
const WIDTH: usize = 12;
/// The most actions one turn is looked into (longer turns end as partial ones).
const DEPTH: usize = 8;

/// An edge out of a node: a player's turn (an index into the search's turns) or chance's
/// outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key<C> {
    Turn(usize),
    Chance(C),
}

/// One node: visits, the summed values for every player, its edges, and whether its turns
/// were generated.
struct Node<C> {
    visits: u32,
    total: Values,
    children: Vec<(Key<C>, usize)>,
    expanded: bool,
}

impl<C> Node<C> {
    fn new() -> Self {
        Node {
            visits: 0,
            total: [0.0; crate::state::MAX_PLAYERS],
            children: Vec::new(),
            expanded: false,
        }
    }
}

/// A whole turn and what its end is worth to every player.
type Turn<A> = (Vec<A>, Values);

/// The best [`WIDTH`] turns of player `p` from `state`, best first, by the value of where each
/// ends (after any forced answer); counts every position judged in `judged`. Turns ending in
/// the same values are taken for one (the same clicks in another order).
fn turns<S: State>(state: &S, p: usize, judged: &mut u32) -> Vec<Turn<S::Action>> {
    let mut done: Vec<Turn<S::Action>> = Vec::new();
    let mut frontier: Vec<(S, Vec<S::Action>)> = vec![(state.clone(), Vec::new())];
    let mut legal = Vec::new();
    for depth in 0..DEPTH {
        let mut next: Vec<(S, Vec<S::Action>, Values)> = Vec::new();
        for (s, seq) in &frontier {
            legal.clear();
            s.legal_actions(&mut legal);
            for &a in &legal {
                let mut after = s.clone();
                after.apply(a);
                *judged += 1;
                let mut line = seq.clone();
                line.push(a);
                if after.to_act() == ToAct::Player(p) {
                    let v = after.evaluate();
                    next.push((after, line, v));
                } else {
                    done.push((line, judge(after)));
                }
            }
        }
        if next.is_empty() {
            break;
        }
        next.sort_by(|a, b| b.2[p].total_cmp(&a.2[p]));
        next.dedup_by(|a, b| a.2 == b.2);
        next.truncate(BEAM);
        if depth + 1 == DEPTH {
            done.extend(next.into_iter().map(|(_, line, v)| (line, v)));
            break;
        }
        frontier = next.into_iter().map(|(s, line, _)| (s, line)).collect();
    }
    // Stable: between turns worth the same, the shorter (found first) stays first.
    done.sort_by(|a, b| b.1[p].total_cmp(&a.1[p]));
    done.dedup_by(|a, b| a.1 == b.1);
    done.truncate(WIDTH);
    done
}

/// Thinks for `view`'s player within `budget` over whole turns; the same view, budget
/// (without time) and seed give the same thought. A node's turns cost a few hundred
/// positions judged, so a small budget makes this `greedy` with a look at the replies.
pub fn search_turns<V: View>(
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
    let mut nodes: Vec<Node<C<V>>> = vec![Node::new()];
    let mut lines: Vec<Vec<A<V>>> = Vec::new();
    let mut legal: Vec<A<V>> = Vec::new();
    let mut odds: Vec<(C<V>, f64)> = Vec::new();
    let mut path: Vec<usize> = Vec::new();
    let mut iterations = 0;
    let mut judged = 0u32;
    while judged < budget.iterations.max(1) {
        if let Some(limit) = budget.time {
            if started.elapsed() >= limit {
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
                    at = chance_child(&mut nodes, at, outcome);
                    path.push(at);
                    state.apply_chance(outcome);
                }
                ToAct::Player(p) => {
                    if !nodes[at].expanded {
                        nodes[at].expanded = true;
                        let found = turns(&state, p, &mut judged);
                        let mut best: Option<Values> = None;
                        for (line, v) in found {
                            lines.push(line);
                            let i = nodes.len();
                            let mut node = Node::new();
                            node.visits = 1;
                            node.total = v;
                            nodes.push(node);
                            nodes[at].children.push((Key::Turn(lines.len() - 1), i));
                            if best.map_or(true, |b| v[p] > b[p]) {
                                best = Some(v);
                            }
                        }
                        break best.unwrap_or_else(|| state.evaluate());
                    }
                    let node = &nodes[at];
                    let ln = f64::from(node.visits.max(1)).ln();
                    let mut best: Option<(f64, usize, usize)> = None;
                    for &(key, i) in &node.children {
                        let Key::Turn(t) = key else { continue };
                        let c = &nodes[i];
                        let n = f64::from(c.visits.max(1));
                        let ucb = c.total[p] / n + EXPLORATION * (ln / n).sqrt();
                        if best.map_or(true, |(b, _, _)| ucb > b) {
                            best = Some((ucb, i, t));
                        }
                    }
                    let Some((_, i, t)) = best else {
                        break state.evaluate();
                    };
                    at = i;
                    path.push(at);
                    // The turn as this guess of the hidden allows it: an action it forbids
                    // ends the walk where it stands.
                    let mut whole = true;
                    for &a in &lines[t] {
                        legal.clear();
                        if state.to_act() == ToAct::Player(p) {
                            state.legal_actions(&mut legal);
                        }
                        if !legal.contains(&a) {
                            whole = false;
                            break;
                        }
                        state.apply(a);
                    }
                    if !whole {
                        break state.evaluate();
                    }
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
        let Key::Turn(t) = key else { continue };
        let Some(&a) = lines[t].first() else { continue };
        if !root_actions.contains(&a) {
            continue;
        }
        let c = &nodes[i];
        let mean = c.total[me] / f64::from(c.visits.max(1));
        // The best mean, not the most visits: with a few hundred positions a node, most
        // turns are looked at once or twice, and a turn whose reply was found to lose must
        // not win on visits.
        if best.map_or(true, |(v, m, _)| (mean, c.visits) > (m, v)) {
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

/// The child of `at` along chance's `outcome`, made if new.
fn chance_child<C: PartialEq + Copy>(nodes: &mut Vec<Node<C>>, at: usize, outcome: C) -> usize {
    let key = Key::Chance(outcome);
    if let Some(&(_, i)) = nodes[at].children.iter().find(|(k, _)| *k == key) {
        return i;
    }
    let i = nodes.len();
    nodes.push(Node::new());
    nodes[at].children.push((key, i));
    i
}
