//! A whole turn entered, then sent: `turn B2L C2R` reads each move with the room's game
//! system and asks the server to try them on a copy of the room (`plan`); the board they lead
//! to is put on screen in the room's place, nothing played, until the player types `send` (or
//! `drop`). Sent, the moves go one at a time, each once the room has taken the one before: a
//! refusal stops the rest and says which move and why, and the room is as the server has it.

use super::App;
use crate::systems::{self, Room};
use orion_protocol::{Event as Ev, PlanRefused, Request, Snapshot};

/// A turn being planned or sent.
pub(super) struct Plan {
    /// The room it is for.
    room: String,
    /// The moves as typed, to name them in messages.
    words: Vec<String>,
    /// The requests, in order, with the typed move each came from.
    requests: Vec<(usize, Request)>,
    /// The room's own board while the plan's is on screen.
    live: Option<Box<dyn Room>>,
    /// Whether the server refused one of the moves.
    refused: bool,
    /// Sending: the request in flight.
    sending: Option<usize>,
}

impl App {
    /// `turn MOVE…`: the moves read and sent to the server to try.
    pub(super) fn plan_turn(&mut self, words: Vec<String>) {
        let (Some(room_id), Some(room)) = (self.room_id.clone(), self.room.as_mut()) else {
            return self.error("turn: open the room to play first");
        };
        if self.seat.is_none() {
            return self.error("turn: you do not play in this room");
        }
        let mut requests = Vec::new();
        for (i, word) in words.iter().enumerate() {
            match room.typed(word) {
                Ok(made) => requests.extend(made.into_iter().map(|r| (i, r))),
                Err(e) => return self.error(format!("turn: {word}: {e}")),
            }
        }
        let actions = (requests.iter())
            .filter_map(|(_, r)| serde_json::to_value(r).ok())
            .collect();
        self.put_back_live();
        self.out.push(Request::Plan {
            room: room_id.clone(),
            actions,
        });
        self.plan = Some(Plan {
            room: room_id,
            words,
            requests,
            live: None,
            refused: false,
            sending: None,
        });
        self.info("trying the turn on the server (nothing is played yet)…");
    }

    /// The server's answer to a plan: its board on screen, and what it took.
    pub(super) fn on_planned(
        &mut self,
        room: &str,
        taken: u32,
        refused: Option<PlanRefused>,
        ends_turn: bool,
        snapshot: Box<Snapshot>,
    ) {
        let Some(plan) = self
            .plan
            .as_mut()
            .filter(|p| p.room == room && p.sending.is_none())
        else {
            return;
        };
        let preview = systems::room(&snapshot, self.seat);
        let live = self.room.replace(preview);
        if plan.live.is_none() {
            plan.live = live;
        }
        plan.refused = refused.is_some();
        let text = match refused {
            Some(r) => {
                let at = usize::try_from(r.index).unwrap_or(usize::MAX);
                let word = (plan.requests.get(at))
                    .and_then(|(w, _)| plan.words.get(*w))
                    .map_or("?", String::as_str);
                format!(
                    "plan: move {} ({word}) is refused: {} — the board shows the {taken} before \
                     it; `drop`, then plan again",
                    at + 1,
                    r.message
                )
            }
            None => format!(
                "plan (not played): {taken} moves{} — `send` plays them, `drop` drops them",
                if ends_turn { ", ending your turn" } else { "" }
            ),
        };
        if let Some(r) = self.room.as_mut() {
            r.base_mut().say(text.clone());
        }
        self.info(text);
    }

    /// `send`: the planned moves, the first now and each next once the room took the last.
    pub(super) fn send_plan(&mut self) {
        let Some(plan) = self.plan.as_ref() else {
            return self.error("no turn planned (turn B2L C2R plans one)");
        };
        if plan.refused {
            return self.error("the plan has a move the rules refuse: drop it and plan again");
        }
        if plan.live.is_none() {
            return self.error("the plan is still being tried: wait for its board");
        }
        self.put_back_live();
        let Some(plan) = self.plan.as_mut() else {
            return;
        };
        if let Some((_, first)) = plan.requests.first() {
            self.out.push(first.clone());
            plan.sending = Some(0);
            self.info("sending the turn…");
        }
    }

    /// `drop`: the room's own board back, nothing sent.
    pub(super) fn drop_plan(&mut self) {
        if self.plan.is_none() {
            return self.error("no turn planned");
        }
        self.put_back_live();
        self.plan = None;
        self.info("plan dropped: the board is the room's");
    }

    /// An event of the room on screen, before it is shown: a plan on screen gives way to the
    /// room (which moved on); a plan being sent goes on once its move was taken.
    pub(super) fn plan_sees(&mut self, ev: &Ev<'_>) {
        let Some(plan) = self.plan.as_mut() else {
            return;
        };
        let Some(i) = plan.sending else {
            if plan.live.is_some() {
                self.put_back_live();
                self.plan = None;
                self.info("the room moved on: plan dropped (plan again)");
            }
            return;
        };
        let Some((_, request)) = plan.requests.get(i) else {
            return;
        };
        if ev.kind() != request.kind() {
            return;
        }
        match plan.requests.get(i + 1) {
            Some((_, next)) => {
                self.out.push(next.clone());
                plan.sending = Some(i + 1);
            }
            None => {
                self.plan = None;
                self.info("turn sent");
            }
        }
    }

    /// A refusal while a plan is being sent: which move, and why. True when it was one.
    pub(super) fn plan_refused(&mut self, why: &str) -> bool {
        let Some(plan) = self.plan.take() else {
            return false;
        };
        let Some(i) = plan.sending else {
            self.plan = Some(plan);
            return false;
        };
        let word = (plan.requests.get(i))
            .and_then(|(w, _)| plan.words.get(*w))
            .map_or("?", String::as_str);
        let text = format!(
            "move {} of {} ({word}) was refused: {why} — the moves before it were played, \
             the rest not sent; the board is the room's",
            i + 1,
            plan.requests.len()
        );
        if let Some(r) = self.room.as_mut() {
            r.base_mut().say(format!("! {text}"));
        }
        self.error(text);
        true
    }

    /// Whether the plan's board is on screen in place of the room's.
    pub fn planning(&self) -> bool {
        self.plan.as_ref().is_some_and(|p| p.live.is_some())
    }

    /// A new snapshot of the room: any plan on screen is forgotten (the snapshot is the room).
    pub(super) fn plan_forget(&mut self) {
        if self.plan.as_ref().is_some_and(|p| p.live.is_some()) {
            self.plan = None;
        }
    }

    /// Puts the room's own board back where the plan's was.
    fn put_back_live(&mut self) {
        if let Some(live) = self.plan.as_mut().and_then(|p| p.live.take()) {
            self.room = Some(live);
        }
    }
}
