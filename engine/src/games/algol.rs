//! Algol, the Demon Star (booklet page 13): each player secretly picks one of his men and tries
//! to smuggle it across the board; the others may challenge a suspect from in line with it.
//! Two-click moves. A wrong challenge costs the challenger the challenging piece (one point to
//! the challenged); a right one scores 5 and, with three or four players, removes the found-out
//! player's men. A secret man touching the opposite edge scores 10 and ends the game. Most
//! points wins. A secret man can be lost, when it is the piece a wrong challenge is made
//! with; once no player has his own left, the game ends on the points (the booklet is
//! silent: without it two such players could only click on for ever).
//!
//! The secret is known to the engine and its owner only: the public `secret` event carries a
//! SHA-256 commitment, and the `over` event reveals number and salt so anyone can check it.

use super::{across_or_round, fill_homes, home_row, home_twelve};
use crate::board::{Click, Slot, SlotSet};
use crate::game::{Action, ActionError, Allowance, Event, Game, Options, Reveal, Rules, Winner};
use crate::piece::{Colour, Piece};
use crate::position::Position;
use crate::rules::RuleError;
use crate::seat::{Seat, SeatInfo};
use crate::secret::{commitment, hex};
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

/// What Algol remembers beyond the board, by seat index: the game's memory.
#[derive(Clone, Copy, Debug, Default)]
struct Secrets {
    /// Each seat's secret man, once chosen.
    piece: [Option<Piece>; 4],
    /// The salt hashed with each secret for its commitment.
    salt: [[u8; 16]; 4],
    /// Seats found out (with three or four players): out of the game, turns skipped.
    out: [bool; 4],
}

fn secrets(game: &Game) -> Secrets {
    game.memory::<Secrets>().copied().unwrap_or_default()
}

fn all_chosen(game: &Game) -> bool {
    let m = secrets(game);
    (0..game.seats().len()).all(|i| m.out[i] || m.piece[i].is_some())
}

fn in_play(game: &Game) -> usize {
    let m = secrets(game);
    (0..game.seats().len()).filter(|&i| !m.out[i]).count()
}

/// Whether every player still in the game has lost his secret man from the board (taken after
/// a wrong challenge made with it): none can be found out or get across any more.
fn no_secret_man_left(game: &Game) -> bool {
    let m = secrets(game);
    (0..game.seats().len())
        .filter(|&i| !m.out[i])
        .all(|i| m.piece[i].is_none_or(|p| game.position().find(p).is_none()))
}

/// Checks that seat `i` may choose `piece` as its secret man.
fn check_secret(game: &Game, i: usize, piece: Piece) -> Result<(), ActionError> {
    if secrets(game).piece[i].is_some() {
        return Err(ActionError::Phase(
            "you have already chosen your secret man",
        ));
    }
    if piece.colour() != game.seats()[i].colour || game.position().find(piece).is_none() {
        return Err(RuleError::NotYourPiece(piece).into());
    }
    Ok(())
}

/// Checks that seat `i` may challenge `piece` now; returns the suspect's seat index and the
/// challenging piece's slot.
fn check_challenge(game: &Game, i: usize, piece: Piece) -> Result<(usize, Slot), ActionError> {
    let seat = game.seats()[i].seat;
    let colour = game.seats()[i].colour;
    if game.mover() != seat {
        return Err(ActionError::NotYourTurn(game.mover()));
    }
    if !all_chosen(game) {
        return Err(ActionError::Phase(
            "every player must first choose a secret man",
        ));
    }
    let out = secrets(game).out;
    let suspect_seat = game
        .seats()
        .iter()
        .position(|s| s.colour == piece.colour() && s.colour != colour)
        .filter(|&j| !out[j]);
    let (Some(j), Some(at)) = (suspect_seat, game.position().find(piece)) else {
        return Err(ActionError::Phase(
            "challenge a piece of another player that is on the board",
        ));
    };
    let own = game.position().of(colour);
    let in_line = at.in_line() & own;
    if in_line.is_empty() {
        return Err(RuleError::Game(format!("none of your pieces is in line with {piece}")).into());
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
    Ok((j, challenger))
}

impl Game {
    /// `seat`'s own secret (Algol): for its owner's eyes only until the game is over.
    pub fn secret(&self, seat: Seat) -> Option<Piece> {
        secrets(self).piece[self.seat_index(seat)?]
    }

    /// Supposes that `seat`'s secret man is `piece`, one of its men on the board: for a
    /// search that guesses a secret it cannot see, on a copy from [`Game::seen_by`]. Only for
    /// a seat that has chosen (the `secret` event is public); the salt and commitment are not
    /// kept, so the copy's reveals mean nothing.
    pub fn suppose_secret(&mut self, seat: Seat, piece: Piece) -> Result<(), ActionError> {
        let i = self.seat_index(seat).ok_or(ActionError::NoSuchSeat(seat))?;
        if secrets(self).piece[i].is_none() {
            return Err(ActionError::Phase("that seat has not chosen a secret man"));
        }
        if piece.colour() != self.seats()[i].colour || self.position().find(piece).is_none() {
            return Err(RuleError::NotYourPiece(piece).into());
        }
        self.memory_mut::<Secrets>().piece[i] = Some(piece);
        Ok(())
    }
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
        match action {
            Action::Secret { piece } => {
                check_secret(game, i, piece)?;
                let mut salt = [0u8; 16];
                game.rng.fill_bytes(&mut salt);
                let m = game.memory_mut::<Secrets>();
                m.piece[i] = Some(piece);
                m.salt[i] = salt;
                events.push(Event::Secret {
                    seat,
                    commitment: commitment(piece.number(), &salt),
                });
                Ok(())
            }
            Action::Challenge { piece } => {
                let (j, challenger) = check_challenge(game, i, piece)?;
                let hit = secrets(game).piece[j] == Some(piece);
                let removed: SlotSet = if hit {
                    game.scores[i] += FOUND;
                    if in_play(game) > 2 {
                        let theirs = game.position().of(piece.colour());
                        for s in theirs {
                            game.position_mut().take(s);
                        }
                        game.memory_mut::<Secrets>().out[j] = true;
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
                // A wrong challenge that took the last secret man on the board ends it too:
                // nothing but a point for another wrong challenge could be scored.
                let found_out = hit && (removed.is_empty() || in_play(game) == 1);
                if found_out || no_secret_man_left(game) {
                    game.finish_by_score(events);
                } else {
                    game.end_turn(events);
                }
                Ok(())
            }
            _ => Err(ActionError::Phase("this game has no such action")),
        }
    }
    fn special_actions(&self, game: &Game, seat: Seat, out: &mut Vec<Action>) {
        let Some(i) = game.seat_index(seat) else {
            return;
        };
        let own = game.position().of(game.seats()[i].colour);
        if secrets(game).piece[i].is_none() {
            for slot in own {
                if let Some(piece) = game.position().get(slot) {
                    if check_secret(game, i, piece).is_ok() {
                        out.push(Action::Secret { piece });
                    }
                }
            }
        }
        if game.mover() != seat || !all_chosen(game) {
            return;
        }
        let reach = own
            .into_iter()
            .fold(SlotSet::EMPTY, |set, s| set | s.in_line());
        for slot in reach & !own & game.position().occupied() {
            if let Some(piece) = game.position().get(slot) {
                if check_challenge(game, i, piece).is_ok() {
                    out.push(Action::Challenge { piece });
                }
            }
        }
    }
    fn conceal(&self, game: &mut Game, seat: Seat) {
        let me = game.seat_index(seat);
        let position = *game.position();
        let stand_ins: Vec<Option<Piece>> = game
            .seats()
            .iter()
            .map(|s| {
                let first = position.of(s.colour).first();
                first
                    .and_then(|slot| position.get(slot))
                    .or(Piece::new(s.colour, 1))
            })
            .collect();
        let m = game.memory_mut::<Secrets>();
        for (i, stand_in) in stand_ins.into_iter().enumerate() {
            if Some(i) == me || m.piece[i].is_none() {
                continue;
            }
            // The stand-in is the lowest slot's man: chosen from the board alone.
            m.piece[i] = stand_in;
            m.salt[i] = [0; 16];
        }
    }
    fn out_of_play(&self, game: &Game, seat: Seat) -> bool {
        game.seat_index(seat).is_some_and(|i| secrets(game).out[i])
    }
    fn reveals(&self, game: &Game) -> Vec<Reveal> {
        let m = secrets(game);
        game.seats()
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                m.piece[i].map(|piece| Reveal {
                    seat: s.seat,
                    piece,
                    salt: hex(&m.salt[i]),
                    commitment: commitment(piece.number(), &m.salt[i]),
                })
            })
            .collect()
    }
    fn goal(&self, game: &Game, _turn_end: bool) -> Vec<Colour> {
        let m = secrets(game);
        (0..game.seats().len())
            .filter(|&i| !m.out[i])
            .filter_map(|i| {
                let s = game.seats()[i];
                let at = game.position().find(m.piece[i]?)?;
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
