//! `auriga_solve`: solves Auriga of two (`orion_ai::systems::auriga_solved`) and measures it
//! against `greedy`: the game's value from each seat with both sides at their best, with and
//! without the no-reversal rule in the turns to come; the best any player can do against
//! `greedy` (a one-player decision problem: `greedy`'s turns as it plays them, ties shared);
//! and what the table's play wins against `greedy`, exactly. Prints; the figures are in
//! BENCHMARKS.md, "Auriga solved".
//!
//! `greedy` is modelled here on the table's boards, its search as `greedy` makes it (its
//! beam of 48, its look of eight actions, its value of laps, its "sooner" bonus), with its
//! two random sources taken by their odds: the die it throws once in its look when it
//! chooses between the die and three clicks (each face with its odds), and its tie-breaking
//! jitter (turns tied at the top shared by how many of them begin with each action).

use orion_ai::systems::auriga_solved::board_of;
use orion_ai::systems::auriga_solved::{
    course, opening, Board, Clicked, Course, Solution, Start, Table, BOARDS, FACES, MOST, THREE,
    TOLERANCE,
};
use orion_ai::systems::orion::OrionState;
use orion_ai::{greedy, squash, Observe, State, ToAct};
use orion_engine::{Action, Click, Game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::time::Instant;

/// `greedy`'s beam and look (ai/src/greedy.rs).
const BEAM: usize = 48;
const DEPTH: usize = 8;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    Choose,
    Clicks(u8),
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Act {
    Roll,
    Three,
    End,
    Click(u8),
}

/// Where a turn ended: a board (the other's turn) or the game's end (value to seat 0).
#[derive(Clone, Copy, PartialEq, Debug)]
enum End {
    Board(u32),
    Over(f64),
}

fn eval(course: &Course, board: Board, me: usize) -> f64 {
    let mine = course.laps(board, me);
    let other = course.laps(board, 1 - me).max(0.0);
    squash(10.0 * (mine - 0.5 * other), 6.0)
}

fn over_value(v: f64, me: usize) -> f64 {
    let r = if me == 0 { v } else { 1.0 - v };
    r * 2.0 - 0.5
}

fn actions(course: &Course, board: Board, phase: Phase, me: usize) -> Vec<Act> {
    match phase {
        Phase::Choose => {
            let leads = course.leader(board) == Some(me);
            if leads {
                vec![Act::Roll, Act::End]
            } else {
                vec![Act::Roll, Act::Three, Act::End]
            }
        }
        Phase::Clicks(l) => {
            let mut v: Vec<Act> = if l > 0 {
                course
                    .clicks(board, me)
                    .iter()
                    .map(|&c| Act::Click(c))
                    .collect()
            } else {
                Vec::new()
            };
            v.push(Act::End);
            v
        }
    }
}

/// `greedy`'s first action at `(board, phase)`, the die showing `face` in its look: each
/// action's share of the turns tied at the top.
fn greedy_shares(
    course: &Course,
    board: Board,
    phase: Phase,
    me: usize,
    face: u8,
) -> Vec<(Act, f64)> {
    let legal = actions(course, board, phase, me);
    if legal.len() <= 1 {
        return vec![(legal[0], 1.0)];
    }
    let mut frontier: Vec<(Board, Phase, Option<Act>)> = vec![(board, phase, None)];
    let mut ends: Vec<(f64, Act)> = Vec::new();
    for depth in 0..DEPTH {
        let sooner = depth as f64 * 1e-3;
        let mut next: Vec<(f64, Board, Phase, Act)> = Vec::new();
        for &(b, ph, first) in &frontier {
            for a in actions(course, b, ph, me) {
                let f = first.unwrap_or(a);
                match (ph, a) {
                    (_, Act::End) => ends.push((eval(course, b, me) - sooner, f)),
                    (Phase::Choose, Act::Roll) => {
                        next.push((eval(course, b, me), b, Phase::Clicks(face), f))
                    }
                    (Phase::Choose, Act::Three) => {
                        next.push((eval(course, b, me), b, Phase::Clicks(THREE), f))
                    }
                    (Phase::Clicks(l), Act::Click(c)) => match course.click(b, c) {
                        Clicked::Over(v) => ends.push((over_value(v, me) - sooner, f)),
                        Clicked::On(n) => {
                            if l == 1 {
                                ends.push((eval(course, n, me) - sooner, f));
                            } else {
                                next.push((eval(course, n, me), n, Phase::Clicks(l - 1), f));
                            }
                        }
                    },
                    _ => {}
                }
            }
        }
        if next.is_empty() {
            break;
        }
        next.sort_by(|a, b| b.0.total_cmp(&a.0));
        next.truncate(BEAM);
        frontier = next
            .into_iter()
            .map(|(_, b, p, f)| (b, p, Some(f)))
            .collect();
    }
    let best = ends.iter().map(|e| e.0).fold(f64::NEG_INFINITY, f64::max);
    let tied: Vec<Act> = ends
        .iter()
        .filter(|e| e.0 >= best - 1e-9)
        .map(|e| e.1)
        .collect();
    let mut shares: Vec<(Act, f64)> = Vec::new();
    for a in &tied {
        match shares.iter_mut().find(|s| s.0 == *a) {
            Some(s) => s.1 += 1.0 / tied.len() as f64,
            None => shares.push((*a, 1.0 / tied.len() as f64)),
        }
    }
    shares
}

struct Greedy<'a> {
    course: &'a Course,
    me: usize,
    memo: HashMap<(u32, u8), Vec<(Act, f64)>>,
}

impl Greedy<'_> {
    /// The ends of `greedy`'s turn from `board`, with their odds.
    fn turn(&mut self, board: Board) -> Vec<(End, f64)> {
        let course = self.course;
        let me = self.me;
        let mut choice: Vec<(Act, f64)> = Vec::new();
        for &face in &FACES {
            for (a, p) in greedy_shares(course, board, Phase::Choose, me, face) {
                let p = p / FACES.len() as f64;
                match choice.iter_mut().find(|c| c.0 == a) {
                    Some(c) => c.1 += p,
                    None => choice.push((a, p)),
                }
            }
        }
        let mut out = Vec::new();
        for (a, p) in choice {
            match a {
                Act::End => out.push((End::Board(board.code() as u32), p)),
                Act::Roll => {
                    for &g in &FACES {
                        self.follow(board, g, p / FACES.len() as f64, &mut out);
                    }
                }
                Act::Three => self.follow(board, THREE, p, &mut out),
                Act::Click(_) => unreachable!(),
            }
        }
        let mut merged: Vec<(End, f64)> = Vec::new();
        for (e, p) in out {
            match merged.iter_mut().find(|m| m.0 == e) {
                Some(m) => m.1 += p,
                None => merged.push((e, p)),
            }
        }
        merged
    }

    fn follow(&mut self, board: Board, left: u8, p: f64, out: &mut Vec<(End, f64)>) {
        let key = (board.code() as u32, left);
        let shares = match self.memo.get(&key) {
            Some(s) => s.clone(),
            None => {
                let s = greedy_shares(self.course, board, Phase::Clicks(left), self.me, 1);
                self.memo.insert(key, s.clone());
                s
            }
        };
        for (a, q) in shares {
            match a {
                Act::End => out.push((End::Board(board.code() as u32), p * q)),
                Act::Click(c) => match self.course.click(board, c) {
                    Clicked::Over(v) => out.push((End::Over(v), p * q)),
                    Clicked::On(n) => {
                        if left == 1 {
                            out.push((End::Board(n.code() as u32), p * q));
                        } else {
                            self.follow(n, left - 1, p * q, out);
                        }
                    }
                },
                _ => unreachable!(),
            }
        }
    }
}

/// Against `greedy` in seat `1 - us`: the best response's values and the table's play's, at
/// our turn starts (`ours`) and at greedy's (`theirs`), each the odds that we win.
struct Against {
    /// The best response's best end within each number of clicks, by board (after solving).
    best_within: Vec<Vec<f64>>,
    best_ours: Vec<f64>,
    best_theirs: Vec<f64>,
    table_ours: Vec<f64>,
    table_theirs: Vec<f64>,
}

fn against_greedy(course: &Course, table: &Table, us: usize) -> Against {
    let them = 1 - us;
    let t = Instant::now();
    // Greedy's turn starts reachable from the openings, and its turns' ends.
    let mut g = Greedy {
        course,
        me: them,
        memo: HashMap::new(),
    };
    let mut turns: HashMap<u32, Vec<(End, f64)>> = HashMap::new();
    let mut ours_seen = vec![false; BOARDS];
    let mut queue_theirs: Vec<u32> = Vec::new();
    let mut queue_ours: Vec<u32> = Vec::new();
    for south in [true, false] {
        let b = opening(south).code() as u32;
        if us == 0 {
            queue_ours.push(b);
            ours_seen[b as usize] = true;
        } else {
            queue_theirs.push(b);
        }
    }
    let mut theirs_seen = vec![false; BOARDS];
    for &b in &queue_theirs {
        theirs_seen[b as usize] = true;
    }
    let mut scratch_seen = vec![false; BOARDS];
    while !queue_ours.is_empty() || !queue_theirs.is_empty() {
        while let Some(b) = queue_ours.pop() {
            // Every board within five clicks of ours.
            let mut layer = vec![b];
            let mut all = vec![b];
            scratch_seen[b as usize] = true;
            for _ in 0..MOST {
                let mut next = Vec::new();
                for &x in &layer {
                    let bx = Board::from_code(x as usize);
                    for &c in course.clicks(bx, us) {
                        if let Clicked::On(n) = course.click(bx, c) {
                            let k = n.code() as u32;
                            if !scratch_seen[k as usize] {
                                scratch_seen[k as usize] = true;
                                next.push(k);
                                all.push(k);
                            }
                        }
                    }
                }
                layer = next;
            }
            for k in all {
                scratch_seen[k as usize] = false;
                if !theirs_seen[k as usize] {
                    theirs_seen[k as usize] = true;
                    queue_theirs.push(k);
                }
            }
        }
        while let Some(b) = queue_theirs.pop() {
            let ends = g.turn(Board::from_code(b as usize));
            for &(e, _) in &ends {
                if let End::Board(n) = e {
                    if !ours_seen[n as usize] {
                        ours_seen[n as usize] = true;
                        queue_ours.push(n);
                    }
                }
            }
            turns.insert(b, ends);
        }
    }
    println!(
        "  us seat {us}: greedy's turn starts {}, ours {}, greedy modelled in {:.2?}",
        turns.len(),
        ours_seen.iter().filter(|&&x| x).count(),
        t.elapsed()
    );
    // Each board's clicks for us.
    let steps: Vec<Vec<Clicked>> = (0..BOARDS)
        .map(|code| {
            let b = Board::from_code(code);
            if b.0[0].slot == b.0[1].slot {
                return Vec::new();
            }
            course
                .clicks(b, us)
                .iter()
                .map(|&c| course.click(b, c))
                .collect()
        })
        .collect();
    let mine = |v: f64| if us == 0 { v } else { 1.0 - v };
    // The table's choices: at each board and clicks left, stop (None) or which click.
    let mut pick = vec![vec![None::<u8>; BOARDS]; MOST as usize + 1];
    {
        let mut tw = vec![vec![0.0; BOARDS]; MOST as usize + 1];
        for (code, v) in tw[0].iter_mut().enumerate() {
            *v = 1.0 - table.value[code * 2 + them];
        }
        for l in 1..=MOST as usize {
            for code in 0..BOARDS {
                // As level 8 decides: the legal actions in the engine's order (clicks, then
                // the end of the turn), the first of the best.
                let mut best = f64::NEG_INFINITY;
                let mut choice = None;
                for (k, s) in steps[code].iter().enumerate() {
                    let v = match *s {
                        Clicked::On(n) => tw[l - 1][n.code()],
                        Clicked::Over(v) => mine(v),
                    };
                    if v > best + 1e-12 {
                        best = v;
                        choice = Some(k as u8);
                    }
                }
                if tw[0][code] > best + 1e-12 {
                    best = tw[0][code];
                    choice = None;
                }
                tw[l][code] = best;
                pick[l][code] = choice;
            }
        }
        // The turn's start: roll, three, pass in the engine's order, the first of the best.
        let mut start_pick = vec![0u8; BOARDS];
        for code in 0..BOARDS {
            let leads = course.leader(Board::from_code(code)) == Some(us);
            let roll: f64 = FACES.iter().map(|&f| tw[usize::from(f)][code]).sum::<f64>() / 6.0;
            let mut best = roll;
            let mut c = 0;
            if !leads && tw[3][code] > best + 1e-12 {
                best = tw[3][code];
                c = 1;
            }
            if tw[0][code] > best + 1e-12 {
                c = 2;
            }
            start_pick[code] = c;
        }
        pick.push(start_pick.into_iter().map(Some).collect());
    }
    let mut best_ours = vec![0.5; BOARDS];
    let mut best_theirs = vec![0.5; BOARDS];
    let mut table_ours = vec![0.5; BOARDS];
    let mut table_theirs = vec![0.5; BOARDS];
    let mut w = vec![vec![0.0; BOARDS]; MOST as usize + 1];
    let mut we = vec![vec![0.0; BOARDS]; MOST as usize + 1];
    for sweep in 1..=100_000 {
        let mut change: f64 = 0.0;
        w[0].copy_from_slice(&best_theirs);
        we[0].copy_from_slice(&table_theirs);
        for l in 1..=MOST as usize {
            for code in 0..BOARDS {
                let mut best = w[0][code];
                for s in &steps[code] {
                    let v = match *s {
                        Clicked::On(n) => w[l - 1][n.code()],
                        Clicked::Over(v) => mine(v),
                    };
                    best = best.max(v);
                }
                w[l][code] = best;
                we[l][code] = match pick[l][code] {
                    None => we[0][code],
                    Some(k) => match steps[code][usize::from(k)] {
                        Clicked::On(n) => we[l - 1][n.code()],
                        Clicked::Over(v) => mine(v),
                    },
                };
            }
        }
        for code in 0..BOARDS {
            if !ours_seen[code] {
                continue;
            }
            let leads = course.leader(Board::from_code(code)) == Some(us);
            let mut best = [0.0; MOST as usize + 1];
            for (l, b) in best.iter_mut().enumerate() {
                *b = w[l][code];
            }
            let (v, _) = Solution::choose(&best, leads);
            change = change.max((v - best_ours[code]).abs());
            best_ours[code] = v;
            let roll: f64 = FACES.iter().map(|&f| we[usize::from(f)][code]).sum::<f64>() / 6.0;
            let e = match pick[MOST as usize + 1][code] {
                Some(0) => roll,
                Some(1) => we[3][code],
                _ => we[0][code],
            };
            change = change.max((e - table_ours[code]).abs());
            table_ours[code] = e;
        }
        for (&b, ends) in &turns {
            let (mut v, mut e) = (0.0, 0.0);
            for &(end, p) in ends {
                match end {
                    End::Board(n) => {
                        v += p * best_ours[n as usize];
                        e += p * table_ours[n as usize];
                    }
                    End::Over(x) => {
                        v += p * mine(x);
                        e += p * mine(x);
                    }
                }
            }
            change = change.max((v - best_theirs[b as usize]).abs());
            change = change.max((e - table_theirs[b as usize]).abs());
            best_theirs[b as usize] = v;
            table_theirs[b as usize] = e;
        }
        if change < TOLERANCE {
            println!("  solved in {sweep} sweeps, {:.2?} in all", t.elapsed());
            break;
        }
    }
    Against {
        best_within: w,
        best_ours,
        best_theirs,
        table_ours,
        table_theirs,
    }
}

/// The best response's action in `game` (seat `us`), by its values: the first legal action of
/// the best.
fn best_response(course: &Course, a: &Against, game: &Game, us: usize) -> Option<Action> {
    let legal = game.legal_actions(game.mover(), 0);
    let mine = |v: f64| if us == 0 { v } else { 1.0 - v };
    let mut best: Option<(f64, Action)> = None;
    let board = board_of(course, game);
    for &act in &legal {
        let v = match (act, board) {
            (Action::Place { slot, .. }, _) => {
                let south = slot.index() == opening(true).0[0].slot.index();
                if us == 0 {
                    a.best_ours[opening(south).code()]
                } else {
                    0.0
                }
            }
            (Action::Roll, Some(b)) => {
                FACES
                    .iter()
                    .map(|&f| a.best_within[usize::from(f)][b.code()])
                    .sum::<f64>()
                    / 6.0
            }
            (Action::Three, Some(b)) => a.best_within[usize::from(THREE)][b.code()],
            (Action::EndTurn, Some(b)) => a.best_within[0][b.code()],
            (Action::Click { click, .. }, Some(b)) => {
                let (allowed, used) = game.clicks();
                let left = allowed.unwrap_or(0).saturating_sub(used);
                let i = Click::ALL.iter().position(|&c| c == click)? as u8;
                match course.click(b, i) {
                    Clicked::Over(v) => mine(v),
                    Clicked::On(n) => a.best_within[usize::from(left - 1)][n.code()],
                }
            }
            _ => return None,
        };
        if best.map_or(true, |(x, _)| v > x + 1e-12) {
            best = Some((v, act));
        }
    }
    best.map(|(_, x)| x)
}

/// Plays the best response in seat `us` against the real `greedy`, `games` games; its wins.
fn play_best_response(course: &Course, a: &Against, us: usize, games: u64) -> u64 {
    let rules = orion_engine::games::find("auriga").expect("auriga");
    let mut wins = 0;
    for seed in 0..games {
        let options = orion_engine::Options {
            players: Some(2),
            ..orion_engine::Options::default()
        };
        let game = Game::new(rules, options, seed).expect("a game");
        let mut state = OrionState::new(game, 0);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xd1ce);
        let mut d = 0u64;
        while state.turns() <= 150 {
            match state.to_act() {
                ToAct::Over => {
                    if state.returns()[us] >= 1.0 {
                        wins += 1;
                    }
                    break;
                }
                ToAct::Chance => {
                    let mut odds = Vec::new();
                    state.chance_outcomes(&mut odds);
                    let face = odds[rng.gen_range(0..odds.len())].0;
                    state.apply_chance(face);
                }
                ToAct::Player(p) => {
                    d += 1;
                    let action = if p == us {
                        best_response(course, a, state.game(), us)
                    } else {
                        None
                    };
                    let action = action.or_else(|| greedy(&state.view(p), seed * 7919 + d));
                    let Some(action) = action else { break };
                    state.apply(action);
                }
            }
        }
    }
    wins
}

fn main() {
    let t = Instant::now();
    let course = course();
    let (table, sweeps) = Table::build(course, TOLERANCE);
    println!(
        "table (no-reversal rule left out of the turns to come) in {sweeps} sweeps, {:.2?}",
        t.elapsed()
    );
    for south in [true, false] {
        println!(
            "  first mover enters on {}: the first mover wins {:.6}",
            if south { "C1s" } else { "C1n" },
            table.at(opening(south), 0)
        );
    }

    println!("against greedy (greedy enters on C1s or C1n at even odds: tied):");
    let mut best = [0.0; 2];
    let mut played = [0.0; 2];
    for us in [0, 1] {
        let a = against_greedy(course, &table, us);
        let (b, p) = if us == 0 {
            // We enter first: the better slot for the best response; the table's play
            // takes C1s where both are worth the same (the engine lists it first).
            let s = opening(true).code();
            let n = opening(false).code();
            let pick = if table.at(opening(false), 0) > table.at(opening(true), 0) + 1e-12 {
                n
            } else {
                s
            };
            (a.best_ours[s].max(a.best_ours[n]), a.table_ours[pick])
        } else {
            let s = opening(true).code();
            let n = opening(false).code();
            (
                (a.best_theirs[s] + a.best_theirs[n]) / 2.0,
                (a.table_theirs[s] + a.table_theirs[n]) / 2.0,
            )
        };
        println!(
            "  moving {}: best response wins {b:.6}; the table's play wins {p:.6}",
            if us == 0 { "first" } else { "second" }
        );
        if let Some(games) = std::env::args()
            .skip_while(|x| x != "--play")
            .nth(1)
            .and_then(|x| x.parse::<u64>().ok())
        {
            let won = play_best_response(course, &a, us, games);
            println!("    the best response against the real greedy: {won} of {games} games");
        }
        best[us] = b;
        played[us] = p;
    }
    println!(
        "  mean of the seats: best response {:.6}; the table's play {:.6}",
        (best[0] + best[1]) / 2.0,
        (played[0] + played[1]) / 2.0
    );

    if std::env::args().any(|a| a == "--exact") {
        let t = Instant::now();
        let mut s = Solution::explore(course);
        let ends: usize = s.ends.iter().map(Vec::len).sum();
        let held = s.starts.iter().filter(|x| x.forbidden.is_some()).count();
        println!(
            "with the no-reversal rule: turn starts {} ({held} with a forbidden end in reach), turn ends {ends}, explored in {:.2?}",
            s.starts.len(),
            t.elapsed()
        );
        s.warm(&table);
        let sweeps = s.solve(course, 1e-10);
        println!("  solved in {sweeps} sweeps, {:.2?} in all", t.elapsed());
        for south in [true, false] {
            let i = s
                .number(Start {
                    board: opening(south),
                    mover: 0,
                    forbidden: None,
                })
                .expect("an opening") as usize;
            println!(
                "  first mover enters on {}: the first mover wins {:.6}",
                if south { "C1s" } else { "C1n" },
                s.value[i]
            );
        }
    }
}
