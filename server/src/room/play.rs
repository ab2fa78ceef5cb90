//! Game actions: the room's game system takes or refuses each; what it caused is stored and
//! then sent, and the game's end is written with the room's seed revealed.

use super::{Room, Status};
use crate::clock::Millis;
use crate::outbox::Outbox;
use crate::player::Player;
use crate::protocol::{Code, ReplyTo};
use crate::store::ActionRecord;
use crate::system::Seat;
use orion_protocol::{Event, GameResult, OverReason, Request, Seed};

impl Room {
    pub(super) async fn act(
        &mut self,
        re: ReplyTo,
        player: Player,
        request: Request,
        outbox: Outbox,
    ) {
        match request {
            Request::Hints { .. } => return self.hints(&re, &player, &outbox),
            Request::AddBot { level, seat, .. } => {
                return self.add_bot(&re, &player, level, seat, &outbox).await
            }
            Request::RemoveBot { seat, .. } => {
                return self.remove_bot(&re, &player, seat, &outbox).await
            }
            Request::Undo { .. } => return self.undo(&re, &player, &outbox).await,
            Request::Hint { .. } => return self.hint(&re, &player, &outbox),
            Request::Unspectate { .. } => return self.unspectate(&re, &outbox),
            Request::Plan { actions, .. } => return self.plan(&re, &player, &actions, &outbox),
            _ => {}
        }
        let action = match self.system.action(&request) {
            Some(Ok(action)) => action,
            Some(Err(refusal)) => return outbox.refuse(&re, &refusal),
            None => {
                return self.refuse(
                    &re,
                    &outbox,
                    Code::BadRequest,
                    format!("{} is not a move in {}", request.kind(), self.game_id),
                )
            }
        };
        let Some(seat) = self.seat_of(&player.id) else {
            self.refuse(
                &re,
                &outbox,
                Code::NotAPlayer,
                format!(
                    "you hold no seat in room {}: spectators cannot move",
                    self.id
                ),
            );
            return;
        };
        match self.status {
            Status::Waiting => {
                self.refuse(
                    &re,
                    &outbox,
                    Code::Illegal,
                    "the game has not started: every seat must be filled and ready",
                );
                return;
            }
            Status::Finished | Status::Closed => {
                self.refuse(&re, &outbox, Code::Illegal, "the game is over");
                return;
            }
            Status::Playing => {}
        }
        let now = self.shared.clock.now_ms();
        if self.step(seat, &action, now, Some((&re, &outbox))).await == Some(true) {
            self.secret_owners.insert(seat, player.id);
        }
    }

    /// Steps the game and publishes what it caused; a refusal goes to `sender` alone. Once
    /// the action is taken and stored: whether it made a hidden choice for its seat.
    pub(super) async fn step(
        &mut self,
        seat: Seat,
        action: &str,
        now: Millis,
        sender: Option<(&ReplyTo, &Outbox)>,
    ) -> Option<bool> {
        let before = self.table.clone_table();
        let mover = self.table.turn().seat;
        let applied = match self.table.apply(seat, action, now) {
            Ok(applied) => applied,
            Err(refusal) => {
                if let Some((re, outbox)) = sender {
                    outbox.refuse(re, &refusal);
                }
                return None;
            }
        };
        // A player's own action (not his clock's) is a move for the rated game's count.
        let first_move = sender.is_some() && !self.has_moved(seat);
        if sender.is_some() {
            self.note_moved(seat);
        }
        let mut evs = applied.events;
        if let Some(result) = &applied.over {
            evs.push(self.over_event(result.clone(), None).await.to_json());
            // Filed before anyone hears of the end, so a player's `games` lists it at once.
            self.archive(result, now).await;
        }
        let record = ActionRecord {
            seat: seat.0.to_string(),
            action: action.to_string(),
            at: now,
        };
        if let Err(e) = self.emit(evs, Some(record)).await {
            self.table = before;
            if first_move {
                self.forget_moved(seat);
            }
            if let Some((re, outbox)) = sender {
                self.refuse(re, outbox, Code::Server, e.to_string());
            }
            return None;
        }
        if applied.over.is_some() {
            self.finish().await;
        } else {
            if self.arm_clock(now) {
                self.tell_deadline(false).await;
            }
            self.tell_away_mover(mover);
        }
        Some(applied.hidden)
    }

    /// An `over` event with `result` (and, when the room decided it, why and whose time
    /// ran out), revealing the room's seed and the salt of its commitment.
    /// A rated game's new ratings are stored here (once) and carried in it.
    pub(super) async fn over_event(
        &mut self,
        result: GameResult,
        decided: Option<(OverReason, Option<Seat>)>,
    ) -> Event<'_> {
        let mut result = result;
        self.mark_hints(&mut result);
        let ratings = self.settle(&result, decided).await;
        Event::Over {
            ratings,
            result,
            reason: decided.map(|(why, _)| why),
            seat: decided.and_then(|(_, seat)| seat).map(Seat::wire),
            seed: self.salt.as_ref().map(|_| Seed(self.table.seed())),
            salt: self.salt.as_deref().map(Into::into),
            // Only a game its rules ended has a winning chain to show.
            chain: decided
                .is_none()
                .then(|| self.table.winning_chain())
                .flatten(),
        }
    }
}
