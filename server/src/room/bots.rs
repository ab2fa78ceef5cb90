//! Computer players in a room: seating one (`add_bot`, by a seated player of a waiting room;
//! or every free seat of a `quick` match with `bots`), unseating one (`remove_bot`), and their
//! play. A bot sits as a player whose id is `bot:LEVEL` (never an account's) and is ready at
//! once; its `joined` event carries `bot`, so a room restored from the store seats it again.
//!
//! Thinking never holds the room's task: once the game is in play and a person is connected,
//! after every change the room asks its table what each bot seat has to decide
//! (`Table::bot_job`, a copy of what the seat may see) and hands the job to the server's bot
//! pool; the decision comes back as a message on the room's `replies` channel. A decision made
//! for a position the game has since left (another seq) is dropped and asked again. It is then
//! played through `step`, the path of a person's action (same events, clocks and claim
//! windows); a claim waits its reaction time first (`bots::CLAIM_REACTION`).

use super::{Occupant, Room, Status};
use crate::bots::{self, BotGame};
use crate::clock::Millis;
use crate::outbox::Outbox;
use crate::player::Player;
use crate::protocol::{self, Code, ReplyTo};
use crate::system::{BotMove, Seat};
use orion_ai::Level;
use orion_protocol::{Event, Message};
use std::collections::{BTreeMap, BTreeSet};
use tokio::sync::mpsc;

/// Decisions in flight per room at most: one per seat (Orbs seats six), with room to spare,
/// so a bot thread's send never finds the channel full.
const REPLIES: usize = 8;

/// How long a bot seat that had nothing to do (or a decision the table refused) waits before
/// the room asks again when nothing else happened meanwhile.
const RETRY: Millis = 1_000;

/// A decision from the pool.
#[derive(Debug)]
pub(crate) struct BotReply {
    /// The seat it is for.
    seat: Seat,
    /// The room's seq when it was asked: a decision for an older position is stale.
    seq: u64,
    /// What the bot decided (`None`: nothing).
    decided: Option<BotMove>,
}

/// A decision waiting out its reaction time (a claim).
#[derive(Debug)]
struct Due {
    /// Whose.
    seat: Seat,
    /// The action text.
    action: String,
    /// When it is played.
    at: Millis,
    /// The seq it was decided at: played only if the game has not moved since.
    seq: u64,
}

/// A room's computer players' state (their seats are in the room's `seats`).
#[derive(Debug)]
pub(super) struct BotSeats {
    /// Given to each job, to send its decision back.
    tx: mpsc::Sender<BotReply>,
    /// Taken once by the room's task loop, which selects on it.
    pub(super) rx: Option<mpsc::Receiver<BotReply>>,
    /// Seats whose decision the pool is making.
    thinking: BTreeSet<Seat>,
    /// Per seat: the seq it was last asked at, and when to ask again if it had nothing to do
    /// (`None`: not before the game moves).
    asked: BTreeMap<Seat, (u64, Option<Millis>)>,
    /// A claim waiting out its reaction time.
    due: Option<Due>,
    /// The room's place among the server's games with computer players, while it seats one.
    game: Option<BotGame>,
}

impl Default for BotSeats {
    fn default() -> Self {
        let (tx, rx) = mpsc::channel(REPLIES);
        BotSeats {
            tx,
            rx: Some(rx),
            thinking: BTreeSet::new(),
            asked: BTreeMap::new(),
            due: None,
            game: None,
        }
    }
}

impl Room {
    /// `add_bot`: a seated player of a waiting room seats a computer player.
    pub(super) async fn add_bot(
        &mut self,
        re: &ReplyTo,
        player: &Player,
        level: Option<u8>,
        seat: Option<orion_protocol::Seat>,
        outbox: &Outbox,
    ) {
        if self.seat_of(&player.id).is_none() {
            let why = format!(
                "only a player seated in room {} may seat a computer player",
                self.id
            );
            return self.refuse(re, outbox, Code::NotAPlayer, why);
        }
        if self.status != Status::Waiting {
            let why = "the game has started: computer players take seats before it";
            return self.refuse(re, outbox, Code::Illegal, why);
        }
        if !self.system.has_bots() || self.solo() {
            let why = format!("{} has no computer players", self.game_id);
            return self.refuse(re, outbox, Code::BadRequest, why);
        }
        let level = match Level::new(level.unwrap_or(bots::DEFAULT_LEVEL)) {
            Ok(level) => level,
            Err(e) => return self.refuse(re, outbox, Code::BadRequest, e.to_string()),
        };
        let free: Vec<Seat> = (self.table.seats().iter())
            .map(|s| s.seat)
            .filter(|s| !self.seats.contains_key(s))
            .collect();
        let seat = match seat {
            Some(wanted) => match self.seat_named(wanted.as_str()) {
                Some(s) if free.contains(&s) => s,
                Some(s) => {
                    return self.refuse(re, outbox, Code::Full, format!("seat {s} is taken"))
                }
                None => {
                    let why = format!("seat {} does not play in this game", wanted.as_str());
                    return self.refuse(re, outbox, Code::BadRequest, why);
                }
            },
            None => match free.first() {
                Some(s) => *s,
                None => return self.refuse(re, outbox, Code::Full, "every seat is taken"),
            },
        };
        if self.bots.game.is_none() {
            match self.shared.bots.admit() {
                Some(game) => self.bots.game = Some(game),
                None => {
                    let why = "the server plays all the games with computer players it can: \
                               try again later";
                    return self.refuse(re, outbox, Code::Full, why);
                }
            }
        }
        if let Err(e) = self.seat_bot(seat, level).await {
            self.release_bot_game();
            return self.refuse(re, outbox, Code::Server, e);
        }
        let added = Message::BotAdded {
            room: self.id.to_string(),
            seat: seat.wire(),
            level: level.number(),
        };
        outbox.send(protocol::reply(re, added));
        self.maybe_start().await;
        self.publish();
    }

    /// Fills every free seat with a computer player of `level` (a `quick` match with `bots`
    /// whose wait ran out), holding `game`, the place the session was given for it.
    pub(super) async fn fill_bots(&mut self, level: Level, game: BotGame) {
        let free: Vec<(Seat, Level)> = (self.table.seats().iter())
            .map(|s| (s.seat, level))
            .filter(|(s, _)| !self.seats.contains_key(s))
            .collect();
        self.seat_bots(free, game).await;
    }

    /// Seats each computer player of `bots` at its seat (a rematch's, moved on as its people
    /// were; a seat someone took meanwhile is skipped), holding `game`, then starts the game
    /// if the table is full.
    pub(super) async fn seat_bots(&mut self, bots: Vec<(Seat, Level)>, game: BotGame) {
        if self.status != Status::Waiting {
            return;
        }
        if self.bots.game.is_none() {
            self.bots.game = Some(game);
        }
        for (seat, level) in bots {
            if self.seats.contains_key(&seat) {
                continue;
            }
            if let Err(e) = self.seat_bot(seat, level).await {
                tracing::warn!(room = %self.id, "a computer player was not seated: {e}");
                break;
            }
        }
        self.release_bot_game();
        self.maybe_start().await;
        self.publish();
    }

    /// Stores a bot's `joined` and `ready` and seats it.
    async fn seat_bot(&mut self, seat: Seat, level: Level) -> Result<(), String> {
        let player = bots::bot_player(level.number());
        let rating = bots::rating_of_level(level.number());
        let joined = Event::Joined {
            seat: seat.wire(),
            player: (*player.id).into(),
            name: (*player.name).into(),
            rating: Some(rating),
            bot: Some(level.number()),
        };
        let ready = Event::Ready { seat: seat.wire() };
        self.emit(vec![joined.to_json(), ready.to_json()], None)
            .await
            .map_err(|e| e.to_string())?;
        self.seats.insert(
            seat,
            Occupant {
                player,
                conn: None,
                ready: true,
                hold_until: None,
                bot: Some(level),
            },
        );
        self.seat_ratings.insert(seat, rating);
        Ok(())
    }

    /// `remove_bot`: a seated player of a waiting room takes a computer player out.
    pub(super) async fn remove_bot(
        &mut self,
        re: &ReplyTo,
        player: &Player,
        seat: orion_protocol::Seat,
        outbox: &Outbox,
    ) {
        if self.seat_of(&player.id).is_none() {
            let why = format!(
                "only a player seated in room {} may remove a computer player",
                self.id
            );
            return self.refuse(re, outbox, Code::NotAPlayer, why);
        }
        if self.status != Status::Waiting {
            let why = "the game has started: its computer players play it to the end";
            return self.refuse(re, outbox, Code::Illegal, why);
        }
        let Some(seat) = self
            .seat_named(seat.as_str())
            .filter(|s| self.seats.get(s).is_some_and(|o| o.bot.is_some()))
        else {
            let why = format!("no computer player sits at {}", seat.as_str());
            return self.refuse(re, outbox, Code::BadRequest, why);
        };
        self.vacate(seat, orion_protocol::OverReason::Left).await;
        self.release_bot_game();
        let removed = Message::BotRemoved {
            room: self.id.to_string(),
            seat: seat.wire(),
        };
        outbox.send(protocol::reply(re, removed));
        self.publish();
    }

    /// Gives the room's place among the games with computer players back once none sits.
    fn release_bot_game(&mut self) {
        if !self.seats.values().any(|o| o.bot.is_some()) {
            self.bots.game = None;
        }
    }

    /// A room restored with computer players takes its place among the games with them (past
    /// the cap it plays on all the same: its bots were seated before).
    pub(super) fn restore_bots(&mut self) {
        if self.seats.values().any(|o| o.bot.is_some()) {
            self.bots.game = self.shared.bots.admit();
            if self.bots.game.is_none() {
                tracing::warn!(room = %self.id, "restored past the cap on games with computer players");
            }
        }
    }

    /// Before the start, computer players alone do not hold a room open for ever: while no
    /// person sits with them their seats are held as an away player's are
    /// ([`super::WAITING_HOLD`]); a person sitting down again lifts that.
    fn hold_lone_bots(&mut self, now: Millis) {
        if self.status != Status::Waiting {
            return;
        }
        let person = self.seats.values().any(|o| o.bot.is_none());
        let hold = self.hold();
        for o in self.seats.values_mut().filter(|o| o.bot.is_some()) {
            o.hold_until = match (person, o.hold_until) {
                (true, _) => None,
                (false, None) => Some(now.saturating_add(hold)),
                (false, held) => held,
            };
        }
    }

    /// Asks the pool for the decision of every bot seat that has one to make and is not
    /// being thought for. Called by the room's loop before it waits, so after every change.
    pub(super) fn think_bots(&mut self) {
        if !self.seats.values().any(|o| o.bot.is_some()) {
            return;
        }
        if matches!(self.status, Status::Finished | Status::Closed) {
            // Its bots have played: the room's place goes to another game at once.
            self.bots.game = None;
            return;
        }
        let now = self.shared.clock.now_ms();
        self.hold_lone_bots(now);
        // While every person is away the clock stands still, and so do the bots.
        let person_here = self.seats.values().any(|o| o.conn.is_some());
        if self.status != Status::Playing || !person_here {
            return;
        }
        let bots: Vec<(Seat, Level)> = (self.seats.iter())
            .filter_map(|(s, o)| Some((*s, o.bot?)))
            .collect();
        for (seat, level) in bots {
            if self.bots.thinking.contains(&seat)
                || self.bots.due.as_ref().is_some_and(|d| d.seat == seat)
            {
                continue;
            }
            match self.bots.asked.get(&seat) {
                Some((seq, None)) if *seq == self.seq => continue,
                Some((seq, Some(again))) if *seq == self.seq && *again > now => continue,
                _ => {}
            }
            let Some(job) = self.table.bot_job(seat, now) else {
                self.bots.asked.insert(seat, (self.seq, None));
                continue;
            };
            let seq = self.seq;
            let seed =
                self.table.seed() ^ seq.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ seat_salt(seat);
            let tx = self.bots.tx.clone();
            let asked = self.shared.bots.think(job, level, seed, move |decided| {
                // At most one decision per seat is in flight: the channel has room for it.
                let _ = tx.try_send(BotReply { seat, seq, decided });
            });
            if asked {
                self.bots.thinking.insert(seat);
                self.bots.asked.insert(seat, (seq, None));
            } else {
                self.bots
                    .asked
                    .insert(seat, (seq, Some(now.saturating_add(RETRY))));
            }
        }
    }

    /// A decision came back from the pool: played now, after its reaction time, or dropped
    /// if the game has moved since it was asked (the loop asks again).
    pub(super) async fn on_bot_reply(&mut self, reply: BotReply) {
        self.bots.thinking.remove(&reply.seat);
        let seated = self.seats.get(&reply.seat).is_some_and(|o| o.bot.is_some());
        if reply.seq != self.seq || self.status != Status::Playing || !seated {
            return;
        }
        let now = self.shared.clock.now_ms();
        let Some(decided) = reply.decided else {
            self.bots
                .asked
                .insert(reply.seat, (reply.seq, Some(now.saturating_add(RETRY))));
            return;
        };
        if decided.reaction > 0 {
            self.bots.due = Some(Due {
                seat: reply.seat,
                action: decided.action,
                at: now.saturating_add(decided.reaction),
                seq: reply.seq,
            });
            return;
        }
        self.play_bot(reply.seat, &decided.action, now).await;
    }

    /// When the room next has something to do for its bots: a claim's reaction time ending,
    /// or a seat to ask again.
    pub(super) fn bot_deadline(&self) -> Option<Millis> {
        // Asking again is due only while bots think at all (else the timer would fire for
        // nothing, again and again).
        let thinking =
            self.status == Status::Playing && self.seats.values().any(|o| o.conn.is_some());
        let again = (self.bots.asked.values())
            .filter(|(seq, _)| thinking && *seq == self.seq)
            .filter_map(|(_, at)| *at);
        again.chain(self.bots.due.as_ref().map(|d| d.at)).min()
    }

    /// The timer fired: plays a claim whose reaction time is over, if the game has not moved.
    pub(super) async fn bot_timer(&mut self, now: Millis) {
        if self.bots.due.as_ref().is_some_and(|d| d.at <= now) {
            if let Some(due) = self.bots.due.take() {
                if due.seq == self.seq && self.status == Status::Playing {
                    self.play_bot(due.seat, &due.action, now).await;
                }
            }
        }
    }

    /// Plays a bot's action through the path a person's takes.
    async fn play_bot(&mut self, seat: Seat, action: &str, now: Millis) {
        let seq = self.seq;
        let first = !self.has_moved(seat);
        self.note_moved(seat);
        if self.step(seat, action, now, None).await.is_none() {
            if first {
                self.forget_moved(seat);
            }
            tracing::debug!(room = %self.id, %seat, action, "a computer player's action was refused");
            self.bots
                .asked
                .insert(seat, (seq, Some(now.saturating_add(RETRY))));
        }
    }
}

/// A number per seat, so two bots asked at the same seq search with different seeds.
fn seat_salt(seat: Seat) -> u64 {
    seat.0.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
