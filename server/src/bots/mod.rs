//! Computer players run by the server: a bounded pool of threads apart from the rooms'
//! runtime on which they think (`pool`), and their levels as the lobby shows them, with the
//! fixed rating a person plays against in a rated game (`level`). A room asks the pool for
//! a seat's decision and hears it as a message (`room/bots.rs`): a bot thinking never holds
//! a room's task, a broadcast or a clock.

mod level;
mod pool;

pub use level::{
    bot_player, is_bot_id, level_for_rating, level_of_id, rating_of_level, record_of_level,
    DEFAULT_LEVEL,
};
pub use pool::{BotGame, Pool, MAX_BOT_GAMES};

use crate::clock::Millis;

/// How long a computer player waits before claiming a chain made for it (a person's reaction:
/// the claim is one it sees at once, but it is not made faster than a person could). Capped at
/// half the room's claim window, so a short window still leaves it time.
pub const CLAIM_REACTION: Millis = 800;

/// How long `quick` with `bots: true` waits for people before computer players fill the seats
/// (`Config::bot_wait`, `--bot-wait`).
pub const BOT_WAIT: Millis = 10_000;
