//! Live resolution (ORION.md section 4): after every change, chains (won at once by the mover,
//! or opened for another player to claim), Orion captures, and each game's goal; and the end of
//! the game, with its scores and revealed secrets.

use super::error::ActionError;
use super::event::{Event, Millis, Outcome, Winner};
use super::options::ClaimWindow;
use super::Game;
use crate::chain::has_chain;
use crate::fence;
use crate::piece::Colour;
use crate::seat::Seat;

/// A chain made for a seat by someone else's click, open to be claimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OpenClaim {
    /// The colour whose chain it is (any seat playing it may claim).
    pub(crate) colour: Colour,
    /// The last moment a claim is accepted.
    pub(crate) until: Millis,
}

impl Game {
    /// Checks that `seat` may claim a chain at `now`; returns which open claim it takes.
    pub(crate) fn check_claim(&self, seat: Seat, now: Millis) -> Result<usize, ActionError> {
        let colour = self.colour_of(seat).ok_or(ActionError::NoSuchSeat(seat))?;
        self.claims
            .iter()
            .position(|c| c.colour == colour && now <= c.until)
            .ok_or(ActionError::NothingToClaim)
    }

    pub(crate) fn claim(
        &mut self,
        seat: Seat,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let i = self.check_claim(seat, now)?;
        let colour = self.claims.remove(i).colour;
        events.push(Event::Claim { seat, ok: true });
        self.finish(Some(self.winner_for(colour)), events);
        Ok(())
    }

    /// Resolves what the last change caused (chains, captures, goals). Returns true if the
    /// turn or the game ended.
    pub(crate) fn resolve(&mut self, now: Millis, events: &mut Vec<Event>) -> bool {
        let mechanics = self.rules.mechanics();
        let mover = self.seats[self.turn.mover];
        if mechanics.chains {
            let mask = self.chain_mask();
            let made = mask & !self.chains_before;
            self.chains_before = mask;
            if mask & (1 << mover.colour as u8) != 0 {
                events.push(Event::Chain {
                    colour: mover.colour,
                    claim_until: None,
                });
                self.finish(Some(self.winner_for(mover.colour)), events);
                return true;
            }
            for colour in Colour::ALL {
                if made & (1 << colour as u8) == 0 {
                    continue;
                }
                match self.options.claim_window {
                    ClaimWindow::Auto => {
                        events.push(Event::Chain {
                            colour,
                            claim_until: None,
                        });
                        self.finish(Some(self.winner_for(colour)), events);
                        return true;
                    }
                    ClaimWindow::Millis(ms) => {
                        let until = now.saturating_add(ms);
                        self.claims.retain(|c| c.colour != colour);
                        self.claims.push(OpenClaim { colour, until });
                        events.push(Event::Chain {
                            colour,
                            claim_until: Some(until),
                        });
                    }
                }
            }
        }
        if mechanics.captures && self.capture(events) {
            return true;
        }
        self.check_goal(false, events)
    }

    /// Ends the game if a goal is reached: one colour wins, several at once draw.
    pub(crate) fn check_goal(&mut self, turn_end: bool, events: &mut Vec<Event>) -> bool {
        let reached = self.rules.goal(self, turn_end);
        if reached.is_empty() {
            return false;
        }
        let rules = self.rules;
        let winner = rules.on_goal(self, &reached);
        self.finish(winner, events);
        true
    }

    /// Orion captures for the mover. Returns true if the turn (or game) ended.
    pub(crate) fn capture(&mut self, events: &mut Vec<Event>) -> bool {
        let mover = self.seats[self.turn.mover];
        let capture = fence::evaluate(&self.position, mover.colour);
        if !capture.slots.is_empty() {
            for slot in capture.slots {
                self.position.take(slot);
            }
            let points = capture.slots.len() as u32;
            self.scores[self.turn.mover] += points;
            events.push(Event::Capture {
                seat: mover.seat,
                slots: capture.slots,
                points,
                position: self.position,
            });
        }
        if capture.whole_board {
            self.finish_by_score(events);
            return true;
        }
        if !capture.slots.is_empty() {
            self.end_turn(events);
            return true;
        }
        false
    }

    /// Ends the game: the single highest score wins, a tie at the top draws.
    pub(crate) fn finish_by_score(&mut self, events: &mut Vec<Event>) {
        let winner = self.score_leader();
        self.finish(winner, events);
    }

    /// The seat alone at the top of the scores, if one is.
    pub(crate) fn score_leader(&self) -> Option<Winner> {
        let best = self.scores.iter().copied().max().unwrap_or(0);
        let leaders: Vec<usize> = (0..self.seats.len())
            .filter(|&i| self.scores[i] == best)
            .collect();
        match leaders.as_slice() {
            [one] => Some(Winner::Seat(self.seats[*one].seat)),
            _ => None,
        }
    }

    /// The winner when `colour` wins: its seat, or its team.
    pub(crate) fn winner_for(&self, colour: Colour) -> Winner {
        let team: Vec<Seat> = self
            .seats
            .iter()
            .filter(|s| s.colour == colour)
            .map(|s| s.seat)
            .collect();
        match team.as_slice() {
            [a, b] => Winner::Team(*a, *b),
            [a, ..] => Winner::Seat(*a),
            [] => Winner::Seat(Seat::S),
        }
    }

    /// Bit per colour: which colours in play hold a chain from their seat's edge.
    pub(crate) fn chain_mask(&self) -> u8 {
        let mut mask = 0;
        for s in self.seats.iter() {
            if mask & (1 << s.colour as u8) == 0
                && has_chain(self.position.of(s.colour), s.seat.edge())
            {
                mask |= 1 << s.colour as u8;
            }
        }
        mask
    }

    pub(crate) fn finish(&mut self, winner: Option<Winner>, events: &mut Vec<Event>) {
        let rules = self.rules;
        rules.on_finish(self, winner);
        let outcome = Outcome {
            winner,
            scores: self.scores(),
            reveals: self.reveals(),
        };
        self.outcome = Some(outcome.clone());
        self.claims.clear();
        events.push(Event::Over { outcome });
    }
}
