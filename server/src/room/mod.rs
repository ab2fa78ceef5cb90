//! One task per room: it alone owns the game, the seats, the spectators, the per-room `seq`
//! and the clocks. Sessions send it commands; it answers on the sender's outbox, appends
//! every event to the store before broadcasting it, and serializes each event once for all
//! members. Claims are timed by the server clock as the room accepts them, so a claim racing
//! the mover's next click is settled in arrival order by the engine.
//!
//! The room is split by concern: `options` (what a room is made with), `command` (what
//! sessions ask of it), `lifecycle` (create, restore), `seats` (joining, watching, leaving,
//! resuming, starting), `play` (game actions and their events), `clock` (turn clocks, holds),
//! `view` (snapshots and the lobby listing), `event` (the room's own events, typed),
//! `rematch` (the next game with the same players), `bots` (computer players: seated, and
//! their decisions asked of the bot pool and played), `plan` (a turn tried on a copy of the
//! table before it is sent).

mod bots;
mod clock;
pub(crate) mod handle;
mod hints;
mod lifecycle;
mod notices;
mod options;
mod plan;
mod play;
mod puzzle;
mod rematch;
mod seats;
mod standing;
mod view;
mod watchers;

use crate::clock::Millis;
use crate::outbox::Outbox;
use crate::player::{Player, PlayerId, RoomId};
use crate::protocol::{self, Code, Frame, Refusal, ReplyTo};
use crate::shared::Shared;
use crate::store::{ActionRecord, Append, ArchivedRoom, ArchivedSeat, StoreError};
use crate::system::{GameSystem, Seat, Table};
use orion_protocol::{GameResult, Status};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;
use tokio::sync::mpsc;

pub use handle::{RoomCmd, RoomHandle};
pub use lifecycle::{create, restore, FirstSeat};
pub use options::{RoomOptions, DAYS_PER_MOVE, DEFAULT_SEAT_HOLD, MAX_CLOCK, MIN_TURN_CLOCK};

/// Commands queued for one room before senders wait (a flooder is bounded by its rate limit
/// long before this).
pub const ROOM_QUEUE: usize = 256;
/// Most spectators in one room by default (`Config::max_spectators`, `--max-spectators`);
/// more are refused with `full`. A spectator costs the server what any idle connection does
/// (~10.5 KB) and an event to all of them is one serialization and one shared send each;
/// 5,000 is the point measured (BENCHMARKS.md: one room watched by 5,000 at 5 clicks/s on one
/// core), half the process's connections (`MAX_CONNECTIONS`), so one popular room cannot
/// take them all.
pub const MAX_SPECTATORS: usize = 5_000;
/// Most events a `resume` replays (and at most 3/4 of the send queue); a client further
/// behind gets a snapshot.
pub const MAX_RESUME: usize = 2_000;
/// How long a room that has not started keeps the seat of a player who went away, whatever
/// its `seat_hold`: a waiting room with nobody connected is closed after this, so rooms made
/// and left cannot pile up.
pub const WAITING_HOLD: Millis = 60_000;
/// How long a correspondence room that has not started keeps the seat of a player who went
/// away: an offer stands for a week.
pub const SEEK_HOLD: Millis = 7 * options::DAY;
/// How long a correspondence game keeps an away player's seat: longer than any game can wait
/// for him (his turn ends at his deadline, 14 days at most), so only the deadline ends it.
pub const CORRESPONDENCE_HOLD: Millis = 365 * options::DAY;

/// A filled seat.
#[derive(Debug)]
struct Occupant {
    /// Who sits there.
    player: Player,
    /// His live connection; `None` while he is away.
    conn: Option<Outbox>,
    /// He said `ready`.
    ready: bool,
    /// While away: when his seat is given up.
    hold_until: Option<Millis>,
    /// A computer player (`room/bots.rs`): its level. It has no connection and is never away.
    bot: Option<orion_ai::Level>,
}

/// One room, owned by its task.
struct Room {
    /// Room id.
    id: RoomId,
    /// Invite code of a private room.
    code: Option<Arc<str>>,
    /// Unlisted.
    private: bool,
    /// Options, and their JSON for snapshots and the lobby.
    options: RoomOptions,
    /// `options` as sent to clients.
    wire_options: orion_protocol::RoomOptions,
    /// The game system that plays here.
    system: Arc<dyn GameSystem>,
    /// The game's id (`hydra-2`).
    game_id: &'static str,
    /// The game (set up at creation; actions are accepted once it is playing).
    table: Box<dyn Table>,
    /// Waiting, playing or finished.
    status: Status,
    /// Start without `ready` (quick matches).
    auto_start: bool,
    /// Filled seats.
    seats: BTreeMap<Seat, Occupant>,
    /// Watchers by connection id.
    spectators: HashMap<u64, Outbox>,
    /// Who has watched (by player id), so that a watcher whose connection dropped may
    /// `resume`; bounded (cleared past twice the room's most spectators).
    watched_by: HashSet<PlayerId>,
    /// Restored from the store (a restart, a takeover): who watched before is unknown, so any
    /// `resume` in a public room by whoever holds no seat makes a spectator.
    restored: bool,
    /// The last event's seq (0 before the first).
    seq: u64,
    /// Appends stored so far (they are numbered from 1 in the store).
    appends: u64,
    /// The turn clock.
    clock: clock::TurnClock,
    /// The summary last sent to the lobby, to skip republishing an unchanged one (a publish
    /// marks the public list for a rebuild and may wake its watchers).
    published: Option<view::Published>,
    /// The watcher count the members were last sent (`spectators`, see `view.rs`): players
    /// see the count change, not only what their snapshot said.
    told_spectators: usize,
    /// A result the server decided (time forfeit, abandoned game), which the engine's game
    /// does not know about.
    result: Option<GameResult>,
    /// Hex salt of the seed's commitment: the commitment goes out in `start`, seed and salt
    /// in `over`, so anyone can check every throw and random start (`None`: an older room).
    salt: Option<String>,
    /// Who chose each seat's hidden choice (Algol's secret man): only he is shown it, not a
    /// later occupant of the seat.
    secret_owners: BTreeMap<Seat, PlayerId>,
    /// A rated game in play: its players as it started, and who has left it.
    rated: Option<standing::Rated>,
    /// The rating each seated account shows (guests have none), for seats and the lobby.
    seat_ratings: BTreeMap<Seat, i32>,
    /// A finished room: the seats that want a rematch.
    rematch: BTreeSet<Seat>,
    /// The rematch's room, once every seat agreed.
    rematch_room: Option<String>,
    /// `rematch` events stored by this task (bounded by `rematch::MAX_REMATCH_EVENTS`).
    rematch_events: u32,
    /// On a cluster: another node holds the room now (a fenced append, or the lease was
    /// seen taken over); the task tells its members and ends.
    lost: bool,
    /// Its computer players' decisions in flight and due (`bots.rs`).
    bots: bots::BotSeats,
    /// Server-wide state.
    shared: Arc<Shared>,
    /// A puzzle's hint being searched for (one at a time), answered in the room's loop.
    hint: Option<puzzle::PendingHint>,
    /// Hints shown in this puzzle room (a solve that used one says so and is not kept).
    hints_used: u32,
    /// Watchers' connections not counted (`spectate` with `quiet`: the front door's live
    /// board); kept no larger than the watchers (`watchers.rs`).
    quiet: HashSet<u64>,
}

impl Room {
    /// The seat of this game named `name` (`S`), if it plays here.
    pub(super) fn seat_named(&self, name: &str) -> Option<Seat> {
        self.table
            .seats()
            .iter()
            .map(|s| s.seat)
            .find(|s| s.0.eq_ignore_ascii_case(name))
    }

    pub(super) fn handle(&self) -> (RoomHandle, mpsc::Receiver<RoomCmd>) {
        let (tx, rx) = mpsc::channel(ROOM_QUEUE);
        let handle = RoomHandle {
            id: self.id.clone(),
            code: self.code.clone(),
            tx,
        };
        (handle, rx)
    }

    /// The room's task: seats `first` for a new room (the creator, or a quick match's
    /// players), then takes commands until the room ends. The room lives in this one future
    /// (a block around it would keep a second copy).
    pub(super) async fn run(
        mut self,
        first: Option<Vec<FirstSeat>>,
        mut rx: mpsc::Receiver<RoomCmd>,
    ) {
        if let Some(first) = first {
            // Boxed like the commands below: the room's future keeps no room for them.
            for f in first {
                let q = f.queued;
                Box::pin(self.join(q.re, q.player, f.seat, q.outbox, f.ready)).await;
            }
            Box::pin(self.maybe_start()).await;
            self.publish();
        }
        let mut shutdown = self.shared.shutdown();
        let mut bot_replies = self.bots.rx.take();
        loop {
            if self.is_done() || self.lost {
                break;
            }
            self.think_bots();
            let timer = match self.next_deadline() {
                Some(at) => self.shared.clock.sleep_until(at),
                None => Box::pin(std::future::pending()),
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    // Boxed, as the timer's: the room's future would otherwise be as large as
                    // the largest command's state, for every room all the time.
                    Some(cmd) => Box::pin(self.handle_cmd(cmd)).await,
                    None => break,
                },
                _ = timer => Box::pin(self.on_timer()).await,
                Some(reply) = next_reply(&mut bot_replies) => {
                    Box::pin(self.on_bot_reply(reply)).await
                }
                done = puzzle::hint_done(&mut self.hint) => Box::pin(self.hint_found(done)).await,
                _ = shutdown.changed() => break,
            }
        }
        // Closed before the directory forgets the room: it forgets this copy only, never a
        // newer one restored meanwhile under the same id (`Directory::remove`).
        rx.close();
        if self.lost {
            // What was queued behind is refused at once (sent again once the room runs on
            // its new node), not left unanswered.
            let moving = Refusal::new(
                Code::Server,
                format!(
                    "room {} is moving to another server: try again in a moment",
                    self.id
                ),
            );
            while let Ok(cmd) = rx.try_recv() {
                cmd.refuse(&moving);
            }
        }
        drop(rx);
        if self.lost {
            // Its members resume it on the node that has it; its seats and listing are that
            // node's now. A room handed over as its node stops is announced by its new node
            // once it runs there: its members are told then, not before.
            let moved = protocol::moved(&self.id);
            let handed = self.shared.lobby.rooms.handing_over(&self.id);
            for o in self.seats.values().filter(|_| !handed) {
                if let Some(conn) = &o.conn {
                    conn.send(moved.clone());
                }
            }
            for conn in self.spectators.values().filter(|_| !handed) {
                conn.send(moved.clone());
            }
            tracing::warn!(room = %self.id, "another node has taken the room over: its members were told");
            let members: Vec<Outbox> = (self.seats.values())
                .filter_map(|o| o.conn.clone())
                .chain(self.spectators.values().cloned())
                .collect();
            (self.shared.lobby.rooms).handed_over(&self.id, self.seq, &members);
            self.shared.lobby.rooms.remove(&self.id).await;
            // This node lists it and holds its seats no more (the new owner does).
            self.shared.lobby.publish(&self.id, None);
            for o in self.seats.values() {
                self.shared.lobby.free_seat(&o.player.id, &self.id);
            }
            return;
        }
        if self.status == Status::Waiting && self.seats.is_empty() {
            self.set_status("closed").await;
        }
        self.shared.lobby.rooms.remove(&self.id).await;
        self.shared.lobby.publish(&self.id, None);
        for o in self.seats.values() {
            if self.status == Status::Finished {
                self.shared.lobby.free_seat(&o.player.id, &self.id);
            }
        }
        tracing::debug!(room = %self.id, "room task ended");
    }

    /// A room ends when it can no longer be played or seen: before the start, when no seat
    /// is held (watchers alone do not keep a room open, or one connection could hold rooms
    /// made and left without bound); after the end, when nobody is connected.
    pub(super) fn is_done(&self) -> bool {
        let connected =
            self.seats.values().any(|o| o.conn.is_some()) || !self.spectators.is_empty();
        match self.status {
            Status::Waiting => self.seats.is_empty(),
            Status::Playing => false,
            // A room's task never sets `closed` (the store does, as it ends).
            Status::Finished | Status::Closed => !connected,
        }
    }

    pub(super) fn next_deadline(&self) -> Option<Millis> {
        let holds = self.seats.values().filter_map(|o| o.hold_until);
        holds
            .chain(self.clock.deadline)
            .chain(self.clock.warn_at)
            .chain(self.bot_deadline())
            .min()
    }

    pub(super) async fn handle_cmd(&mut self, cmd: RoomCmd) {
        if !matches!(cmd, RoomCmd::Detach { .. } | RoomCmd::Lost)
            && !self.shared.lobby.rooms.serving(&self.id)
        {
            // On a cluster, this node has not renewed the room's lease for long enough that
            // another may be taking it over: nothing is applied here until it has.
            cmd.refuse(&Refusal::new(
                Code::Server,
                format!(
                    "room {} is moving to another server: try again in a few seconds",
                    self.id
                ),
            ));
            return;
        }
        match cmd {
            RoomCmd::Join {
                re,
                player,
                seat,
                outbox,
                ready,
                done,
            } => {
                let ok = self.join(re, player, seat, outbox, ready).await;
                let _ = done.send(ok);
                self.maybe_start().await;
                self.publish();
            }
            RoomCmd::Spectate {
                re,
                player,
                outbox,
                done,
                quiet,
            } => {
                self.watch_quietly(outbox.id, quiet);
                let _ = done.send(self.spectate(re, player, outbox));
                self.publish();
            }
            RoomCmd::Leave { re, player, outbox } => {
                self.leave(re, player, outbox).await;
                self.publish();
            }
            RoomCmd::Ready { re, player, outbox } => self.ready(re, player, outbox).await,
            RoomCmd::Act {
                re,
                player,
                request,
                outbox,
            } => self.act(re, player, *request, outbox).await,
            RoomCmd::Chat {
                re,
                player,
                text,
                outbox,
            } => self.chat(re, player, text, outbox).await,
            RoomCmd::Resume {
                re,
                player,
                since,
                outbox,
                done,
            } => {
                let _ = done.send(self.resume(re, player, since, outbox).await);
                self.publish();
            }
            RoomCmd::Rematch {
                re,
                player,
                accept,
                outbox,
            } => self.rematch(re, player, accept, outbox).await,
            RoomCmd::FillBots { level, game } => self.fill_bots(level, game).await,
            RoomCmd::SeatBots { bots, game } => self.seat_bots(bots, game).await,
            RoomCmd::Describe { player, done } => {
                let _ = done.send(self.describe(&player));
            }
            RoomCmd::Detach { conn } => self.detach(conn),
            RoomCmd::Lost => self.lost = true,
            RoomCmd::Close => self.close_by_moderator().await,
        }
    }

    pub(super) fn seat_of(&self, player: &PlayerId) -> Option<Seat> {
        self.seats
            .iter()
            .find(|(_, o)| &o.player.id == player)
            .map(|(s, _)| *s)
    }

    pub(super) fn refuse(
        &self,
        re: &ReplyTo,
        outbox: &Outbox,
        code: Code,
        message: impl Into<String>,
    ) {
        outbox.refuse(re, &Refusal::new(code, message));
    }

    pub(super) async fn finish(&mut self) {
        self.status = Status::Finished;
        self.clock.deadline = None;
        // Seats are free with the `over` event, not once the status is stored.
        for o in self.seats.values() {
            self.shared.lobby.free_seat(&o.player.id, &self.id);
        }
        self.set_status("finished").await;
        // The lobby shows the game over at once (a move that ends it changes no seat).
        self.publish();
        self.tell_game_over();
    }

    /// Files a public game ending now with `result` under the players who sit in it
    /// (`games`). Done before the `over` event is stored and sent, so that whoever hears of
    /// the end finds the game listed; should that event not be stored, the row stays until
    /// the game ends again (and replaces it) or is pruned. A game every player has left (an
    /// abandoned one) has no one to file it under.
    pub(super) async fn archive(&mut self, result: &GameResult, now: Millis) {
        if self.private || self.seats.is_empty() {
            return;
        }
        let game = ArchivedRoom {
            room: self.id.to_string(),
            game: self.game_id.to_string(),
            ended_at: now,
            winner: result.winner.as_ref().map(|w| w.to_string()),
            seats: (self.seats.iter())
                .map(|(seat, o)| ArchivedSeat {
                    seat: seat.0.to_string(),
                    player: o.player.id.to_string(),
                    name: o.player.name.to_string(),
                })
                .collect(),
        };
        if let Err(e) = self.shared.store.archive(&game).await {
            tracing::error!(room = %self.id, "could not archive the game: {e}");
        }
    }

    /// Stores the room's status. (`&mut`: a room is not `Sync`, so its task's future may
    /// only hold it uniquely across the store's await.)
    pub(super) async fn set_status(&mut self, status: &str) {
        let now = self.shared.clock.now_ms();
        if let Err(e) = self.shared.store.set_status(&self.id, status, now).await {
            tracing::error!(room = %self.id, "could not store status {status}: {e}");
        }
    }

    /// Stores `evs` (with the action that caused them) under the next seqs, waits for the
    /// group commit that holds them, then sends each, serialized once, to every member.
    /// Nothing is sent if the store refuses. The room takes no other command meanwhile, so
    /// nobody sees a state that is not stored.
    pub(super) async fn emit(
        &mut self,
        evs: Vec<String>,
        action: Option<ActionRecord>,
    ) -> Result<(), StoreError> {
        let mut events = Vec::with_capacity(evs.len());
        let mut frames = Vec::with_capacity(evs.len());
        for (i, text) in evs.into_iter().enumerate() {
            let seq = self.seq + 1 + i as u64;
            frames.push(protocol::event_frame(&self.id, seq, &text));
            events.push((seq, text));
        }
        let seq = self.seq + frames.len() as u64;
        let append = Append {
            room: self.id.clone(),
            n: self.appends + 1,
            action,
            events,
            seq,
        };
        if let Err(e) = self.shared.store.append(append).wait().await {
            if let StoreError::Fenced(_) = e {
                // Another node holds the room: nothing was stored, and nothing more will be.
                self.lost = true;
                return Err(e);
            }
            // The database may have committed it and lost only its answer (a connection cut
            // after the commit): then the log holds exactly these events, and this room is
            // their only writer. Anything else is a refusal, and nothing is sent.
            if !self.stored_already(&frames).await {
                return Err(e);
            }
            tracing::warn!(room = %self.id, "an append's answer was lost; the log has it");
        }
        self.appends += 1;
        self.seq = seq;
        self.shared.metrics.events_total.inc_by(frames.len() as u64);
        for frame in &frames {
            self.broadcast(frame);
        }
        Ok(())
    }

    /// Whether the log already holds `frames` as the next events after `self.seq` (an
    /// append committed whose answer was lost). (`&mut`: a room is not `Sync`.)
    async fn stored_already(&mut self, frames: &[Frame]) -> bool {
        if frames.is_empty() {
            return false;
        }
        let stored = self
            .shared
            .store
            .events(&self.id, self.seq, frames.len() + 1)
            .await;
        let Ok(stored) = stored else {
            return false;
        };
        // On a cluster, the events read are this room's own only if no other node can have
        // taken the room over before they were read.
        if !self.shared.lobby.rooms.serving(&self.id) {
            return false;
        }
        stored.len() == frames.len()
            && stored
                .iter()
                .zip(frames)
                .all(|((seq, ev), frame)| protocol::event_frame(&self.id, *seq, ev) == *frame)
    }

    /// Sends a frame to every member. A member whose queue is full has been disconnected by
    /// its outbox; it is dropped here too and may `resume` later.
    pub(super) fn broadcast(&mut self, frame: &Frame) {
        let now = self.shared.clock.now_ms();
        let hold = self.hold();
        let mut lost = false;
        for o in self.seats.values_mut() {
            if let Some(conn) = &o.conn {
                if !conn.send(frame.clone()) {
                    o.conn = None;
                    o.hold_until = Some(now.saturating_add(hold));
                    lost = true;
                }
            }
        }
        self.spectators.retain(|_, conn| conn.send(frame.clone()));
        if lost {
            self.pause_clock_while_away(now);
        }
    }
}

/// The next computer player's decision, or never when the room has no channel for them.
async fn next_reply(rx: &mut Option<mpsc::Receiver<bots::BotReply>>) -> Option<bots::BotReply> {
    match rx {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}
