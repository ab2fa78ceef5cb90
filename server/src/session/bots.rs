//! A `quick` match with `bots: true`: if no person completes the group within the server's
//! `bot_wait`, the player leaves the queue and a room is made for him whose other seats
//! computer players fill, at the level nearest his rating in the game (`bots::level`). Each
//! waiting player has his own wait: two people waiting for four seats each get a room with
//! bots rather than one together.

use super::{Handled, Session};
use crate::lobby::Queued;
use crate::player::Player;
use crate::protocol::{Code, Refusal, ReplyTo};
use crate::room::{self, FirstSeat, RoomCmd, RoomOptions};
use crate::shared::Shared;
use crate::system::{GameInfo, GameSystem};
use std::sync::Arc;

impl Session {
    /// Refuses a `quick` with `bots` at once when its game has no computer players, or the
    /// server plays all the games with them it can.
    pub(super) fn check_bots(&self, system: &Arc<dyn GameSystem>) -> Handled {
        if !system.has_bots() {
            return Err(Refusal::new(
                Code::BadRequest,
                "this game has no computer players: ask for a quick match without `bots`",
            ));
        }
        if self.shared.bots.games() >= self.shared.bots.max_games() {
            return Err(bots_full());
        }
        Ok(())
    }

    /// Starts the wait of a player just queued with `bots`: a task that, after `bot_wait`,
    /// takes him out of the queue if he is still in it and seats him with computer players.
    pub(super) fn fill_with_bots_later(
        &self,
        re: &ReplyTo,
        player: Player,
        system: Arc<dyn GameSystem>,
        info: GameInfo,
        options: RoomOptions,
    ) {
        let shared = self.shared.clone();
        let entry = self.queued(re, player);
        // Timed from the request, not from when the task first runs.
        let at = shared.clock.now_ms().saturating_add(shared.bot_wait);
        tokio::spawn(async move {
            let mut shutdown = shared.shutdown();
            tokio::select! {
                _ = shared.clock.sleep_until(at) => {}
                _ = shutdown.changed() => return,
            }
            fill(&shared, entry, &system, &info, options).await;
        });
    }
}

/// The wait is over: the player, if still queued, gets a room of his own with computer
/// players in every other seat.
async fn fill(
    shared: &Arc<Shared>,
    entry: Queued,
    system: &Arc<dyn GameSystem>,
    info: &GameInfo,
    options: RoomOptions,
) {
    // A person completed his group meanwhile, he unqueued, or he went away.
    if entry.outbox.is_closed() || !shared.lobby.matchmaker.unqueue(entry.outbox.id).await {
        return;
    }
    shared.lobby.refresh_waiting().await;
    let (outbox, re) = (entry.outbox.clone(), entry.re.clone());
    let Some(game) = shared.bots.admit() else {
        outbox.refuse(&re, &bots_full());
        return;
    };
    let ids = [entry.player.id.to_string()];
    let rating = match shared.store.ratings(info.id, &ids).await {
        Ok(found) => found
            .into_iter()
            .next()
            .map(|(_, r)| crate::rating::shown(&r.unwrap_or_else(crate::rating::newcomer))),
        Err(_) => None,
    };
    let level = crate::bots::level_for_rating(rating);
    let Ok(level) = orion_ai::Level::new(level) else {
        return;
    };
    let first = vec![FirstSeat::anywhere(entry)];
    match room::create(shared, system, info, options, false, true, first).await {
        Ok(handle) => {
            let _ = handle.tx.send(RoomCmd::FillBots { level, game }).await;
        }
        Err(refusal) => outbox.refuse(&re, &refusal),
    }
}

/// The refusal past the cap on games with computer players.
fn bots_full() -> Refusal {
    Refusal::new(
        Code::Full,
        "the server plays all the games with computer players it can: try again later",
    )
}
