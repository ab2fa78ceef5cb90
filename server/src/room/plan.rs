//! A turn planned before it is sent (`plan`): the asker's actions applied in order to a copy
//! of the room's table, answering where they lead or the first the rules refuse. Nothing is
//! stored, sent to anyone else or changed: the clients show it as a preview ("plan the turn"
//! on the page, `turn` in the terminal) and then send the actions one by one.
//!
//! Only the planner's own moves are tried (`click`, `place`, `move`): a roll, a claim or a
//! hidden choice would draw on the room's seed or its secrets, and a plan that ends the turn
//! shows the board, not the next turn's allowance, so a plan learns nothing the game hides.

use super::{Room, Status};
use crate::outbox::Outbox;
use crate::player::Player;
use crate::protocol::{self, Code, Refusal, ReplyTo};
use orion_protocol::{Message, PlanRefused, Request};
use serde_json::Value;

/// Most actions in one plan: a turn is a handful of clicks (ORION's die allows six); the
/// bound keeps a plan's work on the room's task small. More: `bad_request` naming it.
pub const MAX_PLAN: usize = 32;

/// The requests a plan may hold.
const PLANNABLE: [&str; 3] = ["click", "place", "move"];

impl Room {
    pub(super) fn plan(
        &mut self,
        re: &ReplyTo,
        player: &Player,
        actions: &[Value],
        outbox: &Outbox,
    ) {
        let Some(seat) = self.seat_of(&player.id) else {
            return self.refuse(
                re,
                outbox,
                Code::NotAPlayer,
                format!(
                    "you hold no seat in room {}: only its players plan a turn",
                    self.id
                ),
            );
        };
        if self.status != Status::Playing {
            return self.refuse(re, outbox, Code::Illegal, "the game is not being played");
        }
        // No action: the room as it is (what a page puts back when its plan is dropped).
        if actions.len() > MAX_PLAN {
            return self.refuse(
                re,
                outbox,
                Code::BadRequest,
                format!(
                    "a plan holds at most {MAX_PLAN} actions, not {}",
                    actions.len()
                ),
            );
        }
        let now = self.shared.clock.now_ms();
        let before = self.table.turn();
        let mut copy = self.table.clone_table();
        let mut taken = 0u32;
        let mut refused = None;
        for (index, action) in actions.iter().enumerate() {
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            let tried = self.planned_action(action).and_then(|text| {
                if copy.mover() != seat {
                    return Err(Refusal::new(Code::NotYourTurn, "it is not your turn"));
                }
                copy.apply(seat, &text, now)
            });
            match tried {
                Ok(_) => taken += 1,
                Err(why) => {
                    refused = Some(PlanRefused {
                        index,
                        code: why.code,
                        message: why.message.clone(),
                    });
                    break;
                }
            }
            if copy.result().is_some() {
                break;
            }
        }
        // The snapshot is built from the copy; the room's own table is put back at once
        // (nothing awaits in between: no other command can see the copy).
        let own = std::mem::replace(&mut self.table, copy);
        let ends_turn = self.table.mover() != seat || self.table.turn().round != before.round;
        let playing = (!ends_turn && self.table.result().is_none()).then_some(seat);
        let hints = (self.table.hints(playing, now).into_iter())
            .map(|(name, list)| (name.to_string(), list))
            .collect();
        let mut snapshot = self.snapshot_of(Some(seat));
        self.table = own;
        if ends_turn {
            snapshot.turn = before;
        }
        let message = Message::Planned {
            room: self.id.to_string(),
            seq: self.seq,
            taken,
            refused,
            ends_turn,
            snapshot: Box::new(snapshot),
            hints,
        };
        outbox.send(protocol::reply(re, message));
    }

    /// The action text of one planned request, refused in words when it is not a move of
    /// the planner's own or not one of this game's.
    fn planned_action(&self, action: &Value) -> Result<String, Refusal> {
        let kind = action.get("t").and_then(Value::as_str).unwrap_or("");
        if !PLANNABLE.contains(&kind) {
            return Err(Refusal::new(
                Code::BadRequest,
                format!(
                    "a plan holds moves ({}), not {}",
                    PLANNABLE.join(", "),
                    kind.chars().take(16).collect::<String>()
                ),
            ));
        }
        let mut action = action.clone();
        if let Some(object) = action.as_object_mut() {
            object.insert("room".into(), Value::String(self.id.to_string()));
        }
        let request: Request = orion_protocol::from_value(&action)
            .map_err(|e| Refusal::new(Code::BadRequest, e.message))?;
        match self.system.action(&request) {
            Some(result) => result,
            None => Err(Refusal::new(
                Code::BadRequest,
                format!("{kind} is not a move in {}", self.game_id),
            )),
        }
    }
}
