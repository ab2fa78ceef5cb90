//! The `orion` binary: the terminal client (play, watch, lobby, learn), bots, and the offline tools
//! (apply, analyze, puzzle, solve). `main` only parses arguments and dispatches.

mod offline;

use clap::{Parser, Subcommand};
use orion_cli::autoplay;
use std::process::ExitCode;

/// ORION, the 1971 rotor-board game system: play, watch, and offline tools.
#[derive(Parser)]
#[command(name = "orion", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Apply clicks to a position (mechanics only, no rule checks); print the new position.
    /// With `--game` naming a game of another system: play coloured moves (`B h8, W pass`;
    /// `R d2-e6`) under that game's rules.
    Apply {
        /// Position string (`C1s:R1 D1s:B1`); empty for the empty board (or the game's
        /// classic opening, with `--game`).
        #[arg(long, default_value = "")]
        position: String,
        /// Clicks: `C4L, D4R, D5L (2)` or `c+d-e--` or `pass`; with `--game`, colour and
        /// move: `B h8, W pass` or `R d2-e6, B n2-m3`.
        #[arg(long)]
        moves: String,
        /// Play the moves under this game's rules (a game of a system with moves of its
        /// own); without it, ORION mechanics.
        #[arg(long)]
        game: Option<String>,
        /// Players, with `--game` (default 2).
        #[arg(long)]
        players: Option<u8>,
        /// Opposite seats are partners, with `--game` (4 or 6 players).
        #[arg(long)]
        teams: bool,
    },
    /// Report chains (and, for Orion, what the mover would capture) in a position.
    Analyze {
        /// Game id (`hydra-2`, `hydra-4`, `hydra-partners`, `orion`, … any system's game).
        #[arg(long)]
        game: String,
        /// Position string.
        #[arg(long, default_value = "")]
        position: String,
        /// The colour about to move (R, B, G, Y), for captures.
        #[arg(long)]
        mover: Option<String>,
    },
    /// Replay moves under a puzzle's rules; print whether they are legal and solve it.
    Puzzle {
        /// Puzzle name (`aquila`, `aurora-a`, `binary-1`, `orbit-b`, …).
        name: String,
        /// The clicks to replay.
        #[arg(long)]
        moves: String,
    },
    /// Replay a finished game's record (`/g/ROOM.txt`, or `export ROOM` in the client)
    /// through the engine; print the final position and result.
    Replay {
        /// The record file (`-` for standard input).
        file: String,
        /// Also print every turn with the position after it.
        #[arg(long)]
        turns: bool,
    },
    /// Print an optimal solution of a puzzle.
    Solve {
        /// Puzzle name.
        name: String,
        /// Replace the puzzle's start with this position (same pieces).
        #[arg(long)]
        position: Option<String>,
        /// Orbit Solitaire B: compute the distance distribution of all 12! arrangements.
        #[arg(long)]
        census: bool,
    },
    /// Play: the full-screen terminal client (lobby, rooms, the board).
    Play {
        /// Server URL, `ws://HOST:PORT/ws`.
        #[arg(long, default_value = "ws://127.0.0.1:7878/ws")]
        server: String,
        /// Your name.
        #[arg(long, default_value_t = default_name())]
        name: String,
        /// Play the computer at this level (1 random … 8 strongest) in GAME: a room of your own
        /// whose other seats computer players take, started at once.
        #[arg(long, value_name = "LEVEL", requires = "game")]
        computer: Option<u8>,
        /// The game to play the computer in (with `--computer`).
        game: Option<String>,
        /// Your seat against the computer: its number in turn order (1 moves first) or its
        /// name (`S`, `N`); left out: the first.
        #[arg(long, value_name = "N", requires = "computer")]
        seat: Option<String>,
    },
    /// Learn to play: the server's lessons, step by step on the game's own board (without
    /// LESSON: the list, with your progress).
    Learn {
        /// The lesson: its id (`basics`, `hydra-2`, `orbs` …) or its game's name.
        lesson: Option<String>,
        /// Server URL, `ws://HOST:PORT/ws` (its lessons are at the same host and port).
        #[arg(long, default_value = "ws://127.0.0.1:7878/ws")]
        server: String,
        /// Your name, for a game against the computer from a lesson's last screen.
        #[arg(long, default_value_t = default_name())]
        name: String,
    },
    /// Watch a room as a spectator, on the same screen as play.
    Watch {
        /// Server URL.
        #[arg(long, default_value = "ws://127.0.0.1:7878/ws")]
        server: String,
        /// Room id.
        room: String,
        /// Your name.
        #[arg(long, default_value_t = default_name())]
        name: String,
    },
    /// Print the room list of a server and exit.
    Lobby {
        /// Server URL.
        #[arg(long, default_value = "ws://127.0.0.1:7878/ws")]
        server: String,
    },
    /// A bot: joins a server by quick match (or `--room`) and plays to the end; or, with
    /// `--selfplay N`, plays N games offline against another bot and prints the tally.
    Bot {
        /// Server URL, `ws://HOST:PORT/ws`.
        #[arg(long)]
        server: Option<String>,
        /// Quick match in this game.
        #[arg(long)]
        quick: Option<String>,
        /// Players for the quick match.
        #[arg(long)]
        players: Option<u8>,
        /// Join this room instead of a quick match.
        #[arg(long)]
        room: Option<String>,
        /// Display name.
        #[arg(long, default_value = "bot")]
        name: String,
        /// How it plays: a level of the AI, 1 (random) to 8 (strongest), or `random` (level 1)
        /// or `greedy` (one turn ahead).
        #[arg(long, default_value = "greedy")]
        level: orion_cli::bot::Level,
        /// Offline: play this many games of `--game` against `--against`, print the tally.
        #[arg(long)]
        selfplay: Option<u32>,
        /// Game for self-play.
        #[arg(long, default_value = "hydra-2")]
        game: String,
        /// The other side's level in self-play.
        #[arg(long, default_value = "random")]
        against: orion_cli::bot::Level,
        /// Seed for self-play.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Apply {
            position,
            moves,
            game,
            players,
            teams,
        } => offline::apply(game.as_deref(), players, teams, &position, &moves),
        Command::Analyze {
            game,
            position,
            mover,
        } => offline::analyze(&game, &position, mover.as_deref()),
        Command::Puzzle { name, moves } => offline::orion::puzzle(&name, &moves),
        Command::Replay { file, turns } => {
            let text = if file == "-" {
                std::io::read_to_string(std::io::stdin())
            } else {
                std::fs::read_to_string(&file)
            };
            text.map_err(|e| format!("{file}: {e}")).and_then(|text| {
                let replayed = orion_cli::replay::replay(&text).map_err(|e| format!("{file}: {e}"))?;
                Ok(orion_cli::replay::summary(&replayed, turns))
            })
        }
        Command::Solve {
            name,
            position,
            census,
        } => offline::orion::solve(&name, position.as_deref(), census),
        Command::Bot {
            server,
            quick,
            players,
            room,
            name,
            level,
            selfplay,
            game,
            against,
            seed,
        } => match selfplay {
            Some(n) => orion_cli::bot::selfplay(&game, players, level, against, n, seed).map(|t| {
                format!(
                    "{{\"game\":\"{game}\",\"games\":{n},\"{level}\":{},\"{against}\":{},\"unfinished\":{}}}",
                    t.first, t.second, t.unfinished
                )
            }),
            None => {
                let entry = match (room, quick) {
                    (Some(room), _) => autoplay::Entry::Room(room),
                    (None, Some(game)) => autoplay::Entry::Quick { game, players },
                    (None, None) => {
                        return fail("bot: say --quick GAME or --room ID (or --selfplay N)".into())
                    }
                };
                let Some(server) = server else {
                    return fail("bot: say --server ws://HOST:PORT/ws".into());
                };
                let config = autoplay::BotConfig {
                    server,
                    name,
                    level,
                    entry,
                    seed: seed ^ u64::from(std::process::id()),
                };
                block_on(autoplay::run(config)).map(|r| r.line())
            }
        },
        Command::Play { server, name, computer, game, seat } => {
            let computer = game.zip(computer).map(|(game, level)| orion_cli::tui::Computer { game, level, seat });
            block_on(orion_cli::tui::run_with(&server, &name, None, computer)).map(|()| String::new())
        }
        Command::Learn {
            lesson,
            server,
            name,
        } => block_on(orion_cli::learn::run(&server, &name, lesson)).map(|()| String::new()),
        Command::Watch { server, room, name } => {
            block_on(orion_cli::tui::run(&server, &name, Some(room))).map(|()| String::new())
        }
        Command::Lobby { server } => block_on(orion_cli::lobby::fetch(&server, "lobby")).map(|r| orion_cli::lobby::table(&r)),
    };
    match result {
        Ok(line) if line.is_empty() => ExitCode::SUCCESS,
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(message) => fail(message),
    }
}

fn fail(message: String) -> ExitCode {
    eprintln!("orion: {message}");
    ExitCode::from(2)
}

/// The user's login name, as a default player name.
fn default_name() -> String {
    std::env::var("USER").unwrap_or_else(|_| "player".to_string())
}

/// Runs a network command on a fresh runtime.
fn block_on<T>(f: impl std::future::Future<Output = Result<T, String>>) -> Result<T, String> {
    let rt = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))?;
    rt.block_on(f)
}
