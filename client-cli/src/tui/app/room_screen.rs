//! The room screen, whatever the room's game system: its board on the left; on the right the
//! players, the turn box and the log with chat. What fills each part is the system's
//! ([`crate::systems::Room`]); the layout and the log are the same for all.

use super::App;
use crate::systems::{self, screen::TurnClock};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

impl App {
    pub(super) fn draw_room(&self, f: &mut Frame, area: Rect) {
        let width = self
            .room
            .as_ref()
            .map_or(systems::WAITING_WIDTH, |r| r.board_width());
        let [left, right] =
            Layout::horizontal([Constraint::Length(width + 1), Constraint::Min(20)]).areas(area);
        let Some(room) = &self.room else {
            f.render_widget(Paragraph::new(" waiting for the room…"), right);
            return;
        };
        room.draw_board(f, left);
        let seats = room.seat_lines();
        let [players, turn, log] = Layout::vertical([
            Constraint::Length(seats.len() as u16 + 2),
            Constraint::Length(room.turn_height()),
            Constraint::Min(3),
        ])
        .areas(right);
        f.render_widget(
            Paragraph::new(seats).block(Block::default().borders(Borders::ALL).title(format!(
                " players · {} watching ",
                room.base().view.spectators
            ))),
            players,
        );
        let clock = TurnClock {
            now: self.now,
            since: self.turn_since,
            invite: self.invite.as_deref(),
        };
        f.render_widget(
            Paragraph::new(room.turn_lines(&clock))
                .block(Block::default().borders(Borders::ALL).title(" turn ")),
            turn,
        );
        let history = &room.base().log;
        let height = log.height.saturating_sub(2) as usize;
        let end = history.len().saturating_sub(self.scroll);
        let start = end.saturating_sub(height);
        let lines: Vec<Line> = history
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
}
