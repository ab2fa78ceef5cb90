//! Cassiopeia (booklet page 22) and its variant Cassiopeia Five: two players build pieces on an
//! empty board. The first to have four pieces in a "W" (a staircase on the diagonal) wins;
//! both at once is a draw. The variant: anywhere first, two-click moves, five in a line.

use super::own_colours;
use crate::board::{Slot, SlotSet};
use crate::game::{Allowance, Game, Mechanics, Options, PlaceRule, Rules};
use crate::piece::Colour;
use crate::position::Position;
use crate::seat::{Seat, SeatInfo};
use rand::RngCore;
use std::ops::RangeInclusive;
use std::sync::OnceLock;

/// Cassiopeia: the W of four.
pub struct Cassiopeia;

/// Cassiopeia Five: five end to end in a straight line.
pub struct CassiopeiaFive;

/// Every staircase of four slots: alternating horizontal and vertical, every horizontal
/// stepping the same way in x and every vertical the same way in y.
pub fn staircases() -> &'static [SlotSet] {
    static SET: OnceLock<Vec<SlotSet>> = OnceLock::new();
    SET.get_or_init(|| {
        let mut out = Vec::new();
        for x in 0..=5i8 {
            for y in 0..=5i8 {
                for dx in [-1i8, 1] {
                    for dy in [-1i8, 1] {
                        for horizontal_first in [true, false] {
                            let (mut px, mut py) = (x, y);
                            let mut set = SlotSet::EMPTY;
                            let mut ok = true;
                            for step in 0..4 {
                                let horizontal = (step % 2 == 0) == horizontal_first;
                                let next = if horizontal {
                                    (px + dx, py)
                                } else {
                                    (px, py + dy)
                                };
                                match Slot::joining((px, py), next) {
                                    Some(s) => set.insert(s),
                                    None => ok = false,
                                }
                                (px, py) = next;
                            }
                            if ok && !out.contains(&set) {
                                out.push(set);
                            }
                        }
                    }
                }
            }
        }
        out
    })
}

/// Every straight line of five slots end to end (the whole width or height of the board).
pub fn lines_of_five() -> &'static [SlotSet] {
    static SET: OnceLock<Vec<SlotSet>> = OnceLock::new();
    SET.get_or_init(|| {
        let mut out = Vec::new();
        for line in 0..=5u8 {
            out.push((0..5).filter_map(|c| Slot::horizontal(line, c)).collect());
            out.push((0..5).filter_map(|r| Slot::vertical(line, r)).collect());
        }
        out
    })
}

/// The colours in play whose pieces cover one of `patterns`.
pub(crate) fn reached(game: &Game, patterns: &[SlotSet]) -> Vec<Colour> {
    game.seats()
        .iter()
        .map(|s| s.colour)
        .filter(|&c| {
            let own = game.position().of(c);
            patterns.iter().any(|&p| own.is_superset(p))
        })
        .collect()
}

const BUILDING: Mechanics = Mechanics {
    chains: false,
    captures: false,
    building: true,
};

impl Rules for Cassiopeia {
    fn id(&self) -> &'static str {
        "cassiopeia"
    }
    fn name(&self) -> &'static str {
        "Cassiopeia"
    }
    fn players(&self) -> RangeInclusive<u8> {
        2..=2
    }
    fn seats(&self, _players: u8) -> Vec<SeatInfo> {
        own_colours(&[Seat::S, Seat::N])
    }
    fn start(&self, _seats: &[SeatInfo], _options: &Options, _rng: &mut dyn RngCore) -> Position {
        Position::empty()
    }
    fn allowance(&self, seat: Seat, round: u32, options: &Options) -> Allowance {
        match (round, seat) {
            (1, Seat::S) => Allowance::Place(PlaceRule::TouchingEdge),
            (1, _) => Allowance::Place(PlaceRule::Anywhere),
            _ => Allowance::Clicks(options.clicks.unwrap_or(1)),
        }
    }
    fn mechanics(&self) -> Mechanics {
        BUILDING
    }
    fn goal(&self, game: &Game, _turn_end: bool) -> Vec<Colour> {
        reached(game, staircases())
    }
    fn reversal_applies(&self, previous_entered: bool, this_entered: bool) -> bool {
        !previous_entered && !this_entered
    }
}

impl Rules for CassiopeiaFive {
    fn id(&self) -> &'static str {
        "cassiopeia-five"
    }
    fn name(&self) -> &'static str {
        "Cassiopeia Five"
    }
    fn players(&self) -> RangeInclusive<u8> {
        2..=2
    }
    fn seats(&self, _players: u8) -> Vec<SeatInfo> {
        own_colours(&[Seat::S, Seat::N])
    }
    fn start(&self, _seats: &[SeatInfo], _options: &Options, _rng: &mut dyn RngCore) -> Position {
        Position::empty()
    }
    fn allowance(&self, _seat: Seat, round: u32, options: &Options) -> Allowance {
        match round {
            1 => Allowance::Place(PlaceRule::Anywhere),
            _ => Allowance::Clicks(options.clicks.unwrap_or(2)),
        }
    }
    fn mechanics(&self) -> Mechanics {
        BUILDING
    }
    fn goal(&self, game: &Game, _turn_end: bool) -> Vec<Colour> {
        reached(game, lines_of_five())
    }
    fn reversal_applies(&self, previous_entered: bool, this_entered: bool) -> bool {
        !previous_entered && !this_entered
    }
}
