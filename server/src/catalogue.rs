//! `GET /catalogue.json`: what the server offers, built from its game systems so that no
//! client keeps a copy — every game and puzzle with its name, system, player counts, seats and
//! their colours for each count, and its options' defaults; each system's own options and the
//! server's clocks with their bounds and a line saying what each does. Built once per process (the systems never change while
//! it runs) and served as it is.

use crate::room::{DAYS_PER_MOVE, DEFAULT_SEAT_HOLD, MAX_CLOCK, MIN_TURN_CLOCK};
use crate::system::{Demo, GameInfo, GameSystem, OptionField, OptionKind};
use orion_protocol::RoomOptions;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// The whole answer.
#[derive(Serialize)]
struct Catalogue {
    /// Every game system, in the lobby's order.
    systems: Vec<SystemEntry>,
    /// Every game and puzzle, in the lobby's order.
    games: Vec<GameEntry>,
    /// The server's own options (clocks, hold), which every game takes.
    options: Vec<ServerOption>,
    /// What the front door replays when no game is on (the first system's that has one).
    #[serde(skip_serializing_if = "Option::is_none")]
    demo: Option<Demo>,
}

/// One game system.
#[derive(Serialize)]
struct SystemEntry {
    /// Its id: the page's board module for its games.
    id: &'static str,
    /// Its own options with their bounds.
    options: Vec<OptionField>,
}

/// One game or puzzle.
#[derive(Serialize)]
struct GameEntry {
    /// Its id on the wire.
    id: &'static str,
    /// Its name for people.
    name: &'static str,
    /// The system that plays it.
    system: &'static str,
    /// Fewest and most players.
    players: [u8; 2],
    /// Players when the options do not say.
    default_players: u8,
    /// A puzzle for one (never quick-matched).
    puzzle: bool,
    /// It has a leaderboard: ratings for a game, fewest clicks for a puzzle scored by them.
    leaderboard: bool,
    /// A puzzle's goal for a player.
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<&'static str>,
    /// A puzzle's booklet click count.
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<u32>,
    /// A puzzle's proven fewest clicks (from its fixed start).
    #[serde(skip_serializing_if = "Option::is_none")]
    optimum: Option<u32>,
    /// Its options as a room with none given gets them.
    defaults: RoomOptions,
    /// Its seats in turn order, each `SEAT:COLOUR` as in position strings (`S:R`; `S:` while
    /// play has not decided, as in Orbit), for each player count.
    seats: BTreeMap<u8, Vec<String>>,
}

/// One of the server's own options.
#[derive(Serialize)]
struct ServerOption {
    /// The option and its bounds.
    #[serde(flatten)]
    field: OptionField,
    /// What a room gets without it (absent: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    default: Option<u64>,
}

/// The catalogue as JSON text, built on first use from `systems`.
pub fn json(systems: &[Arc<dyn GameSystem>]) -> String {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| build(systems)).clone()
}

/// Builds the catalogue's JSON text.
fn build(systems: &[Arc<dyn GameSystem>]) -> String {
    let catalogue = Catalogue {
        systems: systems
            .iter()
            .map(|s| SystemEntry {
                id: s.id(),
                options: s.option_fields(),
            })
            .collect(),
        games: systems
            .iter()
            .flat_map(|s| s.games().iter().map(move |g| game(s.as_ref(), g)))
            .collect(),
        options: server_options(),
        demo: systems.iter().find_map(|s| s.demo()),
    };
    // Strings, numbers and string-keyed maps only: serializing cannot fail.
    serde_json::to_string(&catalogue).unwrap_or_default()
}

/// A game's entry: its defaults, and its seats for each player count from a table set up
/// with that count.
fn game(system: &dyn GameSystem, info: &GameInfo) -> GameEntry {
    let with_players = |n: u8| RoomOptions {
        players: Some(Some(n)),
        ..RoomOptions::default()
    };
    let seats = info
        .players
        .clone()
        .filter_map(|n| {
            let options = system.options(info, with_players(n)).ok()?;
            let table = system.table(info, &options, 0).ok()?;
            let seats = table
                .seats()
                .iter()
                .map(|s| format!("{}:{}", s.seat, s.colour))
                .collect();
            Some((n, seats))
        })
        .collect();
    let figures = system.puzzle_figures(info);
    GameEntry {
        id: info.id,
        name: info.name,
        system: system.id(),
        players: [*info.players.start(), *info.players.end()],
        default_players: info.default_players,
        puzzle: info.solo,
        leaderboard: !info.solo || figures.is_some(),
        goal: system.puzzle_goal(info),
        target: figures.as_ref().and_then(|f| f.target),
        optimum: figures.as_ref().and_then(|f| f.optimum),
        defaults: system
            .options(info, RoomOptions::default())
            .unwrap_or_default(),
        seats,
    }
}

/// The server's clocks and seat hold (`room::RoomOptions::parse` checks them).
fn server_options() -> Vec<ServerOption> {
    let millis = |name, label, help, min, default| ServerOption {
        field: OptionField {
            name,
            label,
            help,
            kind: OptionKind::Millis {
                min,
                max: MAX_CLOCK,
                auto: false,
            },
            implies: None,
        },
        default,
    };
    vec![
        millis(
            "turn_clock",
            "turn clock",
            "seconds for each turn; when they run out the turn ends as it stands (empty: no clock)",
            MIN_TURN_CLOCK,
            None,
        ),
        millis(
            "time_bank",
            "time bank",
            "seconds each player has for the whole game beyond the turn clock (empty: none)",
            1,
            None,
        ),
        millis(
            "seat_hold",
            "seat hold",
            "seconds a player who loses his connection keeps his seat before he counts as gone",
            0,
            Some(DEFAULT_SEAT_HOLD),
        ),
        ServerOption {
            field: OptionField {
                name: "days_per_move",
                label: "days per move",
                help: "a game by correspondence: days for each turn, 1, 2, 3, 5, 7 or 14 (claimed \
                       names only; no turn clock; empty: a live game)",
                kind: OptionKind::Number {
                    min: u64::from(DAYS_PER_MOVE[0]),
                    max: u64::from(DAYS_PER_MOVE[DAYS_PER_MOVE.len() - 1]),
                },
                implies: None,
            },
            default: None,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn every_game_of_every_system_is_listed_with_its_seats_and_defaults() {
        let systems = crate::systems::all();
        let catalogue: Value = serde_json::from_str(&build(&systems)).expect("JSON");
        let listed: Vec<&str> = catalogue["games"]
            .as_array()
            .expect("games")
            .iter()
            .filter_map(|g| g["id"].as_str())
            .collect();
        let offered: Vec<&str> = systems
            .iter()
            .flat_map(|s| s.games().iter().map(|g| g.id))
            .collect();
        assert_eq!(listed, offered);
        for g in catalogue["games"].as_array().into_iter().flatten() {
            let [min, max] = [&g["players"][0], &g["players"][1]].map(|n| n.as_u64().unwrap_or(0));
            for n in min..=max {
                let seats = g["seats"][n.to_string()]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                assert_eq!(seats.len() as u64, n, "{} for {n}: {seats:?}", g["id"]);
            }
            assert!(g["defaults"].is_object(), "{g}");
        }
    }

    #[test]
    fn the_demonstration_is_a_puzzle_solved_click_by_click() {
        let catalogue: Value = serde_json::from_str(&build(&crate::systems::all())).expect("JSON");
        let demo = &catalogue["demo"];
        let name = demo["game"].as_str().expect("a demo");
        let puzzle = orion_engine::puzzles::find(name).expect("a puzzle");
        let mut position = orion_engine::parse_position(demo["start"].as_str().unwrap_or_default())
            .expect("a position");
        let clicks = demo["clicks"].as_array().expect("clicks");
        assert!(clicks.len() >= 8, "{demo}");
        for c in clicks {
            let click = orion_engine::parse_click(c.as_str().unwrap_or_default()).expect("a click");
            position = puzzle.try_click(&position, click).expect("taken");
        }
        assert!(puzzle.solved(&position), "{demo}");
    }

    #[test]
    fn every_option_says_what_it_does() {
        let catalogue: Value = serde_json::from_str(&build(&crate::systems::all())).expect("JSON");
        let system_options = catalogue["systems"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|s| s["options"].as_array().cloned().unwrap_or_default());
        let server_options = catalogue["options"].as_array().cloned().unwrap_or_default();
        let all: Vec<Value> = system_options.chain(server_options).collect();
        for g in catalogue["games"].as_array().into_iter().flatten() {
            let puzzle = g["puzzle"].as_bool().unwrap_or(false);
            assert_eq!(g["goal"].is_string(), puzzle, "{g}");
        }
        assert!(all.len() >= 10, "{all:?}");
        for o in all {
            let help = o["help"].as_str().unwrap_or_default();
            assert!(help.split_whitespace().count() >= 5, "{o}");
        }
    }
}
