//! Enumerating legal whole moves: every sequence of up to N clicks that obeys the colour and
//! same-piece rules, collected as distinct end positions (pass included), with the
//! no-reversal rule applied to the end position. Used by bots, perft fixtures and benches.

use crate::board::Click;
use crate::piece::Colour;
use crate::position::Position;
use crate::rules::MoveState;
use std::collections::HashSet;

/// Distinct positions `colour` can reach with one legal move of at most `clicks` clicks from
/// `position` (passing included). `forbidden` is the position before the previous player's
/// move when the no-reversal rule applies to this move.
pub fn moves(
    position: &Position,
    colour: Colour,
    clicks: u8,
    forbidden: Option<&Position>,
) -> HashSet<Position> {
    let mut out = HashSet::new();
    let state = MoveState::new(clicks, position.of(colour));
    walk(*position, colour, state, &mut |p| {
        if forbidden != Some(p) {
            out.insert(*p);
        }
    });
    out
}

/// The number of distinct legal whole moves (see [`moves`]).
pub fn move_count(position: &Position, colour: Colour, clicks: u8) -> usize {
    moves(position, colour, clicks, None).len()
}

/// Calls `visit` with the end position of every legal click sequence (not deduplicated).
fn walk(position: Position, colour: Colour, state: MoveState, visit: &mut impl FnMut(&Position)) {
    visit(&position);
    if state.left() == 0 {
        return;
    }
    let own = position.of(colour);
    for click in Click::ALL {
        if state.check(own, click).is_ok() {
            let mut next = state;
            next.advance(click);
            walk(position.clicked(click), colour, next, visit);
        }
    }
}

/// Counts the leaves of the move tree: legal click sequences of exactly `depth` clicks from
/// `position` under the colour and same-piece rules (duplicates counted).
pub fn perft(position: &Position, colour: Colour, depth: u8) -> u64 {
    fn go(position: Position, colour: Colour, state: MoveState, depth: u8) -> u64 {
        if depth == 0 {
            return 1;
        }
        let own = position.of(colour);
        let mut n = 0;
        for click in Click::ALL {
            if state.check(own, click).is_ok() {
                let mut next = state;
                next.advance(click);
                n += go(position.clicked(click), colour, next, depth - 1);
            }
        }
        n
    }
    go(
        *position,
        colour,
        MoveState::new(depth, position.of(colour)),
        depth,
    )
}
