//! Auriga's course for the solution (`auriga_solved`): chariots as a slot and whole laps,
//! boards of two chariots, where each click takes them and how far round (the engine's own
//! winding), who leads, and every board a mover can reach within a turn's clicks. Small
//! integers, so that a table of every board fits in a few megabytes.

use orion_engine::games::{auriga_angle as angle, auriga_turn};
use orion_engine::{Click, Game, Rotor, Slot, SLOTS};
use std::f64::consts::{PI, TAU};
use std::sync::OnceLock;

/// The die the table is solved for: the game's default.
pub const FACES: [u8; 6] = [1, 2, 2, 3, 4, 5];
/// Clicks the player not in the lead may take instead of the die.
pub const THREE: u8 = 3;
/// The most clicks a turn can have (the die's highest face).
pub const MOST: u8 = 5;
/// The fewest whole laps a chariot in the table has done: a lap behind the start (a chariot
/// driven further back is held at this many; the values from the openings are the same to
/// six places with two laps behind, BENCHMARKS.md "Auriga solved", and a game the engine
/// has taken further back is left to the turn search).
pub(crate) const LAP_LOW: i8 = -1;
/// Whole laps a chariot in the table may have done: `LAP_LOW..FINISH`.
const LAP_COUNT: usize = 3;
/// Whole laps that finish the race (the engine's `LAPS`).
pub(crate) const FINISH: i8 = 2;
/// Chariots (slot and whole laps) the table tells apart.
pub const CHARIOTS: usize = SLOTS * LAP_COUNT;
/// Boards (both chariots) the table tells apart.
pub const BOARDS: usize = CHARIOTS * CHARIOTS;

/// A chariot on the course: its slot and the whole laps it has done.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Chariot {
    /// Where it stands.
    pub slot: Slot,
    /// Whole laps done counter-clockwise from the finish line (`LAP_LOW..2`).
    pub laps: i8,
}

impl Chariot {
    fn code(self) -> usize {
        self.slot.index() * LAP_COUNT + (self.laps - LAP_LOW) as usize
    }

    fn from_code(code: usize) -> Chariot {
        Chariot {
            slot: Slot::from_index(code / LAP_COUNT).expect("a slot"),
            laps: (code % LAP_COUNT) as i8 + LAP_LOW,
        }
    }
}

/// Both chariots: seat 0's (the first mover's) and seat 1's.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board(pub [Chariot; 2]);

impl Board {
    /// A number for the board, below [`BOARDS`].
    pub fn code(self) -> usize {
        self.0[0].code() * CHARIOTS + self.0[1].code()
    }

    /// The board numbered `code`.
    pub fn from_code(code: usize) -> Board {
        Board([
            Chariot::from_code(code / CHARIOTS),
            Chariot::from_code(code % CHARIOTS),
        ])
    }

    /// The chariots' slots alone: the engine's position, which the no-reversal rule compares.
    pub fn slots(self) -> Slots {
        Slots((self.0[0].slot.index() * SLOTS + self.0[1].slot.index()) as u16)
    }
}

/// Both chariots' slots, laps aside (a position of the engine's).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Slots(pub u16);

/// What a click left: a board, or the end of the game.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Clicked {
    /// The race goes on.
    On(Board),
    /// A chariot finished: the value to seat 0 (1 its win, 0 its loss, ½ both at once).
    Over(f64),
}

/// The course: where each click takes a chariot, and how far round.
pub struct Course {
    /// For each slot and each of the 50 clicks: the slot a chariot there goes to and the
    /// whole laps it gains (−1, 0, 1), if the click turns it.
    moves: Vec<[Option<(Slot, i8)>; 50]>,
    /// The clicks a chariot on each slot may make (the unlocked rotors holding it), as
    /// indices into `Click::ALL`, in its order (the engine's order of legal clicks).
    from: Vec<Vec<u8>>,
    /// Where each slot lies on a lap, in laps from the finish line, in `0..1`.
    place: [f64; SLOTS],
    /// The order of `place` as integers, so that equal places compare equal exactly.
    rank: [u16; SLOTS],
    /// Clicks from each chariot to its finish alone (the other aside), by chariot code.
    to_go: Vec<u16>,
    /// Clicks between slots (unlocked rotors only), for quick tests of what is in reach.
    apart: Vec<[u8; SLOTS]>,
}

/// Whether `game` is the Auriga the course and the race odds model: two players, the default
/// die ([`FACES`]) and no fixed number of clicks.
pub fn applies(game: &Game) -> bool {
    game.rules().id() == "auriga"
        && game.seats().len() == 2
        && game.options().clicks.is_none()
        && game.options().die == FACES
}

/// The locked rotors C2, C3, C4.
pub(crate) fn locked(rotor: Rotor) -> bool {
    rotor.column() == 2 && (1..=3).contains(&rotor.row())
}

/// Where a slot lies on a lap, in laps from the finish line counter-clockwise, in `0..1`.
fn lap_place(slot: Slot) -> f64 {
    let p = (angle(slot) + PI / 2.0) / TAU;
    if p < -1e-9 {
        p + 1.0
    } else if p >= 1.0 - 1e-9 {
        0.0
    } else {
        p.max(0.0)
    }
}

impl Course {
    fn build() -> Course {
        let mut place = [0.0; SLOTS];
        for s in Slot::ALL {
            place[s.index()] = lap_place(s);
        }
        let mut sorted: Vec<f64> = place.to_vec();
        sorted.sort_by(f64::total_cmp);
        sorted.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
        let mut rank = [0u16; SLOTS];
        for s in Slot::ALL {
            rank[s.index()] = sorted
                .iter()
                .position(|&p| (p - place[s.index()]).abs() < 1e-9)
                .unwrap_or(0) as u16;
        }
        let mut moves = vec![[None; 50]; SLOTS];
        let mut from = vec![Vec::new(); SLOTS];
        for s in Slot::ALL {
            for (i, click) in Click::ALL.iter().enumerate() {
                if locked(click.rotor) {
                    continue;
                }
                let Some(to) = click.destination(s) else {
                    continue;
                };
                let after = place[s.index()] + auriga_turn(s, to) / TAU;
                let gained = (after - place[to.index()]).round() as i8;
                moves[s.index()][i] = Some((to, gained));
                from[s.index()].push(i as u8);
            }
        }
        let mut apart = vec![[u8::MAX; SLOTS]; SLOTS];
        for s in Slot::ALL {
            let row = &mut apart[s.index()];
            row[s.index()] = 0;
            let mut queue = std::collections::VecDeque::from([s]);
            while let Some(a) = queue.pop_front() {
                for &c in &from[a.index()] {
                    if let Some((b, _)) = moves[a.index()][usize::from(c)] {
                        if row[b.index()] == u8::MAX {
                            row[b.index()] = row[a.index()] + 1;
                            queue.push_back(b);
                        }
                    }
                }
            }
        }
        let mut course = Course {
            moves,
            from,
            place,
            rank,
            to_go: vec![u16::MAX; CHARIOTS],
            apart,
        };
        course.to_go = course.distances();
        course
    }

    /// Clicks each chariot needs to finish alone (Bellman–Ford over slots and laps).
    fn distances(&self) -> Vec<u16> {
        let mut d = vec![u16::MAX; CHARIOTS];
        loop {
            let mut changed = false;
            for code in 0..CHARIOTS {
                let c = Chariot::from_code(code);
                let mut best = d[code];
                for &i in &self.from[c.slot.index()] {
                    let Some((to, gained)) = self.moves[c.slot.index()][usize::from(i)] else {
                        continue;
                    };
                    let laps = c.laps + gained;
                    let next = if laps >= FINISH {
                        0
                    } else if laps < LAP_LOW {
                        continue;
                    } else {
                        d[Chariot { slot: to, laps }.code()]
                    };
                    if next != u16::MAX && next + 1 < best {
                        best = next + 1;
                    }
                }
                if best < d[code] {
                    d[code] = best;
                    changed = true;
                }
            }
            if !changed {
                return d;
            }
        }
    }

    /// Where each slot lies on a lap (laps from the finish line, `0..1`).
    pub fn place(&self, slot: Slot) -> f64 {
        self.place[slot.index()]
    }

    /// Clicks `chariot` needs to finish, the other aside.
    pub fn to_go(&self, chariot: Chariot) -> u16 {
        self.to_go[chariot.code()]
    }

    /// The clicks (indices into `Click::ALL`) seat `mover` may make on `board`.
    pub fn clicks(&self, board: Board, mover: usize) -> &[u8] {
        &self.from[board.0[mover].slot.index()]
    }

    /// `board` after the click `Click::ALL[click]` (which must turn one of its chariots).
    pub fn click(&self, board: Board, click: u8) -> Clicked {
        let mut out = board;
        let mut done = [false; 2];
        for (i, chariot) in out.0.iter_mut().enumerate() {
            if let Some((to, gained)) = self.moves[chariot.slot.index()][usize::from(click)] {
                chariot.slot = to;
                chariot.laps = (chariot.laps + gained).max(LAP_LOW);
                done[i] = chariot.laps >= FINISH;
            }
        }
        match done {
            [false, false] => Clicked::On(out),
            [true, false] => Clicked::Over(1.0),
            [false, true] => Clicked::Over(0.0),
            [true, true] => Clicked::Over(0.5),
        }
    }

    /// The seat whose chariot leads alone (the greater winding), which must throw.
    pub fn leader(&self, board: Board) -> Option<usize> {
        let key = |c: Chariot| (c.laps, self.rank[c.slot.index()]);
        let (a, b) = (key(board.0[0]), key(board.0[1]));
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Laps round the course (the engine's winding over a full turn) of seat `i`'s chariot.
    pub fn laps(&self, board: Board, i: usize) -> f64 {
        let c = board.0[i];
        f64::from(c.laps) + self.place[c.slot.index()]
    }

    /// Whether seat `mover` could bring the board back to `slots` within [`MOST`] clicks
    /// from `board` (whether the no-reversal rule can bite in his turn).
    pub(crate) fn in_reach(
        &self,
        board: Board,
        mover: usize,
        slots: Slots,
        scratch: &mut Scratch,
    ) -> bool {
        let target = [usize::from(slots.0) / SLOTS, usize::from(slots.0) % SLOTS];
        let other = 1 - mover;
        let (mine, theirs) = (board.0[mover].slot.index(), board.0[other].slot.index());
        // Quick tests: each chariot must get home, and the other's only moves in a rotor
        // that holds the mover's.
        if self.apart[mine][target[mover]] > MOST || self.apart[theirs][target[other]] > MOST {
            return false;
        }
        if theirs != target[other] && self.apart[mine][theirs] > MOST + 1 {
            return false;
        }
        let mut found = false;
        self.walk(board, mover, MOST, scratch, |b, _| {
            found |= b.slots() == slots;
        });
        found
    }

    /// Every board seat `mover` can reach within `most` clicks from `board`, each once with
    /// the fewest clicks (`board` itself with none), and every ending of the game on the way:
    /// `reached(board, clicks)` and `over(value to seat 0, clicks)`.
    pub(crate) fn walk(
        &self,
        board: Board,
        mover: usize,
        most: u8,
        scratch: &mut Scratch,
        mut reached: impl FnMut(Board, u8),
    ) -> Vec<(f64, u8)> {
        scratch.stamp += 1;
        let stamp = scratch.stamp;
        let mut overs = Vec::new();
        scratch.layer.clear();
        scratch.layer.push(board.code() as u16);
        scratch.seen[board.code()] = stamp;
        reached(board, 0);
        for d in 1..=most {
            scratch.next.clear();
            for k in 0..scratch.layer.len() {
                let b = Board::from_code(usize::from(scratch.layer[k]));
                for &c in self.clicks(b, mover) {
                    match self.click(b, c) {
                        Clicked::On(n) => {
                            let code = n.code();
                            if scratch.seen[code] != stamp {
                                scratch.seen[code] = stamp;
                                scratch.next.push(code as u16);
                                reached(n, d);
                            }
                        }
                        Clicked::Over(v) => {
                            if !overs.iter().any(|&(w, _)| w == v) {
                                overs.push((v, d));
                            }
                        }
                    }
                }
            }
            std::mem::swap(&mut scratch.layer, &mut scratch.next);
        }
        overs
    }
}

/// Reusable buffers for [`Course::walk`].
pub struct Scratch {
    seen: Vec<u32>,
    stamp: u32,
    layer: Vec<u16>,
    next: Vec<u16>,
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            seen: vec![0; BOARDS],
            stamp: 0,
            layer: Vec::new(),
            next: Vec::new(),
        }
    }
}

/// The course, built once.
pub fn course() -> &'static Course {
    static COURSE: OnceLock<Course> = OnceLock::new();
    COURSE.get_or_init(Course::build)
}
