//! The chat rate limit: at most [`CHAT_PER_MINUTE`] lines from one player in any minute,
//! across every room he is in (a flooder cannot spread over rooms). Counted on the node his
//! connection is on, in memory: a restart forgets it, which costs a flooder nothing he could
//! not get by waiting a minute.

use super::CHAT_PER_MINUTE;
use crate::clock::Millis;
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

/// The window the limit counts over.
const MINUTE: Millis = 60_000;
/// Players tracked before the idle ones are swept out (bounds the map).
const SWEEP_AT: usize = 10_000;

/// When each player's recent chat lines were sent.
#[derive(Debug, Default)]
pub struct ChatLimit {
    /// Player id → the times of his lines in the last minute, oldest first.
    sent: Mutex<HashMap<String, VecDeque<Millis>>>,
}

impl ChatLimit {
    /// Counts a line from `player` at `now`; `Err(ms)` when he is over the limit, with how
    /// long until he may chat again (the line is not counted).
    pub fn take(&self, player: &str, now: Millis) -> Result<(), Millis> {
        let Ok(mut sent) = self.sent.lock() else {
            return Ok(()); // a panic elsewhere poisoned it: chat stays open
        };
        if sent.len() >= SWEEP_AT {
            sent.retain(|_, times| times.back().is_some_and(|t| now < t + MINUTE));
        }
        let times = sent.entry(player.to_owned()).or_default();
        while times.front().is_some_and(|t| now >= t + MINUTE) {
            times.pop_front();
        }
        if times.len() >= CHAT_PER_MINUTE {
            let oldest = times.front().copied().unwrap_or(now);
            return Err((oldest + MINUTE).saturating_sub(now).max(1));
        }
        times.push_back(now);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_past_the_limit_waits_until_his_oldest_line_is_a_minute_old() {
        let limit = ChatLimit::default();
        for i in 0..CHAT_PER_MINUTE as u64 {
            assert_eq!(limit.take("p1", 1_000 + i), Ok(()));
        }
        assert_eq!(limit.take("p1", 2_000), Err(59_000));
        assert_eq!(
            limit.take("p2", 2_000),
            Ok(()),
            "another player is not held"
        );
        assert_eq!(limit.take("p1", 61_000), Ok(()));
    }
}
