//! Orbit's 16x16 board: columns `a`..`p` left to right, rows `1`..`16` bottom to top, three
//! screen columns a cell. Black stones `●`, white `○`; the last drop in brackets; empty cells
//! prohibited for the colour to drop `×`; empty cells of a colour's territory on a dark (black)
//! or light (white) ground. A legend under the board says what the marks mean.

use crate::systems::paint::{self, put};
use orion_orbit::{Board as Stones, Cell, CellSet, Stone, SIDE};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;

/// Columns left of the first cell (row numbers).
const LEFT: u16 = 3;
/// Screen columns a cell.
const PITCH: u16 = 3;
/// The widget's width: labels, 16 cells, labels.
pub const WIDTH: u16 = LEFT + SIDE as u16 * PITCH + 3;
/// Its height: letters, 16 rows, letters, the legend.
pub const HEIGHT: u16 = SIDE as u16 + 3;

/// What to draw.
#[derive(Clone, Copy, Debug, Default)]
pub struct OrbitBoard {
    /// The stones.
    pub stones: Stones,
    /// The last drop.
    pub last: Option<Cell>,
    /// The colour to drop now, if any.
    pub to_drop: Option<Stone>,
    /// Empty cells prohibited for it.
    pub prohibited: CellSet,
    /// Empty cells of black's territory.
    pub black_territory: CellSet,
    /// Empty cells of white's territory.
    pub white_territory: CellSet,
}

/// Screen row of board row `r` (0 = row 1, at the bottom).
fn sy(r: u8) -> u16 {
    1 + (SIDE - 1 - r) as u16
}

/// Screen column of the middle of column `c`.
fn sx(c: u8) -> u16 {
    LEFT + c as u16 * PITCH + 1
}

impl Widget for OrbitBoard {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let label = Style::default().fg(Color::Gray);
        let letters: String = (0..SIDE)
            .map(|c| format!(" {} ", (b'a' + c) as char))
            .collect();
        put(buf, area, LEFT, 0, &letters, label);
        put(buf, area, LEFT, SIDE as u16 + 1, &letters, label);
        for r in 0..SIDE {
            let y = sy(r);
            put(buf, area, 0, y, &format!("{:>2}", r + 1), label);
            put(buf, area, WIDTH - 2, y, &format!("{}", r + 1), label);
            for c in 0..SIDE {
                let Some(cell) = Cell::new(c, r) else {
                    continue;
                };
                let x = sx(c);
                let ground = if self.black_territory.contains(cell) {
                    Style::default().bg(Color::Indexed(236))
                } else if self.white_territory.contains(cell) {
                    Style::default().bg(Color::Indexed(250))
                } else {
                    Style::default()
                };
                let (text, style) = match self.stones.get(cell) {
                    Some(Stone::Black) => (
                        "●",
                        Style::default()
                            .fg(Color::LightMagenta)
                            .add_modifier(Modifier::BOLD),
                    ),
                    Some(Stone::White) => (
                        "○",
                        Style::default()
                            .fg(Color::White)
                            .add_modifier(Modifier::BOLD),
                    ),
                    None if self.prohibited.contains(cell) => ("×", ground.fg(Color::LightRed)),
                    None => ("·", ground.fg(Color::DarkGray)),
                };
                put(buf, area, x, y, text, style);
                if self.last == Some(cell) {
                    let mark = Style::default()
                        .fg(Color::Yellow)
                        .add_modifier(Modifier::BOLD);
                    put(buf, area, x - 1, y, "[", mark);
                    put(buf, area, x + 1, y, "]", mark);
                }
            }
        }
        let legend = match self.to_drop {
            Some(c) => format!(" ● black · ○ white · × no drop for {c} · [ ] last"),
            None => " ● black · ○ white · [ ] last".to_string(),
        };
        put(buf, area, 0, SIDE as u16 + 2, &legend, label);
    }
}

/// The board drawn as plain text lines (no colours), for tests.
pub fn to_text(board: OrbitBoard) -> String {
    paint::to_text(board, WIDTH, HEIGHT)
}
