//! ORION self-play: bots of two levels play whole games with the engine alone (no network),
//! for `orion bot --selfplay` and the tests.

use super::situation::situation_of;
use super::Bot;
use crate::bot::level::Level;
use crate::bot::tally::Tally;
use orion_engine::{games, Action, Game, Options, SeatInfo};

/// The most turns a self-play game may last before it counts as unfinished.
pub const SELFPLAY_TURNS: u32 = 400;

/// Plays `games` games of `game` between `a` and `b` with the engine alone (no network),
/// seating them alternately (`a` at the first seat in even games) so neither side always
/// moves first. With more seats than two, levels alternate round the table.
pub fn selfplay(
    game: &str,
    players: Option<u8>,
    a: Level,
    b: Level,
    games_n: u32,
    seed: u64,
) -> Result<Tally, String> {
    let rules = games::find(game).ok_or_else(|| format!("unknown game `{game}`"))?;
    let mut tally = Tally::default();
    for g in 0..games_n {
        let options = Options {
            players,
            claim_window: orion_engine::ClaimWindow::Auto,
            ..Options::default()
        };
        let mut game =
            Game::new(rules, options, seed.wrapping_add(g as u64)).map_err(|e| e.to_string())?;
        let seats: Vec<SeatInfo> = game.seats().to_vec();
        let level_of = |i: usize| {
            if (i + g as usize).is_multiple_of(2) {
                a
            } else {
                b
            }
        };
        let mut bots: Vec<Bot> = (0..seats.len())
            .map(|i| Bot::new(level_of(i), seed ^ ((g as u64) << 8) ^ i as u64))
            .collect();
        // Secrets (Algol) are chosen by every seat before the first move.
        for (i, seat) in seats.iter().enumerate() {
            let sit = situation_of(&game, seat.seat);
            if let Some(secret) = bots[i].secret(&sit) {
                game.step(seat.seat, secret, 0).map_err(|e| e.to_string())?;
            }
        }
        let mut actions = 0u32;
        while game.outcome().is_none() && game.round() <= SELFPLAY_TURNS / seats.len() as u32 {
            let mover = game.mover();
            let i = seats.iter().position(|s| s.seat == mover).unwrap_or(0);
            let sit = situation_of(&game, mover);
            let Some(action) = bots[i].act(&sit) else {
                break;
            };
            match game.step(mover, action, 0) {
                Ok(_) => {}
                Err(_) => {
                    // The bot misjudged a rule: any legal click, else the end of the turn.
                    let click = sit
                        .legal_clicks()
                        .into_iter()
                        .find(|&c| game.check_click(mover, c).is_ok());
                    let fallback = click.map_or(Action::EndTurn, |click| Action::Click {
                        click,
                        piece: None,
                    });
                    if game.step(mover, fallback, 0).is_err() {
                        break;
                    }
                }
            }
            actions += 1;
            tally.actions += 1;
            if actions > 20 * SELFPLAY_TURNS {
                break;
            }
        }
        match game.outcome().and_then(|o| o.winner) {
            Some(orion_engine::Winner::Seat(s)) => {
                let i = seats.iter().position(|x| x.seat == s).unwrap_or(0);
                if (i + g as usize).is_multiple_of(2) {
                    tally.first += 1;
                } else {
                    tally.second += 1;
                }
            }
            Some(orion_engine::Winner::Team(s, _)) => {
                let i = seats.iter().position(|x| x.seat == s).unwrap_or(0);
                if (i + g as usize).is_multiple_of(2) {
                    tally.first += 1;
                } else {
                    tally.second += 1;
                }
            }
            None => tally.unfinished += 1,
        }
    }
    Ok(tally)
}
