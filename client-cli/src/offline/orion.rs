//! The offline commands of ORION.md section 7: apply, analyze, puzzle, solve (with the
//! Orbit Solitaire B census). Each returns the one line to print, or the one-line error.

use orion_engine::solve::{census, OrbitSpace, PackedDistances};
use orion_engine::{
    evaluate_fences, format_moves, games, has_chain, parse_moves, parse_position, position_string,
    puzzles, Colour, Seat,
};
use serde_json::json;

/// `orion apply`: the mechanics alone.
pub fn apply(position: &str, moves: &str) -> Result<String, String> {
    let mut p = parse_position(position).map_err(|e| format!("--position: {e}"))?;
    let clicks = parse_moves(moves).map_err(|e| format!("--moves: {e}"))?;
    p.play(&clicks);
    Ok(position_string(&p))
}

/// `orion analyze`: which colours hold a Hydra chain, and for Orion what the mover captures.
pub fn analyze(game: &str, position: &str, mover: Option<&str>) -> Result<String, String> {
    let rules = games::find(game).ok_or_else(|| {
        let known: Vec<_> = games::ALL.iter().map(|g| g.id()).collect();
        format!(
            "--game: unknown game `{game}` (known: {})",
            known.join(", ")
        )
    })?;
    let p = parse_position(position).map_err(|e| format!("--position: {e}"))?;
    let mover = mover
        .map(|m| {
            Colour::parse(m).ok_or_else(|| format!("--mover: unknown colour `{m}` (R, B, G or Y)"))
        })
        .transpose()?;
    // A colour's chain runs between the edge of the seat that plays it and the opposite edge.
    let mut chains = Vec::new();
    for colour in Colour::ALL {
        let seat = Seat::ALL
            .into_iter()
            .find(|s| s.colour() == colour)
            .expect("every colour has a seat");
        if has_chain(p.of(colour), seat.edge()) {
            chains.push(colour.letter().to_string());
        }
    }
    let mut out = json!({ "game": rules.id(), "chains": chains });
    if let Some(mover) = mover {
        if rules.mechanics().captures {
            let capture = evaluate_fences(&p, mover);
            let slots: Vec<String> = capture.slots.into_iter().map(|s| s.to_string()).collect();
            out["captured"] = json!(slots);
            out["whole_board"] = json!(capture.whole_board);
        }
    }
    Ok(out.to_string())
}

/// `orion puzzle`: replays moves under a puzzle's rules. `aquarius` scores up to five tries
/// (each move a click of the rotor the subject chose) against chains drawn with the published
/// seed 1971.
pub fn puzzle(name: &str, moves: &str) -> Result<String, String> {
    let clicks = parse_moves(moves).map_err(|e| format!("--moves: {e}"))?;
    if name.eq_ignore_ascii_case("aquarius") {
        return aquarius(&clicks);
    }
    let p = find_puzzle(name)?;
    // Keys in the order ORION.md section 7 prints them.
    let line = match p.replay(&clicks) {
        Ok(end) => format!(
            r#"{{"legal":true,"clicks":{},"solved":{},"error":null}}"#,
            clicks.len(),
            p.solved(&end)
        ),
        Err(e) => format!(
            r#"{{"legal":false,"clicks":{},"solved":false,"error":{{"click":{},"reason":{}}}}}"#,
            e.played,
            e.click,
            json!(e.reason.to_string())
        ),
    };
    Ok(line)
}

/// The seed `orion puzzle aquarius` draws its chains from, so a line can be checked again.
const AQUARIUS_SEED: u64 = 1971;

fn aquarius(clicks: &[orion_engine::Click]) -> Result<String, String> {
    if clicks.len() > puzzles::TRIES {
        return Err(format!(
            "--moves: aquarius allows {} tries, got {}",
            puzzles::TRIES,
            clicks.len()
        ));
    }
    let mut test = puzzles::AquariusTest::new(AQUARIUS_SEED);
    for &c in clicks {
        test.attempt(c);
    }
    // The booklet: 3–5 out of 5 means "mental telepathy is probably at work".
    Ok(format!(
        r#"{{"legal":true,"clicks":{},"solved":{},"error":null,"score":{}}}"#,
        clicks.len(),
        test.score() >= puzzles::TELEPATHY,
        test.score()
    ))
}

fn find_puzzle(name: &str) -> Result<puzzles::Puzzle, String> {
    puzzles::find(name).ok_or_else(|| {
        format!(
            "unknown puzzle `{name}` (known: {}, aquarius)",
            puzzles::NAMES.join(", ")
        )
    })
}

/// `orion solve`: an optimal solution of a puzzle, or with `--census` the distance of every
/// Orbit Solitaire B arrangement.
pub fn solve(name: &str, position: Option<&str>, census: bool) -> Result<String, String> {
    let p = find_puzzle(name)?;
    if census {
        return orbit_census(&p);
    }
    let p = match position {
        Some(text) => {
            let start = parse_position(text).map_err(|e| format!("--position: {e}"))?;
            p.with_start(start)
                .map_err(|e| format!("--position: {e}"))?
        }
        None => p,
    };
    let found = match census_table(&p) {
        Some((space, table)) => space.solve_by_census(&table),
        None => orion_engine::solve::solve(&p),
    }
    .map_err(|e| format!("{}: {e}", p.name))?;
    Ok(format!(
        r#"{{"clicks":{},"moves":{}}}"#,
        found.clicks.len(),
        json!(format_moves(&found.clicks))
    ))
}

/// Where `orion solve orbit-b --census` keeps its table (120 MB): `$ORION_CENSUS`, else
/// `orbit-b.census` in `$XDG_CACHE_HOME/orion` or `~/.cache/orion`.
fn census_path() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("ORION_CENSUS") {
        return Some(p.into());
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".cache")))?;
    Some(cache.join("orion").join("orbit-b.census"))
}

/// The stored census table for Orbit B, if one is there and whole.
fn census_table(p: &puzzles::Puzzle) -> Option<(OrbitSpace, PackedDistances)> {
    if p.name != "orbit-b" {
        return None;
    }
    let space = OrbitSpace::new(p).ok()?;
    let bytes = std::fs::read(census_path()?).ok()?;
    let table = PackedDistances::from_bytes(&bytes, space.size())?;
    Some((space, table))
}

/// The Orbit Solitaire B census on every core; the table is stored for later solves.
fn orbit_census(p: &puzzles::Puzzle) -> Result<String, String> {
    if p.name != "orbit-b" {
        return Err(format!(
            "--census: only orbit-b has a census, not `{}`",
            p.name
        ));
    }
    let space = OrbitSpace::new(p).map_err(|e| format!("{}: {e}", p.name))?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let began = std::time::Instant::now();
    let c = census(&space, threads, |_, _| {});
    let seconds = began.elapsed().as_secs_f64();
    let total: u64 = c.counts.iter().sum();
    let saved = census_path().and_then(|path| {
        std::fs::create_dir_all(path.parent()?).ok()?;
        std::fs::write(&path, c.table.to_bytes()).ok()?;
        Some(path.display().to_string())
    });
    Ok(json!({
        "arrangements": total,
        "gods_number": c.gods_number(),
        "distribution": c.counts,
        "within_25": c.within(25),
        "share_within_25": c.within(25) as f64 / total as f64,
        "table_bytes": c.table.bytes(),
        "threads": threads,
        "seconds": (seconds * 10.0).round() / 10.0,
        "saved": saved,
    })
    .to_string())
}
