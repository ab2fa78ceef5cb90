//! Libra, the Balance (booklet page 14): sixteen men each in the row of orbits nearest them;
//! three clicks after the standard starting sequence; the first to occupy the opponent's five
//! border slots (his back line) with five of his own men wins.

use super::{fill_homes, home_row, own_colours};
use crate::game::{Allowance, Game, Options, Rules};
use crate::piece::Colour;
use crate::position::Position;
use crate::rules::standard_start;
use crate::seat::{Seat, SeatInfo};
use rand::RngCore;
use std::ops::RangeInclusive;

/// Libra.
pub struct Libra;

impl Rules for Libra {
    fn id(&self) -> &'static str {
        "libra"
    }
    fn name(&self) -> &'static str {
        "Libra"
    }
    fn players(&self) -> RangeInclusive<u8> {
        2..=2
    }
    fn seats(&self, _players: u8) -> Vec<SeatInfo> {
        own_colours(&[Seat::S, Seat::N])
    }
    fn start(&self, seats: &[SeatInfo], _options: &Options, _rng: &mut dyn RngCore) -> Position {
        fill_homes(seats, home_row())
    }
    fn allowance(&self, _seat: Seat, round: u32, options: &Options) -> Allowance {
        Allowance::Clicks(standard_start(round, options.clicks.unwrap_or(3)))
    }
    fn goal(&self, game: &Game, _turn_end: bool) -> Vec<Colour> {
        game.seats()
            .iter()
            .filter(|s| {
                game.position()
                    .of(s.colour)
                    .is_superset(s.seat.opposite().edge().border())
            })
            .map(|s| s.colour)
            .collect()
    }
}
