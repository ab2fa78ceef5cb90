//! What a game does to its players' standing: whether it is rated (decided as it starts and
//! written in `start`), the ratings its seats show, and at its end the new ratings (written
//! in `over`) or a puzzle's best. The numbers are `rating.rs`'s; this is the room's side.
//!
//! Who may be rated: only claimed accounts (a guest is refused a seat in a room made with
//! `rated: true`), and two accounts only [`rating::PAIR_GAMES`] times a day together. A rated
//! game counts only once every player has made a move of his own (an action he sent that the
//! game took: a click, a placement, a move, a pass, Orbit's swap, a claim, a draw offer; not
//! a turn his clock ended): before that, a player leaving, being away past his seat hold or
//! letting his clock run out aborts it (`over` with `reason: "aborted"`, no winner, unrated).
//!
//! Once it counts, leaving loses (`rating::places`: every side that left, was away past its
//! hold or ran out of time ties last). Any game in progress, rated or not, ends as soon as a
//! player leaves or is away past his hold ([`Room::resign`], `reason` `left` or `away` with
//! his `seat`): when one other side is still seated and a player of it is connected, that
//! side wins; if it is away too, it has quit as well, and every side ties. So a quitter gains
//! nothing by going away, letting the other leave, and coming back to leave last.

use super::{Room, Status};
use crate::player::PlayerId;
use crate::rating::{self, Side};
use crate::store::{PairWindow, RatingRecord, Recorded, StoreError};
use crate::system::Seat;
use orion_protocol::{GameResult, OverReason, RatingChange, Seat as WireSeat};
use std::collections::{BTreeMap, BTreeSet};

/// A rated game's players, as it started: each seat's player, the seats whose player has
/// moved, and the seats whose player left while it was played (a seat that left has abandoned
/// the game and loses it).
#[derive(Clone, Debug, Default)]
pub(super) struct Rated {
    /// Who sat where at the start.
    roster: BTreeMap<Seat, PlayerId>,
    /// Seats given up during play.
    left: Vec<Seat>,
    /// Seats whose player has made a move of his own: once every seat of the roster has,
    /// the game counts.
    moved: BTreeSet<Seat>,
}

impl Rated {
    /// Whether every player of the roster has made a move of his own.
    fn everyone_moved(&self) -> bool {
        self.roster.keys().all(|s| self.moved.contains(s))
    }
}

impl Room {
    /// The rating `player` shows in this game: an account's (1500 before its first rated
    /// game), `None` for a guest or a puzzle.
    pub(super) async fn rating_of(&mut self, player: &PlayerId) -> Option<i32> {
        if self.solo() {
            return None;
        }
        let ids = [player.to_string()];
        match self.shared.store.ratings(self.game_id, &ids).await {
            Ok(found) => found
                .into_iter()
                .next()
                .map(|(_, r)| rating::shown(&r.unwrap_or_else(rating::newcomer))),
            Err(e) => {
                tracing::warn!(room = %self.id, "could not read a rating: {e}");
                None
            }
        }
    }

    /// Whether this is a puzzle room.
    pub(super) fn solo(&self) -> bool {
        self.system.find(self.game_id).is_some_and(|g| g.solo)
    }

    /// Whether `player` has claimed a name: `Ok(None)` in a puzzle room (nobody is rated
    /// there), else his rating in this game if he is an account.
    pub(super) async fn account_rating(
        &mut self,
        player: &PlayerId,
    ) -> Result<Option<i32>, StoreError> {
        let ids = [player.to_string()];
        let found = self.shared.store.ratings(self.game_id, &ids).await?;
        Ok(found
            .into_iter()
            .next()
            .map(|(_, r)| rating::shown(&r.unwrap_or_else(rating::newcomer))))
    }

    /// Decides, as the game starts, whether it is rated: never when the room's `rated` option
    /// says `false`; otherwise when every seat is a claimed account and no two of them have
    /// played [`rating::PAIR_GAMES`] rated games of this game together in the pair window.
    /// Puzzles: `None`.
    pub(super) async fn decide_rated(&mut self) -> Option<bool> {
        if self.solo() {
            return None;
        }
        // A game with a computer player is rated only when its room says `rated`; then the
        // people's ratings move against each bot's level's fixed one (`bots::level`).
        let with_bots = self.seats.values().any(|o| o.bot.is_some());
        let rated = match self.options.rated {
            Some(false) => false,
            None if with_bots => false,
            Some(true) | None => {
                let ids: Vec<String> = (self.seats.values())
                    .filter(|o| o.bot.is_none())
                    .map(|o| o.player.id.to_string())
                    .collect();
                match self.eligible(&ids).await {
                    Ok(rated) => rated,
                    Err(e) => {
                        tracing::warn!(room = %self.id, "unrated: accounts unread: {e}");
                        false
                    }
                }
            }
        };
        self.rated = rated.then(|| self.roster());
        Some(rated)
    }

    /// Whether a game of players `ids` may be rated: all accounts, within the pair window.
    /// (`&mut`: a room is not `Sync`, so its future may only hold it uniquely across awaits.)
    async fn eligible(&mut self, ids: &[String]) -> Result<bool, StoreError> {
        let store = &self.shared.store;
        let accounts = store.ratings(self.game_id, ids).await?;
        if accounts.len() != ids.len() {
            return Ok(false);
        }
        let window = self.pair_window();
        let together = store
            .rated_together(self.game_id, ids, window.since)
            .await?;
        Ok(together < window.most)
    }

    /// The pair window as of now.
    fn pair_window(&self) -> PairWindow {
        PairWindow {
            since: (self.shared.clock.now_ms()).saturating_sub(rating::PAIR_WINDOW),
            most: rating::PAIR_GAMES,
        }
    }

    /// `seat`'s player made a move of his own (not one his clock made).
    pub(super) fn note_moved(&mut self, seat: Seat) {
        if let Some(rated) = &mut self.rated {
            rated.moved.insert(seat);
        }
    }

    /// Undoes [`Room::note_moved`] for a move the store refused.
    pub(super) fn forget_moved(&mut self, seat: Seat) {
        if let Some(rated) = &mut self.rated {
            rated.moved.remove(&seat);
        }
    }

    /// A rated game in play that does not count yet: some player has not moved. Ending it
    /// now (a leave, a hold run out, a clock run out) aborts it.
    pub(super) fn not_yet_counted(&self) -> bool {
        self.status == Status::Playing && self.rated.as_ref().is_some_and(|r| !r.everyone_moved())
    }

    /// Whether `seat`'s player has moved (true outside rated games).
    pub(super) fn has_moved(&self, seat: Seat) -> bool {
        self.rated.as_ref().is_none_or(|r| r.moved.contains(&seat))
    }

    /// `seat`'s player gave up his seat in a game in progress (`why`: he left, or was away
    /// past his hold), still seated here: he resigned, and the game ends now (see the module
    /// doc). His side is out; if one other side is still seated and a player of it is
    /// connected, it wins; if it is away too, it has quit as well and nobody wins; with several
    /// other sides (three or four players, no partners) nobody wins and the leaver is last.
    pub(super) async fn resign(&mut self, seat: Seat, why: OverReason) {
        let sides = self.table.sides();
        let seated = |s: &Seat| *s != seat && self.seats.contains_key(s);
        let mut standing: Vec<Vec<Seat>> = (sides.into_iter())
            .filter(|side| !side.contains(&seat) && side.iter().any(seated))
            .collect();
        let mut result = self.table.abandoned();
        if let (Some(side), true) = (standing.pop(), standing.is_empty()) {
            let here = (side.iter()).any(|s| {
                self.seats
                    .get(s)
                    .is_some_and(|o| o.conn.is_some() || o.bot.is_some())
            });
            if here {
                result.winner = orion_protocol::Winner::team(side.iter().map(|s| s.wire()));
            } else {
                for s in side {
                    self.note_left(s);
                }
            }
        }
        let ev = self
            .over_event(result.clone(), Some((why, Some(seat))))
            .await
            .to_json();
        let now = self.shared.clock.now_ms();
        self.archive(&result, now).await;
        self.result = Some(result);
        if self.emit(vec![ev], None).await.is_ok() {
            self.finish().await;
        }
    }

    /// A moderator closed the room (`close_room`): a game not yet over ends as an abort
    /// (unrated, nobody wins), a waiting room ends the same way.
    pub(super) async fn close_by_moderator(&mut self) {
        if matches!(self.status, Status::Waiting | Status::Playing) {
            self.abort().await;
        }
    }

    /// Ends a rated game that does not count yet: `over` with no winner and `reason`
    /// `aborted`, unrated, sent to every member.
    pub(super) async fn abort(&mut self) {
        self.rated = None;
        let result = self.table.abandoned();
        let ev = self
            .over_event(result.clone(), Some((OverReason::Aborted, None)))
            .await
            .to_json();
        let now = self.shared.clock.now_ms();
        self.archive(&result, now).await;
        self.result = Some(result);
        if self.emit(vec![ev], None).await.is_ok() {
            self.finish().await;
        }
    }

    /// The seats' players now (as a rated game starts, or as a restart replays its `start`).
    pub(super) fn roster(&self) -> Rated {
        Rated {
            roster: (self.seats.iter())
                .map(|(s, o)| (*s, o.player.id.clone()))
                .collect(),
            left: Vec::new(),
            moved: BTreeSet::new(),
        }
    }

    /// `seat`'s player gave it up: in a rated game in play he has abandoned it.
    pub(super) fn note_left(&mut self, seat: Seat) {
        if self.status != Status::Playing {
            return;
        }
        if let Some(rated) = &mut self.rated {
            if rated.roster.contains_key(&seat) && !rated.left.contains(&seat) {
                rated.left.push(seat);
            }
        }
    }

    /// The game ended with `result` (and, when the room decided it, why): stores the rated
    /// game's new ratings, once, and returns them for `over`; in a puzzle room, keeps the
    /// solver's clicks if they are his fewest.
    pub(super) async fn settle(
        &mut self,
        result: &GameResult,
        decided: Option<(OverReason, Option<Seat>)>,
    ) -> Option<BTreeMap<WireSeat, RatingChange>> {
        let now = self.shared.clock.now_ms();
        if self.solo() {
            self.keep_solve(result, now).await;
            return None;
        }
        let rated = self.rated.take()?;
        if !rated.everyone_moved() {
            // Ended by its rules before everyone moved: played, but it does not count.
            return None;
        }
        let ids: Vec<String> = (rated.roster.values())
            .filter(|p| !crate::bots::is_bot_id(p))
            .map(|p| p.to_string())
            .collect();
        let known = match self.shared.store.ratings(self.game_id, &ids).await {
            Ok(known) => known,
            Err(e) => {
                tracing::error!(room = %self.id, "not rated: ratings unread: {e}");
                return None;
            }
        };
        // Every seat of the roster plays at its rating; a guest as a newcomer.
        let of = |seat: &Seat| -> (Option<String>, RatingRecord) {
            let id = rated.roster.get(seat).map(|p| p.to_string());
            // A computer player plays at its level's fixed rating and keeps nothing.
            if let Some(level) = id.as_deref().and_then(crate::bots::level_of_id) {
                return (None, crate::bots::record_of_level(level));
            }
            let account = known.iter().find(|(k, _)| Some(k) == id.as_ref());
            match account {
                Some((k, r)) => (Some(k.clone()), r.unwrap_or_else(rating::newcomer)),
                None => (None, rating::newcomer()),
            }
        };
        let sides: Vec<Vec<Seat>> = self
            .table
            .sides()
            .into_iter()
            .map(|side| {
                side.into_iter()
                    .filter(|s| rated.roster.contains_key(s))
                    .collect()
            })
            .filter(|side: &Vec<Seat>| !side.is_empty())
            .collect();
        let wire_sides: Vec<Side> = sides
            .iter()
            .map(|side| Side {
                seats: side.iter().map(|s| s.wire()).collect(),
            })
            .collect();
        let timed_out = match decided {
            Some((OverReason::Time, seat)) => seat.map(Seat::wire),
            _ => None,
        };
        let left: Vec<WireSeat> = rated.left.iter().map(|s| s.wire()).collect();
        let places = rating::places(&wire_sides, result, timed_out, &left);
        let before: Vec<Vec<(Seat, Option<String>, RatingRecord)>> = sides
            .iter()
            .map(|side| {
                side.iter()
                    .map(|s| {
                        let (id, r) = of(s);
                        (*s, id, r)
                    })
                    .collect()
            })
            .collect();
        let olds: Vec<Vec<RatingRecord>> = (before.iter())
            .map(|side| side.iter().map(|(_, _, r)| *r).collect())
            .collect();
        let news = rating::rate(&olds, &places);
        let mut changes = BTreeMap::new();
        let mut stored = Vec::new();
        for (side, new) in before.iter().zip(&news) {
            for ((seat, id, old), new) in side.iter().zip(new) {
                // Guests play as newcomers and keep nothing.
                let Some(id) = id else { continue };
                stored.push((id.clone(), *new));
                let change = RatingChange {
                    rating: rating::shown(new),
                    delta: rating::shown(new) - rating::shown(old),
                    games: new.games,
                };
                changes.insert(seat.wire(), change);
            }
        }
        let window = self.pair_window();
        let store = &self.shared.store;
        match store
            .record_ratings(&self.id, self.game_id, &stored, now, window)
            .await
        {
            Ok(Recorded::Stored) => {}
            Ok(Recorded::RatedAlready) => {
                tracing::warn!(room = %self.id, "rated already: ratings left as they were");
                return None;
            }
            Ok(Recorded::PairLimit) => {
                // Two of its accounts used up the pair window while it was played.
                tracing::info!(room = %self.id, "unrated: the pair window is used up");
                return None;
            }
            Err(e) => {
                tracing::error!(room = %self.id, "ratings not stored: {e}");
                return None;
            }
        }
        for (seat, change) in &changes {
            if let Some(s) = self.seat_named(seat.as_str()) {
                if rated.roster.get(&s) == self.seats.get(&s).map(|o| &o.player.id) {
                    self.seat_ratings.insert(s, change.rating);
                }
            }
        }
        Some(changes)
    }

    /// A solved puzzle: the solver's clicks, kept if they are his fewest (accounts only).
    async fn keep_solve(&mut self, result: &GameResult, now: crate::clock::Millis) {
        let Some(info) = self.system.find(self.game_id) else {
            return;
        };
        // A solve helped by hints is played, not a record of the solver's own.
        if self.system.puzzle_figures(info).is_none() || self.hints_used > 0 {
            return;
        }
        let Some(winner) = &result.winner else {
            return;
        };
        for wire in winner.seats() {
            let Some(seat) = self.seat_named(wire.as_str()) else {
                continue;
            };
            let (Some(o), Some(&clicks)) = (self.seats.get(&seat), result.scores.get(wire)) else {
                continue;
            };
            let id = o.player.id.to_string();
            let store = &self.shared.store;
            let is_account = store.account_by_id(&id).await.ok().flatten().is_some();
            if is_account {
                if let Err(e) = store.record_solve(self.game_id, &id, clicks, now).await {
                    tracing::error!(room = %self.id, "puzzle best not stored: {e}");
                }
            }
        }
    }
}
