//! The `orion` binary: offline tools today (apply, analyze, puzzle, solve), and the terminal
//! client and bots that talk to a server. `main` only parses arguments and dispatches.

mod offline;

use clap::{Parser, Subcommand};
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
    Apply {
        /// Position string (`C1s:R1 D1s:B1`); empty for the empty board.
        #[arg(long, default_value = "")]
        position: String,
        /// Clicks: `C4L, D4R, D5L (2)` or `c+d-e--` or `pass`.
        #[arg(long)]
        moves: String,
    },
    /// Report chains (and, for Orion, what the mover would capture) in a position.
    Analyze {
        /// Game id (`hydra-2`, `hydra-4`, `hydra-partners`, `orion`, …).
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
        Command::Apply { position, moves } => offline::apply(&position, &moves),
        Command::Analyze {
            game,
            position,
            mover,
        } => offline::analyze(&game, &position, mover.as_deref()),
        Command::Puzzle { name, moves } => offline::puzzle(&name, &moves),
        Command::Solve {
            name,
            position,
            census,
        } => offline::solve(&name, position.as_deref(), census),
    };
    match result {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("orion: {message}");
            ExitCode::from(2)
        }
    }
}
