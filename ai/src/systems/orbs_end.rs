//! Orbs as the levels judge it: `greedy`'s count ([`raw`]), which calls two orbs against one
//! a lead whatever they are made of, with what the endgame adds. Orbs are never made, so once
//! two sides are left whether a side can still remove every enemy orb is settled by the
//! elements left: a side that cannot has at best a draw however many orbs it holds (water and
//! earth against water), and level 8's draws against `greedy` were such endings traded into
//! (BENCHMARKS.md, "Orbs of two: the levels' endgame judgement"). A lone enemy orb is judged
//! by its room, the holes it may step to without standing next to an orb that can remove it
//! (it must move every turn, and is caught once it has none), an orb of ours chased into
//! one of the six points (dead ends) by an orb that can take it costs a little, and so does
//! an orb of ours that is the only way left to take some enemy orb, the nearer an enemy orb
//! that can remove it.

use super::orbs_eval::{raw, SQUASH};
use crate::state::squash;
use crate::turns::CONTEMPT;
use orion_orbs::{Clash, Element, Game, Hole, Orb, Seat};

/// A side that can no longer be beaten (no enemy orb can remove all of its orbs) but can
/// still win: judged at least this (above a draw, above an even game).
const SAFE: f64 = 0.55;

/// A side that can still win but cannot lose, in `greedy`'s units: added to the count.
const SAFE_BONUS: f64 = 1000.0;

/// A side that can no longer win: taken off the count, and judged below a draw.
const LOST_BONUS: f64 = 1000.0;

/// How much below a draw a side that cannot win (but may lose) is judged at most.
const BELOW_DRAW: f64 = 0.05;

/// What each hole a lone enemy orb may safely step to costs the side hunting it.
const ROOM: i64 = 40;

/// Orbs on the board (both sides) from which our chased orbs in the points are judged.
const ENDGAME: usize = 10;

/// What one of our chased orbs costs where it stands in a point.
const CHASED_IN_POINT: i64 = 60;

/// How near an enemy orb that can take one of ours must be for it to count as chasing.
const CHASE_DISTANCE: u32 = 3;

/// What an essential orb of ours (the only way left to remove some enemy orb) costs with an
/// enemy orb that can remove it next to it: [`ESSENTIAL_STEP`] less a hole further.
const ESSENTIAL: i64 = 200;

/// How much less an essential orb of ours costs for each hole between it and the enemy.
const ESSENTIAL_STEP: i64 = 20;

/// A lone enemy orb with no hole to go to: caught (it must move, or cannot).
const CAUGHT: i64 = 600;

/// `greedy`'s gain for an enemy orb next to one of ours that beats it, taken back for a
/// lone orb that can step away.
const CHASED: i64 = 250;

/// What each hole between a lone enemy orb and each orb that can remove it costs.
const CLOSING: i64 = 4;

/// An orb and where it stands.
type Placed = (Hole, Orb);

/// The levels' judgement of `game` for `me` (`players` seated), in `0..1`.
pub fn judged(game: &Game, me: Seat, players: usize) -> f64 {
    let base = raw(game, me);
    let Some(my_colour) = game.colour_of(me).filter(|_| two_sides(game)) else {
        return squash(base as f64, SQUASH);
    };
    let (mine, theirs): (Vec<Placed>, Vec<Placed>) = game
        .position()
        .orbs()
        .partition(|(_, o)| game.allied(o.colour, my_colour));
    let mine_e: Vec<Element> = mine.iter().map(|(_, o)| o.element).collect();
    let theirs_e: Vec<Element> = theirs.iter().map(|(_, o)| o.element).collect();
    let i_can = can_remove_all(&mine_e, &theirs_e);
    let they_can = can_remove_all(&theirs_e, &mine_e);
    let draw = 1.0 / players.max(1) as f64 - CONTEMPT;
    let hunt = if i_can {
        hunting(game, &mine, &theirs)
    } else {
        0
    };
    let cornered = if mine.len() + theirs.len() <= ENDGAME {
        chased_in_points(&mine, &theirs)
    } else {
        0
    };
    let exposed = if i_can {
        essential_exposed(&mine, &theirs)
    } else {
        0
    };
    let count = (base + hunt - cornered - exposed) as f64;
    match (i_can, they_can) {
        (true, true) => squash(count, SQUASH),
        (true, false) => squash(count + SAFE_BONUS, SQUASH).max(SAFE.max(draw + 0.05)),
        (false, true) => squash(count - LOST_BONUS, SQUASH).min(draw - BELOW_DRAW),
        (false, false) => draw,
    }
}

/// Whether exactly two sides (players, or teams of partners) have orbs.
fn two_sides(game: &Game) -> bool {
    let seats = game.seats();
    let place = |s: Seat| seats.iter().position(|&x| x == s);
    let mut sides: Vec<Seat> = Vec::new();
    for &s in seats {
        if game.is_out(s) {
            continue;
        }
        // Partners are one side, named by the first of the pair in turn order.
        let partner = s.opposite();
        let side = if game.teams() && place(partner) < place(s) && place(partner).is_some() {
            partner
        } else {
            s
        };
        if !sides.contains(&side) {
            sides.push(side);
        }
    }
    sides.len() == 2
}

/// Whether orbs of `mine` could remove every orb of `theirs` and keep one: each enemy orb
/// needs an orb of mine that beats it (it survives and may go on), or else one it trades
/// with (both go: one of mine for each such enemy orb, a void standing in for any).
pub fn can_remove_all(mine: &[Element], theirs: &[Element]) -> bool {
    removes_all(Elements::of(mine), Elements::of(theirs))
}

/// How many orbs of each element a side holds (by `Element as usize`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Elements([usize; 5]);

impl Elements {
    /// The orbs of `elements`, counted.
    fn of<'a>(elements: impl IntoIterator<Item = &'a Element>) -> Elements {
        let mut counts = [0; 5];
        for &e in elements {
            counts[e as usize] += 1;
        }
        Elements(counts)
    }

    /// Orbs of `e`.
    fn count(self, e: Element) -> usize {
        self.0[e as usize]
    }

    /// Every orb.
    fn len(self) -> usize {
        self.0.iter().sum()
    }

    /// The same, one orb of `e` fewer.
    fn without(mut self, e: Element) -> Elements {
        self.0[e as usize] = self.0[e as usize].saturating_sub(1);
        self
    }
}

/// [`can_remove_all`] on counts of elements.
fn removes_all(mine: Elements, theirs: Elements) -> bool {
    if mine.len() == 0 {
        return false;
    }
    let mut spent = 0;
    let mut voids_needed = 0;
    for x in [Element::Fire, Element::Water, Element::Earth, Element::Air] {
        let n = theirs.count(x);
        if n == 0 {
            continue;
        }
        let beaten = Element::ALL
            .iter()
            .any(|&m| mine.count(m) > 0 && m.clash(x) == Clash::MoverWins);
        if beaten {
            continue;
        }
        let traders: usize = Element::ALL
            .iter()
            .filter(|&&m| m != Element::Void && m.clash(x) == Clash::Both)
            .map(|&m| mine.count(m))
            .sum();
        spent += n;
        voids_needed += n.saturating_sub(traders);
    }
    spent += theirs.count(Element::Void);
    voids_needed <= mine.count(Element::Void) && spent < mine.len()
}

/// What hunting a lone enemy orb adds for the side holding `mine`: less for every hole it
/// may step to without standing next to one of `mine` that can remove it, and less for every
/// hole between it and each such orb (`greedy` counts the nearest only, which leaves one
/// hunter chasing it round the board). Nothing unless the other side has one orb left.
fn hunting(game: &Game, mine: &[Placed], theirs: &[Placed]) -> i64 {
    let [(at, prey)] = theirs else {
        return 0;
    };
    let removes = |o: &Orb| {
        matches!(
            o.element.clash(prey.element),
            Clash::MoverWins | Clash::Both
        )
    };
    let hunters: Vec<Hole> = mine
        .iter()
        .filter(|(_, o)| removes(o))
        .map(|(h, _)| *h)
        .collect();
    if hunters.is_empty() {
        return 0;
    }
    let out_of_play = game.holes_out_of_play();
    let watched = |h: Hole, except: Option<Hole>| {
        hunters
            .iter()
            .any(|&k| Some(k) != except && k.is_adjacent(h))
    };
    let mut room = 0;
    for to in at.neighbours() {
        if out_of_play.contains(to) {
            continue;
        }
        let safe = match game.position().get(to) {
            None => !watched(to, None),
            Some(o) if prey.element.clash(o.element) == Clash::MoverWins => !watched(to, Some(to)),
            // Its own kind (illegal), or a meeting it does not survive.
            Some(_) => false,
        };
        if safe {
            room += 1;
        }
    }
    let closing: i64 = hunters.iter().map(|h| h.distance(*at) as i64).sum();
    // `greedy` counts an orb next to one that beats it as a gain; a lone orb with a hole to
    // go to steps away, so that gain is a chase round the board, not a capture (level 8
    // went to and fro for 100 moves after it). With no hole to go to it is caught.
    let beaten_next_to = mine
        .iter()
        .any(|(h, o)| h.is_adjacent(*at) && o.element.clash(prey.element) == Clash::MoverWins);
    let caught = if room == 0 {
        CAUGHT
    } else if beaten_next_to {
        -CHASED
    } else {
        0
    };
    caught - ROOM * room - CLOSING * closing
}

/// What our chased orbs cost the side holding `mine` for standing in a point: each orb of
/// `mine` with an orb of `theirs` that beats it within [`CHASE_DISTANCE`] (or one it trades
/// with, where it is our only way left to win), in one of the six points (a dead end: a tip
/// has two neighbours, and the point's edge rows lead to it). An orb that flees along the
/// edge into a point is trapped a few moves later, past the search's look (level 8 lost a
/// water so, and traded an air that was its only way to win into water against water).
fn chased_in_points(mine: &[Placed], theirs: &[Placed]) -> i64 {
    let theirs_e: Vec<Element> = theirs.iter().map(|(_, o)| o.element).collect();
    let essential = |i: usize| {
        let rest: Vec<Element> = mine
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, (_, o))| o.element)
            .collect();
        !can_remove_all(&rest, &theirs_e)
    };
    // In a point first: the cheap test, before `essential` weighs the rest of `mine`.
    let chased = |i: usize, &(at, orb): &Placed| {
        Seat::ALL.iter().any(|s| s.point().contains(at))
            && theirs.iter().any(|(h, o)| {
                h.distance(at) <= CHASE_DISTANCE
                    && match o.element.clash(orb.element) {
                        Clash::MoverWins => true,
                        Clash::Both => essential(i),
                        _ => false,
                    }
            })
    };
    CHASED_IN_POINT
        * mine
            .iter()
            .enumerate()
            .filter(|&(i, o)| chased(i, o))
            .count() as i64
}

/// What our essential orbs cost the side holding `mine` for the enemy orbs near them that
/// can remove them: an orb is essential where, once it is gone (with the enemy orb that
/// trades with it, if that one trades), `mine` can no longer remove every orb of `theirs`.
/// Each costs [`ESSENTIAL`] less [`ESSENTIAL_STEP`] a hole between it and the nearest such
/// enemy orb. `greedy` trades whenever it can (every enemy orb gone is 50 to it), and level 8
/// let it trade off the only orb that could take its last ones, a won ending turned into a
/// draw (games 30, 59 and 72 of the eighty: an earth, a fire, an air).
fn essential_exposed(mine: &[Placed], theirs: &[Placed]) -> i64 {
    let mine_e = Elements::of(mine.iter().map(|(_, o)| &o.element));
    let theirs_e = Elements::of(theirs.iter().map(|(_, o)| &o.element));
    let mut total = 0;
    for &(at, orb) in mine {
        let rest = mine_e.without(orb.element);
        let nearest = theirs
            .iter()
            .filter_map(|&(h, enemy)| {
                let left = match enemy.element.clash(orb.element) {
                    Clash::MoverWins => theirs_e,
                    Clash::Both => theirs_e.without(enemy.element),
                    _ => return None,
                };
                (!removes_all(rest, left)).then(|| i64::from(h.distance(at)))
            })
            .min();
        if let Some(d) = nearest {
            total += (ESSENTIAL - ESSENTIAL_STEP * d).max(0);
        }
    }
    total
}
