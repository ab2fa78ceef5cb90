//! Algol, the Demon Star (booklet page 13): each player secretly picks one of his men and tries
//! to smuggle it across the board; the others may challenge a suspect from in line with it.
//! Two-click moves. A wrong challenge costs the challenger the challenging piece (one point to
//! the challenged); a right one scores 5 and, with three or four players, removes the found-out
//! player's men. A secret man touching the opposite edge scores 10 and ends the game. Most
//! points wins.
//!
//! The secret is known to the engine and its owner only: the public `secret` event carries a
//! SHA-256 commitment, and the `over` event reveals number and salt so anyone can check it.

use super::{across_or_round, fill_homes, home_row, home_twelve};
use crate::board::{Click, SlotSet};
use crate::game::{Action, ActionError, Allowance, Event, Game, Options, Rules, Winner};
use crate::piece::Colour;
use crate::position::Position;
use crate::rules::RuleError;
use crate::seat::{Seat, SeatInfo};
use crate::secret::commitment;
use rand::RngCore;
use std::ops::RangeInclusive;

/// Algol.
pub struct Algol;

/// Points for a right challenge.
pub const FOUND: u32 = 5;
/// Points for a wrong challenge, to the challenged player.
pub const WRONG: u32 = 1;
/// Points for getting the secret man across.
pub const CROSSED: u32 = 10;

fn all_chosen(game: &Game) -> bool {
    (0..game.seats().len()).all(|i| game.memory.out[i] || game.memory.secrets[i].is_some())
}

fn in_play(game: &Game) -> usize {
    (0..game.seats().len())
        .filter(|&i| !game.memory.out[i])
        .count()
}

impl Rules for Algol {
    fn id(&self) -> &'static str {
        "algol"
    }
    fn name(&self) -> &'static str {
        "Algol"
    }
    fn players(&self) -> RangeInclusive<u8> {
        2..=4
    }
    fn seats(&self, players: u8) -> Vec<SeatInfo> {
        across_or_round(players)
    }
    fn start(&self, seats: &[SeatInfo], _options: &Options, _rng: &mut dyn RngCore) -> Position {
        let home = if seats.len() == 2 {
            home_row()
        } else {
            home_twelve()
        };
        fill_homes(seats, home)
    }
    fn allowance(&self, _seat: Seat, _round: u32, options: &Options) -> Allowance {
        Allowance::Clicks(options.clicks.unwrap_or(2))
    }
    fn check_click(&self, game: &Game, _click: Click) -> Result<(), RuleError> {
        if !all_chosen(game) {
            return Err(RuleError::Game(
                "every player must first choose a secret man".into(),
            ));
        }
        Ok(())
    }
    fn special(
        &self,
        game: &mut Game,
        seat: Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let i = game
            .seats()
            .iter()
            .position(|s| s.seat == seat)
            .ok_or(ActionError::NoSuchSeat(seat))?;
        let colour = game.seats()[i].colour;
        match action {
            Action::Secret { piece } => {
                if game.memory.secrets[i].is_some() {
                    return Err(ActionError::Phase(
                        "you have already chosen your secret man",
                    ));
                }
                if piece.colour() != colour || game.position().find(piece).is_none() {
                    return Err(RuleError::NotYourPiece(piece).into());
                }
                let mut salt = [0u8; 16];
                game.rng.fill_bytes(&mut salt);
                game.memory.secrets[i] = Some(piece);
                game.memory.salts[i] = salt;
                events.push(Event::Secret {
                    seat,
                    commitment: commitment(piece.number(), &salt),
                });
                Ok(())
            }
            Action::Challenge { piece } => {
                if game.mover() != seat {
                    return Err(ActionError::NotYourTurn(game.mover()));
                }
                if !all_chosen(game) {
                    return Err(ActionError::Phase(
                        "every player must first choose a secret man",
                    ));
                }
                let suspect_seat = game
                    .seats()
                    .iter()
                    .position(|s| s.colour == piece.colour() && s.colour != colour)
                    .filter(|&j| !game.memory.out[j]);
                let (Some(j), Some(at)) = (suspect_seat, game.position().find(piece)) else {
                    return Err(ActionError::Phase(
                        "challenge a piece of another player that is on the board",
                    ));
                };
                let own = game.position().of(colour);
                let in_line = at.in_line() & own;
                if in_line.is_empty() {
                    return Err(RuleError::Game(format!(
                        "none of your pieces is in line with {piece}"
                    ))
                    .into());
                }
                // The challenging piece: the one just moved if it is in line, else the first.
                let moved = in_line & game.turn.state.candidates;
                let challenger = if game.turn.state.used > 0 && !moved.is_empty() {
                    moved
                } else {
                    in_line
                }
                .first()
                .expect("not empty");
                let hit = game.memory.secrets[j] == Some(piece);
                let removed: SlotSet = if hit {
                    game.scores[i] += FOUND;
                    if in_play(game) > 2 {
                        let theirs = game.position().of(piece.colour());
                        for s in theirs {
                            game.position_mut().take(s);
                        }
                        game.memory.out[j] = true;
                        theirs
                    } else {
                        SlotSet::EMPTY
                    }
                } else {
                    game.scores[j] += WRONG;
                    game.position_mut().take(challenger);
                    challenger.bit()
                };
                events.push(Event::Challenge {
                    seat,
                    piece,
                    hit,
                    removed,
                    position: *game.position(),
                });
                // Two players: a found secret ends the game; more: it ends when one is left.
                if hit && (removed.is_empty() || in_play(game) == 1) {
                    game.finish_by_score(events);
                } else {
                    game.end_turn(events);
                }
                Ok(())
            }
            _ => Err(ActionError::Phase("this game has no such action")),
        }
    }
    fn goal(&self, game: &Game, _turn_end: bool) -> Vec<Colour> {
        (0..game.seats().len())
            .filter(|&i| !game.memory.out[i])
            .filter_map(|i| {
                let s = game.seats()[i];
                let at = game.position().find(game.memory.secrets[i]?)?;
                s.seat
                    .edge()
                    .opposite()
                    .touching()
                    .contains(at)
                    .then_some(s.colour)
            })
            .collect()
    }
    fn on_goal(&self, game: &mut Game, reached: &[Colour]) -> Option<Winner> {
        for &colour in reached {
            if let Some(i) = game.seats().iter().position(|s| s.colour == colour) {
                game.scores[i] += CROSSED;
            }
        }
        game.score_leader()
    }
}
