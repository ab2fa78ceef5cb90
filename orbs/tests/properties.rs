//! Random games under random options never panic and keep the board sound: one orb per
//! hole, none on a hole out of play, orb counts only going down, every listed move legal,
//! and a game that has not ended always has a move. Position strings round-trip.

use orion_orbs::{
    Colour, Element, Game, Hole, HoleSet, Opening, Options, Orb, Position, Seat, QUIET_MOVES,
};
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Holes in no point: where holes may be taken out of play under the classic opening.
fn hexagon() -> Vec<Hole> {
    let points: HoleSet = Seat::ALL
        .into_iter()
        .fold(HoleSet::EMPTY, |s, seat| s | seat.point());
    Hole::all().filter(|h| !points.contains(*h)).collect()
}

fn random_options(rng: &mut ChaCha8Rng) -> Options {
    let players = rng.gen_range(2..=6u8);
    let how_many = rng.gen_range(0..6);
    let holes: HoleSet = hexagon().choose_multiple(rng, how_many).copied().collect();
    let opening = if rng.gen_bool(0.3) {
        // A scattered start: a few orbs of each colour anywhere in play.
        let mut p = Position::empty();
        let free: Vec<Hole> = Hole::all().filter(|h| !holes.contains(*h)).collect();
        for colour in &Colour::ALL[..players as usize] {
            for &h in free.choose_multiple(rng, 4) {
                let element = Element::ALL[rng.gen_range(0..5)];
                p.set(h, Some(Orb::new(*colour, element)));
            }
        }
        Opening::Position(Box::new(p))
    } else {
        Opening::Classic
    };
    Options {
        players,
        opening,
        void: rng.gen_bool(0.3),
        holes,
        teams: matches!(players, 4 | 6) && rng.gen_bool(0.5),
        first: None,
    }
}

fn counts(g: &Game) -> Vec<usize> {
    Colour::ALL.iter().map(|&c| g.position().count(c)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_keep_the_board_sound(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let options = random_options(&mut rng);
        let holes = options.holes;
        let Ok(mut g) = Game::new(options) else {
            // Only an empty scattered start can fail, and it cannot be empty.
            panic!("random options must make a game");
        };
        for _ in 0..600 {
            let moves = g.legal_moves();
            if g.outcome().is_some() {
                prop_assert!(moves.is_empty());
                break;
            }
            prop_assert!(!moves.is_empty(), "a game not over has a move");
            for m in &moves {
                prop_assert!(g.check(*m).is_ok());
            }
            let before = counts(&g);
            let total = g.position().len();
            let Some(&m) = moves.choose(&mut rng) else { break };
            let effect = g.play(m).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let after = counts(&g);
            for (b, a) in before.iter().zip(&after) {
                prop_assert!(a <= b, "orb counts only go down");
            }
            prop_assert_eq!(total - g.position().len(), effect.removed.len());
            prop_assert!((g.position().occupied() & holes).is_empty());
            prop_assert!(g.quiet_moves() <= QUIET_MOVES);
            let text = g.position().to_string();
            let again: Position = text.parse().map_err(|e: orion_orbs::PositionError| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&again, g.position());
            // One orb per hole: the string names each hole once.
            let mut names: Vec<&str> = text.split(' ').filter_map(|p| p.split(':').next()).collect();
            let n = names.len();
            names.sort();
            names.dedup();
            prop_assert_eq!(names.len(), n);
        }
    }

    #[test]
    fn position_strings_round_trip(orbs in proptest::collection::vec((0usize..121, 0usize..6, 0usize..5), 0..40)) {
        let mut p = Position::empty();
        for (h, c, e) in orbs {
            if let Some(h) = Hole::new(h) {
                p.set(h, Some(Orb::new(Colour::ALL[c], Element::ALL[e])));
            }
        }
        let text = p.to_string();
        let back: Position = text.parse().map_err(|e: orion_orbs::PositionError| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back, &p);
        prop_assert_eq!(back.to_string(), text);
    }
}
