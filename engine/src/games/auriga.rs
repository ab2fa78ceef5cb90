//! Auriga, the Charioteer (booklet page 11): one chariot each, entered on `C1s` or `C1n` on
//! the first turn, races two laps counter-clockwise round the locked rotors C2, C3 and C4. The
//! die or three clicks; the player in the lead must throw the die.
//!
//! **Reconstruction** (ORION.md): the finish line is x = 2.5 from the bottom edge to C2; progress
//! is the winding angle of the chariot's midpoint round the board centre (2.5, 2.5).

use super::across_or_round;
use crate::board::{Click, Rotor, Slot, SlotSet};
use crate::game::{Allowance, Game, Options, PlaceRule, Rules};
use crate::piece::Colour;
use crate::position::Position;
use crate::rules::RuleError;
use crate::seat::{Seat, SeatInfo};
use rand::RngCore;
use std::f64::consts::{PI, TAU};
use std::ops::RangeInclusive;

/// Auriga.
pub struct Auriga;

/// Laps to win.
pub const LAPS: f64 = 2.0;

/// The two entry slots on the finish line: `C1s` and `C1n`.
pub fn entry_slots() -> SlotSet {
    let c1 = Rotor::at(2, 0).expect("C1");
    c1.slot(crate::board::Side::South).bit() | c1.slot(crate::board::Side::North).bit()
}

/// The locked rotors C2, C3, C4.
fn locked(rotor: Rotor) -> bool {
    rotor.column() == 2 && (1..=3).contains(&rotor.row())
}

/// The angle (radians) of a slot's midpoint seen from the board centre.
pub fn angle(slot: Slot) -> f64 {
    let (x2, y2) = slot.midpoint2();
    (f64::from(y2) - 5.0).atan2(f64::from(x2) - 5.0)
}

/// How far (radians, counter-clockwise, in `(-π, π]`) a piece winds round the centre moving
/// from `from` to `to`: a chariot's progress on its laps.
pub fn turn_between(from: Slot, to: Slot) -> f64 {
    let delta = angle(to) - angle(from);
    if delta > PI {
        delta - TAU
    } else if delta <= -PI {
        delta + TAU
    } else {
        delta
    }
}

/// What Auriga remembers beyond the board: the game's memory.
#[derive(Clone, Copy, Debug, Default)]
struct Winding {
    /// Each seat's winding angle (radians, counter-clockwise) round the centre, by seat index.
    angle: [f64; 4],
}

fn winding(game: &Game) -> [f64; 4] {
    game.memory::<Winding>().map_or([0.0; 4], |w| w.angle)
}

impl Game {
    /// Auriga: each seat's progress round the course, in laps (counter-clockwise); zero in
    /// the other games.
    pub fn laps(&self) -> Vec<(Seat, f64)> {
        let w = winding(self);
        self.seats()
            .iter()
            .enumerate()
            .map(|(i, s)| (s.seat, w[i] / TAU))
            .collect()
    }
}

/// The seat index whose chariot leads alone, if one does.
fn leader(game: &Game) -> Option<usize> {
    let w = winding(game);
    let entered: Vec<usize> = (0..game.seats().len())
        .filter(|&i| game.position().count(game.seats()[i].colour) > 0)
        .collect();
    let best = entered
        .iter()
        .map(|&i| w[i])
        .fold(f64::NEG_INFINITY, f64::max);
    let leaders: Vec<usize> = entered.into_iter().filter(|&i| w[i] == best).collect();
    match leaders.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

impl Rules for Auriga {
    fn id(&self) -> &'static str {
        "auriga"
    }
    fn name(&self) -> &'static str {
        "Auriga"
    }
    fn players(&self) -> RangeInclusive<u8> {
        2..=4
    }
    fn seats(&self, players: u8) -> Vec<SeatInfo> {
        across_or_round(players)
    }
    fn start(&self, _seats: &[SeatInfo], _options: &Options, _rng: &mut dyn RngCore) -> Position {
        Position::empty()
    }
    fn allowance(&self, _seat: Seat, round: u32, _options: &Options) -> Allowance {
        match round {
            1 => Allowance::Place(PlaceRule::Slots(entry_slots())),
            _ => Allowance::DieOrThree,
        }
    }
    fn turn_allowance(&self, game: &Game, seat: Seat, _round: u32) -> Allowance {
        let Some(i) = game.seats().iter().position(|s| s.seat == seat) else {
            return Allowance::DieOrThree;
        };
        if game.position().count(game.seats()[i].colour) == 0 {
            // Not yet entered (or both entry slots were taken at his first turn).
            return Allowance::Place(PlaceRule::Slots(entry_slots()));
        }
        if leader(game) == Some(i) {
            Allowance::Die
        } else if let Some(n) = game.options().clicks {
            Allowance::Clicks(n)
        } else {
            Allowance::DieOrThree
        }
    }
    fn check_click(&self, _game: &Game, click: Click) -> Result<(), RuleError> {
        if locked(click.rotor) {
            return Err(RuleError::Locked(click.rotor));
        }
        Ok(())
    }
    fn after_click(&self, game: &mut Game, before: &Position, click: Click) {
        for i in 0..game.seats().len() {
            let colour = game.seats()[i].colour;
            let (Some(from), Some(to)) = (
                before.of(colour).first(),
                game.position().of(colour).first(),
            ) else {
                continue;
            };
            if from == to || !click.rotor.orbit_set().contains(from) {
                continue;
            }
            game.memory_mut::<Winding>().angle[i] += turn_between(from, to);
        }
    }
    fn goal(&self, game: &Game, _turn_end: bool) -> Vec<Colour> {
        let w = winding(game);
        (0..game.seats().len())
            .filter(|&i| w[i] >= LAPS * TAU - 1e-9)
            .map(|i| game.seats()[i].colour)
            .collect()
    }
}
