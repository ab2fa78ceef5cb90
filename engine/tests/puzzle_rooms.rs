//! The puzzles as one-player games (`games::PUZZLES`), stepped as a server room steps them:
//! the booklet's lines solve and end the game with the clicks used as the score; a click
//! against a puzzle's own rule is refused with its message and changes nothing, while the
//! games' basic rules do not apply; Orbit Solitaire deals its scrambles from the seed; and
//! Aquarius gives five tries and a score, each chain shown only once its try is made.

use orion_engine::puzzles::{self, AquariusTest, Deal};
use orion_engine::{
    games, parse_click, parse_moves, solve, Action, ActionError, Click, Event, Game, Options,
    Outcome, Seat, Winner,
};

fn room(name: &str, seed: u64) -> Game {
    let rules = games::find_puzzle(name).unwrap_or_else(|| panic!("no puzzle room {name}"));
    Game::new(rules, Options::default(), seed).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn click(game: &mut Game, c: Click) -> Result<Vec<Event>, ActionError> {
    game.step(
        Seat::S,
        Action::Click {
            click: c,
            piece: None,
        },
        0,
    )
}

/// Plays `clicks`; returns the outcome the last one produced. Panics on a refusal or an
/// early end.
fn play(game: &mut Game, clicks: &[Click]) -> Option<Outcome> {
    let mut last = None;
    for (i, &c) in clicks.iter().enumerate() {
        let events = click(game, c).unwrap_or_else(|e| panic!("click {}: {c}: {e}", i + 1));
        assert!(matches!(events.first(), Some(Event::Click { click, .. }) if *click == c));
        last = events.into_iter().find_map(|e| match e {
            Event::Over { outcome } => Some(outcome),
            _ => None,
        });
        assert!(
            last.is_none() || i + 1 == clicks.len(),
            "over after {} of {} clicks",
            i + 1,
            clicks.len()
        );
    }
    last
}

#[test]
fn each_printed_solution_ends_its_room_with_the_player_winning_on_that_many_clicks() {
    for name in puzzles::NAMES {
        let p = puzzles::find(name).expect("puzzle");
        let Some(line) = p.booklet_solution else {
            continue;
        };
        let mut clicks = parse_moves(line).expect("printed line parses");
        if name == "aquila" {
            // The misprint: the last click is C5R (see the next test).
            let last = clicks.len() - 1;
            clicks[last] = parse_click("C5R").expect("click");
        }
        let mut g = room(name, 1);
        assert_eq!(*g.position(), p.start, "{name}: a fixed start");
        let progress = g.progress().expect("a puzzle has progress");
        assert_eq!((progress.clicks, progress.target), (0, p.target), "{name}");
        let outcome = play(&mut g, &clicks).unwrap_or_else(|| panic!("{name}: not solved"));
        let n = clicks.len() as u32;
        assert_eq!(outcome.winner, Some(Winner::Seat(Seat::S)), "{name}");
        assert_eq!(outcome.scores, vec![(Seat::S, n)], "{name}");
        assert_eq!(g.progress().map(|p| p.clicks), Some(n), "{name}");
        assert_eq!(Some(n), p.target, "{name}: the booklet's count");
    }
}

#[test]
fn aquilas_misprinted_last_click_is_refused_with_the_reason_and_changes_nothing() {
    let p = puzzles::find("aquila").expect("aquila");
    let clicks = parse_moves(p.booklet_solution.expect("printed")).expect("parses");
    let mut g = room("aquila", 1);
    assert_eq!(play(&mut g, &clicks[..23]), None);
    let before = *g.position();
    let e = click(&mut g, clicks[23]).expect_err("C5L lets go of the fish");
    assert_eq!(
        e.to_string(),
        "after C5L a red piece no longer touches the blue piece: it lets go"
    );
    assert_eq!(e.code(), "illegal");
    assert_eq!(*g.position(), before);
    assert_eq!(g.progress().map(|p| p.clicks), Some(23));
    assert!(g.outcome().is_none());
    let outcome = play(&mut g, &[parse_click("C5R").expect("click")]).expect("solved");
    assert_eq!(outcome.scores, vec![(Seat::S, 24)]);
}

#[test]
fn a_puzzle_keeps_its_own_rule_and_none_of_the_games_basic_rules() {
    let cases = [
        // (puzzle, clicks accepted first, refused click, its message)
        (
            "binary-1",
            "",
            "C3R",
            "rotor C3 may not turn in this puzzle",
        ),
        ("binary-1", "", "A1R", "rotor A1 holds no red piece"),
        (
            "whirlpool",
            "",
            "E5R",
            "rotor E5 may not turn in this puzzle",
        ),
        ("herdsman", "", "C3R", "rotor C3 holds no red piece"),
        // A click and its undoing, eight times over: no reversal rule, no clicks limit.
        (
            "whirlpool",
            "B2R, B2L, B2R, B2L, C3R, C3L, C3R, C3L, D4R, D4L, D4R, D4L, C2L, C2R, C2L, C2R",
            "A5R",
            "rotor A5 may not turn in this puzzle",
        ),
    ];
    for (name, first, refused, message) in cases {
        let mut g = room(name, 1);
        let first = parse_moves(first).expect("parses");
        assert_eq!(play(&mut g, &first), None, "{name}");
        let before = *g.position();
        let c = parse_click(refused).expect("click");
        assert_eq!(
            g.check_click(Seat::S, c).map_err(|e| e.to_string()),
            Err(message.into())
        );
        let e = click(&mut g, c).expect_err("refused");
        assert_eq!(e.to_string(), message, "{name}");
        assert_eq!(*g.position(), before, "{name}: nothing changed");
        assert_eq!(
            g.progress().map(|p| p.clicks),
            Some(first.len() as u32),
            "{name}"
        );
    }
    // A puzzle is one move: there is no turn to end, no die, no other seat.
    let mut g = room("aquila", 1);
    assert!(g.step(Seat::S, Action::EndTurn, 0).is_err());
    assert!(g.step(Seat::S, Action::Roll, 0).is_err());
    let c = parse_click("C1L").expect("click");
    assert_eq!(
        g.step(
            Seat::N,
            Action::Click {
                click: c,
                piece: None
            },
            0
        ),
        Err(ActionError::NoSuchSeat(Seat::N))
    );
    // The turn announces no clicks limit.
    assert_eq!(g.clicks().0, None);
}

#[test]
fn orbit_solitaire_a_deals_each_of_the_five_wrong_orders_from_the_seed_and_solves() {
    let p = puzzles::find("orbit-a").expect("orbit-a");
    assert_eq!(p.deal, Deal::Scramble(3));
    let finish = *p.finish.position();
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..60 {
        let g = room("orbit-a", seed);
        assert_eq!(
            *g.position(),
            *room("orbit-a", seed).position(),
            "same seed"
        );
        let order: Vec<(orion_engine::Slot, orion_engine::Piece)> = g.position().pieces().collect();
        let home: Vec<_> = finish.pieces().collect();
        assert_eq!(order[..4], home[..4], "pieces 1-4 stay home");
        let last: Vec<u8> = order[4..].iter().map(|(_, p)| p.number()).collect();
        seen.insert(last);
    }
    let wrong: std::collections::BTreeSet<Vec<u8>> = puzzles::orbit_a_wrong_orders()
        .iter()
        .map(|o| o.to_vec())
        .collect();
    assert_eq!(seen, wrong);
    // A dealt start is played to its finish on the solver's line.
    let mut g = room("orbit-a", 5);
    let dealt = p.with_start(*g.position()).expect("same pieces");
    let line = solve::solve(&dealt).expect("solvable");
    let outcome = play(&mut g, &line.clicks).expect("solved");
    assert_eq!(outcome.scores, vec![(Seat::S, line.clicks.len() as u32)]);
    assert_eq!(g.progress().and_then(|p| p.target), Some(9));
}

#[test]
fn orbit_solitaire_b_deals_a_different_shuffle_per_seed_and_scores_a_finish() {
    let p = puzzles::find("orbit-b").expect("orbit-b");
    let finish = *p.finish.position();
    let mut starts = std::collections::HashSet::new();
    for seed in 0..20 {
        let g = room("orbit-b", seed);
        let start = *g.position();
        assert!(!p.solved(&start), "seed {seed}: dealt solved");
        assert_eq!(start.occupied(), finish.occupied(), "the same twelve slots");
        let mut pieces: Vec<_> = start.pieces().map(|(_, p)| p).collect();
        pieces.sort();
        let mut home: Vec<_> = finish.pieces().map(|(_, p)| p).collect();
        home.sort();
        assert_eq!(pieces, home, "the same twelve pieces");
        starts.insert(format!("{start:?}"));
    }
    assert_eq!(starts.len(), 20, "twenty seeds, twenty shuffles");
    // One click from home, the click home ends it (an exact finish: every number in place).
    let a1 = parse_click("A1L").expect("click");
    let near = finish.clicked(a1.inverse());
    let rules = games::find_puzzle("orbit-b").expect("orbit-b");
    let mut g = Game::from_position(rules, Options::default(), 1, near, Seat::S, 1).expect("game");
    assert_eq!(
        play(&mut g, &[a1]).map(|o| o.winner),
        Some(Some(Winner::Seat(Seat::S)))
    );
    assert_eq!(g.progress().and_then(|p| p.target), Some(25));
}

#[test]
fn aquarius_gives_five_tries_each_against_a_chain_shown_only_after_it() {
    let rules = games::find_puzzle("aquarius").expect("aquarius");
    assert_eq!(rules.name(), "Aquarius");
    for seed in [1971, 7, 8] {
        let mut g = Game::new(rules, Options::default(), seed).expect("game");
        let mut expected = AquariusTest::new(seed);
        assert!(g.position().occupied().is_empty(), "no chain on the board");
        let guesses = ["C3R", "A1L", "E5R", "B2R", "D4L"];
        for (i, guess) in guesses.iter().enumerate() {
            let c = parse_click(guess).expect("click");
            let upcoming = expected.chain();
            let events = click(&mut g, c).expect("a try");
            let t = expected.attempt(c).expect("five tries");
            assert!(
                g.position().occupied().is_empty(),
                "still nothing on the board"
            );
            match events.first() {
                Some(&Event::Try {
                    seat,
                    click,
                    hit,
                    chain,
                    tries,
                    hits,
                }) => {
                    assert_eq!((seat, click), (Seat::S, c));
                    assert_eq!(chain, upcoming, "the chain of this try, from the seed");
                    assert!(puzzles::is_valid_chain(chain));
                    assert_eq!(hit, t.hit);
                    assert_eq!(hit, puzzles::score_try(chain, c.rotor));
                    assert_eq!(tries as usize, i + 1);
                    assert_eq!(hits as usize, expected.score());
                }
                other => panic!("seed {seed}: try {}: {other:?}", i + 1),
            }
            assert_eq!(g.progress().map(|p| p.clicks), Some(i as u32 + 1));
            let over = events.iter().find_map(|e| match e {
                Event::Over { outcome } => Some(outcome.clone()),
                _ => None,
            });
            assert_eq!(over.is_some(), i + 1 == guesses.len());
            if let Some(o) = over {
                let score = expected.score();
                assert!(score <= 5);
                assert_eq!(o.scores, vec![(Seat::S, score as u32)]);
                let telepath = score >= puzzles::TELEPATHY;
                assert_eq!(o.winner, telepath.then_some(Winner::Seat(Seat::S)));
            }
        }
        let c = parse_click("C3R").expect("click");
        assert_eq!(click(&mut g, c), Err(ActionError::GameOver));
    }
}
