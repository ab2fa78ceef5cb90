//! Orbs as `greedy` values it (the terminal client's `greedy` bot): orbs on each side, orbs
//! en prise, threats, and hunters closing on their prey. Its own module so that the search
//! state (`orbs`) and the levels' endgame judgement (`orbs_end`), which both build on it,
//! depend on it one way.

use orion_orbs::{Clash, Element, Game, Hole, Orb, Seat};

/// What an orb on the board is worth.
const ORB: i64 = 1000;

/// The scale [`raw`]'s count is squashed by into `0..1` (`greedy`'s and the levels').
pub const SQUASH: f64 = 1500.0;

/// The greedy bot's value of `game` for `me` (in hundredths of an orb, roughly).
pub fn raw(game: &Game, me: Seat) -> i64 {
    let Some(my_colour) = game.colour_of(me) else {
        return 0;
    };
    let mine: Vec<(Hole, Orb)> = game
        .position()
        .orbs()
        .filter(|(_, o)| game.allied(o.colour, my_colour))
        .collect();
    let theirs: Vec<(Hole, Orb)> = game
        .position()
        .orbs()
        .filter(|(_, o)| !game.allied(o.colour, my_colour))
        .collect();
    // Material, and a small reward for every enemy orb gone so that even trades are taken.
    let mut score = ORB * (mine.len() as i64 - theirs.len() as i64) - 50 * theirs.len() as i64;
    for &(h, orb) in &mine {
        let attacked = theirs.iter().any(|&(t, enemy)| {
            t.is_adjacent(h) && enemy.element.clash(orb.element) == Clash::MoverWins
        });
        if attacked {
            score -= 600;
        }
    }
    for &(t, enemy) in &theirs {
        if mine.iter().any(|&(h, orb)| {
            h.is_adjacent(t) && orb.element.clash(enemy.element) == Clash::MoverWins
        }) {
            score += 250;
        }
        let hunter = mine
            .iter()
            .filter(|(_, orb)| hunts(orb.element, enemy.element))
            .map(|(h, _)| h.distance(t) as i64)
            .min();
        if let Some(d) = hunter {
            score -= 10 * d;
        }
    }
    for &(h, orb) in &mine {
        let prey = theirs
            .iter()
            .filter(|(_, enemy)| hunts(orb.element, enemy.element))
            .map(|(t, _)| h.distance(*t) as i64)
            .min();
        if let Some(d) = prey {
            score -= 2 * d;
        }
    }
    score
}

/// Whether an orb of `hunter` should chase one of `prey`: it wins the meeting, or trades.
fn hunts(hunter: Element, prey: Element) -> bool {
    matches!(hunter.clash(prey), Clash::MoverWins | Clash::Both)
}
