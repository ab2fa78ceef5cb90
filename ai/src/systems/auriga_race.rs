//! Auriga as a race, for the levels' own judgement (two players): each chariot's clicks still
//! needed to finish its two laps (the shortest way round the course from its slot, the other
//! chariot left aside), and the odds that the player to move wins a race of those clicks with
//! the die (faces 1, 2, 2, 3, 4, 5) or three clicks, the leader made to throw: every throw
//! still to come taken by its expectation, where the turn search stops looking. `greedy`'s
//! value (laps, one's own against half the other's) rewards getting on more than getting
//! there first, so the levels judging by it threw the die behind as readily as three clicks
//! and could not tell a lead that wins from one that does not.

use super::auriga_course::{locked, FACES};
use crate::state::{squash, MAX_PLAYERS};
use orion_engine::games::{auriga_angle as angle, auriga_turn};
use orion_engine::{Allowance, Click, Game, Rotor, Side, Slot, SLOTS};
use std::f64::consts::{PI, TAU};
use std::sync::OnceLock;

/// Clicks the non-leader may take instead of the die.
const THREE: usize = 3;
/// Laps to win (the engine's `LAPS`).
const LAPS: f64 = 2.0;
/// Whole laps a chariot's winding is told by: from a lap behind the start to the finish.
const LAP_KEYS: std::ops::RangeInclusive<i32> = -1..=2;
/// The most clicks a race table counts (a chariot further off counts as this far).
const MOST: usize = 80;
/// How many whole-lap counts [`LAP_KEYS`] holds.
const LAP_KEYS_COUNT: usize = 4;
/// "Unreachable" in the clicks table.
const FAR: u16 = u16::MAX;

/// Where a slot lies on a lap, in laps from the finish line (the bottom of the centre column)
/// counter-clockwise, in `0..1`.
fn lap_place(slot: Slot) -> f64 {
    let p = (angle(slot) + PI / 2.0) / TAU;
    if p < -1e-9 {
        p + 1.0
    } else {
        p.max(0.0)
    }
}

/// The clicks a chariot may make: every click of an unlocked rotor.
fn clicks() -> Vec<Click> {
    Click::ALL
        .iter()
        .copied()
        .filter(|c| !locked(c.rotor))
        .collect()
}

/// Clicks still needed to finish, by slot and whole laps done ([`LAP_KEYS`]).
struct Distances {
    clicks: Vec<[u16; LAP_KEYS_COUNT]>,
}

impl Distances {
    fn build() -> Distances {
        let keys = LAP_KEYS.count();
        let lowest = *LAP_KEYS.start();
        let moves = clicks();
        let mut d = vec![[FAR; LAP_KEYS_COUNT]; SLOTS];
        for slot in Slot::ALL {
            for (k, clicks) in d[slot.index()].iter_mut().enumerate() {
                if lap_place(slot) + f64::from(lowest + k as i32) >= LAPS - 1e-6 {
                    *clicks = 0;
                }
            }
        }
        // Bellman–Ford over (slot, laps): a click moves the chariot round its rotor.
        loop {
            let mut changed = false;
            for slot in Slot::ALL {
                for k in 0..keys {
                    let wound = lap_place(slot) + f64::from(lowest + k as i32);
                    let mut best = d[slot.index()][k];
                    for click in &moves {
                        let Some(to) = click.destination(slot) else {
                            continue;
                        };
                        let after = wound + auriga_turn(slot, to) / TAU;
                        let laps = (after - lap_place(to)).round() as i32;
                        let next = if laps < lowest {
                            continue;
                        } else if laps > *LAP_KEYS.end() {
                            0
                        } else {
                            d[to.index()][(laps - lowest) as usize]
                        };
                        if next != FAR && next + 1 < best {
                            best = next + 1;
                        }
                    }
                    if best < d[slot.index()][k] {
                        d[slot.index()][k] = best;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        Distances { clicks: d }
    }

    /// Clicks still needed by a chariot on `slot` wound `laps` round the course.
    fn of(&self, slot: Slot, laps: f64) -> usize {
        let whole = (laps - lap_place(slot)).round() as i32;
        let key = whole.clamp(*LAP_KEYS.start(), *LAP_KEYS.end()) - LAP_KEYS.start();
        let d = self.clicks[slot.index()][key as usize];
        if d == FAR {
            MOST
        } else {
            usize::from(d).min(MOST)
        }
    }
}

/// The odds that the player to move wins the race, by whether he must throw (he leads),
/// his clicks still needed and the other's: each turn the mover throws or (not leading) takes
/// three, then uses as many of them as serve him best (stopping short of the lead may).
struct Odds {
    /// `[must throw][mine][theirs]`, flattened.
    win: Vec<f64>,
}

impl Odds {
    fn at(win: &[f64], must: bool, mine: usize, theirs: usize) -> f64 {
        win[(usize::from(must) * (MOST + 1) + mine) * (MOST + 1) + theirs]
    }

    fn build() -> Odds {
        let n = MOST + 1;
        let mut win = vec![0.5; 2 * n * n];
        let faces: Vec<(usize, f64)> = {
            let mut merged: Vec<(usize, f64)> = Vec::new();
            for &f in &FACES {
                match merged.iter_mut().find(|(g, _)| *g == usize::from(f)) {
                    Some(m) => m.1 += 1.0 / FACES.len() as f64,
                    None => merged.push((usize::from(f), 1.0 / FACES.len() as f64)),
                }
            }
            merged
        };
        // Value iteration (a turn may pass, so the races are not acyclic), nearest the
        // finish first so most values settle in one sweep.
        for _ in 0..200 {
            let mut change: f64 = 0.0;
            for total in 0..=2 * MOST {
                for mine in total.saturating_sub(MOST)..=total.min(MOST) {
                    let theirs = total - mine;
                    for must in [false, true] {
                        let v = if mine == 0 {
                            1.0
                        } else if theirs == 0 {
                            0.0
                        } else {
                            // The best of using 0..=allowed clicks.
                            let best = |allowed: usize, win: &[f64]| -> f64 {
                                (0..=allowed.min(mine))
                                    .map(|used| {
                                        let left = mine - used;
                                        if left == 0 {
                                            1.0
                                        } else {
                                            // The other moves next, leading if nearer.
                                            1.0 - Odds::at(win, theirs < left, theirs, left)
                                        }
                                    })
                                    .fold(0.0, f64::max)
                            };
                            let thrown: f64 = faces.iter().map(|&(f, p)| p * best(f, &win)).sum();
                            if must {
                                thrown
                            } else {
                                thrown.max(best(THREE, &win))
                            }
                        };
                        let i = (usize::from(must) * n + mine) * n + theirs;
                        change = change.max((win[i] - v).abs());
                        win[i] = v;
                    }
                }
            }
            if change < 1e-12 {
                break;
            }
        }
        Odds { win }
    }
}

/// The tables, built once.
fn tables() -> &'static (Distances, Odds) {
    static TABLES: OnceLock<(Distances, Odds)> = OnceLock::new();
    TABLES.get_or_init(|| (Distances::build(), Odds::build()))
}

/// Each seat's clicks still needed (a chariot not yet entered: from the entry slot), by seat
/// index.
pub fn needed(game: &Game) -> [usize; MAX_PLAYERS] {
    let (distances, _) = tables();
    let entry = Rotor::at(2, 0).expect("C1").slot(Side::South);
    let laps = game.laps();
    let mut out = [MOST; MAX_PLAYERS];
    for (i, seat) in game.seats().iter().enumerate().take(MAX_PLAYERS) {
        let wound = laps.get(i).map_or(0.0, |l| l.1);
        out[i] = match game.position().of(seat.colour).first() {
            Some(slot) => distances.of(slot, wound),
            None => distances.of(entry, 0.0),
        };
    }
    out
}

/// Whether the race odds judge `game`: Auriga of two players with the default die (the race
/// odds are computed for it; another die or a fixed number of clicks leaves the judgement to
/// `greedy`'s value) and no fixed number of clicks.
pub use super::auriga_course::applies;

/// `seat`'s odds of winning an Auriga of two players as a race (see the module), or `None`
/// where the race tables do not apply (more players, another die, a fixed number of clicks).
pub fn judge(game: &Game, seat: usize) -> Option<f64> {
    if !applies(game) || seat > 1 {
        return None;
    }
    let (_, odds) = tables();
    let needed = needed(game);
    let mover = game.seats().iter().position(|s| s.seat == game.mover())?;
    // At a turn's start the mover has his whole turn; within one (clicks known), the turn is
    // judged as if it ended here: the other moves next.
    let starting = matches!(
        game.allowance(),
        Allowance::Die | Allowance::DieOrThree | Allowance::Place(_)
    ) && game.clicks().1 == 0;
    let (next, must) = if starting {
        (mover, game.allowance() == Allowance::Die)
    } else {
        let next = 1 - mover;
        (next, needed[next] < needed[mover])
    };
    let other = 1 - next;
    let p = Odds::at(&odds.win, must, needed[next], needed[other]);
    let p_seat = if next == seat { p } else { 1.0 - p };
    // Odds in `0..1`, kept off the ends (a win itself is valued above every judgement), and
    // told apart a little by laps where the clicks tie (a race settled either way still
    // wants to get on).
    let laps = game.laps();
    let mine = laps.get(seat).map_or(0.0, |l| l.1);
    let tie_break = squash(mine, 1.0) * 1e-3;
    Some(0.001 + 0.997 * p_seat + tie_break)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lap_from_the_start_takes_as_many_clicks_either_way_round_the_finish() {
        let (d, _) = tables();
        let c1s = Rotor::at(2, 0).expect("C1").slot(Side::South);
        let whole = d.of(c1s, 0.0);
        let one = d.of(c1s, 1.0);
        assert!(whole > one && one > 0, "{whole} {one}");
        assert_eq!(whole, 2 * one);
    }

    #[test]
    fn the_mover_nearer_the_finish_is_likelier_to_win() {
        let (_, odds) = tables();
        let near = Odds::at(&odds.win, true, 5, 10);
        let far = Odds::at(&odds.win, false, 10, 5);
        assert!(near > 0.8 && far < 0.2, "{near} {far}");
        // Three clicks in hand win a race of three at once.
        assert_eq!(Odds::at(&odds.win, false, 3, 3), 1.0);
    }
}
