//! The bots: `random` plays a uniformly random legal action at every step; `greedy` looks one
//! move ahead with an evaluation (Hydra: chain distance, its own against its opponents';
//! Orion: captures, then how far its fences are from taking the whole board; the games of
//! places, [`value`]: how far its men are from where they must go). A bot sees a
//! [`Situation`] and answers with an engine [`Action`], so the same code plays through the
//! network and in offline self-play ([`selfplay`]). Every game rule beyond the five basic ones
//! is the engine's: the bot asks its copy of the game ([`crate::mirror`]) what is legal.

pub mod orbit;
pub mod orbs;
pub mod value;

use orion_engine::{
    games, has_chain, Action, Allowance, Click, Colour, Edge, Game, MoveState, Options, Piece,
    PlaceRule, Position, Rules, Seat, SeatInfo, Slot, SlotSet, PIECES_PER_COLOUR,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

/// How a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// A uniformly random legal action.
    Random,
    /// One move ahead with an evaluation.
    Greedy,
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        match s.to_ascii_lowercase().as_str() {
            "random" => Ok(Level::Random),
            "greedy" => Ok(Level::Greedy),
            other => Err(format!("unknown bot level `{other}` (random or greedy)")),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Random => "random",
            Level::Greedy => "greedy",
        })
    }
}

/// What a bot knows when it must act: everything the rules need to tell legal from illegal.
#[derive(Clone)]
pub struct Situation {
    /// The game.
    pub rules: &'static dyn Rules,
    /// Every seat in play, with its colour.
    pub seats: Vec<SeatInfo>,
    /// The bot's seat and colour.
    pub me: SeatInfo,
    /// The board.
    pub position: Position,
    /// How the turn is to be used (with a thrown die's clicks as `Clicks`).
    pub allowance: Allowance,
    /// The same-piece rule's state of the move in progress.
    pub moving: MoveState,
    /// Slots the bot may build on now.
    pub eligible: SlotSet,
    /// The position the move may not end on (no-reversal rule).
    pub forbidden: Option<Position>,
    /// The game as the engine sees it now (a copy kept in step over the network, the game
    /// itself in self-play): the judge of every rule a game adds. `None` when the bot's copy
    /// has lost step; then only the basic rules are checked.
    pub game: Option<Game>,
}

impl Situation {
    fn own(&self, p: &Position) -> SlotSet {
        p.of(self.me.colour)
    }

    fn building(&self) -> bool {
        self.rules.mechanics().building
    }

    fn supply_left(&self) -> bool {
        self.position.count(self.me.colour) < PIECES_PER_COLOUR as usize
    }

    /// Whether the turn may end now.
    pub fn may_end(&self) -> bool {
        if self.forbidden == Some(self.position) {
            return false;
        }
        let basic = self.moving.used > 0 || self.rules.may_pass();
        basic && self.game.as_ref().is_none_or(|g| self.ends(g))
    }

    /// Whether the engine lets the bot end its move in `game` now.
    fn ends(&self, game: &Game) -> bool {
        game.clone().step(self.me.seat, Action::EndTurn, 0).is_ok()
    }

    /// The clicks the copy has in hand beyond the room's (its die throws the most), so the
    /// room's count ends the move first: `Some(clicks left)` then, else `None`.
    fn cap(&self) -> Option<u8> {
        let g = self.game.as_ref()?;
        let (allowed, used) = g.clicks();
        (allowed.unwrap_or(0).saturating_sub(used) > self.moving.left()).then(|| self.moving.left())
    }

    /// Legal clicks now (colour, same-piece, clicks rules, the last click's no-reversal, and
    /// every rule of the game), each leaving a move that can still end legally.
    fn legal_clicks(&self) -> Vec<Click> {
        let own = self.own(&self.position);
        let mut budget = COMPLETION_BUDGET;
        Click::ALL
            .iter()
            .copied()
            .filter(|&c| self.moving.check(own, c).is_ok())
            .filter(|&c| !self.last_click_reverses(&self.position, self.moving, c))
            .filter(|&c| match &self.game {
                None => true,
                Some(g) => {
                    let mut next = g.clone();
                    let cap = self.cap().map(|n| n.saturating_sub(1));
                    next.step(
                        self.me.seat,
                        Action::Click {
                            click: c,
                            piece: None,
                        },
                        0,
                    )
                    .is_ok()
                        && self.can_finish(&next, cap, &mut budget)
                }
            })
            .collect()
    }

    /// Whether the move in `game` can still end legally (a knight that dipped must climb back
    /// in Draco): it has ended, or may end now, or some click leads on to an end. `cap` is
    /// the room's count of clicks left when the copy's is larger. Searching stops when
    /// `budget` runs out, and then says yes.
    fn can_finish(&self, game: &Game, cap: Option<u8>, budget: &mut u32) -> bool {
        let me = self.me.seat;
        if game.outcome().is_some() || game.mover() != me {
            return true;
        }
        if *budget == 0 {
            return true;
        }
        *budget -= 1;
        let forbidden = self.forbidden == Some(*game.position());
        if !forbidden && self.ends(game) {
            return true;
        }
        if cap == Some(0) {
            return false;
        }
        Click::ALL.iter().any(|&click| {
            if game.check_click(me, click).is_err() {
                return false;
            }
            let mut next = game.clone();
            next.step(me, Action::Click { click, piece: None }, 0)
                .is_ok()
                && self.can_finish(&next, cap.map(|n| n.saturating_sub(1)), budget)
        })
    }

    /// Challenges the engine would take now (Algol): the others' men in line with the bot's.
    fn challenges(&self) -> Vec<Piece> {
        let Some(g) = &self.game else {
            return Vec::new();
        };
        let own = self.own(&self.position);
        let reach = own
            .into_iter()
            .fold(SlotSet::EMPTY, |set, s| set | s.in_line());
        (reach & !own & self.position.occupied())
            .into_iter()
            .filter_map(|s| self.position.get(s))
            .filter(|&piece| {
                g.clone()
                    .step(self.me.seat, Action::Challenge { piece }, 0)
                    .is_ok()
            })
            .collect()
    }

    /// Mirrors the engine: the move's last click may not end on the forbidden position,
    /// unless building could still change it.
    fn last_click_reverses(&self, position: &Position, state: MoveState, click: Click) -> bool {
        if state.left() != 1 {
            return false;
        }
        let after = position.clicked(click);
        if self.forbidden != Some(after) {
            return false;
        }
        !(self.building() && self.own(position).intersects(!after.occupied()))
    }

    fn place_slots(&self, rule: PlaceRule) -> Vec<Slot> {
        let empty = !self.position.occupied() & SlotSet::FULL;
        empty.into_iter().filter(|&s| rule.allows(s)).collect()
    }
}

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

    /// The first click of the best whole move by [`value`] (`None`: end the move here). A
    /// beam search over the move's clicks on copies of the game, so every rule, hop and
    /// auto-ended turn is the engine's.
    fn plan(&mut self, sit: &Situation) -> Option<Click> {
        let game = sit.game.as_ref()?;
        let me = sit.me;
        let mut best: Option<(f64, Option<Click>)> = None;
        let offer = |v: f64, first: Option<Click>, best: &mut Option<(f64, Option<Click>)>| {
            if best.is_none_or(|(b, _)| v > b) {
                *best = Some((v, first));
            }
        };
        let ended = |g: &Game| -> Option<Game> {
            let mut done = g.clone();
            (sit.forbidden != Some(*g.position()) && done.step(me.seat, Action::EndTurn, 0).is_ok())
                .then_some(done)
        };
        if let Some(done) = ended(game) {
            offer(value::value(&done, me) + self.jitter(), None, &mut best);
        }
        let mut frontier: Vec<(Game, Option<Click>)> = vec![(game.clone(), None)];
        let mut seen: HashSet<(Position, SlotSet, u8, u8)> = HashSet::new();
        let mut cap = sit.cap();
        while !frontier.is_empty() && cap != Some(0) {
            let mut next: Vec<(f64, Game, Option<Click>)> = Vec::new();
            let last = cap == Some(1);
            for (g, first) in &frontier {
                for click in Click::ALL {
                    if g.check_click(me.seat, click).is_err() {
                        continue;
                    }
                    let mut after = g.clone();
                    if after
                        .step(me.seat, Action::Click { click, piece: None }, 0)
                        .is_err()
                    {
                        continue;
                    }
                    let first = first.or(Some(click));
                    if after.outcome().is_some() || after.mover() != me.seat {
                        // The click ended the move (its last, a win, a capture).
                        offer(value::value(&after, me) + self.jitter(), first, &mut best);
                        continue;
                    }
                    let (allowed, used) = after.clicks();
                    let key = (
                        *after.position(),
                        after.candidates(),
                        used,
                        allowed.unwrap_or(0),
                    );
                    if !seen.insert(key) {
                        continue;
                    }
                    if let Some(done) = ended(&after) {
                        offer(value::value(&done, me) + self.jitter(), first, &mut best);
                    }
                    if !last {
                        let v = value::value(&after, me) + self.jitter();
                        next.push((v, after, first));
                    }
                }
            }
            next.sort_by(|a, b| b.0.total_cmp(&a.0));
            next.truncate(BEAM);
            frontier = next.into_iter().map(|(_, g, f)| (g, f)).collect();
            cap = cap.map(|n| n - 1);
        }
        best.and_then(|(_, c)| c)
    }

    fn jitter(&mut self) -> f64 {
        self.rng.gen::<f64>() * 0.1
    }

    /// Hydra: the first click of the best whole move (`None`: stop here).
    fn chain_search(&mut self, sit: &Situation) -> Option<Click> {
        let mut search = Search {
            sit,
            seen: HashSet::new(),
            best: None,
            jitter: &mut self.rng,
        };
        let mut chains = 0u8;
        for s in &sit.seats {
            if has_chain(sit.position.of(s.colour), s.seat.edge()) {
                chains |= 1 << s.colour as u8;
            }
        }
        if sit.may_end() {
            let v = search.value(&sit.position);
            search.offer(v, None);
        }
        search.walk(sit.position, sit.moving, chains, None);
        search.best.and_then(|(_, c)| c)
    }

    /// Orion and other games: the best single click, building and captures included.
    fn one_click(&mut self, sit: &Situation, clicks: &[Click]) -> Option<Click> {
        let mut best: Option<(f64, Option<Click>)> = None;
        let offer = |v: f64, c: Option<Click>, best: &mut Option<(f64, Option<Click>)>| {
            if best.is_none_or(|(b, _)| v > b) {
                *best = Some((v, c));
            }
        };
        let here = fence_value(sit, &sit.position, 0);
        if sit.may_end() {
            offer(here + self.rng.gen::<f64>() * 0.01, None, &mut best);
        }
        for &c in clicks {
            let after = sit.position.clicked(c);
            let caught = orion_engine::evaluate_fences(&after, sit.me.colour);
            let v = if !caught.slots.is_empty() || caught.whole_board {
                let mut p = after;
                for s in caught.slots {
                    p.take(s);
                }
                fence_value(sit, &p, caught.slots.len())
            } else {
                // The slots this click empties are built on before anything else.
                let mut p = after;
                let free = PIECES_PER_COLOUR as usize - sit.position.count(sit.me.colour);
                let eligible = sit.own(&sit.position) & !after.occupied();
                for (i, s) in eligible.into_iter().enumerate() {
                    if i < free {
                        if let Some(n) = p.next_number(sit.me.colour) {
                            if let Some(piece) = orion_engine::Piece::new(sit.me.colour, n) {
                                p.put(s, piece);
                            }
                        }
                    }
                }
                let caught = orion_engine::evaluate_fences(&p, sit.me.colour);
                for s in caught.slots {
                    p.take(s);
                }
                fence_value(sit, &p, caught.slots.len())
            };
            offer(v + self.rng.gen::<f64>() * 0.01, Some(c), &mut best);
        }
        // No click improves things: now and then a random one, so a bot stuck on a plateau
        // (fences that one click cannot close) wanders off it instead of passing forever.
        if best.is_none_or(|(v, _)| v < here + 0.5) && self.rng.gen_bool(0.3) {
            return clicks.choose(&mut self.rng).copied();
        }
        best.and_then(|(_, c)| c)
    }

    /// The best move of a piece already on the board to an eligible slot, if it beats
    /// leaving things as they are.
    fn best_relocation(&mut self, sit: &Situation) -> Option<(Slot, Slot)> {
        let mut best = (fence_value(sit, &sit.position, 0), None);
        for to in sit.eligible {
            for from in sit.own(&sit.position) {
                let mut p = sit.position;
                if let Some(piece) = p.take(from) {
                    p.put(to, piece);
                }
                let caught = orion_engine::evaluate_fences(&p, sit.me.colour);
                let v = fence_value(sit, &p, caught.slots.len()) + self.rng.gen::<f64>() * 0.01;
                if v > best.0 + 0.5 {
                    best = (v, Some((to, from)));
                }
            }
        }
        best.1
    }

    fn best_placement(&mut self, sit: &Situation, slots: &[Slot]) -> Option<Slot> {
        let mut best: Option<(f64, Slot)> = None;
        for &s in slots {
            let mut p = sit.position;
            if let Some(n) = p.next_number(sit.me.colour) {
                if let Some(piece) = orion_engine::Piece::new(sit.me.colour, n) {
                    p.put(s, piece);
                }
            }
            let v = if sit.rules.mechanics().captures {
                let caught = orion_engine::evaluate_fences(&p, sit.me.colour);
                fence_value(sit, &p, caught.slots.len())
            } else if sit.rules.mechanics().chains {
                chain_value(sit, &p)
            } else {
                0.0
            } + self.rng.gen::<f64>() * 0.01;
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, s));
            }
        }
        best.map(|(_, s)| s)
    }
}

/// How often a random bot that could challenge (Algol) does.
const CHALLENGE_ODDS: f64 = 0.2;

/// States kept at each click of the greedy bot's search.
const BEAM: usize = 48;

/// Positions looked at, at most, to tell whether a move can still end legally.
const COMPLETION_BUDGET: u32 = 400;

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

/// The cheapest way, in slots to fill, to join `edge` to the opposite edge for `colour`:
/// own pieces cost nothing, empty slots one, other pieces three (they must be moved away).
pub fn chain_distance(position: &Position, colour: Colour, edge: Edge) -> u32 {
    const INF: u32 = u32::MAX / 4;
    let own = position.of(colour);
    let occupied = position.occupied();
    let cost = |s: Slot| -> u32 {
        if own.contains(s) {
            0
        } else if occupied.contains(s) {
            3
        } else {
            1
        }
    };
    let mut dist = [INF; 60];
    let mut done = [false; 60];
    for s in edge.touching() {
        dist[s.index()] = cost(s);
    }
    let far = edge.opposite().touching();
    loop {
        let mut u = None;
        let mut best = INF;
        for (i, &d) in dist.iter().enumerate() {
            if !done[i] && d < best {
                best = d;
                u = Some(i);
            }
        }
        let Some(i) = u else {
            return INF;
        };
        let Some(slot) = Slot::from_index(i) else {
            return INF;
        };
        if far.contains(slot) {
            return best;
        }
        done[i] = true;
        for n in slot.touching() {
            let j = n.index();
            let d = best + cost(n);
            if !done[j] && d < dist[j] {
                dist[j] = d;
            }
        }
    }
}

/// Hydra evaluation: the nearest opponent's chain distance against one's own.
fn chain_value(sit: &Situation, p: &Position) -> f64 {
    let mine = chain_distance(p, sit.me.colour, sit.me.seat.edge()) as f64;
    let theirs = sit
        .seats
        .iter()
        .filter(|s| s.colour != sit.me.colour)
        .map(|s| chain_distance(p, s.colour, s.seat.edge()))
        .min()
        .unwrap_or(0) as f64;
    // Defending matters a little less than attacking: a move that does both is best.
    0.8 * theirs - mine
}

/// Orion evaluation: points now, the whole board above all, then fences closing in (the
/// largest open region shrinking) and pieces on the board.
fn fence_value(sit: &Situation, p: &Position, captured: usize) -> f64 {
    let fence = p.of(sit.me.colour);
    let caught = orion_engine::evaluate_fences(p, sit.me.colour);
    if caught.whole_board {
        return 10_000.0 + captured as f64 * 10.0;
    }
    let largest = orion_engine::regions(fence)
        .map(|r| r.len())
        .max()
        .unwrap_or(25) as f64;
    let others: usize = sit
        .seats
        .iter()
        .filter(|s| s.colour != sit.me.colour)
        .map(|s| (orion_engine::evaluate_fences(p, s.colour).slots & fence).len())
        .sum();
    captured as f64 * 10.0 - 3.0 * largest + fence.len() as f64 * 0.5 - others as f64 * 3.0
        + 2.0 * walls(fence) as f64
}

/// Pieces on the two fullest inner grid lines of one direction: two full lines across the
/// board leave regions of 10, 5 and 10 rotors, the whole board. A smooth guide towards it.
fn walls(fence: SlotSet) -> usize {
    let mut best = 0;
    for horizontal in [true, false] {
        let mut counts: Vec<usize> = (1..5u8)
            .map(|line| {
                (0..5u8)
                    .filter_map(|i| {
                        if horizontal {
                            Slot::horizontal(line, i)
                        } else {
                            Slot::vertical(line, i)
                        }
                    })
                    .filter(|&s| fence.contains(s))
                    .count()
            })
            .collect();
        counts.sort_unstable_by(|a, b| b.cmp(a));
        best = best.max(counts.iter().take(2).sum());
    }
    best
}

/// A depth-first walk over the bot's possible moves, remembering the best first click.
struct Search<'a, R: Rng> {
    sit: &'a Situation,
    seen: HashSet<(Position, SlotSet, u8)>,
    best: Option<(f64, Option<Click>)>,
    jitter: &'a mut R,
}

const WIN: f64 = 1_000_000.0;
const LOSS: f64 = -1_000_000.0;

impl<R: Rng> Search<'_, R> {
    fn value(&mut self, p: &Position) -> f64 {
        chain_value(self.sit, p) + self.jitter.gen::<f64>() * 0.1
    }

    fn offer(&mut self, v: f64, first: Option<Click>) {
        if self.best.is_none_or(|(b, _)| v > b) {
            self.best = Some((v, first));
        }
    }

    fn walk(&mut self, p: Position, state: MoveState, chains: u8, first: Option<Click>) {
        if state.left() == 0 {
            return;
        }
        let own = p.of(self.sit.me.colour);
        for click in Click::ALL {
            if state.check(own, click).is_err() || self.sit.last_click_reverses(&p, state, click) {
                continue;
            }
            let q = p.clicked(click);
            let mut next = state;
            next.advance(click);
            let first = first.or(Some(click));
            if !self.seen.insert((q, next.candidates, next.used)) {
                continue;
            }
            let mut now = 0u8;
            for s in &self.sit.seats {
                if has_chain(q.of(s.colour), s.seat.edge()) {
                    now |= 1 << s.colour as u8;
                }
            }
            if now & (1 << self.sit.me.colour as u8) != 0 {
                self.offer(WIN + next.left() as f64, first);
                continue;
            }
            if now & !chains != 0 {
                // A chain made for someone else: he claims it.
                self.offer(LOSS, first);
                continue;
            }
            if self.sit.forbidden != Some(q) {
                let v = self.value(&q);
                self.offer(v, first);
            }
            self.walk(q, next, now, first);
        }
    }
}

/// The result of offline self-play: wins of each side and games that hit the move limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won by the first level.
    pub first: u32,
    /// Games won by the second level.
    pub second: u32,
    /// Draws and games stopped at the turn limit.
    pub unfinished: u32,
    /// Actions taken in all the games (clicks, placements, ends of turns...): how long the
    /// games are, each action being one request over the wire.
    pub actions: u64,
}

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
    if game.eq_ignore_ascii_case("orbs") {
        return orbs::selfplay(players, a, b, games_n, seed);
    }
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

/// The situation of `seat` in a game the bot can see whole (self-play, tests): everything
/// from the engine's query API (another seat than the mover's: to choose a secret).
pub fn situation_of(game: &Game, seat: Seat) -> Situation {
    let me = game
        .seats()
        .iter()
        .copied()
        .find(|s| s.seat == seat)
        .unwrap_or(SeatInfo {
            seat,
            colour: seat.colour(),
        });
    Situation {
        rules: game.rules(),
        seats: game.seats().to_vec(),
        me,
        position: *game.position(),
        allowance: allowance_of(game),
        moving: moving_of(game),
        eligible: game.eligible(),
        forbidden: game.forbidden(),
        game: Some(game.clone()),
    }
}

/// How the turn is to be used, with a thrown die's clicks as `Clicks`.
fn allowance_of(game: &Game) -> Allowance {
    match (game.allowance(), game.clicks().0) {
        (Allowance::DieOrThree | Allowance::Die, Some(n)) => Allowance::Clicks(n),
        (a, _) => a,
    }
}

/// The same-piece and clicks rules' state of the move in progress, as the engine has it.
fn moving_of(game: &Game) -> MoveState {
    let (allowed, used) = game.clicks();
    let mut moving = MoveState::new(allowed.unwrap_or(0), SlotSet::EMPTY);
    moving.used = used;
    moving.candidates = game.candidates();
    moving.narrows = game.rules().same_piece();
    moving
}

/// The situation of this client's seat in a room whose game is known; `game` is the bot's
/// copy of it when in step with the room, the judge of the move before (no-reversal rule) and
/// of the same-piece rule. Without one (a copy that lost step, a snapshot mid-move) only the
/// basic rules of the room's turn are known.
pub fn situation(room: &crate::room::RoomState, game: Option<&Game>) -> Option<Situation> {
    let rules = room.rules?;
    let me_seat = room.me?;
    let colour = room.colour_of(me_seat)?;
    // The copy knows what the turn is (a placement, a die the leader must throw); the room
    // knows how many clicks a thrown die gave.
    let allowance = match (game.map(Game::allowance), room.clicks()) {
        (Some(Allowance::Place(rule)), _) => Allowance::Place(rule),
        (Some(_), Some(n)) => Allowance::Clicks(n),
        (Some(a), None) => a,
        (None, _) => room.allowance()?,
    };
    let moving = match game {
        Some(g) => moving_of(g),
        None => {
            let own = room.mover().and_then(|m| room.colour_of(m));
            let mut m = MoveState::new(
                room.clicks().unwrap_or(0),
                own.map_or(SlotSet::EMPTY, |c| room.position.of(c)),
            );
            m.narrows = rules.same_piece();
            m.used = room.used();
            m
        }
    };
    Some(Situation {
        rules,
        seats: room.order.clone(),
        me: SeatInfo {
            seat: me_seat,
            colour,
        },
        position: room.position,
        allowance,
        moving,
        eligible: room.eligible(),
        forbidden: game.and_then(Game::forbidden),
        game: game.cloned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use orion_engine::parse_position;

    #[test]
    fn chain_distance_counts_the_gaps() {
        let p = parse_position("C1w:R1 C2w:R2 C3w:R3 C4w:R4 C5w:R5").unwrap();
        assert_eq!(chain_distance(&p, Colour::Red, Edge::Bottom), 0);
        let p = parse_position("C1w:R1 C2w:R2 C4w:R4 C5w:R5").unwrap();
        assert_eq!(chain_distance(&p, Colour::Red, Edge::Bottom), 1);
    }

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
