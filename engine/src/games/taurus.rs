//! Taurus Star Clusters (booklet page 16): thirteen pieces of each colour placed at random;
//! four-click moves; the first to fill his star cluster wins.
//!
//! **Reconstruction** (ORION.md): `S`'s cluster is every slot of the orbits of B1, C1, D1 (ten
//! slots), `N`'s the mirror (B5, C5, D5). The placement and the toss are drawn from the room's
//! seed, which the server publishes after the game. **Decision:** the toss names who moves
//! first; the colours stay the seats' own (red `S`, blue `N`).

use super::own_colours;
use crate::board::{Rotor, Slot, SlotSet};
use crate::game::{Allowance, Game, Options, Rules};
use crate::piece::{Colour, Piece};
use crate::position::Position;
use crate::seat::{Seat, SeatInfo};
use rand::RngCore;
use std::ops::RangeInclusive;

/// Taurus.
pub struct Taurus;

/// Pieces of each colour on the board.
pub const PIECES: usize = 13;

/// A seat's star cluster: the orbits of B1, C1, D1 for `S`, of B5, C5, D5 for `N`.
pub fn cluster(seat: Seat) -> SlotSet {
    let row = if seat == Seat::N { 4 } else { 0 };
    (1..4)
        .filter_map(|c| Rotor::at(c, row))
        .fold(SlotSet::EMPTY, |s, r| s | r.orbit_set())
}

impl Rules for Taurus {
    fn id(&self) -> &'static str {
        "taurus"
    }
    fn name(&self) -> &'static str {
        "Taurus"
    }
    fn players(&self) -> RangeInclusive<u8> {
        2..=2
    }
    fn seats(&self, _players: u8) -> Vec<SeatInfo> {
        own_colours(&[Seat::S, Seat::N])
    }
    fn start(&self, seats: &[SeatInfo], _options: &Options, rng: &mut dyn RngCore) -> Position {
        // A Fisher-Yates shuffle of the 60 slots; the first 13 take one colour, the next 13
        // the other.
        let mut order: Vec<Slot> = Slot::ALL.to_vec();
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let mut p = Position::empty();
        for (k, s) in seats.iter().enumerate() {
            for n in 0..PIECES {
                if let Some(piece) = Piece::new(s.colour, n as u8 + 1) {
                    p.put(order[k * PIECES + n], piece);
                }
            }
        }
        p
    }
    fn first_mover(&self, rng: &mut dyn RngCore, seats: usize) -> usize {
        (rng.next_u32() as usize) % seats.max(1)
    }
    fn allowance(&self, _seat: Seat, _round: u32, options: &Options) -> Allowance {
        Allowance::Clicks(options.clicks.unwrap_or(4))
    }
    fn goal(&self, game: &Game, _turn_end: bool) -> Vec<Colour> {
        game.seats()
            .iter()
            .filter(|s| game.position().of(s.colour).is_superset(cluster(s.seat)))
            .map(|s| s.colour)
            .collect()
    }
}
