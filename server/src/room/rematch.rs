//! A rematch: once a game is over, any seat may offer one and the others accept; when every
//! seat has, a new room is made with the same game and options, each player one seat further
//! round the table, and started at once. Computer players accept whatever a person offers:
//! they sit in the new room at their levels, moved one seat on like everyone. A decline, or a player leaving, clears every
//! acceptance. The offers are `rematch` events of the finished room (stored like any event),
//! the last naming the new room; each player also gets the new room's `joined` from it.
//!
//! Bounded: an offer a seat has made already, or a decline with nothing on offer, changes
//! nothing and stores nothing (no answer is sent: the first one's event stands); and a room
//! stores at most [`MAX_REMATCH_EVENTS`] of them (offering and declining by turns), then
//! refuses with `rate_limited`.

use super::{Room, RoomCmd, Status};
use crate::lobby::Queued;
use crate::outbox::Outbox;
use crate::player::Player;
use crate::protocol::{Code, ReplyTo};
use crate::system::Seat;
use orion_protocol::Event;

/// Most `rematch` events one finished room stores: far more than players agreeing ever need,
/// so a player toggling his offer cannot grow the room's log without end.
pub const MAX_REMATCH_EVENTS: u32 = 64;

impl Room {
    /// `player` offers or accepts (`accept`) a rematch, or declines one.
    pub(super) async fn rematch(
        &mut self,
        re: ReplyTo,
        player: Player,
        accept: bool,
        outbox: Outbox,
    ) {
        let refuse = |code, message: String| (code, message);
        let checked = (|| {
            if self.status != Status::Finished {
                return Err(refuse(
                    Code::BadRequest,
                    "a rematch can be offered once the game is over".to_string(),
                ));
            }
            let Some(seat) = self.seat_of(&player.id) else {
                return Err(refuse(
                    Code::NotAPlayer,
                    format!("you hold no seat in room {}", self.id),
                ));
            };
            if let Some(room) = &self.rematch_room {
                return Err(refuse(
                    Code::BadRequest,
                    format!("the rematch has started already, in room {room}"),
                ));
            }
            Ok(seat)
        })();
        let seat = match checked {
            Ok(seat) => seat,
            Err((code, message)) => return self.refuse(&re, &outbox, code, message),
        };
        let unchanged = if accept {
            self.rematch.contains(&seat)
        } else {
            self.rematch.is_empty()
        };
        if unchanged {
            return;
        }
        if self.rematch_events >= MAX_REMATCH_EVENTS {
            return self.refuse(
                &re,
                &outbox,
                Code::RateLimited,
                format!("this room has had {MAX_REMATCH_EVENTS} rematch offers and declines"),
            );
        }
        if accept {
            self.rematch.insert(seat);
        } else {
            self.rematch.clear();
        }
        let everyone = (self.table.seats().iter()).all(|s| match self.seats.get(&s.seat) {
            Some(o) => o.bot.is_some() || self.rematch.contains(&s.seat),
            None => false,
        });
        let mut new_room = None;
        if everyone {
            match self.start_rematch().await {
                Ok(id) => new_room = Some(id),
                Err(message) => {
                    self.rematch.remove(&seat);
                    return self.refuse(&re, &outbox, Code::BadRequest, message);
                }
            }
        }
        self.rematch_room = new_room.clone();
        let ev = Event::Rematch {
            seat: seat.wire(),
            accept,
            agreed: self.rematch_agreed(),
            room: new_room.map(Into::into),
        };
        match self.emit(vec![ev.to_json()], None).await {
            Ok(()) => self.rematch_events += 1,
            Err(e) => self.refuse(&re, &outbox, Code::Server, e.to_string()),
        }
    }

    /// A seat gave up its place in a finished room: any rematch on offer is off.
    pub(super) async fn cancel_rematch(&mut self, seat: Seat) {
        if self.status != Status::Finished || self.rematch.is_empty() || self.rematch_room.is_some()
        {
            return;
        }
        self.rematch.clear();
        let ev = Event::Rematch {
            seat: seat.wire(),
            accept: false,
            agreed: Vec::new(),
            room: None,
        };
        let _ = self.emit(vec![ev.to_json()], None).await;
    }

    /// The seats agreeing, in turn order: computer players agree once a person has.
    fn rematch_agreed(&self) -> Vec<orion_protocol::Seat> {
        let offered = !self.rematch.is_empty();
        let is_bot = |seat| self.seats.get(seat).is_some_and(|o| o.bot.is_some());
        (self.table.seats().iter())
            .filter(|s| self.rematch.contains(&s.seat) || (offered && is_bot(&s.seat)))
            .map(|s| s.seat.wire())
            .collect()
    }

    /// Makes the rematch's room: same game and options, each player moved one seat on in
    /// turn order, started as soon as all are seated. Every person must be connected (the new
    /// room seats them through their connections); computer players follow at their levels.
    async fn start_rematch(&mut self) -> Result<String, String> {
        let order: Vec<Seat> = self.table.seats().iter().map(|s| s.seat).collect();
        let mut first = Vec::with_capacity(order.len());
        let mut bots = Vec::new();
        for (i, seat) in order.iter().enumerate() {
            let Some(o) = self.seats.get(seat) else {
                return Err(format!("seat {seat} is empty"));
            };
            let next = order[(i + 1) % order.len()];
            if let Some(level) = o.bot {
                bots.push((next, level));
                continue;
            }
            let Some(conn) = &o.conn else {
                return Err(format!(
                    "{} is away: the rematch starts when every player is here",
                    o.player.name
                ));
            };
            let queued = Queued {
                player: o.player.clone(),
                outbox: conn.clone(),
                // Each `joined` of the new room comes unasked (the request's answer is the
                // `rematch` event naming the room).
                re: None,
            };
            first.push(super::FirstSeat {
                queued,
                seat: Some(next.0.to_string()),
                ready: false,
            });
        }
        let (system, game) = self
            .shared
            .find_game(self.game_id)
            .ok_or_else(|| format!("no game {}", self.game_id))?;
        // The new room's place among the games with computer players, taken before it is
        // made (past the cap there is no rematch with them, and no room made for nothing).
        let bot_game = match bots.is_empty() {
            true => None,
            false => Some(self.shared.bots.admit().ok_or(
                "the server plays all the games with computer players it can: try again later",
            )?),
        };
        let shared = self.shared.clone();
        let (options, private) = (self.options.clone(), self.private);
        let handle = super::create(&shared, &system, &game, options, private, true, first)
            .await
            .map_err(|r| r.message)?;
        if let Some(game) = bot_game {
            // The room seats its people first (its task takes them before any command).
            let cmd = RoomCmd::SeatBots { bots, game };
            if handle.tx.send(cmd).await.is_err() {
                return Err("the rematch's room closed before its computer players sat".into());
            }
        }
        Ok(handle.id.to_string())
    }
}
