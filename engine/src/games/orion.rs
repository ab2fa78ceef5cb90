//! Orion (booklet page 23): two to four players build on an empty board and fence in each
//! other's men. Round 1 places one piece each; round 2 has one click, round 3 two, then the
//! die or three. Captures end the turn; capturing the whole board ends the game, most points
//! winning.

use super::across_or_round;
use crate::game::{Allowance, Mechanics, Options, PlaceRule, Rules};
use crate::position::Position;
use crate::seat::{Seat, SeatInfo};
use rand::RngCore;
use std::ops::RangeInclusive;

/// Orion.
pub struct Orion;

impl Rules for Orion {
    fn id(&self) -> &'static str {
        "orion"
    }
    fn name(&self) -> &'static str {
        "Orion"
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
    fn allowance(&self, _seat: Seat, round: u32, options: &Options) -> Allowance {
        match (round, options.clicks) {
            (1, _) => Allowance::Place(PlaceRule::Anywhere),
            (2, _) => Allowance::Clicks(1),
            (3, _) => Allowance::Clicks(2),
            (_, Some(n)) => Allowance::Clicks(n),
            (_, None) => Allowance::DieOrThree,
        }
    }
    fn mechanics(&self) -> Mechanics {
        Mechanics {
            chains: false,
            captures: true,
            building: true,
        }
    }
}
