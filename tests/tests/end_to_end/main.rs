//! The end-to-end tests, as one test binary (one link instead of one a file): each module
//! was a test file of its own and reads as one, against real servers and the real
//! components (PostgreSQL, nats-server, Chromium, aiosmtpd) as their own processes. Run
//! one module with `cargo test -p orion-tests --test end_to_end MODULE::`.

mod accounts;
mod archive;
mod bots;
mod browser;
mod browser_bots;
mod browser_keys;
mod browser_puzzle;
mod browser_room;
mod catalogue;
mod chromium;
mod cluster;
mod cluster_faults;
mod cluster_lobby;
mod connection_limits;
mod correspondence;
mod durability;
mod ending;
mod front_door;
mod front_door_watchers;
mod games;
mod hardening;
mod hints;
mod learn;
mod limits;
mod moderation;
mod notify;
mod operator;
mod ops;
mod other_systems;
mod postgres;
mod progress;
mod proxy;
mod puzzle_help;
mod puzzles;
mod ratings;
mod records;
mod rolling_restart;
mod rules;
mod your_games;
