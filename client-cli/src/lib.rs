//! The `orion` client library (the wire itself is the `orion-protocol` crate): the game
//! systems behind one seam (`systems`: a room followed event by event, its screen, its bots,
//! its replay), the connection with its saved token and resume, the terminal UI, the lessons
//! (`orion learn`), the bots at a server, and `orion replay`. The binary in `main.rs` only parses arguments and calls in
//! here.

pub mod autoplay;
pub mod bot;
pub mod dates;
pub mod learn;
pub mod lobby;
pub mod net;
pub mod replay;
pub mod systems;
pub mod tui;
