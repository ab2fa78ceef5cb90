//! The rules as tables of positions with expected outcomes: every meeting of two elements,
//! the illegal moves and their messages, the classic opening at each player count, the
//! `void` and `holes` options, teams, turn order and passing, the win and every draw.

use orion_orbs::{
    Colour, Draw, Element, Game, Hole, HoleSet, Move, Opening, Options, Outcome, Position, Seat,
    SetupError, Winner, QUIET_MOVES,
};

fn hole(text: &str) -> Hole {
    text.parse().expect("test hole parses")
}

fn mv(text: &str) -> Move {
    text.parse().expect("test move parses")
}

fn options(players: u8, position: &str) -> Options {
    Options {
        players,
        opening: Opening::Position(Box::new(position.parse().expect("test position parses"))),
        ..Options::default()
    }
}

fn game(players: u8, position: &str) -> Game {
    Game::new(options(players, position)).expect("test game starts")
}

/// Plays moves in order, panicking with the engine's message on an illegal one.
fn play(g: &mut Game, moves: &str) {
    for m in moves.split(',') {
        if let Err(e) = g.play(mv(m)) {
            panic!("{e}");
        }
    }
}

#[test]
fn every_meeting_of_two_elements() {
    // (mover, defender, what happens): `both` removed, `mover` wins and takes the hole,
    // `defender` wins and stays, `illegal`.
    let table = [
        ("F", "F", "illegal"),
        ("F", "W", "both"),
        ("F", "E", "defender"),
        ("F", "A", "mover"),
        ("F", "V", "both"),
        ("W", "F", "both"),
        ("W", "W", "illegal"),
        ("W", "E", "mover"),
        ("W", "A", "defender"),
        ("W", "V", "both"),
        ("E", "F", "mover"),
        ("E", "W", "defender"),
        ("E", "E", "illegal"),
        ("E", "A", "both"),
        ("E", "V", "both"),
        ("A", "F", "defender"),
        ("A", "W", "mover"),
        ("A", "E", "both"),
        ("A", "A", "illegal"),
        ("A", "V", "both"),
        ("V", "F", "both"),
        ("V", "W", "both"),
        ("V", "E", "both"),
        ("V", "A", "both"),
        ("V", "V", "both"),
    ];
    assert_eq!(table.len(), 25);
    for (m, d, result) in table {
        // Spare orbs of two more elements keep the game from ending on the spot.
        let start = format!("a1:RF a2:RW i5:R{m} i6:B{d} q1:BF p1:BW");
        let start = start.replace("a2:", "b1:");
        let mut g = game(2, &start);
        let played = g.play(mv("i5-i6"));
        let after = g.position().to_string();
        let (expect_after, removed) = match result {
            "illegal" => {
                let name = Element::from_letter(m.chars().next().unwrap_or('?')).unwrap();
                assert_eq!(
                    played.unwrap_err().to_string(),
                    format!("i5-i6: your {name} orb cannot take a {name} orb")
                );
                continue;
            }
            "both" => ("a1:RF b1:RW p1:BW q1:BF".to_string(), "i5 i6"),
            "mover" => (format!("a1:RF b1:RW i6:R{m} p1:BW q1:BF"), "i6"),
            "defender" => (format!("a1:RF b1:RW i6:B{d} p1:BW q1:BF"), "i5"),
            _ => unreachable!(),
        };
        let effect = played.unwrap_or_else(|e| panic!("{m} onto {d}: {e}"));
        assert_eq!(after, expect_after, "{m} onto {d}");
        assert_eq!(effect.removed.to_string(), removed, "{m} onto {d}");
        assert_eq!(effect.outcome, None, "{m} onto {d}");
        assert_eq!(g.mover(), Some(Seat::N));
    }
}

#[test]
fn illegal_moves_say_why() {
    let start = "d2:RF e6:BF e7:RW i5:RA i6:BE h5:RE a1:RW q1:BW";
    for (m, message) in [
        ("d2-e6", "d2-e6: your fire orb cannot take a fire orb"),
        ("i5-i7", "i5-i7: i7 is not next to i5"),
        ("i4-i5", "i4-i5: there is no orb on i4"),
        ("i6-i7", "i6-i7: the orb on i6 is blue, not yours"),
        ("i5-h5", "i5-h5: h5 holds your own orb"),
        ("d2-e7", "d2-e7: e7 holds your own orb"),
    ] {
        let mut g = game(2, start);
        assert_eq!(g.play(mv(m)).unwrap_err().to_string(), message);
        assert_eq!(
            g.position().to_string(),
            start.parse::<Position>().unwrap().to_string()
        );
        assert_eq!(g.mover(), Some(Seat::S), "an illegal move changes nothing");
    }
    let mut g = game(2, "i5:RF i6:BA");
    play(&mut g, "i5-i6");
    assert_eq!(
        g.play(mv("i6-i7")).unwrap_err().to_string(),
        "i6-i7: the game is over"
    );
}

#[test]
fn the_classic_opening_fills_each_point() {
    let g = Game::new(Options::default()).unwrap();
    assert_eq!(
        g.position().to_string(),
        "a1:RW b1:RA b2:RA c1:RE c2:RF c3:RE d1:RF d2:RW d3:RW d4:RF \
         n1:BF n2:BW n3:BW n4:BF o1:BE o2:BF o3:BE p1:BA p2:BA q1:BW"
    );
    for (players, seats) in [
        (2, "S N"),
        (3, "S NW NE"),
        (4, "SW NW NE SE"),
        (5, "S SW NW N NE"),
        (6, "S SW NW N NE SE"),
    ] {
        let g = Game::new(Options {
            players,
            ..Options::default()
        })
        .unwrap();
        let names: Vec<&str> = g.seats().iter().map(|s| s.name()).collect();
        assert_eq!(names.join(" "), seats);
        assert_eq!(g.mover(), g.seats().first().copied());
        assert_eq!(g.position().len(), 10 * players as usize);
        for (i, &seat) in g.seats().iter().enumerate() {
            let colour = Colour::ALL[i];
            assert_eq!(g.colour_of(seat), Some(colour));
            assert_eq!(g.position().of(colour), seat.point(), "{seat}");
            let count = |e| {
                g.position()
                    .orbs()
                    .filter(|(_, o)| o.colour == colour && o.element == e)
                    .count()
            };
            let counts = [Element::Fire, Element::Water, Element::Earth, Element::Air].map(count);
            assert_eq!(counts, [3, 3, 2, 2], "{seat}");
            // The tip holds water, the row nearest the centre ends in fire.
            assert_eq!(
                g.position().get(seat.tip()).map(|o| o.element),
                Some(Element::Water)
            );
            let front = &seat.point_rows()[0];
            let elements: Vec<char> = front
                .iter()
                .filter_map(|&h| g.position().get(h))
                .map(|o| o.element.letter())
                .collect();
            assert_eq!(elements, ['F', 'W', 'W', 'F'], "{seat}");
        }
    }
}

#[test]
fn setup_errors() {
    for (o, message) in [
        (
            Options {
                players: 7,
                ..Options::default()
            },
            "Orbs is for 2 to 6 players, not 7",
        ),
        (
            Options {
                players: 3,
                teams: true,
                ..Options::default()
            },
            "teams need 4 or 6 players, not 3",
        ),
        (
            options(2, "a1:RF i5:GW"),
            "i5 holds a green orb, but green does not play with 2 players",
        ),
        (
            Options {
                holes: [hole("a1")].into_iter().collect(),
                ..Options::default()
            },
            "a1 is out of play but holds an orb",
        ),
        (
            Options {
                first: Some(Seat::SW),
                ..Options::default()
            },
            "seat SW does not play with 2 players",
        ),
        (options(2, ""), "nobody has an orb"),
    ] {
        assert_eq!(Game::new(o).unwrap_err().to_string(), message);
    }
    assert_eq!(Game::new(options(2, "")).unwrap_err(), SetupError::NoOrbs);
}

#[test]
fn void_option_turns_each_tip_orb_to_void() {
    let g = Game::new(Options {
        players: 3,
        void: true,
        ..Options::default()
    })
    .unwrap();
    let voids: Vec<String> = g
        .position()
        .orbs()
        .filter(|(_, o)| o.element == Element::Void)
        .map(|(h, o)| format!("{h}:{o}"))
        .collect();
    assert_eq!(voids, ["a1:RV", "m1:BV", "m13:GV"]);
    // A void orb meeting another void orb: both go.
    let mut g = game(2, "a1:RF i5:RV i6:BV q1:BW");
    let e = g.play(mv("i5-i6")).unwrap();
    assert_eq!(e.removed.to_string(), "i5 i6");
}

#[test]
fn holes_out_of_play_cannot_be_entered() {
    let holes: HoleSet = ["i6", "h6"].map(hole).into_iter().collect();
    let mut g = Game::new(Options {
        holes,
        ..options(2, "i5:RF a1:RW q1:BW")
    })
    .unwrap();
    assert_eq!(g.holes_out_of_play(), holes);
    assert_eq!(
        g.play(mv("i5-i6")).unwrap_err().to_string(),
        "i5-i6: i6 is out of play"
    );
    let mut targets: Vec<String> = g
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == hole("i5"))
        .map(|m| m.to.to_string())
        .collect();
    targets.sort();
    assert_eq!(targets, ["h5", "i4", "j5", "j6"]);
}

#[test]
fn teams_partners_cannot_touch_and_win_together() {
    // Four players: SW red, NW blue, NE green, SE yellow; SW+NE against NW+SE.
    let start = "i5:RF i6:GW i4:BA h1:YE e1:RW m1:BE m13:GW e13:YA";
    let mut g = Game::new(Options {
        teams: true,
        ..options(4, start)
    })
    .unwrap();
    assert_eq!(g.mover(), Some(Seat::SW));
    assert_eq!(
        g.play(mv("i5-i6")).unwrap_err().to_string(),
        "i5-i6: i6 holds your partner's orb"
    );
    // Red burns blue's air.
    let e = g.play(mv("i5-i4")).unwrap();
    assert_eq!(e.removed.to_string(), "i4");
    assert_eq!(g.mover(), Some(Seat::NW));
    // Without teams red may take green's water: fire and water both go.
    let mut g = game(4, start);
    let e = g.play(mv("i5-i6")).unwrap();
    assert_eq!(e.removed.to_string(), "i5 i6");

    // The team wins when the other team's last orb goes, though one partner is out.
    let mut g = Game::new(Options {
        teams: true,
        ..options(4, "i5:RF i6:YA m13:GE")
    })
    .unwrap();
    assert_eq!(g.out(), [Seat::NW]);
    let e = g.play(mv("i5-i6")).unwrap();
    assert_eq!(e.out, [Seat::SE]);
    assert_eq!(
        e.outcome,
        Some(Outcome::Win(Winner::Team(Seat::SW, Seat::NE)))
    );
    assert_eq!(g.mover(), None);
}

#[test]
fn turns_go_clockwise_and_skip_players_out() {
    // Six players, blue (SW) has no orbs: S, NW, N, NE, SE, S …
    let start = "a1:RW m1:GW q1:YW m13:OW e13:PW i5:RF";
    let mut g = game(6, start);
    assert_eq!(g.out(), [Seat::SW]);
    let mut order = Vec::new();
    for m in ["a1-b1", "m1-m2", "q1-p1", "m13-m12", "e13-e12", "b1-a1"] {
        order.push(g.mover().map(|s| s.name()).unwrap_or("-"));
        let e = g.play(mv(m)).unwrap();
        assert!(e.passed.is_empty());
    }
    assert_eq!(order, ["S", "NW", "N", "NE", "SE", "S"]);
    assert_eq!(g.last_move(), Some((Seat::S, mv("b1-a1"))));
    // `first` starts elsewhere.
    let g = Game::new(Options {
        first: Some(Seat::N),
        ..options(2, "a1:RW q1:BF")
    })
    .unwrap();
    assert_eq!(g.mover(), Some(Seat::N));
}

#[test]
fn a_player_who_cannot_move_passes() {
    // Blue's only orb, fire on the tip, is walled in by red fire.
    let mut g = game(2, "a1:RW p1:RF p2:RF q1:BF");
    assert_eq!(g.mover(), Some(Seat::S));
    let e = g.play(mv("a1-b1")).unwrap();
    assert_eq!(e.passed, [Seat::N]);
    assert_eq!(g.mover(), Some(Seat::S));
    // Blue passes at the start too, silently.
    let g = Game::new(Options {
        first: Some(Seat::N),
        ..options(2, "a1:RW p1:RF p2:RF q1:BF")
    })
    .unwrap();
    assert_eq!(g.mover(), Some(Seat::S));
    // Nobody can move: a draw.
    let holes: HoleSet = ["b1", "b2", "p1", "p2"].map(hole).into_iter().collect();
    let g = Game::new(Options {
        holes,
        ..options(2, "a1:RW q1:BF")
    })
    .unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Draw(Draw::Stuck)));
    assert!(g.legal_moves().is_empty());
}

#[test]
fn the_last_player_with_orbs_wins() {
    for (start, m, removed, outcome) in [
        // Fire burns the last air.
        (
            "i5:RF i6:BA a1:RW",
            "i5-i6",
            "i6",
            Outcome::Win(Winner::Seat(Seat::S)),
        ),
        // Air onto fire: the mover burns, blue wins.
        (
            "i5:RA i6:BF",
            "i5-i6",
            "i5",
            Outcome::Win(Winner::Seat(Seat::N)),
        ),
        // Water and fire: the last two orbs go together.
        (
            "i5:RW i6:BF",
            "i5-i6",
            "i5 i6",
            Outcome::Draw(Draw::WipedOut),
        ),
        // The trade leaves only fire: nothing can ever be removed.
        (
            "i5:RW i6:BF a1:RF q1:BF",
            "i5-i6",
            "i5 i6",
            Outcome::Draw(Draw::NoCapture),
        ),
    ] {
        let mut g = game(2, start);
        let e = g.play(mv(m)).unwrap();
        assert_eq!(e.removed.to_string(), removed, "{start}");
        assert_eq!(e.outcome, Some(outcome), "{start}");
        assert_eq!(g.outcome(), Some(outcome));
        assert_eq!(g.mover(), None);
        assert!(g.legal_moves().is_empty());
    }
    // Three players: one move puts a player out, the game goes on.
    let mut g = game(3, "i5:RF i6:BA m13:GW a1:RW");
    let e = g.play(mv("i5-i6")).unwrap();
    assert_eq!(e.out, [Seat::NW]);
    assert_eq!(e.outcome, None);
    assert_eq!(g.mover(), Some(Seat::NE), "NW is out and skipped");
}

#[test]
fn one_element_left_is_a_draw_but_void_is_not() {
    for (start, drawn) in [
        ("a1:RF q1:BF", true),
        ("a1:RF b1:RF q1:BF", true),
        ("a1:RF q1:BW", false),
        ("a1:RV q1:BV", false),
        ("a1:RF b1:RV q1:BF", false),
    ] {
        let g = game(2, start);
        let want = drawn.then_some(Outcome::Draw(Draw::NoCapture));
        assert_eq!(g.outcome(), want, "{start}");
    }
}

#[test]
fn a_hundred_quiet_moves_draw() {
    let mut g = game(2, "a1:RF q1:BW");
    for i in 0..QUIET_MOVES {
        assert_eq!(g.outcome(), None, "after {i} moves");
        let m = match i % 4 {
            0 => "a1-b1",
            1 => "q1-p1",
            2 => "b1-a1",
            _ => "p1-q1",
        };
        play(&mut g, m);
    }
    assert_eq!(g.quiet_moves(), QUIET_MOVES);
    assert_eq!(g.outcome(), Some(Outcome::Draw(Draw::Quiet)));
    // A removal resets the count.
    let mut g = game(2, "i5:RF i6:BA a1:RW q1:BW");
    play(&mut g, "a1-b1, q1-p1, i5-i6");
    assert_eq!(g.quiet_moves(), 0);
}

#[test]
fn draw_by_agreement() {
    let mut g = game(2, "a1:RF q1:BW");
    assert_eq!(
        g.accept_draw(Seat::N).unwrap_err().to_string(),
        "no draw has been offered"
    );
    assert_eq!(g.offer_draw(Seat::S), Ok(None));
    assert_eq!(
        g.offer_draw(Seat::N).unwrap_err().to_string(),
        "a draw is already offered: accept it or play on"
    );
    assert_eq!(
        g.accept_draw(Seat::S).unwrap_err().to_string(),
        "seat S has already agreed to the draw"
    );
    assert_eq!(
        g.accept_draw(Seat::SW).unwrap_err().to_string(),
        "seat SW does not play in this game"
    );
    assert_eq!(
        g.accept_draw(Seat::N),
        Ok(Some(Outcome::Draw(Draw::Agreed)))
    );
    assert_eq!(g.mover(), None);

    // A move lets the offer lapse.
    let mut g = game(2, "a1:RF q1:BW");
    g.offer_draw(Seat::S).unwrap();
    play(&mut g, "a1-b1");
    assert!(g.draw_agreed().is_empty());
    assert!(g.accept_draw(Seat::N).is_err());

    // Three players: all who still have orbs must agree; a player out has no say.
    let mut g = game(3, "a1:RF q1:BW m13:GA i5:RE i6:BW");
    play(&mut g, "i5-i6");
    assert_eq!(g.offer_draw(Seat::NE), Ok(None));
    assert_eq!(g.accept_draw(Seat::S), Ok(None));
    assert_eq!(g.draw_agreed(), [Seat::S, Seat::NE]);
    assert_eq!(
        g.accept_draw(Seat::NW),
        Ok(Some(Outcome::Draw(Draw::Agreed)))
    );
    let mut g = game(3, "a1:RF m13:GA i5:RF i6:BA");
    play(&mut g, "i5-i6");
    assert_eq!(
        g.accept_draw(Seat::S).unwrap_err().to_string(),
        "no draw has been offered"
    );
    assert_eq!(
        g.offer_draw(Seat::NW).unwrap_err().to_string(),
        "seat NW is out and has no say"
    );
}

#[test]
fn a_pass_hands_the_turn_on_and_counts_as_quiet() {
    let mut g = game(3, "a1:RF m1:GW m13:BW");
    g.offer_draw(Seat::NW).unwrap();
    assert_eq!(g.mover(), Some(Seat::S));
    assert_eq!(g.pass(), Ok(vec![]));
    assert_eq!(g.mover(), Some(Seat::NW));
    assert_eq!(g.quiet_moves(), 1);
    assert!(g.draw_agreed().is_empty(), "a pass lets the offer lapse");
    // Those who cannot move are passed over after it, as after a move.
    let mut g = game(2, "a1:RW p1:RF p2:RF q1:BF");
    play(&mut g, "a1-b1");
    assert_eq!(g.pass(), Ok(vec![Seat::N]));
    assert_eq!(g.mover(), Some(Seat::S));
    // Quiet passes draw like quiet moves.
    let mut g = game(2, "a1:RF q1:BW");
    for _ in 0..QUIET_MOVES {
        g.pass().unwrap();
    }
    assert_eq!(g.outcome(), Some(Outcome::Draw(Draw::Quiet)));
    assert_eq!(g.pass(), Err(orion_orbs::Illegal::GameOver));
}
