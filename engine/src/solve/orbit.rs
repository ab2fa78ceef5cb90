//! Orbit Solitaire as a permutation puzzle: n numbered pieces in the n slots of two or four
//! orbits, each click a 4-cycle of places. Orbit A (7 places, 5,040 arrangements) is solved
//! by a full distance table; Orbit B (12 places, 12! = 479,001,600) by IDA* over two
//! six-piece pattern databases, and its census — every arrangement's distance — is a 2-bit
//! table (distance mod 3, 120 MB) filled breadth-first by rank on all cores.
//!
//! Every click is a 4-cycle, an odd permutation, so the graph is bipartite: neighbours lie
//! exactly one click nearer or farther, and distance mod 3 is enough to walk home.

use super::perm::{factorial, next_permutation, rank, rank_places, unrank};
use super::space::{Heuristic, Space};
use super::{ida_star, Solution, SolveError};
use crate::board::{Click, Slot};
use crate::puzzles::Puzzle;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Most places an orbit puzzle may have (ranks fit a `u32`).
const MAX_PLACES: usize = 12;

/// An arrangement: `arr[place]` = the piece (0-based, by its finish place) in that place.
pub type Arrangement = [u8; MAX_PLACES];

/// An Orbit Solitaire puzzle's places and clicks.
#[derive(Clone, Debug)]
pub struct OrbitSpace {
    /// Number of places.
    n: usize,
    /// The places (slots) in canonical order.
    slots: Vec<Slot>,
    /// Each click with the 4-cycle of places it turns: the piece in `cycle[i]` goes to
    /// `cycle[(i + 1) % 4]`.
    moves: Vec<(Click, [u8; 4])>,
    /// The start arrangement.
    start: Arrangement,
}

impl OrbitSpace {
    /// The space of an exact-finish puzzle whose pieces fill its rotors' orbits.
    pub fn new(puzzle: &Puzzle) -> Result<OrbitSpace, SolveError> {
        let slots: Vec<Slot> = puzzle.rotors.orbit_slots().into_iter().collect();
        let n = slots.len();
        let finish = puzzle.finish.position();
        if n > MAX_PLACES || finish.occupied() != puzzle.rotors.orbit_slots() {
            return Err(SolveError::Unsupported(
                "an orbit puzzle fills at most 12 slots of its rotors".into(),
            ));
        }
        let place = |s: Slot| slots.iter().position(|&x| x == s).map(|i| i as u8);
        let mut moves = Vec::new();
        for click in Click::ALL {
            if !puzzle.rotors.contains(click.rotor) {
                continue;
            }
            // Follow the north slot round the orbit in the click's direction.
            let mut cycle = [0u8; 4];
            let mut s = click.rotor.orbit()[0];
            for c in cycle.iter_mut() {
                *c = place(s).ok_or(SolveError::Unreachable)?;
                s = click.destination(s).ok_or(SolveError::Unreachable)?;
            }
            moves.push((click, cycle));
        }
        let mut start = [0u8; MAX_PLACES];
        for (i, &s) in slots.iter().enumerate() {
            let piece = puzzle.start.get(s).ok_or(SolveError::Unreachable)?;
            let home = finish.find(piece).ok_or(SolveError::Unreachable)?;
            start[i] = place(home).ok_or(SolveError::Unreachable)?;
        }
        Ok(OrbitSpace {
            n,
            slots,
            moves,
            start,
        })
    }

    /// Number of places.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether there are no places.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The start arrangement.
    pub fn start(&self) -> Arrangement {
        self.start
    }

    /// The places in canonical slot order.
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// Number of arrangements, `n!`.
    pub fn size(&self) -> u64 {
        factorial(self.n)
    }

    #[inline]
    fn apply(arr: &mut Arrangement, cycle: &[u8; 4]) {
        let [a, b, c, d] = cycle.map(usize::from);
        let t = arr[d];
        arr[d] = arr[c];
        arr[c] = arr[b];
        arr[b] = arr[a];
        arr[a] = t;
    }

    /// The rank of every neighbour of the arrangement `arr`.
    #[inline]
    fn neighbour_ranks(&self, arr: &Arrangement, out: &mut [u32; 16]) -> usize {
        let n = self.n;
        for (k, (_, cycle)) in self.moves.iter().enumerate() {
            let mut next = *arr;
            Self::apply(&mut next, cycle);
            out[k] = rank(&next[..n]);
        }
        self.moves.len()
    }

    /// The distance of every arrangement (indexed by rank) to the solved one, by a
    /// breadth-first search over ranks; a byte each, so for small puzzles (Orbit A).
    pub fn distance_table(&self) -> Vec<u8> {
        let size = self.size() as usize;
        let mut dist = vec![u8::MAX; size];
        dist[0] = 0;
        let mut frontier = vec![0u32];
        let mut arr = [0u8; MAX_PLACES];
        let mut ranks = [0u32; 16];
        let mut d = 0u8;
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &r in &frontier {
                unrank(r, &mut arr[..self.n]);
                let k = self.neighbour_ranks(&arr, &mut ranks);
                for &q in &ranks[..k] {
                    if dist[q as usize] == u8::MAX {
                        dist[q as usize] = d + 1;
                        next.push(q);
                    }
                }
            }
            frontier = next;
            d += 1;
        }
        dist
    }

    /// Solves the start by walking down a full distance table.
    pub fn solve_by_table(&self) -> Result<Solution, SolveError> {
        let table = self.distance_table();
        self.walk_down(self.start, |r| table[r as usize] as u32, table.len() as u64)
    }

    /// Walks from `arr` to the solved arrangement, each click to a neighbour one nearer by
    /// `dist` (exact distances; `u8::MAX` marks an unreachable arrangement).
    fn walk_down(
        &self,
        mut arr: Arrangement,
        dist: impl Fn(u32) -> u32,
        states: u64,
    ) -> Result<Solution, SolveError> {
        let mut clicks = Vec::new();
        let mut d = dist(rank(&arr[..self.n]));
        if d == u8::MAX as u32 {
            return Err(SolveError::Unreachable);
        }
        while d > 0 {
            let step = self.moves.iter().find_map(|(c, cycle)| {
                let mut next = arr;
                Self::apply(&mut next, cycle);
                (dist(rank(&next[..self.n])) + 1 == d).then_some((*c, next))
            });
            let (c, next) = step.ok_or(SolveError::Unreachable)?;
            clicks.push(c);
            arr = next;
            d -= 1;
        }
        Ok(Solution { clicks, states })
    }

    /// Solves the start by IDA* guided by `db`.
    pub fn solve_with(&self, db: &PatternDb) -> Result<Solution, SolveError> {
        self.solve_with_limit(db, super::NODE_LIMIT)
    }

    /// Solves the start by IDA* guided by `db`, generating at most `nodes` nodes.
    pub fn solve_with_limit(&self, db: &PatternDb, nodes: u64) -> Result<Solution, SolveError> {
        let guided = Guided { space: self, db };
        ida_star(&guided, pack(&self.start, self.n), 60, nodes)
    }

    /// Solves the start by walking down a census table (distance mod 3).
    pub fn solve_by_census(&self, census: &PackedDistances) -> Result<Solution, SolveError> {
        let mut arr = self.start;
        let mut clicks = Vec::new();
        let mut v = census.get(rank(&arr[..self.n]) as u64);
        if v == UNSEEN {
            return Err(SolveError::Unreachable);
        }
        while rank(&arr[..self.n]) != 0 {
            let want = (v + 2) % 3;
            let step = self.moves.iter().find_map(|(c, cycle)| {
                let mut next = arr;
                Self::apply(&mut next, cycle);
                (census.get(rank(&next[..self.n]) as u64) == want).then_some((*c, next))
            });
            let (c, next) = step.ok_or(SolveError::Unreachable)?;
            clicks.push(c);
            arr = next;
            v = want;
        }
        Ok(Solution {
            clicks,
            states: census.len(),
        })
    }
}

/// An arrangement packed four bits a place (IDA*'s state).
fn pack(arr: &Arrangement, n: usize) -> u64 {
    arr[..n]
        .iter()
        .enumerate()
        .fold(0u64, |acc, (i, &v)| acc | (v as u64) << (4 * i))
}

fn unpack(state: u64, n: usize) -> Arrangement {
    let mut arr = [0u8; MAX_PLACES];
    for (i, a) in arr.iter_mut().enumerate().take(n) {
        *a = ((state >> (4 * i)) & 15) as u8;
    }
    arr
}

/// The solved arrangement packed: piece i in place i.
fn solved(n: usize) -> u64 {
    let mut arr = [0u8; MAX_PLACES];
    for (i, a) in arr.iter_mut().enumerate().take(n) {
        *a = i as u8;
    }
    pack(&arr, n)
}

/// Pattern databases: for each group of pieces, the exact clicks needed to bring just those
/// pieces home, indexed by their places. The largest over the groups is a lower bound.
#[derive(Clone, Debug)]
pub struct PatternDb {
    /// The places count.
    n: usize,
    /// Each group's pieces and its table.
    groups: Vec<(Vec<u8>, Vec<u8>)>,
}

impl PatternDb {
    /// Databases of six pieces each, the pieces grouped by where they belong from left to
    /// right (for Orbit B: the six homes in the left column of orbits, and the six in the
    /// right — seven times fewer IDA* nodes than pieces 1–6 and 7–12 on the hardest start).
    pub fn for_space(space: &OrbitSpace) -> PatternDb {
        let n = space.n;
        let mut homes: Vec<u8> = (0..n as u8).collect();
        homes.sort_by_key(|&p| (space.slots[p as usize].midpoint2().0, p));
        let groups = homes.chunks(6).map(|g| g.to_vec()).collect();
        Self::with_groups(space, groups)
    }

    /// Databases for the given groups of pieces (0-based, by home place).
    /// The tables are built side by side, one thread each.
    pub fn with_groups(space: &OrbitSpace, groups: Vec<Vec<u8>>) -> PatternDb {
        let groups = std::thread::scope(|scope| {
            let builds: Vec<_> = groups
                .into_iter()
                .map(|pieces| {
                    scope.spawn(move || {
                        let table = Self::build(space, &pieces);
                        (pieces, table)
                    })
                })
                .collect();
            builds.into_iter().filter_map(|b| b.join().ok()).collect()
        });
        PatternDb { n: space.n, groups }
    }

    /// Breadth-first over the places of `pieces`, from home.
    fn build(space: &OrbitSpace, pieces: &[u8]) -> Vec<u8> {
        let n = space.n;
        let k = pieces.len();
        let size = (factorial(n) / factorial(n - k)) as usize;
        let mut table = vec![u8::MAX; size];
        let home: Vec<u8> = pieces.to_vec();
        table[rank_places(&home, n) as usize] = 0;
        let mut frontier: Vec<u8> = home;
        let mut d = 0u8;
        // Where each place goes under each click.
        let dests: Vec<[u8; MAX_PLACES]> = space
            .moves
            .iter()
            .map(|(_, cycle)| {
                let mut dest = [0u8; MAX_PLACES];
                for (i, x) in dest.iter_mut().enumerate() {
                    *x = i as u8;
                }
                for i in 0..4 {
                    dest[cycle[i] as usize] = cycle[(i + 1) % 4];
                }
                dest
            })
            .collect();
        let mut places = vec![0u8; k];
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for state in frontier.chunks_exact(k) {
                for dest in &dests {
                    for (p, &s) in places.iter_mut().zip(state) {
                        *p = dest[s as usize];
                    }
                    let r = rank_places(&places, n) as usize;
                    if table[r] == u8::MAX {
                        table[r] = d + 1;
                        next.extend_from_slice(&places);
                    }
                }
            }
            frontier = next;
            d += 1;
        }
        table
    }

    /// The lower bound for `arr`: the largest table entry over the groups, looked up both
    /// for the arrangement and for its inverse (clicks come with their inverses, so an
    /// arrangement and its inverse are equally far from home).
    #[inline]
    pub fn estimate(&self, arr: &Arrangement) -> u32 {
        let mut place_of = [0u8; MAX_PLACES];
        for (place, &piece) in arr[..self.n].iter().enumerate() {
            place_of[piece as usize] = place as u8;
        }
        let mut best = 0;
        let mut places = [0u8; MAX_PLACES];
        for (pieces, table) in &self.groups {
            let k = pieces.len();
            for (i, &p) in pieces.iter().enumerate() {
                places[i] = place_of[p as usize];
            }
            best = best.max(table[rank_places(&places[..k], self.n) as usize]);
            for (i, &p) in pieces.iter().enumerate() {
                places[i] = arr[p as usize];
            }
            best = best.max(table[rank_places(&places[..k], self.n) as usize]);
        }
        best as u32
    }

    /// Table entries held.
    pub fn entries(&self) -> usize {
        self.groups.iter().map(|(_, t)| t.len()).sum()
    }
}

/// An orbit space searched with a pattern database.
struct Guided<'a> {
    space: &'a OrbitSpace,
    db: &'a PatternDb,
}

impl Space for Guided<'_> {
    type State = u64;

    #[inline]
    fn neighbours(&self, state: u64, out: &mut Vec<(Click, u64)>) {
        let n = self.space.n;
        for &(c, cycle) in &self.space.moves {
            // Rotate the four nibbles of the cycle's places.
            let nib = |s: u64, p: u8| (s >> (4 * p)) & 15;
            let mut next = state;
            for i in 0..4 {
                let (from, to) = (cycle[i], cycle[(i + 1) % 4]);
                next &= !(15u64 << (4 * to));
                next |= nib(state, from) << (4 * to);
            }
            debug_assert!(n <= MAX_PLACES);
            out.push((c, next));
        }
    }

    fn free(&self) -> bool {
        true
    }
}

impl Heuristic for Guided<'_> {
    fn is_goal(&self, state: u64) -> bool {
        state == solved(self.space.n)
    }

    #[inline]
    fn estimate(&self, state: u64) -> u32 {
        self.db.estimate(&unpack(state, self.space.n))
    }
}

/// The 2-bit value of an arrangement not yet reached.
const UNSEEN: u32 = 3;

/// Distances mod 3, two bits an arrangement, indexed by rank; 3 marks unreached.
#[derive(Debug)]
pub struct PackedDistances {
    /// 32 arrangements a word.
    words: Vec<u64>,
    /// Arrangements held.
    len: u64,
}

impl PackedDistances {
    /// The value (distance mod 3, or 3) of rank `r`.
    #[inline]
    pub fn get(&self, r: u64) -> u32 {
        ((self.words[(r / 32) as usize] >> (2 * (r % 32))) & 3) as u32
    }

    /// Arrangements held.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes of memory the table takes.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// The table as bytes (little-endian words), for a caller to store.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// A table of `len` arrangements read back from [`to_bytes`](Self::to_bytes); `None` if
    /// the bytes are not that size.
    pub fn from_bytes(bytes: &[u8], len: u64) -> Option<PackedDistances> {
        if bytes.len() as u64 != len.div_ceil(32) * 8 {
            return None;
        }
        let words = bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0xff; 8])))
            .collect();
        Some(PackedDistances { words, len })
    }
}

/// The result of a census: how many arrangements lie at each distance, and the table.
#[derive(Debug)]
pub struct Census {
    /// `counts[d]` arrangements need exactly d clicks.
    pub counts: Vec<u64>,
    /// Every arrangement's distance mod 3.
    pub table: PackedDistances,
}

impl Census {
    /// The largest distance (God's number).
    pub fn gods_number(&self) -> usize {
        self.counts.len().saturating_sub(1)
    }

    /// Arrangements solvable within `clicks`.
    pub fn within(&self, clicks: usize) -> u64 {
        self.counts.iter().take(clicks + 1).sum()
    }
}

/// Arrangements one worker takes at a time.
const CHUNK: u64 = 1 << 16;

/// The largest level kept as an explicit list of ranks (4 bytes each); larger levels are
/// found by scanning the whole table instead.
const LIST_LIMIT: usize = 80_000_000;

/// How one level of the census is grown.
enum Mode {
    /// Expand an explicit list of the level's ranks.
    List(Vec<u32>),
    /// Scan the table; expand every arrangement holding the level's value (levels 3, 6, …
    /// below share it and are expanded again, harmlessly).
    Push,
    /// Scan the table; every unreached arrangement next to the level joins the next one.
    Pull,
}

/// The 2-bit table being filled, shared by the worker threads.
struct Shared {
    words: Vec<AtomicU64>,
}

impl Shared {
    #[inline]
    fn get(&self, r: u64) -> u32 {
        ((self.words[(r / 32) as usize].load(Ordering::Relaxed) >> (2 * (r % 32))) & 3) as u32
    }

    /// Marks `r` with `v` if unreached; true if this call marked it. Within one level every
    /// mark carries the same value, so two threads racing past the first test write the same
    /// bits, and `fetch_and` tells exactly one of them it was first.
    #[inline]
    fn mark(&self, r: u64, v: u32) -> bool {
        if self.get(r) != UNSEEN {
            return false;
        }
        let shift = 2 * (r % 32);
        let clear = ((3 ^ v) as u64) << shift;
        let before = self.words[(r / 32) as usize].fetch_and(!clear, Ordering::Relaxed);
        (before >> shift) & 3 == UNSEEN as u64
    }
}

/// Fills the distance table of every arrangement of `space` breadth-first by rank, on
/// `threads` threads. Small levels are kept as lists of ranks; a level too large for a list
/// is found by scanning the table, pushing from the level or — once few arrangements are
/// left — pulling into the unreached ones, whichever touches fewer. `progress` hears each
/// level's distance and count as it completes.
pub fn census(space: &OrbitSpace, threads: usize, progress: impl FnMut(usize, u64)) -> Census {
    census_with(space, threads, LIST_LIMIT, progress)
}

/// [`census`] keeping levels of at most `list_limit` arrangements as lists (0 scans the table
/// for every level, which exercises the scanning paths on a small puzzle).
pub fn census_with(
    space: &OrbitSpace,
    threads: usize,
    list_limit: usize,
    mut progress: impl FnMut(usize, u64),
) -> Census {
    let len = space.size();
    let table = Shared {
        words: (0..len.div_ceil(32)).map(|_| AtomicU64::new(!0)).collect(),
    };
    table.mark(0, 0);
    let mut counts = vec![1u64];
    let mut reached = 1u64;
    // Arrangements holding each residue so far.
    let mut residue = [1u64, 0, 0];
    let threads = threads.max(1);
    let mut mode = if list_limit > 0 {
        Mode::List(vec![0])
    } else {
        Mode::Push
    };
    loop {
        let d = counts.len() - 1;
        let unseen = len - reached;
        if unseen == 0 {
            break;
        }
        if unseen < residue[d % 3] || (unseen as usize) < counts[d] as usize {
            mode = Mode::Pull;
        }
        let (found, list) = match &mode {
            Mode::List(level) => {
                let next = expand_list(space, &table, level, d, threads);
                (next.len() as u64, Some(next))
            }
            Mode::Push => (scan(space, &table, d, false, threads), None),
            Mode::Pull => (scan(space, &table, d, true, threads), None),
        };
        if found == 0 {
            break;
        }
        mode = match (list, &mode) {
            (Some(next), _) if next.len() <= list_limit => Mode::List(next),
            (_, Mode::Pull) => Mode::Pull,
            _ => Mode::Push,
        };
        counts.push(found);
        progress(d + 1, found);
        reached += found;
        residue[(d + 1) % 3] += found;
    }
    let words = table.words.into_iter().map(AtomicU64::into_inner).collect();
    Census {
        counts,
        table: PackedDistances { words, len },
    }
}

/// The next level from an explicit list of level `d`.
fn expand_list(
    space: &OrbitSpace,
    table: &Shared,
    level: &[u32],
    d: usize,
    threads: usize,
) -> Vec<u32> {
    let n = space.n;
    let next_v = ((d + 1) % 3) as u32;
    let cursor = AtomicUsize::new(0);
    let step = CHUNK as usize;
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    let mut arr = [0u8; MAX_PLACES];
                    let mut ranks = [0u32; 16];
                    loop {
                        let lo = cursor.fetch_add(step, Ordering::Relaxed);
                        if lo >= level.len() {
                            break;
                        }
                        for &r in &level[lo..(lo + step).min(level.len())] {
                            unrank(r, &mut arr[..n]);
                            let k = space.neighbour_ranks(&arr, &mut ranks);
                            for &q in &ranks[..k] {
                                if table.mark(q as u64, next_v) {
                                    out.push(q);
                                }
                            }
                        }
                    }
                    out
                })
            })
            .collect();
        let mut next = Vec::new();
        for w in workers {
            next.extend(w.join().unwrap_or_default());
        }
        next
    })
}

/// Finds level `d + 1` by scanning every rank (push from level `d`, or pull into the
/// unreached); returns its size.
fn scan(space: &OrbitSpace, table: &Shared, d: usize, pull: bool, threads: usize) -> u64 {
    let n = space.n;
    let len = space.size();
    let v = (d % 3) as u32;
    let next_v = ((d + 1) % 3) as u32;
    let cursor = AtomicUsize::new(0);
    let chunks = len.div_ceil(CHUNK) as usize;
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut found = 0u64;
                    let mut arr = [0u8; MAX_PLACES];
                    let mut ranks = [0u32; 16];
                    loop {
                        let c = cursor.fetch_add(1, Ordering::Relaxed);
                        if c >= chunks {
                            break;
                        }
                        let lo = c as u64 * CHUNK;
                        let hi = (lo + CHUNK).min(len);
                        unrank(lo as u32, &mut arr[..n]);
                        for r in lo..hi {
                            if r > lo {
                                next_permutation(&mut arr[..n]);
                            }
                            let here = table.get(r);
                            if pull {
                                if here != UNSEEN {
                                    continue;
                                }
                                // Unreached and next to a value-v arrangement: that one is
                                // at d (one at d - 3 would have reached this one already).
                                let near = space.moves.iter().any(|(_, cycle)| {
                                    let mut next = arr;
                                    OrbitSpace::apply(&mut next, cycle);
                                    table.get(rank(&next[..n]) as u64) == v
                                });
                                if near && table.mark(r, next_v) {
                                    found += 1;
                                }
                            } else if here == v {
                                let k = space.neighbour_ranks(&arr, &mut ranks);
                                for &q in &ranks[..k] {
                                    if table.mark(q as u64, next_v) {
                                        found += 1;
                                    }
                                }
                            }
                        }
                    }
                    found
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
    })
}
