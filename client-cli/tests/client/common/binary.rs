//! The `orion` binary run as other tools run it: its arguments in, its output back.

use std::process::{Command, Output};

/// Runs `orion ARGS…` to its end.
pub fn orion(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_orion"))
        .args(args)
        .output()
        .expect("the orion binary runs")
}

/// What it printed on stdout, without the trailing newline.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim_end().to_string()
}
