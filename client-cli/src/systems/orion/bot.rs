//! An ORION bot's decisions: the AI crate's, asked of the bot's own copy of the room's game
//! ([`super::mirror`]) as its seat sees it (`OrionView`: no other seat's secret man in it).

use crate::bot::Decider;
use orion_ai::systems::orion::OrionView;
use orion_ai::systems::places::edge_distance;
use orion_engine::{Action, Game, Seat};

/// `seat`'s next action in `game` by `decider`, or `None` when it has nothing to decide (or
/// its move cannot be ended: a room's turn clock ends it then, no player sends `timeout`).
pub fn act(decider: &mut Decider, game: &Game, seat: Seat) -> Option<Action> {
    let view = OrionView::new(game, seat, 0)?;
    match decider.decide(&view)? {
        Action::Timeout => None,
        action => Some(action),
    }
}

/// Algol's secret man for `seat`, chosen at the start before anything else (the room's copy
/// and the bot's stay simplest so): the AI's choice when its decision is one, else the man
/// nearest the edge he must reach (crossing with him scores the most). `None` once chosen, or
/// in a game without secrets.
pub fn secret(decider: &mut Decider, game: &Game, seat: Seat) -> Option<Action> {
    if game.secret(seat).is_some() {
        return None;
    }
    let goal = seat.edge().opposite();
    let position = game.position();
    let choices = game
        .legal_actions(seat, 0)
        .into_iter()
        .filter_map(|a| match a {
            Action::Secret { piece } => Some((piece, position.find(piece)?)),
            _ => None,
        });
    let nearest = choices.min_by_key(|(_, slot)| edge_distance(*slot, goal))?;
    match act(decider, game, seat) {
        Some(a @ Action::Secret { .. }) => Some(a),
        _ => Some(Action::Secret { piece: nearest.0 }),
    }
}
