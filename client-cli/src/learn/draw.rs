//! What `orion learn` draws: the title bar; the lesson list with each lesson's progress; or a
//! lesson: its board on the left (the game system's own, as in a room), on the right the step
//! (`step N/M`, its text, what the board marks, the engine's reason for a wrong try), the
//! seats, the turn and the log of what happened; then the message line and the prompt.

use super::app::{Learn, Page, Phase, COMPUTER_LEVEL};
use crate::systems::screen::TurnClock;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

/// The keys of a step, as its box says them.
const STEP_KEYS: &str = "? hint · * set the step up again · type a move and Enter · lessons · quit";

impl Learn {
    /// Draws the screen.
    pub fn draw(&self, f: &mut Frame) {
        let [title, body, message, input] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(5),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(f.area());
        let head = match &self.lesson {
            Some(l) if self.page == Page::Lesson => {
                format!(" ORION · learn · {} · {}", l.title, self.status())
            }
            _ => " ORION · learn to play".to_string(),
        };
        f.render_widget(
            Paragraph::new(head).style(
                Style::default()
                    .bg(Color::Blue)
                    .fg(Color::White)
                    .add_modifier(Modifier::BOLD),
            ),
            title,
        );
        match self.page {
            Page::List => self.draw_list(f, body),
            Page::Lesson => self.draw_lesson(f, body),
        }
        if let Some((text, err)) = &self.message {
            let style = if *err {
                Style::default()
                    .fg(Color::LightRed)
                    .add_modifier(Modifier::BOLD)
            } else {
                Style::default().fg(Color::LightGreen)
            };
            f.render_widget(Paragraph::new(format!(" {text}")).style(style), message);
        }
        let prompt = Line::from(vec![
            Span::styled("> ", Style::default().fg(Color::Cyan)),
            Span::raw(self.input.as_str()),
            Span::styled("█", Style::default().fg(Color::DarkGray)),
        ]);
        f.render_widget(Paragraph::new(prompt), input);
    }

    fn draw_list(&self, f: &mut Frame, area: Rect) {
        let mut lines = vec![Line::styled(
            format!(
                " {:<29} {:<16} {:>5}  {:<6} {}",
                "lesson", "game", "steps", "done", "what it teaches"
            ),
            Style::default().add_modifier(Modifier::BOLD),
        )];
        if self.lessons.is_empty() {
            lines.push(Line::from(" (no lessons yet)"));
        }
        for (i, l) in self.lessons.iter().enumerate() {
            let text = format!(
                " {:<29} {:<16} {:>5}  {:<6} {}",
                l.title,
                l.game,
                l.steps,
                self.progress.mark_text(&l.id, l.steps),
                l.about
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
                    .title(" lessons · Up/Down, Enter starts one (or type its id) · q quits "),
            ),
            area,
        );
    }

    /// The step's box: status, text, the mark, the reason, the note, the keys.
    fn step_lines(&self) -> Vec<Line<'static>> {
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let mut lines = vec![Line::styled(self.status(), bold), Line::from("")];
        let Some(lesson) = &self.lesson else {
            return lines;
        };
        if self.phase == Phase::Done {
            lines.push(Line::from(format!("Lesson complete: {}.", lesson.title)));
            if let Some(note) = &self.note {
                lines.push(Line::styled(
                    note.clone(),
                    Style::default().fg(Color::LightGreen),
                ));
            }
            lines.push(Line::from(""));
            if let Some(game) = self.computer_game() {
                lines.push(Line::styled(
                    format!("c: play the computer at {game} (level {COMPUTER_LEVEL})"),
                    Style::default()
                        .fg(Color::Yellow)
                        .add_modifier(Modifier::BOLD),
                ));
            }
            lines.push(Line::from(
                "l or Enter: back to the lessons · * this lesson again · q quits",
            ));
            return lines;
        }
        if let Some(step) = lesson.steps.get(self.at) {
            lines.push(Line::from(step.text.clone()));
        }
        lines.push(Line::from(""));
        if let Some(target) = &self.target {
            lines.push(Line::styled(
                format!("▶ {target}"),
                Style::default()
                    .fg(Color::Yellow)
                    .add_modifier(Modifier::BOLD),
            ));
        }
        match self.phase {
            Phase::Trying => lines.push(Line::from("checking…")),
            Phase::Replies { .. } | Phase::Next { .. } => lines.push(Line::styled(
                "✓ done",
                Style::default().fg(Color::LightGreen),
            )),
            _ => {}
        }
        if let Some(reason) = &self.reason {
            lines.push(Line::styled(
                format!("✗ {reason}"),
                Style::default()
                    .fg(Color::LightRed)
                    .add_modifier(Modifier::BOLD),
            ));
        }
        if let Some(note) = &self.note {
            lines.push(Line::styled(
                note.clone(),
                Style::default().fg(Color::LightGreen),
            ));
        }
        lines.push(Line::styled(
            STEP_KEYS,
            Style::default().fg(Color::DarkGray),
        ));
        lines
    }

    fn draw_lesson(&self, f: &mut Frame, area: Rect) {
        let width = self
            .room
            .as_ref()
            .map_or(crate::systems::WAITING_WIDTH, |r| r.board_width());
        let [left, right] =
            Layout::horizontal([Constraint::Length(width + 1), Constraint::Min(20)]).areas(area);
        let Some(room) = &self.room else {
            f.render_widget(Paragraph::new(" loading the lesson…"), right);
            return;
        };
        room.draw_board(f, left);
        let seats = room.seat_lines();
        let [step, players, turn, log] = Layout::vertical([
            Constraint::Min(8),
            Constraint::Length(seats.len() as u16 + 2),
            Constraint::Length(room.turn_height()),
            Constraint::Length(7),
        ])
        .areas(right);
        let title = match &self.lesson {
            Some(l) => format!(" {} ", l.title),
            None => " lesson ".to_string(),
        };
        f.render_widget(
            Paragraph::new(self.step_lines())
                .wrap(Wrap { trim: false })
                .block(Block::default().borders(Borders::ALL).title(title)),
            step,
        );
        f.render_widget(
            Paragraph::new(seats).block(Block::default().borders(Borders::ALL).title(" players ")),
            players,
        );
        let clock = TurnClock {
            now: self.now,
            since: self.now,
            invite: None,
        };
        f.render_widget(
            Paragraph::new(room.turn_lines(&clock))
                .block(Block::default().borders(Borders::ALL).title(" turn ")),
            turn,
        );
        let history = &room.base().log;
        let height = log.height.saturating_sub(2) as usize;
        let lines: Vec<Line> = (history.iter().skip(history.len().saturating_sub(height)))
            .map(|l| Line::from(l.clone()))
            .collect();
        f.render_widget(
            Paragraph::new(lines).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(" what happened "),
            ),
            log,
        );
    }
}
