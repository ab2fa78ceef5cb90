//! Layered bidirectional breadth-first search. Each side keeps its layers as sorted vectors
//! (no hash table: 16 bytes a state for the pattern puzzles); because the graph is
//! undirected, layer d+1 is the neighbours of layer d minus layers d and d-1. The side with
//! the smaller frontier grows; the first new layer that meets the other side's frontier
//! gives an optimal line, which is read back through the stored layers.

use super::space::Space;
use super::{Solution, SolveError};
use crate::board::Click;

/// Neighbours gathered before they are sorted and merged, to bound the scratch memory.
const CHUNK: usize = 1 << 22;

/// One side of the search: its layers, the last being the frontier.
struct Side<S> {
    layers: Vec<Vec<S>>,
}

impl<S: Copy + Ord> Side<S> {
    fn frontier(&self) -> &[S] {
        self.layers.last().map(Vec::as_slice).unwrap_or(&[])
    }

    fn contains(&self, depth: usize, s: &S) -> bool {
        self.layers[depth].binary_search(s).is_ok()
    }
}

/// Sorted union of two sorted, deduplicated vectors.
fn merge<S: Copy + Ord>(a: Vec<S>, b: Vec<S>) -> Vec<S> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// Grows `side` by one layer.
fn grow<Sp: Space>(space: &Sp, side: &mut Side<Sp::State>) -> u64 {
    let depth = side.layers.len() - 1;
    let mut next: Vec<Sp::State> = Vec::new();
    let mut buf: Vec<Sp::State> = Vec::new();
    let mut scratch = Vec::with_capacity(64);
    let mut generated = 0u64;
    let flush = |buf: &mut Vec<Sp::State>, next: &mut Vec<Sp::State>, side: &Side<_>| {
        buf.sort_unstable();
        buf.dedup();
        buf.retain(|s| !side.contains(depth, s) && (depth == 0 || !side.contains(depth - 1, s)));
        *next = merge(std::mem::take(next), std::mem::take(buf));
    };
    for &s in side.frontier() {
        scratch.clear();
        space.neighbours(s, &mut scratch);
        generated += scratch.len() as u64;
        buf.extend(scratch.iter().map(|&(_, t)| t));
        if buf.len() >= CHUNK {
            flush(&mut buf, &mut next, side);
        }
    }
    flush(&mut buf, &mut next, side);
    side.layers.push(next);
    generated
}

/// The shortest line from `start` to `goal`, or why there is none.
pub fn bidirectional<Sp: Space>(
    space: &Sp,
    start: Sp::State,
    goal: Sp::State,
    limit: u64,
) -> Result<Solution, SolveError> {
    if start == goal {
        return Ok(Solution {
            clicks: Vec::new(),
            states: 1,
        });
    }
    let mut fwd = Side {
        layers: vec![vec![start]],
    };
    let mut bwd = Side {
        layers: vec![vec![goal]],
    };
    let mut held = 2u64;
    let mut generated = 0u64;
    loop {
        let grow_fwd = fwd.frontier().len() <= bwd.frontier().len();
        let (this, other) = if grow_fwd {
            (&mut fwd, &bwd)
        } else {
            (&mut bwd, &fwd)
        };
        generated += grow(space, this);
        let new = this.frontier();
        if new.is_empty() {
            return Err(SolveError::Unreachable);
        }
        held += new.len() as u64;
        if held > limit {
            return Err(SolveError::TooLarge(limit));
        }
        let theirs = other.frontier();
        let meet = new
            .iter()
            .find(|s| theirs.binary_search(s).is_ok())
            .copied();
        if let Some(m) = meet {
            let mut clicks = walk_back(space, &fwd, m);
            clicks.extend(walk_forward(space, &bwd, m));
            return Ok(Solution {
                clicks,
                states: generated,
            });
        }
    }
}

/// The clicks from the forward root to `m`, read back through the forward layers.
fn walk_back<Sp: Space>(space: &Sp, side: &Side<Sp::State>, m: Sp::State) -> Vec<Click> {
    let mut clicks = Vec::new();
    let mut at = m;
    let mut out = Vec::new();
    for depth in (0..side.layers.len() - 1).rev() {
        out.clear();
        space.neighbours(at, &mut out);
        // Some neighbour lies one layer closer to the root; the click back to `at` is the
        // inverse of the one that leads there.
        if let Some(&(c, prev)) = out.iter().find(|(_, t)| side.contains(depth, t)) {
            clicks.push(c.inverse());
            at = prev;
        }
    }
    clicks.reverse();
    clicks
}

/// The clicks from `m` to the backward root, read through the backward layers.
fn walk_forward<Sp: Space>(space: &Sp, side: &Side<Sp::State>, m: Sp::State) -> Vec<Click> {
    let mut clicks = Vec::new();
    let mut at = m;
    let mut out = Vec::new();
    for depth in (0..side.layers.len() - 1).rev() {
        out.clear();
        space.neighbours(at, &mut out);
        if let Some(&(c, next)) = out.iter().find(|(_, t)| side.contains(depth, t)) {
            clicks.push(c);
            at = next;
        }
    }
    clicks
}
