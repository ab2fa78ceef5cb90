//! What an ORION room shows: the title, the board with the cursor, the last click and the
//! slots to build on, the players with their colours, ratings and points, and the turn box
//! (whose turn and what is left of it, the clock, chains open to claim, a puzzle's progress).

use super::board::{self, Board};
use super::OrionRoom;
use crate::lobby::rating_text;
use crate::systems::orion::wire::wire_seat;
use crate::systems::screen::{self as common, SeatMarks, TurnClock};
use orion_engine::{Allowance, PuzzleProgress};
use orion_protocol::Status;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

impl OrionRoom {
    /// The title bar.
    pub(super) fn head(&self) -> String {
        let r = &self.state;
        let game = r
            .rules
            .map_or(r.base.view.game.clone(), |g| g.name().to_string());
        let who = match r.me().and_then(|s| r.colour_of(s).map(|c| (s, c))) {
            Some((s, c)) => format!("you play {s} ({c})"),
            None => "watching".to_string(),
        };
        format!(" ORION · {game} · room {} · {who}", r.room())
    }

    /// The board as it stands, with what the player points at.
    pub(super) fn board(&self) -> Board {
        let room = &self.state;
        Board {
            position: room.position,
            cursor: (room.me().is_some() && room.status() == Status::Playing)
                .then_some(self.cursor),
            last_click: room.last_click(),
            eligible: if room.my_turn() {
                room.eligible()
            } else {
                Default::default()
            },
            picked: self.picked,
        }
    }

    /// One line per seat: the mover's arrow, colour, sitter, rating, points.
    pub(super) fn players(&self) -> Vec<Line<'static>> {
        let room = &self.state;
        room.seats()
            .iter()
            .map(|s| {
                let moving = room.mover() == Some(s.seat) && room.status() == Status::Playing;
                let marks = SeatMarks::of(&room.base, wire_seat(s.seat), moving);
                // A puzzle's progress is in the turn box; a game's seats show their points.
                let points = match room.puzzle() {
                    Some(_) => String::new(),
                    None => format!("  {} pts", s.score),
                };
                let rating = rating_text(s.rating);
                Line::from(vec![
                    Span::raw(format!("{}{} ", marks.arrow, s.seat)),
                    Span::styled("■ ", Style::default().fg(board::colour(s.colour))),
                    Span::raw(format!(
                        "{}{rating}{}{}{points}",
                        marks.name, marks.you, marks.off
                    )),
                ])
            })
            .collect()
    }

    /// A puzzle in progress: clicks used against the booklet's target (Aquarius: tries and
    /// hits, and how to name a rotor), and the time since it started.
    fn puzzle_lines(&self, clock: &TurnClock<'_>) -> Vec<Line<'static>> {
        let room = &self.state;
        let p = room.puzzle().unwrap_or(PuzzleProgress {
            clicks: 0,
            target: None,
        });
        let time = clock.text(None);
        let who = match (room.my_turn(), room.mover()) {
            (true, _) => "YOU".to_string(),
            (false, Some(s)) => room.name_of(s),
            (false, None) => "?".to_string(),
        };
        let text = if room.is_test() {
            let hits = room.seats().first().map_or(0, |s| s.score);
            let of = p.target.unwrap_or(0);
            format!(
                "{who} · try {} of {of} · hits: {hits} · {time}",
                p.clicks + 1
            )
        } else {
            let target = p
                .target
                .map_or("no booklet target".to_string(), |t| format!("target {t}"));
            format!("{who} · {} clicks used · {target} · {time}", p.clicks)
        };
        let mut lines = vec![Line::styled(text, common::turn_style(room.my_turn()))];
        if room.is_test() && room.my_turn() {
            lines.push(Line::from("name a rotor: ] on it, or type it (C3R)"));
        }
        lines
    }

    /// The turn box.
    pub(super) fn turn(&self, clock: &TurnClock<'_>) -> Vec<Line<'static>> {
        let room = &self.state;
        let mut out = Vec::new();
        match room.status() {
            Status::Waiting => {
                let free = room.seats().iter().filter(|s| s.name.is_none()).count();
                out.push(clock.waiting(free, room.base.ready()));
            }
            Status::Finished | Status::Closed => {
                let l = match room.puzzle() {
                    Some(_) => room.puzzle_result(),
                    None => common::over_text(&room.base),
                };
                out.push(common::over(l));
            }
            Status::Playing if room.puzzle().is_some() => out.extend(self.puzzle_lines(clock)),
            Status::Playing => {
                let mover = room.mover().map_or("?".to_string(), |s| room.name_of(s));
                let what = match room.allowance() {
                    Some(Allowance::Clicks(n)) => {
                        format!("{} of {n} clicks left", n.saturating_sub(room.used()))
                    }
                    Some(Allowance::Place(_)) => "place a piece".to_string(),
                    Some(Allowance::DieOrThree) => "roll or three?".to_string(),
                    Some(Allowance::Die) => "roll the die".to_string(),
                    None => String::new(),
                };
                let time = clock.text(room.turn_clock());
                let who = if room.my_turn() {
                    "YOUR TURN".to_string()
                } else {
                    format!("{mover} to move")
                };
                out.push(Line::styled(
                    format!("{who} · round {} · {what} · {time}", room.round()),
                    common::turn_style(room.my_turn()),
                ));
            }
        }
        let mine = room.me().and_then(|s| room.colour_of(s));
        for c in &room.claims() {
            let left = c.until.saturating_sub(clock.now);
            if left == 0 {
                continue;
            }
            let text = if Some(c.colour) == mine {
                format!(
                    "CHAIN FOR YOU! press ! to claim · {:.1} s",
                    left as f64 / 1000.0
                )
            } else {
                format!(
                    "{} may claim a chain · {:.1} s",
                    c.colour,
                    left as f64 / 1000.0
                )
            };
            out.push(Line::styled(
                text,
                Style::default()
                    .fg(Color::LightRed)
                    .add_modifier(Modifier::BOLD | Modifier::SLOW_BLINK),
            ));
        }
        out
    }
}
