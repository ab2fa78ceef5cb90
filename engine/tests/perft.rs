//! Perft-style fixtures: the number of distinct legal whole moves (distinct end positions,
//! pass included) from each game's start and after fixed openings, read from
//! `tests/data/perft.txt`. Each count is computed by a search that drives `Game::step` itself
//! and, for games played by the basic rules alone, also by the fast move generator: both must
//! equal the file. (Lepus hops, Draco's dragon and knight rules and Bootes's shared dogs are
//! known to the game only, so those lines say `stepping`.)

use orion_engine::{
    games, moves, parse_moves, Action, Allowance, Click, Edge, Game, Options, PlaceRule, Slot,
};
use std::collections::HashSet;

struct Case {
    game: String,
    players: u8,
    opening: String,
    count: usize,
    /// Whether the basic-rules move generator applies to this game.
    generator: bool,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let cols: Vec<&str> = line.split('|').map(str::trim).collect();
            assert_eq!(cols.len(), 5, "bad fixture line: {line}");
            Case {
                game: cols[0].to_string(),
                players: cols[1].parse().expect("players"),
                opening: cols[2].to_string(),
                count: cols[3].parse().expect("count"),
                generator: match cols[4] {
                    "both" => true,
                    "stepping" => false,
                    other => panic!("bad check column `{other}` in: {line}"),
                },
            }
        })
        .collect()
}

/// The game after its opening: moves separated by `;`, each ended explicitly if it did not
/// end by itself. A die turn takes three clicks.
fn after_opening(case: &Case) -> Game {
    let rules = games::find(&case.game).expect("known game");
    let options = Options {
        players: Some(case.players),
        ..Options::default()
    };
    let mut g = Game::new(rules, options, 1).expect("setup");
    take_three(&mut g);
    if case.opening == "-" {
        return g;
    }
    for mv in case.opening.split(';') {
        let seat = g.mover();
        for click in parse_moves(mv).expect("opening parses") {
            g.step(seat, Action::Click { click, piece: None }, 0)
                .expect("opening is legal");
        }
        if g.mover() == seat {
            g.step(seat, Action::EndTurn, 0).expect("opening move ends");
        }
        take_three(&mut g);
    }
    g
}

fn take_three(g: &mut Game) {
    if g.allowance() == Allowance::DieOrThree {
        g.step(g.mover(), Action::Three, 0).expect("three clicks");
    }
}

/// Way one: the move generator (and, for placements, the placement rule itself).
fn by_generator(g: &Game, before: Option<orion_engine::Position>) -> usize {
    let colour = g.colour_of(g.mover()).unwrap();
    match g.allowance() {
        Allowance::Clicks(n) => moves(g.position(), colour, n, before.as_ref()).len(),
        Allowance::Place(rule) => {
            let empty = !g.position().occupied();
            let allowed = match rule {
                PlaceRule::Anywhere => empty,
                PlaceRule::TouchingEdge => {
                    empty
                        & Edge::ALL
                            .iter()
                            .fold(Default::default(), |s, e| s | e.touching())
                }
                PlaceRule::Slots(set) => empty & set,
            };
            allowed.len()
        }
        other => panic!("no count for {other:?}"),
    }
}

/// Way two: drive `Game::step` through every click sequence and every placement.
fn by_stepping(g: &Game) -> usize {
    let seat = g.mover();
    let mut ends = HashSet::new();
    if let Allowance::Place(_) = g.allowance() {
        for slot in Slot::ALL {
            let mut h = g.clone();
            if h.step(seat, Action::Place { slot, from: None }, 0).is_ok() {
                ends.insert(*h.position());
            }
        }
        return ends.len();
    }
    fn walk(g: &Game, ends: &mut HashSet<orion_engine::Position>) {
        let seat = g.mover();
        if g.clone().step(seat, Action::EndTurn, 0).is_ok() {
            ends.insert(*g.position());
        }
        for click in Click::ALL {
            let mut h = g.clone();
            if h.step(seat, Action::Click { click, piece: None }, 0)
                .is_ok()
            {
                if h.mover() != seat || h.outcome().is_some() {
                    ends.insert(*h.position());
                } else {
                    walk(&h, ends);
                }
            }
        }
    }
    walk(g, &mut ends);
    ends.len()
}

#[test]
fn perft_fixtures_agree_two_ways() {
    let mut failures = Vec::new();
    for case in cases() {
        let g = after_opening(&case);
        // The position the no-reversal rule forbids: the one before the previous move, known
        // here by replaying the opening without its last move.
        let before = if case.opening == "-" {
            None
        } else {
            let mut shorter: Vec<&str> = case.opening.split(';').collect();
            shorter.pop();
            let prev = Case {
                game: case.game.clone(),
                players: case.players,
                opening: if shorter.is_empty() {
                    "-".into()
                } else {
                    shorter.join(";")
                },
                count: 0,
                generator: case.generator,
            };
            let p = *after_opening(&prev).position();
            (p != *g.position()).then_some(p)
        };
        let generated = if case.generator {
            by_generator(&g, before)
        } else {
            case.count
        };
        let stepped = by_stepping(&g);
        if generated != case.count || stepped != case.count {
            failures.push(format!(
                "{} | {} | {} | {}   (generator {generated}, stepping {stepped})",
                case.game, case.players, case.opening, case.count
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}
