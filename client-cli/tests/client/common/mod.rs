//! Helpers shared by this crate's end-to-end tests.

// Each test binary compiles these and uses a part of them.
#![allow(dead_code)]

pub mod tmux;
