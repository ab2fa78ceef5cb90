//! The Orbs star drawn in rows: 17 rows, `q` at the top to `a` at the bottom, each hole at
//! its x coordinate (two screen columns a unit, so holes of a row stand four apart and the
//! rows interlock as on the board). An orb is its token (`RF`: red fire) in its colour; an
//! empty hole shows its place in the row, to read a move off the screen (`e` row, place 7 is
//! `e7`); a hole out of play is `░░`. The last move's holes carry a `*`.

use crate::systems::paint::{self, put};
use orion_orbs::{Colour, Hole, HoleSet, Move, Position};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;

/// Columns left of the star (row letters).
const LEFT: u16 = 3;
/// The widget's width: letters, 25 x-units of two columns, the last move's mark, letters.
pub const WIDTH: u16 = LEFT + 25 * 2 + 4;
/// Its height: 17 rows and the legend.
pub const HEIGHT: u16 = 18;

/// What to draw.
#[derive(Clone, Debug, Default)]
pub struct OrbsBoard {
    /// The orbs.
    pub position: Position,
    /// Holes out of play.
    pub holes: HoleSet,
    /// The last move.
    pub last: Option<Move>,
}

/// The terminal colour of an orb colour.
pub fn colour(c: Colour) -> Color {
    match c {
        Colour::Red => Color::LightRed,
        Colour::Blue => Color::LightBlue,
        Colour::Green => Color::LightGreen,
        Colour::Yellow => Color::Yellow,
        Colour::Orange => Color::Indexed(208),
        Colour::Purple => Color::LightMagenta,
    }
}

impl Widget for OrbsBoard {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let label = Style::default().fg(Color::Gray);
        for row in 0..17u16 {
            let y = 16 - row;
            let letter = ((b'a' + row as u8) as char).to_string();
            put(buf, area, 0, y, &letter, label);
            put(buf, area, WIDTH - 1, y, &letter, label);
        }
        let marked = |h: Hole| self.last.is_some_and(|m| m.from == h || m.to == h);
        for hole in Hole::all() {
            let y = 16 - hole.row() as u16;
            let x = LEFT + ((hole.x() + 12) * 2) as u16;
            let (text, style) = if self.holes.contains(hole) {
                ("░░".to_string(), Style::default().fg(Color::DarkGray))
            } else {
                match self.position.get(hole) {
                    Some(orb) => (
                        orb.to_string(),
                        Style::default()
                            .fg(colour(orb.colour))
                            .add_modifier(Modifier::BOLD),
                    ),
                    None => (
                        format!("{:>2}", hole.place()),
                        Style::default().fg(Color::DarkGray),
                    ),
                }
            };
            let style = if marked(hole) {
                style.add_modifier(Modifier::REVERSED)
            } else {
                style
            };
            put(buf, area, x, y, &text, style);
            if marked(hole) {
                put(
                    buf,
                    area,
                    x + 2,
                    y,
                    "*",
                    Style::default()
                        .fg(Color::Yellow)
                        .add_modifier(Modifier::BOLD),
                );
            }
        }
        put(
            buf,
            area,
            0,
            17,
            " F fire · W water · E earth · A air · V void · * last",
            label,
        );
    }
}

/// The star drawn as plain text lines (no colours), for tests.
pub fn to_text(board: OrbsBoard) -> String {
    paint::to_text(board, WIDTH, HEIGHT)
}
