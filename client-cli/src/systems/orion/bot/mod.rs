//! The ORION bots: `random` plays a uniformly random legal action at every step; `greedy` looks
//! one move ahead with an evaluation (Hydra: chain distance, its own against its opponents';
//! Orion: captures, then how far its fences are from taking the whole board; the games of
//! places, [`value`]: how far its men are from where they must go). A bot sees a
//! [`Situation`] and answers with an engine [`Action`], so the same code plays through the
//! network and in offline self-play ([`selfplay`]). Every game rule beyond the five basic ones
//! is the engine's: the bot asks its copy of the game ([`super::mirror`]) what is legal.
//!
//! One file per concept: `situation` (what the bot knows), `evaluation` and `value` (how it
//! weighs a position), `search` (how it looks ahead), `selfplay`; the policy is here.

mod evaluation;
mod search;
pub mod selfplay;
mod situation;
pub mod value;

pub use selfplay::{selfplay, SELFPLAY_TURNS};
pub use situation::{situation, situation_of, Situation};

use crate::bot::level::Level;
use orion_engine::{Action, Allowance, Piece, Slot};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// A bot: a level and its own random source.
pub struct Bot {
    /// How it plays.
    pub level: Level,
    rng: rand::rngs::StdRng,
}

impl Bot {
    /// A bot of `level` whose random choices follow `seed`.
    pub fn new(level: Level, seed: u64) -> Bot {
        Bot {
            level,
            rng: rand::rngs::StdRng::seed_from_u64(seed),
        }
    }

    /// The next action in `sit`, or `None` when there is nothing to do.
    pub fn act(&mut self, sit: &Situation) -> Option<Action> {
        match sit.allowance {
            Allowance::DieOrThree => Some(match self.level {
                Level::Greedy => Action::Three,
                Level::Random if self.rng.gen_bool(0.5) => Action::Roll,
                Level::Random => Action::Three,
            }),
            Allowance::Die => Some(Action::Roll),
            Allowance::Place(rule) => {
                let slots = sit.place_slots(rule);
                let slot = match self.level {
                    Level::Random => slots.choose(&mut self.rng).copied(),
                    Level::Greedy => self.best_placement(sit, &slots),
                }?;
                Some(Action::Place { slot, from: None })
            }
            Allowance::Clicks(_) => Some(self.clicks_turn(sit)),
        }
    }

    /// The secret man to choose, when the game asks for one and the bot has none yet (Algol:
    /// before the first move, whoever's turn it is; [`Bot::act`] plays turns only). `random`
    /// takes any man; `greedy` the one nearest the edge it must reach.
    pub fn secret(&mut self, sit: &Situation) -> Option<Action> {
        let g = sit.game.as_ref()?;
        if g.secret(sit.me.seat).is_some() {
            return None;
        }
        let men: Vec<Slot> = sit.own(&sit.position).into_iter().collect();
        // Whether the game takes a secret man now at all, before any random choice.
        let any = Action::Secret {
            piece: sit.position.get(*men.first()?)?,
        };
        g.clone().step(sit.me.seat, any, 0).ok()?;
        let goal = sit.me.seat.edge().opposite();
        let slot = match self.level {
            Level::Random => men.choose(&mut self.rng).copied(),
            Level::Greedy => men
                .iter()
                .copied()
                .min_by_key(|&s| (value::edge_distance(s, goal), self.rng.gen::<u8>())),
        }?;
        let action = Action::Secret {
            piece: sit.position.get(slot)?,
        };
        g.clone()
            .step(sit.me.seat, action, 0)
            .is_ok()
            .then_some(action)
    }

    fn clicks_turn(&mut self, sit: &Situation) -> Action {
        let end = Action::EndTurn;
        let mechanics = sit.rules.mechanics();
        if !(mechanics.chains || mechanics.captures || mechanics.building) && sit.game.is_some() {
            return self.place_race(sit);
        }
        // Building first: a new piece is never a loss in the games that build.
        if sit.building() && !sit.eligible.is_empty() && sit.supply_left() {
            let build = match self.level {
                Level::Greedy => true,
                Level::Random => self.rng.gen_bool(0.5) || sit.moving.left() == 0,
            };
            if build {
                let slots: Vec<Slot> = sit.eligible.into_iter().collect();
                let slot = match self.level {
                    Level::Greedy => self.best_placement(sit, &slots),
                    Level::Random => slots.choose(&mut self.rng).copied(),
                };
                if let Some(slot) = slot {
                    return Action::Place { slot, from: None };
                }
            }
        }
        // All twenty on the board: greedy may move one of them to an eligible slot.
        if self.level == Level::Greedy
            && sit.building()
            && !sit.eligible.is_empty()
            && !sit.supply_left()
            && sit.rules.mechanics().captures
        {
            if let Some((slot, from)) = self.best_relocation(sit) {
                return Action::Place {
                    slot,
                    from: Some(from),
                };
            }
        }
        let clicks = sit.legal_clicks();
        if clicks.is_empty() {
            return end;
        }
        match self.level {
            Level::Random => {
                let stop = sit.may_end() && self.rng.gen_range(0..=clicks.len()) == 0;
                if stop {
                    end
                } else {
                    let c = clicks.choose(&mut self.rng).copied();
                    c.map_or(end, |click| Action::Click { click, piece: None })
                }
            }
            Level::Greedy => {
                let choice = if sit.rules.mechanics().chains {
                    self.chain_search(sit)
                } else {
                    self.one_click(sit, &clicks)
                };
                match choice {
                    Some(click) => Action::Click { click, piece: None },
                    None if sit.may_end() => end,
                    None => clicks
                        .choose(&mut self.rng)
                        .map_or(end, |&click| Action::Click { click, piece: None }),
                }
            }
        }
    }

    /// A turn of the games whose goal is a place on the board (every rule checked by the
    /// engine's copy of the game): a click, a challenge (Algol), or the end of the move.
    fn place_race(&mut self, sit: &Situation) -> Action {
        let challenges = sit.challenges();
        match self.level {
            Level::Random => {
                if !challenges.is_empty() && self.rng.gen_bool(CHALLENGE_ODDS) {
                    if let Some(&piece) = challenges.choose(&mut self.rng) {
                        return Action::Challenge { piece };
                    }
                }
                let clicks = sit.legal_clicks();
                let may_end = sit.may_end();
                let stop =
                    clicks.is_empty() || (may_end && self.rng.gen_range(0..=clicks.len()) == 0);
                match clicks.choose(&mut self.rng) {
                    Some(&click) if !stop => Action::Click { click, piece: None },
                    _ => Action::EndTurn,
                }
            }
            Level::Greedy => {
                if let Some(piece) = suspect(sit, &challenges) {
                    return Action::Challenge { piece };
                }
                match self.plan(sit) {
                    Some(click) => Action::Click { click, piece: None },
                    None => Action::EndTurn,
                }
            }
        }
    }
}

/// How often a random bot that could challenge (Algol) does.
const CHALLENGE_ODDS: f64 = 0.2;

/// The greedy bot's suspect (Algol): an in-line man of another player that is the nearest of
/// his men to the edge it must reach, and close to it. The man a player hurries forward is
/// likely his secret one.
fn suspect(sit: &Situation, challenges: &[Piece]) -> Option<Piece> {
    challenges.iter().copied().find(|&piece| {
        let Some(owner) = sit.seats.iter().find(|s| s.colour == piece.colour()) else {
            return false;
        };
        let goal = owner.seat.edge().opposite();
        let distance = |p: Piece| {
            sit.position
                .find(p)
                .map_or(u8::MAX, |s| value::edge_distance(s, goal))
        };
        let nearest = sit
            .position
            .of(owner.colour)
            .into_iter()
            .map(|s| value::edge_distance(s, goal))
            .min()
            .unwrap_or(u8::MAX);
        let d = distance(piece);
        d == nearest && d <= SUSPECT_DISTANCE
    })
}

/// How near its goal an in-line man must be for the greedy bot to challenge it.
const SUSPECT_DISTANCE: u8 = 3;

#[cfg(test)]
mod tests {
    use super::*;
    use orion_engine::{games, has_chain, parse_position, Colour, Edge, Game, Options, Seat};

    #[test]
    fn greedy_takes_a_winning_click() {
        // Red needs C3w; the piece on C3s... one click of B3 brings B3n? Build a position
        // where a single click completes the column.
        let p = parse_position("C1w:R1 C2w:R2 C3n:R3 C4w:R4 C5w:R5 A5n:B1").unwrap();
        let rules = games::find("hydra-2").unwrap();
        let game = Game::from_position(rules, Options::default(), 1, p, Seat::S, 5).unwrap();
        let sit = situation_of(&game, game.mover());
        let mut bot = Bot::new(Level::Greedy, 7);
        let Some(Action::Click { click, .. }) = bot.act(&sit) else {
            panic!("greedy should click");
        };
        let after = p.clicked(click);
        assert!(
            has_chain(after.of(Colour::Red), Edge::Bottom),
            "{click} does not win"
        );
    }
}
