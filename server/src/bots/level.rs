//! A computer player's level as the lobby shows it: its name, its player id, the fixed
//! rating a person's rating moves against in a rated game with it, and the level offered to a
//! person of a given rating.
//!
//! The ratings are provisional: the ladder (`orion-ai`'s `ladder`) will measure each level on
//! the players' Weng-Lin scale and replace this table. They are spread as a first guess:
//! level 1 (a random mover) well below a newcomer's 1500, level 4 at it, level 8 a strong
//! club player's.

use crate::player::Player;
use crate::store::RatingRecord;
use std::sync::Arc;

/// The level `add_bot` seats when none is named.
pub const DEFAULT_LEVEL: u8 = 4;

/// Each level's shown rating, level 1 first (provisional: see the module's comment).
const RATINGS: [i32; 8] = [700, 1100, 1350, 1500, 1650, 1800, 1950, 2100];

/// How sure the table is of each level's rating, as a Weng-Lin σ: a third of a newcomer's
/// (25/3), as for an account with some fifty games; a bot's rating never moves.
const SIGMA: f64 = 25.0 / 9.0;

/// The shown rating of `level` (1..=8; anything else is clamped into it).
pub fn rating_of_level(level: u8) -> i32 {
    RATINGS[usize::from(level.clamp(1, 8)) - 1]
}

/// `level`'s fixed rating as the rating code reads one (a shown rating is 60 × μ).
pub fn record_of_level(level: u8) -> RatingRecord {
    RatingRecord {
        mu: f64::from(rating_of_level(level)) / 60.0,
        sigma: SIGMA,
        games: 0,
    }
}

/// The level whose rating is nearest `rating` (a guest, with none, plays level
/// [`DEFAULT_LEVEL`]): what `quick` with `bots` seats.
pub fn level_for_rating(rating: Option<i32>) -> u8 {
    let Some(rating) = rating else {
        return DEFAULT_LEVEL;
    };
    (1..=8u8)
        .min_by_key(|&l| (rating_of_level(l) - rating).abs())
        .unwrap_or(DEFAULT_LEVEL)
}

/// The name a computer player of `level` shows.
pub fn bot_name(level: u8) -> String {
    format!("Computer (level {level})")
}

/// The player a computer player of `level` sits as. Its id, `bot:LEVEL`, has a colon, which
/// no person's id has, so it never names an account, a rating or a leaderboard line.
pub fn bot_player(level: u8) -> Player {
    Player {
        id: Arc::from(format!("bot:{level}")),
        name: Arc::from(bot_name(level)),
    }
}

/// Whether a player id is a computer player's.
pub fn is_bot_id(id: &str) -> bool {
    id.starts_with("bot:")
}

/// The level of a computer player's id (`bot:4` → 4).
pub fn level_of_id(id: &str) -> Option<u8> {
    id.strip_prefix("bot:")?
        .parse()
        .ok()
        .filter(|l| (1..=8).contains(l))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rating_gets_the_nearest_level_and_a_guest_the_middle_one() {
        assert_eq!(level_for_rating(None), DEFAULT_LEVEL);
        assert_eq!(level_for_rating(Some(1500)), 4);
        assert_eq!(level_for_rating(Some(400)), 1);
        assert_eq!(level_for_rating(Some(1900)), 7);
        assert_eq!(level_for_rating(Some(3000)), 8);
    }

    #[test]
    fn each_level_is_rated_above_the_one_below() {
        assert!(RATINGS.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(crate::rating::shown(&record_of_level(4)), 1500);
    }
}
