//! What every board widget paints with: text put at a place in the widget's area (clipped to
//! it), and a widget drawn as plain text lines (no colours), for tests and logs.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

/// Writes `text` from column `x`, row `y` of `area` in `style`, cut off at its edge.
pub fn put(buf: &mut Buffer, area: Rect, x: u16, y: u16, text: &str, style: Style) {
    for (i, ch) in text.chars().enumerate() {
        let cx = area.x + x + i as u16;
        let cy = area.y + y;
        if cx < area.right() && cy < area.bottom() {
            buf[(cx, cy)].set_char(ch).set_style(style);
        }
    }
}

/// `widget` drawn in `width` x `height` cells as plain text lines, trailing blanks cut.
pub fn to_text(widget: impl Widget, width: u16, height: u16) -> String {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    widget.render(area, &mut buf);
    let mut out = String::new();
    for y in 0..height {
        let mut row = String::new();
        for x in 0..width {
            row.push_str(buf[(x, y)].symbol());
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}
