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

    /// Slots whose colour (or emptiness) differs from the finish, four per click at most.
    #[inline]
    fn estimate(&self, state: u128) -> u32 {
        let (a, b) = unpack(state);
        let (ga, gb) = unpack(self.goal);
        let wrong = ((a.0 ^ ga.0) | (b.0 ^ gb.0)).count_ones();
        wrong.div_ceil(4)
    }
}
