//! Hydra for Partners (booklet page 18): four players as two teams sitting opposite
//! (`S`+`N` red, `W`+`E` green), five men each on his own border slots; the die or three
//! clicks; a team chain between the partners' edges wins, and a chain made for the other team
//! must be claimed.

use super::fill;
use crate::game::{Allowance, Mechanics, Options, Rules};
use crate::piece::Colour;
use crate::position::Position;
use crate::seat::{Seat, SeatInfo};
use rand::RngCore;
use std::ops::RangeInclusive;

/// Hydra for Partners.
pub struct HydraPartners;

impl Rules for HydraPartners {
    fn id(&self) -> &'static str {
        "hydra-partners"
    }
    fn name(&self) -> &'static str {
        "Hydra for Partners"
    }
    fn players(&self) -> RangeInclusive<u8> {
        4..=4
    }
    fn seats(&self, _players: u8) -> Vec<SeatInfo> {
        Seat::ALL
            .iter()
            .map(|&seat| SeatInfo {
                seat,
                colour: match seat {
                    Seat::S | Seat::N => Colour::Red,
                    Seat::W | Seat::E => Colour::Green,
                },
            })
            .collect()
    }
    fn start(&self, _seats: &[SeatInfo], _options: &Options, _rng: &mut dyn RngCore) -> Position {
        let mut p = Position::empty();
        // Each team's ten men are numbered 1..10 in canonical slot order over both edges.
        let red = Seat::S.edge().border() | Seat::N.edge().border();
        let green = Seat::W.edge().border() | Seat::E.edge().border();
        fill(&mut p, Colour::Red, red);
        fill(&mut p, Colour::Green, green);
        p
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
