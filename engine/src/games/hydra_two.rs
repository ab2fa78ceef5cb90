//! Hydra for Two (booklet page 17): sixteen men each in the row of orbits nearest you; three
//! clicks after the standard starting sequence; the first chain from your edge to the
//! opposite edge wins.

use super::{fill_homes, home_row, own_colours};
use crate::game::{Allowance, Mechanics, Options, Rules};
use crate::position::Position;
use crate::rules::standard_start;
use crate::seat::{Seat, SeatInfo};
use rand::RngCore;
use std::ops::RangeInclusive;

/// Hydra for Two.
pub struct HydraTwo;

impl Rules for HydraTwo {
    fn id(&self) -> &'static str {
        "hydra-2"
    }
    fn name(&self) -> &'static str {
        "Hydra for Two"
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
    fn mechanics(&self) -> Mechanics {
        Mechanics {
            chains: true,
            ..Mechanics::default()
        }
    }
}
