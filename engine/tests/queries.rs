//! The query API against the turn machine: every action `Game::legal_actions` lists is accepted
//! by `Game::step`, and actions it does not list are refused — over seeded random games of every
//! game and puzzle. Then `clicks_left`, `previous_move`, `forbidden` and `claimable` against
//! hand-made positions.

use orion_engine::{
    games, parse_click, parse_position, Action, Allowance, ClaimWindow, Click, Colour, Game,
    Millis, Options, Rules, Seat, Slot,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Steps played per random game, at most.
const STEPS: usize = 150;
/// Unlisted actions tried per seat per step.
const UNLISTED: usize = 24;
/// The clock advances this much per step, so some claim windows (5 s) close unclaimed.
const TICK: Millis = 1_500;

/// Every game at its smallest and largest number of players, then every puzzle.
fn table() -> Vec<(&'static dyn Rules, u8)> {
    let mut rows = Vec::new();
    for &rules in games::ALL {
        let players = rules.players();
        rows.push((rules, *players.start()));
        if players.end() != players.start() {
            rows.push((rules, *players.end()));
        }
    }
    for &rules in games::PUZZLES {
        rows.push((rules, 1));
    }
    rows
}

/// Every click (naming no piece), every placement from the supply, and the turn's other
/// actions: tried for every seat at every step.
fn simple_actions() -> Vec<Action> {
    let mut all: Vec<Action> = Click::ALL
        .iter()
        .map(|&click| Action::Click { click, piece: None })
        .collect();
    all.extend(
        Slot::ALL
            .iter()
            .map(|&slot| Action::Place { slot, from: None }),
    );
    all.extend([Action::EndTurn, Action::Roll, Action::Three, Action::Claim]);
    all
}

/// A random action of any kind a player might send (never the server's `Timeout`).
fn random_action(game: &Game, rng: &mut ChaCha8Rng) -> Action {
    let slot = |rng: &mut ChaCha8Rng| Slot::ALL[rng.gen_range(0..Slot::ALL.len())];
    let piece = |rng: &mut ChaCha8Rng| {
        let on_board: Vec<_> = game.position().pieces().map(|(_, p)| p).collect();
        if on_board.is_empty() {
            orion_engine::Piece::new(Colour::Red, 1).unwrap()
        } else {
            on_board[rng.gen_range(0..on_board.len())]
        }
    };
    match rng.gen_range(0..10) {
        0..=3 => Action::Click {
            click: Click::ALL[rng.gen_range(0..Click::ALL.len())],
            piece: None,
        },
        4 => Action::Place {
            slot: slot(rng),
            from: None,
        },
        5 => Action::Place {
            slot: slot(rng),
            from: Some(slot(rng)),
        },
        6 => [Action::EndTurn, Action::Roll, Action::Three, Action::Claim][rng.gen_range(0..4)],
        7 | 8 => Action::Challenge { piece: piece(rng) },
        _ => Action::Secret { piece: piece(rng) },
    }
}

/// Plays one seeded random game, checking the listed and unlisted actions of every seat at
/// every step. Returns how many steps were played.
fn check_game(rules: &'static dyn Rules, players: u8, seed: u64) -> usize {
    let options = Options {
        players: Some(players),
        ..Options::default()
    };
    let mut game = Game::new(rules, options, seed).expect("setup");
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let seats: Vec<Seat> = game.seats().iter().map(|s| s.seat).collect();
    let mut now: Millis = 0;
    let mut listed = Vec::new();
    let simple = simple_actions();
    for step in 0..STEPS {
        if game.outcome().is_some() {
            return step;
        }
        let mut choices = Vec::new();
        for &seat in &seats {
            listed.clear();
            game.legal_actions_into(seat, now, &mut listed);
            assert_eq!(listed, game.legal_actions(seat, now));
            for &action in &listed {
                if let Err(e) = game.clone().step(seat, action, now) {
                    panic!(
                        "{} seed {seed} step {step}: {seat} {action:?} is listed but refused: {e}",
                        rules.id()
                    );
                }
                choices.push((seat, action));
            }
            let sampled: Vec<Action> = (0..UNLISTED)
                .map(|_| random_action(&game, &mut rng))
                .collect();
            for &action in simple.iter().chain(&sampled) {
                if listed.contains(&action) {
                    continue;
                }
                if let Ok(events) = game.clone().step(seat, action, now) {
                    panic!(
                        "{} seed {seed} step {step}: {seat} {action:?} is not listed but \
                         accepted: {events:?}",
                        rules.id()
                    );
                }
            }
        }
        assert!(
            !choices.is_empty(),
            "{} seed {seed} step {step}: nobody may do anything in {game:?}",
            rules.id()
        );
        let (seat, action) = choices[rng.gen_range(0..choices.len())];
        game.step(seat, action, now).expect("a listed action");
        now += TICK;
    }
    STEPS
}

#[test]
fn every_listed_action_is_accepted_and_no_other() {
    let mut played = 0;
    for (rules, players) in table() {
        for seed in 1..=4 {
            played += check_game(rules, players, seed);
        }
    }
    // Not vacuous: the games went on for a while.
    assert!(played > 8_000, "only {played} steps played");
}

fn at(id: &str, position: &str, mover: Seat, round: u32, options: Options) -> Game {
    let rules = games::find(id).expect("game exists");
    let position = parse_position(position).expect("test position parses");
    Game::from_position(rules, options, 7, position, mover, round).expect("setup")
}

fn click(c: &str) -> Action {
    Action::Click {
        click: parse_click(c).unwrap(),
        piece: None,
    }
}

/// Game, position, mover, round, actions taken, clicks left after them.
type ClicksRow = (
    &'static str,
    &'static str,
    Seat,
    u32,
    &'static [Action],
    Option<u8>,
);

#[test]
fn clicks_left_follows_the_turn() {
    let table: &[ClicksRow] = &[
        // Hydra for Two, standard start: round 1 has one click, round 3 three.
        ("hydra-2", "C1s:R1 C5n:B1", Seat::S, 1, &[], Some(1)),
        ("hydra-2", "C1s:R1 C5n:B1", Seat::S, 3, &[], Some(3)),
        (
            "hydra-2",
            "C1s:R1 C5n:B1",
            Seat::S,
            3,
            &[Action::EndTurn],
            Some(3),
        ),
        // Libra: three clicks (standard start from round 3).
        ("libra", "C1s:R1 C5n:B1", Seat::S, 5, &[], Some(3)),
        // Orion: round 1 is a placement; round 4 waits for the die or three.
        ("orion", "", Seat::S, 1, &[], Some(0)),
        ("orion", "C1s:R1 C5n:B1", Seat::S, 4, &[], None),
        (
            "orion",
            "C1s:R1 C5n:B1",
            Seat::S,
            4,
            &[Action::Three],
            Some(3),
        ),
        // Auriga: the die or three once entered.
        ("auriga", "C1s:R1 C1n:B1", Seat::S, 2, &[], None),
        (
            "auriga",
            "C1s:R1 C1n:B1",
            Seat::S,
            2,
            &[Action::Three],
            Some(3),
        ),
    ];
    for (id, position, mover, round, actions, left) in table {
        let mut game = at(id, position, *mover, *round, Options::default());
        for &action in actions.iter() {
            let seat = game.mover();
            game.step(seat, action, 0).unwrap();
        }
        assert_eq!(game.clicks_left(), *left, "{id} {position} round {round}");
    }
    // One click used of three: two left.
    let mut game = at("hydra-2", "C1s:R1 C5n:B1", Seat::S, 3, Options::default());
    game.step(Seat::S, click("C1R"), 0).unwrap();
    assert_eq!(game.clicks_left(), Some(2));
    // A puzzle has no clicks rule.
    let puzzle = Game::new(games::find_puzzle("aquila").unwrap(), Options::default(), 1).unwrap();
    assert_eq!(puzzle.clicks_left(), None);
}

#[test]
fn previous_move_and_forbidden_position() {
    let mut game = at("hydra-2", "C1s:R1 C5n:B1", Seat::S, 3, Options::default());
    assert_eq!(game.previous_move(), None);
    assert_eq!(game.forbidden(), None);
    let start = *game.position();
    game.step(Seat::S, click("C1R"), 0).unwrap();
    game.step(Seat::S, click("B1L"), 0).unwrap();
    game.step(Seat::S, Action::EndTurn, 0).unwrap();
    let previous = *game.previous_move().expect("a move was made");
    assert_eq!(previous.seat, Seat::S);
    assert_eq!(previous.round, 3);
    assert_eq!(
        previous.clicks(),
        &[parse_click("C1R").unwrap(), parse_click("B1L").unwrap()]
    );
    assert_eq!(previous.before, start);
    assert_eq!(previous.after, *game.position());
    assert!(previous.changed() && !previous.entered);
    // N may not end his move on the board before S's move.
    assert_eq!(game.forbidden(), Some(start));

    // A pass: no clicks, nothing changed, nothing forbidden.
    game.step(Seat::N, Action::EndTurn, 0).unwrap();
    let pass = game.previous_move().unwrap();
    assert_eq!(
        (pass.seat, pass.clicks().len(), pass.changed()),
        (Seat::N, 0, false)
    );
    assert_eq!(game.forbidden(), None);

    // Cassiopeia exempts a move that entered a piece: a placement then nothing forbidden.
    let mut cas = at("cassiopeia", "", Seat::S, 1, Options::default());
    let edge = Slot::ALL[0];
    cas.step(
        Seat::S,
        Action::Place {
            slot: edge,
            from: None,
        },
        0,
    )
    .unwrap();
    let placed = cas.previous_move().unwrap();
    assert!(placed.entered && placed.clicks().is_empty());
    assert_eq!(cas.forbidden(), None);
}

#[test]
fn a_chain_made_for_another_is_claimable_until_its_window_closes() {
    // Blue's line up column C's left side lacks C3w; S's C3L turns blue C3n into it.
    let options = Options {
        claim_window: ClaimWindow::Millis(5_000),
        ..Options::default()
    };
    let mut game = at(
        "hydra-2",
        "C1w:B1 C2w:B2 C4w:B3 C5w:B4 C3n:B5 C3s:R1",
        Seat::S,
        1,
        options,
    );
    assert_eq!(game.claimable(0).count(), 0);
    game.step(Seat::S, click("C3L"), 1_000).unwrap();
    let open: Vec<_> = game.claimable(1_000).collect();
    assert_eq!(open.len(), 1);
    assert_eq!((open[0].colour, open[0].until), (Colour::Blue, 6_000));
    assert_eq!(game.seats_of(Colour::Blue).collect::<Vec<_>>(), [Seat::N]);
    assert!(game.legal_actions(Seat::N, 6_000).contains(&Action::Claim));
    assert!(!game.legal_actions(Seat::S, 6_000).contains(&Action::Claim));
    // Closed: neither listed nor accepted.
    assert_eq!(game.claimable(6_001).count(), 0);
    assert!(!game.legal_actions(Seat::N, 6_001).contains(&Action::Claim));
    assert!(game.clone().step(Seat::N, Action::Claim, 6_001).is_err());
    game.step(Seat::N, Action::Claim, 6_000).unwrap();
    assert!(game.outcome().is_some());
    assert!(game.legal_actions(Seat::N, 6_000).is_empty());
}

#[test]
fn the_legal_actions_of_a_turn_by_kind() {
    // Orion's first round: the placements on every empty slot, and nothing else.
    let orion = at("orion", "C1s:B1", Seat::S, 1, Options::default());
    let actions = orion.legal_actions(Seat::S, 0);
    assert_eq!(actions.len(), 59);
    assert!(actions
        .iter()
        .all(|a| matches!(a, Action::Place { from: None, .. })));
    // Not S's turn: N may do nothing.
    assert!(orion.legal_actions(Seat::N, 0).is_empty());

    // The die or three: both choices, and a pass.
    let auriga = at("auriga", "C1s:R1 C1n:B1", Seat::S, 2, Options::default());
    assert!(matches!(auriga.allowance(), Allowance::DieOrThree));
    assert_eq!(
        auriga.legal_actions(Seat::S, 0),
        [Action::Roll, Action::Three, Action::EndTurn]
    );

    // Draco's dragon may not pass: clicks only, none of a rotor holding two knights.
    let draco = Game::new(games::find("draco").unwrap(), Options::default(), 3).unwrap();
    let dragon = draco.mover();
    let actions = draco.legal_actions(dragon, 0);
    assert!(!actions.contains(&Action::EndTurn));
    assert!(!actions.is_empty());
    assert!(actions.iter().all(|a| matches!(a, Action::Click { .. })));

    // Algol before the secrets: each seat may choose any of its men, and nothing else yet
    // but to pass.
    let algol = Game::new(games::find("algol").unwrap(), Options::default(), 3).unwrap();
    let secrets = |seat| {
        algol
            .legal_actions(seat, 0)
            .into_iter()
            .filter(|a| matches!(a, Action::Secret { .. }))
            .count()
    };
    assert_eq!((secrets(Seat::S), secrets(Seat::N)), (16, 16));
    assert!(!algol
        .legal_actions(Seat::S, 0)
        .iter()
        .any(|a| matches!(a, Action::Click { .. })));
}
