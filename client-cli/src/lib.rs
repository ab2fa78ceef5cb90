//! The `orion` client library (the wire itself is the `orion-protocol` crate): a room followed
//! event by event, the connection with its saved token and resume, the terminal UI, and the
//! bots. The binary in `main.rs` only parses arguments and calls in here.

pub mod autoplay;
pub mod bot;
pub mod lobby;
pub mod mirror;
pub mod net;
pub mod replay;
pub mod room;
pub mod system;
pub mod tui;
pub mod wire;
