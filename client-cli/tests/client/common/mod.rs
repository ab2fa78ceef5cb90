//! Helpers shared by this crate's end-to-end tests.

// Each test module uses a part of them.
#![allow(dead_code)]

pub mod binary;
pub mod tmux;
