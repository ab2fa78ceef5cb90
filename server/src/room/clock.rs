//! Time in a room: the turn clock and time banks (paused while every seat is away), a
//! correspondence room's days per move (never paused: being away is normal there), and the
//! seat holds of players who went away.

use super::options::DAY;
use super::{Room, Status};
use crate::clock::Millis;
use crate::system::Seat;
use orion_protocol::{Event, OverReason};
use std::collections::BTreeMap;

/// The turn clock's state.
#[derive(Debug, Default)]
pub(super) struct TurnClock {
    /// The turn it is timing: mover and round.
    pub(super) turn: Option<(Seat, u32)>,
    /// When the current allowance runs out.
    pub(super) deadline: Option<Millis>,
    /// Since when the mover is drawing on his time bank.
    pub(super) overdraft_since: Option<Millis>,
    /// Time bank left per seat.
    pub(super) banks: BTreeMap<Seat, Millis>,
    /// While every seat is away the clock stands still: what was left of the allowance, and
    /// whether it was the mover's time bank.
    pub(super) paused: Option<(Millis, bool)>,
    /// When the turn being timed began (its mover's last move, or the start).
    pub(super) since: Option<Millis>,
    /// A correspondence room: when the mover is warned that his deadline is near (`None`:
    /// warned already, or a live room).
    pub(super) warn_at: Option<Millis>,
}

/// How long before a correspondence deadline its mover is warned: a day, or half the turn's
/// time where a turn has only one.
fn warning_before(allowance: Millis) -> Millis {
    DAY.min(allowance / 2)
}

impl Room {
    /// Stops the turn clock while no seated player is connected (nobody can move, and each
    /// expiry would store events for nobody), and starts it again, with what was left, when
    /// one comes back.
    pub(super) fn pause_clock_while_away(&mut self, now: Millis) {
        if self.status != Status::Playing || self.options.days_per_move.is_some() {
            return;
        }
        let anyone = self.seats.values().any(|o| o.conn.is_some());
        match (anyone, self.clock.paused) {
            (false, None) => {
                let Some(deadline) = self.clock.deadline.take() else {
                    return;
                };
                let overdraft = match (self.clock.turn, self.clock.overdraft_since.take()) {
                    (Some((seat, _)), Some(since)) => {
                        if let Some(bank) = self.clock.banks.get_mut(&seat) {
                            *bank = bank.saturating_sub(now.saturating_sub(since));
                        }
                        true
                    }
                    _ => false,
                };
                self.clock.paused = Some((deadline.saturating_sub(now), overdraft));
            }
            (true, Some((left, overdraft))) => {
                self.clock.paused = None;
                self.clock.deadline = Some(now.saturating_add(left));
                if overdraft {
                    self.clock.overdraft_since = Some(now);
                }
            }
            _ => {}
        }
    }

    pub(super) async fn on_timer(&mut self) {
        let now = self.shared.clock.now_ms();
        let expired: Vec<Seat> = self
            .seats
            .iter()
            .filter(|(_, o)| o.hold_until.is_some_and(|t| t <= now))
            .map(|(s, _)| *s)
            .collect();
        for seat in expired {
            self.vacate(seat, OverReason::Away).await;
        }
        self.bot_timer(now).await;
        if self.clock.warn_at.is_some_and(|t| t <= now) && self.status == Status::Playing {
            self.clock.warn_at = None;
            self.tell_deadline(true).await;
            self.tell_deadline_near();
        }
        // A late wake-up may find both the turn clock and the bank run out.
        for _ in 0..2 {
            match self.clock.deadline {
                Some(at) if at <= now && self.status == Status::Playing => {
                    self.clock_expired(at).await
                }
                _ => break,
            }
        }
        self.publish();
    }

    /// Starts timing a new turn when the mover or round changed (saying whether it did);
    /// settles a time bank.
    pub(super) fn arm_clock(&mut self, now: Millis) -> bool {
        if self.status != Status::Playing {
            self.clock.deadline = None;
            self.clock.warn_at = None;
            return false;
        }
        let turn = (self.table.mover(), self.table.round());
        if self.clock.turn == Some(turn) {
            return false;
        }
        if let (Some((seat, _)), Some(since)) = (self.clock.turn, self.clock.overdraft_since) {
            if let Some(bank) = self.clock.banks.get_mut(&seat) {
                *bank = bank.saturating_sub(now.saturating_sub(since));
            }
        }
        self.clock.turn = Some(turn);
        self.clock.since = Some(now);
        self.clock.overdraft_since = None;
        if let Some(allowance) = self.options.days() {
            let deadline = now.saturating_add(allowance);
            self.clock.deadline = Some(deadline);
            self.clock.warn_at = Some(deadline - warning_before(allowance));
        } else {
            self.clock.deadline = self.options.turn_clock.map(|ms| now.saturating_add(ms));
        }
        true
    }

    /// A correspondence room tells everyone the mover's deadline: as his turn begins, and
    /// (`warning`) once less than a day of it is left. Stored like any event, so a room
    /// restored after a restart keeps the deadline and does not warn twice.
    pub(super) async fn tell_deadline(&mut self, warning: bool) {
        let (Some(_), Some((seat, round)), Some(at)) = (
            self.options.days_per_move,
            self.clock.turn,
            self.clock.deadline,
        ) else {
            return;
        };
        let ev = Event::Deadline {
            seat: seat.wire(),
            round,
            at,
            warning,
        };
        if let Err(e) = self.emit(vec![ev.to_json()], None).await {
            tracing::warn!(room = %self.id, "deadline not stored: {e}");
        }
    }

    /// A stored `deadline` event, replayed as a room is restored: the turn it times, and
    /// whether its mover was warned already.
    pub(super) fn restore_deadline(&mut self, seat: Seat, round: u32, at: Millis, warned: bool) {
        let Some(allowance) = self.options.days() else {
            return;
        };
        self.clock.turn = Some((seat, round));
        self.clock.since = Some(at.saturating_sub(allowance));
        self.clock.deadline = Some(at);
        self.clock.warn_at = (!warned).then(|| at.saturating_sub(warning_before(allowance)));
    }

    /// The turn clock (or the bank) ran out at `now`, the deadline itself.
    pub(super) async fn clock_expired(&mut self, now: Millis) {
        let seat = self.table.mover();
        if self.not_yet_counted() && !self.has_moved(seat) {
            // A rated game whose mover let his clock run out before his first move.
            self.clock.deadline = None;
            self.abort().await;
            return;
        }
        if self.options.days_per_move.is_some() {
            // Days per move have no bank: out of days is out of the game.
            self.clock.deadline = None;
            self.clock.warn_at = None;
            self.forfeit(seat).await;
            return;
        }
        if self.options.time_bank.is_some() {
            if self.clock.overdraft_since.is_none() {
                let left = self.clock.banks.get(&seat).copied().unwrap_or(0);
                if left > 0 {
                    self.clock.overdraft_since = Some(now);
                    self.clock.deadline = Some(now.saturating_add(left));
                    return;
                }
            }
            self.clock.banks.insert(seat, 0);
            self.forfeit(seat).await;
            return;
        }
        self.clock.deadline = None;
        let timeout = self.table.timeout_action();
        self.step(seat, timeout, now, None).await;
    }

    /// `seat` ran out of time: the other side wins (no winner with several other sides).
    pub(super) async fn forfeit(&mut self, seat: Seat) {
        let result = self.table.forfeit(seat);
        let ev = self
            .over_event(result.clone(), Some((OverReason::Time, Some(seat))))
            .await
            .to_json();
        let now = self.shared.clock.now_ms();
        self.archive(&result, now).await;
        self.result = Some(result);
        if self.emit(vec![ev], None).await.is_ok() {
            self.finish().await;
        }
    }
}
