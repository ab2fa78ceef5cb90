//! Ratings: a finished game's places, and the new ratings they give, by the `skillratings`
//! crate's Weng-Lin (a Bayesian rating like TrueSkill: 2 players, 3–4 players by finishing
//! place, and teams, as in Hydra for Partners or Orbs with partners). Nothing here is
//! hand-written but the places.
//!
//! Places: the winner (seat or team) first, the other sides by points, equal points tying;
//! with no winner the sides that finished tie (a draw). A side that ran out of time or left
//! the game (abandoned it, or was away past its seat hold) loses: it comes below every side
//! that finished, and all such sides tie, whatever order they went in (so nobody gains by
//! leaving last). Only claimed accounts are rated.
//!
//! The pair window: at most [`PAIR_GAMES`] rated games of one game between the same two
//! accounts in [`PAIR_WINDOW`] count; beyond, a game is played unrated.
//!
//! A rating is shown as 60 × μ rounded: 1500 for a newcomer (μ 25, σ 25/3), the scale
//! players know from Elo.

use crate::store::RatingRecord;
use orion_protocol::{GameResult, Seat};
use skillratings::weng_lin::{
    weng_lin, weng_lin_multi_team, weng_lin_two_teams, WengLinConfig, WengLinRating,
};
use skillratings::{MultiTeamOutcome, Outcomes};

/// Shown rating per point of μ.
pub const SHOWN_PER_MU: f64 = 60.0;

/// Most rated games of one game that the same two accounts may play in [`PAIR_WINDOW`]; more
/// are played unrated (`start` says `rated: false`). Five lets a best-of-five match between
/// friends count whole, while two accounts of one person farming each other get five results
/// a day at most (Weng-Lin moves a newcomer some 150 points a game at first, less as σ
/// falls): a rating is earned against many opponents, not one.
pub const PAIR_GAMES: u32 = 5;
/// The pair window: the last 24 hours (server time), rolling.
pub const PAIR_WINDOW: crate::clock::Millis = 24 * 3_600_000;

/// The rating a player starts from (and a guest plays at).
pub fn newcomer() -> RatingRecord {
    let r = WengLinRating::new();
    RatingRecord {
        mu: r.rating,
        sigma: r.uncertainty,
        games: 0,
    }
}

/// The number shown for a rating.
pub fn shown(r: &RatingRecord) -> i32 {
    (r.mu * SHOWN_PER_MU).round() as i32
}

/// How each side of a game ended, to place it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// Its seats (one, or partners).
    pub seats: Vec<Seat>,
}

/// The place (1 best, equal places tie) of each of `sides`: `result` as the game gave it,
/// `timed_out` the seat that lost on time, `left` the seats that left a game in play (their
/// order does not matter: every side that left or ran out of time ties last).
pub fn places(
    sides: &[Side],
    result: &GameResult,
    timed_out: Option<Seat>,
    left: &[Seat],
) -> Vec<usize> {
    let winner = result.winner.as_ref().map(|w| w.seats().to_vec());
    // Lower is better: (how it ended, winner or not, points less).
    let keys: Vec<(usize, u8, i64)> = sides
        .iter()
        .map(|side| {
            let gone = side.seats.iter().any(|s| left.contains(s))
                || timed_out.is_some_and(|t| side.seats.contains(&t));
            let points: i64 = side
                .seats
                .iter()
                .map(|s| i64::from(result.scores.get(s).copied().unwrap_or(0)))
                .sum();
            let won = winner
                .as_ref()
                .is_some_and(|w| side.seats.iter().any(|s| w.contains(s)));
            match gone {
                true => (1, 0, 0),
                false if winner.is_none() => (0, 0, 0),
                false => (0, u8::from(!won), -points),
            }
        })
        .collect();
    keys.iter()
        .map(|k| 1 + keys.iter().filter(|other| *other < k).count())
        .collect()
}

/// The new ratings of `sides` (each side's players' ratings, in its seats' order) placed as
/// `places` says, by Weng-Lin with the crate's default configuration: its one-to-one function
/// for two players, its two-team function for two teams, its multi-team function otherwise.
pub fn rate(sides: &[Vec<RatingRecord>], places: &[usize]) -> Vec<Vec<RatingRecord>> {
    let config = WengLinConfig::new();
    let wl = |r: &RatingRecord| WengLinRating::from((r.mu, r.sigma));
    let back = |old: &RatingRecord, new: WengLinRating| RatingRecord {
        mu: new.rating,
        sigma: new.uncertainty,
        games: old.games + 1,
    };
    let teams: Vec<Vec<WengLinRating>> = sides.iter().map(|s| s.iter().map(wl).collect()).collect();
    let new: Vec<Vec<WengLinRating>> = match (teams.as_slice(), places) {
        ([a], _) => vec![a.clone()],
        ([a, b], [pa, pb]) => {
            let outcome = match pa.cmp(pb) {
                std::cmp::Ordering::Less => Outcomes::WIN,
                std::cmp::Ordering::Equal => Outcomes::DRAW,
                std::cmp::Ordering::Greater => Outcomes::LOSS,
            };
            if let ([one], [two]) = (a.as_slice(), b.as_slice()) {
                let (x, y) = weng_lin(one, two, &outcome, &config);
                vec![vec![x], vec![y]]
            } else {
                let (x, y) = weng_lin_two_teams(a, b, &outcome, &config);
                vec![x, y]
            }
        }
        _ => {
            let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
                .iter()
                .zip(places)
                .map(|(t, &p)| (t.as_slice(), MultiTeamOutcome::new(p)))
                .collect();
            weng_lin_multi_team(&ranked, &config)
        }
    };
    sides
        .iter()
        .zip(new)
        .map(|(old, new)| old.iter().zip(new).map(|(o, n)| back(o, n)).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use orion_protocol::Winner;
    use std::collections::BTreeMap;

    fn result(winner: Option<Winner>, scores: &[(Seat, u32)]) -> GameResult {
        GameResult {
            winner,
            scores: scores.iter().copied().collect::<BTreeMap<_, _>>(),
            orion: Default::default(),
            end: None,
            orbit: Default::default(),
        }
    }

    fn alone(seats: &[Seat]) -> Vec<Side> {
        seats.iter().map(|&s| Side { seats: vec![s] }).collect()
    }

    #[test]
    fn the_winner_is_first_and_the_rest_go_by_points_with_ties() {
        use Seat::*;
        let sides = alone(&[S, W, N, E]);
        let r = result(Some(Winner::seat(N)), &[(S, 3), (W, 5), (N, 4), (E, 3)]);
        assert_eq!(places(&sides, &r, None, &[]), vec![3, 2, 1, 3]);
    }

    #[test]
    fn no_winner_is_a_draw_but_time_and_leaving_lose_whatever_their_order() {
        use Seat::*;
        let sides = alone(&[S, W, N, E]);
        let draw = result(None, &[(S, 1), (W, 9), (N, 0), (E, 0)]);
        assert_eq!(places(&sides, &draw, None, &[]), vec![1, 1, 1, 1]);
        // E ran out of time, W left, then S: all three lose, tied, below N.
        assert_eq!(places(&sides, &draw, Some(E), &[W, S]), vec![2, 2, 1, 2]);
        assert_eq!(places(&sides, &draw, Some(E), &[S, W]), vec![2, 2, 1, 2]);
        // Everyone left: the last to go gains nothing by it.
        assert_eq!(places(&alone(&[S, N]), &draw, None, &[N, S]), vec![1, 1]);
        // A leaver loses even to a side the game's result put below him.
        let won = result(Some(Winner::seat(W)), &[(S, 0), (W, 9), (N, 0), (E, 0)]);
        assert_eq!(places(&sides, &won, None, &[W]), vec![1, 4, 1, 1]);
    }

    #[test]
    fn partners_are_placed_together() {
        use Seat::*;
        let sides = vec![Side { seats: vec![S, N] }, Side { seats: vec![W, E] }];
        let r = result(Winner::team([W, E]), &[(S, 2), (N, 2), (W, 1), (E, 1)]);
        assert_eq!(places(&sides, &r, None, &[]), vec![2, 1]);
        assert_eq!(places(&sides, &r, None, &[E]), vec![1, 2]);
    }

    #[test]
    fn a_win_moves_both_ratings_as_the_crate_says() {
        let a = RatingRecord {
            mu: 30.0,
            sigma: 5.0,
            games: 4,
        };
        let b = newcomer();
        let new = rate(&[vec![a], vec![b]], &[2, 1]);
        let (x, y) = weng_lin(
            &WengLinRating::from((30.0, 5.0)),
            &WengLinRating::new(),
            &Outcomes::LOSS,
            &WengLinConfig::new(),
        );
        assert_eq!((new[0][0].mu, new[0][0].sigma), (x.rating, x.uncertainty));
        assert_eq!((new[1][0].mu, new[1][0].sigma), (y.rating, y.uncertainty));
        assert_eq!((new[0][0].games, new[1][0].games), (5, 1));
        assert!(new[1][0].mu > 25.0 && new[0][0].mu < 30.0);
        assert_eq!(shown(&b), 1500);
    }
}
