//! A copy of a game followed from its events, as a client keeps one: set up with
//! `Game::following` (the first mover the room named, no seed of the room's) and fed the
//! room's die throws with `Game::step_roll`, it stays in step with the game itself — same
//! board, mover, round and clicks after every action — in every game, Taurus's toss and the
//! die included.

use orion_engine::{games, Action, ActionError, Event, Game, Options, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Actions played per game, at most.
const STEPS: usize = 300;

/// Plays `id` with random legal actions, a following copy taking the same ones; returns how
/// many dice were fed to the copy.
fn follow(id: &str, seed: u64) -> usize {
    let rules = games::find(id).expect("a game");
    let mut game = Game::new(rules, Options::default(), seed).expect("setup");
    let first = game.mover();
    let mut copy = Game::following(
        rules,
        Options::default(),
        *game.position(),
        first,
        first,
        game.round(),
    )
    .expect("a copy");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let seats: Vec<Seat> = game.seats().iter().map(|s| s.seat).collect();
    let mut rolls = 0;
    for step in 0..STEPS {
        if game.outcome().is_some() {
            break;
        }
        let choices: Vec<(Seat, Action)> = seats
            .iter()
            .flat_map(|&s| game.legal_actions(s, 0).into_iter().map(move |a| (s, a)))
            .collect();
        let Some(&(seat, action)) = choices.get(rng.gen_range(0..choices.len().max(1))) else {
            break;
        };
        let events = game.step(seat, action, 0).expect("a listed action");
        let copied = match (action, events.first()) {
            (Action::Roll, Some(&Event::Roll { value, .. })) => {
                rolls += 1;
                copy.step_roll(seat, value)
            }
            _ => copy.step(seat, action, 0),
        };
        let copied = copied.unwrap_or_else(|e| panic!("{id} {step}: {action:?} refused: {e}"));
        // Algol's commitments are salted by each game's own random source; all else agrees.
        let public = |evs: &[Event]| {
            evs.iter()
                .filter(|e| !matches!(e, Event::Secret { .. } | Event::Over { .. }))
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(
            public(&copied),
            public(&events),
            "{id} seed {seed} step {step}"
        );
        assert_eq!(copy.position(), game.position(), "{id} {step}");
        assert_eq!(
            (copy.mover(), copy.round(), copy.clicks()),
            (game.mover(), game.round(), game.clicks()),
            "{id} seed {seed} step {step}"
        );
        assert_eq!(copy.forbidden(), game.forbidden(), "{id} {step}");
        assert_eq!(copy.outcome().is_some(), game.outcome().is_some());
    }
    rolls
}

#[test]
fn a_following_copy_stays_in_step_in_every_game() {
    let mut rolls = 0;
    for rules in games::ALL {
        for seed in 1..=3 {
            rolls += follow(rules.id(), seed);
        }
    }
    // Not vacuous: dice were thrown and fed.
    assert!(rolls > 20, "only {rolls} throws followed");
}

#[test]
fn taurus_rounds_begin_with_the_tossed_first_mover() {
    let rules = games::find("taurus").expect("taurus");
    // A seed whose toss gives the second seat the first move.
    let mut game = (0..64)
        .map(|seed| Game::new(rules, Options::default(), seed).expect("setup"))
        .find(|g| g.mover() == g.seats()[1].seat)
        .expect("some toss gives the second seat");
    let first = game.mover();
    let mut copy = Game::following(rules, Options::default(), *game.position(), first, first, 1)
        .expect("a copy");
    let mut rounds = Vec::new();
    for _ in 0..4 {
        let mover = game.mover();
        game.step(mover, Action::EndTurn, 0).expect("a pass");
        copy.step(mover, Action::EndTurn, 0).expect("a pass");
        assert_eq!((copy.mover(), copy.round()), (game.mover(), game.round()));
        rounds.push(game.round());
    }
    // The second seat's turns stay in the round the first mover began.
    assert_eq!(rounds, [1, 2, 2, 3]);
}

#[test]
fn a_throw_the_die_cannot_show_is_refused_and_changes_nothing() {
    let rules = games::find("orion").expect("orion");
    let start = Game::new(rules, Options::default(), 1).expect("setup");
    let mover = start.mover();
    // Round 4 of Orion: die or three.
    let mut copy = Game::following(
        rules,
        Options::default(),
        *start.position(),
        mover,
        mover,
        4,
    )
    .expect("a copy");
    let before = format!("{copy:?}");
    assert_eq!(copy.step_roll(mover, 6), Err(ActionError::NoSuchFace(6)));
    assert_eq!(format!("{copy:?}"), before);
    let events = copy.step_roll(mover, 4).expect("a face of 1,2,2,3,4,5");
    assert_eq!(
        events.first(),
        Some(&Event::Roll {
            seat: mover,
            value: 4
        })
    );
    assert_eq!(copy.clicks(), (Some(4), 0));
    assert!(copy.step_roll(mover, 4).is_err(), "one throw a turn");
}
