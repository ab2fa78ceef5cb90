//! A key, as the terminal layer hands it over: what the screens (and a room's board, through
//! its game system's `Room::key`) are given to react to.

/// A key, as the terminal layer hands it over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A printable character.
    Char(char),
    /// Enter.
    Enter,
    /// Backspace.
    Backspace,
    /// Escape.
    Esc,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Tab.
    Tab,
    /// Page up (log).
    PageUp,
    /// Page down (log).
    PageDown,
    /// Ctrl-C.
    Interrupt,
}
