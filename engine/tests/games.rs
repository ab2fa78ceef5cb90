//! Table tests of each game's own rules, win and scoring conditions: Auriga, Lepus, Libra,
//! Draco, Taurus and Bootes, played through `Game::step` as the server drives them.

use orion_engine::{
    games, parse_click, parse_moves, parse_position, parse_slot, position_string, Action,
    ActionError, Allowance, Colour, Event, Game, Options, Seat, Winner,
};

fn game(id: &str, options: Options, position: &str, mover: Seat, round: u32) -> Game {
    let rules = games::find(id).expect("game exists");
    let position = parse_position(position).expect("test position parses");
    Game::from_position(rules, options, 7, position, mover, round).expect("setup")
}

fn click(g: &mut Game, seat: Seat, c: &str) -> Result<Vec<Event>, ActionError> {
    g.step(
        seat,
        Action::Click {
            click: parse_click(c).unwrap(),
            piece: None,
        },
        0,
    )
}

fn winner(events: &[Event]) -> Option<Option<Winner>> {
    events.iter().find_map(|e| match e {
        Event::Over { outcome } => Some(outcome.winner),
        _ => None,
    })
}

fn new(id: &str, players: u8) -> Game {
    let options = Options {
        players: Some(players),
        ..Options::default()
    };
    Game::new(games::find(id).unwrap(), options, 11).unwrap()
}

// ---------------------------------------------------------------- Auriga

/// One counter-clockwise lap of the course from `C1s` back to `C1s`, hugging the rail.
const LAP: &str = "C1L, D1R, D2R (2), D3R (2), D4R (2), D5R, C5R (2), B5R, B4R (2), B3R (2), \
                   B2R (2), B1R, C1L";

#[test]
fn auriga_entry_is_on_the_finish_line_and_c2_to_c4_are_locked() {
    let mut g = new("auriga", 2);
    let e = g
        .step(
            Seat::S,
            Action::Place {
                slot: parse_slot("D1s").unwrap(),
                from: None,
            },
            0,
        )
        .unwrap_err();
    assert_eq!(e.to_string(), "D1s is not a slot you may enter on");
    g.step(
        Seat::S,
        Action::Place {
            slot: parse_slot("C1s").unwrap(),
            from: None,
        },
        0,
    )
    .unwrap();
    g.step(
        Seat::N,
        Action::Place {
            slot: parse_slot("C1n").unwrap(),
            from: None,
        },
        0,
    )
    .unwrap();
    g.step(Seat::S, Action::Three, 0).unwrap();
    assert_eq!(
        click(&mut g, Seat::S, "C3R").unwrap_err().to_string(),
        "rotor C3 is locked in this game"
    );
    // C2 holds N's chariot (C1n = C2s) but is locked all the same.
    assert_eq!(
        click(&mut g, Seat::S, "C2L").unwrap_err().to_string(),
        "rotor C2 is locked in this game"
    );
}

#[test]
fn auriga_two_laps_win_and_the_leader_must_throw() {
    let options = Options {
        die: vec![5],
        ..Options::default()
    };
    let mut g = game("auriga", options, "C1s:R1 A5n:B1", Seat::S, 2);
    let mut route = parse_moves(LAP).unwrap();
    route.extend(parse_moves(LAP).unwrap());
    assert_eq!(route.len(), 40);
    let mut clicks = route.into_iter();
    let mut done = None;
    let mut turns = 0;
    while done.is_none() {
        turns += 1;
        assert!(turns < 40, "the race ends");
        // S: the leader (after his first move) must throw; N passes.
        if turns > 1 {
            assert_eq!(g.allowance(), Allowance::Die);
            assert!(g.step(Seat::S, Action::Three, 0).is_err());
        }
        g.step(Seat::S, Action::Roll, 0).unwrap();
        for _ in 0..5 {
            let Some(c) = clicks.next() else { break };
            let events = g
                .step(
                    Seat::S,
                    Action::Click {
                        click: c,
                        piece: None,
                    },
                    0,
                )
                .unwrap();
            if let Some(w) = winner(&events) {
                done = Some(w);
                break;
            }
        }
        if done.is_none() {
            let laps = g.laps()[0].1;
            assert!(laps < 2.0, "not yet two laps: {laps}");
            g.step(Seat::N, Action::EndTurn, 0).unwrap();
        }
    }
    assert_eq!(done, Some(Some(Winner::Seat(Seat::S))));
    assert!((g.laps()[0].1 - 2.0).abs() < 1e-9);
    assert_eq!(position_string(g.position()), "C1s:R1 A5n:B1");
}

#[test]
fn auriga_going_round_the_wrong_way_counts_backwards() {
    let options = Options {
        clicks: Some(3),
        ..Options::default()
    };
    let mut g = game("auriga", options, "C1s:R1 A5n:B1", Seat::S, 2);
    // C1R takes the chariot west (clockwise round the course).
    click(&mut g, Seat::S, "C1R").unwrap();
    assert!(g.laps()[0].1 < 0.0);
}

// ---------------------------------------------------------------- Lepus

#[test]
fn lepus_starts_in_opposite_corners() {
    let g = new("lepus", 2);
    assert_eq!(
        position_string(g.position()),
        "D1s:R1 E1s:R2 E1n:R3 A4n:B1 A5n:B2 B5n:B3 A4w:B4 A5w:B5 A5e:B6 D1e:R4 E1e:R5 E2e:R6"
    );
    let red = g.position().of(Colour::Red);
    let blue = g.position().of(Colour::Blue);
    assert_eq!((red.len(), blue.len()), (6, 6));
    assert!(red.contains(parse_slot("E1s").unwrap()) && red.contains(parse_slot("D1s").unwrap()));
    assert!(blue.contains(parse_slot("A5n").unwrap()) && blue.contains(parse_slot("A4w").unwrap()));
}

#[test]
fn lepus_a_hop_earns_another_two_click_part() {
    // R1 in A1s reaches B1 with A1L (A1s -> A1e = B1w); B1's orbit holds R2: a hop.
    let mut g = game(
        "lepus",
        Options::default(),
        "A1s:R1 B1n:R2 E5n:B1",
        Seat::S,
        3,
    );
    click(&mut g, Seat::S, "A1L").unwrap();
    assert_eq!(
        g.clicks(),
        (Some(3), 1),
        "one click used, a fresh part of two"
    );
    // Without a friend in the new orbit, no hop: two clicks and the move is over.
    let mut g = game(
        "lepus",
        Options::default(),
        "A1s:R1 C3n:R2 E5n:B1",
        Seat::S,
        3,
    );
    click(&mut g, Seat::S, "A1L").unwrap();
    assert_eq!(g.clicks(), (Some(2), 1));
    click(&mut g, Seat::S, "A1L").unwrap();
    assert_eq!(g.mover(), Seat::N);
}

#[test]
fn lepus_all_six_home_wins_and_scores_the_losers_men_out_of_place() {
    let pos = "A5n:R1 A5w:R2 A4w:R3 A4n:R4 B5s:R5 B5e:R6 \
               E1n:B1 E1e:B2 E1s:B3 D1s:B4 C3n:B5 C3e:B6";
    let mut g = game("lepus", Options::default(), pos, Seat::S, 3);
    click(&mut g, Seat::S, "B5R").unwrap();
    let events = click(&mut g, Seat::S, "B5R").unwrap();
    assert_eq!(winner(&events), Some(Some(Winner::Seat(Seat::S))));
    assert_eq!(g.scores(), vec![(Seat::S, 2), (Seat::N, 0)]);
}

// ---------------------------------------------------------------- Libra

#[test]
fn libra_five_men_on_the_opponents_back_line_win() {
    let pos = "A5n:R1 B5n:R2 C5n:R3 D5n:R4 E5e:R5 A1s:B1";
    let mut g = game("libra", Options::default(), pos, Seat::S, 5);
    let events = click(&mut g, Seat::S, "E5L").unwrap();
    assert_eq!(winner(&events), Some(Some(Winner::Seat(Seat::S))));
    // Four of five is not enough.
    let mut g = game(
        "libra",
        Options::default(),
        "A5n:R1 B5n:R2 C5n:R3 D5n:R4 E4n:R5 A1s:B1",
        Seat::S,
        5,
    );
    let events = click(&mut g, Seat::S, "E5L").unwrap();
    assert_eq!(winner(&events), None);
}

// ---------------------------------------------------------------- Draco

#[test]
fn draco_the_dragon_moves_first_and_may_not_pass() {
    let mut g = new("draco", 2);
    assert_eq!(g.mover(), Seat::N);
    assert_eq!(g.colour_of(Seat::N), Some(Colour::Red));
    let e = g.step(Seat::N, Action::EndTurn, 0).unwrap_err();
    assert_eq!(e.to_string(), "you may not pass in this game");
}

#[test]
fn draco_the_dragon_may_not_turn_a_rotor_holding_two_knights() {
    let mut g = game(
        "draco",
        Options::default(),
        "C3n:R1 C3e:G1 C3s:G2 A1s:G3",
        Seat::N,
        3,
    );
    let e = click(&mut g, Seat::N, "C3R").unwrap_err();
    assert_eq!(
        e.to_string(),
        "rotor C3 holds two knights: the dragon may not turn it"
    );
    // C4 holds the dragon (C3n = C4s) and no knight.
    click(&mut g, Seat::N, "C4R").unwrap();
}

#[test]
fn draco_a_knight_may_dip_but_not_end_lower() {
    let pos = "C1n:G1 C5n:R1";
    // C1R dips the knight to C1e; ending there is refused, D1R brings it back up to D1n.
    let mut g = game("draco", Options::default(), pos, Seat::S, 3);
    click(&mut g, Seat::S, "C1R").unwrap();
    let e = g.step(Seat::S, Action::EndTurn, 0).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a knight may not end its move lower than it started"
    );
    assert_eq!(
        click(&mut g, Seat::S, "D1L").unwrap_err().to_string(),
        "a knight may not end its move lower than it started"
    );
    click(&mut g, Seat::S, "D1R").unwrap();
    assert_eq!(g.mover(), Seat::N);
}

#[test]
fn draco_the_dragon_wins_on_touching_the_bottom_edge() {
    let mut g = game("draco", Options::default(), "C1n:R1 A5n:G1", Seat::N, 3);
    let events = click(&mut g, Seat::N, "C1R").unwrap();
    assert_eq!(winner(&events), Some(Some(Winner::Seat(Seat::N))));
}

#[test]
fn draco_the_knights_win_when_the_dragon_cannot_move() {
    // The dragon on C5n lies only in C5's orbit; a second knight arriving at C5e traps it.
    let mut g = game(
        "draco",
        Options::default(),
        "C5n:R1 C5w:G1 D5s:G2",
        Seat::S,
        3,
    );
    click(&mut g, Seat::S, "D5R").unwrap();
    let events = g.step(Seat::S, Action::EndTurn, 0).unwrap();
    assert_eq!(winner(&events), Some(Some(Winner::Seat(Seat::S))));
}

// ---------------------------------------------------------------- Taurus

#[test]
fn taurus_places_thirteen_each_at_random_from_the_seed() {
    let start = |seed| {
        let g = Game::new(games::find("taurus").unwrap(), Options::default(), seed).unwrap();
        (position_string(g.position()), g.mover())
    };
    let (a, _) = start(1);
    assert_eq!(start(1).0, a, "the same seed, the same board");
    assert_ne!(start(2).0, a);
    let p = parse_position(&a).unwrap();
    assert_eq!((p.count(Colour::Red), p.count(Colour::Blue)), (13, 13));
    // The toss: over a few seeds both seats get to move first.
    let firsts: std::collections::HashSet<Seat> = (0..20).map(|s| start(s).1).collect();
    assert_eq!(firsts.len(), 2);
}

#[test]
fn taurus_a_completed_star_cluster_wins() {
    let pos = "B1n:R1 B1s:R2 A1e:R3 B1e:R4 C1n:R5 C1s:R6 C1e:R7 D1n:R8 D1s:R9 E1n:R10 \
               A5n:B1";
    let mut g = game("taurus", Options::default(), pos, Seat::S, 2);
    let events = click(&mut g, Seat::S, "E1L").unwrap();
    assert_eq!(winner(&events), Some(Some(Winner::Seat(Seat::S))));
}

// ---------------------------------------------------------------- Bootes

#[test]
fn bootes_only_dogs_are_turned_and_two_dogs_share_a_move() {
    let mut g = new("bootes", 2);
    assert_eq!(g.clicks().0, Some(2), "first round: two clicks");
    // B3 holds a blue sheep (B2n = B3s) but no dog.
    assert_eq!(
        click(&mut g, Seat::S, "B3R").unwrap_err().to_string(),
        "rotor B3 holds none of your pieces"
    );
    // A2 turns the dog on A1n; then B1 turns the other dog (A1e): no same-piece rule.
    click(&mut g, Seat::S, "A2R").unwrap();
    click(&mut g, Seat::S, "B1R").unwrap();
    assert_eq!(g.mover(), Seat::N);
    g.step(Seat::N, Action::EndTurn, 0).unwrap();
    assert_eq!(g.clicks().0, Some(4), "second round: four clicks");
}

#[test]
fn bootes_herding_home_wins() {
    let pos = "D4n:B1 D4e:B2 D4s:B3 D4w:B4 E4n:R1 E5e:R2 \
               A1n:Y1 A1e:Y2 A5n:G1 B5n:G2 C5n:G3 D5n:G4";
    let mut g = game("bootes", Options::default(), pos, Seat::S, 4);
    let events = click(&mut g, Seat::S, "E5R").unwrap();
    assert_eq!(winner(&events), Some(Some(Winner::Seat(Seat::S))));
}

// ---------------------------------------------------------------- Algol

fn secret(g: &mut Game, seat: Seat, piece: &str) -> Result<Vec<Event>, ActionError> {
    g.step(
        seat,
        Action::Secret {
            piece: orion_engine::parse_piece(piece).unwrap(),
        },
        0,
    )
}

fn challenge(g: &mut Game, seat: Seat, piece: &str) -> Result<Vec<Event>, ActionError> {
    g.step(
        seat,
        Action::Challenge {
            piece: orion_engine::parse_piece(piece).unwrap(),
        },
        0,
    )
}

#[test]
fn algol_secrets_come_first_and_only_their_commitment_is_public() {
    let mut g = new("algol", 2);
    assert_eq!(
        click(&mut g, Seat::S, "A1R").unwrap_err().to_string(),
        "every player must first choose a secret man"
    );
    assert_eq!(
        secret(&mut g, Seat::S, "B3").unwrap_err().to_string(),
        "B3 is not one of your pieces on the board"
    );
    let events = secret(&mut g, Seat::S, "R7").unwrap();
    let Event::Secret { seat, commitment } = &events[0] else {
        panic!("a secret event: {events:?}")
    };
    assert_eq!(*seat, Seat::S);
    assert_eq!(commitment.len(), 64, "a hex SHA-256");
    assert_eq!(
        secret(&mut g, Seat::S, "R8").unwrap_err().to_string(),
        "you have already chosen your secret man"
    );
    secret(&mut g, Seat::N, "B3").unwrap();
    click(&mut g, Seat::S, "A1R").unwrap();
}

#[test]
fn algol_a_wrong_challenge_costs_the_challenging_piece() {
    let pos = "B3n:R1 A1s:R2 C3n:B1 E5n:B2";
    let mut g = game("algol", Options::default(), pos, Seat::S, 2);
    secret(&mut g, Seat::S, "R2").unwrap();
    secret(&mut g, Seat::N, "B2").unwrap();
    let events = challenge(&mut g, Seat::S, "B1").unwrap();
    assert!(
        matches!(&events[0], Event::Challenge { hit: false, removed, .. }
        if *removed == parse_slot("B3n").unwrap().bit())
    );
    assert_eq!(g.scores(), vec![(Seat::S, 0), (Seat::N, 1)]);
    assert_eq!(g.mover(), Seat::N, "a challenge ends the turn");
    assert_eq!(position_string(g.position()), "A1s:R2 C3n:B1 E5n:B2");
}

#[test]
fn algol_ends_on_the_points_once_no_secret_man_is_left() {
    // Each challenges with his own secret man, the only piece in line, and is wrong: the
    // challenging piece is taken. Row 3's top edges: A3n B3, B3n R1, C3n B1, D3n R2.
    let pos = "A3n:B3 B3n:R1 C3n:B1 D3n:R2";
    let mut g = game("algol", Options::default(), pos, Seat::S, 2);
    secret(&mut g, Seat::S, "R1").unwrap();
    secret(&mut g, Seat::N, "B1").unwrap();
    challenge(&mut g, Seat::S, "B3").unwrap();
    assert!(
        g.outcome().is_none(),
        "N's secret man is still on the board"
    );
    assert_eq!(position_string(g.position()), "A3n:B3 C3n:B1 D3n:R2");
    let events = challenge(&mut g, Seat::N, "R2").unwrap();
    assert!(matches!(&events[0], Event::Challenge { hit: false, .. }));
    let outcome = g
        .outcome()
        .expect("no secret man is left: the game is over")
        .clone();
    assert_eq!(outcome.scores, vec![(Seat::S, 1), (Seat::N, 1)]);
    assert_eq!(outcome.winner, None, "level on points: a draw");
}

#[test]
fn algol_a_challenge_needs_a_piece_in_line() {
    let pos = "B3e:R1 A1s:R2 C3n:B1 E5n:B2";
    let mut g = game("algol", Options::default(), pos, Seat::S, 2);
    secret(&mut g, Seat::S, "R2").unwrap();
    secret(&mut g, Seat::N, "B1").unwrap();
    // B3e touches C3n's end but is not collinear with it.
    assert_eq!(
        challenge(&mut g, Seat::S, "B1").unwrap_err().to_string(),
        "none of your pieces is in line with B1"
    );
}

#[test]
fn algol_a_right_challenge_with_two_players_ends_the_game() {
    let pos = "B3n:R1 A1s:R2 C3n:B1 E5n:B2";
    let mut g = game("algol", Options::default(), pos, Seat::S, 2);
    let published: Vec<String> = [secret(&mut g, Seat::S, "R2"), secret(&mut g, Seat::N, "B1")]
        .into_iter()
        .flat_map(|e| e.unwrap())
        .filter_map(|e| match e {
            Event::Secret { commitment, .. } => Some(commitment),
            _ => None,
        })
        .collect();
    let events = challenge(&mut g, Seat::S, "B1").unwrap();
    assert!(matches!(&events[0], Event::Challenge { hit: true, .. }));
    let outcome = g.outcome().expect("over").clone();
    assert_eq!(outcome.winner, Some(Winner::Seat(Seat::S)));
    assert_eq!(outcome.scores, vec![(Seat::S, 5), (Seat::N, 0)]);
    // The reveal matches the commitments published at the start.
    let revealed: Vec<String> = outcome
        .reveals
        .iter()
        .map(|r| r.commitment.clone())
        .collect();
    assert_eq!(revealed, published);
    for r in &outcome.reveals {
        let salt: Vec<u8> = (0..r.salt.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&r.salt[i..i + 2], 16).unwrap())
            .collect();
        assert_eq!(
            orion_engine::commitment(r.piece.number(), &salt),
            r.commitment
        );
    }
}

#[test]
fn algol_with_three_players_a_found_out_player_leaves_the_board() {
    let options = Options {
        players: Some(3),
        ..Options::default()
    };
    let pos = "B3n:R1 A1s:R2 C3n:G1 A5w:G2 E5n:B1";
    let mut g = game("algol", options, pos, Seat::S, 2);
    secret(&mut g, Seat::S, "R2").unwrap();
    secret(&mut g, Seat::W, "G1").unwrap();
    secret(&mut g, Seat::N, "B1").unwrap();
    challenge(&mut g, Seat::S, "G1").unwrap();
    assert!(g.outcome().is_none(), "two secret men are left");
    assert_eq!(position_string(g.position()), "A1s:R2 B3n:R1 E5n:B1");
    assert!(!g.in_play(Seat::W));
    assert_eq!(g.mover(), Seat::N, "W's turns are skipped");
}

#[test]
fn algol_a_secret_man_across_scores_ten_and_ends_the_game() {
    let pos = "C4n:R1 A1s:R2 E5n:B1";
    let mut g = game("algol", Options::default(), pos, Seat::S, 2);
    secret(&mut g, Seat::S, "R1").unwrap();
    secret(&mut g, Seat::N, "B1").unwrap();
    // C5R: C5's south (C4n) goes west to C5w, which touches the top edge.
    let events = click(&mut g, Seat::S, "C5R").unwrap();
    assert_eq!(winner(&events), Some(Some(Winner::Seat(Seat::S))));
    assert_eq!(g.scores()[0], (Seat::S, 10));
}
