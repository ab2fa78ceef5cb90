//! A room as its events tell it: a [`Snapshot`] brought up to date one [`Event`] at a time,
//! in `seq` order. It knows no game's rules (the position stays a string, colours letters):
//! every client — the terminal's room, a bot, a browser port, a test — folds the wire into
//! the same view instead of re-deriving the turn. A missing `seq` is reported as a [`Gap`]
//! (the caller resumes or asks for a snapshot); it is never papered over.

use crate::event::{Event, OverReason, Seed};
use crate::room::{Claim, GameResult, Millis, RoomOptions, Scores, Snapshot, Status, Turn};
use crate::seat::Seat;
use crate::standing::RatingChange;
use crate::systems::TurnParts;
use std::collections::{BTreeMap, VecDeque};

/// Most chat lines a view keeps; older ones scroll away (a chatty room costs a client no more).
pub const CHAT_TAIL: usize = 50;

/// Who sits at a seat, as far as the wire has said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sitter {
    /// Player id.
    pub player: String,
    /// Display name.
    pub name: String,
    /// The colour the seat moves, once a snapshot has said it (a `joined` event does not;
    /// a client that knows the game knows it anyway).
    pub colour: Option<String>,
    /// Whether the sitter's connection is up, as of the last snapshot (a `joined` sitter is).
    pub connected: bool,
    /// His rating in this game (an account's; `over` of a rated game updates it).
    pub rating: Option<i32>,
    /// A computer player's level.
    pub bot: Option<u8>,
    /// Before the start: he said `ready` (a snapshot's, then `ready` events).
    pub ready: bool,
}

/// One chat line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    /// The speaker's seat; `None`: a spectator.
    pub seat: Option<Seat>,
    /// The speaker's name.
    pub name: String,
    /// The line.
    pub text: String,
}

/// The last click (or Aquarius try) made, for a client to highlight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastClick {
    /// Who made it.
    pub seat: Seat,
    /// The click as on the wire (`C4R`).
    pub click: String,
}

/// Events are missing between the view and the event just received: the view is unchanged
/// and the caller should `resume` from [`RoomView::seq`] (or take a new snapshot).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("events are missing: expected seq {expected}, got {got}; resume from {}", expected - 1)]
pub struct Gap {
    /// The seq the view was waiting for.
    pub expected: u64,
    /// The seq that came.
    pub got: u64,
}

/// A room as its snapshot and the events since tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomView {
    /// Room id.
    pub room: String,
    /// The last event folded in (0: none yet).
    pub seq: u64,
    /// Game id.
    pub game: String,
    /// The room's options.
    pub options: RoomOptions,
    /// Where the room is in its life.
    pub status: Status,
    /// Every seat of the game (`None`: free).
    pub seats: BTreeMap<Seat, Option<Sitter>>,
    /// How many watch (as of the last snapshot: no event says).
    pub spectators: u32,
    /// The position string.
    pub position: String,
    /// The turn: who moves, clicks allowed and used, round (and a puzzle's target).
    pub turn: Turn,
    /// The slots the mover may build on now (building games), as slot names.
    pub eligible: Vec<String>,
    /// Points per seat.
    pub scores: Scores,
    /// Chains open to be claimed. Their deadlines are the server's clock: a client compares
    /// them with its own time (an expired one is not removed by any event).
    pub claims: Vec<Claim>,
    /// The last click made, if any since the snapshot.
    pub last_click: Option<LastClick>,
    /// The commitment to the room's seed, from `start` (checked against `over`'s seed).
    pub seed_commitment: Option<String>,
    /// The result, once over.
    pub result: Option<GameResult>,
    /// Why the game ended, when not by its rules, and the seat out of time.
    pub over_reason: Option<(OverReason, Option<Seat>)>,
    /// The room's seed and its salt, revealed by `over`.
    pub seed: Option<(Seed, String)>,
    /// Algol: the recipient's own secret man (from its snapshot).
    pub secret: Option<String>,
    /// The latest chat lines, oldest first (at most [`CHAT_TAIL`]).
    pub chat: VecDeque<ChatLine>,
    /// Whether the game is rated, once `start` has said.
    pub rated: Option<bool>,
    /// A rated game's new ratings and their changes, from `over`.
    pub ratings: Option<BTreeMap<Seat, RatingChange>>,
    /// A finished room: the seats that want a rematch, in turn order.
    pub rematch: Vec<Seat>,
    /// The rematch's room, once every seat has agreed.
    pub rematch_room: Option<String>,
    /// A puzzle's hint for the position shown (`hint` event): the click and the clicks left
    /// on that optimal line; gone with the next click or undo.
    pub hint: Option<(String, u32)>,
    /// Hints shown in this puzzle room so far.
    pub hints: u32,
    /// A correspondence room: when the mover's days run out (ms since the epoch), and
    /// whether he has been warned that less than a day is left.
    pub deadline: Option<(Millis, bool)>,
}

impl RoomView {
    /// The view a snapshot gives.
    pub fn from_snapshot(snap: &Snapshot) -> RoomView {
        RoomView {
            room: snap.room.clone(),
            seq: snap.seq,
            game: snap.game.clone(),
            options: snap.options.clone(),
            status: snap.status,
            seats: snap
                .seats
                .iter()
                .map(|(&seat, v)| {
                    let sitter = v.as_ref().map(|v| Sitter {
                        player: v.player.clone(),
                        name: v.name.clone(),
                        colour: (!v.colour.is_empty()).then(|| v.colour.clone()),
                        connected: v.connected,
                        rating: v.rating,
                        bot: v.bot,
                        ready: v.ready,
                    });
                    (seat, sitter)
                })
                .collect(),
            spectators: snap.spectators,
            position: snap.position.clone(),
            turn: snap.turn.clone(),
            eligible: Vec::new(),
            scores: snap.scores.clone(),
            claims: snap.claims.clone(),
            last_click: None,
            seed_commitment: None,
            result: snap.result.clone(),
            over_reason: None,
            seed: None,
            secret: snap.systems.orion.secret.clone(),
            chat: VecDeque::new(),
            rated: None,
            ratings: None,
            rematch: Vec::new(),
            rematch_room: None,
            hint: None,
            hints: 0,
            deadline: snap.deadline.map(|at| (at, false)),
        }
    }

    /// Folds in the event numbered `seq`. An event at or before [`RoomView::seq`] is a repeat
    /// (a resume may send some again) and is ignored; one past the next is a [`Gap`] and
    /// leaves the view as it was.
    pub fn apply(&mut self, seq: u64, ev: &Event<'_>) -> Result<(), Gap> {
        if seq <= self.seq {
            return Ok(());
        }
        if seq != self.seq + 1 {
            return Err(Gap {
                expected: self.seq + 1,
                got: seq,
            });
        }
        self.seq = seq;
        self.fold(ev);
        Ok(())
    }

    /// The seat that moves now, while the game is on.
    pub fn mover(&self) -> Option<Seat> {
        (self.status == Status::Playing).then_some(self.turn.seat)
    }

    /// Clicks the mover may still make this turn (`None` while the die or three is to be
    /// chosen, and in a puzzle room).
    pub fn clicks_left(&self) -> Option<u32> {
        self.turn
            .clicks
            .map(|n| u32::from(n).saturating_sub(self.turn.used))
    }

    /// The colour letter of `seat`, when a snapshot has said it.
    pub fn colour_of(&self, seat: Seat) -> Option<&str> {
        self.seats.get(&seat)?.as_ref()?.colour.as_deref()
    }

    fn fold(&mut self, ev: &Event<'_>) {
        match ev {
            Event::Joined {
                seat,
                player,
                name,
                rating,
                bot,
            } => {
                let colour = self.colour_of(*seat).map(str::to_string);
                self.seats.insert(
                    *seat,
                    Some(Sitter {
                        player: player.to_string(),
                        name: name.to_string(),
                        colour,
                        connected: true,
                        rating: *rating,
                        bot: *bot,
                        ready: false,
                    }),
                );
            }
            Event::Ready { seat } => {
                if let Some(Some(s)) = self.seats.get_mut(seat) {
                    s.ready = true;
                }
            }
            Event::Left { seat } => {
                if let Some(s) = self.seats.get_mut(seat) {
                    *s = None;
                }
            }
            Event::Start {
                position,
                turn,
                seed_commitment,
                rated,
            } => {
                self.rated = *rated;
                self.status = Status::Playing;
                self.position = position.to_string();
                self.turn = turn.clone();
                self.eligible.clear();
                self.seed_commitment = seed_commitment.as_deref().map(str::to_string);
            }
            Event::Click {
                seat,
                click,
                position,
            } => {
                self.position = position.to_string();
                self.hint = None;
                self.last_click = Some(LastClick {
                    seat: *seat,
                    click: click.to_string(),
                });
                if *seat == self.turn.seat {
                    self.turn.used = self.turn.used.saturating_add(1);
                }
            }
            Event::Undo { position, used, .. } => {
                self.position = position.to_string();
                self.turn.used = *used;
                self.last_click = None;
                self.hint = None;
            }
            Event::Hint {
                click, left, hints, ..
            } => {
                self.hint = Some((click.to_string(), *left));
                self.hints = *hints;
            }
            Event::Deadline { at, warning, .. } => self.deadline = Some((*at, *warning)),
            Event::Place { slot, position, .. } => {
                self.position = position.to_string();
                self.eligible.retain(|s| s != slot);
            }
            Event::Eligible { slots } => {
                self.eligible = slots.iter().map(|s| s.to_string()).collect();
            }
            // The die's value comes again as the `turn` event's clicks.
            Event::Roll { .. } => {}
            Event::Turn {
                seat,
                clicks,
                round,
                systems,
                ..
            } => {
                if *seat == self.turn.seat && *round == self.turn.round {
                    // The same turn, its clicks now known (the die or three was chosen) or
                    // more of them (a Lepus hop): a seat never moves twice in one round.
                    self.turn.clicks = *clicks;
                    self.turn.systems.orbit.clone_from(&systems.orbit);
                } else {
                    self.turn = Turn {
                        seat: *seat,
                        clicks: *clicks,
                        used: 0,
                        round: *round,
                        systems: TurnParts {
                            orion: self.turn.systems.orion.clone(),
                            orbit: systems.orbit.clone(),
                        },
                    };
                    self.eligible.clear();
                }
            }
            Event::Chain {
                colour,
                claim_until,
            } => {
                if let Some(until) = claim_until {
                    self.claims.retain(|c| c.colour != *colour);
                    self.claims.push(Claim {
                        colour: colour.to_string(),
                        until: *until,
                    });
                }
            }
            Event::Claim { seat, .. } => {
                if let Some(colour) = self.colour_of(*seat).map(str::to_string) {
                    self.claims.retain(|c| c.colour != colour);
                }
            }
            Event::Capture {
                seat,
                points,
                position,
                ..
            } => {
                self.position = position.to_string();
                *self.scores.entry(*seat).or_insert(0) += points;
            }
            // Only the commitment is public; the snapshot's `secret` is the recipient's own.
            Event::Secret { .. } => {}
            Event::Challenge { position, .. } => {
                self.position = position.to_string();
            }
            Event::Try {
                seat,
                click,
                tries,
                hits,
                ..
            } => {
                self.last_click = Some(LastClick {
                    seat: *seat,
                    click: click.to_string(),
                });
                self.turn.used = u32::from(*tries);
                self.scores.insert(*seat, u32::from(*hits));
            }
            Event::Chat { deleted: true, .. } => {}
            Event::Chat {
                seat, name, text, ..
            } => {
                if self.chat.len() >= CHAT_TAIL {
                    self.chat.pop_front();
                }
                self.chat.push_back(ChatLine {
                    seat: *seat,
                    name: name.to_string(),
                    text: text.to_string(),
                });
            }
            Event::Move { position, .. } => {
                self.position = position.to_string();
            }
            // An Orbs draw offer changes nothing the view holds until the game ends.
            Event::Draw { .. } => {}
            Event::Rematch { agreed, room, .. } => {
                self.rematch = agreed.clone();
                self.rematch_room = room.as_ref().map(|r| r.to_string());
            }
            Event::Over {
                result,
                seed,
                salt,
                reason,
                seat,
                ratings,
                ..
            } => {
                if let Some(ratings) = ratings {
                    for (s, change) in ratings {
                        if let Some(Some(sitter)) = self.seats.get_mut(s) {
                            sitter.rating = Some(change.rating);
                        }
                    }
                }
                self.ratings.clone_from(ratings);
                self.status = Status::Finished;
                self.claims.clear();
                for (s, p) in &result.scores {
                    self.scores.insert(*s, *p);
                }
                self.result = Some(result.clone());
                self.over_reason = reason.map(|r| (r, *seat));
                self.seed = seed.zip(salt.as_deref().map(str::to_string));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::Message;
    use crate::parse::parse_reply;

    /// The golden frames as messages, in the order they were recorded.
    fn golden() -> Vec<Message<'static>> {
        include_str!("../tests/golden/server.jsonl")
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| parse_reply(l).expect("a golden frame").message)
            .collect()
    }

    /// The recorded game of Hydra for Two: its first snapshot, the events after it, and the
    /// snapshot taken once it was over.
    fn hydra() -> (Snapshot, Vec<(u64, Event<'static>)>, Snapshot) {
        let frames = golden();
        let snaps: Vec<&Snapshot> = frames
            .iter()
            .filter_map(|m| match m {
                Message::Snapshot(s) if s.room == "rb3b6aad7" => Some(&**s),
                _ => None,
            })
            .collect();
        let events = frames
            .iter()
            .filter_map(|m| match m {
                Message::Event { room, seq, ev } if room == "rb3b6aad7" => Some((*seq, ev.clone())),
                _ => None,
            })
            .collect();
        (snaps[0].clone(), events, snaps[snaps.len() - 1].clone())
    }

    #[test]
    fn the_recorded_hydra_game_folds_into_its_final_snapshot() {
        let (first, events, last) = hydra();
        let mut view = RoomView::from_snapshot(&first);
        for (seq, ev) in &events {
            view.apply(*seq, ev).expect("no gap in the recording");
            match ev {
                Event::Click { position, .. } => assert_eq!(view.position, *position, "{seq}"),
                Event::Turn {
                    seat,
                    clicks,
                    round,
                    ..
                } => {
                    assert_eq!(
                        (view.turn.seat, view.turn.clicks, view.turn.round),
                        (*seat, *clicks, *round),
                        "{seq}"
                    );
                    assert_eq!(view.mover(), Some(*seat), "{seq}");
                }
                Event::Start { .. } => assert_eq!(view.status, Status::Playing),
                _ => {}
            }
        }
        // What the server's own snapshot says once it is over, the view says too.
        assert_eq!(view.seq, last.seq);
        assert_eq!(view.status, Status::Finished);
        assert_eq!(view.position, last.position);
        assert_eq!(view.turn, last.turn);
        assert_eq!(view.scores, last.scores);
        assert_eq!(view.claims, last.claims);
        assert_eq!(view.result, last.result);
        assert_eq!(view.mover(), None);
        assert_eq!(
            view.last_click,
            Some(LastClick {
                seat: Seat::S,
                click: "C5R".into()
            })
        );
        let names: Vec<_> = view
            .seats
            .values()
            .map(|s| s.as_ref().map(|s| s.name.as_str()))
            .collect();
        assert_eq!(names, [Some("south"), Some("north")]);
        assert_eq!(view.chat.back().map(|c| c.text.as_str()), Some("hi"));
        let (seed, salt) = view.seed.clone().expect("over reveals the seed");
        assert_eq!(seed, Seed(1780595379497327816));
        assert_eq!(salt, "e7b2b2cb4422fbd74f3503110b550c07");
        assert!(view.seed_commitment.is_some());
    }

    #[test]
    fn the_turn_counts_the_movers_clicks_and_a_new_turn_starts_at_none_used() {
        let (first, events, _) = hydra();
        let mut view = RoomView::from_snapshot(&first);
        // Up to and with the round-two turn of S and its first click (seq 8).
        for (seq, ev) in events.iter().take_while(|(s, _)| *s <= 8) {
            view.apply(*seq, ev).unwrap();
        }
        assert_eq!(view.turn.seat, Seat::S);
        assert_eq!(
            (view.turn.clicks, view.turn.used, view.turn.round),
            (Some(2), 1, 2)
        );
        assert_eq!(view.clicks_left(), Some(1));
    }

    #[test]
    fn a_gap_is_reported_and_a_repeat_ignored() {
        let (first, events, _) = hydra();
        let mut view = RoomView::from_snapshot(&first);
        let (seq, ev) = &events[0];
        view.apply(*seq, ev).unwrap();
        let before = view.clone();
        // A repeat changes nothing.
        assert_eq!(view.apply(*seq, ev), Ok(()));
        assert_eq!(view, before);
        // Skipping an event is a gap, and the view waits where it was.
        let (seq3, ev3) = &events[2];
        assert_eq!(
            view.apply(*seq3, ev3),
            Err(Gap {
                expected: seq + 1,
                got: *seq3
            })
        );
        assert_eq!(view, before);
    }

    #[test]
    fn the_abandoned_taurus_game_ends_with_its_reason() {
        let frames = golden();
        let mut events = frames.iter().filter_map(|m| match m {
            Message::Event { room, seq, ev } if room == "r9cd7e826" => Some((*seq, ev)),
            _ => None,
        });
        let (seq, ev) = events.next().expect("a click");
        let Event::Click { position, .. } = ev else {
            panic!("the recording starts with a click")
        };
        // A view made mid-game, as a snapshot at the seq before would give it.
        let mut view = RoomView::from_snapshot(&Snapshot {
            room: "r9cd7e826".into(),
            seq: seq - 1,
            game: "taurus".into(),
            options: RoomOptions::default(),
            status: Status::Playing,
            seats: [(Seat::S, None), (Seat::N, None)].into(),
            spectators: 0,
            position: String::new(),
            turn: Turn {
                seat: Seat::S,
                clicks: Some(3),
                used: 0,
                round: 1,
                systems: Default::default(),
            },
            scores: Default::default(),
            claims: vec![],
            result: None,
            deadline: None,
            systems: Default::default(),
        });
        view.apply(seq, ev).unwrap();
        assert_eq!(view.position, *position);
        for (seq, ev) in events {
            view.apply(seq, ev).unwrap();
        }
        assert_eq!(view.status, Status::Finished);
        assert_eq!(view.over_reason, Some((OverReason::Abandoned, None)));
        assert_eq!(view.result.and_then(|r| r.winner), None);
    }

    #[test]
    fn chains_open_and_close_claims_and_the_chat_tail_is_bounded() {
        let (first, _, _) = hydra();
        let mut first = first;
        first.seats.insert(
            Seat::N,
            Some(crate::room::SeatView {
                player: "p".into(),
                name: "north".into(),
                colour: "B".into(),
                connected: true,
                rating: None,
                ready: false,
                bot: None,
            }),
        );
        let mut view = RoomView::from_snapshot(&first);
        let mut seq = view.seq;
        let mut next = |view: &mut RoomView, ev: Event<'static>| {
            seq += 1;
            view.apply(seq, &ev).unwrap();
        };
        next(
            &mut view,
            Event::Chain {
                colour: "B".into(),
                claim_until: Some(99),
            },
        );
        assert_eq!(
            view.claims,
            [Claim {
                colour: "B".into(),
                until: 99
            }]
        );
        next(
            &mut view,
            Event::Claim {
                seat: Seat::N,
                ok: true,
            },
        );
        assert!(view.claims.is_empty());
        for i in 0..CHAT_TAIL + 5 {
            next(
                &mut view,
                Event::Chat {
                    seat: None,
                    name: "w".into(),
                    text: i.to_string().into(),
                    deleted: false,
                    player: None,
                },
            );
        }
        assert_eq!(view.chat.len(), CHAT_TAIL);
        assert_eq!(view.chat.front().map(|c| c.text.as_str()), Some("5"));
    }
}
