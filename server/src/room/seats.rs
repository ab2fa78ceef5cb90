//! Who is in a room: taking, holding and giving up seats, watching, coming back, chat, and
//! the start once every seat is filled and ready.

use super::lifecycle::seed_commitment;
use super::{Occupant, CORRESPONDENCE_HOLD, MAX_RESUME, SEEK_HOLD, WAITING_HOLD};
use super::{Room, Status};
use crate::clock::Millis;
use crate::outbox::Outbox;
use crate::player::{Player, PlayerId};
use crate::protocol::{self, Code, ReplyTo};
use crate::system::Seat;
use orion_protocol::{Event, Message, OverReason};

impl Room {
    pub(super) async fn join(
        &mut self,
        re: ReplyTo,
        player: Player,
        want: Option<String>,
        outbox: Outbox,
        ready: bool,
    ) -> bool {
        if let Some(seat) = self.seat_of(&player.id) {
            self.attach(seat, outbox.clone());
            self.reply_joined(&re, seat, &outbox);
            return true;
        }
        if self.status == Status::Finished {
            self.refuse(&re, &outbox, Code::Illegal, "the game is over");
            return false;
        }
        if self.status == Status::Playing {
            // A seat given up in play was resigned with (`vacate`): nobody takes it over, and
            // whoever opens a game in progress watches it.
            self.refuse(
                &re,
                &outbox,
                Code::Full,
                "the game is in progress: its seats are taken (spectate it to watch)",
            );
            return false;
        }
        if self.options.days_per_move.is_some() {
            // A correspondence seat is kept for days and its player told when it is his turn:
            // it belongs to an account.
            match self.account_rating(&player.id).await {
                Ok(Some(_)) => {}
                Ok(None) => {
                    self.refuse(
                        &re,
                        &outbox,
                        Code::BadRequest,
                        "correspondence games are for claimed names: a seat is kept for days \
                         and its player told when it is his turn (claim yours with `register`)",
                    );
                    return false;
                }
                Err(e) => {
                    self.refuse(&re, &outbox, Code::Server, e.to_string());
                    return false;
                }
            }
        }
        if self.options.rated == Some(true) {
            // Guests are never rated: a room made rated seats claimed names only (the
            // creator's seat too, so a guest's `create` with `rated: true` is refused).
            match self.account_rating(&player.id).await {
                Ok(Some(_)) => {}
                Ok(None) => {
                    self.refuse(
                        &re,
                        &outbox,
                        Code::BadRequest,
                        "this room is rated: only claimed names play rated games (claim \
                         yours with `register`, or play a room that is not rated)",
                    );
                    return false;
                }
                Err(e) => {
                    self.refuse(&re, &outbox, Code::Server, e.to_string());
                    return false;
                }
            }
        }
        let all: Vec<Seat> = self.table.seats().iter().map(|s| s.seat).collect();
        let free: Vec<Seat> = all
            .iter()
            .copied()
            .filter(|s| !self.seats.contains_key(s))
            .collect();
        let want = want.map(|w| self.seat_named(&w).ok_or(w));
        let seat = match want {
            Some(Err(w)) => {
                let names: Vec<String> = all.iter().map(|s| s.to_string()).collect();
                self.refuse(
                    &re,
                    &outbox,
                    Code::BadRequest,
                    format!(
                        "seat {} does not play in this game (seats: {})",
                        w.chars().take(8).collect::<String>(),
                        names.join(", ")
                    ),
                );
                return false;
            }
            Some(Ok(w)) if !free.contains(&w) => {
                self.refuse(&re, &outbox, Code::Full, format!("seat {w} is taken"));
                return false;
            }
            Some(Ok(w)) => w,
            None => match free.first() {
                Some(s) => *s,
                None => {
                    self.refuse(&re, &outbox, Code::Full, "every seat is taken");
                    return false;
                }
            },
        };
        if !self.shared.lobby.take_seat(&player.id, &self.id) {
            let bound = crate::lobby::seat_bound_refusal(crate::lobby::is_correspondence(&self.id));
            outbox.refuse(&re, &bound);
            return false;
        }
        let rating = self.rating_of(&player.id).await;
        let ev = Event::Joined {
            seat: seat.wire(),
            player: (*player.id).into(),
            name: (*player.name).into(),
            rating,
            bot: None,
        };
        let mut evs = vec![ev.to_json()];
        if ready {
            evs.push(Event::Ready { seat: seat.wire() }.to_json());
        }
        if let Err(e) = self.emit(evs, None).await {
            self.shared.lobby.free_seat(&player.id, &self.id);
            self.refuse(&re, &outbox, Code::Server, e.to_string());
            return false;
        }
        let conn = (!outbox.is_closed()).then(|| outbox.clone());
        let hold_until = conn
            .is_none()
            .then(|| self.shared.clock.now_ms().saturating_add(self.hold()));
        self.seats.insert(
            seat,
            Occupant {
                player,
                conn,
                ready,
                hold_until,
                bot: None,
            },
        );
        if let Some(rating) = rating {
            self.seat_ratings.insert(seat, rating);
        }
        self.reply_joined(&re, seat, &outbox);
        true
    }

    pub(super) fn reply_joined(&self, re: &ReplyTo, seat: Seat, outbox: &Outbox) {
        let joined = Message::Joined {
            room: self.id.to_string(),
            seat: seat.wire(),
            code: self.code.as_deref().map(str::to_string),
        };
        outbox.send(protocol::reply(re, joined));
        outbox.send(self.snapshot(&None, Some(seat)));
    }

    pub(super) fn attach(&mut self, seat: Seat, outbox: Outbox) {
        self.spectators.remove(&outbox.id);
        if let Some(o) = self.seats.get_mut(&seat) {
            o.conn = Some(outbox);
            o.hold_until = None;
        }
        self.pause_clock_while_away(self.shared.clock.now_ms());
    }

    /// How long the seat of a player who went away is held: the room's `seat_hold`, but at
    /// most [`WAITING_HOLD`] before the game starts.
    pub(super) fn hold(&self) -> Millis {
        if self.options.days_per_move.is_some() {
            // Being away is normal in a correspondence room: only the deadline ends a game.
            return match self.status {
                Status::Waiting => SEEK_HOLD,
                _ => CORRESPONDENCE_HOLD,
            };
        }
        match self.status {
            Status::Waiting => self.options.seat_hold.min(WAITING_HOLD),
            _ => self.options.seat_hold,
        }
    }

    pub(super) fn spectate(&mut self, re: ReplyTo, player: PlayerId, outbox: Outbox) -> bool {
        if !self.add_spectator(&re, player, &outbox) {
            return false;
        }
        outbox.send(self.snapshot(&re, None));
        true
    }

    /// Makes `outbox` a watcher, unless the room has all it can take.
    pub(super) fn add_spectator(
        &mut self,
        re: &ReplyTo,
        player: PlayerId,
        outbox: &Outbox,
    ) -> bool {
        let most = self.shared.max_spectators;
        if self.spectators.len() >= most {
            self.refuse(
                re,
                outbox,
                Code::Full,
                "this room has all the spectators it can take",
            );
            return false;
        }
        if self.watched_by.len() >= 2 * most {
            // Forget old watchers rather than grow: they can still `spectate` again.
            self.watched_by.clear();
        }
        self.watched_by.insert(player);
        self.spectators.insert(outbox.id, outbox.clone());
        true
    }

    pub(super) async fn leave(&mut self, re: ReplyTo, player: Player, outbox: Outbox) {
        let was_watching = self.spectators.remove(&outbox.id).is_some();
        let seat = self.seat_of(&player.id);
        if seat.is_none() && !was_watching {
            self.refuse(
                &re,
                &outbox,
                Code::NotAPlayer,
                format!("you are not in room {}", self.id),
            );
            return;
        }
        if let Some(seat) = seat {
            self.vacate(seat, OverReason::Left).await;
        }
        let left = Message::Left {
            room: self.id.to_string(),
        };
        outbox.send(protocol::reply(&re, left));
    }

    /// Gives up a seat (a `leave`, or a hold run out: `why` says which): a `left` event. In a
    /// game in progress this resigns (`standing.rs`): a rated game left before every player
    /// moved is aborted; any other ends at once, the leaver's side losing. Before the start the
    /// seat is simply free again; after the end, the seat is only given up.
    pub(super) async fn vacate(&mut self, seat: Seat, why: OverReason) {
        let Some(o) = self.seats.get(&seat) else {
            return;
        };
        let player = o.player.id.clone();
        self.note_left(seat);
        self.seat_ratings.remove(&seat);
        let left = Event::Left { seat: seat.wire() };
        let _ = self.emit(vec![left.to_json()], None).await;
        if self.not_yet_counted() {
            // A rated game left before every player moved: nobody played it.
            self.seats.remove(&seat);
            self.abort().await;
        } else if self.status == Status::Playing {
            // Resigned: decided while the leaver still sits, so the game is filed under him.
            self.resign(seat, why).await;
            self.seats.remove(&seat);
        } else {
            self.seats.remove(&seat);
        }
        self.shared.lobby.free_seat(&player, &self.id);
        self.cancel_rematch(seat).await;
    }

    pub(super) async fn ready(&mut self, re: ReplyTo, player: Player, outbox: Outbox) {
        let Some(seat) = self.seat_of(&player.id) else {
            self.refuse(
                &re,
                &outbox,
                Code::NotAPlayer,
                format!("you hold no seat in room {}", self.id),
            );
            return;
        };
        if self.status != Status::Waiting {
            self.refuse(&re, &outbox, Code::Illegal, "the game has already started");
            return;
        }
        if self.seats.get(&seat).is_some_and(|o| !o.ready) {
            // Everyone sees each seat say ready, not only the start once all have.
            let ev = Event::Ready { seat: seat.wire() };
            if let Err(e) = self.emit(vec![ev.to_json()], None).await {
                self.refuse(&re, &outbox, Code::Server, e.to_string());
                return;
            }
            if let Some(o) = self.seats.get_mut(&seat) {
                o.ready = true;
            }
        }
        self.maybe_start().await;
        self.publish();
    }

    pub(super) async fn maybe_start(&mut self) {
        if self.status != Status::Waiting {
            return;
        }
        let full = self
            .table
            .seats()
            .iter()
            .all(|s| self.seats.contains_key(&s.seat));
        let ready = self.auto_start || self.seats.values().all(|o| o.ready);
        if !(full && ready) {
            return;
        }
        let salt = self.salt.as_deref().and_then(|s| hex::decode(s).ok());
        let rated = self.decide_rated().await;
        let ev = Event::Start {
            position: self.table.position().into(),
            turn: self.table.turn(),
            seed_commitment: salt.map(|salt| seed_commitment(self.table.seed(), &salt).into()),
            rated,
        };
        if self.emit(vec![ev.to_json()], None).await.is_err() {
            return;
        }
        self.status = Status::Playing;
        // The clock starts with the `start` event, not once the status is stored.
        let now = self.shared.clock.now_ms();
        if self.arm_clock(now) {
            self.tell_deadline(false).await;
        }
        self.set_status("playing").await;
        self.tell_away_starter();
    }

    pub(super) async fn chat(&mut self, re: ReplyTo, player: Player, text: String, outbox: Outbox) {
        let seat = self.seat_of(&player.id);
        if seat.is_none() && !self.spectators.contains_key(&outbox.id) {
            self.refuse(
                &re,
                &outbox,
                Code::NotAPlayer,
                format!("you are not in room {}", self.id),
            );
            return;
        }
        let ev = Event::Chat {
            seat: seat.map(Seat::wire),
            name: (*player.name).into(),
            text: text.into(),
            deleted: false,
            player: Some((*player.id).into()),
        };
        if let Err(e) = self.emit(vec![ev.to_json()], None).await {
            self.refuse(&re, &outbox, Code::Server, e.to_string());
        }
    }

    pub(super) async fn resume(
        &mut self,
        re: ReplyTo,
        player: Player,
        since: u64,
        outbox: Outbox,
    ) -> bool {
        if since > self.seq {
            self.refuse(
                &re,
                &outbox,
                Code::BadRequest,
                format!("since {since} is past this room's last event {}", self.seq),
            );
            return false;
        }
        let seat = self.seat_of(&player.id);
        // Already a member on this very connection (a second `resume` sent before the first
        // one's events arrived, say): a local connection has had everything since, and a
        // replay would only send it events twice. A relay may have lost frames on the bus
        // (the last events of a game, with none after them to show the gap): it gets the
        // replay, and the member's node skips what it delivered already.
        let attached = self.spectators.contains_key(&outbox.id)
            || seat
                .and_then(|s| self.seats.get(&s))
                .and_then(|o| o.conn.as_ref())
                .is_some_and(|c| c.id == outbox.id);
        if attached && !outbox.lossy() {
            return true;
        }
        match seat {
            _ if attached => {}
            Some(seat) => self.attach(seat, outbox.clone()),
            None if self.private => {
                self.refuse(&re, &outbox, Code::NotFound, format!("no room {}", self.id));
                return false;
            }
            // A watcher whose connection dropped carries on watching; `resume` never makes
            // anyone a spectator who was not one — but a room restored from the store (after
            // a restart, or taken over by another cluster node) never saw its watchers, and a
            // public room is anyone's to watch: there it makes a spectator of whoever holds no
            // seat (a watcher told the room `moved`).
            None if self.restored || self.watched_by.contains(&player.id) => {
                if !self.add_spectator(&re, player.id, &outbox) {
                    return false;
                }
            }
            None => {
                self.refuse(
                    &re,
                    &outbox,
                    Code::NotAPlayer,
                    format!("you are not in room {}: spectate it to watch", self.id),
                );
                return false;
            }
        }
        // Replaying more than fits in the client's send queue would only get it dropped as
        // slow: past that, a snapshot.
        let limit = MAX_RESUME.min(self.shared.send_queue * 3 / 4);
        let missed = self.seq - since;
        if missed as usize > limit {
            outbox.send(self.snapshot(&re, seat));
            return true;
        }
        match self.shared.store.events(&self.id, since, limit).await {
            Ok(events) => {
                // Chat lines a moderator deleted are replayed without their text.
                let chat = events
                    .iter()
                    .any(|(_, ev)| ev.contains("\"kind\":\"chat\""));
                let deleted = match chat {
                    true => (self.shared.store.redactions(&self.id).await).unwrap_or_default(),
                    false => Vec::new(),
                };
                for (seq, ev) in events {
                    let ev = match deleted.contains(&seq) {
                        true => crate::moderation::redact_frame_text(&ev),
                        false => ev,
                    };
                    outbox.send(protocol::event_frame(&self.id, seq, &ev));
                }
            }
            Err(e) => {
                tracing::warn!(room = %self.id, "resume from store failed: {e}");
                outbox.send(self.snapshot(&re, seat));
            }
        }
        true
    }

    pub(super) fn detach(&mut self, conn: u64) {
        let now = self.shared.clock.now_ms();
        let hold = self.hold();
        let mut changed = self.spectators.remove(&conn).is_some();
        for o in self.seats.values_mut() {
            if o.conn.as_ref().is_some_and(|c| c.id == conn) {
                o.conn = None;
                o.hold_until = Some(now.saturating_add(hold));
                changed = true;
            }
        }
        if changed {
            self.pause_clock_while_away(now);
            self.publish();
        }
    }
}
