//! The Orbs bots as pure policies over the engine: `random` plays a uniformly random legal
//! move; `greedy` tries every legal move on a copy of the game and keeps the best by an
//! evaluation (the result if the move ends the game; orbs on each side; its orbs an enemy
//! could take next; enemy orbs it threatens; how far its hunters are from their prey), and
//! [`selfplay`] pits two levels against each other offline.

use crate::bot::level::Level;
use crate::bot::tally::Tally;
use orion_orbs::{Clash, Element, Game, Hole, Move, Options, Orb, Outcome, Seat};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// An Orbs bot: a level and its own random source.
pub struct OrbsBot {
    /// How it plays.
    pub level: Level,
    /// Breaks ties (greedy) or chooses outright (random).
    rng: rand::rngs::StdRng,
}

impl OrbsBot {
    /// A bot of `level` whose random choices follow `seed`.
    pub fn new(level: Level, seed: u64) -> OrbsBot {
        OrbsBot {
            level,
            rng: rand::rngs::StdRng::seed_from_u64(seed),
        }
    }

    /// The move to play now, or `None` when the game is over.
    pub fn choose(&mut self, game: &Game) -> Option<Move> {
        choose(self.level, game, &mut self.rng)
    }
}

/// The move `level` plays in `game` for the player to move; `None` once the game is over.
pub fn choose(level: Level, game: &Game, rng: &mut impl Rng) -> Option<Move> {
    let moves = game.legal_moves();
    match level {
        Level::Random => moves.choose(rng).copied(),
        Level::Greedy => {
            let me = game.mover()?;
            let mut best: Vec<Move> = Vec::new();
            let mut best_score = i64::MIN;
            for mv in moves {
                let mut next = game.clone();
                if next.play(mv).is_err() {
                    continue;
                }
                let score = evaluate(&next, me);
                if score > best_score {
                    best_score = score;
                    best.clear();
                }
                if score == best_score {
                    best.push(mv);
                }
            }
            best.choose(rng).copied()
        }
    }
}

/// What an orb on the board is worth.
const ORB: i64 = 1000;
/// Losing a game is worse than any position, a draw nearly so when playing to win.
const WON: i64 = 1_000_000_000;
const DRAWN: i64 = -1_000_000;

/// How good `game` is for `me`, who has just moved (so an enemy moves next).
pub fn evaluate(game: &Game, me: Seat) -> i64 {
    if let Some(outcome) = game.outcome() {
        return match outcome {
            Outcome::Win(w) if w.includes(me) => WON - i64::from(game.moves_played()),
            Outcome::Win(_) => -WON,
            Outcome::Draw(_) => DRAWN,
        };
    }
    let Some(my_colour) = game.colour_of(me) else {
        return 0;
    };
    let mine: Vec<(Hole, Orb)> = game
        .position()
        .orbs()
        .filter(|(_, o)| game.allied(o.colour, my_colour))
        .collect();
    let theirs: Vec<(Hole, Orb)> = game
        .position()
        .orbs()
        .filter(|(_, o)| !game.allied(o.colour, my_colour))
        .collect();
    // Material, and a small reward for every enemy orb gone so that even trades are taken.
    let mut score = ORB * (mine.len() as i64 - theirs.len() as i64) - 50 * theirs.len() as i64;
    for &(h, orb) in &mine {
        // An enemy next to this orb that would win moving onto it: the orb is en prise.
        let attacked = theirs.iter().any(|&(t, enemy)| {
            t.is_adjacent(h) && enemy.element.clash(orb.element) == Clash::MoverWins
        });
        if attacked {
            score -= 600;
        }
    }
    for &(t, enemy) in &theirs {
        // One of ours could take it next turn.
        if mine.iter().any(|&(h, orb)| {
            h.is_adjacent(t) && orb.element.clash(enemy.element) == Clash::MoverWins
        }) {
            score += 250;
        }
        // The nearest of our orbs that beats it: the hunt closes in.
        let hunter = mine
            .iter()
            .filter(|(_, orb)| hunts(orb.element, enemy.element))
            .map(|(h, _)| h.distance(t) as i64)
            .min();
        if let Some(d) = hunter {
            score -= 10 * d;
        }
    }
    // Every orb drifts towards some prey, so the army does not wait at home.
    for &(h, orb) in &mine {
        let prey = theirs
            .iter()
            .filter(|(_, enemy)| hunts(orb.element, enemy.element))
            .map(|(t, _)| h.distance(*t) as i64)
            .min();
        if let Some(d) = prey {
            score -= 2 * d;
        }
    }
    score
}

/// Whether an orb of `hunter` should chase one of `prey`: it wins the meeting, or trades
/// (void trades with anything, so it hunts too).
fn hunts(hunter: Element, prey: Element) -> bool {
    matches!(hunter.clash(prey), Clash::MoverWins | Clash::Both)
}

/// The most moves a self-play game may last; the engine's own draws end every game far
/// sooner (at most 100 quiet moves per orb removed).
const SELFPLAY_MOVES: u32 = 10_000;

/// Plays `games` games of Orbs (classic opening, `players` players, default 2) between `a`
/// and `b`, seating them alternately (`a` at the first seat in even games) so neither side
/// always moves first. Draws count as unfinished; `actions` counts moves.
pub fn selfplay(
    players: Option<u8>,
    a: Level,
    b: Level,
    games: u32,
    seed: u64,
) -> Result<Tally, String> {
    let players = players.unwrap_or(2);
    let mut tally = Tally::default();
    for g in 0..games {
        let mut game = Game::new(Options {
            players,
            ..Options::default()
        })
        .map_err(|e| e.to_string())?;
        let seats = game.seats();
        let first_side = |i: usize| (i + g as usize).is_multiple_of(2);
        let mut bots: Vec<OrbsBot> = (0..seats.len())
            .map(|i| {
                let level = if first_side(i) { a } else { b };
                OrbsBot::new(level, seed ^ (u64::from(g) << 8) ^ i as u64)
            })
            .collect();
        while let Some(mover) = game.mover() {
            if game.moves_played() >= SELFPLAY_MOVES {
                break;
            }
            let i = seats.iter().position(|&s| s == mover).unwrap_or(0);
            let Some(mv) = bots[i].choose(&game) else {
                break;
            };
            game.play(mv).map_err(|e| e.to_string())?;
            tally.actions += 1;
        }
        let winner = match game.outcome() {
            Some(Outcome::Win(w)) => seats.iter().position(|&s| w.includes(s)),
            _ => None,
        };
        match winner {
            Some(i) if first_side(i) => tally.first += 1,
            Some(_) => tally.second += 1,
            None => tally.unfinished += 1,
        }
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use orion_orbs::Opening;

    fn game(position: &str) -> Game {
        Game::new(Options {
            opening: Opening::Position(Box::new(position.parse().expect("position parses"))),
            ..Options::default()
        })
        .expect("game starts")
    }

    #[test]
    fn greedy_takes_the_winning_capture_and_avoids_the_losing_one() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        // Red fire next to blue's last orb, air: burn it.
        let g = game("i5:RF i6:BA a1:RW");
        assert_eq!(choose(Level::Greedy, &g, &mut rng), "i5-i6".parse().ok());
        // Red air next to blue fire: never walk into it; step out of its reach instead.
        let g = game("i5:RA i6:BF a1:RW q1:BW");
        let fire: Hole = "i6".parse().expect("hole");
        for _ in 0..10 {
            let mv = choose(Level::Greedy, &g, &mut rng).expect("a move");
            assert_eq!(mv.from.to_string(), "i5", "{mv}");
            assert!(mv.to != fire && !mv.to.is_adjacent(fire), "{mv}");
        }
    }

    #[test]
    fn random_plays_only_legal_moves() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut g = Game::new(Options::default()).expect("classic");
        for _ in 0..200 {
            let Some(mv) = choose(Level::Random, &g, &mut rng) else {
                break;
            };
            g.play(mv).expect("legal");
        }
    }
}
