//! A room's beginning: made new (stored, then its task started with its first players) or
//! rebuilt from the store after a restart (its events and actions replayed).

use super::clock::TurnClock;
use super::options::RoomOptions;
use super::Occupant;
use super::{Room, Status};
use crate::lobby::{NotInserted, Queued};
use crate::player::{Player, RoomId};
use crate::protocol::{Code, Refusal};
use crate::room::handle::RoomHandle;
use crate::shared::Shared;
use crate::store::{RoomRecord, SavedRoom};
use crate::system::{GameInfo, GameSystem, Table};
use orion_protocol::Event;
use rand::Rng;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

/// One of a new room's first seats: who, the seat he asked for (else the first free), and
/// whether he is ready as he sits (a correspondence seek: his seat and his `ready` are
/// stored in one append, so no restart can keep the one without the other).
pub struct FirstSeat {
    /// Who, and where his `joined` goes.
    pub queued: Queued,
    /// The seat asked for, by name.
    pub seat: Option<String>,
    /// Ready as he sits.
    pub ready: bool,
}

impl FirstSeat {
    /// A seat anywhere, not yet ready (a quick match's player: the room starts when full).
    pub fn anywhere(queued: Queued) -> FirstSeat {
        FirstSeat {
            queued,
            seat: None,
            ready: false,
        }
    }
}

/// Creates a room for `game` of `system`, seats `first` in order (the creator, or a quick
/// match's players), stores it and starts its task.
pub async fn create(
    shared: &Arc<Shared>,
    system: &Arc<dyn GameSystem>,
    game: &GameInfo,
    options: RoomOptions,
    private: bool,
    auto_start: bool,
    first: Vec<FirstSeat>,
) -> Result<RoomHandle, Refusal> {
    let seed: u64 = rand::thread_rng().gen();
    let table = system.table(game, &options.game, seed)?;
    // A seat asked for must be one of this game's: refused before anything is stored.
    for want in first.iter().filter_map(|f| f.seat.as_deref()) {
        let seats: Vec<&str> = table.seats().iter().map(|s| s.seat.0).collect();
        if !seats.iter().any(|s| s.eq_ignore_ascii_case(want)) {
            let want: String = want.chars().take(8).collect();
            let why = format!(
                "seat {want} does not play in {} (seats: {})",
                game.id,
                seats.join(", ")
            );
            return Err(Refusal::new(Code::BadRequest, why));
        }
    }
    // A correspondence room's id says so: every node counts its seats against their own
    // bound from the id alone (`lobby::seats`).
    let kind = match options.days_per_move {
        Some(_) => crate::lobby::CORRESPONDENCE_PREFIX,
        None => 'r',
    };
    let id: RoomId = Arc::from(format!("{kind}{:08x}", rand::thread_rng().gen::<u32>()));
    let code: Option<Arc<str>> = private.then(invite_code);
    let salt = hex::encode(rand::thread_rng().gen::<[u8; 16]>());
    let wire_options = options.to_wire();
    let record = RoomRecord {
        id: id.to_string(),
        game: game.id.to_string(),
        options: serde_json::to_string(&wire_options).unwrap_or_default(),
        seed,
        private,
        code: code.as_ref().map(|c| c.to_string()),
        salt: Some(salt.clone()),
    };
    shared
        .store
        .create_room(&record)
        .await
        .map_err(|e| Refusal::new(Code::Server, e.to_string()))?;
    let mut room = Room::new(
        shared.clone(),
        Setup {
            id,
            code,
            private,
            options,
            wire_options,
            system: system.clone(),
            game_id: game.id,
            table,
        },
    );
    room.salt = Some(salt);
    room.auto_start = auto_start;
    let (handle, rx) = room.handle();
    if let Err(why) = shared.lobby.rooms.insert(handle.clone()).await {
        let now = shared.clock.now_ms();
        let _ = shared.store.set_status(&record.id, "closed", now).await;
        return Err(match why {
            NotInserted::Full => Refusal::new(Code::Full, "the server has no room for more rooms"),
            NotInserted::Unavailable => Refusal::new(
                Code::Server,
                "the room could not be started now: try again in a few seconds",
            ),
        });
    }
    // The first seats are taken by the room's own task, before any other command reaches it.
    tokio::spawn(task(room, Some(first), rx));
    Ok(handle)
}

/// Rebuilds an unfinished room from the store (replaying its actions) and starts its task.
pub async fn restore(shared: &Arc<Shared>, saved: SavedRoom) -> Result<RoomHandle, String> {
    let rec = saved.record;
    let (system, game) = shared
        .find_game(&rec.game)
        .ok_or_else(|| format!("unknown game {}", rec.game))?;
    let stored: orion_protocol::RoomOptions =
        serde_json::from_str(&rec.options).map_err(|e| format!("options: {e}"))?;
    let options =
        RoomOptions::parse(Some(&stored), &*system, &game, None).map_err(|e| e.to_string())?;
    let table = system
        .table(&game, &options.game, rec.seed)
        .map_err(|e| e.to_string())?;
    let wire_options = options.to_wire();
    let mut room = Room::new(
        shared.clone(),
        Setup {
            id: Arc::from(rec.id.as_str()),
            code: rec.code.as_deref().map(Arc::from),
            private: rec.private,
            options,
            wire_options,
            system: system.clone(),
            game_id: game.id,
            table,
        },
    );
    room.salt = rec.salt.clone();
    room.restored = true;
    let now = shared.clock.now_ms();
    for (seq, text) in &saved.events {
        room.seq = *seq;
        // Read through the crate: the room's own events change who sits where and the
        // room's status; a game's are the system's (an event this server cannot read is
        // one of those: it changes nothing here).
        match serde_json::from_str::<Event<'_>>(text) {
            Ok(Event::Joined {
                seat,
                player,
                name,
                bot,
                ..
            }) => {
                if let Some(seat) = room.seat_named(seat.as_str()) {
                    let player = Player {
                        id: Arc::from(&*player),
                        name: Arc::from(&*name),
                    };
                    let occupant = Occupant {
                        player,
                        conn: None,
                        ready: false,
                        hold_until: None,
                        bot: bot.and_then(|l| orion_ai::Level::new(l).ok()),
                    };
                    room.seats.insert(seat, occupant);
                }
            }
            Ok(Event::Ready { seat }) => {
                if let Some(o) =
                    (room.seat_named(seat.as_str())).and_then(|s| room.seats.get_mut(&s))
                {
                    o.ready = true;
                }
            }
            Ok(Event::Left { seat }) => {
                if let Some(seat) = room.seat_named(seat.as_str()) {
                    room.note_left(seat);
                    room.seats.remove(&seat);
                }
            }
            Ok(Event::Start { rated, .. }) => {
                room.status = Status::Playing;
                if rated == Some(true) {
                    room.rated = Some(room.roster());
                }
            }
            Ok(Event::Over { .. }) => room.status = Status::Finished,
            Ok(Event::Deadline {
                seat,
                round,
                at,
                warning,
            }) => {
                if let Some(seat) = room.seat_named(seat.as_str()) {
                    room.restore_deadline(seat, round, at, warning);
                }
            }
            Ok(Event::Chat { .. }) => {}
            Ok(Event::Hint { hints, .. }) => room.hints_used = hints,
            // The game's own events: the occupant of a seat when it made a hidden choice is
            // the one shown it.
            Ok(ev) => {
                if let Some(seat) = room.table.hidden_choice(&ev) {
                    if let Some(o) = room.seats.get(&seat) {
                        room.secret_owners.insert(seat, o.player.id.clone());
                    }
                }
            }
            Err(e) => tracing::warn!(room = %room.id, "stored event {seq} unread: {e}"),
        }
    }
    room.appends = saved.appends;
    if room.status == Status::Finished {
        // Its `over` was stored but not the status (the node that ended it died, or lost the
        // database, in between): stored now, or every restore would end at once, let the
        // lease go and be taken over again by the next node, for ever.
        room.set_status("finished").await;
    }
    for a in &saved.actions {
        let Some(seat) = room.seat_named(&a.seat) else {
            tracing::warn!(room = %room.id, "replayed action of no seat: {}", a.seat);
            continue;
        };
        if let Err(e) = room.table.apply(seat, &a.action, a.at) {
            tracing::warn!(room = %room.id, "replayed action refused: {e}");
        } else if a.action != room.table.timeout_action() {
            // Every stored action but the clock's was its player's own move.
            room.note_moved(seat);
        }
    }
    let ids: Vec<_> = room
        .seats
        .iter()
        .map(|(s, o)| (*s, o.player.id.clone()))
        .collect();
    for (seat, id) in ids {
        if let Some(level) = crate::bots::level_of_id(&id) {
            room.seat_ratings
                .insert(seat, crate::bots::rating_of_level(level));
        } else if let Some(rating) = room.rating_of(&id).await {
            room.seat_ratings.insert(seat, rating);
        }
    }
    let hold = room.hold();
    // A computer player is never away: only people's seats are held until they come back.
    for occupant in room.seats.values_mut().filter(|o| o.bot.is_none()) {
        occupant.hold_until = Some(now.saturating_add(hold));
        shared.lobby.restore_seat(&occupant.player.id, &room.id);
    }
    room.restore_bots();
    if room.arm_clock(now) {
        // The turn's deadline was not stored (the node stopped between the move and it):
        // the turn is timed from now.
        room.tell_deadline(false).await;
    }
    room.pause_clock_while_away(now);
    let (handle, rx) = room.handle();
    if let Err(why) = shared.lobby.rooms.insert(handle.clone()).await {
        return Err(format!("not started here: {why:?}"));
    }
    room.publish();
    tokio::spawn(task(room, None, rx));
    Ok(handle)
}

/// A room's task, boxed as a `Send` future of a type of its own: a room can make a room (a
/// rematch), and without the box the compiler would chase the room's future through itself.
fn task(
    room: Room,
    first: Option<Vec<FirstSeat>>,
    rx: tokio::sync::mpsc::Receiver<crate::room::RoomCmd>,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> {
    Box::pin(room.run(first, rx))
}

/// What a room is made of, new or restored.
pub(super) struct Setup {
    /// Room id.
    pub(super) id: RoomId,
    /// Invite code of a private room.
    pub(super) code: Option<Arc<str>>,
    /// Unlisted.
    pub(super) private: bool,
    /// Options.
    pub(super) options: RoomOptions,
    /// `options` as sent to clients.
    pub(super) wire_options: orion_protocol::RoomOptions,
    /// The game system that plays here.
    pub(super) system: Arc<dyn GameSystem>,
    /// The game's id.
    pub(super) game_id: &'static str,
    /// The game.
    pub(super) table: Box<dyn Table>,
}

/// The commitment to a room's seed: hex SHA-256 of `"{seed}:{salt hex}"` (the seed in
/// decimal), published in `start`; `over` reveals seed and salt.
pub(super) fn seed_commitment(seed: u64, salt: &[u8]) -> String {
    hex::encode(Sha256::digest(format!("{seed}:{}", hex::encode(salt))))
}

/// A six-letter invite code without look-alike letters.
fn invite_code() -> Arc<str> {
    const LETTERS: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::thread_rng();
    let code: String = (0..6)
        .map(|_| LETTERS[rng.gen_range(0..LETTERS.len())] as char)
        .collect();
    Arc::from(code)
}

impl Room {
    pub(super) fn new(shared: Arc<Shared>, setup: Setup) -> Room {
        let mut clock = TurnClock::default();
        if let Some(bank) = setup.options.time_bank {
            for s in setup.table.seats() {
                clock.banks.insert(s.seat, bank);
            }
        }
        Room {
            id: setup.id,
            code: setup.code,
            private: setup.private,
            options: setup.options,
            wire_options: setup.wire_options,
            system: setup.system,
            game_id: setup.game_id,
            table: setup.table,
            status: Status::Waiting,
            auto_start: false,
            seats: BTreeMap::new(),
            spectators: HashMap::new(),
            seq: 0,
            appends: 0,
            clock,
            result: None,
            salt: None,
            secret_owners: BTreeMap::new(),
            rated: None,
            seat_ratings: BTreeMap::new(),
            rematch: BTreeSet::new(),
            rematch_room: None,
            rematch_events: 0,
            lost: false,
            watched_by: HashSet::new(),
            restored: false,
            published: None,
            told_spectators: 0,
            bots: Default::default(),
            shared,
            hint: None,
            hints_used: 0,
            quiet: HashSet::new(),
        }
    }
}
