//! The room screen of Orbit and Orbs: the game's board on the left (the 16x16 grid, the star
//! in rows), the players with their colours and territory or orbs, the turn (the opening
//! phase and the colour choice, draw offers, the clock), and the log.

use super::App;
use crate::system::{GameCopy, SystemRoom};
use crate::tui::orbit_board::{self, OrbitBoard};
use crate::tui::orbs_board::{self, OrbsBoard};
use orion_orbit::Stone;
use orion_protocol::Status;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

/// The game's name for the title bar.
fn game_name(game: &str) -> &str {
    match game {
        "orbit" => "Orbit",
        "orbs" => "Orbs",
        other => other,
    }
}

/// The terminal colour of a seat's colour letter.
fn letter_colour(letter: char) -> Color {
    orion_orbs::Colour::from_letter(letter).map_or(Color::Gray, orbs_board::colour)
}

/// A seat's colour in words.
fn colour_word(game: &str, letter: char) -> String {
    if game == "orbit" {
        Stone::parse(&letter.to_string()).map_or("?".into(), |s| s.name().to_string())
    } else {
        orion_orbs::Colour::from_letter(letter).map_or("?".into(), |c| c.name().to_string())
    }
}

impl App {
    /// The title bar of an Orbit or Orbs room.
    pub(super) fn other_head(&self, r: &SystemRoom) -> String {
        let me = self.wire_seat.map(|s| {
            let colour = r
                .seats()
                .into_iter()
                .find(|l| l.seat == s)
                .and_then(|l| l.colour)
                .map_or(String::new(), |c| {
                    format!(" ({})", colour_word(r.game(), c))
                });
            format!("you play {s}{colour}")
        });
        format!(
            " ORION · {} · room {} · {}",
            game_name(r.game()),
            r.room(),
            me.unwrap_or_else(|| "watching".to_string())
        )
    }

    /// The room screen of an Orbit or Orbs room.
    pub(super) fn draw_other_room(&self, f: &mut Frame, area: Rect) {
        let Some(room) = &self.other else {
            return;
        };
        let width = match room.copy {
            GameCopy::Orbit(_) => orbit_board::WIDTH,
            GameCopy::Orbs(_) => orbs_board::WIDTH,
        };
        let [left, right] =
            Layout::horizontal([Constraint::Length(width + 1), Constraint::Min(20)]).areas(area);
        match &room.copy {
            GameCopy::Orbit(o) => {
                let territory = |c: Stone| {
                    o.game.board().vacant() & (o.game.prohibited(c.other()) - o.game.prohibited(c))
                };
                f.render_widget(
                    OrbitBoard {
                        stones: *o.board(),
                        last: o.last_drop,
                        to_drop: o.to_drop().filter(|_| room.status() == Status::Playing),
                        prohibited: if room.status() == Status::Playing {
                            o.prohibited()
                        } else {
                            Default::default()
                        },
                        black_territory: territory(Stone::Black),
                        white_territory: territory(Stone::White),
                    },
                    left,
                );
            }
            GameCopy::Orbs(o) => f.render_widget(
                OrbsBoard {
                    position: o.position.clone(),
                    holes: o.holes,
                    last: o.last,
                },
                left,
            ),
        }
        let seats = room.seats();
        let [players, turn, log] = Layout::vertical([
            Constraint::Length(seats.len() as u16 + 2),
            Constraint::Length(6),
            Constraint::Min(3),
        ])
        .areas(right);
        let orbit = room.game() == "orbit";
        let mut lines = Vec::new();
        for s in &seats {
            let arrow = if room.view.mover() == Some(s.seat) {
                "▶"
            } else {
                " "
            };
            let name = s.name.clone().unwrap_or_else(|| "(empty)".to_string());
            let off = if s.name.is_some() && !s.connected {
                " (away)"
            } else {
                ""
            };
            let you = if Some(s.seat) == self.wire_seat {
                " (you)"
            } else {
                ""
            };
            let (mark, style) = match (orbit, s.colour) {
                (true, Some('B')) => ("● ", Style::default().fg(Color::LightMagenta)),
                (true, Some(_)) => ("○ ", Style::default().fg(Color::White)),
                (true, None) => ("  ", Style::default()),
                (false, c) => (
                    "■ ",
                    Style::default().fg(c.map_or(Color::Gray, letter_colour)),
                ),
            };
            let score = match (orbit, s.out) {
                (true, _) => match s.colour {
                    Some(c) => format!("  {} · territory {}", colour_word("orbit", c), s.score),
                    None => "  colour not chosen yet".to_string(),
                },
                (false, true) => "  OUT".to_string(),
                (false, false) => format!("  {} orbs", s.score),
            };
            lines.push(Line::from(vec![
                Span::raw(format!("{arrow}{:<2} ", s.seat)),
                Span::styled(mark, style),
                Span::raw(format!("{name}{you}{off}{score}")),
            ]));
        }
        f.render_widget(
            Paragraph::new(lines).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(format!(" players · {} watching ", room.view.spectators)),
            ),
            players,
        );
        f.render_widget(
            Paragraph::new(self.other_turn_lines(room))
                .block(Block::default().borders(Borders::ALL).title(" turn ")),
            turn,
        );
        let height = log.height.saturating_sub(2) as usize;
        let end = room.log.len().saturating_sub(self.scroll);
        let start = end.saturating_sub(height);
        let lines: Vec<Line> = room
            .log
            .iter()
            .skip(start)
            .take(end - start)
            .map(|l| {
                let style = if l.starts_with('<') {
                    Style::default().fg(Color::Cyan)
                } else if l.starts_with('!') {
                    Style::default().fg(Color::LightRed)
                } else {
                    Style::default()
                };
                Line::styled(l.clone(), style)
            })
            .collect();
        let title = if self.scroll > 0 {
            " log (PgDn) "
        } else {
            " log & chat "
        };
        f.render_widget(
            Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
            log,
        );
    }

    /// The turn box: whose move and what kind, the clock, the last move, a draw offer.
    fn other_turn_lines(&self, room: &SystemRoom) -> Vec<Line<'static>> {
        let mut out = Vec::new();
        match room.status() {
            Status::Waiting => {
                let free = room.seats().iter().filter(|s| s.name.is_none()).count();
                let mut l = format!("waiting for {free} more player(s); type ready when set");
                if let Some(code) = &self.invite {
                    l.push_str(&format!(" · invite code {code}"));
                }
                out.push(Line::from(l));
            }
            Status::Finished | Status::Closed => {
                let l = match room.view.result.as_ref().and_then(|r| r.winner.as_ref()) {
                    Some(w) => format!("game over · {} wins", room.winner_name(&w.to_string())),
                    None => "game over · a draw".to_string(),
                };
                out.push(Line::styled(
                    l,
                    Style::default().add_modifier(Modifier::BOLD),
                ));
            }
            Status::Playing => {
                let elapsed = self.now.saturating_sub(self.turn_since) / 1000;
                let clock = match room.view.options.turn_clock.flatten() {
                    Some(ms) => {
                        let left = (ms / 1000).saturating_sub(elapsed);
                        format!("{}:{:02} left", left / 60, left % 60)
                    }
                    None => format!("{}:{:02}", elapsed / 60, elapsed % 60),
                };
                let who = if room.my_turn() {
                    "YOUR TURN".to_string()
                } else {
                    let mover = room.view.turn.seat;
                    format!("{} ({mover}) to move", room.name_of(mover))
                };
                let style = if room.my_turn() {
                    Style::default()
                        .fg(Color::LightGreen)
                        .add_modifier(Modifier::BOLD)
                } else {
                    Style::default()
                };
                out.push(Line::styled(
                    format!("{who} · move {} · {clock}", room.view.turn.round),
                    style,
                ));
                match &room.copy {
                    GameCopy::Orbit(o) => out.push(Line::from(o.phase())),
                    GameCopy::Orbs(_) => out.push(Line::from("move: from-to (d2-e6) · draw")),
                }
            }
        }
        if let GameCopy::Orbit(o) = &room.copy {
            if room.status() != Status::Waiting {
                let t = o.territory();
                out.push(Line::from(format!(
                    "territory: black {} · white {}",
                    t.black, t.white
                )));
            }
        }
        if let Some((seat, mv)) = &room.last_move {
            out.push(Line::from(format!("last: {} {mv}", room.name_of(*seat))));
        }
        if !room.draw.is_empty() {
            let agreed: Vec<String> = room.draw.iter().map(|s| s.to_string()).collect();
            out.push(Line::styled(
                format!("draw offered · agreed: {} (draw accept)", agreed.join(" ")),
                Style::default()
                    .fg(Color::LightRed)
                    .add_modifier(Modifier::BOLD),
            ));
        }
        out
    }
}
