//! The whole frame: the title bar (the lobby, or the room's own title), the help or the
//! screen that is up, the message line and the prompt.

use super::{App, Screen};
use crate::tui::input;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

impl App {
    /// Draws the screen.
    pub fn draw(&self, f: &mut Frame) {
        let area = f.area();
        let [title, body, message, input] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(5),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(area);
        let conn = if self.connected { "" } else { " · offline" };
        let head = match (&self.room, self.screen) {
            (Some(r), Screen::Room) => format!("{}{conn}", r.title()),
            _ => format!(" ORION ONLINE · {}{conn}", self.name),
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
        if self.help {
            let lines: Vec<Line> = input::help().into_iter().map(Line::from).collect();
            f.render_widget(
                Paragraph::new(lines).wrap(Wrap { trim: false }).block(
                    Block::default()
                        .borders(Borders::ALL)
                        .title(" help (Esc closes) "),
                ),
                body,
            );
        } else {
            match self.screen {
                Screen::Lobby => self.draw_lobby(f, body),
                Screen::Room => self.draw_room(f, body),
            }
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
}
