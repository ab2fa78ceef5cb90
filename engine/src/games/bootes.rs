//! Bootes, the Herdsman (booklet page 20): each player herds four sheep with two dogs, played
//! with the board on the diagonal. Only dogs are turned; a move's clicks may be shared between
//! the two dogs (an exception to the same-piece rule); rounds of 2, 4, then 6 clicks. The first
//! to bring his sheep and dogs to the other's starting places wins.
//!
//! **Reconstruction** (ORION.md): `S`'s sheep fill B2's orbit and his dogs `A1n`, `A1e`; `N`'s are
//! the same turned 180°: sheep on D4's orbit, dogs on `E4n`, `D5e`. Colours as the booklet: `S`
//! red dogs and blue sheep, `N` yellow dogs and green sheep. A seat's colour is its dogs'.

use super::fill;
use crate::board::{Rotor, SlotSet};
use crate::game::{Allowance, Game, Options, Rules};
use crate::notation::parse_slot;
use crate::piece::Colour;
use crate::position::Position;
use crate::seat::{Seat, SeatInfo};
use rand::RngCore;
use std::ops::RangeInclusive;

/// Bootes.
pub struct Bootes;

/// A seat's dog and sheep colours.
pub fn colours(seat: Seat) -> (Colour, Colour) {
    match seat {
        Seat::N => (Colour::Yellow, Colour::Green),
        _ => (Colour::Red, Colour::Blue),
    }
}

/// A seat's starting slots: (dogs, sheep).
pub fn home(seat: Seat) -> (SlotSet, SlotSet) {
    let (dogs, sheep) = match seat {
        Seat::N => (["E4n", "D5e"], Rotor::at(3, 3)),
        _ => (["A1n", "A1e"], Rotor::at(1, 1)),
    };
    let dogs = dogs.iter().filter_map(|n| parse_slot(n).ok()).collect();
    (dogs, sheep.map(|r| r.orbit_set()).unwrap_or_default())
}

impl Rules for Bootes {
    fn id(&self) -> &'static str {
        "bootes"
    }
    fn name(&self) -> &'static str {
        "Bootes"
    }
    fn players(&self) -> RangeInclusive<u8> {
        2..=2
    }
    fn seats(&self, _players: u8) -> Vec<SeatInfo> {
        [Seat::S, Seat::N]
            .into_iter()
            .map(|seat| SeatInfo {
                seat,
                colour: colours(seat).0,
            })
            .collect()
    }
    fn start(&self, seats: &[SeatInfo], _options: &Options, _rng: &mut dyn RngCore) -> Position {
        let mut p = Position::empty();
        for s in seats {
            let (dog, sheep) = colours(s.seat);
            let (dogs, flock) = home(s.seat);
            fill(&mut p, dog, dogs);
            fill(&mut p, sheep, flock);
        }
        p
    }
    fn allowance(&self, _seat: Seat, round: u32, options: &Options) -> Allowance {
        let full = options.clicks.unwrap_or(6);
        Allowance::Clicks(match round {
            1 => full.min(2),
            2 => full.min(4),
            _ => full,
        })
    }
    fn same_piece(&self) -> bool {
        false
    }
    fn goal(&self, game: &Game, _turn_end: bool) -> Vec<Colour> {
        game.seats()
            .iter()
            .filter(|s| {
                let (dog, sheep) = colours(s.seat);
                let (dogs, flock) = home(s.seat.opposite());
                let p = game.position();
                p.of(dog).is_superset(dogs) && p.of(sheep).is_superset(flock)
            })
            .map(|s| s.colour)
            .collect()
    }
}
