//! The turn machine: whose turn it is, how its clicks are counted, and what each action does
//! to it — checks first (refusing before anything changes), then the change, then resolution
//! (`resolve`) and, when the turn is over, the next seat's turn.

use super::action::Action;
use super::allowance::{Allowance, PlaceRule};
use super::error::ActionError;
use super::event::{Event, Millis};
use super::previous::{PreviousMove, MAX_MOVE_CLICKS};
use super::Game;
use crate::board::{Click, Slot, SlotSet};
use crate::piece::{Piece, PIECES_PER_COLOUR};
use crate::position::Position;
use crate::rules::{MoveState, RuleError};
use crate::seat::Seat;

/// The turn in progress.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turn {
    /// Index into `Game::seats` of the mover.
    pub(crate) mover: usize,
    /// 1-based round (every seat's k-th turn is round k).
    pub(crate) round: u32,
    /// How the turn is to be used.
    pub(crate) allowance: Allowance,
    /// The clicks rule and same-piece rule state; `allowed` is 0 until the clicks are known.
    pub(crate) state: MoveState,
    /// Slots the mover may build on now.
    pub(crate) eligible: SlotSet,
    /// Whether this move entered a new piece.
    pub(crate) entered: bool,
    /// The position when the turn began (for the no-reversal rule and time-outs).
    pub(crate) before: Position,
    /// The clicks made so far, to undo a reversing move when the clock runs out.
    pub(crate) clicks: [Option<Click>; MAX_MOVE_CLICKS],
}

impl Turn {
    /// A placeholder until the first turn begins.
    pub(crate) fn before_start(position: Position) -> Turn {
        Turn {
            mover: 0,
            round: 1,
            allowance: Allowance::Clicks(0),
            state: MoveState::new(0, SlotSet::EMPTY),
            eligible: SlotSet::EMPTY,
            entered: false,
            before: position,
            clicks: [None; MAX_MOVE_CLICKS],
        }
    }
}

impl Game {
    /// Checks that `click` would be legal now, without making it.
    pub fn check_click(&self, seat: Seat, click: Click) -> Result<(), ActionError> {
        self.check_mover(seat)?;
        if self.is_puzzle() {
            return Ok(self.rules.check_click(self, click)?);
        }
        self.check_clicking()?;
        self.rules.check_click(self, click)?;
        let own = self.position.of(self.seats[self.turn.mover].colour);
        self.turn.state.check(own, click)?;
        self.check_last_click(click, self.turn.state)?;
        Ok(())
    }

    /// Performs one action of `seat` at time `now`.
    pub fn step(
        &mut self,
        seat: Seat,
        action: Action,
        now: Millis,
    ) -> Result<Vec<Event>, ActionError> {
        let mut events = Vec::new();
        self.step_into(seat, action, now, &mut events)?;
        Ok(events)
    }

    /// As [`Game::step`], appending the events to `events` so a caller that steps many games
    /// can reuse one buffer (no allocation per click). On a refusal `events` is unchanged.
    pub fn step_into(
        &mut self,
        seat: Seat,
        action: Action,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let mark = events.len();
        let result = self.dispatch(seat, action, now, events);
        if result.is_err() {
            events.truncate(mark);
        }
        result
    }

    fn dispatch(
        &mut self,
        seat: Seat,
        action: Action,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.outcome.is_some() {
            return Err(ActionError::GameOver);
        }
        if !self.seats.iter().any(|s| s.seat == seat) {
            return Err(ActionError::NoSuchSeat(seat));
        }
        match action {
            Action::Click { .. } if self.is_puzzle() => {
                self.check_mover(seat)?;
                let rules = self.rules;
                rules.special(self, seat, action, events)?;
                self.check_goal(false, events);
            }
            Action::EndTurn if self.is_puzzle() => {
                return Err(ActionError::Phase(
                    "a puzzle is one move with no end but its finish: just click",
                ))
            }
            Action::Claim => self.claim(seat, now, events)?,
            Action::Secret { .. } | Action::Challenge { .. } => {
                let rules = self.rules;
                rules.special(self, seat, action, events)?;
            }
            Action::Click { click, piece } => self.click(seat, click, piece, now, events)?,
            Action::Place { slot, from } => self.place(seat, slot, from, now, events)?,
            Action::EndTurn => {
                self.check_end_turn(seat)?;
                self.end_turn(events);
            }
            Action::Roll => {
                self.check_choice(seat, action)?;
                let value = self.die.roll(&mut self.rng);
                events.push(Event::Roll { seat, value });
                self.take_clicks(value, events);
            }
            Action::Three => {
                self.check_choice(seat, action)?;
                self.take_clicks(3, events);
            }
            Action::Timeout => {
                self.check_mover(seat)?;
                let mover = self.mover();
                if matches!(self.turn.allowance, Allowance::Clicks(_))
                    && !self.turn.entered
                    && self.would_reverse()
                {
                    // Undo the move click by click so every client follows with ordinary events.
                    for click in self.turn.clicks.iter().rev().flatten().copied() {
                        let undo = click.inverse();
                        self.position.click(undo);
                        events.push(Event::Click {
                            seat: mover,
                            click: undo,
                            position: self.position,
                        });
                    }
                    // The move is undone: it leaves no clicks behind.
                    self.turn.clicks = [None; MAX_MOVE_CLICKS];
                }
                self.end_turn(events);
            }
        }
        Ok(())
    }

    /// As [`Game::step`] with [`Action::Roll`], the die showing `value` instead of a throw of
    /// the game's own: for a copy of a game followed from a room's events, whose `roll` event
    /// carries the value (the seed that threw it is the server's secret until the end).
    /// `value` must be one of the die's faces.
    pub fn step_roll(&mut self, seat: Seat, value: u8) -> Result<Vec<Event>, ActionError> {
        if self.outcome.is_some() {
            return Err(ActionError::GameOver);
        }
        self.check_choice(seat, Action::Roll)?;
        if !self.die.faces.contains(&value) {
            return Err(ActionError::NoSuchFace(value));
        }
        let mut events = vec![Event::Roll { seat, value }];
        self.take_clicks(value, &mut events);
        Ok(events)
    }

    /// The die or three chosen: the turn has `clicks` clicks.
    fn take_clicks(&mut self, clicks: u8, events: &mut Vec<Event>) {
        self.turn.allowance = Allowance::Clicks(clicks);
        self.turn.state.allowed = clicks;
        events.push(self.turn_event());
    }

    /// Checks that `seat` may end its turn now.
    pub(crate) fn check_end_turn(&self, seat: Seat) -> Result<(), ActionError> {
        self.check_mover(seat)?;
        if let Allowance::Place(rule) = self.turn.allowance {
            // A placement turn passes only when no slot it allows is free.
            let free = !self.position.occupied();
            if Slot::ALL
                .iter()
                .any(|&s| free.contains(s) && rule.allows(s))
            {
                return Err(ActionError::Phase("place your piece first"));
            }
        }
        if self.turn.state.used == 0 && !self.rules.may_pass() {
            return Err(ActionError::Phase("you may not pass in this game"));
        }
        if self.would_reverse() {
            return Err(RuleError::Reversal.into());
        }
        if self.turn.state.used > 0 {
            self.rules
                .end_check(self, &self.position, self.turn.state.candidates)?;
        }
        Ok(())
    }

    /// Checks that `seat` may make `choice` ([`Action::Roll`] or [`Action::Three`]) now.
    pub(crate) fn check_choice(&self, seat: Seat, choice: Action) -> Result<(), ActionError> {
        self.check_mover(seat)?;
        match (self.turn.allowance, choice) {
            (Allowance::DieOrThree | Allowance::Die, Action::Roll)
            | (Allowance::DieOrThree, Action::Three) => Ok(()),
            (Allowance::Die, _) => Err(ActionError::Phase("you must throw the die this turn")),
            _ => Err(ActionError::Phase(
                "this turn has no choice of die or three",
            )),
        }
    }

    pub(crate) fn known_clicks(&self) -> Option<u8> {
        if self.is_puzzle() {
            // No clicks rule: a puzzle's move lasts until its finish.
            return None;
        }
        match self.turn.allowance {
            Allowance::Clicks(_) => Some(self.turn.state.allowed),
            Allowance::Place(_) => Some(0),
            Allowance::DieOrThree | Allowance::Die => None,
        }
    }

    pub(crate) fn turn_event(&self) -> Event {
        Event::Turn {
            seat: self.mover(),
            clicks: self.known_clicks(),
            round: self.turn.round,
        }
    }

    pub(crate) fn check_mover(&self, seat: Seat) -> Result<(), ActionError> {
        if seat != self.mover() {
            return Err(ActionError::NotYourTurn(self.mover()));
        }
        Ok(())
    }

    fn check_clicking(&self) -> Result<(), ActionError> {
        match self.turn.allowance {
            Allowance::Clicks(_) => Ok(()),
            Allowance::DieOrThree => Err(ActionError::Phase(
                "choose first: throw the die or take three clicks",
            )),
            Allowance::Die => Err(ActionError::Phase("throw the die first")),
            Allowance::Place(_) => Err(ActionError::Phase(
                "this turn is a placement: place a piece",
            )),
        }
    }

    /// The move's last click may not leave a reversing position, unless building could still
    /// change it (then ending the turn is what is checked).
    fn check_last_click(&self, click: Click, state: MoveState) -> Result<(), ActionError> {
        if state.left() != 1 {
            return Ok(());
        }
        let after = self.position.clicked(click);
        let mut moved = state;
        moved.advance(click);
        self.rules.end_check(self, &after, moved.candidates)?;
        if self.forbidden() != Some(after) {
            return Ok(());
        }
        if self.rules.mechanics().building {
            let own = self.position.of(self.seats[self.turn.mover].colour);
            let eligible = own & !after.occupied();
            if !eligible.is_empty() {
                return Ok(());
            }
        }
        Err(RuleError::Reversal.into())
    }

    fn click(
        &mut self,
        seat: Seat,
        click: Click,
        piece: Option<Piece>,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.check_mover(seat)?;
        self.check_clicking()?;
        let colour = self.seats[self.turn.mover].colour;
        let own = self.position.of(colour);
        let mut state = self.turn.state;
        if let Some(piece) = piece {
            if piece.colour() != colour {
                return Err(RuleError::NotYourPiece(piece).into());
            }
            state.name_piece(&self.position, own, piece)?;
        }
        self.rules.check_click(self, click)?;
        state.check(own, click)?;
        self.check_last_click(click, state)?;

        let before = self.position;
        self.position.click(click);
        state.advance(click);
        if let Some(slot) = self.turn.clicks.get_mut((state.used - 1) as usize) {
            *slot = Some(click);
        }
        self.turn.state = state;
        let rules = self.rules;
        rules.after_click(self, &before, click);
        events.push(Event::Click {
            seat,
            click,
            position: self.position,
        });
        if self.turn.state.allowed > state.allowed {
            // A hop (Lepus) lengthened the move: tell everyone the new number of clicks.
            events.push(self.turn_event());
        }
        let mechanics = self.rules.mechanics();
        if mechanics.building {
            self.turn.eligible = own & !self.position.occupied();
            events.push(Event::Eligible {
                slots: self.turn.eligible,
            });
        }
        if self.resolve(now, events) {
            return Ok(());
        }
        if self.turn.state.left() == 0 && !self.can_build() {
            self.end_turn(events);
        }
        Ok(())
    }

    fn can_build(&self) -> bool {
        self.rules.mechanics().building && !self.turn.eligible.is_empty()
    }

    /// Checks that `seat` may place a piece on `slot` now (moving it from `from` when all 20
    /// are on the board); returns the piece that would go there and whether this is a
    /// placement turn (rather than building).
    pub(crate) fn check_place(
        &self,
        seat: Seat,
        slot: Slot,
        from: Option<Slot>,
    ) -> Result<(Piece, bool), ActionError> {
        self.check_mover(seat)?;
        let colour = self.seats[self.turn.mover].colour;
        if self.position.get(slot).is_some() {
            return Err(ActionError::BadPlace {
                slot,
                why: "is not empty",
            });
        }
        let placement_turn = match self.turn.allowance {
            Allowance::Place(rule) => {
                if !rule.allows(slot) {
                    return Err(ActionError::BadPlace {
                        slot,
                        why: match rule {
                            PlaceRule::TouchingEdge => "does not touch the edge of the board",
                            _ => "is not a slot you may enter on",
                        },
                    });
                }
                true
            }
            _ if self.rules.mechanics().building => {
                if !self.turn.eligible.contains(slot) {
                    return Err(ActionError::BadPlace {
                        slot,
                        why: "is not eligible: build only where your piece just left",
                    });
                }
                false
            }
            _ => return Err(ActionError::Phase("this game does not place pieces now")),
        };
        let on_board = self.position.count(colour);
        let piece = match from {
            None => {
                let number = self
                    .position
                    .next_number(colour)
                    .filter(|_| on_board < PIECES_PER_COLOUR as usize)
                    .ok_or(ActionError::Phase(
                        "all 20 of your pieces are on the board: name one to move (from)",
                    ))?;
                Piece::new(colour, number).expect("1..=20")
            }
            Some(from) => {
                if placement_turn || on_board < PIECES_PER_COLOUR as usize {
                    return Err(ActionError::Phase(
                        "you may move a piece only when all 20 are on the board",
                    ));
                }
                match self.position.get(from) {
                    Some(p) if p.colour() == colour => p,
                    _ => {
                        return Err(ActionError::BadPlace {
                            slot: from,
                            why: "holds none of your pieces",
                        })
                    }
                }
            }
        };
        Ok((piece, placement_turn))
    }

    fn place(
        &mut self,
        seat: Seat,
        slot: Slot,
        from: Option<Slot>,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let (piece, placement_turn) = self.check_place(seat, slot, from)?;
        if let Some(from) = from {
            self.position.take(from);
            self.turn.state.candidates.remove(from);
        }
        self.position.put(slot, piece);
        self.turn.eligible.remove(slot);
        self.turn.entered = true;
        events.push(Event::Place {
            seat,
            slot,
            piece,
            from,
            position: self.position,
        });
        if self.resolve(now, events) {
            return Ok(());
        }
        if placement_turn || (self.turn.state.left() == 0 && self.turn.eligible.is_empty()) {
            self.end_turn(events);
        }
        Ok(())
    }

    pub(crate) fn end_turn(&mut self, events: &mut Vec<Event>) {
        if self.check_goal(true, events) {
            return;
        }
        let mut previous = PreviousMove::new(
            self.seats[self.turn.mover].seat,
            self.turn.round,
            self.turn.before,
            self.position,
            self.turn.entered,
        );
        for &click in self.turn.clicks.iter().flatten() {
            previous.push_click(click);
        }
        self.previous = Some(previous);
        // The next seat still in play; a round begins each time the first mover's turn comes.
        let mut next = self.turn.mover;
        let mut round = self.turn.round;
        for _ in 0..self.seats.len() {
            next = (next + 1) % self.seats.len();
            if next == self.first {
                round += 1;
            }
            if !self.rules.out_of_play(self, self.seats[next].seat) {
                break;
            }
        }
        self.begin_turn(next, round);
        events.push(self.turn_event());
        if self.rules.mechanics().captures {
            // Fences count at the mover's turn, from its start.
            self.capture(events);
        }
    }

    pub(crate) fn begin_turn(&mut self, mover: usize, round: u32) {
        let seat = self.seats[mover].seat;
        let allowance = self.rules.turn_allowance(self, seat, round);
        let colour = self.seats[mover].colour;
        let allowed = match allowance {
            Allowance::Clicks(n) => n,
            _ => 0,
        };
        let mut state = MoveState::new(allowed, self.position.of(colour));
        state.narrows = self.rules.same_piece();
        self.turn = Turn {
            mover,
            round,
            allowance,
            state,
            eligible: SlotSet::EMPTY,
            entered: false,
            before: self.position,
            clicks: [None; MAX_MOVE_CLICKS],
        };
        let rules = self.rules;
        rules.begin_turn(self);
    }
}
