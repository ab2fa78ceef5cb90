//! The turn search of level 8 (and of level 7 for a share of its decisions): `greedy` looks
//! one whole turn ahead, this looks at the replies. The mover's best `candidates` whole turns are
//! found by `greedy`'s beam (keeping the best ends instead of one); after each, every other player
//! in turn order plays his own best whole turns by the same beam (his `replies` best by his own
//! evaluation, of which the one worst for the mover is assumed: paranoid among the plausible, so
//! against `greedy` it foresees exactly the turn greedy plays); level 8's shape adds the mover's
//! own best turn after the replies (checked for a win the next player could make at once; where
//! the game asks for it, [`State::further_rounds`], each of its best few looked past by
//! further rounds of replies and its own turns), and with two players who see everything
//! they prove the chosen turn leaves no forced win (`proof`). The
//! searching player's own turns and outcomes are judged by [`State::judge_for`], the others' by
//! `greedy`'s evaluation. The turn whose worst outcome is best is chosen and its first action
//! played. A die inside a turn is thrown by the search's random source, one face a turn (as
//! `greedy` does); hidden information (Algol's secret men) is guessed from the player's view
//! ([`View::infer`]) a few times and the guesses' values averaged (a win that depends on the guess
//! at its guess's odds), so the search never reads another seat's secret; another player's turn is
//! chosen on his own guess of the searcher's secret ([`State::guessed_by`]), or as if he saw it
//! with the odds his guesses find it ([`State::guess_odds`]). The budget is positions evaluated
//! (deterministic for a seed), with a wall-clock cap on top in play; candidates are looked at best
//! first, so a search cut short is still `greedy`'s choice or better.

use crate::greedy::{self, settle, throw};
use crate::history::History;
use crate::mcts::Budget;
use crate::proof::{forced_win, Tally};
use crate::state::{State, ToAct, View};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// How widely and deeply a level looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The mover's whole turns whose replies are looked at.
    pub candidates: usize,
    /// Partial turns kept at each step of a reply's beam.
    pub reply_beam: usize,
    /// Each replying player's best turns (by his evaluation) the worst of which is assumed.
    pub replies: usize,
    /// Whether the mover's own next turn is looked at after the replies.
    pub again: bool,
    /// With `again` and two players: his best few next turns are looked at, each checked
    /// for a win the other could make at once after it (a threat the evaluation cannot see),
    /// and every reply `greedy` calls equal to its best is looked at.
    pub threats: bool,
    /// Two players who see everything: the chosen turn is proven not to leave the other a
    /// win he can force within this many of his turns (0: no proof).
    pub proofs: u32,
    /// Guesses of hidden information (only where the view hides something).
    pub guesses: usize,
}

/// Partial turns kept at each step of the mover's own beam (`greedy`'s).
const ROOT_BEAM: usize = 48;
/// The most actions one turn is looked into (`greedy`'s).
const DEPTH: usize = 8;
/// The mover's own turns kept for a proof to fall back on when the best are lost.
const PROOF_WIDTH: usize = 64;
/// Positions one proof may make before it answers "unknown".
const PROOF_CAP: u64 = 30_000;
/// A turn proven to leave the other a forced win: below every turn not so proven (a loss
/// the look foresees is `1 - WIN`), above the turns not looked into.
const LOST: f64 = 1.0 - WIN - 0.5;
/// Decisions a turn at which another player guesses the searcher's secret afresh (as
/// `greedy` does): an Algol turn is two clicks and a challenge.
const GUESSES_A_TURN: i32 = 3;
/// Replies a value apart by less than this are equal to `greedy` (its jitter decides).
const TIE: f64 = 1e-5;
/// The most replies equal to the best looked at (two players, where the shape checks
/// threats): `greedy` plays any of them, so the worst is assumed.
const TIED_REPLIES: usize = 6;
/// The mover's own next turns looked at when the shape checks threats.
const THREAT_LOOKS: usize = 4;
/// A win's value (a loss is `-WIN + 1`): above every evaluation, which lies in `0..1`.
const WIN: f64 = 2.0;
/// What a turn of the searcher's is worth less for each time the game has already been in
/// the position it ends in (of the judgement's `0..1`).
const REPEAT: f64 = 0.05;

/// The actions of one turn, in order (at most [`DEPTH`]).
type Path<A> = [Option<A>; DEPTH];

/// One whole turn: its value for whoever played it, where it ends, its first action, and
/// every action of it (to play it again on another guess of what its player cannot see).
struct End<S: State> {
    value: f64,
    state: S,
    first: S::Action,
    path: Path<S::Action>,
}

/// The search's working set: the random source, the positions judged, the budget.
struct Search {
    /// The player searching: his own turns and outcomes are judged by [`State::judge_for`],
    /// the others' turns by [`State::evaluate_for`] (`greedy`'s, so its reply is foreseen).
    me: usize,
    /// Whether proofs of a forced win apply (two players, nothing hidden).
    proofs: bool,
    /// Whether the searcher's view hides something (Algol): another player's turn is then
    /// chosen on that player's own guess of what he cannot see ([`State::guessed_by`]).
    hides: bool,
    /// Which of the searcher's guesses is being searched: the others' guesses differ from
    /// one of his guesses to the next, and are the same for every candidate within one.
    guess: u64,
    rng: ChaCha8Rng,
    /// Whether the levels' judgement takes every throw still to come by its expectation
    /// ([`State::judges_throws`]): the replies' throws are then taken by expectation and the
    /// look ends after the replies.
    throws_judged: bool,
    /// The seed of the dice thrown inside turns: the same throws at the same ply for every
    /// candidate (common random numbers), so no candidate looks best for a lucky throw of
    /// the reply's die.
    dice: u64,
    evaluations: u64,
    limit: u64,
    started: Instant,
    budget: Budget,
    /// The keys of the positions the game's turns started from ([`History::counts`]), sorted,
    /// each with how often the game has been there: a turn of the searcher's that returns to one
    /// is judged [`REPEAT`] less a time.
    seen: Vec<(u64, u32)>,
}

impl Search {
    /// Whether the budget is spent (positions, or the time cap in play).
    fn spent(&self) -> bool {
        self.evaluations >= self.limit || self.late()
    }

    /// How often the game has been in `state`, where a turn of the searcher's ended.
    fn times_seen<S: State>(&self, state: &S) -> u32 {
        state.position_key().map_or(0, |k| {
            self.seen
                .binary_search_by_key(&k, |&(key, _)| key)
                .map_or(0, |i| self.seen[i].1)
        })
    }

    /// `value`, the searcher's for his turn ending in `state`, [`REPEAT`] less for each time
    /// the game has been there: two players who each undo the other's last turn play the
    /// same positions to the round limit, and the judgement of a position cannot tell that
    /// from progress; a few rounds of it and another turn is worth more.
    fn unless_repeated<S: State>(&self, state: &S, value: f64) -> f64 {
        // A win or a loss foreseen stands as it is.
        if !(1.0 - WIN + 0.5..WIN - 0.5).contains(&value) {
            return value;
        }
        value - REPEAT * f64::from(self.times_seen(state))
    }

    /// Whether the time cap (in play only) has passed.
    fn late(&self) -> bool {
        self.budget
            .time
            .is_some_and(|t| self.started.elapsed() >= t)
    }
}

/// The first action of the turn whose worst foreseen outcome is best for `view`'s player,
/// a turn of his that returns to a position of `history` judged [`REPEAT`] worse a time;
/// `None` when the player has nothing to decide. The same view, history, shape, budget
/// (without time) and seed give the same action.
pub fn turn_search<V: View>(
    view: &V,
    history: &History,
    shape: Shape,
    budget: Budget,
    seed: u64,
) -> Option<<V::State as State>::Action> {
    let me = view.player();
    let mut search = Search {
        me,
        proofs: !view.hides(),
        hides: view.hides(),
        throws_judged: false,
        guess: 0,
        rng: ChaCha8Rng::seed_from_u64(seed),
        dice: seed ^ 0xd1ce_5eed,
        evaluations: 0,
        limit: u64::from(budget.iterations.max(1)),
        started: Instant::now(),
        budget,
        seen: history.counts(),
    };
    let guesses = if view.hides() {
        shape.guesses.max(1)
    } else {
        1
    };
    // Values per first action, one a guess.
    let mut totals: Vec<(<V::State as State>::Action, Vec<Guessed>)> = Vec::new();
    let mut legal = Vec::new();
    for guess in 0..guesses {
        search.guess = guess as u64;
        let root = view.infer(&mut search.rng);
        if root.to_act() != ToAct::Player(me) {
            return None;
        }
        if guess == 0 {
            search.proofs &= root.players() == 2;
            search.throws_judged = root.judges_throws();
            root.legal_actions(&mut legal);
            if legal.len() <= 1 {
                return legal.first().copied();
            }
        }
        let per_guess = Budget {
            iterations: budget.iterations / guesses as u32,
            ..budget
        };
        search.limit = search.evaluations + u64::from(per_guess.iterations.max(1));
        // The odds that this guess of the others' secrets is right.
        let odds = (0..root.players())
            .filter(|&o| o != me)
            .map(|o| root.inferred_odds(me, o))
            .fold(0.0, f64::max);
        for (action, value) in judge_root(&root, me, shape, &mut search) {
            match totals.iter_mut().find(|(a, _)| *a == action) {
                Some(t) => t.1.push((value, odds)),
                None => totals.push((action, vec![(value, odds)])),
            }
        }
    }
    let best = totals
        .iter()
        .filter(|(a, _)| legal.contains(a))
        .map(|(a, values)| (a, over_guesses(values)))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    best.map(|(a, _)| *a).or(legal.first().copied())
}

/// An action's value in one guess, and the odds that the guess is right.
type Guessed = (f64, f64);

/// An action's values over the guesses (each with the odds of its guess), summed: a win in
/// some guesses only (a challenge that finds the man guessed to be the secret) is as likely
/// as its guess is right (the likeliest such guess's odds), not as the few guesses drawn make
/// it look, so those guesses count the win at its odds and the rest's mean otherwise. Wins in
/// every guess (or none) are summed as they are.
fn over_guesses(values: &[Guessed]) -> f64 {
    let sum: f64 = values.iter().map(|(v, _)| v).sum();
    let (wins, rest): (Vec<Guessed>, Vec<Guessed>) = values.iter().partition(|(v, _)| *v > 1.5);
    if wins.is_empty() || rest.is_empty() {
        return sum;
    }
    let odds = wins.iter().map(|(_, o)| *o).fold(0.0, f64::max).min(1.0);
    let rest_mean = rest.iter().map(|(v, _)| v).sum::<f64>() / rest.len() as f64;
    values.len() as f64 * (odds * WIN + (1.0 - odds) * rest_mean)
}

/// Every first action looked at from `root`, with its value: an action that throws the die
/// (roll) by the expectation over the faces of the best turn after each face (expectimax at
/// the root, where one lucky throw would mislead), the others by [`judge_turns`].
fn judge_root<S: State>(
    root: &S,
    me: usize,
    shape: Shape,
    search: &mut Search,
) -> Vec<(S::Action, f64)> {
    let mut legal = Vec::new();
    root.legal_actions(&mut legal);
    let throws: Vec<(S::Action, S)> = legal
        .iter()
        .filter_map(|&a| {
            let mut after = root.clone();
            after.apply(a);
            (after.to_act() == ToAct::Chance).then_some((a, after))
        })
        .collect();
    if throws.is_empty() {
        return judge_turns(root, me, shape, search, &[]);
    }
    let mut faces: Vec<Vec<(S::Chance, f64)>> = Vec::new();
    for (_, thrown) in &throws {
        let mut odds = Vec::new();
        thrown.chance_outcomes(&mut odds);
        // Equal faces (the die's two 2s) once, with their odds summed.
        let mut merged: Vec<(S::Chance, f64)> = Vec::new();
        for (face, p) in odds {
            match merged.iter_mut().find(|(f, _)| *f == face) {
                Some(m) => m.1 += p,
                None => merged.push((face, p)),
            }
        }
        faces.push(merged);
    }
    // The budget shared equally between the turns without a throw and each face.
    let total = search.limit;
    let mut parts = 1 + faces.iter().map(Vec::len).sum::<usize>() as u64;
    let mut share = |search: &mut Search| {
        search.limit = search.evaluations + total.saturating_sub(search.evaluations) / parts;
        parts = parts.saturating_sub(1).max(1);
    };
    share(search);
    let excluded: Vec<S::Action> = throws.iter().map(|(a, _)| *a).collect();
    let mut out = judge_turns(root, me, shape, search, &excluded);
    for ((action, thrown), odds) in throws.into_iter().zip(faces) {
        let mut expected = 0.0;
        for (face, p) in odds {
            share(search);
            let mut after = thrown.clone();
            after.apply_chance(face);
            let v = if after.to_act() == ToAct::Player(me) {
                judge_turns(&after, me, shape, search, &[])
                    .into_iter()
                    .map(|(_, v)| v)
                    .fold(f64::NEG_INFINITY, f64::max)
            } else {
                foresee(&settle(after), me, 1, shape, search)
            };
            expected += p * if v.is_finite() { v } else { 0.0 };
        }
        out.push((action, expected));
    }
    search.limit = total;
    out
}

/// Every first action looked at from `root` (but those `excluded`), with the value of its
/// best turn: the candidates' foreseen values, and the others' (not looked into) below every
/// candidate's.
fn judge_turns<S: State>(
    root: &S,
    me: usize,
    shape: Shape,
    search: &mut Search,
    excluded: &[S::Action],
) -> Vec<(S::Action, f64)> {
    let proving = search.proofs && shape.proofs > 0;
    let want = if proving {
        shape.candidates.max(PROOF_WIDTH)
    } else {
        shape.candidates
    };
    let ends = turn_ends(root, me, ROOT_BEAM, want, excluded, 0, search);
    // Each end's foreseen value, once looked into.
    let mut values: Vec<Option<f64>> = vec![None; ends.len()];
    let look = |k: usize, search: &mut Search| {
        let end: &End<S> = &ends[k];
        // A win now needs no look at the replies; the sooner the better.
        if end.value > 1.5 {
            end.value + 1.0
        } else {
            // Equal foresights are told apart by chance, not by the beam's order, so two
            // players who block each other do not repeat one cycle to the round limit.
            let foreseen = foresee(&end.state, me, 1, shape, search);
            search.unless_repeated(&end.state, foreseen) + search.rng.gen::<f64>() * 1e-4
        }
    };
    for (k, v) in values.iter_mut().enumerate().take(shape.candidates) {
        if k == 0 || !search.spent() {
            *v = Some(look(k, search));
        }
    }
    if proving {
        // The best turn must not leave the other a forced win: while the best looked at is
        // proven lost, it is marked so and the next best (or a turn not yet looked at) taken.
        let mut checked = vec![false; ends.len()];
        loop {
            let best = (0..ends.len())
                .filter(|&k| values[k].is_some_and(|v| v > LOST))
                .max_by(|&a, &b| {
                    values[a]
                        .unwrap_or(LOST)
                        .total_cmp(&values[b].unwrap_or(LOST))
                });
            let Some(k) = best else {
                // Every turn looked at is lost: look at the next one.
                match (0..ends.len()).find(|&k| values[k].is_none()) {
                    Some(k) if !search.spent() => {
                        values[k] = Some(look(k, search));
                        continue;
                    }
                    _ => break,
                }
            };
            if checked[k] || values[k].is_some_and(|v| v > 1.5) || search.late() {
                break;
            }
            checked[k] = true;
            if leaves_forced_win(&ends[k].state, me, shape.proofs, search) {
                values[k] = Some(LOST);
            } else {
                break;
            }
        }
    }
    let mut out: Vec<(S::Action, f64)> = Vec::new();
    for (k, end) in ends.iter().enumerate() {
        // Not looked into: below every candidate, in the beam's order.
        let value = values[k].unwrap_or(-WIN - k as f64 * 1e-6);
        match out.iter_mut().find(|(a, _)| *a == end.first) {
            Some(t) => t.1 = t.1.max(value),
            None => out.push((end.first, value)),
        }
    }
    out
}

/// Whether after `me`'s turn ending in `state` the other player can force a win within
/// `turns` of his turns (proven; unknown counts as not).
fn leaves_forced_win<S: State>(state: &S, me: usize, turns: u32, search: &mut Search) -> bool {
    let ToAct::Player(other) = state.to_act() else {
        return false;
    };
    if other == me {
        return false;
    }
    let mut tally = Tally {
        positions: 0,
        cap: PROOF_CAP,
    };
    let proven = forced_win(state, other, turns, &mut tally);
    search.evaluations += tally.positions;
    proven == Some(true)
}

/// What `state`, just after a whole turn, is worth to `me` once the players after him have
/// each played (and, where the shape says so, `me` again): `ply` counts turns played so far.
fn foresee<S: State>(state: &S, me: usize, ply: usize, shape: Shape, search: &mut Search) -> f64 {
    let mover = match state.to_act() {
        ToAct::Player(p) => p,
        _ => return value(state, me, search.me),
    };
    let n = state.players();
    // The others reply once each; then me once more if the shape says so (not where the
    // judgement takes the throws to come by expectation: it has my next turn in it).
    let again = shape.again && !search.throws_judged;
    // Where the game says so, further rounds past that turn ([`State::further_rounds`]).
    let last = if again {
        n + 1 + n * state.further_rounds()
    } else {
        n
    };
    if ply >= last || (mover == me && !again) || search.spent() {
        return value(state, me, search.me);
    }
    // Past two players one reply each: three repliers' worst of two would be eight looks a
    // candidate for little (the repliers judge by their own value, as `greedy` does).
    let replies = if n > 2 { 1 } else { shape.replies.max(1) };
    // Threats and tied replies with two players only: among more, each reply is one turn of
    // three and the look is already the costliest (Hydra for Four).
    let threats = shape.threats && n == 2;
    let want = match (mover == me, threats) {
        (true, true) => THREAT_LOOKS,
        (true, false) => 1,
        _ if threats => replies.max(TIED_REPLIES),
        _ => replies,
    };
    if mover != me && search.hides {
        // He guesses my secret afresh at each of his decisions: right, with the odds of
        // one of his guesses a turn hitting it, he plays as if he saw it; else on a guess.
        let right = 1.0 - (1.0 - state.guess_odds(mover, me)).powi(GUESSES_A_TURN);
        let guessed = guessed_turn_ends(state, mover, shape.reply_beam, want, ply, search);
        let mut v = worst_reply(&guessed, state, me, ply, replies, shape, search);
        if right > 0.0 {
            let seen = turn_ends(state, mover, shape.reply_beam, want, &[], ply, search);
            let found = worst_reply(&seen, state, me, ply, replies, shape, search);
            v = right * found + (1.0 - right) * v;
        }
        return v;
    }
    if search.throws_judged {
        return thrown_reply(state, mover, me, ply, want, shape, search);
    }
    let ends = turn_ends(state, mover, shape.reply_beam, want, &[], ply, search);
    if ends.is_empty() {
        return value(state, me, search.me);
    }
    if mover == me {
        // My own turn again: my best, looked past where a further round follows, else a
        // turn after which the next player wins at once counted as lost where the shape
        // checks threats.
        let mut best = f64::NEG_INFINITY;
        let further = ply + 1 < last;
        for end in &ends {
            let mut v = search.unless_repeated(&end.state, own_value(end, me, search.me));
            if further && end.state.to_act() != ToAct::Over {
                let foreseen = foresee(&end.state, me, ply + 1, shape, search);
                v = search.unless_repeated(&end.state, foreseen);
            } else if threats
                && v > best
                && v < WIN
                && loses_at_once(&end.state, me, ply, shape, search)
            {
                v = 1.0 - WIN;
            }
            best = best.max(v);
        }
        return best;
    }
    worst_reply(&ends, state, me, ply, replies, shape, search)
}

/// What the other player's turns `ends` from `state` leave `me`: the worst of his plausible
/// ones (his best `replies` by his own judgement, and every one tied with his best), each
/// looked past. A turn that wins for him ends the look.
fn worst_reply<S: State>(
    ends: &[End<S>],
    state: &S,
    me: usize,
    ply: usize,
    replies: usize,
    shape: Shape,
    search: &mut Search,
) -> f64 {
    if ends.is_empty() {
        return value(state, me, search.me);
    }
    let mut worst = f64::INFINITY;
    let tied = ends.first().map_or(0, |top| {
        ends.iter()
            .take_while(|e| e.value >= top.value - TIE)
            .count()
    });
    for end in ends.iter().take(replies.max(tied)) {
        let v = if end.state.to_act() == ToAct::Over {
            value(&end.state, me, search.me)
        } else {
            foresee(&end.state, me, ply + 1, shape, search)
        };
        worst = worst.min(v);
    }
    worst
}

/// What the other player's turn from `state` leaves `me` where the judgement takes the
/// throws to come by expectation ([`State::judges_throws`]): his throw by expectation over
/// the die's faces, not one face drawn, which made one candidate look best for a lucky or
/// unlucky throw; after each face his best turn by his own evaluation (the worst for `me` of
/// those tied with it), as `greedy` plays it, not the worst of his best two: the expectation
/// has no lucky throw to guard against. Whether he throws at all (where he may take his
/// clicks instead) is decided as `greedy` decides it: on one throw of his own, the better of
/// that throw's best turn and his best turn without it, so he throws with the odds of the
/// faces whose best turn is the better; then the die falls anew.
fn thrown_reply<S: State>(
    state: &S,
    mover: usize,
    me: usize,
    ply: usize,
    want: usize,
    shape: Shape,
    search: &mut Search,
) -> f64 {
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let mut throws: Vec<(S::Action, S)> = Vec::new();
    for &a in &legal {
        let mut after = state.clone();
        after.apply(a);
        if after.to_act() == ToAct::Chance {
            throws.push((a, after));
        }
    }
    let excluded: Vec<S::Action> = throws.iter().map(|(a, _)| *a).collect();
    let kept = turn_ends(state, mover, shape.reply_beam, want, &excluded, ply, search);
    let Some((_, thrown)) = throws.into_iter().next() else {
        return worst_reply(&kept, state, me, ply, 1, shape, search);
    };
    let mut faces: Vec<(S::Chance, f64)> = Vec::new();
    thrown.chance_outcomes(&mut faces);
    // His best without the throw, and each face's best and what it leaves me.
    let unthrown = kept.first().map(|e| e.value);
    let mut odds_thrown = 0.0;
    let mut left_thrown = 0.0;
    let mut seen: Vec<(S::Chance, f64, f64)> = Vec::new();
    for (face, p) in faces {
        let (best, left) = match seen.iter().find(|(f, _, _)| *f == face) {
            Some(&(_, best, left)) => (best, left),
            None => {
                let mut after = thrown.clone();
                after.apply_chance(face);
                let (best, left) = if after.to_act() == ToAct::Player(mover) {
                    let ends = turn_ends(&after, mover, shape.reply_beam, want, &[], ply, search);
                    let best = ends.first().map_or(f64::NEG_INFINITY, |e| e.value);
                    (best, worst_reply(&ends, &after, me, ply, 1, shape, search))
                } else {
                    let after = settle(after);
                    (
                        value(&after, mover, search.me),
                        foresee(&after, me, ply + 1, shape, search),
                    )
                };
                seen.push((face, best, left));
                (best, left)
            }
        };
        if unthrown.map_or(true, |u| best > u) {
            odds_thrown += p;
        }
        left_thrown += p * left;
    }
    if odds_thrown >= 1.0 - 1e-9 || kept.is_empty() {
        return left_thrown;
    }
    let left_kept = worst_reply(&kept, state, me, ply, 1, shape, search);
    odds_thrown * left_thrown + (1.0 - odds_thrown) * left_kept
}

/// Whether the player to act in `state` (another than `me`) has a whole turn that wins at
/// once, by his own beam (`greedy`'s: the win `greedy` would find).
fn loses_at_once<S: State>(
    state: &S,
    me: usize,
    ply: usize,
    shape: Shape,
    search: &mut Search,
) -> bool {
    let ToAct::Player(next) = state.to_act() else {
        return false;
    };
    if next == me || search.spent() {
        return false;
    }
    let ends = guessed_turn_ends(state, next, shape.reply_beam, 1, ply + 1, search);
    ends.first().is_some_and(|e| {
        e.state.to_act() == ToAct::Over
            && e.state.returns()[next] >= 1.0
            && e.state.returns()[me] <= 0.0
    })
}

/// A whole turn's end as `me` values it (`me` played it).
fn own_value<S: State>(end: &End<S>, me: usize, searcher: usize) -> f64 {
    value(&end.state, me, searcher)
}

/// The `want` best whole turns of `mover` from `state`, best first by his value of their
/// ends, one per distinct end (told apart by every player's evaluation): `greedy`'s beam of
/// `beam` partial turns, every turn that ends within [`DEPTH`] actions kept; turns longer
/// than that end where the look stops. Turns beginning with an action `excluded` are not
/// looked at. A die is thrown from the dice of turn `ply` (the same for every candidate).
fn turn_ends<S: State>(
    state: &S,
    mover: usize,
    beam: usize,
    want: usize,
    excluded: &[S::Action],
    ply: usize,
    search: &mut Search,
) -> Vec<End<S>> {
    let mut dice = ChaCha8Rng::seed_from_u64(
        search.dice ^ (ply as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
    );
    let mut ends: Vec<End<S>> = Vec::new();
    let mut frontier: Vec<(S, Path<S::Action>)> = vec![(state.clone(), [None; DEPTH])];
    let mut actions = Vec::new();
    for depth in 0..DEPTH {
        let sooner = depth as f64 * 1e-3;
        let mut next: Vec<(f64, S, Path<S::Action>)> = Vec::new();
        for (at, path) in &frontier {
            actions.clear();
            at.legal_actions(&mut actions);
            for &action in &actions {
                if path[0].is_none() && excluded.contains(&action) {
                    continue;
                }
                let mut after = at.clone();
                after.apply(action);
                let mut path = *path;
                path[depth] = Some(action);
                throw(&mut after, &mut dice);
                let jitter = search.rng.gen::<f64>() * 1e-6;
                search.evaluations += 1;
                if after.to_act() == ToAct::Player(mover) {
                    next.push((value(&after, mover, search.me) + jitter, after, path));
                    continue;
                }
                let after = settle(after);
                let v = value(&after, mover, search.me) + jitter - sooner;
                ends.push(End {
                    value: v,
                    state: after,
                    first: path[0].unwrap_or(action),
                    path,
                });
            }
        }
        if next.is_empty() {
            frontier.clear();
            break;
        }
        if search.late() {
            // Out of time in play: the turns looked at so far, the rest where they stand.
            frontier = next.into_iter().map(|(_, s, p)| (s, p)).collect();
            break;
        }
        next.sort_by(|a, b| b.0.total_cmp(&a.0));
        next.truncate(beam.max(1));
        frontier = next.into_iter().map(|(_, s, p)| (s, p)).collect();
    }
    // Turns longer than the look end where it stopped.
    for (at, path) in frontier {
        if let Some(first) = path[0] {
            ends.push(End {
                value: value(&at, mover, search.me) - 1.0,
                state: at,
                first,
                path,
            });
        }
    }
    ends.sort_by(|a, b| b.value.total_cmp(&a.value));
    // One per distinct end: the same position reached by clicks in another order.
    let mut seen: Vec<Vec<u64>> = Vec::new();
    let mut out = Vec::new();
    for end in ends {
        if out.len() >= want {
            break;
        }
        let n = end.state.players();
        let key: Vec<u64> = if end.state.to_act() == ToAct::Over {
            end.state.returns()[..n]
                .iter()
                .map(|v| v.to_bits())
                .collect()
        } else {
            // The levels' finer judgement too: where `greedy`'s counts tie, different ends
            // must not pass for one.
            let fine = (0..n).map(|p| end.state.judge_for(p));
            end.state.evaluate()[..n]
                .iter()
                .copied()
                .chain(fine)
                .map(|v| v.to_bits())
                .collect()
        };
        if !seen.contains(&key) {
            seen.push(key);
            out.push(end);
        }
    }
    out
}

/// The `want` best whole turns of `mover`, another player than the searcher, from `state`, as
/// [`turn_ends`] finds them, but chosen on `mover`'s own guess of what he cannot see
/// ([`State::guessed_by`]) and played on `state`: where the searcher's view hides something
/// (Algol), the other player does not know the searcher's secret man, so a turn that leaves
/// it in line with his men is not foreseen as found out, and his challenge of a man he
/// wrongly suspects is foreseen as the miss it is. His guess is drawn from the searcher's
/// guess number and `ply`, the same for every candidate (common random numbers).
fn guessed_turn_ends<S: State>(
    state: &S,
    mover: usize,
    beam: usize,
    want: usize,
    ply: usize,
    search: &mut Search,
) -> Vec<End<S>> {
    if !search.hides || mover == search.me {
        return turn_ends(state, mover, beam, want, &[], ply, search);
    }
    let mut guessing = ChaCha8Rng::seed_from_u64(
        search.dice
            ^ 0x6e55_0000
            ^ search.guess.wrapping_mul(0x2545_f491_4f6c_dd1d)
            ^ (ply as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
    );
    let guessed = state.guessed_by(mover, &mut guessing);
    let ends = turn_ends(&guessed, mover, beam, want, &[], ply, search);
    let mut dice = ChaCha8Rng::seed_from_u64(
        search.dice ^ (ply as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
    );
    ends.into_iter()
        .map(|end| {
            // The same actions on the state as it is (a die thrown afresh: no game with a
            // die hides anything).
            let mut played = state.clone();
            for &action in end.path.iter().flatten() {
                if played.to_act() != ToAct::Player(mover) {
                    break;
                }
                played.apply(action);
                throw(&mut played, &mut dice);
                search.evaluations += 1;
            }
            End {
                state: settle(played),
                ..end
            }
        })
        .collect()
}

/// What a draw is worth less than its share: the search plays for a win where it can (an
/// Orbs endgame traded down to two orbs that cannot take each other is a draw the evaluation
/// calls even).
pub(crate) const CONTEMPT: f64 = 0.15;

/// The value of a state for `me`: a win [`WIN`], a loss `1 - WIN`, a draw its share less
/// [`CONTEMPT`] (another player's draw as `greedy` values it where the game says so:
/// [`State::others_draw_as_greedy`]), else the evaluation (in `0..1`): the levels' own
/// ([`State::judge_for`]) where `me` is the `searcher`, `greedy`'s otherwise.
fn value<S: State>(state: &S, me: usize, searcher: usize) -> f64 {
    match state.to_act() {
        ToAct::Over => {
            let r = state.returns()[me];
            if r >= 1.0 {
                WIN
            } else if r <= 0.0 {
                1.0 - WIN
            } else if me != searcher && state.others_draw_as_greedy() {
                greedy::value(state, me)
            } else {
                r - CONTEMPT
            }
        }
        _ if me == searcher => state.judge_for(me),
        _ => state.evaluate_for(me),
    }
}
