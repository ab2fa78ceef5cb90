//! Draco, the Dragon (booklet page 15): a red dragon (`N`, moving first) tries to break through
//! seven green knights (`S`) to the bottom edge; the knights try to trap it. One or two clicks,
//! no passing. The dragon may not turn a rotor holding two or more knights; a knight may not end
//! its move lower than it started.
//!
//! **Reconstruction** (ORION.md): knights on `A1n B1n C1n D1n E1n A1w E1e`, dragon on `C5n`.

use super::fill;
use crate::board::{Click, Edge, SlotSet};
use crate::game::{Allowance, Game, Options, Rules};
use crate::notation::parse_slot;
use crate::piece::Colour;
use crate::position::Position;
use crate::rules::RuleError;
use crate::seat::{Seat, SeatInfo};
use rand::RngCore;
use std::ops::RangeInclusive;

/// Draco.
pub struct Draco;

const DRAGON: Colour = Colour::Red;
const KNIGHT: Colour = Colour::Green;

fn slots(names: &[&str]) -> SlotSet {
    names.iter().filter_map(|n| parse_slot(n).ok()).collect()
}

/// Whether a rotor's orbit holds two or more knights.
fn guarded(position: &Position, orbit: SlotSet) -> bool {
    (position.of(KNIGHT) & orbit).len() >= 2
}

/// Whether the dragon cannot move: every rotor holding it holds two or more knights.
pub fn trapped(position: &Position) -> bool {
    let Some(dragon) = position.of(DRAGON).first() else {
        return false;
    };
    dragon
        .rotors()
        .iter()
        .all(|r| guarded(position, r.orbit_set()))
}

impl Rules for Draco {
    fn id(&self) -> &'static str {
        "draco"
    }
    fn name(&self) -> &'static str {
        "Draco"
    }
    fn players(&self) -> RangeInclusive<u8> {
        2..=2
    }
    fn seats(&self, _players: u8) -> Vec<SeatInfo> {
        vec![
            SeatInfo {
                seat: Seat::N,
                colour: DRAGON,
            },
            SeatInfo {
                seat: Seat::S,
                colour: KNIGHT,
            },
        ]
    }
    fn start(&self, _seats: &[SeatInfo], _options: &Options, _rng: &mut dyn RngCore) -> Position {
        let mut p = Position::empty();
        fill(
            &mut p,
            KNIGHT,
            slots(&["A1n", "B1n", "C1n", "D1n", "E1n", "A1w", "E1e"]),
        );
        fill(&mut p, DRAGON, slots(&["C5n"]));
        p
    }
    fn allowance(&self, _seat: Seat, _round: u32, options: &Options) -> Allowance {
        Allowance::Clicks(options.clicks.unwrap_or(2))
    }
    fn may_pass(&self) -> bool {
        false
    }
    fn check_click(&self, game: &Game, click: Click) -> Result<(), RuleError> {
        let mover = game.seats()[game.turn.mover].colour;
        if mover == DRAGON && guarded(game.position(), click.rotor.orbit_set()) {
            return Err(RuleError::Game(format!(
                "rotor {} holds two knights: the dragon may not turn it",
                click.rotor
            )));
        }
        Ok(())
    }
    fn end_check(
        &self,
        game: &Game,
        position: &Position,
        candidates: SlotSet,
    ) -> Result<(), RuleError> {
        if game.seats()[game.turn.mover].colour != KNIGHT {
            return Ok(());
        }
        // Each knight's level when the move began, from the board then (no memory needed).
        let start = &game.turn.before;
        let ok = candidates.into_iter().any(|slot| {
            position.get(slot).is_some_and(|p| {
                start
                    .find(p)
                    .is_some_and(|from| slot.level2() >= from.level2())
            })
        });
        if ok {
            Ok(())
        } else {
            Err(RuleError::Game(
                "a knight may not end its move lower than it started".into(),
            ))
        }
    }
    fn goal(&self, game: &Game, turn_end: bool) -> Vec<Colour> {
        let p = game.position();
        if p.of(DRAGON).intersects(Edge::Bottom.touching()) {
            vec![DRAGON]
        } else if turn_end && trapped(p) {
            vec![KNIGHT]
        } else {
            Vec::new()
        }
    }
}
