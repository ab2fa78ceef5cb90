//! Property tests: random games never panic, never leave an enemy stone inside the mover's
//! orbit, never let a player drop where he is prohibited; the bitset floods agree with a
//! plain queue-based flood over a board with an explicit ring; position strings round-trip.

use orion_orbit::{
    captures, groups, parse_position, Board, Cell, CellSet, Game, Move, OrbitError, Side, Stone,
    Structure, Turn,
};
use proptest::prelude::*;
use std::collections::VecDeque;

/// Any board: each cell empty, black or white.
fn any_board() -> impl Strategy<Value = Board> {
    proptest::collection::vec(0u8..3, 256).prop_map(|cells| {
        let mut b = Board::empty();
        for (i, v) in cells.into_iter().enumerate() {
            let cell = Cell::from_index(i).unwrap();
            match v {
                1 => b.put(cell, Stone::Black),
                2 => b.put(cell, Stone::White),
                _ => {}
            }
        }
        b
    })
}

/// A sparser board, where structures are neither everywhere nor nowhere.
fn sparse_board() -> impl Strategy<Value = Board> {
    proptest::collection::vec(0u8..8, 256).prop_map(|cells| {
        let mut b = Board::empty();
        for (i, v) in cells.into_iter().enumerate() {
            let cell = Cell::from_index(i).unwrap();
            match v {
                0 | 1 => b.put(cell, Stone::Black),
                2 | 3 => b.put(cell, Stone::White),
                _ => {}
            }
        }
        b
    })
}

/// The structure of `group` the slow way: an 18 x 18 grid whose outer ring is the outside,
/// floods by a queue. `walled` makes one side's ring cells (corners excepted) walls.
fn naive_reach(group: CellSet, walled: Option<Side>) -> CellSet {
    const N: i32 = 18;
    let open = |x: i32, y: i32| -> bool {
        let ring = x == 0 || y == 0 || x == N - 1 || y == N - 1;
        if ring {
            let corner = (x == 0 || x == N - 1) && (y == 0 || y == N - 1);
            let wall = match walled {
                Some(Side::Bottom) => y == 0 && !corner,
                Some(Side::Top) => y == N - 1 && !corner,
                Some(Side::Left) => x == 0 && !corner,
                Some(Side::Right) => x == N - 1 && !corner,
                None => false,
            };
            return !wall;
        }
        let cell = Cell::new((x - 1) as u8, (y - 1) as u8).unwrap();
        !group.contains(cell)
    };
    let mut seen = vec![false; (N * N) as usize];
    let mut queue = VecDeque::new();
    for x in 0..N {
        for y in 0..N {
            let ring = x == 0 || y == 0 || x == N - 1 || y == N - 1;
            if ring && open(x, y) {
                seen[(y * N + x) as usize] = true;
                queue.push_back((x, y));
            }
        }
    }
    // The ring cells are all seeds, but flood only through open ones: a walled side's ring
    // cells are not seeded either.
    while let Some((x, y)) = queue.pop_front() {
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || ny < 0 || nx >= N || ny >= N {
                continue;
            }
            let i = (ny * N + nx) as usize;
            if !seen[i] && open(nx, ny) {
                seen[i] = true;
                queue.push_back((nx, ny));
            }
        }
    }
    Cell::all()
        .filter(|c| seen[((c.row() as i32 + 1) * N + c.column() as i32 + 1) as usize])
        .collect()
}

fn naive_structure(group: CellSet) -> Structure {
    let free = !group;
    let full = naive_reach(group, None);
    let mut half = CellSet::EMPTY;
    for side in Side::ALL {
        half |= (full - naive_reach(group, Some(side))) & free;
    }
    Structure {
        orbit: free - full,
        half,
    }
}

/// Plays a game from the empty board, each move chosen by the next number modulo the number
/// of legal moves, checking the invariants after every move.
fn play_out(choices: &[u16], probes: &[u8]) -> Result<(), TestCaseError> {
    let mut g = Game::new();
    for (i, &choice) in choices.iter().enumerate() {
        let legal = g.legal_moves();
        if legal.is_empty() {
            prop_assert!(g.outcome().is_some());
            break;
        }
        let mover = match g.turn() {
            Turn::Opening { colour, .. } | Turn::Play(colour) => Some(colour),
            _ => None,
        };
        if let Some(colour) = mover {
            let prohibited = g.prohibited(colour);
            prop_assert!(!legal.drops.intersects(prohibited));
            // Try a prohibited empty cell: it must be refused and change nothing.
            let banned = prohibited & g.board().vacant();
            if !banned.is_empty() {
                let probe = probes[i % probes.len()] as usize % banned.len();
                let cell = banned.nth(probe).unwrap();
                let before = g.clone();
                let refused = g.play(Move::Drop(cell));
                let was_prohibited = matches!(refused, Err(OrbitError::Prohibited { .. }));
                prop_assert!(was_prohibited);
                prop_assert_eq!(&g, &before);
            }
        }
        let mv = legal.nth(choice as usize % legal.len()).unwrap();
        let effect = g.play(mv);
        prop_assert!(effect.is_ok(), "{mv} was listed as legal: {effect:?}");
        if let (Some(colour), Move::Drop(_)) = (mover, mv) {
            prop_assert!(captures(g.board(), colour).is_empty());
        }
    }
    Ok(())
}

/// The properties above would hold vacuously if random games never built anything: seeded
/// random games do capture and do prohibit.
#[test]
fn random_games_build_structures() {
    use rand::{Rng, SeedableRng};
    let (mut captured, mut prohibited) = (0, 0);
    for seed in 0..20 {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut g = Game::new();
        while g.outcome().is_none() {
            let legal = g.legal_moves();
            // Rarely pass, so the board fills.
            let mv = match legal.drops.len() {
                0 => Move::Pass,
                n => Move::Drop(legal.drops.nth(rng.gen_range(0..n)).unwrap()),
            };
            let mv = if matches!(g.turn(), Turn::Choice) {
                Move::Choose(Stone::White)
            } else {
                mv
            };
            captured += g.play(mv).unwrap().removed.len();
            prohibited += g.prohibited(Stone::Black).len();
        }
    }
    assert!(captured > 0 && prohibited > 0, "{captured} {prohibited}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_games_keep_the_rules(
        choices in proptest::collection::vec(any::<u16>(), 50..400),
        probes in proptest::collection::vec(any::<u8>(), 1..8),
    ) {
        play_out(&choices, &probes)?;
    }

    #[test]
    fn bitset_floods_agree_with_a_queue(b in sparse_board()) {
        for colour in Stone::ALL {
            for group in groups(b.of(colour)) {
                prop_assert_eq!(Structure::of(group), naive_structure(group), "{}", b);
            }
        }
    }

    #[test]
    fn position_strings_round_trip(b in any_board()) {
        let text = b.to_string();
        prop_assert_eq!(parse_position(&text), Ok(b));
        // Upper-case cells read the same.
        prop_assert_eq!(parse_position(&text.to_uppercase()), Ok(b));
    }
}
