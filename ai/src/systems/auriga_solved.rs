//! Auriga of two players solved, with both sides at their best and the die's throws by their
//! odds (value iteration over whole turns on the boards of [`super::auriga_course`]):
//! [`Table`], one value per board and mover, the no-reversal rule left out of the turns to
//! come, built once in about half a second, is what levels 5–8 play where the game is the
//! default one ([`applies`], [`decide`]); [`Solution`], every turn start reached with the
//! end the rule forbids, exact but some thirty seconds to build, is the probe's
//! (`auriga_solve`, which also measures `greedy` against both: BENCHMARKS.md, "Auriga
//! solved"). The race odds of `auriga_race` leave the other chariot aside; this is the game.

pub use super::auriga_course::{
    course, Board, Chariot, Clicked, Course, Scratch, Slots, BOARDS, CHARIOTS, FACES, MOST, THREE,
};
use super::auriga_course::{FINISH, LAP_LOW};
use orion_engine::{Action, Allowance, Click, Game, Rotor, Side, Slot, SLOTS};
use std::collections::HashMap;
use std::sync::OnceLock;

/// A turn's start: the board, who moves, and the end he may not make (the board before the
/// other's last move, kept only where he could reach it).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Start {
    /// Both chariots.
    pub board: Board,
    /// Seat 0 or 1.
    pub mover: usize,
    /// The no-reversal rule's forbidden end, where in reach.
    pub forbidden: Option<Slots>,
}

/// Where a turn can end: a turn start of the other's, or the game's end (the value to the
/// mover who ends it so).
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Next {
    /// The other's turn begins (index into [`Solution::starts`]).
    Turn(u32),
    /// The game is over: the mover's result.
    Over(f64),
}

/// The ends of one turn, each with the fewest clicks that make it.
pub type Ends = Vec<(u8, Next)>;

/// The game from its openings: every turn start reached, the ends of each turn, and the
/// value of each start for its mover with both sides at their best.
pub struct Solution {
    /// Every turn start reached from the openings.
    pub starts: Vec<Start>,
    /// Their numbers.
    index: HashMap<Start, u32>,
    /// Each start's turn ends, fewest clicks first (`ends[i]` for `starts[i]`).
    pub ends: Vec<Ends>,
    /// Each start's value to its mover (a draw half).
    pub value: Vec<f64>,
}

/// The board after both chariots are entered: seat 0 on `first` (`C1s` or `C1n`), seat 1
/// on the other.
pub fn opening(first_south: bool) -> Board {
    let c1 = Rotor::at(2, 0).expect("C1");
    let (s, n) = (c1.slot(Side::South), c1.slot(Side::North));
    let (a, b) = if first_south { (s, n) } else { (n, s) };
    Board([Chariot { slot: a, laps: 0 }, Chariot { slot: b, laps: 0 }])
}

impl Solution {
    /// The start after `board` was made from `before` by `mover`: the other's turn, his
    /// forbidden end the board before (where he could reach it).
    pub fn after(
        course: &Course,
        before: Board,
        board: Board,
        mover: usize,
        scratch: &mut Scratch,
    ) -> Start {
        let other = 1 - mover;
        let changed = board.slots() != before.slots();
        let forbidden = (changed && course.in_reach(board, other, before.slots(), scratch))
            .then_some(before.slots());
        Start {
            board,
            mover: other,
            forbidden,
        }
    }

    /// `start` with its forbidden end dropped where its mover cannot reach it.
    pub fn canonical(course: &Course, start: Start, scratch: &mut Scratch) -> Start {
        let forbidden = start
            .forbidden
            .filter(|&f| course.in_reach(start.board, start.mover, f, scratch));
        Start { forbidden, ..start }
    }

    /// The ends of `start`'s turn: each board its mover can leave (the forbidden one not),
    /// and each way the game can end on the way, with the fewest clicks; `starts` numbers
    /// the other's turn starts (`number` adds a new one).
    fn turn_ends(
        course: &Course,
        start: Start,
        scratch: &mut Scratch,
        mut number: impl FnMut(Start) -> u32,
    ) -> Ends {
        let mut boards = Vec::new();
        let overs = course.walk(start.board, start.mover, MOST, scratch, |b, d| {
            if Some(b.slots()) != start.forbidden {
                boards.push((b, d));
            }
        });
        let mut ends: Ends = Vec::with_capacity(boards.len() + overs.len());
        for (b, d) in boards {
            let next = Solution::after(course, start.board, b, start.mover, scratch);
            ends.push((d, Next::Turn(number(next))));
        }
        for (v, d) in overs {
            let mine = if start.mover == 0 { v } else { 1.0 - v };
            ends.push((d, Next::Over(mine)));
        }
        ends.sort_by_key(|e| e.0);
        ends
    }

    /// Every turn start reached from the two openings, with its ends.
    pub fn explore(course: &Course) -> Solution {
        let mut scratch = Scratch::default();
        let mut starts: Vec<Start> = Vec::new();
        let mut index: HashMap<Start, u32> = HashMap::new();
        for first_south in [true, false] {
            let s = Start {
                board: opening(first_south),
                mover: 0,
                forbidden: None,
            };
            index.insert(s, starts.len() as u32);
            starts.push(s);
        }
        let mut ends = Vec::new();
        let mut i = 0;
        while i < starts.len() {
            let start = starts[i];
            let e = Solution::turn_ends(course, start, &mut scratch, |s| {
                *index.entry(s).or_insert_with(|| {
                    starts.push(s);
                    (starts.len() - 1) as u32
                })
            });
            ends.push(e);
            i += 1;
        }
        let value = vec![0.5; starts.len()];
        Solution {
            starts,
            index,
            ends,
            value,
        }
    }

    /// The number of a turn start, if reached.
    pub fn number(&self, start: Start) -> Option<u32> {
        self.index.get(&start).copied()
    }

    /// The order in which value iteration sweeps the starts: nearest the finish first.
    pub fn sweep_order(&self, course: &Course) -> Vec<u32> {
        let mut order: Vec<u32> = (0..self.starts.len() as u32).collect();
        order.sort_by_key(|&i| {
            let b = self.starts[i as usize].board;
            u32::from(course.to_go(b.0[0])) + u32::from(course.to_go(b.0[1]))
        });
        order
    }

    /// The value to the mover of ending his turn at `next`.
    pub fn end_value(&self, next: Next) -> f64 {
        match next {
            Next::Turn(j) => 1.0 - self.value[j as usize],
            Next::Over(v) => v,
        }
    }

    /// The best end within `n` clicks for each `n` up to [`MOST`], by `value` of each end.
    pub fn best_within(ends: &Ends, value: impl Fn(Next) -> f64) -> [f64; MOST as usize + 1] {
        let mut best = [f64::NEG_INFINITY; MOST as usize + 1];
        for &(d, next) in ends {
            let v = value(next);
            for b in best.iter_mut().skip(usize::from(d)) {
                if v > *b {
                    *b = v;
                }
            }
        }
        best
    }

    /// The value of a turn start from the best end within each number of clicks: the best of
    /// passing, the die's expectation and (not leading) three clicks.
    pub fn choose(best: &[f64; MOST as usize + 1], leads: bool) -> (f64, Choice) {
        let roll: f64 =
            FACES.iter().map(|&f| best[usize::from(f)]).sum::<f64>() / FACES.len() as f64;
        let mut out = (best[0], Choice::Pass);
        if roll > out.0 + 1e-12 {
            out = (roll, Choice::Roll);
        }
        if !leads && best[usize::from(THREE)] > out.0 + 1e-12 {
            out = (best[usize::from(THREE)], Choice::Three);
        }
        out
    }

    /// Starts each value from `table` (the same game, the no-reversal rule left out of the
    /// turns to come), so that value iteration has little left to do.
    pub fn warm(&mut self, table: &Table) {
        for (v, s) in self.value.iter_mut().zip(&self.starts) {
            *v = table.at(s.board, s.mover);
        }
    }

    /// Value iteration with both sides at their best, until no value moves by `tolerance`.
    /// Returns the sweeps made.
    pub fn solve(&mut self, course: &Course, tolerance: f64) -> usize {
        let order = self.sweep_order(course);
        for sweep in 1..=10_000 {
            let mut change: f64 = 0.0;
            for &i in &order {
                let i = i as usize;
                let start = self.starts[i];
                let best = Solution::best_within(&self.ends[i], |n| self.end_value(n));
                let leads = course.leader(start.board) == Some(start.mover);
                let (v, _) = Solution::choose(&best, leads);
                change = change.max((v - self.value[i]).abs());
                self.value[i] = v;
            }
            if change < tolerance {
                return sweep;
            }
        }
        10_000
    }
}

/// How a turn begins.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Choice {
    /// End the turn at once.
    Pass,
    /// Throw the die.
    Roll,
    /// Take three clicks.
    Three,
}

/// The table, built once (the first Auriga decision of a level that plays by it pays for it:
/// about half a second of one core).
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| Table::build(course(), TOLERANCE).0)
}

/// How far value iteration goes: no value moves by more in a sweep.
pub const TOLERANCE: f64 = 1e-9;

/// Whether the solution plays `game`: Auriga of two with the default die and no fixed
/// number of clicks (the course's [`applies`](super::auriga_course::applies)).
pub use super::auriga_course::applies;

/// The engine's game as the table's board, if the table holds it.
pub fn board_of(course: &Course, game: &Game) -> Option<Board> {
    let laps = game.laps();
    let mut chariots = [Chariot {
        slot: Slot::ALL[0],
        laps: 0,
    }; 2];
    for (i, c) in chariots.iter_mut().enumerate() {
        let seat = game.seats().get(i)?;
        let slot = game.position().of(seat.colour).first()?;
        let wound = laps.get(i)?.1;
        let whole = (wound - course.place(slot)).round();
        if !(f64::from(LAP_LOW)..f64::from(FINISH)).contains(&whole) {
            return None;
        }
        *c = Chariot {
            slot,
            laps: whole as i8,
        };
    }
    Some(Board(chariots))
}

/// The engine's position as the table's slots.
fn slots_of(game: &Game, position: &orion_engine::Position) -> Option<Slots> {
    let mut s = [0usize; 2];
    for (i, x) in s.iter_mut().enumerate() {
        *x = position.of(game.seats().get(i)?.colour).first()?.index();
    }
    Some(Slots((s[0] * SLOTS + s[1]) as u16))
}

/// What the mover of a turn can make of it from `board` with `left` clicks still to make:
/// the best end in reach (not `forbidden`), each judged by the table.
fn within(
    table: &Table,
    course: &Course,
    board: Board,
    mover: usize,
    left: u8,
    forbidden: Option<Slots>,
    scratch: &mut Scratch,
) -> f64 {
    let mut best = f64::NEG_INFINITY;
    let overs = course.walk(board, mover, left, scratch, |b, _| {
        if Some(b.slots()) != forbidden {
            best = best.max(1.0 - table.at(b, 1 - mover));
        }
    });
    for (v, _) in overs {
        best = best.max(if mover == 0 { v } else { 1.0 - v });
    }
    best
}

/// Level 8's action in `game` by the table: the first legal action (the engine's order) of
/// the best value to the mover, or `None` where the table does not play (another game, die
/// or number of players, a board it does not hold, nothing to decide).
pub fn decide(game: &Game) -> Option<Action> {
    let mut best: Option<(f64, Action)> = None;
    for (a, v) in action_values(game)? {
        if best.map_or(true, |(b, _)| v > b + 1e-12) {
            best = Some((v, a));
        }
    }
    best.map(|(_, a)| a)
}

/// Each legal action of the mover in `game` with its value to him by the table (his odds of
/// winning, both sides at their best from there, the no-reversal rule kept in this turn),
/// in the engine's order; `None` where the table does not play.
pub fn action_values(game: &Game) -> Option<Vec<(Action, f64)>> {
    if !applies(game) || game.outcome().is_some() {
        return None;
    }
    let course = course();
    let table = table();
    let mover = game.seats().iter().position(|s| s.seat == game.mover())?;
    let legal = game.legal_actions(game.mover(), 0);
    let mut scratch = Scratch::default();
    let mut out = Vec::with_capacity(legal.len());
    if let Allowance::Place(_) = game.allowance() {
        // Entering: the first mover chooses his entry slot; the other's is then forced.
        for &a in &legal {
            let Action::Place { slot, .. } = a else {
                continue;
            };
            let south = Rotor::at(2, 0).expect("C1").slot(Side::South);
            let v = if mover == 0 {
                table.at(opening(slot == south), 0)
            } else {
                // The first mover is on the other entry slot and moves next.
                1.0 - table.at(opening(slot != south), 0)
            };
            out.push((a, v));
        }
        return Some(out);
    }
    let board = board_of(course, game)?;
    let forbidden = game.forbidden().and_then(|p| slots_of(game, &p));
    let (allowed, used) = game.clicks();
    for &a in &legal {
        let v = match a {
            Action::Roll => {
                FACES
                    .iter()
                    .map(|&f| within(table, course, board, mover, f, forbidden, &mut scratch))
                    .sum::<f64>()
                    / FACES.len() as f64
            }
            Action::Three => within(table, course, board, mover, THREE, forbidden, &mut scratch),
            Action::EndTurn => 1.0 - table.at(board, 1 - mover),
            Action::Click { click, .. } => {
                let left = allowed.unwrap_or(0).saturating_sub(used);
                let index = Click::ALL.iter().position(|&c| c == click)? as u8;
                match course.click(board, index) {
                    Clicked::Over(v) => {
                        if mover == 0 {
                            v
                        } else {
                            1.0 - v
                        }
                    }
                    Clicked::On(after) => within(
                        table,
                        course,
                        after,
                        mover,
                        left.saturating_sub(1),
                        forbidden,
                        &mut scratch,
                    ),
                }
            }
            _ => continue,
        };
        out.push((a, v));
    }
    Some(out)
}

/// The game solved with the no-reversal rule left out of the turns to come (the turn being
/// decided keeps it: its legal actions are the engine's): one value per board and mover,
/// built in a fraction of a second. The probe measures what leaving the rule out costs
/// against [`Solution`], which keeps it.
pub struct Table {
    /// Each turn start's value to its mover, by `board code * 2 + mover`.
    pub value: Vec<f64>,
}

/// A step of a chariot's turn in [`Table`]: the board it leads to, or the game's end.
#[derive(Clone, Copy)]
enum Step {
    To(u32),
    Over(f64),
}

impl Table {
    /// Solves the game by value iteration over turns until no value moves by `tolerance`;
    /// returns the table and the sweeps made.
    pub fn build(course: &Course, tolerance: f64) -> (Table, usize) {
        // Each board's clicks for each mover, once.
        let mut first = vec![0u32; 2 * BOARDS + 1];
        let mut steps: Vec<Step> = Vec::with_capacity(2 * BOARDS * 3);
        let valid = |b: Board| b.0[0].slot != b.0[1].slot;
        for code in 0..BOARDS {
            let board = Board::from_code(code);
            for mover in 0..2 {
                first[code * 2 + mover] = steps.len() as u32;
                if !valid(board) {
                    continue;
                }
                for &c in course.clicks(board, mover) {
                    steps.push(match course.click(board, c) {
                        Clicked::On(n) => Step::To(n.code() as u32),
                        Clicked::Over(v) => Step::Over(if mover == 0 { v } else { 1.0 - v }),
                    });
                }
            }
        }
        first[2 * BOARDS] = steps.len() as u32;
        let leads: Vec<Option<usize>> = (0..BOARDS)
            .map(|code| course.leader(Board::from_code(code)))
            .collect();
        let mut value = vec![0.5; 2 * BOARDS];
        let mut within = vec![vec![0.0; BOARDS]; MOST as usize + 1];
        for sweep in 1..=100_000 {
            let mut change: f64 = 0.0;
            for mover in 0..2 {
                let other = 1 - mover;
                for code in 0..BOARDS {
                    within[0][code] = 1.0 - value[code * 2 + other];
                }
                for l in 1..=MOST as usize {
                    let (done, rest) = within.split_at_mut(l);
                    let prev = &done[l - 1];
                    let here = &mut rest[0];
                    for code in 0..BOARDS {
                        let mut best = done[0][code];
                        let k = code * 2 + mover;
                        for step in &steps[first[k] as usize..first[k + 1] as usize] {
                            let v = match *step {
                                Step::To(n) => prev[n as usize],
                                Step::Over(v) => v,
                            };
                            if v > best {
                                best = v;
                            }
                        }
                        here[code] = best;
                    }
                }
                for code in 0..BOARDS {
                    if !valid(Board::from_code(code)) {
                        continue;
                    }
                    let mut best = [0.0; MOST as usize + 1];
                    for (l, b) in best.iter_mut().enumerate() {
                        *b = within[l][code];
                    }
                    let (v, _) = Solution::choose(&best, leads[code] == Some(mover));
                    let k = code * 2 + mover;
                    change = change.max((v - value[k]).abs());
                    value[k] = v;
                }
            }
            if change < tolerance {
                return (Table { value }, sweep);
            }
        }
        (Table { value }, 100_000)
    }

    /// The value of a turn start to its mover, the no-reversal rule left out.
    pub fn at(&self, board: Board, mover: usize) -> f64 {
        self.value[board.code() * 2 + mover]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::orion::OrionView;
    use crate::{Level, Player};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn new_game(seed: u64) -> Game {
        let rules = orion_engine::games::find("auriga").expect("auriga");
        let options = orion_engine::Options {
            players: Some(2),
            ..orion_engine::Options::default()
        };
        Game::new(rules, options, seed).expect("a game")
    }

    /// The game after `record` (the ladder's notation: `roll` then `roll N` for a throw).
    fn replay(record: &str) -> Game {
        let mut game = new_game(1);
        for word in record.split(", ") {
            let mover = game.mover();
            if let Some(face) = word.strip_prefix("roll ") {
                game.step_roll(mover, face.parse().expect("a face"))
                    .expect("a legal throw");
            } else if word != "roll" {
                let action = Action::parse(word).expect("an action");
                game.step(mover, action, 0).expect("a legal action");
            }
        }
        game
    }

    #[test]
    fn the_table_follows_the_engine_click_by_click() {
        // Random games in the engine: every click moves the table's board as the engine
        // moves its chariots and laps, and the engine makes the table's leader throw.
        let course = course();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for seed in 0..20 {
            let mut game = new_game(seed);
            for _ in 0..400 {
                if game.outcome().is_some() {
                    break;
                }
                let mover = game.mover();
                let before = board_of(course, &game);
                let legal = game.legal_actions(mover, 0);
                let action = legal[rng.gen_range(0..legal.len())];
                if let (Some(board), Allowance::Die | Allowance::DieOrThree) =
                    (before, game.allowance())
                {
                    let m = game.seats().iter().position(|s| s.seat == mover).unwrap();
                    let leads = course.leader(board) == Some(m);
                    assert_eq!(game.allowance() == Allowance::Die, leads, "{board:?}");
                }
                if action == Action::Roll {
                    let face = FACES[rng.gen_range(0..FACES.len())];
                    game.step_roll(mover, face).unwrap();
                    continue;
                }
                game.step(mover, action, 0).unwrap();
                let (Some(board), Action::Click { click, .. }) = (before, action) else {
                    continue;
                };
                let index = Click::ALL.iter().position(|&c| c == click).unwrap() as u8;
                match course.click(board, index) {
                    Clicked::On(after) => {
                        if let Some(engine) = board_of(course, &game) {
                            assert_eq!(engine, after, "{click}");
                        }
                    }
                    Clicked::Over(_) => assert!(game.outcome().is_some()),
                }
            }
        }
    }

    #[test]
    fn the_first_mover_wins_four_races_in_seven_with_both_at_their_best() {
        let table = table();
        for south in [true, false] {
            let v = table.at(opening(south), 0);
            assert!((0.57..0.575).contains(&v), "{v}");
        }
    }

    /// Level 8 (moving first) against `greedy`, engine seed 2: 0.14 of a lap behind at a
    /// turn's start, the die would serve it worse than three clicks (the old level 8 threw).
    const BEHIND: &str = "place C1s, place C1n, three, C1L, D1R, D2L, roll, roll 2, C1L, C1L, \
        roll, roll 3, D2L, D3R, D3R, three, D1R, D2L, E2R, roll, roll 1, D4L, three, E3R, D3L, \
        D4R, roll, roll 4, D4L, E4R, E5R, D5L, three, D4L, D4L, D5R, roll, roll 2, D5R, D5R, \
        roll, roll 3, D5L, D5L, C5L, three, D5R, D5R, C5R, roll, roll 3, C5R, C5R, B5R, three, \
        C5L, B5R, B4L, roll, roll 2, A5R, A4L, three, A4R, B4L, B3L, roll, roll 2, A4R, A4R, \
        roll, roll 1, end, three, A3R, B3L, B2R";

    #[test]
    fn level_8_takes_three_clicks_where_the_solution_says_the_die_loses_more() {
        let game = replay(BEHIND);
        assert_eq!(game.allowance(), Allowance::DieOrThree);
        let values = action_values(&game).expect("the table plays");
        let of = |a: Action| values.iter().find(|v| v.0 == a).expect("legal").1;
        assert!(of(Action::Three) > of(Action::Roll) + 0.03, "{values:?}");
        let view = OrionView::new(&game, game.mover(), 0).expect("a seat");
        for seed in 0..4 {
            let chosen = crate::decide(Player::Level(Level::MAX), &view, None, seed);
            assert_eq!(chosen, Some(Action::Three));
        }
    }
}
