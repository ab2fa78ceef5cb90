//! Lepus, the Hare (booklet page 12): six men each in a corner race to the opposite corner.
//! Two-click moves; a man that ends a part of its move in an orbit it earned (a rotor it was not
//! in when the part began) holding another man of its colour may hop on with another two-click
//! part, at most five times. Scored by the losers' men out of place.
//!
//! **Reconstruction** (ORION.md): a corner's six slots are the corner rotor's orbit and the two
//! border slots next to it; two players take opposite corners, `S` bottom-right.
//! **Decision:** a hop is taken as soon as it is earned, after one click or two.

use super::{across_or_round, fill};
use crate::board::{Click, Rotor, RotorSet, Side, SlotSet};
use crate::game::{Allowance, Game, Options, Rules, Winner};
use crate::piece::Colour;
use crate::position::Position;
use crate::seat::{Seat, SeatInfo};
use rand::RngCore;
use std::ops::RangeInclusive;

/// Lepus.
pub struct Lepus;

/// Hops a move may take at most.
pub const MAX_HOPS: u8 = 5;

/// The six slots of the top-left corner: `A5n B5n A5w A4w A5e A4n`.
fn top_left() -> SlotSet {
    let a5 = Rotor::at(0, 4).expect("A5");
    let b5 = Rotor::at(1, 4).expect("B5");
    let a4 = Rotor::at(0, 3).expect("A4");
    a5.orbit_set() | b5.slot(Side::North).bit() | a4.slot(Side::West).bit()
}

/// A seat's starting corner: `N` top-left, `E` top-right, `S` bottom-right, `W` bottom-left.
pub fn corner(seat: Seat) -> SlotSet {
    let turns = match seat {
        Seat::N => 0,
        Seat::E => 1,
        Seat::S => 2,
        Seat::W => 3,
    };
    top_left()
        .into_iter()
        .map(|mut s| {
            for _ in 0..turns {
                s = s.rotated_cw();
            }
            s
        })
        .collect()
}

/// The rotors holding `slot`, by piece number, for every piece of `colour`.
/// What Lepus remembers of the move in progress: the game's memory.
#[derive(Clone, Copy, Debug, Default)]
struct Hops {
    /// Hops taken this move.
    taken: u8,
    /// Clicks used in the current part of the move.
    part_used: u8,
    /// The rotors each of the mover's pieces (by number) was in when the part began.
    part_rotors_by_number: [RotorSet; 21],
}

fn rotors_by_number(position: &Position, colour: Colour) -> [RotorSet; 21] {
    let mut out = [RotorSet::EMPTY; 21];
    for slot in position.of(colour) {
        if let Some(p) = position.get(slot) {
            out[p.number() as usize] = slot.rotors();
        }
    }
    out
}

impl Rules for Lepus {
    fn id(&self) -> &'static str {
        "lepus"
    }
    fn name(&self) -> &'static str {
        "Lepus"
    }
    fn players(&self) -> RangeInclusive<u8> {
        2..=4
    }
    fn seats(&self, players: u8) -> Vec<SeatInfo> {
        across_or_round(players)
    }
    fn start(&self, seats: &[SeatInfo], _options: &Options, _rng: &mut dyn RngCore) -> Position {
        let mut p = Position::empty();
        for s in seats {
            fill(&mut p, s.colour, corner(s.seat));
        }
        p
    }
    fn allowance(&self, _seat: Seat, _round: u32, options: &Options) -> Allowance {
        Allowance::Clicks(options.clicks.unwrap_or(2))
    }
    fn begin_turn(&self, game: &mut Game) {
        let colour = game.seats()[game.turn.mover].colour;
        let rotors = rotors_by_number(game.position(), colour);
        *game.memory_mut::<Hops>() = Hops {
            taken: 0,
            part_used: 0,
            part_rotors_by_number: rotors,
        };
    }
    fn after_click(&self, game: &mut Game, _before: &Position, _click: Click) {
        let colour = game.seats()[game.turn.mover].colour;
        let part_len = game.options().clicks.unwrap_or(2);
        let mut hops = game.memory::<Hops>().copied().unwrap_or_default();
        hops.part_used += 1;
        let own = game.position().of(colour);
        let earned = game.turn.state.candidates.into_iter().any(|slot| {
            let Some(piece) = game.position().get(slot) else {
                return false;
            };
            let before = hops.part_rotors_by_number[piece.number() as usize];
            slot.rotors()
                .iter()
                .any(|r| !before.contains(r) && !(r.orbit_set() & own & !slot.bit()).is_empty())
        });
        let state = &mut game.turn.state;
        if earned && hops.taken < MAX_HOPS {
            hops.taken += 1;
            hops.part_used = 0;
            state.allowed = state.used + part_len;
            hops.part_rotors_by_number = rotors_by_number(game.position(), colour);
        } else {
            state.allowed = state.used + part_len.saturating_sub(hops.part_used);
        }
        *game.memory_mut::<Hops>() = hops;
    }
    fn goal(&self, game: &Game, _turn_end: bool) -> Vec<Colour> {
        game.seats()
            .iter()
            .filter(|s| {
                let own = game.position().of(s.colour);
                own.len() == 6 && corner(s.seat.opposite()).is_superset(own)
            })
            .map(|s| s.colour)
            .collect()
    }
    fn on_finish(&self, game: &mut Game, winner: Option<Winner>) {
        let Some(Winner::Seat(w)) = winner else {
            return;
        };
        let out_of_place: u32 = game
            .seats()
            .iter()
            .filter(|s| s.seat != w)
            .map(|s| (game.position().of(s.colour) & !corner(s.seat.opposite())).len() as u32)
            .sum();
        if let Some(i) = game.seats().iter().position(|s| s.seat == w) {
            game.scores[i] += out_of_place;
        }
    }
}
