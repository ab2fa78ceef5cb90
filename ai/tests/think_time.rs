//! The ladder's think times: each decision's CPU time on the thread that thought (what "2 s of
//! one core" means on a busy machine) beside its wall time, and a pairing's time cap, which
//! stops long games where they are and keeps their decisions' think times.

use orion_ai::ladder::{parse_game, play_until, run_ladder_with, Seating, Sitting, Think};
use orion_ai::{Level, Player};
use std::time::{Duration, Instant};

fn level(n: u8) -> Player {
    Player::Level(Level::new(n).expect("a level"))
}

#[test]
fn a_decision_that_waits_counts_in_wall_time_not_in_cpu_time() {
    // A thread that waits (as one waits for a core on a busy machine) spends no CPU time.
    let ((), think) = Think::measure(|| std::thread::sleep(Duration::from_millis(30)));
    let cpu = think.cpu.expect("Linux has a thread CPU clock");
    assert!(think.wall >= Duration::from_millis(30), "{think:?}");
    assert!(cpu < think.wall, "{think:?}");
}

#[test]
fn the_ladder_reports_each_levels_cpu_and_wall_think_times() {
    let spec = parse_game("hydra-2", None, false).expect("a game");
    let sitting = Sitting {
        games: 2,
        seed: 3,
        scale: 0.1,
        threads: 1,
        per_pairing: None,
        turn_limit: None,
        seating: Seating::Alone,
        plan: None,
    };
    let report = run_ladder_with(&spec, &[(level(7), level(6))], &sitting, |_| {}).expect("plays");
    assert_eq!(report.pairings[0].games(), 2);
    assert_eq!(report.pairings[0].unfinished, 0);
    for player in ["L7", "L6"] {
        let t = report.thinks.get(player).expect("thought");
        assert!(t.decisions > 0, "{player}");
        let (median, p99) = t.cpu.expect("a CPU time");
        // Each decision's CPU time lies within its wall time, so their order statistics do.
        assert!(median <= t.wall.0 && p99 <= t.wall.1, "{player}: {t:?}");
        assert!(median <= p99, "{player}: {t:?}");
        assert!(p99 > Duration::ZERO, "{player} thought: {t:?}");
    }
}

#[test]
fn a_pairing_past_its_time_cap_starts_no_game() {
    let spec = parse_game("orion", None, false).expect("a game");
    let sitting = Sitting {
        games: 3,
        seed: 1,
        scale: 1.0,
        threads: 2,
        per_pairing: Some(Duration::ZERO),
        turn_limit: None,
        seating: Seating::Alone,
        plan: None,
    };
    let pairs = [(level(2), level(1)), (level(8), level(7))];
    let report = run_ladder_with(&spec, &pairs, &sitting, |_| {}).expect("runs");
    for p in &report.pairings {
        assert_eq!(
            (p.games(), p.unfinished),
            (0, 0),
            "{} v {}",
            p.first,
            p.second
        );
    }
    assert!(report.ratings.is_empty() && report.thinks.is_empty());
}

#[test]
fn a_game_past_its_time_cap_stops_and_is_marked_so() {
    let spec = parse_game("hydra-2", None, false).expect("a game");
    let seats = [level(1), level(1)];
    let stopped = play_until(&spec, &seats, 4, 1.0, Some(Instant::now())).expect("plays");
    assert!(stopped.stopped);
    assert!(
        stopped.thinks.is_empty(),
        "stopped before the first decision"
    );
    let whole = play_until(&spec, &seats, 4, 1.0, None).expect("plays");
    assert!(!whole.stopped);
    assert!(!whole.thinks.is_empty());
    assert!(whole
        .thinks
        .iter()
        .all(|(p, t)| *p == level(1) && t.cpu.is_some_and(|c| c <= t.wall)));
}
