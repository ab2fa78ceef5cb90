//! What a client may ask the game without changing it, so no client re-derives the rules:
//! every action a seat may take now ([`Game::legal_actions`]), the previous move and the
//! position the no-reversal rule forbids, the clicks left in the move, and the chains open to
//! be claimed. Each answer is computed by the same checks `Game::step` makes.

use super::action::Action;
use super::allowance::Allowance;
use super::event::Millis;
use super::previous::PreviousMove;
use super::Game;
use crate::board::{Click, Slot, SlotSet};
use crate::piece::{Colour, PIECES_PER_COLOUR};
use crate::position::Position;
use crate::seat::Seat;

/// A chain made for a colour by someone else's click, open to be claimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claimable {
    /// Whose chain: any seat playing this colour may claim it ([`Game::seats_of`]).
    pub colour: Colour,
    /// The last moment (the caller's clock) a claim is accepted.
    pub until: Millis,
}

impl Game {
    /// Every action `seat` may take at time `now`, each one [`Game::step`] would accept.
    /// Clicks are listed without naming a piece (naming one of [`Game::candidates`] is also
    /// accepted); [`Action::Timeout`] is the server's, never listed. Empty once the game is
    /// over or for a seat that does not play. Allocates the returned list only; see
    /// [`Game::legal_actions_into`] to reuse one.
    pub fn legal_actions(&self, seat: Seat, now: Millis) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(seat, now, &mut out);
        out
    }

    /// As [`Game::legal_actions`], appending to `out` (a bot or a server may keep one buffer).
    pub fn legal_actions_into(&self, seat: Seat, now: Millis, out: &mut Vec<Action>) {
        if self.outcome.is_some() || self.seat_index(seat).is_none() {
            return;
        }
        if self.check_claim(seat, now).is_ok() {
            out.push(Action::Claim);
        }
        self.rules.special_actions(self, seat, out);
        if seat != self.mover() {
            return;
        }
        if self.is_puzzle() {
            self.push_clicks(seat, out);
            return;
        }
        match self.turn.allowance {
            Allowance::DieOrThree | Allowance::Die => {
                for choice in [Action::Roll, Action::Three] {
                    if self.check_choice(seat, choice).is_ok() {
                        out.push(choice);
                    }
                }
            }
            Allowance::Clicks(_) => self.push_clicks(seat, out),
            Allowance::Place(_) => {}
        }
        self.push_places(seat, out);
        if self.check_end_turn(seat).is_ok() {
            out.push(Action::EndTurn);
        }
    }

    fn push_clicks(&self, seat: Seat, out: &mut Vec<Action>) {
        for &click in Click::ALL.iter() {
            if self.check_click(seat, click).is_ok() {
                out.push(Action::Click { click, piece: None });
            }
        }
    }

    fn push_places(&self, seat: Seat, out: &mut Vec<Action>) {
        let free = !self.position.occupied() & SlotSet::FULL;
        let targets = match self.turn.allowance {
            Allowance::Place(rule) => Slot::ALL
                .iter()
                .copied()
                .filter(|&s| free.contains(s) && rule.allows(s))
                .fold(SlotSet::EMPTY, |set, s| set | s.bit()),
            _ if self.rules.mechanics().building => self.turn.eligible & free,
            _ => return,
        };
        let colour = self.seats[self.turn.mover].colour;
        let supply_empty = self.position.count(colour) >= PIECES_PER_COLOUR as usize;
        for slot in targets {
            if !supply_empty {
                if self.check_place(seat, slot, None).is_ok() {
                    out.push(Action::Place { slot, from: None });
                }
                continue;
            }
            for from in self.position.of(colour) {
                if self.check_place(seat, slot, Some(from)).is_ok() {
                    out.push(Action::Place {
                        slot,
                        from: Some(from),
                    });
                }
            }
        }
    }

    /// The last completed move (`None` before the first move ends, and in a puzzle, which is
    /// one move).
    pub fn previous_move(&self) -> Option<&PreviousMove> {
        self.previous.as_ref()
    }

    /// The position the move in progress may not end on (no-reversal rule): the board before
    /// the previous move, when that move changed it and the rule applies to this pair of
    /// moves (Cassiopeia exempts moves that entered a piece).
    pub fn forbidden(&self) -> Option<Position> {
        let previous = self.previous.as_ref()?;
        (previous.changed()
            && self
                .rules
                .reversal_applies(previous.entered, self.turn.entered))
        .then_some(previous.before)
    }

    /// Clicks the mover may still make this turn: `None` while the die-or-three choice is
    /// open (or the die is still to be thrown) and in a puzzle (no clicks rule); `Some(0)` in
    /// a placement turn and once the clicks are used.
    pub fn clicks_left(&self) -> Option<u8> {
        self.known_clicks()
            .map(|allowed| allowed.saturating_sub(self.turn.state.used))
    }

    /// Chains open to be claimed at `now`: whose, and until when. Expired ones are left out.
    pub fn claimable(&self, now: Millis) -> impl Iterator<Item = Claimable> + '_ {
        self.claims
            .iter()
            .filter(move |c| now <= c.until)
            .map(|c| Claimable {
                colour: c.colour,
                until: c.until,
            })
    }

    /// The seats playing `colour` (two in Hydra for Partners, else one or none).
    pub fn seats_of(&self, colour: Colour) -> impl Iterator<Item = Seat> + '_ {
        self.seats
            .iter()
            .filter(move |s| s.colour == colour)
            .map(|s| s.seat)
    }
}
