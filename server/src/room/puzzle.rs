//! A puzzle room's own requests: `undo` (the solver's last click that stands, taken back
//! through the table and stored as an action, so a replay and a resumed client see the same
//! position) and `hint` (the next click of an optimal line, found on the blocking pool within
//! [`HINT_TIME`]: the room goes on taking commands and broadcasting meanwhile, and the answer
//! is stored as a `hint` event only if the position is still the one it was asked at).

use super::{Room, Status};
use crate::clock::{Millis, Sleep};
use crate::outbox::Outbox;
use crate::player::Player;
use crate::protocol::{Code, Refusal, ReplyTo};
use crate::system::{Hint, Seat, UNDO};
use orion_protocol::{Event, GameResult};
use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::oneshot;

/// How long a room waits for a hint before telling the solver there is none (the search
/// itself stops within its own budget, `HINT_NODES`/`HINT_STATES`, about as long).
pub const HINT_TIME: Millis = 10_000;

/// Hints searched at once on the whole server (each holds one blocking thread and up to
/// ~100 MB); one more is refused with `full` until one ends.
pub const HINT_SOLVERS: usize = 2;

/// Hint searches running now.
static SOLVING: AtomicUsize = AtomicUsize::new(0);

/// One search's place among [`HINT_SOLVERS`], given back when it ends.
struct Slot;

impl Slot {
    fn take() -> Option<Slot> {
        let before = SOLVING.fetch_add(1, Ordering::AcqRel);
        if before >= HINT_SOLVERS {
            SOLVING.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        Some(Slot)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        SOLVING.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A hint being searched for.
pub(super) struct PendingHint {
    /// The asker's request id.
    re: ReplyTo,
    /// The asker's connection, for the refusal if there is no hint.
    outbox: Outbox,
    /// The solver's seat.
    seat: Seat,
    /// The position it was asked at: a hint for another one is not stored.
    position: String,
    /// The search's answer.
    rx: oneshot::Receiver<Result<Hint, String>>,
    /// When the room stops waiting.
    deadline: Sleep,
}

/// How a hint's wait ended.
pub(super) enum HintDone {
    /// The search answered (or stopped without answering: `Err`).
    Found(Result<Hint, String>),
    /// [`HINT_TIME`] passed first.
    Late,
}

/// Waits for the room's pending hint, if any (never ends while there is none).
pub(super) async fn hint_done(pending: &mut Option<PendingHint>) -> HintDone {
    let Some(p) = pending else {
        return std::future::pending().await;
    };
    tokio::select! {
        found = &mut p.rx => HintDone::Found(found.unwrap_or_else(|_| Err("the hint's search stopped".into()))),
        _ = &mut p.deadline => HintDone::Late,
    }
}

impl Room {
    /// The solver of a puzzle room now playing, or why `player` may not ask `what`.
    fn solver(&self, player: &Player, what: &str) -> Result<Seat, Refusal> {
        if !self.solo() {
            return Err(Refusal::new(
                Code::Illegal,
                format!(
                    "{what} is for puzzles: {} is a game, where every click stands",
                    self.game_id
                ),
            ));
        }
        let Some(seat) = self.seat_of(&player.id) else {
            return Err(Refusal::new(
                Code::NotAPlayer,
                format!("only the puzzle's solver may ask for {what}: you are watching"),
            ));
        };
        match self.status {
            Status::Playing => Ok(seat),
            Status::Waiting => Err(Refusal::new(Code::Illegal, "the puzzle has not started")),
            Status::Finished | Status::Closed => Err(Refusal::new(
                Code::Illegal,
                "the puzzle is over: its clicks stand",
            )),
        }
    }

    /// `undo`: the solver's last click that stands is taken back (stored as an action, so
    /// the undone click no longer counts toward the clicks a solve is scored by).
    pub(super) async fn undo(&mut self, re: &ReplyTo, player: &Player, outbox: &Outbox) {
        let seat = match self.solver(player, "undo") {
            Ok(seat) => seat,
            Err(refusal) => return outbox.refuse(re, &refusal),
        };
        let now = self.shared.clock.now_ms();
        self.step(seat, UNDO, now, Some((re, outbox))).await;
    }

    /// `hint`: starts the search off the room's task; its answer comes back through
    /// [`hint_done`] to [`Room::hint_found`].
    pub(super) fn hint(&mut self, re: &ReplyTo, player: &Player, outbox: &Outbox) {
        let seat = match self.solver(player, "a hint") {
            Ok(seat) => seat,
            Err(refusal) => return outbox.refuse(re, &refusal),
        };
        if self.hint.is_some() {
            return outbox.refuse(
                re,
                &Refusal::new(Code::Illegal, "a hint is being found already: wait for it"),
            );
        }
        let Some(job) = self.table.hint_job() else {
            return outbox.refuse(
                re,
                &Refusal::new(Code::Illegal, format!("{} has no hints", self.game_id)),
            );
        };
        let Some(slot) = Slot::take() else {
            return outbox.refuse(
                re,
                &Refusal::new(
                    Code::Full,
                    "the server is finding other players' hints: ask again in a few seconds",
                ),
            );
        };
        let (tx, rx) = oneshot::channel();
        // A blocking thread, not a task: the search is seconds of one core.
        tokio::task::spawn_blocking(move || {
            let _slot = slot;
            let _ = tx.send(job());
        });
        let now = self.shared.clock.now_ms();
        self.hint = Some(PendingHint {
            re: re.clone(),
            outbox: outbox.clone(),
            seat,
            position: self.table.position(),
            rx,
            deadline: self.shared.clock.sleep_until(now.saturating_add(HINT_TIME)),
        });
    }

    /// The pending hint's search ended (or took too long): the hint is stored and sent as a
    /// `hint` event if the puzzle is still where it was asked; else the asker hears why not.
    pub(super) async fn hint_found(&mut self, done: HintDone) {
        let Some(p) = self.hint.take() else { return };
        let refuse = |code, message: String| p.outbox.refuse(&p.re, &Refusal::new(code, message));
        let hint = match done {
            HintDone::Late => {
                return refuse(
                    Code::Server,
                    format!(
                        "no hint within {} s from this position: try again nearer the finish",
                        HINT_TIME / 1000
                    ),
                )
            }
            HintDone::Found(Err(why)) => return refuse(Code::Illegal, why),
            HintDone::Found(Ok(hint)) => hint,
        };
        if self.status != Status::Playing || self.table.position() != p.position {
            return refuse(
                Code::Illegal,
                "the position changed while the hint was found: ask again".to_string(),
            );
        }
        let hints = self.hints_used + 1;
        let ev = Event::Hint {
            seat: p.seat.wire(),
            click: Cow::Borrowed(&hint.click),
            left: hint.left,
            hints,
        };
        if let Err(e) = self.emit(vec![ev.to_json()], None).await {
            return refuse(Code::Server, e.to_string());
        }
        self.hints_used = hints;
    }

    /// A puzzle solved with hints says how many in its result.
    pub(super) fn mark_hints(&self, result: &mut GameResult) {
        if self.hints_used > 0 {
            result.orion.hints = Some(self.hints_used);
        }
    }
}
