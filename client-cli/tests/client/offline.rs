//! The offline command line is a contract other tools rely on (ORION.md section 7): exact
//! output on stdout, one-line errors on stderr with exit status 2.

use crate::common::binary::{orion, stdout};

#[test]
fn apply_replays_the_booklet_binary_star_route() {
    let o = orion(&[
        "apply",
        "--position",
        "E1n:R1",
        "--moves",
        "E1L, D1L (2), C1L (2), B1L, B2L, C2L, C1L, B1L, B2L, C2L, C1L, B1L, B2R, A2R, A1R, B1R, B2R, A2R",
    ]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "A1n:R1");
}

#[test]
fn apply_accepts_the_earlier_servers_notation_and_aliases() {
    // `m` is C3; C3s is the alias of C2n, printed canonically.
    let o = orion(&["apply", "--position", "C3s:B2 C3n:R1", "--moves", "m+m+"]);
    assert_eq!(stdout(&o), "C2n:R1 C3n:B2");
    let o = orion(&["apply", "--position", "C1s:R1", "--moves", "pass"]);
    assert_eq!(stdout(&o), "C1s:R1");
}

#[test]
fn bad_input_is_one_line_on_stderr_with_status_2() {
    for (args, message) in [
        (
            vec!["apply", "--position", "F2n:R1", "--moves", "pass"],
            "orion: --position: unknown slot `F2n`",
        ),
        (
            vec!["apply", "--moves", "C4L, D5L, C6R"],
            "orion: --moves: click 3: `C6R` has no row 6",
        ),
        (
            vec!["analyze", "--game", "chess", "--position", ""],
            "orion: --game: unknown game `chess` (known: auriga, lepus, algol, libra, draco, taurus, hydra-2, hydra-partners, hydra-4, bootes, cassiopeia, cassiopeia-five, orion)",
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
fn analyze_reports_chains_and_orion_captures() {
    let o = orion(&[
        "analyze",
        "--game",
        "hydra-2",
        "--position",
        "C1w:R1 C2w:R2 C3w:R3 C4w:R4 C5w:R5 A1s:B1",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["chains"], serde_json::json!(["R"]));

    let o = orion(&[
        "analyze",
        "--game",
        "orion",
        "--position",
        "A1n:R1 A1e:R2 A1s:B1 E5n:B2",
        "--mover",
        "R",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["chains"], serde_json::json!([]));
    assert_eq!(v["captured"], serde_json::json!(["A1s"]));
}
