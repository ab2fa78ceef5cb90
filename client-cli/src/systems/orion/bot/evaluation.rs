//! How the greedy ORION bot weighs a position: Hydra's chain distance (its own against its
//! opponents'), Orion's fences closing in; the games of places are weighed in [`super::value`].

use super::situation::Situation;
use orion_engine::{Colour, Edge, Position, Slot, SlotSet};

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
    let mut dist = [INF; 60];
    let mut done = [false; 60];
    for s in edge.touching() {
        dist[s.index()] = cost(s);
    }
    let far = edge.opposite().touching();
    loop {
        let mut u = None;
        let mut best = INF;
        for (i, &d) in dist.iter().enumerate() {
            if !done[i] && d < best {
                best = d;
                u = Some(i);
            }
        }
        let Some(i) = u else {
            return INF;
        };
        let Some(slot) = Slot::from_index(i) else {
            return INF;
        };
        if far.contains(slot) {
            return best;
        }
        done[i] = true;
        for n in slot.touching() {
            let j = n.index();
            let d = best + cost(n);
            if !done[j] && d < dist[j] {
                dist[j] = d;
            }
        }
    }
}

/// Hydra evaluation: the nearest opponent's chain distance against one's own.
pub(super) fn chain_value(sit: &Situation, p: &Position) -> f64 {
    let mine = chain_distance(p, sit.me.colour, sit.me.seat.edge()) as f64;
    let theirs = sit
        .seats
        .iter()
        .filter(|s| s.colour != sit.me.colour)
        .map(|s| chain_distance(p, s.colour, s.seat.edge()))
        .min()
        .unwrap_or(0) as f64;
    // Defending matters a little less than attacking: a move that does both is best.
    0.8 * theirs - mine
}

/// Orion evaluation: points now, the whole board above all, then fences closing in (the
/// largest open region shrinking) and pieces on the board.
pub(super) fn fence_value(sit: &Situation, p: &Position, captured: usize) -> f64 {
    let fence = p.of(sit.me.colour);
    let caught = orion_engine::evaluate_fences(p, sit.me.colour);
    if caught.whole_board {
        return 10_000.0 + captured as f64 * 10.0;
    }
    let largest = orion_engine::regions(fence)
        .map(|r| r.len())
        .max()
        .unwrap_or(25) as f64;
    let others: usize = sit
        .seats
        .iter()
        .filter(|s| s.colour != sit.me.colour)
        .map(|s| (orion_engine::evaluate_fences(p, s.colour).slots & fence).len())
        .sum();
    captured as f64 * 10.0 - 3.0 * largest + fence.len() as f64 * 0.5 - others as f64 * 3.0
        + 2.0 * walls(fence) as f64
}

/// Pieces on the two fullest inner grid lines of one direction: two full lines across the
/// board leave regions of 10, 5 and 10 rotors, the whole board. A smooth guide towards it.
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
    }
}
