//! The ladder: games between players (levels and `greedy`) with the engines alone, each
//! level against the one below and against `greedy`, seats rotated so nobody always moves
//! first (in a game of more seats the tested player takes one side, its opponent the rest),
//! with win rates, Weng-Lin ratings (the `skillratings` crate, as the server rates players)
//! and think times: each decision's CPU time on the thread that thought (what "2 s of one
//! core" means, whatever else the machine runs) and its wall time. No I/O: the `ladder`
//! binary prints what [`run_ladder_with`] returns.

use crate::history::History;
use crate::level::{decide_planned, Player};
use crate::mcts::Budget;
use crate::plan::LevelPlan;
use crate::state::{Observe, State, ToAct, Values};
use crate::systems::{orbit::OrbitState, orbs::OrbsState, orion::OrionState};
use cpu_time::ThreadTime;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skillratings::weng_lin::{weng_lin, WengLinConfig, WengLinRating};
use skillratings::Outcomes;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};
use thiserror::Error;

/// A game the ladder can play.
#[derive(Clone, Copy)]
pub enum GameSpec {
    /// One of ORION's twelve games, with its number of players.
    Orion(&'static dyn orion_engine::Rules, u8),
    /// Orbit (two players).
    Orbit,
    /// Orbs with 2 to 6 players (partners when `teams`).
    Orbs(u8, bool),
}

/// Why a ladder cannot run.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LadderError {
    /// Not a game of ORION, nor Orbit, nor Orbs.
    #[error("unknown game `{0}`: an ORION game id (hydra-2, algol, ...), orbit or orbs")]
    UnknownGame(String),
    /// A number of players the game does not seat.
    #[error("{game} is not for {players} players")]
    Players {
        /// The game.
        game: String,
        /// The number asked for.
        players: u8,
    },
    /// A player returned an action the game does not allow: a bug, reported, not played.
    #[error("{player} chose {action}, which is not legal in {game}")]
    Illegal {
        /// Who chose it.
        player: String,
        /// The action, as debug text.
        action: String,
        /// The game.
        game: String,
    },
}

/// The game named `name` (an ORION game id or name, `orbit`, `orbs`; `hydra-4`-style ids
/// carry their players) with `players` players (`None`: the game's default).
pub fn parse_game(name: &str, players: Option<u8>, teams: bool) -> Result<GameSpec, LadderError> {
    let n = name.trim().to_ascii_lowercase();
    let bad_players = |p| LadderError::Players {
        game: n.clone(),
        players: p,
    };
    match n.as_str() {
        "orbit" => match players {
            None | Some(2) => Ok(GameSpec::Orbit),
            Some(p) => Err(bad_players(p)),
        },
        "orbs" => {
            let p = players.unwrap_or(2);
            if !(2..=6).contains(&p) || (teams && p % 2 != 0) {
                return Err(bad_players(p));
            }
            Ok(GameSpec::Orbs(p, teams))
        }
        _ => {
            let rules =
                orion_engine::games::find(&n).ok_or_else(|| LadderError::UnknownGame(n.clone()))?;
            let p = players.unwrap_or(rules.default_players());
            if !rules.players().contains(&p) {
                return Err(bad_players(p));
            }
            Ok(GameSpec::Orion(rules, p))
        }
    }
}

impl GameSpec {
    /// The game's name as the ladder prints it.
    pub fn name(&self) -> String {
        match self {
            GameSpec::Orion(rules, p) => format!("{} ({p} players)", rules.id()),
            GameSpec::Orbit => "orbit".into(),
            GameSpec::Orbs(p, teams) => {
                format!("orbs ({p} players{})", if *teams { ", teams" } else { "" })
            }
        }
    }
}

/// Every game system the levels play, each with its default players: the thirteen ORION
/// rule sets in the booklet's order (Hydra for Two, for Partners and for Four apart), Orbit
/// and two-player Orbs. `ladder --game all` plays them in this order.
pub fn every_game() -> Vec<GameSpec> {
    let orion = orion_engine::games::ALL
        .iter()
        .map(|rules| GameSpec::Orion(*rules, rules.default_players()));
    orion
        .chain([GameSpec::Orbit, GameSpec::Orbs(2, false)])
        .collect()
}

/// The turn limit past which a game counts as drawn (rounds in ORION, moves elsewhere). No
/// ORION game has a limit of its own (a game ends by its rules, a resignation, the clock or
/// an abandonment); the ladder's 400 rounds only bound a game that goes nowhere, and are
/// far past any game a person plays (150 until 2026-11-27, when slow wins in Bootes and
/// Libra counted as draws); a game may set more ([`crate::systems::orion::ladder_rounds`]).
pub fn turn_limit(spec: &GameSpec) -> u32 {
    match spec {
        GameSpec::Orion(rules, _) => crate::systems::orion::ladder_rounds(*rules),
        GameSpec::Orbit => 1_000,
        GameSpec::Orbs(..) => 2_000,
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// Returns per seat (turn order): 1 a win, 0 a loss, shares for a draw or the turn limit.
    pub returns: Values,
    /// The side of each seat (partners share one).
    pub sides: Vec<usize>,
    /// Every decision's think time, by who thought.
    pub thinks: Vec<(Player, Think)>,
    /// Every decision and chance outcome in order, as debug text.
    pub actions: Vec<String>,
    /// Whether the game was stopped by a pairing's time cap before its end (its returns are
    /// then shares, as for a draw, and a ladder does not count it).
    pub stopped: bool,
}

/// One decision's think time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Think {
    /// CPU time of the thread that thought (`CLOCK_THREAD_CPUTIME_ID`, the `cpu-time`
    /// crate): one core's work, the same on a busy machine as on a quiet one. `None` where the
    /// system has no such clock.
    pub cpu: Option<Duration>,
    /// Wall-clock time: the CPU time plus whatever the thread waited for a core.
    pub wall: Duration,
}

impl Think {
    /// Runs `f` (on this thread) and measures it.
    pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Think) {
        let wall = Instant::now();
        let cpu = ThreadTime::try_now().ok();
        let out = f();
        // Read in the reverse order, so the CPU interval lies inside the wall one.
        let cpu = cpu.and_then(|c| c.try_elapsed().ok());
        let wall = wall.elapsed();
        (out, Think { cpu, wall })
    }
}

/// Plays one game of `spec` with `seats[i]` deciding for seat `i`; `scale` multiplies every
/// level's budget (positions evaluated by levels 7 and 8) (1.0: the levels as they are).
pub fn play(
    spec: &GameSpec,
    seats: &[Player],
    seed: u64,
    scale: f64,
) -> Result<Played, LadderError> {
    play_for(spec, seats, seed, scale, u32::MAX)
}

/// As [`play`], stopping at `until` (then [`Played::stopped`]): a ladder's time cap.
pub fn play_until(
    spec: &GameSpec,
    seats: &[Player],
    seed: u64,
    scale: f64,
    until: Option<Instant>,
) -> Result<Played, LadderError> {
    play_within(spec, seats, seed, scale, turn_limit(spec), until, None)
}

/// As [`play_until`], with `turns` (rounds in ORION, moves elsewhere) in place of the game's
/// [`turn_limit`], and levels 2 to 7 as `plan` says where it is given (in place of the
/// game's own plan).
pub fn play_within(
    spec: &GameSpec,
    seats: &[Player],
    seed: u64,
    scale: f64,
    turns: u32,
    until: Option<Instant>,
    plan: Option<&LevelPlan>,
) -> Result<Played, LadderError> {
    let limit = Limit {
        turns,
        decisions: u64::MAX,
        until,
    };
    play_limited(spec, seats, seed, Tuning { scale, plan }, limit)
}

/// As [`play`], stopping after `decisions` decisions (counted as a draw then): for tests
/// that look at many games' first moves.
pub fn play_for(
    spec: &GameSpec,
    seats: &[Player],
    seed: u64,
    scale: f64,
    decisions: u32,
) -> Result<Played, LadderError> {
    let limit = Limit {
        turns: turn_limit(spec),
        decisions: u64::from(decisions),
        until: None,
    };
    play_limited(spec, seats, seed, Tuning { scale, plan: None }, limit)
}

/// How the seats' levels play: their budgets' scale and, where given, a plan of levels 2 to 7
/// in place of the game's own.
#[derive(Clone, Copy)]
struct Tuning<'a> {
    /// Multiplies every level's budget.
    scale: f64,
    /// Levels 2 to 7, where not the game's own.
    plan: Option<&'a LevelPlan>,
}

/// [`play_for`] and [`play_until`]: one game within `limit`.
fn play_limited(
    spec: &GameSpec,
    seats: &[Player],
    seed: u64,
    tuning: Tuning,
    limit: Limit,
) -> Result<Played, LadderError> {
    match *spec {
        GameSpec::Orion(rules, players) => {
            let options = orion_engine::Options {
                players: Some(players),
                ..orion_engine::Options::default()
            };
            let game = orion_engine::Game::new(rules, options, seed).map_err(|_| {
                LadderError::Players {
                    game: rules.id().into(),
                    players,
                }
            })?;
            run(OrionState::new(game, 0), spec, seats, seed, tuning, limit)
        }
        GameSpec::Orbit => run(
            OrbitState::new(orion_orbit::Game::new()),
            spec,
            seats,
            seed,
            tuning,
            limit,
        ),
        GameSpec::Orbs(players, teams) => {
            let options = orion_orbs::Options {
                players,
                teams,
                ..orion_orbs::Options::default()
            };
            let game = orion_orbs::Game::new(options).map_err(|_| LadderError::Players {
                game: "orbs".into(),
                players,
            })?;
            run(OrbsState::new(game), spec, seats, seed, tuning, limit)
        }
    }
}

/// `player`'s budget with its positions scaled.
fn scaled(player: Player, scale: f64) -> Option<Budget> {
    let Player::Level(level) = player else {
        return None;
    };
    level
        .budget()
        .map(|b| Budget { time: None, ..b }.scaled(scale))
}

/// Where a game is stopped and called a draw.
#[derive(Clone, Copy)]
struct Limit {
    /// Turns, as the game counts them.
    turns: u32,
    /// Decisions.
    decisions: u64,
    /// A time past which the game is stopped (not counted as a draw: [`Played::stopped`]).
    until: Option<Instant>,
}

fn run<S: Observe>(
    mut state: S,
    spec: &GameSpec,
    seats: &[Player],
    seed: u64,
    tuning: Tuning,
    limit: Limit,
) -> Result<Played, LadderError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xd1ce);
    let mut thinks = Vec::new();
    let mut actions = Vec::new();
    let mut odds = Vec::new();
    let mut legal = Vec::new();
    let n = state.players();
    let sides = (0..n).map(|i| state.side(i)).collect();
    let mut decision = 0u64;
    let mut stopped = false;
    // The positions the game's turns started from, as a room's table records them.
    let mut history = History::new();
    history.record(&state);
    while state.turns() <= limit.turns && decision < limit.decisions {
        if limit.until.is_some_and(|t| Instant::now() >= t) {
            stopped = true;
            break;
        }
        match state.to_act() {
            ToAct::Over => {
                return Ok(Played {
                    returns: state.returns(),
                    sides,
                    thinks,
                    actions,
                    stopped,
                })
            }
            ToAct::Chance => {
                odds.clear();
                state.chance_outcomes(&mut odds);
                let i = rng.gen_range(0..odds.len().max(1));
                let Some(&(face, _)) = odds.get(i) else {
                    break;
                };
                actions.push(format!("{face:?}"));
                state.apply_chance(face);
                history.record(&state);
            }
            ToAct::Player(p) => {
                let player = seats.get(p).copied().unwrap_or(Player::Greedy);
                let view = state.view(p);
                decision += 1;
                let (action, think) = Think::measure(|| {
                    decide_planned(
                        player,
                        &view,
                        &history,
                        scaled(player, tuning.scale),
                        seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ decision,
                        tuning.plan,
                    )
                });
                thinks.push((player, think));
                legal.clear();
                state.legal_actions(&mut legal);
                match action {
                    Some(a) if legal.contains(&a) => {
                        actions.push(format!("{p}: {a:?}"));
                        state.apply(a);
                        history.record(&state);
                    }
                    other => {
                        return Err(LadderError::Illegal {
                            player: player.to_string(),
                            action: format!("{other:?}"),
                            game: spec.name(),
                        })
                    }
                }
            }
        }
    }
    // The turn limit: a draw (or the time cap: not counted).
    let mut returns = [0.0; crate::state::MAX_PLAYERS];
    for r in returns.iter_mut().take(n) {
        *r = 1.0 / n as f64;
    }
    Ok(Played {
        returns,
        sides,
        thinks,
        actions,
        stopped,
    })
}

/// One pairing's games: `first` against `second`.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairing {
    /// The tested player.
    pub first: Player,
    /// Its opponent (at every seat not on `first`'s side).
    pub second: Player,
    /// Games `first` won.
    pub wins: u32,
    /// Games `second` won.
    pub losses: u32,
    /// Draws, shared wins and games stopped at the turn limit.
    pub draws: u32,
    /// Games stopped by the pairing's time cap before their end: in no count above.
    pub unfinished: u32,
}

impl Pairing {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// `first`'s score: a win 1, a draw ½.
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games().max(1))
    }
}

/// What a ladder found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The game.
    pub game: String,
    /// Every pairing played.
    pub pairings: Vec<Pairing>,
    /// Each player's Weng-Lin rating after every game, as shown (60 × μ), and σ.
    pub ratings: BTreeMap<String, (f64, f64)>,
    /// Each player's think times, over every decision of every game played (unfinished
    /// ones too).
    pub thinks: BTreeMap<String, ThinkTimes>,
}

/// One player's think times over a ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThinkTimes {
    /// Decisions made.
    pub decisions: usize,
    /// CPU time of one decision ([`Think::cpu`]): median and 99th percentile (`None` where
    /// the system has no thread CPU clock).
    pub cpu: Option<(Duration, Duration)>,
    /// Wall time of one decision: median and 99th percentile.
    pub wall: (Duration, Duration),
}

impl ThinkTimes {
    /// The median and 99th percentile of `thinks` (`None` for none).
    pub fn of(thinks: &[Think]) -> Option<ThinkTimes> {
        fn quantiles(mut ds: Vec<Duration>) -> Option<(Duration, Duration)> {
            ds.sort_unstable();
            let at = |q: f64| ds.get(((ds.len().checked_sub(1)?) as f64 * q).round() as usize);
            Some((*at(0.5)?, *at(0.99)?))
        }
        let cpu: Option<Vec<Duration>> = thinks.iter().map(|t| t.cpu).collect();
        Some(ThinkTimes {
            decisions: thinks.len(),
            cpu: cpu.and_then(quantiles),
            wall: quantiles(thinks.iter().map(|t| t.wall).collect())?,
        })
    }
}

/// How a ladder is played: games per pairing, seeds, budgets, threads and a time cap.
#[derive(Clone, Copy, Debug)]
pub struct Sitting {
    /// Games per pairing.
    pub games: u32,
    /// The first game's seed; the others follow it.
    pub seed: u64,
    /// Multiplies the budgets of levels 7 and 8 (1.0: the levels as they are).
    pub scale: f64,
    /// Games at once, one a thread (1 to [`MAX_THREADS`]).
    pub threads: usize,
    /// Wall time a pairing may take (`None`: no cap): past it no game starts and the games in
    /// play stop where they are, counted as [`Pairing::unfinished`], their decisions' think
    /// times kept. For the long games on a busy machine.
    pub per_pairing: Option<Duration>,
    /// The turn limit past which a game counts as drawn (`None`: the game's [`turn_limit`]).
    /// A game that ends before either limit is the same game under both (the players do not
    /// see the limit), so a longer one plays on only the games the shorter one drew.
    pub turn_limit: Option<u32>,
    /// How a pairing's two players share a game's seats.
    pub seating: Seating,
    /// Levels 2 to 7 as this plan says, in place of the game's own (`None`: the levels as
    /// they are): for trying a plan before it is a game's.
    pub plan: Option<LevelPlan>,
}

/// How a pairing's two players share the seats of a game of more than two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Seating {
    /// The first player takes one seat (with its partners), the second every other: in
    /// Hydra for Four, one level against three of the other (as level 8 is measured against
    /// three `greedy`). Two equal players win a quarter and three quarters of the games.
    #[default]
    Alone,
    /// Every other seat each, the first player's seats shifting by one from game to game:
    /// in Hydra for Four, two of each level, so two equal players win half the games each,
    /// as in a two-player game. Only where every seat plays for itself and the seats are
    /// even; elsewhere as [`Seating::Alone`] (in a two-player game both are the same).
    Halves,
}

/// Plays `games` games of each pairing in `pairs`, the seeds following `seed`, calling
/// `progress` after each game (the binary prints a dot).
pub fn run_ladder(
    spec: &GameSpec,
    pairs: &[(Player, Player)],
    games: u32,
    seed: u64,
    scale: f64,
    progress: impl FnMut(&Pairing),
) -> Result<Report, LadderError> {
    run_ladder_on(spec, pairs, games, seed, scale, 1, progress)
}

/// The most games [`run_ladder_on`] plays at once.
pub const MAX_THREADS: usize = 2;

/// As [`run_ladder`], with up to `threads` games at once (at most [`MAX_THREADS`]; each game
/// on one thread, one core). The games, their seeds and the report are the same whatever
/// `threads` is: results are counted in the games' order.
pub fn run_ladder_on(
    spec: &GameSpec,
    pairs: &[(Player, Player)],
    games: u32,
    seed: u64,
    scale: f64,
    threads: usize,
    progress: impl FnMut(&Pairing),
) -> Result<Report, LadderError> {
    let sitting = Sitting {
        games,
        seed,
        scale,
        threads,
        per_pairing: None,
        turn_limit: None,
        seating: Seating::Alone,
        plan: None,
    };
    run_ladder_with(spec, pairs, &sitting, progress)
}

/// As [`run_ladder_on`], as `sitting` says (a time cap per pairing too).
pub fn run_ladder_with(
    spec: &GameSpec,
    pairs: &[(Player, Player)],
    sitting: &Sitting,
    mut progress: impl FnMut(&Pairing),
) -> Result<Report, LadderError> {
    let Sitting {
        games,
        seed,
        scale,
        threads,
        per_pairing,
        turn_limit: turns,
        seating,
        plan,
    } = *sitting;
    let turns = turns.unwrap_or_else(|| turn_limit(spec));
    let config = WengLinConfig::new();
    let mut ratings: BTreeMap<String, WengLinRating> = BTreeMap::new();
    let mut times: BTreeMap<String, Vec<Think>> = BTreeMap::new();
    let mut pairings = Vec::new();
    let n = seats_of(spec);
    let probe = play_sides(spec)?;
    for (k, &(first, second)) in pairs.iter().enumerate() {
        let mut pairing = Pairing {
            first,
            second,
            wins: 0,
            losses: 0,
            draws: 0,
            unfinished: 0,
        };
        let until = per_pairing.map(|d| Instant::now() + d);
        let setup = |g: u32| {
            let game_seed = seed
                .wrapping_add((k as u64) << 32)
                .wrapping_add(u64::from(g));
            let firsts = firsts(&probe, seating, g);
            let seats: Vec<Player> = firsts
                .iter()
                .map(|&f| if f { first } else { second })
                .collect();
            (game_seed, firsts, seats)
        };
        let next = AtomicU32::new(0);
        let (tx, rx) = mpsc::channel::<(u32, Result<Played, LadderError>)>();
        let mut done: BTreeMap<u32, Played> = BTreeMap::new();
        let mut counted = 0u32;
        let mut failed = None;
        thread::scope(|scope| {
            for _ in 0..threads.clamp(1, MAX_THREADS) {
                let tx = tx.clone();
                let next = &next;
                let setup = &setup;
                scope.spawn(move || loop {
                    if until.is_some_and(|t| Instant::now() >= t) {
                        break;
                    }
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games {
                        break;
                    }
                    let (game_seed, _, seats) = setup(g);
                    let played =
                        play_within(spec, &seats, game_seed, scale, turns, until, plan.as_ref());
                    let stop = played.is_err();
                    if tx.send((g, played)).is_err() || stop {
                        next.store(games, Ordering::Relaxed);
                        break;
                    }
                });
            }
            drop(tx);
            for (g, played) in rx {
                match played {
                    Ok(p) => {
                        done.insert(g, p);
                    }
                    Err(e) => {
                        failed.get_or_insert(e);
                        continue;
                    }
                }
                // Count the games in order, as they become complete from the first.
                while let Some(played) = done.remove(&counted) {
                    let (_, firsts, _) = setup(counted);
                    counted += 1;
                    for (p, d) in played.thinks {
                        times.entry(p.to_string()).or_default().push(d);
                    }
                    if played.stopped {
                        pairing.unfinished += 1;
                        progress(&pairing);
                        continue;
                    }
                    let best = |theirs: bool| {
                        (0..n)
                            .filter(|&i| firsts[i] == theirs)
                            .map(|i| played.returns[i])
                            .fold(0.0, f64::max)
                    };
                    let outcome = if best(true) >= 1.0 {
                        pairing.wins += 1;
                        Outcomes::WIN
                    } else if best(false) >= 1.0 {
                        pairing.losses += 1;
                        Outcomes::LOSS
                    } else {
                        pairing.draws += 1;
                        Outcomes::DRAW
                    };
                    let a = ratings.get(&first.to_string()).copied().unwrap_or_default();
                    let b = ratings
                        .get(&second.to_string())
                        .copied()
                        .unwrap_or_default();
                    let (a, b) = weng_lin(&a, &b, &outcome, &config);
                    ratings.insert(first.to_string(), a);
                    ratings.insert(second.to_string(), b);
                    progress(&pairing);
                }
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        pairings.push(pairing);
    }
    let thinks = times
        .into_iter()
        .filter_map(|(p, ts)| Some((p, ThinkTimes::of(&ts)?)))
        .collect();
    Ok(Report {
        game: spec.name(),
        pairings,
        ratings: ratings
            .into_iter()
            .map(|(p, r)| (p, (60.0 * r.rating, r.uncertainty)))
            .collect(),
        thinks,
    })
}

/// How many seats a game of `spec` has.
fn seats_of(spec: &GameSpec) -> usize {
    match spec {
        GameSpec::Orion(_, p) | GameSpec::Orbs(p, _) => usize::from(*p),
        GameSpec::Orbit => 2,
    }
}

/// Which seats of game `game` (counted from 0) of a ladder's pairing of `spec` are the first
/// player's, as `seating` shares them: seat `game` mod n with its partners, or in
/// [`Seating::Halves`] the seats of `game`'s parity.
pub fn first_seats(spec: &GameSpec, seating: Seating, game: u32) -> Result<Vec<bool>, LadderError> {
    Ok(firsts(&play_sides(spec)?, seating, game))
}

/// [`first_seats`] for a game whose seats' sides are `sides`.
fn firsts(sides: &[usize], seating: Seating, game: u32) -> Vec<bool> {
    let n = sides.len();
    let g = game as usize;
    if seating == Seating::Halves && n % 2 == 0 && distinct(sides) {
        return (0..n).map(|i| (i + g) % 2 == 0).collect();
    }
    let mine = sides[g % n];
    sides.iter().map(|&side| side == mine).collect()
}

/// Whether every seat is a side of its own (no partners).
fn distinct(sides: &[usize]) -> bool {
    sides
        .iter()
        .enumerate()
        .all(|(i, s)| !sides[..i].contains(s))
}

/// The side of each seat of a game of `spec`.
fn play_sides(spec: &GameSpec) -> Result<Vec<usize>, LadderError> {
    Ok(match *spec {
        GameSpec::Orion(rules, players) => {
            let options = orion_engine::Options {
                players: Some(players),
                ..orion_engine::Options::default()
            };
            let game =
                orion_engine::Game::new(rules, options, 0).map_err(|_| LadderError::Players {
                    game: rules.id().into(),
                    players,
                })?;
            let s = OrionState::new(game, 0);
            (0..s.players()).map(|i| s.side(i)).collect()
        }
        GameSpec::Orbit => vec![0, 1],
        GameSpec::Orbs(players, teams) => {
            let options = orion_orbs::Options {
                players,
                teams,
                ..orion_orbs::Options::default()
            };
            let game = orion_orbs::Game::new(options).map_err(|_| LadderError::Players {
                game: "orbs".into(),
                players,
            })?;
            let s = OrbsState::new(game);
            (0..s.players()).map(|i| s.side(i)).collect()
        }
    })
}
