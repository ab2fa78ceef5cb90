//! The variant trait: what one game of the booklet decides (seats, start, schedule of clicks,
//! its own rules, goal and scoring). Each game implements [`Rules`] in its own file in
//! `games/`; the turn machine calls these hooks and knows no game by name.

use super::action::Action;
use super::allowance::Allowance;
use super::error::ActionError;
use super::event::{Event, Reveal, Winner};
use super::options::Options;
use super::Game;
use crate::board::{Click, SlotSet};
use crate::piece::Colour;
use crate::position::Position;
use crate::rules::RuleError;
use crate::seat::{Seat, SeatInfo};
use rand::RngCore;
use std::ops::RangeInclusive;

/// The live mechanisms of section 4 a game uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mechanics {
    /// Hydra chains between a seat's edge and the opposite edge, with claims.
    pub chains: bool,
    /// Orion fences and captures.
    pub captures: bool,
    /// Building: new pieces on slots the mover's pieces just left.
    pub building: bool,
}

/// How far a one-player puzzle has come, for a room to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PuzzleProgress {
    /// Clicks made so far (Aquarius: tries made).
    pub clicks: u32,
    /// The booklet's target: its click count (Aquarius: the five tries); `None` where the
    /// booklet gives none.
    pub target: Option<u32>,
}

/// One game of the booklet: its seats, start, schedule of clicks, and special rules.
/// Implementations live one per file in `games/`; the puzzles, as one-player rooms, too.
pub trait Rules: Send + Sync + 'static {
    /// Short id used on the wire and the command line (`hydra-2`).
    fn id(&self) -> &'static str;
    /// The booklet's name (`Hydra for Two`).
    fn name(&self) -> &'static str;
    /// How many players may play.
    fn players(&self) -> RangeInclusive<u8>;
    /// The seats in turn order for `players` players, with their colours.
    fn seats(&self, players: u8) -> Vec<SeatInfo>;
    /// The starting position; `rng` (seeded by the room) serves games that start at random.
    fn start(&self, seats: &[SeatInfo], options: &Options, rng: &mut dyn RngCore) -> Position;
    /// Index into the seats of who moves first (a toss, in Taurus).
    fn first_mover(&self, _rng: &mut dyn RngCore, _seats: usize) -> usize {
        0
    }
    /// How many players when the room does not say.
    fn default_players(&self) -> u8 {
        *self.players().start()
    }
    /// How `seat`'s turn in round `round` (1-based) is played.
    fn allowance(&self, seat: Seat, round: u32, options: &Options) -> Allowance;
    /// How `seat`'s turn is played given the whole game (a game whose schedule depends on the
    /// board overrides this; the default is [`Rules::allowance`]).
    fn turn_allowance(&self, game: &Game, seat: Seat, round: u32) -> Allowance {
        self.allowance(seat, round, game.options())
    }
    /// The live mechanisms the game uses.
    fn mechanics(&self) -> Mechanics {
        Mechanics::default()
    }
    /// Whether a seat may end a move without clicking.
    fn may_pass(&self) -> bool {
        true
    }
    /// The colours that have reached the game's goal: checked after every change
    /// (`turn_end` false) and when a turn ends (`turn_end` true).
    fn goal(&self, _game: &Game, _turn_end: bool) -> Vec<Colour> {
        Vec::new()
    }
    /// Whether the same-piece rule narrows the pieces moved click by click (Bootes shares a
    /// move between two dogs).
    fn same_piece(&self) -> bool {
        true
    }
    /// A game's own refusal of a click, checked before the basic rules.
    fn check_click(&self, _game: &Game, _click: Click) -> Result<(), RuleError> {
        Ok(())
    }
    /// A game's own check of how a move ends (`position` and `candidates` as they would be).
    fn end_check(
        &self,
        _game: &Game,
        _position: &Position,
        _candidates: SlotSet,
    ) -> Result<(), RuleError> {
        Ok(())
    }
    /// Called when a turn begins, to set up per-move bookkeeping.
    fn begin_turn(&self, _game: &mut Game) {}
    /// Called after each click of the mover, with the position before it.
    fn after_click(&self, _game: &mut Game, _before: &Position, _click: Click) {}
    /// Called when the game ends, before the outcome is announced (final scoring).
    fn on_finish(&self, _game: &mut Game, _winner: Option<Winner>) {}
    /// The winner when `reached` colours reached the goal: by default one colour wins and
    /// several draw; a scored game may award points and decide by score instead.
    fn on_goal(&self, game: &mut Game, reached: &[Colour]) -> Option<Winner> {
        match reached {
            [one] => Some(game.winner_for(*one)),
            _ => None,
        }
    }
    /// A game's own actions (Algol's secret and challenge; every click of a puzzle). Must
    /// refuse before changing anything.
    fn special(
        &self,
        _game: &mut Game,
        _seat: Seat,
        _action: Action,
        _events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        Err(ActionError::Phase("this game has no such action"))
    }
    /// The game's own actions `seat` may take now (Algol's secret and challenges), each one
    /// that [`Rules::special`] would accept, appended to `out`; for [`Game::legal_actions`].
    /// A puzzle's clicks are not listed here: they are checked by [`Rules::check_click`].
    fn special_actions(&self, _game: &Game, _seat: Seat, _out: &mut Vec<Action>) {}
    /// Whether `seat` is out of the game (Algol's found-out players): its turns are skipped.
    fn out_of_play(&self, _game: &Game, _seat: Seat) -> bool {
        false
    }
    /// Removes from `game` what `seat` may not know (Algol: the other seats' secret men and
    /// their salts), for [`Game::seen_by`]. Whatever it leaves must not depend on the hidden
    /// choices, so two games that differ only in them give the same copy.
    fn conceal(&self, _game: &mut Game, _seat: Seat) {}
    /// Hidden choices to reveal at the end (Algol's secret men), with their salts and
    /// commitments.
    fn reveals(&self, _game: &Game) -> Vec<Reveal> {
        Vec::new()
    }
    /// Whether the no-reversal rule applies, given whether the previous move and this one
    /// entered new pieces.
    fn reversal_applies(&self, _previous_entered: bool, _this_entered: bool) -> bool {
        true
    }
    /// A one-player puzzle's progress (ORION.md section 6); `None` for the games. A puzzle
    /// plays differently: each click goes to [`Rules::special`], which checks it by the
    /// puzzle's own rule instead of the basic rules (colour, same piece, clicks,
    /// no-reversal); its one turn has no clicks limit and lasts until [`Rules::goal`].
    fn progress(&self, _game: &Game) -> Option<PuzzleProgress> {
        None
    }
}
