//! The greedy ORION bot's look-ahead: a beam search over a whole move's clicks on copies of
//! the game (the games of places), a depth-first walk over Hydra's moves for chains, the best
//! single click, placement and relocation for Orion's fences.

use super::evaluation::{chain_value, fence_value};
use super::situation::Situation;
use super::{value, Bot};
use orion_engine::{
    has_chain, Action, Click, Game, MoveState, Position, Slot, SlotSet, PIECES_PER_COLOUR,
};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::HashSet;

impl Bot {
    /// The first click of the best whole move by [`value`] (`None`: end the move here). A
    /// beam search over the move's clicks on copies of the game, so every rule, hop and
    /// auto-ended turn is the engine's.
    pub(super) fn plan(&mut self, sit: &Situation) -> Option<Click> {
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
    pub(super) fn chain_search(&mut self, sit: &Situation) -> Option<Click> {
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
    pub(super) fn one_click(&mut self, sit: &Situation, clicks: &[Click]) -> Option<Click> {
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
    pub(super) fn best_relocation(&mut self, sit: &Situation) -> Option<(Slot, Slot)> {
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

    pub(super) fn best_placement(&mut self, sit: &Situation, slots: &[Slot]) -> Option<Slot> {
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

/// States kept at each click of the greedy bot's search.
const BEAM: usize = 48;

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
