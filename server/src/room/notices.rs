//! What a room tells its players through the notifier (`notify/`: their other tabs, Web
//! Push, e-mail, as each chose): that it is their turn while they are away, that a
//! correspondence deadline is a day off, that a correspondence game is over. Never a move or
//! anything hidden: which room, and what happened.

use super::Room;
use crate::notify::Notice;

impl Room {
    /// The turn passed from `before` to a player who is away (no connection, not a computer
    /// player): the notifier may reach him elsewhere (`notify/`; it knows whether he is an
    /// account and what he chose).
    pub(super) fn tell_away_mover(&self, before: orion_protocol::Seat) {
        let now = self.table.turn().seat;
        if now == before {
            return;
        }
        let Some(away) = self
            .seats
            .iter()
            .find(|(s, _)| s.wire() == now)
            .map(|(_, o)| o)
        else {
            return;
        };
        if away.conn.is_some() || away.bot.is_some() {
            return;
        }
        let opponents = (self.seats.values())
            .filter(|o| o.player.id != away.player.id)
            .map(|o| o.player.name.to_string())
            .collect();
        let notice = Notice::YourTurn {
            room: self.id.to_string(),
            game: self.game_id.to_string(),
            opponents,
        };
        self.shared.notifier.send(&away.player.id, notice);
    }

    /// A correspondence game started (a seek taken while its owner was away): the first
    /// mover is told it is his turn if he is not here to see it.
    pub(super) fn tell_away_starter(&self) {
        if self.options.days_per_move.is_none() {
            return;
        }
        let first = self.table.turn().seat;
        // Any other seat as "before": the turn is new to the first mover.
        if let Some(other) = (self.table.seats().iter()).find(|s| s.seat.wire() != first) {
            self.tell_away_mover(other.seat.wire());
        }
    }

    /// A correspondence mover with a day (or half his turn) left is told, wherever he is.
    pub(super) fn tell_deadline_near(&self) {
        let Some((seat, _)) = self.clock.turn else {
            return;
        };
        let Some(mover) = self.seats.get(&seat).filter(|o| o.bot.is_none()) else {
            return;
        };
        let notice = Notice::Deadline {
            room: self.id.to_string(),
            game: self.game_id.to_string(),
        };
        self.shared.notifier.send(&mover.player.id, notice);
    }

    /// A correspondence game ended: each person seated in it is told how.
    pub(super) fn tell_game_over(&self) {
        if self.options.days_per_move.is_none() {
            return;
        }
        let Some(result) = self.table.result().or_else(|| self.result.clone()) else {
            return;
        };
        let text = orion_protocol::describe_result(&result);
        for o in self.seats.values().filter(|o| o.bot.is_none()) {
            let notice = Notice::Over {
                room: self.id.to_string(),
                game: self.game_id.to_string(),
                result: text.clone(),
            };
            self.shared.notifier.send(&o.player.id, notice);
        }
    }
}
