//! What every room has whatever its game system: the protocol's [`RoomView`] (the snapshot
//! brought up to date event by event), this client's seat, and the log in words with the
//! lines every system words alike (who sits, who leaves, the start, chat, the winner).

use orion_protocol::{Event as Ev, Gap, OverReason, RoomView, Seat as WireSeat, Snapshot, Status};
use std::collections::VecDeque;

/// Most log lines kept; older lines scroll away.
pub const MAX_LOG: usize = 500;

/// A room's view, seat and log.
#[derive(Clone, Debug)]
pub struct Base {
    /// What the wire has said: the one projection of a room's events.
    pub view: RoomView,
    /// This client's seat, if it plays.
    pub me: Option<WireSeat>,
    /// What happened, newest last (bounded by [`MAX_LOG`]).
    pub log: VecDeque<String>,
}

impl Base {
    /// The room a snapshot shows, seen from `me`.
    pub fn from_snapshot(snap: &Snapshot, me: Option<WireSeat>) -> Base {
        Base {
            view: RoomView::from_snapshot(snap),
            me,
            log: VecDeque::new(),
        }
    }

    /// Whether this client's seat has said `ready` (before the start).
    pub fn ready(&self) -> bool {
        let seat = self.me.as_ref().and_then(|me| self.view.seats.get(me));
        seat.and_then(Option::as_ref).is_some_and(|s| s.ready)
    }

    /// Room id.
    pub fn room(&self) -> &str {
        &self.view.room
    }

    /// Game id.
    pub fn game(&self) -> &str {
        &self.view.game
    }

    /// The last event applied.
    pub fn seq(&self) -> u64 {
        self.view.seq
    }

    /// Where the room is in its life.
    pub fn status(&self) -> Status {
        self.view.status
    }

    /// The display name of `seat` (the seat itself when free).
    pub fn name_of(&self, seat: WireSeat) -> String {
        self.view
            .seats
            .get(&seat)
            .and_then(Option::as_ref)
            .map_or_else(|| seat.to_string(), |s| s.name.clone())
    }

    /// Names for a winner field (`S` or a team `S+N`).
    pub fn winner_name(&self, winner: &str) -> String {
        winner
            .split('+')
            .map(|s| WireSeat::parse(s).map_or_else(|| s.to_string(), |s| self.name_of(s)))
            .collect::<Vec<_>>()
            .join(" and ")
    }

    /// The seats nobody sits at.
    pub fn free_seats(&self) -> usize {
        self.view.seats.values().filter(|s| s.is_none()).count()
    }

    /// Adds a line to the log, the oldest scrolling away past [`MAX_LOG`].
    pub fn say(&mut self, line: String) {
        if self.log.len() >= MAX_LOG {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    /// Applies the event numbered `seq` to the view: `Ok(false)` for a repeat (ignored),
    /// `Ok(true)` once applied; a missing event is a [`Gap`], and nothing is applied.
    pub fn apply(&mut self, seq: u64, ev: &Ev<'_>) -> Result<bool, Gap> {
        if seq <= self.view.seq {
            return Ok(false);
        }
        self.view.apply(seq, ev)?;
        Ok(true)
    }

    /// The log line every system words alike, said before the event is applied (a `left`
    /// seat has no name after it); `None` for the events each system words its own way.
    pub fn line(&self, ev: &Ev<'_>) -> Option<String> {
        Some(match ev {
            Ev::Joined { seat, name, .. } => format!("{name} sits at {seat}"),
            Ev::Left { seat } => format!("{} left seat {seat}", self.name_of(*seat)),
            Ev::Ready { seat } => format!("{} is ready", self.name_of(*seat)),
            Ev::Start { .. } => "the game starts".to_string(),
            Ev::Deadline {
                seat, at, warning, ..
            } => {
                let who = self.name_of(*seat);
                if *warning {
                    format!(
                        "{who}: less than a day left to move (until {})",
                        crate::dates::minute(*at)
                    )
                } else {
                    format!("{who} to move by {}", crate::dates::minute(*at))
                }
            }
            Ev::Chat {
                name,
                deleted: true,
                ..
            } => format!("<{name}> (a line a moderator deleted)"),
            Ev::Chat {
                seat, name, text, ..
            } => {
                let from = seat.map_or("watching".to_string(), |s| s.to_string());
                format!("<{name} {from}> {text}")
            }
            _ => return None,
        })
    }

    /// The line of a game's end: the winner, or a draw.
    pub fn over_line(&self) -> String {
        let end = match self.view.result.as_ref().and_then(|r| r.winner.as_ref()) {
            Some(w) => format!("game over: {} wins", self.winner_name(&w.to_string())),
            None => "game over: a draw".to_string(),
        };
        // A game a player walked away from says who, and that it cost him the game.
        match self.view.over_reason {
            Some((OverReason::Left, Some(seat))) => {
                format!("{end} ({} left)", self.seat_word(seat))
            }
            Some((OverReason::Away, Some(seat))) => {
                format!("{end} ({} stayed away)", self.seat_word(seat))
            }
            _ => end,
        }
    }

    /// A seat as `alice (S)`, or `S` when nobody sits there now.
    fn seat_word(&self, seat: WireSeat) -> String {
        let name = self.name_of(seat);
        if name == seat.to_string() {
            name
        } else {
            format!("{name} ({seat})")
        }
    }
}
