//! The booklet's puzzles as a player meets them: the answer key of page 31 replayed under
//! each puzzle's rules, the solver's answers replayed and checked against the optimal counts
//! in `data/optimal.txt`, the Orbit Solitaire A distance table against `data/orbit_a.txt`,
//! and the Aquarius chains.

use orion_engine::puzzles::{self, Puzzle, PuzzleError, PuzzleState};
use orion_engine::solve::{self, census, census_with, OrbitSpace, PatternDb};
use orion_engine::{parse_click, parse_moves, parse_position, Click, Edge, SlotSet};

fn puzzle(name: &str) -> Puzzle {
    puzzles::find(name).unwrap_or_else(|| panic!("no puzzle {name}"))
}

/// The answer key, verbatim from page 31.
const ANSWER_KEY: [(&str, &str, usize); 9] = [
    (
        "aquila",
        "C1L, E1R, D1R, D2R, D1R, D2R, C1L, C2L, D3R, C3L, C2L, C3L, C3L, C4R, C3R, B3L, C4R, \
         C5R, B4L, B5L, B4L, B5L, A5L, C5L",
        24,
    ),
    (
        "aurora-a",
        "C4R, D4L, B4R, A4R, D3R, B3R, A3R, D2L, C2R, A2R, D1L, C1L, A1R, B1R",
        14,
    ),
    (
        "aurora-b",
        "D4R, D3R, D2R, D1R, B4R, A4R, A3R, B3R, B2R, A2R, A1R, B1R",
        12,
    ),
    (
        "herdsman",
        "D2L (2), C2L (2), B2L, B3L, B2L, C3R, C2L, C3R, C2L, D2L, D3R, D2R (2), D4R (2), D3R, \
         D4L, C4L, C3R, C4L, C3R, B4L, B3L, B4L, C4L (2), D4L (2)",
        30,
    ),
    (
        "binary-1",
        "E1L, D1L (2), C1L (2), B1L, B2L, C2L, C1L, B1L, B2L, C2L, C1L, B1L, B2R, A2R, A1R, \
         B1R, B2R, A2R",
        20,
    ),
    (
        "binary-2",
        "E1L, D1L (2), C1L (2), B1L (2), A1L, A2L, B2L (2), C2L, C1R, D1R, D2R, C2R, C1R, D1R, \
         D2R, C2R (2), B2R (2), A2R",
        24,
    ),
    (
        "binary-3",
        "E1L, D1L, D2R, C2R, C1R, D1R, D2R, C2R (2), B2R (2), A2R, A1R, B1R (2), C1R, C2L, \
         D2L, D1L, C1L, C2L, D2L, D1L, C1L, C2R, B2L (2), A2R",
        28,
    ),
    (
        "binary-4",
        "E1L, D1L (2), C1L, C2L, D2L, D1L, C1L (2), B1L, B2L, C2L, C1R, D1R, D2R, C2R, C1R, \
         D1R, D2R, C2R (2), B2R, B1R, C1R (2), D1R, D2R, C2R (2), B2R (2), A2R",
        32,
    ),
    // Not printed in the key: the Aquila line with its misprint corrected.
    (
        "aquila",
        "C1L, E1R, D1R, D2R, D1R, D2R, C1L, C2L, D3R, C3L, C2L, C3L, C3L, C4R, C3R, B3L, C4R, \
         C5R, B4L, B5L, B4L, B5L, A5L, C5R",
        24,
    ),
];

#[test]
fn every_printed_solution_replays_and_solves_except_aquilas_misprint() {
    for (i, (name, line, count)) in ANSWER_KEY.iter().enumerate() {
        let p = puzzle(name);
        let clicks = parse_moves(line).expect("the key parses");
        assert_eq!(clicks.len(), *count, "{name}: printed click count");
        let result = p.replay(&clicks);
        if i == 0 {
            let e = result.expect_err("the misprinted Aquila line must fail");
            assert_eq!(e.click, 24);
            assert_eq!(e.played, 23);
            assert!(matches!(e.reason, PuzzleError::LetGo { .. }), "{e}");
            assert_eq!(
                e.to_string(),
                "click 24: after C5L a red piece no longer touches the blue piece: it lets go"
            );
        } else {
            let end = result.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                p.solved(&end),
                "{name}: the printed line does not reach the finish"
            );
        }
        // The printed lines are the booklet's own figures.
        if i < 8 {
            assert_eq!(p.target, Some(*count as u32), "{name}: target");
            assert_eq!(
                parse_moves(p.booklet_solution.unwrap_or("")).ok(),
                Some(clicks),
                "{name}: stored printed solution"
            );
        }
    }
}

#[test]
fn the_herringbone_finish_is_stripes_the_other_way() {
    // Every vertical slot changes colour and every horizontal slot keeps it (floor(x+y) and
    // floor(x-y) differ by 2y on a horizontal slot and 2r+1 on a vertical one).
    let p = puzzle("aurora-b");
    let red = orion_engine::Colour::Red;
    let changed = p.start.of(red).0 ^ p.finish.position().of(red).0;
    let verticals: u64 = p
        .start
        .occupied()
        .into_iter()
        .filter(|s| !s.is_horizontal())
        .map(|s| s.bit().0)
        .sum();
    assert_eq!(changed, verticals);
    assert_eq!(p.start.occupied().len(), 40);
}

/// Optimal counts from `data/optimal.txt`.
fn optimal(name: &str) -> Option<usize> {
    include_str!("data/optimal.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| {
            let mut w = l.split_whitespace();
            (w.next() == Some(name)).then(|| w.next().and_then(|n| n.parse().ok()))?
        })
}

#[test]
fn solver_answers_replay_legally_and_have_the_optimal_length() {
    // The quick ones; aurora-a, herdsman, whirlpool and orbit-b take seconds to minutes in
    // release and are checked by `orion solve` (docs/puzzles.md).
    for name in [
        "aquila", "aurora-b", "binary-1", "binary-2", "binary-3", "binary-4", "orbit-a",
    ] {
        let p = puzzle(name);
        let s = solve::solve(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
        let end = p
            .replay(&s.clicks)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(p.solved(&end), "{name}: the answer does not solve it");
        assert_eq!(Some(s.clicks.len()), optimal(name), "{name}");
    }
}

#[test]
fn the_engines_table_of_optima_is_the_data_files() {
    for name in puzzles::NAMES {
        assert_eq!(
            puzzles::optimum(name).map(|n| n as usize),
            optimal(name),
            "{name}"
        );
    }
}

#[test]
fn nothing_shorter_than_the_optimum_solves_binary_star_2() {
    // An independent check on one case: a plain breadth-first search to depth 15 never meets
    // the finish.
    let p = puzzle("binary-2");
    let mut layer = vec![p.start];
    let mut seen = std::collections::HashSet::new();
    seen.insert(format!("{:?}", p.start));
    for depth in 0..16 {
        assert!(layer.iter().all(|q| !p.solved(q)), "solved in {depth}");
        let mut next = Vec::new();
        for q in &layer {
            for c in Click::ALL {
                if let Ok(r) = p.try_click(q, c) {
                    if seen.insert(format!("{r:?}")) {
                        next.push(r);
                    }
                }
            }
        }
        layer = next;
    }
    assert!(layer.iter().any(|q| p.solved(q)));
}

#[test]
fn puzzle_state_refuses_a_click_and_keeps_the_position() {
    let mut s = PuzzleState::new(puzzle("binary-1"));
    let before = *s.position();
    let locked = parse_click("C3R").unwrap();
    assert_eq!(
        s.click(locked).unwrap_err().to_string(),
        "rotor C3 may not turn in this puzzle"
    );
    assert_eq!(
        s.click(parse_click("A1R").unwrap())
            .unwrap_err()
            .to_string(),
        "rotor A1 holds no red piece"
    );
    assert_eq!(*s.position(), before);
    assert_eq!(s.clicks(), 0);
    s.click(parse_click("E1L").unwrap()).unwrap();
    assert_eq!(s.clicks(), 1);
    assert!(!s.solved());
}

#[test]
fn a_replacement_start_must_hold_the_same_pieces() {
    let p = puzzle("orbit-a");
    let ok = "A1s:R2 B1s:R1 A1n:R3 B1n:R4 A1w:R5 A1e:R6 B1e:R7";
    let q = p.with_start(parse_position(ok).unwrap()).unwrap();
    let s = solve::solve(&q).unwrap();
    assert_eq!(s.clicks.len(), 9, "a swap of 1 and 2 takes nine clicks");
    let missing = "A1s:R2 B1s:R1 A1n:R3 B1n:R4 A1w:R5 A1e:R6";
    assert!(p.with_start(parse_position(missing).unwrap()).is_err());
    let off = "A1s:R2 B1s:R1 A1n:R3 B1n:R4 A1w:R5 A1e:R6 C1e:R7";
    assert_eq!(
        p.with_start(parse_position(off).unwrap())
            .unwrap_err()
            .to_string(),
        "R7 on C1e lies outside the puzzle's rotors"
    );
    let aquila = puzzle("aquila");
    let dropped = parse_position("A1s:R1 E1s:R2 D1s:B1").unwrap();
    assert!(aquila.with_start(dropped).is_err());
}

/// `data/orbit_a.txt` read as (distribution, wrong orders with distances).
fn orbit_a_data() -> (Vec<u64>, Vec<([u8; 3], usize)>) {
    let mut dist = Vec::new();
    let mut wrong = Vec::new();
    for line in include_str!("data/orbit_a.txt").lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.first() {
            Some(&"distribution") => dist = w[1..].iter().map(|n| n.parse().unwrap()).collect(),
            Some(&"wrong") => wrong.push((
                [
                    w[1].parse().unwrap(),
                    w[2].parse().unwrap(),
                    w[3].parse().unwrap(),
                ],
                w[5].parse().unwrap(),
            )),
            _ => {}
        }
    }
    (dist, wrong)
}

#[test]
fn orbit_a_distance_table_matches_the_data_file() {
    let (expected, wrong) = orbit_a_data();
    let p = puzzle("orbit-a");
    let space = OrbitSpace::new(&p).unwrap();
    let table = space.distance_table();
    let mut counts = vec![0u64; expected.len()];
    for &d in &table {
        counts[d as usize] += 1;
    }
    assert_eq!(counts, expected);
    assert_eq!(counts.iter().sum::<u64>(), 5040);
    // The census (2-bit, by rank, threaded) agrees with the byte table, whether it keeps
    // levels as lists or scans the table for each.
    let c = census(&space, 2, |_, _| {});
    assert_eq!(c.counts, expected);
    let scanned = census_with(&space, 2, 0, |_, _| {});
    assert_eq!(scanned.counts, expected);
    for (r, &d) in table.iter().enumerate() {
        assert_eq!(c.table.get(r as u64), d as u32 % 3, "rank {r}");
        assert_eq!(scanned.table.get(r as u64), d as u32 % 3, "rank {r}");
    }
    // The table walks home: every arrangement's census line replays to the finish.
    let q = p
        .with_start(parse_position("A1s:R7 B1s:R6 A1n:R5 B1n:R4 A1w:R3 A1e:R2 B1e:R1").unwrap())
        .unwrap();
    let walked = OrbitSpace::new(&q)
        .unwrap()
        .solve_by_census(&scanned.table)
        .unwrap();
    assert_eq!(walked.clicks.len(), solve::solve(&q).unwrap().clicks.len());
    assert!(q.solved(&q.replay(&walked.clicks).unwrap()));
    assert_eq!(wrong.len(), 5);
    for (order, clicks) in wrong {
        let slots = ["A1w", "A1e", "B1e"];
        let mut text = String::from("A1s:R1 B1s:R2 A1n:R3 B1n:R4");
        for (s, n) in slots.iter().zip(order) {
            text.push_str(&format!(" {s}:R{n}"));
        }
        let q = p.with_start(parse_position(&text).unwrap()).unwrap();
        let by_table = solve::solve(&q).unwrap();
        let by_ida = OrbitSpace::new(&q)
            .unwrap()
            .solve_with(&PatternDb::for_space(&OrbitSpace::new(&q).unwrap()))
            .unwrap();
        assert_eq!(by_table.clicks.len(), clicks, "{order:?}");
        assert_eq!(by_ida.clicks.len(), clicks, "{order:?}");
        assert!(q.solved(&q.replay(&by_table.clicks).unwrap()));
    }
}

#[test]
fn orbit_b_answers_replay_and_no_shorter_line_exists_for_a_scramble() {
    // A 9-click scramble: the IDA* answer is at most 9 clicks, of the same parity (every click
    // is an odd permutation), and replays to the finish.
    let p = puzzle("orbit-b");
    let scramble = parse_moves("A1R, B1R, A2L, B2R, A1R, B1L, A2R, B2R, A1L").unwrap();
    let mut start = *p.finish.position();
    start.play(&scramble);
    let q = p.with_start(start).unwrap();
    let s = solve::solve(&q).unwrap();
    assert!(
        s.clicks.len() <= 9 && s.clicks.len() % 2 == 1,
        "{}",
        s.clicks.len()
    );
    assert!(q.solved(&q.replay(&s.clicks).unwrap()));
}

#[test]
fn orbit_b_census_data_is_consistent_with_a_short_search() {
    let counts: Vec<u64> = include_str!("data/orbit_b_census.txt")
        .lines()
        .find_map(|l| l.strip_prefix("distribution "))
        .expect("a distribution line")
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    // Every arrangement once; God's number 18.
    assert_eq!(counts.iter().sum::<u64>(), 479_001_600);
    assert_eq!(counts.len() - 1, 18);
    // Each click is an odd permutation, so odd distances hold exactly the odd permutations.
    let odd: u64 = counts.iter().skip(1).step_by(2).sum();
    assert_eq!(odd, 479_001_600 / 2);
    // The first five levels, recounted by a plain breadth-first search over positions.
    let p = puzzle("orbit-b");
    let finish = *p.finish.position();
    let mut seen = std::collections::HashSet::new();
    seen.insert(orion_engine::position_string(&finish));
    let mut layer = vec![finish];
    for (d, &expected) in counts.iter().enumerate().take(5) {
        assert_eq!(layer.len() as u64, expected, "distance {d}");
        let mut next = Vec::new();
        for q in &layer {
            for c in Click::ALL {
                if let Ok(r) = p.try_click(q, c) {
                    if seen.insert(orion_engine::position_string(&r)) {
                        next.push(r);
                    }
                }
            }
        }
        layer = next;
    }
}

#[test]
fn aquarius_chains_use_exactly_ten_rotors_and_span_the_board() {
    let chains = puzzles::valid_chains();
    // docs/puzzles.md: 652 chains, 334 each way across (16 run both ways), and the centre
    // rotor moves a piece of 384 of them against 186 for a corner.
    assert_eq!(chains.len(), 652);
    let odds = puzzles::rotor_odds();
    let c3 = orion_engine::parse_rotor("C3").unwrap();
    let a1 = orion_engine::parse_rotor("A1").unwrap();
    assert_eq!((odds[c3.index()].0 * 652.0).round(), 384.0);
    assert_eq!((odds[a1.index()].0 * 652.0).round(), 186.0);
    let mean: f64 = odds.iter().map(|o| o.0).sum::<f64>() / 25.0;
    assert!((mean - 0.4).abs() < 1e-9);
    for &c in chains {
        assert!(puzzles::is_valid_chain(c));
        assert_eq!(puzzles::chain_rotors(c).len(), puzzles::CHAIN_ROTORS);
        let across = [Edge::Bottom, Edge::Left]
            .iter()
            .any(|&e| orion_engine::has_chain(c, e));
        assert!(across);
    }
    // A straight line up the middle uses ten rotors; one along the border only five.
    let middle: SlotSet = ["C1w", "C2w", "C3w", "C4w", "C5w"]
        .iter()
        .map(|s| orion_engine::parse_slot(s).unwrap())
        .collect();
    assert!(chains.contains(&middle));
    let border: SlotSet = ["A1w", "A2w", "A3w", "A4w", "A5w"]
        .iter()
        .map(|s| orion_engine::parse_slot(s).unwrap())
        .collect();
    assert!(!puzzles::is_valid_chain(border));
}

#[test]
fn an_aquarius_test_has_five_tries_and_scores_hits() {
    let mut t = puzzles::AquariusTest::new(7);
    let mut hits = 0;
    for _ in 0..puzzles::TRIES {
        let chain = t.chain();
        let rotor = puzzles::chain_rotors(chain).iter().next().unwrap();
        let r = t
            .attempt(Click::new(rotor, orion_engine::Direction::Right))
            .unwrap();
        assert!(r.hit);
        hits += 1;
    }
    assert!(t.done());
    assert_eq!(t.score(), hits);
    assert!(t.attempt(parse_click("C3R").unwrap()).is_none());
    // The same seed draws the same chains.
    assert_eq!(
        puzzles::AquariusTest::new(7).chain(),
        puzzles::AquariusTest::new(7).chain()
    );
}

#[test]
fn every_puzzle_name_is_found_and_starts_unsolved() {
    for name in puzzles::NAMES {
        let p = puzzle(name);
        assert_eq!(p.name, name);
        assert!(!p.solved(&p.start), "{name}");
        assert!(p.grip.is_none_or(|g| g.holds(&p.start)));
    }
    assert_eq!(puzzles::all().len(), 11);
    assert!(puzzles::find("aquarius").is_none());
}
