//! The evaluation of ORION's games, per seat, from the terminal client's `greedy` bot (the
//! knowledge the search is given, nothing else): Hydra, how far each colour is from its chain
//! against its nearest rival; Orion, points, then fences closing in; Cassiopeia, the pattern
//! nearest completion; the games of places ([`super::places`]), how far the men are from
//! where they must go. Each raw value is squashed into `0..1` on the game's own scale.

use super::{auriga_race, places};
use crate::state::{squash, Values, MAX_PLAYERS};
use orion_engine::games::cassiopeia;
use orion_engine::{
    evaluate_fences, regions, Colour, Edge, Game, Position, SeatInfo, Slot, SlotSet,
};

/// Every seat's value of `game`, by seat index.
pub fn evaluate(game: &Game) -> Values {
    let mut v = [0.0; MAX_PLAYERS];
    for (i, x) in v.iter_mut().enumerate().take(game.seats().len()) {
        *x = evaluate_seat(game, i);
    }
    v
}

/// One seat's value of `game` (`0.5` for a seat not in it): what [`evaluate`] gives it,
/// without the others' (a beam of one player's turns needs only his).
pub fn evaluate_seat(game: &Game, seat: usize) -> f64 {
    let Some(&me) = game.seats().get(seat) else {
        return 0.5;
    };
    let m = game.rules().mechanics();
    if m.chains {
        squash(chain_value(game, me), 2.0)
    } else if m.captures {
        squash(fence_value(game, me), 12.0)
    } else if game.rules().id().starts_with("cassiopeia") {
        squash(pattern_value(game, me), 1.0)
    } else {
        squash(places::value(game, me), 6.0)
    }
}

/// One seat's value of `game` as the levels judge it ([`crate::State::judge_for`]): the
/// evaluation above, finer where its integer counts tie most turns (Cassiopeia: every open
/// pattern counted, not only the best) or where it misleads (Algol: a lost secret man; Auriga: laps, not the race's odds). `greedy`, the yardstick, keeps [`evaluate_seat`].
pub fn judge_seat(game: &Game, seat: usize) -> f64 {
    let Some(&me) = game.seats().get(seat) else {
        return 0.5;
    };
    if game.rules().id().starts_with("cassiopeia") {
        squash(pattern_value(game, me) + patterns_value(game, me), 1.0)
    } else if game.rules().id() == "algol" {
        squash(places::algol_judged(game, me), 6.0)
    } else if let Some(odds) = auriga_race::judge(game, seat) {
        odds
    } else if game.rules().id() == "libra" {
        squash(places::libra_judged(game, me), 6.0)
    } else {
        evaluate_seat(game, seat)
    }
}

/// The greedy bot's raw value of `game` for `me` in its own units (greater is better).
pub fn raw(game: &Game, me: SeatInfo) -> f64 {
    let m = game.rules().mechanics();
    if m.chains {
        chain_value(game, me)
    } else if m.captures {
        fence_value(game, me)
    } else if game.rules().id().starts_with("cassiopeia") {
        pattern_value(game, me)
    } else {
        places::value(game, me)
    }
}

/// The cheapest way, in slots to fill, to join `edge` to the opposite edge for `colour`:
/// own pieces cost nothing, empty slots one, other pieces three (they must be moved away).
pub fn chain_distance(position: &Position, colour: Colour, edge: Edge) -> u32 {
    const INF: u32 = u32::MAX / 4;
    let own = position.of(colour);
    let occupied = position.occupied();
    let cost = |s: Slot| -> u32 {
        if own.contains(s) {
            0
        } else if occupied.contains(s) {
            3
        } else {
            1
        }
    };
    // Dial's algorithm: edge costs are 0, 1 or 3, so four rolling buckets order the slots.
    let mut dist = [INF; 60];
    let mut buckets: [Vec<Slot>; 4] = Default::default();
    for s in edge.touching() {
        let c = cost(s);
        dist[s.index()] = c;
        buckets[c as usize % 4].push(s);
    }
    let far = edge.opposite().touching();
    let mut done = [false; 60];
    let mut d = 0u32;
    let mut idle = 0;
    while idle < 4 {
        let b = d as usize % 4;
        if buckets[b].is_empty() {
            idle += 1;
            d += 1;
            continue;
        }
        idle = 0;
        while let Some(slot) = buckets[b].pop() {
            let i = slot.index();
            if done[i] || dist[i] != d {
                continue;
            }
            if far.contains(slot) {
                return d;
            }
            done[i] = true;
            for n in slot.touching() {
                let nd = d + cost(n);
                if nd < dist[n.index()] {
                    dist[n.index()] = nd;
                    buckets[nd as usize % 4].push(n);
                }
            }
        }
        d += 1;
    }
    INF
}

/// Hydra: the nearest rival's chain distance against one's own.
fn chain_value(game: &Game, me: SeatInfo) -> f64 {
    let p = game.position();
    let mine = f64::from(chain_distance(p, me.colour, me.seat.edge()));
    let theirs = game
        .seats()
        .iter()
        .filter(|s| s.colour != me.colour)
        .map(|s| chain_distance(p, s.colour, s.seat.edge()))
        .min()
        .unwrap_or(0);
    // Defending matters a little less than attacking: a move that does both is best.
    0.8 * f64::from(theirs) - mine
}

/// Orion: points ahead, then fences closing in (the largest open region shrinking, two full
/// lines across the board) and pieces on the board.
fn fence_value(game: &Game, me: SeatInfo) -> f64 {
    let p = game.position();
    let fence = p.of(me.colour);
    let largest = regions(fence).map(|r| r.len()).max().unwrap_or(25) as f64;
    let others: usize = game
        .seats()
        .iter()
        .filter(|s| s.colour != me.colour)
        .map(|s| (evaluate_fences(p, s.colour).slots & fence).len())
        .sum();
    let score = |seat| {
        game.scores()
            .iter()
            .find(|(s, _)| *s == seat)
            .map_or(0.0, |(_, n)| f64::from(*n))
    };
    let best_other = game
        .seats()
        .iter()
        .filter(|s| s.colour != me.colour)
        .map(|s| score(s.seat))
        .fold(0.0, f64::max);
    10.0 * (score(me.seat) - best_other) - 3.0 * largest + fence.len() as f64 * 0.5
        - others as f64 * 3.0
        + 2.0 * walls(fence) as f64
}

/// Pieces on the two fullest inner grid lines of one direction: two full lines across the
/// board leave regions of 10, 5 and 10 rotors, the whole board.
fn walls(fence: SlotSet) -> usize {
    let mut best = 0;
    for horizontal in [true, false] {
        let mut counts: Vec<usize> = (1..5u8)
            .map(|line| {
                (0..5u8)
                    .filter_map(|i| {
                        if horizontal {
                            Slot::horizontal(line, i)
                        } else {
                            Slot::vertical(line, i)
                        }
                    })
                    .filter(|&s| fence.contains(s))
                    .count()
            })
            .collect();
        counts.sort_unstable_by(|a, b| b.cmp(a));
        best = best.max(counts.iter().take(2).sum());
    }
    best
}

/// Cassiopeia: own pieces in the open pattern (no other piece in it) nearest completion,
/// against the best rival's.
fn pattern_value(game: &Game, me: SeatInfo) -> f64 {
    let patterns = if game.rules().id() == "cassiopeia" {
        cassiopeia::staircases()
    } else {
        cassiopeia::lines_of_five()
    };
    let p = game.position();
    let best = |colour: Colour| {
        let own = p.of(colour);
        let others = p.occupied() & !own;
        patterns
            .iter()
            .filter(|pat| !pat.intersects(others))
            .map(|pat| (*pat & own).len())
            .max()
            .unwrap_or(0) as f64
    };
    let theirs = game
        .seats()
        .iter()
        .filter(|s| s.colour != me.colour)
        .map(|s| best(s.colour))
        .fold(0.0, f64::max);
    best(me.colour) - 1.1 * theirs
}

/// What an open pattern holding k own pieces adds to [`patterns_value`], by k: each piece
/// more is worth several patterns of one fewer (a near pattern is a threat, two a fork).
const PATTERN_WEIGHTS: [f64; 6] = [0.0, 1.0, 4.0, 16.0, 64.0, 256.0];

/// How much every open pattern counts beside the best one (see [`PATTERN_WEIGHTS`]).
const PATTERNS_SCALE: f64 = 0.01;

/// Cassiopeia: every open pattern (no other piece in it), weighted by the own pieces in it,
/// against the best rival's; a fraction of a piece in all, so it tells apart turns
/// [`pattern_value`] calls equal.
fn patterns_value(game: &Game, me: SeatInfo) -> f64 {
    let patterns = if game.rules().id() == "cassiopeia" {
        cassiopeia::staircases()
    } else {
        cassiopeia::lines_of_five()
    };
    let p = game.position();
    let sum = |colour: Colour| {
        let own = p.of(colour);
        let others = p.occupied() & !own;
        patterns
            .iter()
            .filter(|pat| !pat.intersects(others))
            .map(|pat| PATTERN_WEIGHTS[(*pat & own).len().min(5)])
            .sum::<f64>()
    };
    let theirs = game
        .seats()
        .iter()
        .filter(|s| s.colour != me.colour)
        .map(|s| sum(s.colour))
        .fold(0.0, f64::max);
    PATTERNS_SCALE * (sum(me.colour) - 1.1 * theirs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use orion_engine::parse_position;

    #[test]
    fn chain_distance_counts_the_gaps() {
        let p = parse_position("C1w:R1 C2w:R2 C3w:R3 C4w:R4 C5w:R5").unwrap();
        assert_eq!(chain_distance(&p, Colour::Red, Edge::Bottom), 0);
        let p = parse_position("C1w:R1 C2w:R2 C4w:R4 C5w:R5").unwrap();
        assert_eq!(chain_distance(&p, Colour::Red, Edge::Bottom), 1);
        // A blue man in the gap costs three; going round it costs more.
        let p = parse_position("C1w:R1 C2w:R2 C3w:B1 C4w:R4 C5w:R5").unwrap();
        let d = chain_distance(&p, Colour::Red, Edge::Bottom);
        assert!((2..=3).contains(&d), "{d}");
        // An empty board: a full column of five.
        assert_eq!(
            chain_distance(&Position::empty(), Colour::Red, Edge::Bottom),
            5
        );
    }
}
