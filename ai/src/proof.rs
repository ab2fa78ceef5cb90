//! A bounded proof of a forced win, for two players who see everything and throw no die:
//! whether the player to act can win within `k` of his own whole turns whatever the other
//! does, every turn of both tried (no evaluation, no beam). Level 8 uses it to reject a turn
//! after which the other player forces a win further off than its look and its evaluation
//! see (Cassiopeia's forks). Counted in positions; past its cap it answers "unknown".

use crate::greedy::settle;
use crate::state::{State, ToAct};

/// The most actions one whole turn is followed into (`greedy`'s look).
const DEPTH: usize = 8;

/// The proof's bookkeeping: positions made so far, and the most it may make.
pub(crate) struct Tally {
    /// Positions made (each action applied counts one).
    pub positions: u64,
    /// Past this the answer is unknown.
    pub cap: u64,
}

/// Whether `p`, to act in `state`, wins within `k` of his whole turns against every answer:
/// `Some(true)` proven, `Some(false)` proven not, `None` past the cap or where a die, another
/// player than the two, or a turn longer than [`DEPTH`] actions is met.
pub(crate) fn forced_win<S: State>(state: &S, p: usize, k: u32, tally: &mut Tally) -> Option<bool> {
    let ends = whole_turns(state, p, tally)?;
    let won = |s: &S| s.to_act() == ToAct::Over && s.returns()[p] >= 1.0;
    if ends.iter().any(won) {
        return Some(true);
    }
    if k <= 1 {
        return Some(false);
    }
    let mut unknown = false;
    for end in ends.iter().filter(|e| e.to_act() != ToAct::Over) {
        let ToAct::Player(other) = end.to_act() else {
            unknown = true;
            continue;
        };
        if other == p {
            unknown = true;
            continue;
        }
        let Some(answers) = whole_turns(end, other, tally) else {
            unknown = true;
            continue;
        };
        // Every answer must leave `p` a forced win (or lose at once).
        let mut forced = Some(true);
        for answer in &answers {
            if answer.to_act() == ToAct::Over {
                if answer.returns()[p] < 1.0 {
                    forced = Some(false);
                    break;
                }
                continue;
            }
            match forced_win(answer, p, k - 1, tally) {
                Some(true) => {}
                other => {
                    forced = other;
                    break;
                }
            }
        }
        match forced {
            Some(true) => return Some(true),
            Some(false) => {}
            None => unknown = true,
        }
    }
    (!unknown).then_some(false)
}

/// Every whole turn of `p` from `state`, each where it ends (the other's forced answers
/// made); `None` past the cap, or where a die is thrown or a turn runs past [`DEPTH`].
fn whole_turns<S: State>(state: &S, p: usize, tally: &mut Tally) -> Option<Vec<S>> {
    let mut ends = Vec::new();
    let mut frontier = vec![state.clone()];
    let mut actions = Vec::new();
    for _ in 0..DEPTH {
        let mut next = Vec::new();
        for at in &frontier {
            actions.clear();
            at.legal_actions(&mut actions);
            for &action in &actions {
                tally.positions += 1;
                if tally.positions > tally.cap {
                    return None;
                }
                let mut after = at.clone();
                after.apply(action);
                match after.to_act() {
                    ToAct::Chance => return None,
                    ToAct::Player(q) if q == p => next.push(after),
                    _ => ends.push(settle(after)),
                }
            }
        }
        if next.is_empty() {
            return Some(ends);
        }
        frontier = next;
    }
    None
}
