//! The bot pool: a fixed number of OS threads (`--bot-threads`) that run computer players'
//! decisions, apart from the tokio runtime that runs the rooms, so a search of up to two
//! seconds never delays a room's broadcast. Bounded twice: at most `--max-bot-games` games
//! with computer players at once (a room holds a [`BotGame`] while it seats one; past the cap
//! `add_bot` and `quick` with `bots` are refused with `full`), and the queue of decisions
//! holds at most one per seat of those games, so it never refuses one. Decisions are run in
//! the order asked; a slow level delays only the bots queued behind it.

use crate::system::BotJob;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};

/// Most games with computer players at once by default (`--max-bot-games`).
pub const MAX_BOT_GAMES: usize = 200;

/// Most seats of one game (Orbs: six): one queued decision each.
const SEATS_PER_GAME: usize = 6;

/// A decision to make, with where to send it.
type Work = Box<dyn FnOnce() + Send>;

/// The threads computer players think on.
pub struct Pool {
    /// Decisions waiting for a thread (bounded: one per seat of every admitted game).
    queue: SyncSender<Work>,
    /// Games with computer players now.
    games: Arc<AtomicUsize>,
    /// Most such games at once.
    max_games: usize,
}

/// A room's place among the games with computer players: given back when dropped (the
/// room's last bot left, or the room ended).
#[derive(Debug)]
pub struct BotGame {
    /// The pool's count, decremented on drop.
    games: Arc<AtomicUsize>,
}

impl Drop for BotGame {
    fn drop(&mut self) {
        self.games.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Pool {
    /// Starts `threads` threads (at least one) for at most `max_games` games, on `cpus` (if
    /// any: `--bot-cpus`). They end when the pool is dropped (the server's shared state goes).
    pub fn new(threads: usize, max_games: usize, cpus: &[usize]) -> Pool {
        let (queue, work) = sync_channel::<Work>(max_games.max(1) * SEATS_PER_GAME);
        let work = Arc::new(Mutex::new(work));
        for i in 0..threads.max(1) {
            let work = work.clone();
            let cpus = cpus.to_vec();
            let spawned = std::thread::Builder::new()
                .name(format!("orion-bot-{i}"))
                .spawn(move || {
                    if !cpus.is_empty() {
                        if let Err(e) = crate::scheduling::run_on(&cpus) {
                            tracing::error!("bot thread {i} not moved to --bot-cpus: {e}");
                        }
                    }
                    run(&work)
                });
            if let Err(e) = spawned {
                tracing::error!("bot thread {i} not started: {e}");
            }
        }
        Pool {
            queue,
            games: Arc::new(AtomicUsize::new(0)),
            max_games,
        }
    }

    /// A place for one more game with computer players, unless the pool has all it takes.
    pub fn admit(&self) -> Option<BotGame> {
        let taken = self
            .games
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.max_games).then_some(n + 1)
            });
        taken.ok().map(|_| BotGame {
            games: self.games.clone(),
        })
    }

    /// Most games with computer players at once.
    pub fn max_games(&self) -> usize {
        self.max_games
    }

    /// How many games with computer players there are now.
    pub fn games(&self) -> usize {
        self.games.load(Ordering::Acquire)
    }

    /// Runs `job` with `level` and `seed` on a bot thread and hands what it decided to
    /// `reply` there. `false` if the queue is full (it holds one decision per seat of every
    /// admitted game, so only a room asking twice for a seat could fill it).
    pub fn think<R: Send + 'static>(
        &self,
        job: BotJob,
        level: orion_ai::Level,
        seed: u64,
        reply: impl FnOnce(Option<crate::system::BotMove>) -> R + Send + 'static,
    ) -> bool {
        let work: Work = Box::new(move || {
            let decided =
                catch_unwind(AssertUnwindSafe(|| job(level, seed))).unwrap_or_else(|_| {
                    tracing::error!("a computer player's search panicked: it passes this decision");
                    None
                });
            reply(decided);
        });
        match self.queue.try_send(work) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => false,
        }
    }
}

/// One bot thread: takes decisions until the pool is gone.
fn run(work: &Mutex<Receiver<Work>>) {
    loop {
        let next = match work.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        match next {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::BotMove;

    #[test]
    fn past_the_cap_no_game_is_admitted_until_one_ends() {
        let pool = Pool::new(1, 2, &[]);
        let a = pool.admit().unwrap();
        let _b = pool.admit().unwrap();
        assert!(pool.admit().is_none());
        drop(a);
        assert_eq!(pool.games(), 1);
        assert!(pool.admit().is_some());
    }

    #[test]
    fn a_decision_comes_back_as_a_message_and_a_panic_passes() {
        let pool = Pool::new(1, 2, &[]);
        let (tx, rx) = std::sync::mpsc::channel();
        let level = orion_ai::Level::new(3).unwrap();
        let job: BotJob = Box::new(|level, seed| {
            Some(BotMove {
                action: format!("{level}:{seed}"),
                reaction: 0,
            })
        });
        let t = tx.clone();
        assert!(pool.think(job, level, 9, move |m| t.send(m)));
        assert_eq!(rx.recv().unwrap().unwrap().action, "3:9");
        let job: BotJob = Box::new(|_, _| panic!("search bug"));
        assert!(pool.think(job, level, 9, move |m| tx.send(m)));
        assert_eq!(rx.recv().unwrap(), None);
    }
}
