//! `orion apply --game orbs` and `orion bot --selfplay N --game orbs` as other tools see
//! them: one line on stdout; bad input one line on stderr with exit status 2.

use crate::common::binary::{orion, stdout};
use std::process::Output;

fn apply(extra: &[&str], moves: &str) -> Output {
    let mut args = vec!["apply", "--game", "orbs"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--moves", moves]);
    orion(&args)
}

#[test]
fn apply_plays_orbs_moves_and_prints_the_position() {
    for (extra, moves, want) in [
        // The classic opening when no position is given; red (S) first.
        (
            vec!["--players", "2"],
            "R d1-e5, B n1-m6",
            "a1:RW b1:RA b2:RA c1:RE c2:RF c3:RE d2:RW d3:RW d4:RF e5:RF \
             m6:BF n2:BW n3:BW n4:BF o1:BE o2:BF o3:BE p1:BA p2:BA q1:BW",
        ),
        // Fire burns air and takes its hole.
        (
            vec!["--position", "d2:RF e7:BA a1:RW q1:BW"],
            "R d2-e7, B q1-p1",
            "a1:RW e7:RF p1:BW",
        ),
        // Air onto fire: the mover burns; from a position the first move's colour starts.
        (
            vec!["--position", "i5:RA i6:BF a1:RW q1:BW"],
            "B q1-p1, R i5-i6",
            "a1:RW i6:BF p1:BW",
        ),
        // Blue is walled in and passes: red moves twice.
        (
            vec!["--position", "a1:RW p1:RF p2:RF q1:BF"],
            "R a1-b1, R b1-a1",
            "a1:RW p1:RF p2:RF q1:BF",
        ),
        // Three players: S red, NW blue, NE green.
        (
            vec!["--players", "3"],
            "R d1-e5, B j1-i1, G j10-i9",
            "a1:RW b1:RA b2:RA c1:RE c2:RF c3:RE d2:RW d3:RW d4:RF e5:RF i1:BF i9:GF \
             k1:BE k2:BW k10:GW k11:GE l1:BA l2:BF l3:BW l10:GW l11:GF l12:GA m1:BW m2:BA \
             m3:BE m4:BF m10:GF m11:GE m12:GA m13:GW",
        ),
    ] {
        let o = apply(&extra, moves);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{moves}: {err}");
        assert_eq!(stdout(&o), want, "{moves}");
        assert_eq!(stdout(&o).lines().count(), 1);
    }
}

#[test]
fn teams_make_partners_orbs_untouchable() {
    let position = "i5:RF i6:GW e1:RW m1:BE m13:GW e13:YA";
    let o = apply(&["--players", "4", "--position", position], "R i5-i6");
    assert_eq!(stdout(&o), "e1:RW e13:YA m1:BE m13:GW");
    let o = apply(
        &["--players", "4", "--teams", "--position", position],
        "R i5-i6",
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim_end(),
        "orion: --moves: move 1, R i5-i6: i6 holds your partner's orb"
    );
}

#[test]
fn bad_orbs_input_is_one_line_on_stderr_with_status_2() {
    let p = "d2:RF e6:BF a1:RW q1:BW";
    for (args, message) in [
        (
            vec!["--position", p, "--moves", "R d2-e6"],
            "orion: --moves: move 1, R d2-e6: your fire orb cannot take a fire orb",
        ),
        (
            vec!["--position", p, "--moves", "R a1-b1, R b1-c1"],
            "orion: --moves: move 2, R b1-c1: it is blue's turn",
        ),
        (
            vec!["--moves", "R d1-e7"],
            "orion: --moves: move 1, R d1-e7: e7 is not next to d1",
        ),
        (
            vec!["--moves", "G d1-e5"],
            "orion: --moves: move 1: green does not play with 2 players",
        ),
        (
            vec!["--moves", "R d1-e5, X n1-m6"],
            "orion: --moves: move 2: unknown colour `X` (R, B, G, Y, O or P)",
        ),
        (
            vec!["--moves", "d1-e5"],
            "orion: --moves: move 1: `d1-e5` is not a colour and a move (e.g. `R d2-e6`)",
        ),
        (
            vec!["--moves", "R d1-e14"],
            "orion: --moves: move 1: `d1-e14`: unknown hole `e14` (rows a to q, places from 1, e.g. `d2`, `i5`)",
        ),
        (
            vec!["--position", "a1:RX", "--moves", "R a1-b1"],
            "orion: --position: `RX` is not an orb (colour R, B, G, Y, O or P, then element F, W, E, A or V)",
        ),
        (
            vec!["--position", "a1:RF i5:GW", "--moves", "R a1-b1"],
            "orion: --position: i5 holds a green orb, but green does not play with 2 players",
        ),
        (
            vec!["--players", "3", "--teams", "--moves", "R d1-e5"],
            "orion: --teams: teams need 4 or 6 players, not 3",
        ),
        (
            vec!["--players", "7", "--moves", "R d1-e5"],
            "orion: --players: Orbs is for 2 to 6 players, not 7",
        ),
        (
            vec!["--position", "i5:RF i6:BA", "--moves", "R i5-i6, B i6-i7"],
            "orion: --moves: move 2, B i6-i7: the game is over",
        ),
    ] {
        let mut all = vec!["apply", "--game", "orbs"];
        all.extend(args);
        let o = orion(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end(), message);
        assert_eq!(err.lines().count(), 1);
        assert!(o.stdout.is_empty());
    }
    for (args, message) in [
        (
            vec!["apply", "--players", "2", "--moves", "pass"],
            "orion: --players and --teams need --game",
        ),
        (
            vec!["apply", "--game", "chess", "--moves", "pass"],
            "orion: --game: `chess` has no apply (orbit, orbs; none for ORION clicks)",
        ),
    ] {
        let o = orion(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr).trim_end(), message);
    }
}

#[test]
fn selfplay_prints_one_json_line_for_orbs() {
    let o = orion(&[
        "bot",
        "--selfplay",
        "4",
        "--game",
        "orbs",
        "--level",
        "greedy",
        "--against",
        "random",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let line = stdout(&o);
    assert_eq!(line.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(&line).expect("JSON");
    assert_eq!(v["game"], "orbs");
    assert_eq!(v["games"], 4);
    let total = v["greedy"].as_u64().unwrap_or(0)
        + v["random"].as_u64().unwrap_or(0)
        + v["unfinished"].as_u64().unwrap_or(0);
    assert_eq!(total, 4);
}

#[test]
fn greedy_beats_random_at_orbs() {
    // A fixed seed, sides alternating: greedy must win nearly every game.
    let t = orion_cli::bot::selfplay(
        "orbs",
        Some(2),
        orion_cli::bot::Level::Greedy,
        orion_cli::bot::Level::Random,
        12,
        7,
    )
    .expect("self-play runs");
    assert_eq!(t.first + t.second + t.unfinished, 12);
    assert!(t.first >= 11, "greedy won only {} of 12: {t:?}", t.first);
}
