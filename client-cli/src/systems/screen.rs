//! The pieces of a room screen every system draws alike: the turn box's waiting, game-over
//! and clock lines, the style of one's own turn, and a seat line's marks (the mover's arrow,
//! an empty seat, a sitter away, oneself). The room screen's layout is `tui`'s; what a
//! system puts in it is its own.

use super::base::Base;
use orion_protocol::Seat as WireSeat;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;

/// What the turn box needs besides the room: the time, when the turn began, the invite code.
#[derive(Clone, Copy, Debug)]
pub struct TurnClock<'a> {
    /// The time now (ms since the epoch).
    pub now: u64,
    /// When the current turn began (ms).
    pub since: u64,
    /// Invite code of our private room.
    pub invite: Option<&'a str>,
}

impl TurnClock<'_> {
    /// Seconds since the turn began.
    pub fn elapsed(&self) -> u64 {
        self.now.saturating_sub(self.since) / 1000
    }

    /// The turn's clock: time left of a turn clock of `limit` ms, else time taken.
    pub fn text(&self, limit: Option<u64>) -> String {
        let elapsed = self.elapsed();
        match limit {
            Some(ms) => {
                let left = (ms / 1000).saturating_sub(elapsed);
                format!("{}:{:02} left", left / 60, left % 60)
            }
            None => format!("{}:{:02}", elapsed / 60, elapsed % 60),
        }
    }

    /// A room still filling up: the seats free, whether this client's seat said `ready`
    /// (a correspondence seek's has, as it sat), and the invite code of a private one.
    pub fn waiting(&self, free: usize, ready: bool) -> Line<'static> {
        let mut l = match ready {
            true => format!("waiting for {free} more player(s); you are ready"),
            false => format!("waiting for {free} more player(s); type ready when set"),
        };
        if let Some(code) = self.invite {
            l.push_str(&format!(" · invite code {code}"));
        }
        Line::from(l)
    }
}

/// The turn box's line of a game's end, in bold.
pub fn over(text: String) -> Line<'static> {
    Line::styled(text, Style::default().add_modifier(Modifier::BOLD))
}

/// How the game's end reads in the turn box: the winner, or a draw.
pub fn over_text(base: &Base) -> String {
    match base.view.result.as_ref().and_then(|r| r.winner.as_ref()) {
        Some(w) => format!("game over · {} wins", base.winner_name(&w.to_string())),
        None => "game over · a draw".to_string(),
    }
}

/// The turn line's style: bright when the move is this client's.
pub fn turn_style(mine: bool) -> Style {
    if mine {
        Style::default()
            .fg(Color::LightGreen)
            .add_modifier(Modifier::BOLD)
    } else {
        Style::default()
    }
}

/// The marks of one seat line: the mover's arrow, the sitter's name (or `(empty)`), and
/// ` (you)` / ` (away)` after it.
pub struct SeatMarks {
    /// `▶` for the seat to move, else a space.
    pub arrow: &'static str,
    /// The sitter's name, or `(empty)`.
    pub name: String,
    /// ` (you)` for this client's seat.
    pub you: &'static str,
    /// ` (away)` for a sitter not connected.
    pub off: &'static str,
}

impl SeatMarks {
    /// The marks of `seat` in `base`; `moving` when it is the seat to move.
    pub fn of(base: &Base, seat: WireSeat, moving: bool) -> SeatMarks {
        let sitter = base.view.seats.get(&seat).and_then(Option::as_ref);
        SeatMarks {
            arrow: if moving { "▶" } else { " " },
            name: sitter.map_or_else(|| "(empty)".to_string(), |s| s.name.clone()),
            you: if Some(seat) == base.me { " (you)" } else { "" },
            off: if sitter.is_some_and(|s| !s.connected) {
                " (away)"
            } else {
                ""
            },
        }
    }
}
