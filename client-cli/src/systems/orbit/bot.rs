//! Orbit bots, pure policies over the `orion-orbit` engine: `random` plays a uniformly random
//! legal move; `greedy` weighs every drop one ply ahead (territory after it, captures, then
//! whether it joins its own groups) and passes when nothing gains or when passing wins.
//! [`selfplay`] measures one against the other offline.

use crate::bot::level::Level;
use crate::bot::tally::Tally;
use orion_orbit::{groups, Cell, CellSet, Game, Move, Seat, Stone, Structure, Structures, Turn};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// What a territory cell is worth to greedy, against the smaller terms below.
const TERRITORY: i64 = 100;
/// What a captured stone is worth besides the territory it frees.
const CAPTURE: i64 = 30;
/// What joining two or more of its own groups is worth: bigger groups enclose more.
const JOIN: i64 = 6;
/// What touching one own group is worth (extending a wall).
const EXTEND: i64 = 4;

/// An Orbit bot.
pub struct OrbitBot {
    /// How it plays.
    pub level: Level,
    rng: StdRng,
}

impl OrbitBot {
    /// A bot of `level` whose random choices follow `seed`.
    pub fn new(level: Level, seed: u64) -> OrbitBot {
        OrbitBot {
            level,
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// The move to play in `game`, or `None` when the game is over.
    pub fn choose(&mut self, game: &Game) -> Option<Move> {
        let legal = game.legal_moves();
        if legal.is_empty() {
            return None;
        }
        match (self.level, game.turn()) {
            (Level::Random, _) => legal.nth(self.rng.gen_range(0..legal.len())),
            // Black is a stone ahead once White has answered the opening.
            (Level::Greedy, Turn::Choice) => Some(Move::Choose(Stone::Black)),
            (Level::Greedy, Turn::Opening { .. }) => {
                // Anywhere in the middle: no structure can come of three stones.
                let middle = legal.drops & middle();
                let pool = if middle.is_empty() {
                    legal.drops
                } else {
                    middle
                };
                pool.nth(self.rng.gen_range(0..pool.len())).map(Move::Drop)
            }
            (Level::Greedy, Turn::Play(colour)) => Some(self.greedy(game, colour, legal.drops)),
            (Level::Greedy, Turn::Over) => None,
        }
    }

    /// The best drop one ply ahead, or a pass.
    fn greedy(&mut self, game: &Game, me: Stone, drops: CellSet) -> Move {
        let board = game.board();
        let now = Weigher::new(board.of(me), board.of(me.other()));
        let lead = now.lead(board.vacant());
        let opponent_passed = game
            .last_move()
            .is_some_and(|e| e.mv == Move::Pass && e.colour != me);
        if opponent_passed && lead > 0 {
            return Move::Pass;
        }
        let mut best: Option<(i64, i64, Cell)> = None;
        let mut ties = 0u32;
        for cell in drops {
            let (after, value) = now.weigh(cell, board.vacant());
            let key = (value, after);
            match best {
                Some((v, a, _)) if (v, a) > key => {}
                Some((v, a, _)) if (v, a) == key => {
                    // Reservoir sampling keeps an even choice among equals.
                    ties += 1;
                    if self.rng.gen_range(0..=ties) == 0 {
                        best = Some((value, after, cell));
                    }
                }
                _ => {
                    ties = 0;
                    best = Some((value, after, cell));
                }
            }
        }
        match best {
            // A drop that loses territory is worse than passing.
            Some((_, after, cell)) if after >= lead => Move::Drop(cell),
            _ => Move::Pass,
        }
    }
}

/// The cells of columns e..l, rows 5..12.
fn middle() -> CellSet {
    Cell::all()
        .filter(|c| (4..12).contains(&c.column()) && (4..12).contains(&c.row()))
        .collect()
}

/// One side's view of the board for weighing drops: its groups with their structures, and
/// the other side's structures, so a drop costs one group's floods instead of all of them.
struct Weigher {
    /// The other side's stones.
    theirs: CellSet,
    /// My groups and what each encloses.
    groups: Vec<(CellSet, Structure)>,
    /// Everything the other side's structures prohibit to me.
    their_region: CellSet,
}

impl Weigher {
    fn new(mine: CellSet, theirs: CellSet) -> Weigher {
        let groups = groups(mine).map(|g| (g, Structure::of(g))).collect();
        Weigher {
            theirs,
            groups,
            their_region: Structures::of(theirs).region(),
        }
    }

    /// My territory minus theirs now.
    fn lead(&self, vacant: CellSet) -> i64 {
        let mine = self
            .groups
            .iter()
            .fold(CellSet::EMPTY, |r, (_, s)| r | s.region());
        territory_lead(vacant, mine, self.their_region)
    }

    /// The lead after dropping on `cell`, and the drop's value (lead, captures, shape).
    fn weigh(&self, cell: Cell, vacant: CellSet) -> (i64, i64) {
        let around = CellSet::from_cell(cell).grow8();
        let mut merged = CellSet::from_cell(cell);
        let mut joined = 0;
        let mut kept = CellSet::EMPTY;
        for (g, s) in &self.groups {
            if g.intersects(around) {
                merged |= *g;
                joined += 1;
            } else {
                kept |= s.region();
            }
        }
        let s = Structure::of(merged);
        let captured = s.orbit & self.theirs;
        let their_region = if captured.is_empty() {
            self.their_region
        } else {
            Structures::of(self.theirs - captured).region()
        };
        let vacant = (vacant - CellSet::from_cell(cell)) | captured;
        let lead = territory_lead(vacant, kept | s.region(), their_region);
        let shape = match joined {
            0 => 0,
            1 => EXTEND,
            _ => JOIN * joined.min(3),
        };
        let value = TERRITORY * lead + CAPTURE * captured.len() as i64 + shape;
        (lead, value)
    }
}

/// My territory minus theirs, from the empty cells and the regions of each side's
/// structures (ORBIT.md "Play" 8: shared cells count for neither).
fn territory_lead(vacant: CellSet, mine: CellSet, theirs: CellSet) -> i64 {
    let own = (vacant & mine) - theirs;
    let their = (vacant & theirs) - mine;
    own.len() as i64 - their.len() as i64
}

/// The most moves a self-play game may take before it counts as unfinished (the rules end it
/// at 1,000 drops; passes come on top).
const MAX_MOVES: u32 = 3000;

/// Plays `games` games of Orbit between `a` and `b`, alternating seats: `a` is `S` (the
/// opening) in even games and `N` (the choice of colour) in odd ones. Draws count as
/// unfinished.
pub fn selfplay(a: Level, b: Level, games: u32, seed: u64) -> Result<Tally, String> {
    let mut tally = Tally::default();
    for g in 0..games {
        let a_seat = if g % 2 == 0 { Seat::S } else { Seat::N };
        let game_seed = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(g);
        let mut bots = [
            (a_seat, OrbitBot::new(a, game_seed)),
            (a_seat.other(), OrbitBot::new(b, game_seed ^ 0x5555)),
        ];
        let mut game = Game::new();
        let mut moves = 0;
        while game.outcome().is_none() && moves < MAX_MOVES {
            let seat = game
                .seat_to_move()
                .ok_or("orbit self-play: nobody to move")?;
            let (_, bot) = bots
                .iter_mut()
                .find(|(s, _)| *s == seat)
                .ok_or("orbit self-play: no bot at the seat to move")?;
            let Some(mv) = bot.choose(&game) else { break };
            if let Err(e) = game.play(mv) {
                return Err(format!("orbit self-play: {} played {mv}: {e}", bot.level));
            }
            moves += 1;
        }
        tally.actions += u64::from(moves);
        let winner = game
            .outcome()
            .and_then(|o| o.winner)
            .and_then(|w| game.holder(w));
        match winner {
            Some(seat) if seat == a_seat => tally.first += 1,
            Some(_) => tally.second += 1,
            None => tally.unfinished += 1,
        }
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use orion_orbit::parse_position;

    fn play_greedy(position: &str, me: Stone) -> Move {
        let game = Game::from_board(parse_position(position).unwrap(), me).unwrap();
        OrbitBot::new(Level::Greedy, 1)
            .choose(&game)
            .expect("a move")
    }

    #[test]
    fn greedy_closes_an_orbit_round_enemy_stones() {
        // The seed's bottom example: l4 captures two and takes five cells.
        let seed = "j6:W i5:W k5:W j5:B i4:W i3:W k3:B l3:W j2:W k2:W";
        assert_eq!(
            play_greedy(seed, Stone::White),
            Move::Drop("l4".parse().unwrap())
        );
    }

    #[test]
    fn greedy_passes_when_a_pass_wins() {
        let mut game =
            Game::from_board(parse_position("a4:B b5:B a6:B").unwrap(), Stone::White).unwrap();
        game.play(Move::Pass).unwrap();
        assert_eq!(
            OrbitBot::new(Level::Greedy, 1).choose(&game),
            Some(Move::Pass)
        );
    }
}
