//! `ladder`: plays the levels against each other and against `greedy` in one game and prints
//! win rates, Weng-Lin ratings and think times. Arguments only; the work is
//! `orion_ai::ladder`.

use anyhow::{bail, Context};
use clap::Parser;
use orion_ai::ladder::{parse_game, run_ladder_on, MAX_THREADS};
use orion_ai::{Level, Player};
use std::io::Write;

/// Plays levels against each other and against greedy.
#[derive(Parser)]
#[command(name = "ladder")]
struct Args {
    /// The game: an ORION game id (hydra-2, algol, orion, ...), orbit or orbs.
    #[arg(long)]
    game: String,
    /// Players, where the game allows several.
    #[arg(long)]
    players: Option<u8>,
    /// Orbs with partners (4 or 6 players).
    #[arg(long)]
    teams: bool,
    /// Games per pairing.
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// The levels to play, lowest first: `1-8` or a list `2,4,8`.
    #[arg(long, default_value = "1-8")]
    levels: String,
    /// Which pairings: `below` (each level against the one below), `greedy` (each level
    /// against greedy) or `both`.
    #[arg(long, default_value = "both")]
    against: String,
    /// Multiplies the budget (positions evaluated) of levels 5–8 (below 1 for a quick look on a busy machine).
    #[arg(long, default_value_t = 1.0)]
    scale: f64,
    /// Games played at once, one a thread (1 or 2: the ladder measures one core a game).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The first game's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn levels(text: &str) -> anyhow::Result<Vec<Level>> {
    if let Some((a, b)) = text.split_once('-') {
        let (a, b): (Level, Level) = (a.parse()?, b.parse()?);
        return Ok(Level::all().filter(|l| *l >= a && *l <= b).collect());
    }
    text.split(',')
        .map(|t| t.parse::<Level>().context("a level"))
        .collect()
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let spec = parse_game(&args.game, args.players, args.teams)?;
    let levels = levels(&args.levels)?;
    if !(args.scale > 0.0 && args.scale <= 100.0) {
        bail!("--scale must be above 0 and at most 100");
    }
    if !(1..=MAX_THREADS).contains(&args.threads) {
        bail!("--threads must be 1 or {MAX_THREADS}");
    }
    let mut pairs = Vec::new();
    let below = matches!(args.against.as_str(), "below" | "both");
    let greedy = matches!(args.against.as_str(), "greedy" | "both");
    if !below && !greedy {
        bail!("--against must be below, greedy or both");
    }
    for (i, &l) in levels.iter().enumerate() {
        if below && i > 0 {
            pairs.push((Player::Level(l), Player::Level(levels[i - 1])));
        }
        if greedy {
            pairs.push((Player::Level(l), Player::Greedy));
        }
    }
    println!(
        "{}: {} games a pairing, seed {}, budget x{}, {} thread(s)",
        spec.name(),
        args.games,
        args.seed,
        args.scale,
        args.threads
    );
    let mut out = std::io::stderr();
    let report = run_ladder_on(
        &spec,
        &pairs,
        args.games,
        args.seed,
        args.scale,
        args.threads,
        |p| {
            let _ = write!(
                out,
                "\r{} v {}: {}/{} ({}-{}-{})   ",
                p.first,
                p.second,
                p.games(),
                args.games,
                p.wins,
                p.losses,
                p.draws
            );
            let _ = out.flush();
        },
    )?;
    eprintln!();
    println!("| pairing | won | lost | drawn | score |");
    println!("|---|---|---|---|---|");
    for p in &report.pairings {
        println!(
            "| {} v {} | {} | {} | {} | {:.0} % |",
            p.first,
            p.second,
            p.wins,
            p.losses,
            p.draws,
            100.0 * p.score()
        );
    }
    println!();
    println!("| player | rating (60 μ) | σ | think median | think p99 |");
    println!("|---|---|---|---|---|");
    for (player, (rating, sigma)) in &report.ratings {
        let (median, p99) = report.thinks.get(player).copied().unwrap_or_default();
        println!(
            "| {player} | {rating:.0} | {sigma:.2} | {:.1} ms | {:.1} ms |",
            median.as_secs_f64() * 1e3,
            p99.as_secs_f64() * 1e3
        );
    }
    Ok(())
}
