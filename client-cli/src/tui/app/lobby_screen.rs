//! The lobby screen: the room list with the selected row, and beside it the games with their
//! player counts, the commands and the puzzles (or the last leaderboard asked for).

use super::App;
use crate::lobby::{seat_list, taken};
use crate::systems;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

impl App {
    /// Who waits for a quick match, by game, and this client's own wait: nothing when
    /// nobody waits.
    fn waiting_lines(&self) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        if self.queued {
            lines.push(Line::styled(
                "waiting for a match · cancel",
                Style::default().fg(Color::Yellow),
            ));
        }
        for w in &self.waiting {
            // Two short lines: the side panel is 34 columns wide.
            lines.push(Line::from(format!(
                "{} waiting for {} ({})",
                w.count, w.game, w.players
            )));
            lines.push(Line::from(format!(
                "  play them: quick {} {}",
                w.game, w.players
            )));
        }
        if !lines.is_empty() {
            lines.push(Line::from(""));
        }
        lines
    }

    pub(super) fn draw_lobby(&self, f: &mut Frame, area: Rect) {
        let [list, side] =
            Layout::horizontal([Constraint::Min(40), Constraint::Length(34)]).areas(area);
        let mut lines = vec![Line::styled(
            format!(
                " {:<10} {:<16} {:<9} {:<6} {}",
                "room", "game", "status", "seats", "watching"
            ),
            Style::default().add_modifier(Modifier::BOLD),
        )];
        if self.rooms.is_empty() {
            lines.push(Line::from(" no open rooms yet: quick GAME or create GAME"));
        }
        for (i, r) in self.rooms.iter().enumerate() {
            // A waiting correspondence room is a seek: taken with `quick GAME days=N`.
            let seek = match r.options.days_per_move {
                Some(d) if r.status.as_str() == "waiting" => {
                    format!(
                        " · seeks a game, {d} days a move: quick {} days={d}",
                        r.game
                    )
                }
                Some(d) => format!(" · {d} days a move"),
                None => String::new(),
            };
            let text = format!(
                " {:<10} {:<16} {:<9} {:<6} {:<3} {}{seek}",
                r.room,
                r.game,
                r.status.as_str(),
                format!("{}/{}", taken(r), r.seats.len()),
                r.spectators,
                seat_list(r)
            );
            let style = if i == self.selected {
                Style::default().bg(Color::Indexed(238)).fg(Color::White)
            } else {
                Style::default()
            };
            lines.push(Line::styled(text, style));
        }
        f.render_widget(
            Paragraph::new(lines).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(" rooms · Up/Down, Enter joins (or watches a full room) "),
            ),
            list,
        );
        let list_of_games: Vec<String> =
            systems::ALL.iter().flat_map(|s| s.lobby_games()).collect();
        let mut help: Vec<Line> = self.waiting_lines();
        help.extend([
            Line::styled(
                "games (players)",
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Line::from(list_of_games.join(" · ")),
            Line::from(""),
        ]);
        for l in [
            "quick GAME [players]",
            "create GAME [private] [k=v…]",
            "  clicks= players= turn_clock=MS",
            "  claim_window=auto|MS",
            "join ROOM [SEAT] · code INVITE",
            "watch ROOM · help · quit",
        ] {
            help.push(Line::from(l));
        }
        let puzzles: Vec<&str> = systems::ALL.iter().flat_map(|s| s.puzzles()).collect();
        help.push(Line::from(""));
        help.push(Line::styled(
            "puzzles (alone): create PUZZLE",
            Style::default().add_modifier(Modifier::BOLD),
        ));
        help.push(Line::from(puzzles.join(" · ")));
        // The last board asked for (`top GAME`) takes the place of the game list.
        let (help, title) = if self.board.is_empty() {
            (help, " play ")
        } else {
            let lines = self.board.iter().map(|l| Line::from(l.as_str())).collect();
            (lines, " leaderboard (top GAME) ")
        };
        f.render_widget(
            Paragraph::new(help)
                .wrap(Wrap { trim: false })
                .block(Block::default().borders(Borders::ALL).title(title)),
            side,
        );
    }
}
