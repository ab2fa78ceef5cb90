//! `ladder`: plays the levels against each other and against `greedy` in one game and prints
//! win rates, Weng-Lin ratings and think times (each decision's CPU time on its thread, and
//! its wall time). Arguments only; the work is `orion_ai::ladder`.

use anyhow::{bail, Context};
use clap::Parser;
use orion_ai::ladder::{
    every_game, parse_game, run_ladder_with, GameSpec, Seating, Sitting, MAX_THREADS,
};
use orion_ai::{plan, Level, Player};
use std::collections::BTreeSet;
use std::io::Write;
use std::time::Duration;

/// Plays levels against each other and against greedy.
#[derive(Parser)]
#[command(name = "ladder")]
struct Args {
    /// The game: an ORION game id (hydra-2, algol, orion, ...), orbit, orbs, or `all`: every
    /// game system one after the other, each with its default players (two in Orbs).
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
    /// Multiplies the budget (positions evaluated) of levels 7 and 8 (below 1 for a quick look on a busy machine).
    #[arg(long, default_value_t = 1.0)]
    scale: f64,
    /// Games played at once, one a thread (1 or 2: the ladder measures one core a game).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The first game's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Wall seconds a pairing may take: past them no game starts, and the games in play stop
    /// where they are (counted as unfinished; their decisions' think times are kept). For long
    /// games on a busy machine. Default: no cap.
    #[arg(long)]
    pairing_secs: Option<u64>,
    /// The turn limit past which a game counts as drawn: rounds in the ORION games (default
    /// 400, Bootes 1,000), moves in Orbit (1,000) and Orbs (2,000); with `--game all`, rounds
    /// in ORION only.
    #[arg(long)]
    turn_limit: Option<u32>,
    /// How a pairing shares a game of four seats played each for himself (Hydra for Four):
    /// `alone` (one seat against three) or `halves` (every other seat each: two equal
    /// players win half the games, as in a two-player game). Other games are the same
    /// either way.
    #[arg(long, default_value = "alone")]
    seating: String,
    /// Levels 2 to 7 as this plan, in place of the game's own: six blends such as
    /// `G0.4R,G0.75R,G,S0.35G,S0.6G,S0.82G` (R the random mover, G `greedy`, S level 8's
    /// search; a letter alone, or the stronger's letter, its odds and the weaker's letter).
    #[arg(long)]
    plan: Option<String>,
}

/// Milliseconds, as the tables print them.
fn ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1e3;
    if ms < 1.0 {
        format!("{ms:.2}")
    } else if ms < 10.0 {
        format!("{ms:.1}")
    } else {
        format!("{ms:.0}")
    }
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

fn seating(text: &str) -> anyhow::Result<Seating> {
    match text {
        "alone" => Ok(Seating::Alone),
        "halves" => Ok(Seating::Halves),
        _ => bail!("--seating must be alone or halves"),
    }
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let games = if args.game.trim().eq_ignore_ascii_case("all") {
        if args.players.is_some() || args.teams {
            bail!("--game all plays each game with its default players: no --players or --teams");
        }
        every_game()
    } else {
        vec![parse_game(&args.game, args.players, args.teams)?]
    };
    let levels = levels(&args.levels)?;
    if !(args.scale > 0.0 && args.scale <= 100.0) {
        bail!("--scale must be above 0 and at most 100");
    }
    if !(1..=MAX_THREADS).contains(&args.threads) {
        bail!("--threads must be 1 or {MAX_THREADS}");
    }
    if args.pairing_secs == Some(0) {
        bail!("--pairing-secs must be at least 1");
    }
    let sitting = Sitting {
        games: args.games,
        seed: args.seed,
        scale: args.scale,
        threads: args.threads,
        per_pairing: args.pairing_secs.map(Duration::from_secs),
        turn_limit: args.turn_limit,
        seating: seating(&args.seating)?,
        plan: args.plan.as_deref().map(plan::parse).transpose()?,
    };
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
    let every = games.len() > 1;
    for spec in &games {
        // With every game, a turn limit is ORION's rounds: Orbit and Orbs keep their own.
        let turn_limit = if every && !matches!(spec, GameSpec::Orion(..)) {
            None
        } else {
            args.turn_limit
        };
        play(
            spec,
            &pairs,
            &args,
            &Sitting {
                turn_limit,
                ..sitting
            },
        )?;
    }
    Ok(())
}

/// One game's ladder, printed: the pairings' counts, then ratings and think times.
fn play(
    spec: &GameSpec,
    pairs: &[(Player, Player)],
    args: &Args,
    sitting: &Sitting,
) -> anyhow::Result<()> {
    let cap = match args.pairing_secs {
        Some(s) => format!(", at most {s} s a pairing"),
        None => String::new(),
    };
    let cap = match sitting.turn_limit {
        Some(t) => format!("{cap}, drawn past turn {t}"),
        None => cap,
    };
    let cap = match &args.plan {
        Some(p) => format!("{cap}, levels 2-7 as {p}"),
        None => cap,
    };
    let cap = match sitting.seating {
        Seating::Halves => format!("{cap}, seats in halves"),
        Seating::Alone => cap,
    };
    println!(
        "{}: {} games a pairing, seed {}, budget x{}, {} thread(s){cap}",
        spec.name(),
        args.games,
        args.seed,
        args.scale,
        args.threads
    );
    let mut out = std::io::stderr();
    let report = run_ladder_with(spec, pairs, sitting, |p| {
        let _ = write!(
            out,
            "\r{} v {}: {}/{} ({}-{}-{}, {} unfinished)   ",
            p.first,
            p.second,
            p.games(),
            args.games,
            p.wins,
            p.losses,
            p.draws,
            p.unfinished
        );
        let _ = out.flush();
    })?;
    eprintln!();
    println!("| pairing | won | lost | drawn | unfinished | score |");
    println!("|---|---|---|---|---|---|");
    for p in &report.pairings {
        println!(
            "| {} v {} | {} | {} | {} | {} | {:.0} % |",
            p.first,
            p.second,
            p.wins,
            p.losses,
            p.draws,
            p.unfinished,
            100.0 * p.score()
        );
    }
    println!();
    println!("Think time per decision: CPU = the thinking thread's CPU time (one core's work, whatever the load); wall = elapsed, waits for a core included.");
    println!();
    println!("| player | rating (60 μ) | σ | decisions | CPU median | CPU p99 | wall median | wall p99 |");
    println!("|---|---|---|---|---|---|---|---|");
    let players: BTreeSet<&String> = report.ratings.keys().chain(report.thinks.keys()).collect();
    for player in players {
        let rating = match report.ratings.get(player) {
            Some((rating, sigma)) => format!("{rating:.0} | {sigma:.2}"),
            None => "– | –".into(),
        };
        let Some(t) = report.thinks.get(player) else {
            println!("| {player} | {rating} | 0 | | | | |");
            continue;
        };
        let cpu = match t.cpu {
            Some((median, p99)) => format!("{} ms | {} ms", ms(median), ms(p99)),
            None => "n/a | n/a".into(),
        };
        println!(
            "| {player} | {rating} | {} | {cpu} | {} ms | {} ms |",
            t.decisions,
            ms(t.wall.0),
            ms(t.wall.1)
        );
    }
    println!();
    Ok(())
}
