//! The board and the screens drawn on fixed positions, compared with golden text files in
//! `tests/golden/`. After a deliberate change of the drawing, regenerate them with
//! `UPDATE_GOLDEN=1 cargo test -p orion-cli --test client screens::` and review the diff.

use orion_cli::net::NetEvent;
use orion_cli::systems::orion::board::{self, Board};
use orion_cli::tui::app::{App, Key};
use orion_engine::{games, parse_click, parse_position, parse_slot, Game, Options, SlotSet};
use orion_protocol::Request;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::path::PathBuf;

fn golden(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing {}: run with UPDATE_GOLDEN=1", path.display()));
    assert_eq!(actual, expected, "{name} differs from the golden file");
}

#[test]
fn the_empty_board() {
    golden("empty.txt", &board::to_text(Board::default()));
}

#[test]
fn hydra_for_two_at_the_start() {
    let rules = games::find("hydra-2").unwrap();
    let game = Game::new(rules, Options::default(), 1).unwrap();
    let text = board::to_text(Board {
        position: *game.position(),
        ..Board::default()
    });
    // Sixteen of each colour, numbers and all.
    assert!(text.contains("R16") && text.contains("B16"));
    golden("hydra-2-start.txt", &text);
}

#[test]
fn an_orion_position_with_the_last_click_cursor_and_eligible_slots() {
    let position = parse_position("A1n:R1 B2e:R12 C3n:B7 E5n:Y20 A3w:G3 E1e:B2").unwrap();
    let eligible: SlotSet = ["C2n", "D4e"]
        .iter()
        .map(|s| parse_slot(s).unwrap())
        .collect();
    let text = board::to_text(Board {
        position,
        cursor: Some(parse_click("B4R").unwrap().rotor),
        last_click: Some(parse_click("C3L").unwrap()),
        eligible,
        picked: None,
    });
    golden("orion-marks.txt", &text);
}

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| app.draw(f)).unwrap();
    let buf = term.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..h {
        let mut row = String::new();
        for x in 0..w {
            row.push_str(buf[(x, y)].symbol());
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

fn msg(text: &str) -> NetEvent {
    orion_cli::net::read(text)
}

#[test]
fn the_game_screen_follows_events_and_shows_errors_in_words() {
    let mut app = App::new("ann", 1_000);
    app.on_net(NetEvent::Welcome {
        player: "p1".into(),
        rooms: vec![],
        again: false,
    });
    assert_eq!(
        app.out.drain(..).collect::<Vec<_>>(),
        vec![Request::Lobby {
            watch: Some(true),
            after: None
        }]
    );
    app.on_net(msg(r#"{"t":"joined","room":"r1","seat":"S"}"#));
    app.on_net(msg(
        r#"{"t":"snapshot","room":"r1","seq":3,"game":"hydra-2","options":{},"status":"playing",
            "seats":{"S":{"player":"p1","name":"ann","colour":"R","connected":true},
                     "N":{"player":"p2","name":"bob","colour":"B","connected":true}},
            "spectators":1,"position":"C1s:R1 C1n:R2 C5n:B1","turn":{"seat":"S","clicks":1,"used":0,"round":1},
            "scores":{"S":0,"N":0},"claims":[]}"#,
    ));
    // Our click goes out as a request; its event comes back and moves the piece.
    app.on_key(Key::Char(']'));
    assert_eq!(
        app.out.drain(..).collect::<Vec<_>>(),
        vec![Request::Click {
            room: "r1".into(),
            click: "C3R".into(),
            piece: None
        }]
    );
    app.on_net(msg(
        r#"{"t":"event","room":"r1","seq":4,"ev":{"kind":"click","seat":"S","click":"C1R","position":"C1e:R2 C1w:R1 C5n:B1"}}"#,
    ));
    app.on_net(msg(
        r#"{"t":"event","room":"r1","seq":5,"ev":{"kind":"turn","seat":"N","clicks":1,"round":1}}"#,
    ));
    app.on_net(msg(
        r#"{"t":"event","room":"r1","seq":6,"ev":{"kind":"chat","seat":"N","name":"bob","text":"nice"}}"#,
    ));
    app.on_net(msg(
        r#"{"t":"error","code":"not_your_turn","message":"it is N's turn"}"#,
    ));
    app.tick(1_000);
    let text = screen(&app, 100, 30);
    assert!(text.contains("bob to move"), "{text}");
    assert!(text.contains("it is N's turn"), "{text}");
    golden("game-screen.txt", &text);
}

#[test]
fn other_players_clicks_animate_one_at_a_time() {
    let mut app = App::new("ann", 0);
    app.on_net(msg(r#"{"t":"joined","room":"r1","seat":"S"}"#));
    app.on_net(msg(
        r#"{"t":"snapshot","room":"r1","seq":1,"game":"hydra-2","options":{},"status":"playing","seats":{"S":null,"N":null},
            "spectators":0,"position":"C1s:B1","turn":{"seat":"N","clicks":3,"used":0,"round":3},
            "scores":{"S":0,"N":0},"claims":[]}"#,
    ));
    for (seq, click, pos) in [(2, "C1R", "C1w:B1"), (3, "C1R", "C1n:B1")] {
        app.on_net(msg(&format!(
            r#"{{"t":"event","room":"r1","seq":{seq},"ev":{{"kind":"click","seat":"N","click":"{click}","position":"{pos}"}}}}"#
        )));
    }
    let room = app.room.as_ref().unwrap();
    assert_eq!(
        parse_position(&room.position()).unwrap(),
        parse_position("C1w:B1").unwrap(),
        "the second click waits"
    );
    app.tick(1_000);
    let room = app.room.as_ref().unwrap();
    assert_eq!(
        parse_position(&room.position()).unwrap(),
        parse_position("C1n:B1").unwrap(),
        "then it is shown"
    );
}

#[test]
fn the_lobby_lists_rooms_and_joins_the_selected_one() {
    let mut app = App::new("ann", 0);
    app.on_net(msg(
        r#"{"t":"lobby","rooms":[{"room":"r1","game":"hydra-2","status":"playing","seats":{"S":"ann","N":"bob"},"spectators":2,"options":{}},
                                {"room":"r2","game":"orion","status":"waiting","seats":{"S":"cy","W":null,"N":null},"spectators":0,"options":{}}]}"#,
    ));
    app.on_key(Key::Down);
    app.on_key(Key::Enter);
    assert_eq!(
        app.out.drain(..).collect::<Vec<_>>(),
        vec![Request::Join {
            room: Some("r2".into()),
            code: None,
            seat: None
        }]
    );
    golden("lobby.txt", &screen(&app, 100, 16));
}

#[test]
fn nothing_the_server_sends_crashes_the_screen() {
    let weird = [
        r#"{"t":"event","room":"r1","seq":1,"ev":{"kind":"click","seat":"Q","click":"Z9X","position":"garbage"}}"#,
        r#"{"t":"snapshot","room":"r1","seq":18446744073709551615,"game":"chess","status":"??","seats":{"X":5},"position":"A1n:R1 A1n:R2","turn":{"seat":7,"clicks":300,"used":999,"round":-1}}"#,
        r#"{"t":"event","room":"r1","seq":2,"ev":{"kind":"turn","seat":"S","clicks":255,"round":4294967296}}"#,
        r#"{"t":"event","room":"r1","seq":3,"ev":{"kind":"capture","seat":"S","slots":["nowhere",1],"points":18446744073709551615}}"#,
        r#"{"t":"event","room":"r1","seq":4,"ev":{"kind":"chain","colour":"R","claim_until":18446744073709551615}}"#,
        r#"{"t":"event","room":"r1","seq":5,"ev":{"kind":"over","result":{"winner":"S+Q+","scores":{"S":"x"}}}}"#,
        r#"{"t":"event","room":"r1","seq":6,"ev":{"kind":"chat","seat":null,"name":"","text":"\u0000\u001b[2J"}}"#,
        r#"{"t":"lobby","rooms":[{"room":"","seats":{"S":null,"Z":"x"}},7]}"#,
        r#"{"t":"error"}"#,
        "not json at all",
        r#"{"t":"joined","room":"r2","seat":"nobody"}"#,
    ];
    let mut app = App::new("ann", 0);
    app.on_net(msg(r#"{"t":"joined","room":"r1","seat":"S"}"#));
    for (i, text) in weird.iter().enumerate() {
        app.on_net(msg(text));
        app.tick(i as u64 * 1_000);
        for (w, h) in [(100, 30), (20, 5), (1, 1)] {
            let _ = screen(&app, w, h);
        }
    }
}

#[test]
fn a_puzzle_room_shows_clicks_used_against_the_target_and_refusals_in_words() {
    let aquila = orion_engine::puzzles::find("aquila").unwrap();
    let start = orion_engine::position_string(&aquila.start);
    let mut app = App::new("eve", 1_000);
    app.on_net(msg(r#"{"t":"joined","room":"r9","seat":"S"}"#));
    app.on_net(msg(&format!(
        r#"{{"t":"snapshot","room":"r9","seq":2,"game":"aquila","options":{{}},"status":"playing",
            "seats":{{"S":{{"player":"p1","name":"eve","colour":"R","connected":true}}}},
            "spectators":1,"position":"{start}",
            "turn":{{"seat":"S","clicks":null,"used":0,"round":1,"target":24}},"scores":{{"S":0}},"claims":[]}}"#
    )));
    let mut position = aquila.start;
    for (seq, click) in [(3, "C1L"), (4, "E1R")] {
        position.click(parse_click(click).unwrap());
        let pos = orion_engine::position_string(&position);
        app.on_net(msg(&format!(
            r#"{{"t":"event","room":"r9","seq":{seq},"ev":{{"kind":"click","seat":"S","click":"{click}","position":"{pos}"}}}}"#
        )));
    }
    app.on_net(msg(
        r#"{"t":"error","code":"illegal","message":"rotor A3 holds no red piece"}"#,
    ));
    app.tick(1_000);
    let text = screen(&app, 100, 30);
    assert!(text.contains("Aquila (The Eagle)"), "{text}");
    assert!(text.contains("YOU · 2 clicks used · target 24"), "{text}");
    assert!(text.contains("rotor A3 holds no red piece"), "{text}");
    golden("puzzle-screen.txt", &text);
    // The finish: solved, in how many clicks, against the target.
    app.on_net(msg(
        r#"{"t":"event","room":"r9","seq":5,"ev":{"kind":"over","result":{"winner":"S","scores":{"S":2}}}}"#,
    ));
    let text = screen(&app, 100, 30);
    assert!(text.contains("solved in 2 clicks (target 24)"), "{text}");
}

#[test]
fn a_spectator_follows_the_telepathy_test_and_sees_each_chain_after_its_try() {
    let chains = orion_engine::puzzles::valid_chains();
    let mut app = App::new("sam", 0);
    app.watch("r5");
    app.on_net(msg(
        r#"{"t":"snapshot","room":"r5","seq":2,"game":"aquarius","options":{},"status":"playing",
            "seats":{"S":{"player":"p1","name":"seer","colour":"R","connected":true}},"spectators":0,
            "position":"","turn":{"seat":"S","clicks":null,"used":0,"round":1,"target":5},"scores":{"S":0},
            "claims":[]}"#,
    ));
    let room = app.room.as_ref().unwrap();
    assert!(
        parse_position(&room.position())
            .unwrap()
            .occupied()
            .is_empty(),
        "no chain before a try"
    );
    for (i, (click, hit)) in [("C3R", true), ("A1L", false)].iter().enumerate() {
        let chain: Vec<String> = chains[i * 100]
            .into_iter()
            .map(|s| format!("\"{s}\""))
            .collect();
        app.on_net(msg(&format!(
            r#"{{"t":"event","room":"r5","seq":{},"ev":{{"kind":"try","seat":"S","click":"{click}","hit":{hit},"chain":[{}],"tries":{},"hits":1}}}}"#,
            i + 3,
            chain.join(","),
            i + 1
        )));
    }
    let room = app.room.as_ref().unwrap();
    assert_eq!(
        parse_position(&room.position()).unwrap().occupied(),
        chains[100],
        "the last chain, shown after its try"
    );
    let text = screen(&app, 100, 30);
    assert!(text.contains("seer · try 3 of 5 · hits: 1"), "{text}");
    assert!(text.contains("try 1: C3R · a hit"), "{text}");
    golden("aquarius-watch.txt", &text);
    app.on_net(msg(
        r#"{"t":"event","room":"r5","seq":5,"ev":{"kind":"over","result":{"winner":null,"scores":{"S":1}}}}"#,
    ));
    let text = screen(&app, 100, 30);
    assert!(text.contains("the test is over: 1 hits of 5"), "{text}");
}

#[test]
fn the_lobby_lists_the_puzzles_and_creates_one() {
    let mut app = App::new("ann", 0);
    app.on_net(msg(
        r#"{"t":"lobby","rooms":[{"room":"r3","game":"aquila","status":"playing","seats":{"S":"eve"},"spectators":1,"options":{}}]}"#,
    ));
    let text = screen(&app, 100, 26);
    assert!(text.contains("puzzles (alone): create PUZZLE"), "{text}");
    assert!(text.contains("aquarius"), "{text}");
    golden("lobby-puzzles.txt", &text);
    for c in "create aquila".chars() {
        app.on_key(Key::Char(c));
    }
    app.on_key(Key::Enter);
    assert_eq!(
        app.out.drain(..).collect::<Vec<_>>(),
        vec![Request::Create {
            game: "aquila".into(),
            options: None,
            private: Some(false),
            seat: None,
        }]
    );
    // The room of one is full: Enter on it watches.
    app.on_key(Key::Enter);
    assert_eq!(
        app.out.drain(..).collect::<Vec<_>>(),
        vec![Request::Spectate {
            room: "r3".into(),
            quiet: false
        }]
    );
}

#[test]
fn an_orbit_room_shows_the_grid_the_last_drop_prohibited_cells_and_territory() {
    let mut app = App::new("ann", 1_000);
    app.on_net(msg(r#"{"t":"joined","room":"r7","seat":"S"}"#));
    // Mid-game: S plays black, N white; white's group round j5 encloses it.
    app.on_net(msg(
        r#"{"t":"snapshot","room":"r7","seq":12,"game":"orbit","options":{"players":2},"status":"playing",
            "seats":{"S":{"player":"p1","name":"ann","colour":"B","connected":true},
                     "N":{"player":"p2","name":"bob","colour":"W","connected":true}},
            "spectators":2,"position":"d4:B j6:W i5:W k5:W j5:B i4:W i3:W k3:B l3:W j2:W k2:W",
            "turn":{"seat":"N","clicks":null,"used":0,"round":12,"phase":"play","colour":"W","prohibited":[]},
            "scores":{"S":0,"N":0},"claims":[],"prohibited":{"B":[],"W":[]},"territory":{"B":0,"W":0}}"#,
    ));
    // White closes the orbit at l4: two black stones are captured.
    app.on_net(msg(
        r#"{"t":"event","room":"r7","seq":13,"ev":{"kind":"move","seat":"N","move":"l4","colour":"W",
            "position":"j2:W k2:W i3:W l3:W d4:B i4:W l4:W i5:W k5:W j6:W","removed":["k3","j5"]}}"#,
    ));
    app.on_net(msg(
        r#"{"t":"event","room":"r7","seq":14,"ev":{"kind":"turn","seat":"S","clicks":null,"used":0,"round":14,"phase":"play","colour":"B","prohibited":["j3","j4","j5","k3","k4"]}}"#,
    ));
    app.tick(1_000);
    let room = app.room.as_ref().expect("an Orbit room");
    assert_eq!(room.resyncs(), 0, "the copy followed the move");
    let text = screen(&app, 100, 30);
    assert!(text.contains("YOUR TURN"), "{text}");
    assert!(text.contains("bob: l4 · captures k3 j5"), "{text}");
    assert!(text.contains("[○]"), "the last drop: {text}");
    assert!(text.contains("× no drop for black"), "{text}");
    golden("orbit-room.txt", &text);
    // Moves in the spec's notation become `move` requests; a bad cell is said in words.
    for line in ["j4", "pass", "q9"] {
        for c in line.chars() {
            app.on_key(Key::Char(c));
        }
        app.on_key(Key::Enter);
    }
    assert_eq!(
        app.out.drain(..).collect::<Vec<_>>(),
        vec![
            Request::Move {
                room: "r7".into(),
                mv: "j4".into()
            },
            Request::Move {
                room: "r7".into(),
                mv: "pass".into()
            },
        ]
    );
    assert!(
        app.message
            .as_ref()
            .is_some_and(|(m, err)| *err && m.contains("q9")),
        "{:?}",
        app.message
    );
    // The ORION keys do nothing here: no clicks go out.
    app.on_key(Key::Char(']'));
    assert!(app.out.is_empty());
}

#[test]
fn the_orbit_opening_and_the_choice_of_colour() {
    let mut app = App::new("bob", 0);
    app.on_net(msg(r#"{"t":"joined","room":"r8","seat":"N"}"#));
    app.on_net(msg(
        r#"{"t":"snapshot","room":"r8","seq":4,"game":"orbit","options":{"players":2},"status":"playing",
            "seats":{"S":{"player":"p1","name":"ann","colour":"","connected":true},
                     "N":{"player":"p2","name":"bob","colour":"","connected":true}},
            "spectators":0,"position":"h8:B i9:B",
            "turn":{"seat":"S","clicks":null,"used":0,"round":3,"phase":"opening","colour":"W","drop":3,"prohibited":[]},
            "scores":{"S":0,"N":0},"claims":[]}"#,
    ));
    let text = screen(&app, 100, 30);
    assert!(
        text.contains("opening: S drops stone 3 of 3 (white)"),
        "{text}"
    );
    app.on_net(msg(
        r#"{"t":"event","room":"r8","seq":5,"ev":{"kind":"move","seat":"S","move":"g7","colour":"W","position":"g7:W h8:B i9:B","removed":[]}}"#,
    ));
    app.on_net(msg(
        r#"{"t":"event","room":"r8","seq":6,"ev":{"kind":"turn","seat":"N","clicks":null,"used":0,"round":4,"phase":"choice"}}"#,
    ));
    let text = screen(&app, 100, 30);
    assert!(
        text.contains("N chooses a colour: black or white"),
        "{text}"
    );
    for c in "white".chars() {
        app.on_key(Key::Char(c));
    }
    app.on_key(Key::Enter);
    assert_eq!(
        app.out.drain(..).collect::<Vec<_>>(),
        vec![Request::Move {
            room: "r8".into(),
            mv: "white".into()
        }]
    );
    app.on_net(msg(
        r#"{"t":"event","room":"r8","seq":7,"ev":{"kind":"move","seat":"N","move":"white","colour":"W","position":"g7:W h8:B i9:B","removed":[]}}"#,
    ));
    app.on_net(msg(
        r#"{"t":"event","room":"r8","seq":8,"ev":{"kind":"turn","seat":"N","clicks":null,"used":0,"round":5,"phase":"play","colour":"W","prohibited":[]}}"#,
    ));
    let text = screen(&app, 100, 30);
    assert!(text.contains("you play N (white)"), "{text}");
    assert!(text.contains("white to drop"), "{text}");
    assert!(text.contains("bob chooses white"), "{text}");
    assert_eq!(app.room.as_ref().map(|r| r.resyncs()), Some(0));
}

#[test]
fn an_orbs_room_shows_the_star_the_last_move_who_is_out_and_a_draw_offer() {
    let mut app = App::new("cy", 2_000);
    app.watch("r9");
    app.on_net(msg(
        r#"{"t":"snapshot","room":"r9","seq":30,"game":"orbs","options":{"opening":"position","position":null,"void":false,"holes":["i5"],"teams":false,"players":3},"status":"playing",
            "seats":{"S":{"player":"p1","name":"ann","colour":"R","connected":true},
                     "NW":{"player":"p2","name":"bob","colour":"B","connected":true},
                     "NE":{"player":"p3","name":"cy","colour":"G","connected":false}},
            "spectators":1,"position":"a1:RW b1:RA e5:RE i6:RF j6:GA k2:BF k3:BW l1:BA",
            "turn":{"seat":"S","clicks":null,"used":0,"round":30},
            "scores":{"S":4,"NW":3,"NE":1},"claims":[],"out":[],"draw":null}"#,
    ));
    // Red fire burns green's last orb, air, and takes its hole: NE is out. Then blue
    // offers a draw.
    app.on_net(msg(
        r#"{"t":"event","room":"r9","seq":31,"ev":{"kind":"move","seat":"S","move":"i6-j6","position":"a1:RW b1:RA e5:RE j6:RF k2:BF k3:BW l1:BA","removed":["j6"],"out":["NE"]}}"#,
    ));
    app.on_net(msg(
        r#"{"t":"event","room":"r9","seq":32,"ev":{"kind":"turn","seat":"NW","clicks":null,"used":0,"round":31}}"#,
    ));
    app.on_net(msg(
        r#"{"t":"event","room":"r9","seq":33,"ev":{"kind":"draw","seat":"NW","accept":false,"agreed":["NW"]}}"#,
    ));
    app.tick(2_000);
    let room = app.room.as_ref().expect("an Orbs room");
    assert_eq!(room.resyncs(), 0, "the copy followed the move");
    let text = screen(&app, 100, 30);
    assert!(text.contains("RF*"), "the last move: {text}");
    assert!(text.contains("cy (away)  OUT"), "{text}");
    assert!(text.contains("ann: i6-j6 · removes j6"), "{text}");
    assert!(text.contains("draw offered · agreed: NW"), "{text}");
    assert!(text.contains("░░"), "a hole out of play: {text}");
    golden("orbs-room.txt", &text);
}

#[test]
fn a_finished_room_lists_games_exports_and_offers_a_rematch_from_typed_commands() {
    let mut app = App::new("ann", 0);
    app.on_net(msg(r#"{"t":"joined","room":"r1","seat":"S"}"#));
    app.on_net(msg(
        r#"{"t":"snapshot","room":"r1","seq":9,"game":"hydra-2","options":{},"status":"finished",
            "seats":{"S":{"player":"p1","name":"ann","colour":"R","connected":true},
                     "N":{"player":"p2","name":"bob","colour":"B","connected":true}},
            "spectators":0,"position":"C1s:R1 C5n:B1","turn":{"seat":"S","clicks":1,"used":0,"round":9},
            "scores":{"S":0,"N":0},"claims":[],"result":{"winner":"S","scores":{"S":0,"N":0}}}"#,
    ));
    let typed = |app: &mut App, line: &str| {
        for c in line.chars() {
            app.on_key(Key::Char(c));
        }
        app.on_key(Key::Enter);
        app.out.drain(..).collect::<Vec<_>>()
    };
    assert_eq!(
        typed(&mut app, "rematch"),
        vec![Request::Rematch {
            room: "r1".into(),
            accept: Some(true)
        }]
    );
    assert_eq!(
        typed(&mut app, "rematch no"),
        vec![Request::Rematch {
            room: "r1".into(),
            accept: Some(false)
        }]
    );
    // Before a welcome only the name is known; after it one's own games go by player id,
    // and a name typed goes by name.
    assert_eq!(
        typed(&mut app, "games"),
        vec![Request::Games {
            player_id: None,
            player_name: Some("ann".into()),
            player: None,
            game: None,
            before: None
        }]
    );
    app.on_net(NetEvent::Welcome {
        player: "p1a2b3c4d".into(),
        rooms: vec![],
        again: true,
    });
    app.out.clear();
    assert_eq!(
        typed(&mut app, "games"),
        vec![Request::Games {
            player_id: Some("p1a2b3c4d".into()),
            player_name: None,
            player: None,
            game: None,
            before: None
        }]
    );
    assert_eq!(
        typed(&mut app, "games bob game=orion before=r7"),
        vec![Request::Games {
            player_id: None,
            player_name: Some("bob".into()),
            player: None,
            game: Some("orion".into()),
            before: Some("r7".into())
        }]
    );
    assert_eq!(typed(&mut app, "logout all"), vec![Request::LogoutAll]);
    assert_eq!(
        typed(&mut app, "export r1"),
        vec![Request::Export {
            room: "r1".into(),
            code: None
        }]
    );
    assert!(typed(&mut app, "games ann game=chess").is_empty());
    app.on_net(msg(
        r#"{"t":"games","player":"ann","more":true,"games":[
            {"room":"r1","game":"hydra-2","ended":1800000000000,"seats":{"S":"ann","N":"bob"},"winner":"S"}]}"#,
    ));
    app.on_net(msg(
        r#"{"t":"event","room":"r1","seq":10,"ev":{"kind":"rematch","seat":"N","accept":true,"agreed":["N"]}}"#,
    ));
    app.tick(1_000);
    let text = screen(&app, 100, 30);
    assert!(
        text.contains("r1 hydra-2 · S ann, N bob · won by S"),
        "{text}"
    );
    assert!(text.contains("more: games ann before=r1"), "{text}");
    assert!(text.contains("bob offers a rematch"), "{text}");
}

#[test]
fn the_lobby_shows_ratings_and_a_leaderboard_asked_for_with_top() {
    let mut app = App::new("ann", 0);
    app.on_net(msg(
        r#"{"t":"lobby","rooms":[{"room":"r1","game":"hydra-2","status":"playing","seats":{"S":"ann","N":"bob"},"spectators":0,"options":{},"ratings":{"S":1532,"N":1468}}]}"#,
    ));
    for c in "top hydra-2".chars() {
        app.on_key(Key::Char(c));
    }
    app.on_key(Key::Enter);
    assert_eq!(
        app.out.drain(..).collect::<Vec<_>>(),
        vec![Request::Leaderboard {
            game: "hydra-2".into(),
            after: None
        }]
    );
    app.on_net(msg(
        r#"{"t":"leaderboard","game":"hydra-2","total":51,"more":true,
            "entries":[{"rank":1,"name":"ann","player":"p1","rating":1532,"games":3},
                       {"rank":2,"name":"bob","player":"p2","rating":1468,"games":3}],
            "you":{"rank":1,"name":"ann","player":"p1","rating":1532,"games":3}}"#,
    ));
    let text = screen(&app, 110, 16);
    assert!(text.contains("S:ann(1532) N:bob(1468)"), "{text}");
    assert!(text.contains("  1 ann         1532 ×3"), "{text}");
    assert!(text.contains("  2 bob         1468 ×3"), "{text}");
    assert!(text.contains("you: 1 ann"), "{text}");
    assert!(text.contains("more: top hydra-2 2"), "{text}");
    // A puzzle's board: clicks, the date first reached, the booklet's count and the optimum.
    app.on_net(msg(
        r#"{"t":"leaderboard","game":"aquila","total":1,"more":false,"target":24,"optimum":24,
            "entries":[{"rank":1,"name":"eagle","player":"p3","clicks":24,"at":1800000000000}]}"#,
    ));
    let text = screen(&app, 110, 16);
    assert!(text.contains("booklet 24 · optimum 24 (clicks)"), "{text}");
    assert!(text.contains("  1 eagle       24 2027-01-15"), "{text}");
}

#[test]
fn the_lobby_shows_who_waits_for_a_quick_match_and_cancel_stops_waiting() {
    let mut app = App::new("ann", 0);
    app.on_net(msg(
        r#"{"t":"lobby","rooms":[],"waiting":[{"game":"hydra-2","players":2,"count":1}]}"#,
    ));
    let text = screen(&app, 100, 26);
    assert!(
        text.contains("1 waiting for hydra-2 (2)") && text.contains("play them: quick hydra-2 2"),
        "{text}"
    );
    for c in "quick hydra-2".chars() {
        app.on_key(Key::Char(c));
    }
    app.on_key(Key::Enter);
    app.out.clear();
    app.on_net(msg(r#"{"t":"queued","game":"hydra-2","players":2}"#));
    let text = screen(&app, 100, 26);
    assert!(text.contains("waiting for a match · cancel"), "{text}");
    for c in "cancel".chars() {
        app.on_key(Key::Char(c));
    }
    app.on_key(Key::Enter);
    assert_eq!(
        app.out.drain(..).collect::<Vec<_>>(),
        vec![Request::Unqueue]
    );
    app.on_net(msg(r#"{"t":"unqueued"}"#));
    let text = screen(&app, 100, 26);
    assert!(!text.contains("waiting for a match · cancel"), "{text}");
    assert!(text.contains("no longer looking for players"), "{text}");
}
