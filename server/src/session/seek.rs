//! `quick` with `days_per_move`: a correspondence seek. A seek is a waiting correspondence
//! room, not a structure of its own: it is stored and restored as any room is, listed in the
//! lobby, its seat kept a week (`SEEK_HOLD`) with its owner away, withdrawn with `leave`,
//! and counted in the owner's correspondence seats. A seek first looks for one that matches
//! (same game, players and days, a free seat, someone else's) and takes it; else it opens
//! its own. Either way the seeker is ready as he sits (his `joined` and `ready` stored in
//! one append, so a restart between them cannot leave a seek whose owner is not ready), and
//! the game starts as the last seat is taken, whoever is connected then.

use super::{Handled, Session};
use crate::player::Player;
use crate::protocol::{Code, Refusal, ReplyTo};
use crate::room::{FirstSeat, RoomCmd, RoomOptions};
use orion_protocol::RoomOptions as WireOptions;

impl Session {
    /// A correspondence seek for `players` of `game`, `days` a turn.
    pub(super) async fn seek(
        &mut self,
        re: &ReplyTo,
        player: Player,
        game: &str,
        players: u8,
        days: u8,
    ) -> Handled {
        if !self.account {
            return Err(Refusal::new(
                Code::BadRequest,
                "correspondence games are for claimed names: a seat is kept for days and its \
                 player told when it is his turn (claim yours with `register`)",
            ));
        }
        let (system, info) = self.find_game(game)?;
        let wire = WireOptions {
            days_per_move: Some(days),
            ..WireOptions::default()
        };
        let options = RoomOptions::parse(Some(&wire), &*system, &info, Some(players))?;
        self.shared.lobby.may_sit(&player.id, true)?;
        let open = self
            .shared
            .lobby
            .seeks(info.id, players, days, &player.name);
        for room in open {
            let Ok(handle) = self.room(&room).await else {
                continue;
            };
            let outbox = self.outbox.clone();
            let (done, entered) = tokio::sync::oneshot::channel();
            let join = RoomCmd::Join {
                re: re.clone(),
                player: player.clone(),
                seat: None,
                outbox: outbox.clone(),
                ready: true,
                done,
            };
            if self.send(&handle, join).await.is_err() {
                continue; // gone meanwhile: the next seek, or a room of his own
            }
            match entered.await {
                Ok(true) => {
                    self.rooms.insert(handle.id.clone(), handle.clone());
                    return Ok(());
                }
                // Refused (taken meanwhile): the room said why; nothing else is tried, so
                // the seeker is told one thing.
                Ok(false) => return Ok(()),
                // The room ended before it read the join (its last seat just went): no
                // answer came, so the next seek is tried, or a room of his own made.
                Err(_) => continue,
            }
        }
        if !self.shared.lobby.may_open_waiting_room() {
            return Err(Refusal::new(
                Code::Full,
                "too many rooms are waiting for players: take a seek from the lobby instead",
            ));
        }
        let first = FirstSeat {
            queued: self.queued(re, player),
            seat: None,
            ready: true,
        };
        self.open_room(first, (system, info, options), false, false)
            .await?;
        Ok(())
    }
}
