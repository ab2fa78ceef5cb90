//! Aquarius, the telepathy test (booklet page 30), as a one-player room: the engine draws a
//! fresh valid chain for each of five tries from the room's seed and keeps it hidden; the
//! player names a rotor (a click of it); the try is announced with whether it hit and, only
//! then, the chain it was made against. The score is the hits; three or more in five is the
//! booklet's "telepathy is probably at work", and names the player winner.

use super::puzzle::solo_seat;
use crate::game::{
    Action, ActionError, Allowance, Event, Game, Options, PuzzleProgress, Rules, Winner,
};
use crate::piece::Colour;
use crate::position::Position;
use crate::puzzles::{AquariusTest, TELEPATHY, TRIES};
use crate::seat::{Seat, SeatInfo};
use rand::RngCore;
use std::ops::RangeInclusive;

/// Aquarius as a room's rules.
pub struct Aquarius;

/// What the test remembers: the game's memory, made at the first try from the room's seed.
#[derive(Clone, Default)]
struct Test(Option<AquariusTest>);

fn test(game: &Game) -> Option<&AquariusTest> {
    game.memory::<Test>()?.0.as_ref()
}

impl Rules for Aquarius {
    fn id(&self) -> &'static str {
        "aquarius"
    }

    fn name(&self) -> &'static str {
        "Aquarius"
    }

    fn players(&self) -> RangeInclusive<u8> {
        1..=1
    }

    fn seats(&self, _players: u8) -> Vec<SeatInfo> {
        solo_seat()
    }

    /// The board the player sees is empty: the chain under test is never on it.
    fn start(&self, _seats: &[SeatInfo], _options: &Options, _rng: &mut dyn RngCore) -> Position {
        Position::empty()
    }

    /// Unused: the test counts tries, not clicks of a move.
    fn allowance(&self, _seat: Seat, _round: u32, _options: &Options) -> Allowance {
        Allowance::Clicks(0)
    }

    fn goal(&self, game: &Game, _turn_end: bool) -> Vec<Colour> {
        match test(game) {
            Some(test) if test.done() => game.seats().iter().map(|s| s.colour).take(1).collect(),
            _ => Vec::new(),
        }
    }

    fn on_goal(&self, game: &mut Game, _reached: &[Colour]) -> Option<Winner> {
        let hits = test(game).map_or(0, AquariusTest::score);
        let seat = game.seats().first().map(|s| s.seat)?;
        (hits >= TELEPATHY).then_some(Winner::Seat(seat))
    }

    fn special(
        &self,
        game: &mut Game,
        seat: Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let Action::Click { click, .. } = action else {
            return Err(ActionError::Phase(
                "the test is played by naming a rotor: click it",
            ));
        };
        let seed = game.seed();
        let test = game
            .memory_mut::<Test>()
            .0
            .get_or_insert_with(|| AquariusTest::new(seed));
        let done = test.attempt(click).ok_or(ActionError::GameOver)?;
        let (tries, hits) = (test.tries().len(), test.score());
        if let Some(score) = game.scores.first_mut() {
            *score = hits as u32;
        }
        events.push(Event::Try {
            seat,
            click,
            hit: done.hit,
            chain: done.chain,
            tries: tries as u8,
            hits: hits as u8,
        });
        Ok(())
    }

    fn progress(&self, game: &Game) -> Option<PuzzleProgress> {
        let tries = test(game).map_or(0, |t| t.tries().len());
        Some(PuzzleProgress {
            clicks: tries as u32,
            target: Some(TRIES as u32),
        })
    }
}
