//! Hydra for Four (booklet page 19): three or four players, twelve men each in the row of
//! orbits nearest them with the corner orbits divided on the diagonal; the die or three
//! clicks; a chain made for another player by someone else's click must be claimed.

use super::{fill_homes, home_twelve, own_colours};
use crate::game::{Allowance, Mechanics, Options, Rules};
use crate::position::Position;
use crate::seat::{Seat, SeatInfo};
use rand::RngCore;
use std::ops::RangeInclusive;

/// Hydra for Four (and for three, seats `S`, `W`, `N`).
pub struct HydraFour;

impl Rules for HydraFour {
    fn id(&self) -> &'static str {
        "hydra-4"
    }
    fn name(&self) -> &'static str {
        "Hydra for Four"
    }
    fn players(&self) -> RangeInclusive<u8> {
        3..=4
    }
    fn default_players(&self) -> u8 {
        4
    }
    fn seats(&self, players: u8) -> Vec<SeatInfo> {
        own_colours(&Seat::ALL[..players as usize])
    }
    fn start(&self, seats: &[SeatInfo], _options: &Options, _rng: &mut dyn RngCore) -> Position {
        fill_homes(seats, home_twelve())
    }
    fn allowance(&self, _seat: Seat, _round: u32, options: &Options) -> Allowance {
        match options.clicks {
            Some(n) => Allowance::Clicks(n),
            None => Allowance::DieOrThree,
        }
    }
    fn mechanics(&self) -> Mechanics {
        Mechanics {
            chains: true,
            ..Mechanics::default()
        }
    }
}
