//! The terminal client's tests, one test binary (each file a module, as it was a binary of
//! its own: one link of the server and the client instead of ten). Run one file's tests with
//! `cargo test -p orion-cli --test client MODULE::`.

mod common;

mod bots;
mod computer;
mod learn;
mod learn_tmux;
mod offline;
mod offline_orbit;
mod offline_orbs;
mod replay;
mod screens;
mod tui_tmux;
