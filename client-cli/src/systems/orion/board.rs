//! The board widget: the 5x5 rotors with the 60 slots between them, pieces in their colours
//! with their numbers. Each rotor is a box of 7x3 cells; a horizontal slot is the stretch of
//! line between two corners, a vertical slot the three cells around its line at mid-height.
//! The last click's rotor and the cursor are highlighted; slots to build on are marked `+`.

use crate::systems::paint::{self, put};
use orion_engine::{Click, Colour, Direction, Position, Rotor, Slot, SlotSet};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;

/// Columns from one grid line to the next.
const CELL_W: u16 = 8;
/// Rows from one grid line to the next.
const CELL_H: u16 = 4;
/// Columns left of the first grid line (row numbers).
const LEFT: u16 = 3;
/// The widget's size: 5 cells plus the labels.
pub const WIDTH: u16 = LEFT + 5 * CELL_W + 3;
/// Height: 5 cells, the last line and the column letters.
pub const HEIGHT: u16 = 5 * CELL_H + 2;

/// What to draw.
#[derive(Clone, Copy, Debug, Default)]
pub struct Board {
    /// The pieces.
    pub position: Position,
    /// Rotor under the cursor.
    pub cursor: Option<Rotor>,
    /// The last click, highlighted.
    pub last_click: Option<Click>,
    /// Slots the mover may build on.
    pub eligible: SlotSet,
    /// A slot picked for placing.
    pub picked: Option<Slot>,
}

/// The terminal colour of a piece colour.
pub fn colour(c: Colour) -> Color {
    match c {
        Colour::Red => Color::LightRed,
        Colour::Blue => Color::LightBlue,
        Colour::Green => Color::LightGreen,
        Colour::Yellow => Color::Yellow,
    }
}

/// Screen column of vertical grid line `x` (0..=5).
fn gx(x: u16) -> u16 {
    LEFT + x * CELL_W
}

/// Screen row of horizontal grid line `y` (0..=5, 0 at the bottom).
fn gy(y: u16) -> u16 {
    (5 - y) * CELL_H
}

impl Board {
    fn token(&self, slot: Slot) -> Option<(String, Style)> {
        let piece = self.position.get(slot)?;
        let style = Style::default()
            .fg(colour(piece.colour()))
            .add_modifier(Modifier::BOLD);
        Some((piece.to_string(), style))
    }
}

impl Widget for Board {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let line = Style::default().fg(Color::DarkGray);
        let label = Style::default().fg(Color::Gray);
        // Rotor interiors: name, highlight for the cursor and the last click.
        for rotor in Rotor::ALL {
            let (c, r) = (rotor.column() as u16, rotor.row() as u16);
            let x0 = gx(c) + 2;
            let y0 = gy(r + 1) + 1;
            let name_x = x0 + 1;
            let mut style = Style::default().fg(Color::DarkGray);
            let mut name = rotor.to_string();
            if self.last_click.is_some_and(|k| k.rotor == rotor) {
                style = style.fg(Color::White).add_modifier(Modifier::BOLD);
                if let Some(k) = self.last_click {
                    name = format!(
                        "{rotor}{}",
                        match k.direction {
                            Direction::Right => '↻',
                            Direction::Left => '↺',
                        }
                    );
                }
            }
            if self.cursor == Some(rotor) {
                style = style.bg(Color::Indexed(238)).fg(Color::White);
                for dy in 0..3 {
                    put(buf, area, x0, y0 + dy, "     ", style);
                }
            }
            put(buf, area, name_x, y0 + 1, &name, style);
        }
        // Grid corners and empty lines.
        for y in 0..=5u16 {
            for x in 0..=5u16 {
                put(buf, area, gx(x), gy(y), "·", line);
            }
        }
        for slot in Slot::ALL {
            let [(x1, y1), (x2, y2)] = slot.ends();
            let (x1, y1, x2, y2) = (x1 as u16, y1 as u16, x2 as u16, y2 as u16);
            let mark = self.eligible.contains(slot) || self.picked == Some(slot);
            let mark_style = if self.picked == Some(slot) {
                Style::default().fg(Color::Black).bg(Color::Cyan)
            } else {
                Style::default()
                    .fg(Color::Cyan)
                    .add_modifier(Modifier::BOLD)
            };
            if slot.is_horizontal() {
                let x = gx(x1.min(x2)) + 1;
                let y = gy(y1);
                put(buf, area, x, y, "───────", line);
                if let Some((t, style)) = self.token(slot) {
                    put(buf, area, x + 2, y, &t, style);
                } else if mark {
                    put(buf, area, x + 3, y, "+", mark_style);
                }
            } else {
                let x = gx(x1);
                let y = gy(y1.max(y2));
                for dy in 1..CELL_H {
                    put(buf, area, x, y + dy, "│", line);
                }
                if let Some((t, style)) = self.token(slot) {
                    put(buf, area, x - 1, y + 2, &format!("{t:^3}"), style);
                } else if mark {
                    put(buf, area, x, y + 2, "+", mark_style);
                }
            }
        }
        // Labels: row numbers on the left, column letters below.
        for r in 0..5u16 {
            let y = gy(r + 1) + 2;
            put(buf, area, 0, y, &format!("{}", r + 1), label);
        }
        for c in 0..5u16 {
            let x = gx(c) + CELL_W / 2;
            let letter = (b'A' + c as u8) as char;
            put(buf, area, x, gy(0) + 1, &letter.to_string(), label);
        }
    }
}

/// The board drawn as plain text lines (no colours), for tests and logs.
pub fn to_text(board: Board) -> String {
    paint::to_text(board, WIDTH, HEIGHT)
}
