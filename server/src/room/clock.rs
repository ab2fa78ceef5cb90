//! Time in a room: the turn clock and time banks (paused while every seat is away), and the
//! seat holds of players who went away.

use super::{Room, Status};
use crate::clock::Millis;
use crate::system::Seat;
use orion_protocol::OverReason;
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
}

impl Room {
    /// Stops the turn clock while no seated player is connected (nobody can move, and each
    /// expiry would store events for nobody), and starts it again, with what was left, when
    /// one comes back.
    pub(super) fn pause_clock_while_away(&mut self, now: Millis) {
        if self.status != Status::Playing {
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

    /// Starts timing a new turn when the mover or round changed; settles a time bank.
    pub(super) fn arm_clock(&mut self, now: Millis) {
        if self.status != Status::Playing {
            self.clock.deadline = None;
            return;
        }
        let turn = (self.table.mover(), self.table.round());
        if self.clock.turn == Some(turn) {
            return;
        }
        if let (Some((seat, _)), Some(since)) = (self.clock.turn, self.clock.overdraft_since) {
            if let Some(bank) = self.clock.banks.get_mut(&seat) {
                *bank = bank.saturating_sub(now.saturating_sub(since));
            }
        }
        self.clock.turn = Some(turn);
        self.clock.overdraft_since = None;
        self.clock.deadline = self.options.turn_clock.map(|ms| now.saturating_add(ms));
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
