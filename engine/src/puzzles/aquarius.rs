//! Aquarius, the mental telepathy test (booklet page 30): a chain of pieces from one side of
//! the board to the opposite side whose pieces lie in the orbits of exactly ten rotors; a
//! blindfolded subject turns a rotor five times, and a try that breaks the chain is a hit.
//!
//! A valid test chain here is a minimal chain (no piece can be left out): a path of touching
//! pieces whose first piece alone touches one edge and whose last alone touches the opposite
//! edge, with the union of its pieces' rotors exactly ten. Chains run either way across the
//! board (the booklet lets the board be rotated between tries).

use crate::board::{Click, Direction, Edge, Rotor, RotorSet, Slot, SlotSet, ROTORS};
use crate::chain::has_chain;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;

/// How many rotors' orbits a test chain must use.
pub const CHAIN_ROTORS: usize = 10;
/// Tries per test.
pub const TRIES: usize = 5;
/// Hits in five tries from which the booklet's ratings say "mental telepathy is probably at
/// work" (3 to 5).
pub const TELEPATHY: usize = 3;

/// The rotors whose orbits hold a piece of `chain`.
pub fn chain_rotors(chain: SlotSet) -> RotorSet {
    let mut set = 0;
    for s in chain {
        set |= s.rotors().0;
    }
    RotorSet(set)
}

/// The edge pair a minimal chain spans, if `chain` is one: returns the near edge (bottom or
/// left).
fn spans(chain: SlotSet) -> Option<Edge> {
    [Edge::Bottom, Edge::Left].into_iter().find(|&edge| {
        if !has_chain(chain, edge) {
            return false;
        }
        // Minimal: leaving out any one piece leaves no chain.
        chain.into_iter().all(|s| {
            let mut rest = chain;
            rest.remove(s);
            !has_chain(rest, edge)
        })
    })
}

/// Whether `chain` is a valid test chain: a minimal chain between opposite edges whose
/// pieces lie in exactly ten rotors' orbits.
pub fn is_valid_chain(chain: SlotSet) -> bool {
    chain_rotors(chain).len() == CHAIN_ROTORS && spans(chain).is_some()
}

/// Every valid test chain, both ways across the board, in a fixed order (computed once).
pub fn valid_chains() -> &'static [SlotSet] {
    static CHAINS: OnceLock<Vec<SlotSet>> = OnceLock::new();
    CHAINS.get_or_init(|| {
        let mut out = Vec::new();
        for near in [Edge::Bottom, Edge::Left] {
            let near_set = near.touching();
            let far_set = near.opposite().touching();
            for start in near_set {
                if far_set.contains(start) {
                    continue;
                }
                let mut path = start.bit();
                extend(start, path, chain_rotors(path), near_set, far_set, &mut out);
                path.remove(start);
            }
        }
        out.sort();
        out.dedup();
        out
    })
}

/// Depth-first growth of an induced path from its last piece `last`.
fn extend(
    last: Slot,
    path: SlotSet,
    rotors: RotorSet,
    near: SlotSet,
    far: SlotSet,
    out: &mut Vec<SlotSet>,
) {
    let earlier = SlotSet(path.0 & !last.bit().0);
    for next in last.touching() {
        // Induced: the new piece touches only the last one; minimal: it does not touch the
        // near edge again.
        if path.contains(next) || near.contains(next) || next.touching().intersects(earlier) {
            continue;
        }
        let r = RotorSet(rotors.0 | next.rotors().0);
        if r.len() > CHAIN_ROTORS {
            continue;
        }
        let grown = path | next.bit();
        if far.contains(next) {
            if r.len() == CHAIN_ROTORS {
                out.push(grown);
            }
        } else {
            extend(next, grown, r, near, far, out);
        }
    }
}

/// Whether `click` breaks `chain`: afterwards its pieces no longer join the two edges.
pub fn breaks(chain: SlotSet, click: Click) -> bool {
    let moved = chain.clicked(click);
    match spans(chain) {
        Some(edge) => !has_chain(moved, edge),
        None => false,
    }
}

/// For each rotor, the share of valid chains whose orbits it touches (a click of it moves a
/// piece of the chain), and the share its right click actually breaks; indexed by rotor.
pub fn rotor_odds() -> [(f64, f64); ROTORS] {
    let chains = valid_chains();
    let mut moves = [0u64; ROTORS];
    let mut broken = [0u64; ROTORS];
    for &c in chains {
        let rs = chain_rotors(c);
        for r in rs.iter() {
            moves[r.index()] += 1;
            if breaks(c, Click::new(r, Direction::Right)) {
                broken[r.index()] += 1;
            }
        }
    }
    let n = chains.len().max(1) as f64;
    let mut out = [(0.0, 0.0); ROTORS];
    for i in 0..ROTORS {
        out[i] = (moves[i] as f64 / n, broken[i] as f64 / n);
    }
    out
}

/// One try: the rotor the subject turned and whether it broke the chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Try {
    /// The chain the try was made against.
    pub chain: SlotSet,
    /// The click the subject made.
    pub click: Click,
    /// Whether it broke the chain.
    pub hit: bool,
}

/// One test of five tries. A fresh random chain is built for every try (the booklet allows
/// a new chain after each choice), drawn uniformly from [`valid_chains`] by a seeded rng so a
/// room can publish its seed afterwards.
#[derive(Clone, Debug)]
pub struct AquariusTest {
    /// The random source for chains.
    rng: ChaCha8Rng,
    /// The chain on the board now.
    chain: SlotSet,
    /// Tries made so far.
    tries: Vec<Try>,
}

impl AquariusTest {
    /// A new test whose chains come from `seed`.
    pub fn new(seed: u64) -> AquariusTest {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let chain = random_chain(&mut rng);
        AquariusTest {
            rng,
            chain,
            tries: Vec::with_capacity(TRIES),
        }
    }

    /// The chain the subject is being tested on now.
    pub fn chain(&self) -> SlotSet {
        self.chain
    }

    /// Makes one try; `None` once all five are used.
    pub fn attempt(&mut self, click: Click) -> Option<Try> {
        if self.done() {
            return None;
        }
        let t = Try {
            chain: self.chain,
            click,
            hit: score_try(self.chain, click.rotor),
        };
        self.tries.push(t);
        self.chain = random_chain(&mut self.rng);
        Some(t)
    }

    /// Whether all five tries are made.
    pub fn done(&self) -> bool {
        self.tries.len() >= TRIES
    }

    /// Hits so far.
    pub fn score(&self) -> usize {
        self.tries.iter().filter(|t| t.hit).count()
    }

    /// The tries made.
    pub fn tries(&self) -> &[Try] {
        &self.tries
    }
}

/// Whether turning `rotor` is a hit against `chain`: it moves a piece of the chain, as the
/// booklet counts it. (Not every such click leaves the chain broken — about one in ten
/// does not; [`breaks`] tells, and docs/puzzles.md gives the figures.)
pub fn score_try(chain: SlotSet, rotor: Rotor) -> bool {
    chain_rotors(chain).contains(rotor)
}

/// A valid chain drawn uniformly.
pub fn random_chain(rng: &mut impl Rng) -> SlotSet {
    let chains = valid_chains();
    chains[rng.gen_range(0..chains.len())]
}
