//! The colour-pattern puzzles (every puzzle but Orbit Solitaire) as a search space: a state
//! is the slot sets of the two colours in play packed in a `u128`, so a state costs 16 bytes
//! and a click is two bit permutations. The puzzle's rules (turning rotors, the moving
//! colour, Aquila's grip) are applied exactly as `Puzzle::try_click` applies them.

use super::space::{Heuristic, Space};
use super::SolveError;
use crate::board::{Click, SlotSet};
use crate::piece::Colour;
use crate::puzzles::Puzzle;

/// A colour-pattern puzzle's state graph.
#[derive(Clone, Debug)]
pub struct PatternSpace {
    /// The two colours in play, low half first.
    colours: [Colour; 2],
    /// The clicks that may ever be made (rotors the puzzle turns, both ways).
    clicks: Vec<Click>,
    /// Which half holds the moving colour, if a rotor must hold it.
    mover: Option<usize>,
    /// Which halves are the holder and held colour of a grip.
    grip: Option<(usize, usize)>,
    /// The start state.
    start: u128,
    /// The finish state.
    goal: u128,
}

fn pack(a: SlotSet, b: SlotSet) -> u128 {
    a.0 as u128 | (b.0 as u128) << 64
}

fn unpack(s: u128) -> (SlotSet, SlotSet) {
    (SlotSet(s as u64), SlotSet((s >> 64) as u64))
}

impl PatternSpace {
    /// The space of `puzzle`, which must use at most two colours.
    pub fn new(puzzle: &Puzzle) -> Result<PatternSpace, SolveError> {
        let finish = puzzle.finish.position();
        let used: Vec<Colour> = Colour::ALL
            .into_iter()
            .filter(|&c| puzzle.start.count(c) > 0 || finish.count(c) > 0)
            .collect();
        if used.len() > 2 {
            return Err(SolveError::Unsupported("more than two colours".into()));
        }
        let mut colours = [Colour::Red, Colour::Blue];
        for (i, &c) in used.iter().enumerate() {
            colours[i] = c;
        }
        if used.len() == 1 && colours[1] == colours[0] {
            colours[1] = Colour::Yellow;
        }
        let half = |c: Colour| colours.iter().position(|&x| x == c);
        let mover = match puzzle.mover {
            Some(c) => Some(half(c).ok_or(SolveError::Unreachable)?),
            None => None,
        };
        let grip = match puzzle.grip {
            Some(g) => Some((
                half(g.holder).ok_or(SolveError::Unreachable)?,
                half(g.held).ok_or(SolveError::Unreachable)?,
            )),
            None => None,
        };
        let clicks = Click::ALL
            .into_iter()
            .filter(|c| puzzle.rotors.contains(c.rotor))
            .collect();
        let state = |p: &crate::position::Position| pack(p.of(colours[0]), p.of(colours[1]));
        Ok(PatternSpace {
            colours,
            clicks,
            mover,
            grip,
            start: state(&puzzle.start),
            goal: state(finish),
        })
    }

    /// The start state.
    pub fn start(&self) -> u128 {
        self.start
    }

    /// The finish state.
    pub fn goal(&self) -> u128 {
        self.goal
    }

    /// The two colours in play.
    pub fn colours(&self) -> [Colour; 2] {
        self.colours
    }
}

impl Space for PatternSpace {
    type State = u128;

    #[inline]
    fn neighbours(&self, state: u128, out: &mut Vec<(Click, u128)>) {
        let (a, b) = unpack(state);
        let sets = [a, b];
        let occupied = a | b;
        for &click in &self.clicks {
            let orbit = click.rotor.orbit_set();
            if !occupied.intersects(orbit) {
                continue;
            }
            if let Some(m) = self.mover {
                if !sets[m].intersects(orbit) {
                    continue;
                }
            }
            let next = [a.clicked(click), b.clicked(click)];
            if let Some((holder, held)) = self.grip {
                let target = next[held];
                if !next[holder]
                    .into_iter()
                    .all(|s| s.touching().intersects(target))
                {
                    continue;
                }
            }
            out.push((click, pack(next[0], next[1])));
        }
    }

    fn free(&self) -> bool {
        self.mover.is_none() && self.grip.is_none()
    }
}

impl Heuristic for PatternSpace {
    fn is_goal(&self, state: u128) -> bool {
        state == self.goal
    }

    /// The largest of three bounds on the slots whose colour (or emptiness) differs from
    /// the finish: a click changes four slots, two of them horizontal and two vertical; and
    /// wrong slots no two of which share a rotor each need a click of their own (a greedy
    /// such set, scanned from both ends of the slot order).
    #[inline]
    fn estimate(&self, state: u128) -> u32 {
        let (a, b) = unpack(state);
        let (ga, gb) = unpack(self.goal);
        let wrong = (a.0 ^ ga.0) | (b.0 ^ gb.0);
        let horizontal = (wrong & HORIZONTAL).count_ones().div_ceil(2);
        let vertical = (wrong & !HORIZONTAL).count_ones().div_ceil(2);
        let all = wrong.count_ones().div_ceil(4);
        let forward = apart(wrong, false);
        let backward = apart(wrong, true);
        all.max(horizontal).max(vertical).max(forward).max(backward)
    }
}

/// The 30 horizontal slots (canonical indices 0..30).
const HORIZONTAL: u64 = (1 << 30) - 1;

/// How many wrong slots, taken greedily from the lowest (or highest) index, share no rotor
/// with one taken before.
#[inline]
fn apart(mut wrong: u64, from_top: bool) -> u32 {
    let mut used = 0u32;
    let mut count = 0;
    while wrong != 0 {
        let i = if from_top {
            63 - wrong.leading_zeros()
        } else {
            wrong.trailing_zeros()
        };
        wrong &= !(1u64 << i);
        let r = ROTORS_OF[i as usize];
        if r & used == 0 {
            used |= r;
            count += 1;
        }
    }
    count
}

/// The rotors of each slot's orbits, as bits.
const ROTORS_OF: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut r = 0;
    while r < 25 {
        let rotor = match crate::board::Rotor::from_index(r) {
            Some(x) => x,
            None => break,
        };
        let o = rotor.orbit();
        let mut k = 0;
        while k < 4 {
            t[o[k].index()] |= 1 << r;
            k += 1;
        }
        r += 1;
    }
    t
};
