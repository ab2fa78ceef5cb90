//! Rule tables for Orbit: positions with the outcome a player would see. The seed's own
//! three examples come first (ORBIT.md "What the seed's examples pin down"), then captures,
//! prohibition, scoring, the opening and the ends.

use orion_orbit::{
    parse_position, Board, CellSet, End, Game, Move, OrbitError, Seat, SetupError, Stone, Turn,
    MAX_DROPS,
};

fn board(text: &str) -> Board {
    parse_position(text).expect("test position parses")
}

fn cells(text: &str) -> CellSet {
    text.split_whitespace()
        .map(|c| c.parse().expect("test cell parses"))
        .collect()
}

fn mv(text: &str) -> Move {
    text.parse().expect("test move parses")
}

fn game(position: &str, to_move: Stone) -> Game {
    Game::from_board(board(position), to_move).expect("test position is a game")
}

/// The seed's diagram, before White drops the two marked stones (a7 and l4). Top left: a
/// white chain from the top side to the left side around a black stone. Left: a white group
/// open at a7 around a black stone. Bottom: a white group open at l4 around two black stones.
const SEED: &str = "d16:W c15:W a14:B b14:W a13:W b13:W a11:W b11:W c10:W a9:B c9:W b8:W \
                    j6:W i5:W k5:W j5:B i4:W i3:W k3:B l3:W j2:W k2:W";

#[test]
fn seed_the_corner_is_no_half_orbit() {
    // "In the top left corner, black is not forbidden to drop": the white stones meet two
    // adjacent sides, and each side is taken alone.
    let g = game(SEED, Stone::Black);
    let corner = cells("a16 b16 c16 a15 b15");
    assert!(!g.prohibited(Stone::Black).intersects(corner));
    for cell in corner {
        let mut after = g.clone();
        assert!(
            after.play(Move::Drop(cell)).is_ok(),
            "black may drop on {cell}"
        );
    }
}

#[test]
fn seed_the_half_orbit_prohibits_without_capturing() {
    let mut g = game(SEED, Stone::White);
    let inside = cells("a10 b10 b9 a8");
    // Before a7 the group is open at the bottom: Black may still drop inside.
    assert!(!g.prohibited(Stone::Black).intersects(inside));
    let effect = g.play(mv("a7")).expect("white drops a7");
    assert_eq!(
        effect.removed,
        CellSet::EMPTY,
        "half-orbits capture nothing"
    );
    assert_eq!(g.board().get("a9".parse().unwrap()), Some(Stone::Black));
    let prohibited = g.prohibited(Stone::Black);
    assert!(inside.iter().all(|c| prohibited.contains(c)));
    assert_eq!(
        g.play(mv("b9")).unwrap_err().to_string(),
        "b9 is prohibited for black: it lies in white's half-orbit"
    );
}

#[test]
fn seed_the_orbit_captures_two() {
    let mut g = game(SEED, Stone::White);
    let effect = g.play(mv("l4")).expect("white drops l4");
    assert_eq!(effect.removed, cells("j5 k3"));
    let inside = cells("j5 j4 k4 j3 k3");
    assert!(g.board().occupied() & inside == CellSet::EMPTY);
    assert!(inside
        .iter()
        .all(|c| g.prohibited(Stone::Black).contains(c)));
    for text in ["pass", "a7", "pass", "pass"] {
        g.play(mv(text)).expect("plays");
    }
    // The whole diagram, scored: the orbit's five cells and the half-orbit's four empty cells
    // are White's; the corner is nobody's.
    assert_eq!(
        g.outcome().map(|o| (o.territory.white, o.territory.black)),
        Some((9, 0))
    );
}

/// (position, colour, cells prohibited for it, cells not prohibited for it)
const PROHIBITION: &[(&str, Stone, &str, &str)] = &[
    // A diamond of four is the smallest orbit.
    ("h9:W g8:W i8:W h7:W", Stone::Black, "h8", "g9 g7 i9 h6"),
    // Three stones close one edge cell with the side: the smallest half-orbit.
    ("a4:W b5:W a6:W", Stone::Black, "a5", "b4 b6 a3 a7"),
    // The same shape against row 16 and column p.
    ("g16:W h15:W i16:W", Stone::Black, "h16", "h14 f16"),
    ("p2:W o3:W p4:W", Stone::Black, "p3", "p1 p5"),
    // Two stones diagonal in a corner enclose the corner cell with two sides: no structure.
    ("a2:W b1:W", Stone::Black, "", "a1"),
    // A row right across the board meets the left and right sides, not one side alone.
    (
        "a8:W b8:W c8:W d8:W e8:W f8:W g8:W h8:W i8:W j8:W k8:W l8:W m8:W n8:W o8:W p8:W",
        Stone::Black,
        "",
        "a1 h1 p16 h9",
    ),
    // A U against the bottom side holds what it opens on.
    (
        "c1:W c2:W c3:W d4:W e4:W f3:W f2:W f1:W",
        Stone::Black,
        "d1 e1 d2 e2 d3 e3",
        "b1 g1 d5",
    ),
    // A structure prohibits only the other colour: White may drop inside its own.
    (
        "h9:W g8:W i8:W h7:W a4:W b5:W a6:W",
        Stone::White,
        "",
        "h8 a5",
    ),
    // Diagonal gaps do not leak: a 4-neighbour flood cannot pass between diagonal stones.
    (
        "h10:B g9:B f8:B g7:B h6:B i7:B j8:B i9:B",
        Stone::White,
        "h9 g8 h8 i8 h7",
        "h11 e8",
    ),
    // Two groups that do not touch make no orbit together.
    ("h9:W g8:W i7:W h7:W", Stone::Black, "", "h8"),
];

#[test]
fn prohibition_table() {
    for &(position, colour, prohibited, allowed) in PROHIBITION {
        let p = board(position).prohibited(colour);
        for cell in cells(prohibited) {
            assert!(
                p.contains(cell),
                "{position}: {cell} should be prohibited for {colour}"
            );
        }
        for cell in cells(allowed) {
            assert!(
                !p.contains(cell),
                "{position}: {cell} should be open to {colour}"
            );
        }
    }
}

/// (position, mover, move, stones removed or the error a player reads)
const PLAYS: &[(&str, Stone, &str, Result<&str, &str>)] = &[
    // Closing an orbit captures what is inside.
    ("h9:W g8:W i8:W h8:B", Stone::White, "h7", Ok("h8")),
    // A drop that closes two regions of one group captures in both.
    (
        "c2:W b3:W c4:W e2:W f3:W e4:W c3:B e3:B",
        Stone::White,
        "d3",
        Ok("c3 e3"),
    ),
    // Capturing a whole enemy orbit frees its region.
    (
        "h9:W g8:W i8:W h7:W h10:B g9:B f8:B g7:B h6:B i7:B j8:B",
        Stone::Black,
        "i9",
        Ok("h9 g8 i8 h7"),
    ),
    // Half-orbits capture nothing; closing one is an ordinary drop.
    ("a4:W b5:W a5:B", Stone::White, "a6", Ok("")),
    // A group enclosing its own stone captures nothing.
    ("h9:W g8:W i8:W h8:W", Stone::White, "h7", Ok("")),
    // Dropping inside one's own structure is legal.
    ("h9:W g8:W i8:W h7:W", Stone::White, "h8", Ok("")),
    (
        "h9:W g8:W i8:W h7:W",
        Stone::Black,
        "h8",
        Err("h8 is prohibited for black: it lies in white's orbit"),
    ),
    (
        "a4:W b5:W a6:W",
        Stone::Black,
        "a5",
        Err("a5 is prohibited for black: it lies in white's half-orbit"),
    ),
    (
        "h8:W",
        Stone::Black,
        "H8",
        Err("h8 already holds a white stone"),
    ),
    (
        "",
        Stone::Black,
        "white",
        Err("there is no colour to choose now: the colours were chosen after the opening"),
    ),
];

#[test]
fn play_table() {
    for &(position, mover, text, expected) in PLAYS {
        let mut g = game(position, mover);
        let before = g.clone();
        let got = g.play(mv(text));
        match expected {
            Ok(removed) => {
                let effect = got.unwrap_or_else(|e| panic!("{position}: {text}: {e}"));
                assert_eq!(effect.removed, cells(removed), "{position}: {text}");
                assert_eq!(effect.colour, mover);
                assert_eq!(g.turn(), Turn::Play(mover.other()));
            }
            Err(message) => {
                assert_eq!(
                    got.map_err(|e| e.to_string()),
                    Err(message.to_string()),
                    "{position}: {text}"
                );
                assert_eq!(g, before, "a refused move changes nothing");
            }
        }
    }
}

#[test]
fn a_broken_structure_stops_prohibiting() {
    // Black closes a ring round White's diamond: the diamond is captured, so h8 is no longer
    // White's; it now lies in Black's orbit.
    let mut g = game(
        "h9:W g8:W i8:W h7:W h10:B g9:B f8:B g7:B h6:B i7:B j8:B",
        Stone::Black,
    );
    assert!(g.prohibited(Stone::Black).contains(mv_cell("h8")));
    g.play(mv("i9")).unwrap();
    assert!(!g.prohibited(Stone::Black).contains(mv_cell("h8")));
    assert!(g.prohibited(Stone::White).contains(mv_cell("h8")));
    g.play(mv("pass")).unwrap();
    g.play(mv("h8")).expect("black may drop in its own orbit");
}

fn mv_cell(text: &str) -> orion_orbit::Cell {
    text.parse().unwrap()
}

/// (position, black territory, white territory)
const SCORES: &[(&str, u32, u32)] = &[
    ("", 0, 0),
    // One orbit cell each way: a draw.
    ("h9:W g8:W i8:W h7:W a4:B b5:B a6:B", 1, 1),
    // Stones in a region are not territory; filling one's own region loses it.
    ("h9:W g8:W i8:W h7:W h8:W", 0, 0),
    // Shared territory: a6 lies in White's half-orbit and in Black's inside it.
    ("a3:W b4:W c5:W c6:W c7:W b8:W a9:W a5:B b6:B a7:B", 0, 4),
    // The seed's orbit after the capture.
    ("j6:W i5:W k5:W i4:W l4:W i3:W l3:W j2:W k2:W", 0, 5),
];

#[test]
fn scoring_table() {
    for &(position, black, white) in SCORES {
        let t = board(position).territory();
        assert_eq!((t.black, t.white), (black, white), "{position}");
    }
}

#[test]
fn the_opening_drops_two_black_then_one_white_and_n_chooses() {
    for (choice, white_seat) in [(Stone::White, Seat::N), (Stone::Black, Seat::S)] {
        let mut g = Game::new();
        assert_eq!(g.seat_to_move(), Some(Seat::S));
        assert!(!g.legal_moves().pass);
        assert_eq!(
            g.play(Move::Pass),
            Err(OrbitError::OpeningPass {
                drop: 1,
                colour: Stone::Black
            })
        );
        for (cell, colour) in [
            ("h8", Stone::Black),
            ("i9", Stone::Black),
            ("j10", Stone::White),
        ] {
            assert_eq!(g.play(mv(cell)).map(|e| e.colour), Ok(colour));
        }
        assert_eq!(g.board().to_string(), "h8:B i9:B j10:W");
        assert_eq!(g.turn(), Turn::Choice);
        assert_eq!(g.seat_to_move(), Some(Seat::N));
        assert_eq!(g.legal_moves().len(), 2);
        assert_eq!(g.play(mv("k11")), Err(OrbitError::MustChoose));
        g.play(Move::Choose(choice)).unwrap();
        assert_eq!(g.holder(choice), Some(Seat::N));
        // White moves first after the opening: Black is a stone ahead.
        assert_eq!(g.turn(), Turn::Play(Stone::White));
        assert_eq!(g.seat_to_move(), Some(white_seat));
        assert_eq!(
            g.play(Move::Choose(Stone::Black)),
            Err(OrbitError::NoChoiceNow)
        );
        g.play(mv("a1")).unwrap();
        assert_eq!(g.board().get(mv_cell("a1")), Some(Stone::White));
        assert_eq!(g.drops(), 4);
    }
}

#[test]
fn two_passes_in_a_row_end_the_game() {
    let mut g = game("h9:W g8:W i8:W h7:W", Stone::Black);
    g.play(Move::Pass).unwrap();
    g.play(mv("a1")).unwrap();
    g.play(Move::Pass).unwrap();
    assert!(
        g.outcome().is_none(),
        "a drop between passes resets the count"
    );
    let effect = g.play(Move::Pass).unwrap();
    let outcome = effect.outcome.expect("the second pass ends the game");
    assert_eq!(outcome.end, End::Passes);
    assert_eq!(outcome.winner, Some(Stone::White));
    assert_eq!(g.turn(), Turn::Over);
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.play(Move::Pass), Err(OrbitError::Over));
}

#[test]
fn the_thousandth_drop_ends_the_game() {
    let mut g = game("a4:B b5:B a6:B", Stone::White).with_drops(MAX_DROPS - 2);
    assert!(g.play(mv("h8")).unwrap().outcome.is_none());
    let outcome = g
        .play(mv("h9"))
        .unwrap()
        .outcome
        .expect("drop 1,000 ends it");
    assert_eq!(outcome.end, End::DropLimit);
    assert_eq!(outcome.winner, Some(Stone::Black));
}

#[test]
fn a_stone_inside_an_enemy_orbit_is_no_game_position() {
    assert_eq!(
        Game::from_board(board("h9:W g8:W i8:W h7:W h8:B"), Stone::Black),
        Err(SetupError::InsideOrbit {
            cell: mv_cell("h8"),
            stone: Stone::Black
        })
    );
    // Inside a half-orbit it can be (the seed's left-side example).
    assert!(Game::from_board(board("a4:W b5:W a6:W a5:B"), Stone::Black).is_ok());
}

#[test]
fn position_strings_read_any_order_and_print_reading_order() {
    assert_eq!(board("e5:W D4:b d5:B").to_string(), "d4:B d5:B e5:W");
    for (text, error) in [
        ("d4:B d4:W", "d4 is named twice"),
        (
            "q4:B",
            "unknown cell `q4` (columns a-p, rows 1-16, like h8)",
        ),
        ("d4:R", "unknown colour `R` (B or W)"),
        ("d4", "malformed entry `d4` (write cell:colour, like d4:B)"),
    ] {
        assert_eq!(
            parse_position(text).unwrap_err().to_string(),
            error,
            "{text}"
        );
    }
    assert_eq!(
        "h".parse::<Move>().unwrap_err().to_string(),
        "`h` is not a move (write a cell like h8, pass, black or white)"
    );
    assert_eq!(mv("PASS"), Move::Pass);
    assert_eq!(mv("Black"), Move::Choose(Stone::Black));
}
