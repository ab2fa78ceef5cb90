//! A connection's requests about finished and stored games, answered from the store without
//! a room's task: `games` (a player's archive, a page at a time), `history` (a room's stored
//! events), `export` (a room's record as text) and `leaderboard` (a game's ratings, or a
//! puzzle's fewest clicks).

use super::{server, Handled, Session};
use crate::player::Player;
use crate::protocol::{self, check_id, Code, Refusal, ReplyTo};
use crate::rating;
use crate::store::{GamesQuery, PlayerQuery, RatedLine, SolvedLine};
use orion_protocol::{ArchivedGame, Event, LeaderEntry, Logged, Message, Seat, Status};

/// Most events a `history` reply carries; ask again with `since` for more.
pub const HISTORY_PAGE: usize = 500;
/// Most bytes of events a `history` reply carries (an event is bounded by the position,
/// names and chat limits), far below the largest frame a client is sent.
pub const HISTORY_PAGE_BYTES: usize = 48 * 1024;

/// Most games a `games` reply lists (each a few hundred bytes); ask again with `before`.
pub const GAMES_PAGE: usize = 20;
/// Lines in one `leaderboard` page; ask again with `after` for the next.
pub const LEADERBOARD_PAGE: u32 = 50;
/// Longest `player` a `games` request may name (names are at most 32 characters).
const MAX_PLAYER_QUERY: usize = 64;

/// Whose games a `games` request asks for: `player_id`, `player_name`, or the older `player`
/// (an id if it has an id's shape, which no name may have since names that look like ids are
/// refused; else a name). Exactly one must be given, 1 to 64 characters.
pub(super) fn whose(
    id: Option<String>,
    name: Option<String>,
    either: Option<String>,
) -> Result<PlayerQuery, Refusal> {
    let trim = |t: String| t.trim().to_string();
    let who = match (id, name, either) {
        (Some(id), None, None) => PlayerQuery::Id(trim(id)),
        (None, Some(name), None) => PlayerQuery::Name(trim(name)),
        (None, None, Some(p)) if crate::text::looks_like_id(p.trim()) => PlayerQuery::Id(trim(p)),
        (None, None, Some(p)) => PlayerQuery::Name(trim(p)),
        _ => {
            return Err(Refusal::new(
                Code::BadRequest,
                "games needs one of player_id or player_name",
            ))
        }
    };
    let count = who.text().chars().count();
    if count == 0 || count > MAX_PLAYER_QUERY {
        return Err(Refusal::new(
            Code::BadRequest,
            format!("a player id or name must be 1 to {MAX_PLAYER_QUERY} characters"),
        ));
    }
    Ok(who)
}

impl Session {
    /// A page of a player's finished public games, newest first.
    pub(super) async fn games(
        &mut self,
        re: &ReplyTo,
        who: PlayerQuery,
        game: Option<String>,
        before: Option<String>,
    ) -> Handled {
        let player = who.text().to_string();
        let game = match game {
            Some(g) => Some(self.find_game(&g)?.1.id.to_string()),
            None => None,
        };
        let before = before
            .as_deref()
            .map(|b| check_id("before", b).map(str::to_string))
            .transpose()?;
        let query = GamesQuery {
            player: who,
            game,
            before: before.clone(),
            limit: GAMES_PAGE + 1,
        };
        let store = &self.shared.store;
        let mut games = (store.games(&query).await)
            .map_err(server)?
            .ok_or_else(|| {
                Refusal::new(
                    Code::NotFound,
                    format!(
                        "before: no game {} in the archive",
                        before.unwrap_or_default()
                    ),
                )
            })?;
        let more = games.len() > GAMES_PAGE;
        games.truncate(GAMES_PAGE);
        let games = games
            .into_iter()
            .map(|g| ArchivedGame {
                room: g.room,
                game: g.game,
                ended: g.ended_at,
                seats: (g.seats.into_iter())
                    .filter_map(|s| Some((Seat::parse(&s.seat)?, s.name)))
                    .collect(),
                winner: g.winner,
            })
            .collect();
        let page = Message::Games {
            player,
            games,
            more,
        };
        self.outbox.send(protocol::reply(re, page));
        Ok(())
    }

    pub(super) async fn history(
        &mut self,
        re: &ReplyTo,
        room: &str,
        since: u64,
        code: Option<String>,
    ) -> Handled {
        let room = check_id("room", room)?;
        let store = &self.shared.store;
        let not_found = || Refusal::new(Code::NotFound, format!("no room {room}"));
        let (record, status) = store
            .room(room)
            .await
            .map_err(server)?
            .ok_or_else(not_found)?;
        // A private room's history is its players' (they were given the code on joining).
        if let Some(secret) = &record.code {
            if !code.is_some_and(|c| c.eq_ignore_ascii_case(secret)) {
                return Err(not_found());
            }
        }
        let events = store
            .events(room, since, HISTORY_PAGE + 1)
            .await
            .map_err(server)?;
        let total = events.len();
        let mut list = Vec::with_capacity(total.min(HISTORY_PAGE));
        let mut bytes = 0;
        for (seq, ev) in events.into_iter().take(HISTORY_PAGE) {
            if !list.is_empty() && bytes + ev.len() > HISTORY_PAGE_BYTES {
                break;
            }
            bytes += ev.len();
            let ev = serde_json::from_str::<Event<'_>>(&ev)
                .map_err(|e| Refusal::new(Code::Server, format!("stored event {seq}: {e}")))?;
            list.push(Logged {
                seq,
                ev: ev.into_owned(),
            });
        }
        let more = total > list.len();
        if list.iter().any(|l| matches!(l.ev, Event::Chat { .. })) {
            let deleted = store.redactions(room).await.map_err(server)?;
            for logged in &mut list {
                crate::moderation::redact_logged(logged, &deleted);
            }
        }
        let status = match status.as_str() {
            "waiting" => Status::Waiting,
            "playing" => Status::Playing,
            "finished" => Status::Finished,
            "closed" => Status::Closed,
            other => {
                let e = format!("room {room} has status {other}");
                return Err(Refusal::new(Code::Server, e));
            }
        };
        let history = Message::History {
            room: record.id,
            game: record.game,
            status,
            events: list,
            more,
        };
        self.outbox.send(protocol::reply(re, history));
        Ok(())
    }

    /// A room's record as text, if it fits in one frame.
    pub(super) async fn export(
        &mut self,
        re: &ReplyTo,
        room: String,
        code: Option<String>,
    ) -> Handled {
        let record = crate::export::text(&self.shared, &room, code.as_deref()).await?;
        // Checked before the copy a reply needs: a record too big for one frame is
        // the `/g/ROOM.txt` reader's.
        if record.len() > crate::outbox::MAX_OUT_FRAME {
            return Err(Refusal::new(
                Code::Server,
                format!("the record is too big for one frame: GET /g/{room}.txt"),
            ));
        }
        let text = String::from_utf8_lossy(&record).into_owned();
        let room = room.trim().to_string();
        self.outbox
            .send(protocol::reply(re, Message::Export { room, text }));
        Ok(())
    }

    pub(super) async fn leaderboard(
        &mut self,
        re: &ReplyTo,
        player: Player,
        game: &str,
        after: u32,
    ) -> Handled {
        let (system, info) = self.find_game(game)?;
        let store = &self.shared.store;
        let me = player.id.to_string();
        let game_id = info.id;
        let (entries, total, you, target, optimum) = if info.solo {
            let figures = system.puzzle_figures(&info).ok_or_else(|| {
                Refusal::new(
                    Code::BadRequest,
                    format!("{game_id} is scored by hits, not clicks: it has no leaderboard"),
                )
            })?;
            let (lines, total) = store
                .solved_board(game_id, after, LEADERBOARD_PAGE)
                .await
                .map_err(server)?;
            let you = store.solved_line(game_id, &me).await.map_err(server)?;
            let entries = lines.into_iter().map(solved_entry).collect();
            (
                entries,
                total,
                you.map(solved_entry),
                Some(figures.target),
                Some(figures.optimum),
            )
        } else {
            let (lines, total) = store
                .rated_board(game_id, after, LEADERBOARD_PAGE)
                .await
                .map_err(server)?;
            let you = store.rated_line(game_id, &me).await.map_err(server)?;
            let entries = lines.into_iter().map(rated_entry).collect();
            (entries, total, you.map(rated_entry), None, None)
        };
        let entries: Vec<LeaderEntry> = entries;
        let more = after.saturating_add(entries.len() as u32) < total;
        let board = Message::Leaderboard {
            game: game_id.to_string(),
            entries,
            more,
            total,
            you,
            target,
            optimum,
        };
        self.outbox.send(protocol::reply(re, board));
        Ok(())
    }
}

fn rated_entry(line: RatedLine) -> LeaderEntry {
    LeaderEntry {
        rank: line.rank,
        name: line.name,
        player: line.id,
        rating: Some(rating::shown(&line.rating)),
        games: Some(line.rating.games),
        clicks: None,
        at: None,
    }
}

fn solved_entry(line: SolvedLine) -> LeaderEntry {
    LeaderEntry {
        rank: line.rank,
        name: line.name,
        player: line.id,
        rating: None,
        games: None,
        clicks: Some(line.clicks),
        at: Some(line.at),
    }
}
