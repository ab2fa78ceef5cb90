//! A finished game's record (`/g/ROOM.txt`, the `export` request): a projection of what the
//! store keeps of the room (seed, salt, options, accepted actions, events), written with the
//! protocol crate's [`GameRecord`]. The actions are run again through a fresh table of the
//! room's game system, as a restart would, so each turn line carries exactly what each action
//! caused (rolls, chains, claims, captures, challenges) and the position after it. That is
//! costly, so a record is built once per room: [`text`] is how every reader gets it, kept
//! (`records.rs` holds it in memory, the store on disk).

use crate::protocol::{check_id, Code, Refusal};
use crate::shared::Shared;
use crate::store::{RoomRecord, StoreError};
use crate::system::{Seat, Table};
use hyper::body::Bytes;
use orion_protocol::{Event, GameRecord, OverReason, RecordItem, RecordTurn};
use std::collections::BTreeMap;

/// Most events read for one record: far more than any game has (a puzzle's longest, a
/// 200-round game's few thousand), so a damaged room cannot make the server read without end.
const MAX_EVENTS: usize = 200_000;

/// The record of finished room `room` as text: kept in memory, else read back from the store,
/// else built (once, whoever else asks meanwhile). Private rooms need their invite `code`; a
/// room that is unknown, private without the right code, or not finished is `not_found`.
pub async fn text(shared: &Shared, room: &str, code: Option<&str>) -> Result<Bytes, Refusal> {
    let stored = finished_room(shared, room, code).await?;
    let records = &shared.records;
    let id = stored.id.clone();
    if let Some(text) = records.cached(&id) {
        return Ok(text);
    }
    let Some(pending) = records.pending(&id) else {
        return load_or_build(shared, stored).await;
    };
    let result = pending
        .get_or_init(|| load_or_build(shared, stored))
        .await
        .clone();
    // Kept before the build is forgotten, so that nobody in between starts another.
    if let Ok(text) = &result {
        records.keep(&id, text);
    }
    records.settled(&id);
    result
}

/// `stored`'s record from the store, or built (and then kept in the store).
async fn load_or_build(shared: &Shared, stored: RoomRecord) -> Result<Bytes, Refusal> {
    let store = &shared.store;
    let server = |e: StoreError| Refusal::new(Code::Server, e.to_string());
    if let Some(text) = store.record(&stored.id).await.map_err(server)? {
        return Ok(Bytes::from(text));
    }
    let id = stored.id.clone();
    let text = build(shared, stored).await?.to_string();
    shared.records.note_built();
    if let Err(e) = store.keep_record(&id, &text).await {
        // Served all the same; the next request after a restart builds it again.
        tracing::warn!(room = %id, "record not kept: {e}");
    }
    Ok(Bytes::from(text))
}

/// The stored room `room` if its record may be shown: a room that is unknown, private
/// without the right invite `code`, or still waiting is `not_found`. (Whether it has ended is
/// what [`build`] finds in its events.)
async fn finished_room(
    shared: &Shared,
    room: &str,
    code: Option<&str>,
) -> Result<RoomRecord, Refusal> {
    let room = check_id("room", room)?;
    let server = |e: StoreError| Refusal::new(Code::Server, e.to_string());
    let not_found = || Refusal::new(Code::NotFound, format!("no finished game {room}"));
    let (stored, status) = (shared.store.room(room).await)
        .map_err(server)?
        .ok_or_else(not_found)?;
    if let Some(secret) = &stored.code {
        if !code.is_some_and(|c| c.eq_ignore_ascii_case(secret)) {
            return Err(not_found());
        }
    }
    if status == "waiting" {
        return Err(not_found());
    }
    Ok(stored)
}

/// Builds the record of `stored`, a room [`finished_room`] let through: `not_found` if its
/// events hold no `over` yet. Costly (the whole game is replayed): [`text`] calls it
/// once per room and keeps the text.
async fn build(shared: &Shared, stored: RoomRecord) -> Result<GameRecord, Refusal> {
    let room = stored.id.as_str();
    let server = |e: StoreError| Refusal::new(Code::Server, e.to_string());
    let store = &shared.store;
    let not_found = || Refusal::new(Code::NotFound, format!("no finished game {room}"));
    let (system, game) = shared
        .find_game(&stored.game)
        .ok_or_else(|| Refusal::new(Code::Server, format!("unknown game {}", stored.game)))?;
    let wire: orion_protocol::RoomOptions = serde_json::from_str(&stored.options)
        .map_err(|e| Refusal::new(Code::Server, format!("stored options: {e}")))?;
    let options = crate::room::RoomOptions::parse(Some(&wire), &*system, &game, None)?;
    let mut table = system.table(&game, &options.game, stored.seed)?;
    let events = store.events(room, 0, MAX_EVENTS).await.map_err(server)?;
    let actions = store.actions(room).await.map_err(server)?;

    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let mut started = false;
    let mut over = None;
    for (seq, text) in &events {
        let ev = serde_json::from_str::<Event<'_>>(text)
            .map_err(|e| Refusal::new(Code::Server, format!("stored event {seq}: {e}")))?;
        match ev {
            Event::Start { .. } => started = true,
            // Who sat down before the start is whoever held the seat then; after it, every
            // occupant of a seat in order ("alice, then carol").
            Event::Joined { seat, name, .. } => {
                let held = names.entry(seat.to_string()).or_default();
                let last = held.rsplit(", then ").next().unwrap_or_default();
                if held.is_empty() || !started {
                    *held = name.into_owned();
                } else if last != name {
                    held.push_str(", then ");
                    held.push_str(&name);
                }
            }
            Event::Over {
                result,
                reason,
                seat,
                ..
            } => over = Some((result, reason, seat)),
            _ => {}
        }
    }
    // Finished is what the stored events say: the room stores its status just after the
    // `over` event, and a player who asks at once must find the record.
    let (result, reason, out_of_time) = over.ok_or_else(not_found)?;
    let reason = reason.map(|r| match (r, out_of_time) {
        (OverReason::Time, Some(seat)) => format!("time {seat}"),
        (OverReason::Time, None) => "time".to_string(),
        (OverReason::Abandoned, _) => "abandoned".to_string(),
        (OverReason::Aborted, _) => "aborted".to_string(),
        (OverReason::Left, Some(seat)) => format!("left {seat}"),
        (OverReason::Left, None) => "left".to_string(),
        (OverReason::Away, Some(seat)) => format!("away {seat}"),
        (OverReason::Away, None) => "away".to_string(),
    });

    let start = table.position();
    let mut turns: Vec<RecordTurn> = Vec::new();
    let mut line: Option<RecordTurn> = None;
    let mut last_at = None;
    for action in &actions {
        let Some(seat) = seat_named(&*table, &action.seat) else {
            return Err(Refusal::new(
                Code::Server,
                format!("room {room}: an action of no seat {}", action.seat),
            ));
        };
        let before = (table.mover(), table.round());
        let applied = table.apply(seat, &action.action, action.at).map_err(|e| {
            Refusal::new(
                Code::Server,
                format!(
                    "room {room}: stored action `{}` refused: {}",
                    action.action, e.message
                ),
            )
        })?;
        last_at = Some(action.at);
        let turn = line.get_or_insert_with(|| RecordTurn {
            number: turns.len() as u32 + 1,
            seat: before.0.to_string(),
            items: Vec::new(),
            position: None,
        });
        let notes = (applied.events.iter())
            .filter_map(|text| serde_json::from_str::<Event<'_>>(text).ok())
            .filter_map(|ev| note(&ev))
            .collect();
        turn.items.push(RecordItem {
            seat: (seat != before.0).then(|| seat.to_string()),
            action: system.notation(&action.action),
            notes,
        });
        let moved_on = (table.mover(), table.round()) != before;
        if moved_on || applied.over.is_some() {
            if let Some(mut done) = line.take() {
                done.position = Some(table.position());
                turns.push(done);
            }
        }
    }
    if let Some(mut done) = line.take() {
        done.position = Some(table.position());
        turns.push(done);
    }
    Ok(GameRecord {
        room: stored.id.clone(),
        game: stored.game.clone(),
        date: last_at.map(rfc3339).unwrap_or_default(),
        seats: table.seats().iter().map(|s| s.seat.to_string()).collect(),
        names,
        options: stored.options.clone(),
        seed: stored.seed.to_string(),
        salt: stored.salt.clone().unwrap_or_default(),
        start: Some(start),
        result,
        reason,
        turns,
    })
}

/// The table's seat named `name`.
fn seat_named(table: &dyn Table, name: &str) -> Option<Seat> {
    table.seats().iter().map(|s| s.seat).find(|s| s.0 == name)
}

/// What an event adds to its action in the record, in braces: nothing for what the line
/// shows already (clicks are the actions, the position ends the line).
fn note(ev: &Event<'_>) -> Option<String> {
    match ev {
        Event::Roll { value, .. } => Some(format!("rolled {value}")),
        Event::Chain { colour, .. } => Some(format!("chain {colour}")),
        Event::Claim { seat, ok } => Some(if *ok {
            format!("{seat} claims")
        } else {
            format!("{seat} claims too late")
        }),
        Event::Capture { slots, points, .. } => Some(format!(
            "captures {}: {points} point{}",
            slots.join(" "),
            if *points == 1 { "" } else { "s" }
        )),
        Event::Challenge {
            piece,
            hit,
            removed,
            ..
        } => Some(match (hit, removed.is_empty()) {
            (true, _) => format!("challenge {piece}: hit, removes {}", removed.join(" ")),
            (false, true) => format!("challenge {piece}: missed"),
            (false, false) => format!("challenge {piece}: missed, loses {}", removed.join(" ")),
        }),
        Event::Try {
            hit, hits, tries, ..
        } => Some(format!(
            "{}, {hits} of {tries}",
            if *hit { "hit" } else { "miss" }
        )),
        Event::Move {
            removed,
            timeout,
            forced,
            orbs,
            ..
        } => {
            let mut parts = Vec::new();
            if !removed.is_empty() {
                parts.push(format!("takes {}", removed.join(" ")));
            }
            if *timeout {
                parts.push("on time".to_string());
            }
            if *forced {
                parts.push("forced".to_string());
            }
            if let Some(out) = orbs.out.as_ref().filter(|o| !o.is_empty()) {
                let out: Vec<String> = out.iter().map(|s| s.to_string()).collect();
                parts.push(format!("{} out", out.join(" ")));
            }
            if parts.is_empty() {
                None
            } else {
                Some(parts.join(", "))
            }
        }
        Event::Draw { accept, .. } => Some(if *accept {
            "accepts the draw".to_string()
        } else {
            "offers a draw".to_string()
        }),
        _ => None,
    }
}

/// Server time as RFC 3339 (UTC, whole seconds).
fn rfc3339(at: crate::clock::Millis) -> String {
    let at = time::OffsetDateTime::from_unix_timestamp((at / 1000) as i64)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    at.format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}
