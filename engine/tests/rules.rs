//! Table tests for the five basic rules and the live resolution of section 4, played through
//! `Game::step` exactly as the server drives it.

use orion_engine::{
    games, parse_click, parse_position, parse_slot, position_string, Action, ActionError,
    ClaimWindow, Colour, Event, Game, Options, RuleError, Seat, Winner,
};

fn game(id: &str, options: Options, position: &str, mover: Seat, round: u32) -> Game {
    let rules = games::find(id).expect("game exists");
    let position = parse_position(position).expect("test position parses");
    Game::from_position(rules, options, 7, position, mover, round).expect("setup")
}

fn click(g: &mut Game, seat: Seat, c: &str, now: u64) -> Result<Vec<Event>, ActionError> {
    g.step(
        seat,
        Action::Click {
            click: parse_click(c).unwrap(),
            piece: None,
        },
        now,
    )
}

fn clicks(n: u8) -> Options {
    Options {
        clicks: Some(n),
        ..Options::default()
    }
}

fn four(n: u8, window: ClaimWindow) -> Options {
    Options {
        clicks: Some(n),
        players: Some(4),
        claim_window: window,
        ..Options::default()
    }
}

fn winner(events: &[Event]) -> Option<Option<Winner>> {
    events.iter().find_map(|e| match e {
        Event::Over { outcome } => Some(outcome.winner),
        _ => None,
    })
}

// ---------------------------------------------------------------- the five basic rules

#[test]
fn colour_rule_refuses_a_rotor_without_your_piece() {
    let mut g = Game::new(games::find("hydra-2").unwrap(), Options::default(), 1).unwrap();
    let e = click(&mut g, Seat::S, "C3R", 0).unwrap_err();
    assert_eq!(e.to_string(), "rotor C3 holds none of your pieces");
    assert_eq!(e.code(), "illegal");
    // Row 2 rotors hold S's pieces on their south side: legal.
    click(&mut g, Seat::S, "C2R", 0).unwrap();
}

#[test]
fn same_piece_rule_follows_the_piece_and_a_named_piece_narrows_it() {
    // Red R1 in C3's orbit, R2 far away in A1's. After C3R, only rotors holding R1 may turn.
    let mut g = game("hydra-2", clicks(3), "C3n:R1 A1s:R2 E5n:B1", Seat::S, 5);
    click(&mut g, Seat::S, "C3R", 0).unwrap();
    let e = click(&mut g, Seat::S, "A1R", 0).unwrap_err();
    assert_eq!(
        e.to_string(),
        "rotor A1 does not hold the piece you are moving"
    );
    // R1 is now at C3e = D3w, so D3 turns it.
    click(&mut g, Seat::S, "D3R", 0).unwrap();

    // Naming the piece up front: R2 named, so C3 (holding only R1) is refused.
    let mut g = game("hydra-2", clicks(3), "C3n:R1 A1s:R2 E5n:B1", Seat::S, 5);
    let e = g
        .step(
            Seat::S,
            Action::Click {
                click: parse_click("C3R").unwrap(),
                piece: Some(orion_engine::parse_piece("R2").unwrap()),
            },
            0,
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "rotor C3 does not hold the piece you are moving"
    );
}

#[test]
fn clicks_rule_allows_fewer_clicks_or_a_pass_but_not_more() {
    let mut g = game("hydra-2", clicks(2), "C3n:R1 E5n:B1", Seat::S, 5);
    click(&mut g, Seat::S, "C3R", 0).unwrap();
    let events = click(&mut g, Seat::S, "D3R", 0).unwrap();
    // The second click used the move up: the turn passed to N at once.
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Turn { seat: Seat::N, .. })));
    assert_eq!(
        click(&mut g, Seat::S, "D3R", 0).unwrap_err().to_string(),
        "it is N's turn"
    );
    // N passes without clicking.
    let events = g.step(Seat::N, Action::EndTurn, 0).unwrap();
    assert!(matches!(events[0], Event::Turn { seat: Seat::S, .. }));
}

#[test]
fn standard_starting_sequence_grows_one_click_a_round() {
    let mut g = Game::new(games::find("hydra-2").unwrap(), Options::default(), 1).unwrap();
    let mut seen = Vec::new();
    for _ in 0..8 {
        seen.push((g.mover(), g.round(), g.clicks().0));
        g.step(g.mover(), Action::EndTurn, 0).unwrap();
    }
    let want: Vec<_> = [1, 1, 2, 2, 3, 3, 3, 3]
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            let seat = if i % 2 == 0 { Seat::S } else { Seat::N };
            (seat, (i / 2 + 1) as u32, Some(n))
        })
        .collect();
    assert_eq!(seen, want);
}

#[test]
fn no_reversal_in_two_players() {
    // Both colours in C3's orbit; S turns it right, N may not simply turn it back.
    let mut g = game("hydra-2", clicks(1), "C3n:R1 C3s:B1", Seat::S, 5);
    click(&mut g, Seat::S, "C3R", 0).unwrap();
    let e = click(&mut g, Seat::N, "C3L", 0).unwrap_err();
    assert_eq!(e, ActionError::Rule(RuleError::Reversal));
    assert_eq!(
        e.to_string(),
        "that move simply reverses the previous move (no-reversal rule)"
    );
    // Nothing changed: N can still make another move.
    click(&mut g, Seat::N, "C3R", 0).unwrap();
}

#[test]
fn no_reversal_is_checked_at_the_end_of_a_longer_move() {
    let mut g = game("hydra-2", clicks(3), "C3n:R1 C3s:B1", Seat::S, 5);
    click(&mut g, Seat::S, "C3R", 0).unwrap();
    g.step(Seat::S, Action::EndTurn, 0).unwrap();
    // N may pass through the old position mid-move but may not end there.
    click(&mut g, Seat::N, "C3L", 0).unwrap();
    let e = g.step(Seat::N, Action::EndTurn, 0).unwrap_err();
    assert_eq!(e, ActionError::Rule(RuleError::Reversal));
    click(&mut g, Seat::N, "C3L", 0).unwrap();
    g.step(Seat::N, Action::EndTurn, 0).unwrap();
}

#[test]
fn no_reversal_in_four_players() {
    let pos = "C3n:R1 C3e:G1 C3s:B1 C3w:Y1";
    let mut g = game("hydra-4", four(1, ClaimWindow::default()), pos, Seat::S, 5);
    click(&mut g, Seat::S, "C3R", 0).unwrap();
    // W is next and may not undo S's move.
    assert_eq!(
        click(&mut g, Seat::W, "C3L", 0).unwrap_err(),
        ActionError::Rule(RuleError::Reversal)
    );
    click(&mut g, Seat::W, "C3R", 0).unwrap();
    // N may not undo W's move either, but may undo S's (it is not the previous move).
    assert_eq!(
        click(&mut g, Seat::N, "C3L", 0).unwrap_err(),
        ActionError::Rule(RuleError::Reversal)
    );
}

#[test]
fn passing_after_a_pass_is_not_a_reversal() {
    let mut g = game("hydra-2", clicks(3), "C3n:R1 C3s:B1", Seat::S, 5);
    g.step(Seat::S, Action::EndTurn, 0).unwrap();
    g.step(Seat::N, Action::EndTurn, 0).unwrap();
    g.step(Seat::S, Action::EndTurn, 0).unwrap();
}

#[test]
fn a_time_out_on_a_reversing_move_undoes_it() {
    let mut g = game("hydra-2", clicks(3), "C3n:R1 C3s:B1", Seat::S, 5);
    click(&mut g, Seat::S, "C3R", 0).unwrap();
    g.step(Seat::S, Action::EndTurn, 0).unwrap();
    let after_s = *g.position();
    click(&mut g, Seat::N, "C3L", 0).unwrap();
    // Only the mover's clock can run out.
    assert_eq!(
        g.step(Seat::S, Action::Timeout, 0).unwrap_err(),
        ActionError::NotYourTurn(Seat::N)
    );
    let events = g.step(Seat::N, Action::Timeout, 0).unwrap();
    assert_eq!(*g.position(), after_s, "the reversing click was undone");
    assert!(matches!(
        events.last(),
        Some(Event::Turn { seat: Seat::S, .. })
    ));
}

#[test]
fn the_die_is_injected_and_its_faces_are_an_option() {
    let options = Options {
        die: vec![5],
        ..Options::default()
    };
    let mut g = Game::new(games::find("hydra-partners").unwrap(), options, 3).unwrap();
    assert_eq!(g.clicks().0, None, "the mover first chooses die or three");
    assert!(click(&mut g, Seat::S, "A1R", 0).is_err());
    let events = g.step(Seat::S, Action::Roll, 0).unwrap();
    assert_eq!(
        events[0],
        Event::Roll {
            seat: Seat::S,
            value: 5
        }
    );
    assert_eq!(g.clicks().0, Some(5));

    // The same seed gives the same throws.
    let throws = |seed| {
        let mut g = Game::new(games::find("hydra-4").unwrap(), Options::default(), seed).unwrap();
        let mut out = Vec::new();
        for _ in 0..12 {
            let seat = g.mover();
            for e in g.step(seat, Action::Roll, 0).unwrap() {
                if let Event::Roll { value, .. } = e {
                    out.push(value);
                }
            }
            g.step(seat, Action::EndTurn, 0).unwrap();
        }
        out
    };
    assert_eq!(throws(9), throws(9));
    assert!(throws(9).iter().all(|v| [1, 2, 3, 4, 5].contains(v)));
    let three = {
        let mut g = Game::new(games::find("hydra-4").unwrap(), Options::default(), 1).unwrap();
        g.step(Seat::S, Action::Three, 0).unwrap();
        g.clicks().0
    };
    assert_eq!(three, Some(3));
}

// ---------------------------------------------------------------- chains and claims

/// Green needs C2n for a left-right chain along line y = 2; blue needs C2w for a bottom-top
/// chain along line x = 2. One click of C2 left by red brings green from C2e to C2n and blue
/// from C2n to C2w: two chains at once for other players.
const TWO_CHAINS: &str =
    "A2n:G1 B2n:G2 D2n:G3 E2n:G4 C2e:G5 C1w:B1 C3w:B2 C4w:B3 C5w:B4 C2n:B5 C2s:R1 A5n:Y1";

/// Hydra for Four from [`TWO_CHAINS`], S to move with three clicks.
fn two_chains(window: ClaimWindow) -> Game {
    game("hydra-4", four(3, window), TWO_CHAINS, Seat::S, 5)
}

#[test]
fn a_click_that_makes_two_chains_at_once_opens_two_claims() {
    let mut g = two_chains(ClaimWindow::Millis(5000));
    let events = click(&mut g, Seat::S, "C2L", 1000).unwrap();
    let chains: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Chain {
                colour,
                claim_until,
            } => Some((*colour, *claim_until)),
            _ => None,
        })
        .collect();
    assert_eq!(
        chains,
        vec![(Colour::Blue, Some(6000)), (Colour::Green, Some(6000))]
    );
    assert!(winner(&events).is_none(), "nobody has won until a claim");
    // N claims in time and wins.
    let events = g.step(Seat::N, Action::Claim, 5999).unwrap();
    assert_eq!(winner(&events), Some(Some(Winner::Seat(Seat::N))));
}

#[test]
fn a_claim_wins_even_after_the_chain_was_broken_again() {
    let mut g = two_chains(ClaimWindow::Millis(5000));
    click(&mut g, Seat::S, "C2L", 1000).unwrap();
    // S turns C2 on: green leaves C2n, the green chain is broken.
    click(&mut g, Seat::S, "C2L", 2000).unwrap();
    assert!(!orion_engine::has_chain(
        g.position().of(Colour::Green),
        Seat::W.edge()
    ));
    let events = g.step(Seat::W, Action::Claim, 3000).unwrap();
    assert_eq!(winner(&events), Some(Some(Winner::Seat(Seat::W))));
}

#[test]
fn a_late_claim_is_refused_and_changes_nothing() {
    let mut g = two_chains(ClaimWindow::Millis(5000));
    click(&mut g, Seat::S, "C2L", 1000).unwrap();
    let e = g.step(Seat::W, Action::Claim, 6001).unwrap_err();
    assert_eq!(e.to_string(), "no chain of yours is open to claim");
    assert!(g.outcome().is_none());
    // The mover plays on.
    click(&mut g, Seat::S, "C2R", 6002).unwrap();
}

#[test]
fn auto_claim_awards_a_chain_made_for_another_at_once() {
    let mut g = two_chains(ClaimWindow::Auto);
    let events = click(&mut g, Seat::S, "C2L", 1000).unwrap();
    assert!(events.contains(&Event::Chain {
        colour: Colour::Blue,
        claim_until: None
    }));
    assert_eq!(winner(&events), Some(Some(Winner::Seat(Seat::N))));
}

#[test]
fn the_mover_wins_when_his_chain_and_anothers_form_on_the_same_click() {
    // Green's row on y = 2 lacks C2n, which G5 reaches from C2e with C2L (east goes north);
    // red's column on x = 3 lacks C2e, which R1 reaches from C2s with the same click.
    let pos = "A2n:G1 B2n:G2 D2n:G3 E2n:G4 C2e:G5 C1e:R2 C3e:R3 C4e:R4 C5e:R5 C2s:R1 A5n:B1";
    let mut g = game(
        "hydra-4",
        four(3, ClaimWindow::Millis(5000)),
        pos,
        Seat::S,
        5,
    );
    let events = click(&mut g, Seat::S, "C2L", 0).unwrap();
    assert_eq!(winner(&events), Some(Some(Winner::Seat(Seat::S))));
    assert!(g.open_claims().is_empty());
}

#[test]
fn a_chain_touching_an_edge_with_a_point_wins() {
    // A red column of vertical slots on x = 1 touches the bottom and the top with its points
    // only; its last piece A5e arrives from A5n (along the top) with a right click of A5.
    let pos = "A1e:R1 A2e:R2 A3e:R3 A4e:R4 A5n:R5 E1s:B1";
    let mut g = game("hydra-2", clicks(3), pos, Seat::S, 5);
    let events = click(&mut g, Seat::S, "A5R", 0).unwrap();
    assert_eq!(winner(&events), Some(Some(Winner::Seat(Seat::S))));
    assert!(events.contains(&Event::Chain {
        colour: Colour::Red,
        claim_until: None
    }));
}

#[test]
fn partners_win_as_a_team_and_either_partner_may_move_the_team_colour() {
    // Red (S+N) column on x = 2 missing C3w, which C3's north piece reaches with C3L.
    let pos = "C1w:R1 C2w:R2 C4w:R3 C5w:R4 C3n:R5 A1w:G1";
    let mut g = game("hydra-partners", clicks(3), pos, Seat::N, 5);
    let events = click(&mut g, Seat::N, "C3L", 0).unwrap();
    assert_eq!(winner(&events), Some(Some(Winner::Team(Seat::S, Seat::N))));
}

// ---------------------------------------------------------------- Orion: fences, captures, building

fn orion(position: &str, mover: Seat) -> Game {
    game("orion", clicks(3), position, mover, 6)
}

#[test]
fn a_capture_ends_the_turn_and_scores() {
    // Red fences rotor A1 with A1n and A1e; A1e arrives from B1n by B1L (north goes west).
    // Blue sits in A1s, a border slot inside the fence.
    let mut g = orion("A1n:R1 B1n:R2 A1s:B1 E5n:B2", Seat::S);
    let events = click(&mut g, Seat::S, "B1L", 0).unwrap();
    let capture = events.iter().find_map(|e| match e {
        Event::Capture { slots, points, .. } => Some((*slots, *points)),
        _ => None,
    });
    assert_eq!(capture, Some((parse_slot("A1s").unwrap().bit(), 1)));
    assert_eq!(g.mover(), Seat::N, "the capture ended S's turn");
    assert_eq!(g.scores()[0], (Seat::S, 1));
    assert_eq!(position_string(g.position()), "A1n:R1 E5n:B2 A1e:R2");
}

#[test]
fn regions_of_twelve_are_fenced_and_of_thirteen_are_not() {
    // Twelve rotors (rows 1-2 and A3, B3) against thirteen: the twelve are fenced.
    let twelve = "A3n:R1 B3n:R2 B3e:R3 C2n:R4 D2n:R5 E2n:R6";
    let p = parse_position(&format!("{twelve} A1s:B1 E5n:B2")).unwrap();
    let c = orion_engine::evaluate_fences(&p, Colour::Red);
    assert_eq!(c.fenced.len(), 12);
    assert_eq!(
        c.slots,
        parse_slot("A1s").unwrap().bit(),
        "border slot inside the fence"
    );
    assert!(!c.whole_board);
    // Thirteen (rows 1-2 and A3..C3): now the other side, twelve rotors, is the fenced one.
    let thirteen = "A3n:R1 B3n:R2 C3n:R3 C3e:R4 D2n:R5 E2n:R6";
    let p = parse_position(&format!("{thirteen} A1s:B1 E5n:B2")).unwrap();
    let c = orion_engine::evaluate_fences(&p, Colour::Red);
    assert_eq!(c.fenced.len(), 12);
    assert_eq!(c.slots, parse_slot("E5n").unwrap().bit());
}

#[test]
fn capturing_the_whole_board_ends_the_game_on_points() {
    // Two walls: y = 2 complete, y = 3 missing E3n (= E4s), which E4R brings from E4e (east
    // goes south). Then every region is fenced: 10, 5 and 10 rotors.
    let pos = "A2n:R1 B2n:R2 C2n:R3 D2n:R4 E2n:R5 A3n:R6 B3n:R7 C3n:R8 D3n:R9 E4e:R10 \
               C1s:B1 C5n:B2 A3e:B3";
    let mut g = orion(pos, Seat::S);
    let events = click(&mut g, Seat::S, "E4R", 0).unwrap();
    let outcome = events.iter().find_map(|e| match e {
        Event::Over { outcome } => Some(outcome.clone()),
        _ => None,
    });
    let outcome = outcome.expect("the whole board is captured");
    assert_eq!(outcome.winner, Some(Winner::Seat(Seat::S)));
    assert_eq!(outcome.scores, vec![(Seat::S, 3), (Seat::N, 0)]);
}

#[test]
fn building_fills_the_footprints_of_moving_pieces() {
    let mut g = orion("C3n:R1 E5n:B1", Seat::S);
    let events = click(&mut g, Seat::S, "C3R", 0).unwrap();
    let c3n = parse_slot("C3n").unwrap();
    assert!(events.contains(&Event::Eligible { slots: c3n.bit() }));
    let e = g
        .step(
            Seat::S,
            Action::Place {
                slot: parse_slot("A1s").unwrap(),
                from: None,
            },
            0,
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "A1s is not eligible: build only where your piece just left"
    );
    g.step(
        Seat::S,
        Action::Place {
            slot: c3n,
            from: None,
        },
        0,
    )
    .unwrap();
    assert_eq!(position_string(g.position()), "C3n:R2 E5n:B1 C3e:R1");
}

#[test]
fn building_with_all_twenty_pieces_moves_one_from_anywhere() {
    // Twenty red pieces: C3n plus nineteen along the bottom and left lines.
    let mut pos = String::from("C3n:R1 E5n:B1");
    let others = [
        "A1s", "B1s", "C1s", "D1s", "E1s", "A1w", "A2w", "A3w", "A4w", "A5w", "A1e", "B1e", "C1e",
        "D1e", "A2e", "A3e", "A4e", "A5e", "B2e",
    ];
    for (n, s) in (2..).zip(others) {
        pos.push_str(&format!(" {s}:R{n}"));
    }
    let mut g = orion(&pos, Seat::S);
    click(&mut g, Seat::S, "C3R", 0).unwrap();
    let c3n = parse_slot("C3n").unwrap();
    let e = g
        .step(
            Seat::S,
            Action::Place {
                slot: c3n,
                from: None,
            },
            0,
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "all 20 of your pieces are on the board: name one to move (from)"
    );
    let from = parse_slot("A1s").unwrap();
    let events = g
        .step(
            Seat::S,
            Action::Place {
                slot: c3n,
                from: Some(from),
            },
            0,
        )
        .unwrap();
    assert!(matches!(events[0], Event::Place { from: Some(f), .. } if f == from));
    assert_eq!(g.position().count(Colour::Red), 20);
    assert!(g.position().get(from).is_none());
}

#[test]
fn orion_opens_with_placements_then_one_and_two_clicks() {
    let mut g = Game::new(games::find("orion").unwrap(), Options::default(), 1).unwrap();
    let e = click(&mut g, Seat::S, "C3R", 0).unwrap_err();
    assert_eq!(e.to_string(), "this turn is a placement: place a piece");
    for (seat, slot) in [(Seat::S, "C3n"), (Seat::N, "C4n")] {
        g.step(
            seat,
            Action::Place {
                slot: parse_slot(slot).unwrap(),
                from: None,
            },
            0,
        )
        .unwrap();
    }
    assert_eq!((g.round(), g.clicks().0), (2, Some(1)));
}

// ---------------------------------------------------------------- Cassiopeia

#[test]
fn cassiopeia_first_placement_must_touch_the_edge() {
    let mut g = Game::new(games::find("cassiopeia").unwrap(), Options::default(), 1).unwrap();
    let e = g
        .step(
            Seat::S,
            Action::Place {
                slot: parse_slot("C3n").unwrap(),
                from: None,
            },
            0,
        )
        .unwrap_err();
    assert_eq!(e.to_string(), "C3n does not touch the edge of the board");
    g.step(
        Seat::S,
        Action::Place {
            slot: parse_slot("C1e").unwrap(),
            from: None,
        },
        0,
    )
    .unwrap();
    // N may place anywhere.
    g.step(
        Seat::N,
        Action::Place {
            slot: parse_slot("C3n").unwrap(),
            from: None,
        },
        0,
    )
    .unwrap();
}

#[test]
fn cassiopeia_staircase_of_four_wins() {
    // The staircase B1n (1,1)-(2,1), B2e (2,1)-(2,2), C2n (2,2)-(3,2), C3e (3,2)-(3,3); its
    // last piece arrives from D3n (= D3's north) by a left click of D3 (north goes west).
    let mut g = game(
        "cassiopeia",
        Options::default(),
        "B1n:R1 B2e:R2 C2n:R3 D3n:R4 E5n:B1",
        Seat::S,
        5,
    );
    let events = click(&mut g, Seat::S, "D3L", 0).unwrap();
    assert_eq!(winner(&events), Some(Some(Winner::Seat(Seat::S))));
}

#[test]
fn cassiopeia_goal_names_only_the_colours_that_reached_it() {
    let rules = games::find("cassiopeia").unwrap();
    // Red's staircase only.
    let g = game(
        "cassiopeia",
        Options::default(),
        "B1n:R1 B2e:R2 C2n:R3 C3e:R4 A3n:B1 A4e:B2 B4n:B3 E5n:B4",
        Seat::S,
        5,
    );
    assert_eq!(rules.goal(&g, false), vec![Colour::Red]);
    // Both staircases: the goal names both (the game calls that a draw).
    let g = game(
        "cassiopeia",
        Options::default(),
        "B1n:R1 B2e:R2 C2n:R3 C3e:R4 A3n:B1 A4e:B2 B4n:B3 B5e:B4",
        Seat::S,
        5,
    );
    assert_eq!(rules.goal(&g, false), vec![Colour::Red, Colour::Blue]);
}

#[test]
fn cassiopeia_one_click_completing_both_patterns_draws() {
    // D3L takes red R4 from D3n to C3e (red's staircase) and blue B1 from D3e to D3n (blue's
    // staircase D3n, D4e, E4n, E5e).
    let pos = "B1n:R1 B2e:R2 C2n:R3 D3n:R4 D3e:B1 D4e:B2 E4n:B3 E5e:B4";
    let mut g = game("cassiopeia", Options::default(), pos, Seat::S, 5);
    let events = click(&mut g, Seat::S, "D3L", 0).unwrap();
    assert_eq!(winner(&events), Some(None), "a draw");
}
