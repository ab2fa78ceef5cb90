//! The offline command line for Orbit (`--game orbit`), run as the binary: exact output on
//! stdout, one-line errors on stderr with exit status 2, and the self-play measurement.

use crate::common::binary::{orion, stdout};

/// The seed's bottom example: a white group open at l4 round two black stones.
const SEED_ORBIT: &str = "j6:W i5:W k5:W j5:B i4:W i3:W k3:B l3:W j2:W k2:W";

#[test]
fn apply_plays_coloured_moves_under_the_rules() {
    for (position, moves, after) in [
        // Closing the orbit captures both black stones.
        (
            SEED_ORBIT,
            "W l4",
            "j2:W k2:W i3:W l3:W i4:W l4:W i5:W k5:W j6:W",
        ),
        // Passes change nothing; the list reads either case and full colour names.
        ("H8:b", "W pass, b G7, white pass", "g7:B h8:B"),
        // No moves: the position, printed in reading order.
        ("e5:W d4:B", "", "d4:B e5:W"),
        // A half-orbit captures nothing.
        ("a4:W b5:W a5:B", "W a6, B h8", "a4:W a5:B b5:W a6:W h8:B"),
    ] {
        let o = orion(&[
            "apply",
            "--game",
            "orbit",
            "--position",
            position,
            "--moves",
            moves,
        ]);
        assert!(
            o.status.success(),
            "{moves}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(stdout(&o), after, "{moves}");
    }
}

#[test]
fn analyze_prints_prohibited_cells_and_territory() {
    let o = orion(&[
        "analyze",
        "--game",
        "orbit",
        "--position",
        "j6:W i5:W k5:W i4:W l4:W i3:W l3:W j2:W k2:W a4:B b5:B a6:B",
    ]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        r#"{"prohibited":{"B":["j3","k3","j4","k4","j5"],"W":["a5"]},"territory":{"B":1,"W":5}}"#
    );
    let o = orion(&["analyze", "--game", "orbit", "--position", ""]);
    assert_eq!(
        stdout(&o),
        r#"{"prohibited":{"B":[],"W":[]},"territory":{"B":0,"W":0}}"#
    );
}

#[test]
fn bad_orbit_input_is_one_line_on_stderr_with_status_2() {
    let apply = |position: &'static str, moves: &'static str| {
        vec![
            "apply",
            "--game",
            "orbit",
            "--position",
            position,
            "--moves",
            moves,
        ]
    };
    for (args, message) in [
        (
            apply(SEED_ORBIT, "W l4, B j4"),
            "orion: --moves: move 2 `B j4`: j4 is prohibited for black: it lies in white's orbit",
        ),
        (
            apply("a4:W b5:W a6:W", "B a5"),
            "orion: --moves: move 1 `B a5`: a5 is prohibited for black: it lies in white's half-orbit",
        ),
        (
            apply("", "B h8, B h9"),
            "orion: --moves: move 2 `B h9`: it is white's turn",
        ),
        (
            apply("h8:W", "B h8"),
            "orion: --moves: move 1 `B h8`: h8 already holds a white stone",
        ),
        (
            apply("", "B pass, W pass, B h8"),
            "orion: --moves: move 3 `B h8`: the game is over",
        ),
        (
            apply("", "B black"),
            "orion: --moves: move 1 `B black`: there is no colour to choose now: the colours were chosen after the opening",
        ),
        (
            apply("", "R h8"),
            "orion: --moves: move 1 `R h8`: unknown colour `R` (B or W)",
        ),
        (
            apply("", "h8"),
            "orion: --moves: move 1 `h8`: write a colour and a move, like `B h8` or `W pass`",
        ),
        (
            apply("", "B q9"),
            "orion: --moves: move 1 `B q9`: `q9` is not a move (write a cell like h8, pass, black or white)",
        ),
        (
            apply("d4:B d4:W", "B h8"),
            "orion: --position: d4 is named twice",
        ),
        (
            apply("h9:W g8:W i8:W h7:W h8:B", "B a1"),
            "orion: --position: h8 holds a black stone inside a white orbit: that cannot happen in a game",
        ),
        (
            vec!["analyze", "--game", "orbit", "--position", "z1:B"],
            "orion: --position: unknown cell `z1` (columns a-p, rows 1-16, like h8)",
        ),
        (
            vec!["analyze", "--game", "orbit", "--position", "", "--mover", "B"],
            "orion: --mover: Orbit's analysis is the same for both colours; drop --mover",
        ),
    ] {
        let o = orion(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end(), message);
        assert_eq!(err.lines().count(), 1);
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn apply_without_game_keeps_orion_mechanics() {
    let o = orion(&["apply", "--position", "C1s:R1", "--moves", "pass"]);
    assert_eq!(stdout(&o), "C1s:R1");
}

#[test]
fn greedy_beats_random_at_orbit() {
    // A smaller sample than the 60-game measurement, with a fixed seed: greedy plays S (the
    // opening) in even games and N (the choice) in odd ones.
    let o = orion(&[
        "bot",
        "--selfplay",
        "20",
        "--game",
        "orbit",
        "--level",
        "greedy",
        "--against",
        "random",
        "--seed",
        "5",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON line");
    assert_eq!(v["game"], "orbit");
    assert_eq!(v["games"], 20);
    let greedy = v["greedy"].as_u64().expect("greedy's wins");
    assert!(greedy >= 18, "greedy won only {greedy} of 20: {v}");
}
