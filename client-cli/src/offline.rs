//! The offline commands of ORION.md section 7. Each returns the one line to print, or the
//! one-line error (printed on stderr with exit status 2). Other tools call these: keep the
//! output formats exactly as the spec states them.

use orion_engine::{
    evaluate_fences, games, has_chain, parse_moves, parse_position, position_string, Colour,
    Seat,
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
        format!("--game: unknown game `{game}` (known: {})", known.join(", "))
    })?;
    let p = parse_position(position).map_err(|e| format!("--position: {e}"))?;
    let mover = mover
        .map(|m| Colour::parse(m).ok_or_else(|| format!("--mover: unknown colour `{m}` (R, B, G or Y)")))
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

/// `orion puzzle`: replays moves under a puzzle's rules.
pub fn puzzle(name: &str, _moves: &str) -> Result<String, String> {
    Err(format!("puzzle `{name}`: puzzles are not built yet"))
}

/// `orion solve`: an optimal solution of a puzzle.
pub fn solve(name: &str, _position: Option<&str>, _census: bool) -> Result<String, String> {
    Err(format!("puzzle `{name}`: the solver is not built yet"))
}
